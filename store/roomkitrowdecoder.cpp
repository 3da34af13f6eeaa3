#include "roomkitrowdecoder.h"

#include "eventflags.h"
#include "eventkind.h"
#include "jsontext.h"
#include "outcome.h"
#include "timeutil.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringDecoder>

namespace {

QString str(const QJsonObject& o, QLatin1String key)
{
    return o.value(key).toString();
}

// The display text of a content object; composite parts are joined (RoomKit nests them at most 5 deep).
QString contentText(const QJsonObject& content, int depth = 0)
{
    const QString type = str(content, QLatin1String("type"));
    if (type == QLatin1String("composite") && depth < 8) {
        QStringList parts;
        const QJsonArray array = content.value(QLatin1String("parts")).toArray();
        for (const QJsonValue& part : array) {
            const QString text = contentText(part.toObject(), depth + 1);
            if (!text.isEmpty())
                parts << text;
        }
        return parts.join(QLatin1Char('\n'));
    }
    for (const char* key :
        { "body", "text", "plain_text", "caption", "transcript", "label", "address", "filename", "url" }) {
        const QString value = str(content, QLatin1String(key));
        if (!value.isEmpty())
            return value;
    }
    if (type == QLatin1String("location")) {
        return QString::number(content.value(QLatin1String("latitude")).toDouble()) + QStringLiteral(", ")
            + QString::number(content.value(QLatin1String("longitude")).toDouble());
    }
    if (type == QLatin1String("edit")) {
        return QStringLiteral("edit of %1: %2")
            .arg(str(content, QLatin1String("target_event_id")),
                contentText(content.value(QLatin1String("new_content")).toObject(), depth + 1));
    }
    if (type == QLatin1String("delete")) {
        QString text = QStringLiteral("delete of ") + str(content, QLatin1String("target_event_id"));
        const QString reason = str(content, QLatin1String("reason"));
        return reason.isEmpty() ? text : text + QStringLiteral(" (") + reason + QLatin1Char(')');
    }
    return {};
}

// RoomKit's FTS text: the first non-empty body/text/caption of the content or of its composite parts.
QString searchBody(const QJsonObject& content, int depth = 0)
{
    for (const char* key : { "body", "text", "caption" }) {
        const QString value = str(content, QLatin1String(key));
        if (!value.isEmpty())
            return value;
    }
    if (depth < 8) {
        const QJsonArray array = content.value(QLatin1String("parts")).toArray();
        for (const QJsonValue& part : array) {
            const QString text = searchBody(part.toObject(), depth + 1);
            if (!text.isEmpty())
                return text;
        }
    }
    return {};
}

QString roleForChannelType(const QString& channelType, const QString& type)
{
    if (channelType == QLatin1String("ai"))
        return QStringLiteral("assistant");
    if (channelType == QLatin1String("system") || type == QLatin1String("system"))
        return QStringLiteral("system");
    return QStringLiteral("user");
}

void addProblem(DecodedRoomKitEvent& out, const QString& what)
{
    out.problem = out.problem.isEmpty() ? what : out.problem + QStringLiteral("; ") + what;
}

// The column's time is out of range and the payload gave none either: the row has no time, and says why.
void noteTimeOutOfRange(DecodedRoomKitEvent& out, bool columnOutOfRange, double createdSeconds)
{
    if (!columnOutOfRange || out.record.createdMicros != 0)
        return;
    out.record.flags |= EventFlags::OutOfRange;
    addProblem(out, QStringLiteral("created_ts %1 is out of range (the event has no time)").arg(createdSeconds));
}

void fillFromColumns(EventRecord& r, const RoomKitColumns& c, bool* timeOutOfRange)
{
    r.nativeId = c.id;
    r.type = c.type;
    r.index = c.index;
    r.channelId = c.channelId;
    r.channelType = c.channelType;
    r.participantId = c.participantId;
    r.correlationId = c.correlationId;
    r.parentId = c.parentId;
    r.createdMicros = TimeUtil::secondsToMicros(c.createdSeconds, timeOutOfRange);
}

QString describeJsonError(const QByteArray& data, const QJsonParseError& error)
{
    return QStringLiteral("malformed JSON at byte %1 of %2: %3")
        .arg(error.offset)
        .arg(data.size())
        .arg(error.errorString());
}

} // namespace

