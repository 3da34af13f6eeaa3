#pragma once

#include <QJsonValue>
#include <QString>

// How a tool call ended (SOURCES.md §4.4): served, refused, failed, blocked, unserved or cancelled.
namespace Outcome {
inline const QString Served = QStringLiteral("served");
inline const QString Refused = QStringLiteral("refused");
inline const QString Failed = QStringLiteral("failed");
inline const QString Blocked = QStringLiteral("blocked");
inline const QString Unserved = QStringLiteral("unserved");
inline const QString Cancelled = QStringLiteral("cancelled");

bool isKnown(const QString& outcome);

// The error text a tool result carries, when it is an {"error": ...} object or a JSON string holding one.
QString errorOfResult(const QJsonValue& result);

// Sorts an error text: a gate or the handler refused the call, nothing served it, or it failed.
QString classifyError(const QString& error);

// A RoomKit TOOL_CALL_END row: the stored outcome when newer RoomKit wrote one, else derived from the row
// status (blocked), content.status (failed) and the error in the result, as §4.4 orders them.
QString forRoomKitEnd(
    const QString& rowStatus, const QString& contentStatus, const QString& storedOutcome, const QJsonValue& result);
} // namespace Outcome
