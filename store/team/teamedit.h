#pragma once

#include <optional>
#include <QString>
#include <QVector>

// A reviewer's edit as the team store keeps it (TeamSchema step 3): the item (room by system and own id, the index of
// a message's row or a call's card, a call's end for a pair fix), the field and the value made; never what the source
// said, which every copy has. Every copy applies it to its own rows (EditStore).
struct TeamEdit
{
    qint64 id = 0;
    QString system;
    QString room;
    qint64 seq = 0;
    std::optional<qint64> otherSeq;
    QString field; // text, arguments, result, outcome, link, unlink (Edit::fieldName)
    QString value;
    QString author;
    qint64 atMs = 0;
    bool present = true; // false: taken back
};

using TeamEdits = QVector<TeamEdit>;
