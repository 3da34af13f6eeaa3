#pragma once

#include "toolcallrecord.h"

#include <optional>
#include <QString>
#include <QVector>

// A tool start or end row, as the pairer needs it.
struct ToolEvent
{
    qint64 index = 0;
    bool isStart = true;
    QString correlationId;
    QString toolId;
    QString toolName;
    qint64 createdMicros = 0;
    QString contentStatus;
    QString outcome; // of an end
    QString error;
    std::optional<qint64> durationMs;
    QString arguments; // as compact JSON
    QString result;
    bool folded = false; // the importer already marked its row as shown in its card (an end it saw opened)
};

// Pairs tool starts with their ends (SOURCES.md §4.3, §4.5).
//
// RoomKit's key is content.tool_id, but providers reuse ids such as "call_0" in every answer, so an end
// pairs first with an open start of the same (correlation, tool_id): "exact". Failing that, with the
// oldest open start of the same tool_id in another correlation: "id_only". Without an id, with the oldest
// open start of the same name in the same correlation: "name_only". A start that nothing closes is
// "start_only" (outcome unserved); an end that nothing opened is "end_only" and keeps its own outcome.
// Parallel calls of one tool carry distinct ids, so they pair exactly whatever their order.
namespace ToolPairer {
ToolCallRecords pair(const QVector<ToolEvent>& eventsInIndexOrder);
}
