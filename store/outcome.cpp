#include "outcome.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace Outcome {

bool isKnown(const QString& outcome)
{
    return outcome == Served || outcome == Refused || outcome == Failed || outcome == Blocked || outcome == Unserved
        || outcome == Cancelled;
}

QString errorOfResult(const QJsonValue& result)
{
    QJsonObject object;
    if (result.isObject()) {
        object = result.toObject();
    } else if (result.isString()) {
        const QString text = result.toString();
        // Only a string that is itself a JSON object can carry an error; skip the parse otherwise.
        if (!text.trimmed().startsWith(QLatin1Char('{')))
            return {};
        object = QJsonDocument::fromJson(text.toUtf8()).object();
    }
    const QJsonValue error = object.value(QLatin1String("error"));
    if (error.isUndefined() || error.isNull())
        return {};
    return error.isString() ? error.toString()
                            : QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

QString classifyError(const QString& error)
{
    // The texts RoomKit's gates and tool handler write (channels/_ai_tools.py, read for SOURCES.md §1.4).
    static const char* const refusals[] = {
        "denied by pre-execution hook",
        "not permitted by the agent's tool policy",
        "is gated by a skill",
        "exists but is not available to this agent",
    };
    for (const char* text : refusals) {
        if (error.contains(QLatin1String(text), Qt::CaseInsensitive))
            return Refused;
    }
    if (error.startsWith(QLatin1String("Invalid arguments for"), Qt::CaseInsensitive))
        return Refused;
    if (error.startsWith(QLatin1String("Unknown tool"), Qt::CaseInsensitive)
        || error.contains(QLatin1String("it is not declared"), Qt::CaseInsensitive))
        return Unserved;
    return Failed;
}

QString forRoomKitEnd(
    const QString& rowStatus, const QString& contentStatus, const QString& storedOutcome, const QJsonValue& result)
{
    if (isKnown(storedOutcome))
        return storedOutcome;
    if (rowStatus == QLatin1String("blocked"))
        return Blocked;
    if (contentStatus == QLatin1String("failed"))
        return Failed;
    const QString error = errorOfResult(result);
    if (!error.isEmpty())
        return classifyError(error);
    return Served;
}

} // namespace Outcome
