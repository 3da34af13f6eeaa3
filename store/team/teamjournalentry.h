#pragma once

#include <optional>
#include <QString>
#include <QVector>

// One entry of the team store's journal, as the chain hashes it (JournalChain): who, when, what, where, before and
// after, and the hashes that tie it to the entry before.
struct TeamJournalEntry
{
    qint64 id = 0;
    qint64 atMs = 0; // when the change was made
    qint64 recordedMs = 0; // when the server took it
    QString author;
    QString login; // the PostgreSQL role that sent it
    QString action; // as the workspace's journal names it: note_added, review ...
    QString system;
    QString room;
    std::optional<qint64> seq;
    QString before; // null: none
    QString after;
    QString prevHash;
    QString hash;
};

using TeamJournalEntries = QVector<TeamJournalEntry>;
