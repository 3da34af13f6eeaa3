#pragma once

#include "eventrecord.h"
#include "toolcallrecord.h"

#include <optional>
#include <QByteArray>
#include <QMetaType>

// One event as the details pane shows it: its row, its payload as stored, and the tool call it is part of.
struct EventDetails
{
    qint64 roomId = 0;
    EventRecord record;
    QByteArray payload; // verbatim
    std::optional<ToolCallRecord> call;
    // When the row is a call's start: the payloads of its end and of its result row (AG-UI), verbatim, so that
    // the pane shows the call whole (its start alone said "pending" with no error for a call that failed).
    QByteArray endPayload;
    QByteArray resultPayload;
    // Its other results, before the one that settled it (an AG-UI call can have several): index and payload.
    QVector<std::pair<qint64, QByteArray>> earlierResults;
    std::optional<qint64> parentIndex; // RoomKit's thread root (parent_event_id), when it is in the room
};

Q_DECLARE_METATYPE(EventDetails)
