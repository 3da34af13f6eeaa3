#pragma once

#include <optional>
#include <QJsonValue>
#include <QString>
#include <QStringList>

// How a tool call ended (SOURCES.md §4.4), as records hold it. Stored and filtered (outcome:failed) by its name.
enum class Outcome : quint8 {
    None, // not a call's row, or a row that settles nothing
    Served,
    Refused,
    Failed,
    Blocked,
    Unserved,
    Cancelled,
};

namespace Outcomes {
QString name(Outcome outcome); // served, refused, ...; empty for None
// The outcome of that name; None for an empty or unknown name.
Outcome fromName(const QString& name);
bool isKnown(const QString& name);
QStringList names(); // the six names, in the order the filter offers them: served, failed, refused, ...
QVector<Outcome> all(); // the same six

// The error text a tool result carries, when it is an {"error": ...} object or a JSON string holding one.
QString errorOfResult(const QJsonValue& result);

// Sorts an error text: a gate or the handler refused the call, nothing served it, or it failed.
Outcome classifyError(const QString& error);

// A RoomKit TOOL_CALL_END row: the stored outcome when newer RoomKit wrote one, else derived from the row
// status (blocked), content.status (failed) and the error in the result, as §4.4 orders them.
Outcome forRoomKitEnd(
    const QString& rowStatus, const QString& contentStatus, const QString& storedOutcome, const QJsonValue& result);
} // namespace Outcomes
