#pragma once

#include <optional>
#include <QMetaType>
#include <QString>
#include <QVector>

// What a reviewer changed of an item (EditStore): a message's text, a call's arguments, result or outcome, or
// which end closes which start. Kept against the room and the item's source index, never the workspace's row.
struct Edit
{
    enum class Field { Text, Arguments, Result, Outcome, Link, Unlink };

    qint64 id = 0;
    qint64 roomId = 0;
    QString room; // the room's own id in its source
    qint64 index = 0; // the item: a message's row, a call's card (its start, else its end)
    std::optional<qint64> otherIndex; // link and unlink: the call's end
    Field field = Field::Text;
    QString original; // the value as the source gave it (link and unlink: the calls before, JSON)
    QString value; // the value as the reviewer made it (link and unlink: the calls after, JSON)
    QString author;
    qint64 atMs = 0;
    bool saved = false;
    QString previous; // what showed before this edit, for its journal entry (not kept)

    bool isPair() const { return field == Field::Link || field == Field::Unlink; }
    static QString fieldName(Field field); // as stored: text, arguments, ...
    static std::optional<Field> fieldFromName(const QString& name);
};

Q_DECLARE_METATYPE(Edit)
using Edits = QVector<Edit>;
