#include "eventserializer.h"

#include "eventflags.h"
#include "durationtext.h"
#include "eventkind.h"
#include "jsonfields.h"
#include "jsonline.h"
#include "recordfields.h"
#include "timeutil.h"

namespace EventSerializer {

QByteArray eventJson(const EventRecord& e)
{
    // Written by JsonLine, not QJsonObject: an export is a line per row of a room of a million. One for every
    // line of the thread, so that its buffers and the order of its keys are kept.
    thread_local JsonLine o;
    o.clear(); // a line an exception left half made is not written into this one
    // The report's fields (RecordFields), but the time written out, the flags as words and the call's fields on the
    // rows of calls alone; a parent is not said.
    JsonFields::write(o, e, RecordFields::events(),
        { "parent_id", "created_us", "flags", "tool_name", "tool_id", "outcome", "warning" });
    if (e.createdMicros)
        o.add("created_at", TimeUtil::formatMicros(e.createdMicros));
    else
        o.addNull("created_at");
    o.add("synthetic", e.isSynthetic());
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
    if (!e.warning.isEmpty()) // said where there is one, as the flags are
        o.add("warning", e.warning);
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
    if (!text.isEmpty())
        out += QStringLiteral("  ") + text;
    // Last, after what the row says: the row reads as before, and a warning is found at its end.
    if (!e.warning.isEmpty())
        out += QStringLiteral("  (warning: ") + QString(e.warning).replace(QLatin1Char('\n'), QStringLiteral("; ")) + QLatin1Char(')');
    return out;
}

QByteArray callJson(const ToolCallRecord& c)
{
    JsonLine o;
    // The report's fields (RecordFields) but the times, arguments and result (the tools verb adds those it shows);
    // the turn is named as the events name it, and the outcome always said.
    JsonFields::write(o, c, RecordFields::calls(), { "group_id", "started_us", "ended_us", "arguments", "result", "outcome" });
    o.addOrNull("correlation_id", c.groupId);
    o.add("outcome", Outcomes::name(c.outcome));
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
