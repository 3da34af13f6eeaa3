#pragma once

#include "textpacker.h"

#include "eventrecord.h"

#include <optional>
#include <QByteArray>
#include <QString>

// The columns RoomKit's SQLiteStore keeps beside each event's JSON (events table, SOURCES.md §1.7).
// When the JSON cannot be read, they are what the row still tells.
struct RoomKitColumns
{
    QString id;
    QString type;
    qint64 index = 0;
    QString channelId;
    QString channelType;
    QString participantId;
    QString correlationId;
    QString parentId;
    double createdSeconds = 0;
};

// One RoomKit event row decoded: the derived columns, the text for search, and what was wrong with it.
struct DecodedRoomKitEvent
{
    EventRecord record;
    QString body; // message text, as RoomKit's own FTS indexes it
    QString arguments; // tool arguments as compact JSON
    QString result; // tool result as text
    QString contentStatus; // tool content.status: pending | completed | failed
    QString error; // tool content.error, or the error inside the result
    std::optional<qint64> durationMs;
    QByteArray payload; // verbatim, byte for byte
    PackedValue packedPayload; // as it is to be stored, when the reading thread packed it (RoomKitReader)
    QString problem; // empty when the row decoded cleanly
};

namespace RoomKitRowDecoder {
// Never throws and never fails: a row whose JSON is malformed or not UTF-8 is kept, flagged, and described
// in `problem`, with its derived columns taken from the source's columns.
DecodedRoomKitEvent decode(const QByteArray& data, const RoomKitColumns& columns);
} // namespace RoomKitRowDecoder