namespace RoomKitRowDecoder {

DecodedRoomKitEvent decode(const QByteArray& data, const RoomKitColumns& columns)
{
    DecodedRoomKitEvent out;
    out.payload = data;
    EventRecord& r = out.record;
    bool timeOutOfRange = false;
    fillFromColumns(r, columns, &timeOutOfRange);

    QByteArray utf8 = data;
    bool invalid = false;
    const QString decoded = JsonText::decodeUtf8(data, &invalid);
    if (invalid) {
        r.flags |= EventFlags::InvalidUtf8;
        addProblem(out, QStringLiteral("invalid UTF-8 in the event JSON (kept byte for byte)"));
        utf8 = decoded.toUtf8(); // with U+FFFD in place of the bad bytes, so the rest can still be read
    }

    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(utf8, &parseError);
    if (parseError.error != QJsonParseError::NoError || !doc.isObject()) {
        r.flags |= EventFlags::MalformedJson;
        const QString what = parseError.error != QJsonParseError::NoError
            ? describeJsonError(utf8, parseError)
            : QStringLiteral("the event JSON is not an object");
        addProblem(out, what);
        r.kind = EventKinds::forRoomKitType(r.type);
        r.role = roleForChannelType(r.channelType, r.type);
        noteTimeOutOfRange(out, timeOutOfRange, columns.createdSeconds);
        return out;
    }

    const QJsonObject event = doc.object();
    const QJsonObject source = event.value(QLatin1String("source")).toObject();
    const QJsonObject content = event.value(QLatin1String("content")).toObject();
    const QJsonObject metadata = event.value(QLatin1String("metadata")).toObject();

    // The JSON is the source of truth (RoomKit reads rows back with model_validate_json); the columns are
    // copies, used only where the JSON lacks a field.
    auto prefer = [](const QJsonValue& v, const QString& fallback) { return v.isString() ? v.toString() : fallback; };
    r.nativeId = prefer(event.value(QLatin1String("id")), r.nativeId);
    r.type = prefer(event.value(QLatin1String("type")), r.type);
    r.status = str(event, QLatin1String("status"));
    r.blockedBy = str(event, QLatin1String("blocked_by"));
    r.channelId = prefer(source.value(QLatin1String("channel_id")), r.channelId);
    r.channelType = prefer(source.value(QLatin1String("channel_type")), r.channelType);
    r.participantId = prefer(source.value(QLatin1String("participant_id")), r.participantId);
    r.correlationId = prefer(event.value(QLatin1String("correlation_id")), r.correlationId);
    r.parentId = prefer(event.value(QLatin1String("parent_event_id")), r.parentId);
    if (const auto created = TimeUtil::parseIsoToMicros(str(event, QLatin1String("created_at"))))
        r.createdMicros = *created;
    r.kind = EventKinds::forRoomKitType(r.type);
    r.role = roleForChannelType(r.channelType, r.type);

    if (metadata.value(QLatin1String("edited")).toBool())
        r.flags |= EventFlags::Edited;
    if (metadata.value(QLatin1String("deleted")).toBool())
        r.flags |= EventFlags::Deleted;
    if (metadata.value(QLatin1String("cancelled")).toBool())
        r.flags |= EventFlags::Cancelled;
    const QJsonObject deliveries = event.value(QLatin1String("delivery_results")).toObject();
    for (auto it = deliveries.begin(); it != deliveries.end(); ++it) {
        if (it.value().toObject().value(QLatin1String("status")).toString() == QLatin1String("failed"))
            r.flags |= EventFlags::DeliveryFailed;
    }

    if (str(content, QLatin1String("type")) == QLatin1String("tool_call")) {
        r.toolName = str(content, QLatin1String("tool_name"));
        r.toolId = str(content, QLatin1String("tool_id"));
        out.contentStatus = str(content, QLatin1String("status"));
        const QJsonValue args = content.value(QLatin1String("arguments"));
        out.arguments = JsonText::compact(args);
        const QJsonValue result = content.value(QLatin1String("result"));
        out.result = JsonText::compact(result);
        const QJsonValue duration = content.value(QLatin1String("duration_ms"));
        if (duration.isDouble()) {
            out.durationMs = TimeUtil::toMillis(duration.toDouble());
            if (!out.durationMs) {
                r.flags |= EventFlags::OutOfRange;
                addProblem(out, QStringLiteral("duration_ms %1 is out of range (left out)").arg(duration.toDouble()));
            }
        }
        out.error = str(content, QLatin1String("error"));
        if (out.error.isEmpty())
            out.error = Outcomes::errorOfResult(result);
        if (r.type == QLatin1String("tool_call_end")) {
            r.outcome
                = Outcomes::forRoomKitEnd(r.status, out.contentStatus, str(content, QLatin1String("outcome")), result);
        }
        r.text = r.toolName + QLatin1Char('(') + out.arguments + QLatin1Char(')');
    } else {
        r.text = contentText(content);
        out.body = searchBody(content);
    }
    noteTimeOutOfRange(out, timeOutOfRange, columns.createdSeconds);
    return out;
}

} // namespace RoomKitRowDecoder
