#include "eventserializer.h"

#include "eventflags.h"
#include "durationtext.h"
#include "eventkind.h"
#include "jsonline.h"
#include "timeutil.h"

namespace {
void addOrNull(JsonLine& o, const char* key, const std::optional<qint64>& value)
{
    if (value)
        o.add(key, *value);
    else
        o.addNull(key);
}
} // namespace

namespace EventSerializer {

QByteArray eventJson(const EventRecord& e)
{
    // Written by JsonLine, not QJsonObject: an export is a line per row of a room of a million.
    JsonLine o;
    o.add("index", e.index);
    o.addOrNull("id", e.nativeId);
    o.add("type", e.type);
    o.add("kind", EventKinds::name(e.kind));
    o.addOrNull("status", e.status);
    o.addOrNull("blocked_by", e.blockedBy);
    o.addOrNull("channel_id", e.channelId);
    o.addOrNull("channel_type", e.channelType);
    o.addOrNull("participant_id", e.participantId);
    o.addOrNull("role", e.role); // user, assistant, tool, system...: who spoke, whatever the channel says
    o.addOrNull("correlation_id", e.correlationId);
    if (e.createdMicros)
        o.add("created_at", TimeUtil::formatMicros(e.createdMicros));
    else
        o.addNull("created_at");
    o.addOrNull("group_id", e.groupId);
    o.addOrNull("message_id", e.messageId);
    o.add("synthetic", e.isSynthetic());
    addOrNull(o, "line", e.sourceLine > 0 ? std::optional<qint64>(e.sourceLine) : std::nullopt);
    o.addOrNull("text", e.text);
    if (!e.toolName.isEmpty() || e.kind == EventKind::ToolCall) {
        o.addOrNull("tool_name", e.toolName);
        o.addOrNull("tool_id", e.toolId);
        o.addOrNull("outcome", Outcomes::name(e.outcome));
    }
    const std::pair<int, const char*> marks[] = { { EventFlags::MalformedJson, "malformed" },
        { EventFlags::InvalidUtf8, "invalid_utf8" }, { EventFlags::Partial, "partial" },
        { EventFlags::Guessed, "guessed" }, { EventFlags::Ambiguous, "ambiguous" },
        { EventFlags::OutOfRange, "out_of_range" }, { EventFlags::Redacted, "redacted" },
        { EventFlags::Revised, "edited" }, { EventFlags::FromSnapshot, "from_snapshot" } };
    for (const auto& [flag, name] : marks) {
        if (e.flags & flag)
            o.add(name, true);
    }
    return o.text();
}

QString eventText(const EventRecord& e)
{
    QString out = QStringLiteral("%1  %2  %3").arg(e.index, 6).arg(TimeUtil::formatMicros(e.createdMicros), e.type);
    if (!e.channelId.isEmpty())
        out += QStringLiteral("  [") + e.channelId + QLatin1Char(']');
    if (e.isBlocked())
        out += QStringLiteral("  (blocked by ") + (e.blockedBy.isEmpty() ? QStringLiteral("?") : e.blockedBy)
            + QLatin1Char(')');
    if (e.outcome != Outcome::None)
        out += QStringLiteral("  -> ") + Outcomes::name(e.outcome);
    if (e.flags & EventFlags::Revised)
        out += QStringLiteral("  (edited)");
    QString text = e.text;
    text.replace(QLatin1Char('\n'), QLatin1Char(' '));
    if (text.size() > 160)
        text = text.left(159) + QChar(0x2026);
    return text.isEmpty() ? out : out + QStringLiteral("  ") + text;
}

QByteArray callJson(const ToolCallRecord& c)
{
    JsonLine o;
    o.addOrNull("tool_name", c.toolName);
    o.addOrNull("tool_id", c.toolId);
    o.addOrNull("correlation_id", c.groupId);
    addOrNull(o, "start_index", c.startIndex);
    addOrNull(o, "end_index", c.endIndex);
    addOrNull(o, "duration_ms", c.durationMs);
    o.addOrNull("duration_from", c.durationSource);
    o.addOrNull("status", c.status);
    o.add("outcome", Outcomes::name(c.outcome));
    o.addOrNull("blocked_by", c.blockedBy);
    o.add("pairing", Pairings::name(c.pairing));
    o.addOrNull("error", c.error);
    addOrNull(o, "result_index", c.resultIndex);
    if (c.argumentsValid)
        o.add("arguments_valid", *c.argumentsValid);
    else
        o.addNull("arguments_valid");
    o.add("synthetic", c.synthetic);
    o.add("ambiguous", c.ambiguous);
    if (c.edited)
        o.add("edited", true);
    return o.text();
}

QString callText(const ToolCallRecord& c)
{
    auto index = [](const std::optional<qint64>& v) { return v ? QString::number(*v) : QStringLiteral("-"); };
    const QString duration = c.durationMs ? DurationText::full(c) : QStringLiteral("-");
    // A call answered by a result alone (AG-UI's TOOL_CALL_RESULT without an END) names where its result is: "9..-"
    // alone read as a call that never ended.
    const QString result = c.resultIndex && c.resultIndex != c.endIndex
        ? QStringLiteral(" result %1").arg(*c.resultIndex)
        : QString();
    return c.toolName + QStringLiteral("  ") + c.toolId + QStringLiteral("  ") + index(c.startIndex)
        + QStringLiteral("..") + index(c.endIndex) + result + QStringLiteral("  ") + duration + QStringLiteral("  ") + c.status
        + QStringLiteral("  ") + Outcomes::name(c.outcome) + QStringLiteral("  ") + Pairings::name(c.pairing)
        + (c.ambiguous ? QStringLiteral(" ambiguous") : QString()) + (c.synthetic ? QStringLiteral(" synthetic") : QString())
        + (c.edited ? QStringLiteral("  (edited)") : QString());
}

} // namespace EventSerializer
