#pragma once

#include <optional>
#include <QMetaType>
#include <QString>
#include <QVector>

// One change to a workspace, as the journal keeps it: who, when, what, where, before and after.
struct JournalEntry
{
    qint64 id = 0;
    qint64 atMs = 0;
    QString author;
    QString action; // Journal::Action's name: note_added, label_removed, marked, review ...
    qint64 roomId = 0;
    QString room; // the room's own id in its source
    std::optional<qint64> index; // the event's source index; nullopt: the room
    QString before;
    QString after;
    bool saved = false; // false: made since the workspace was last saved
};

Q_DECLARE_METATYPE(JournalEntry)
using JournalEntries = QVector<JournalEntry>;
