#include "eventkind.h"

#include "enumnames.h"

namespace {
// In the enum's order.
const std::array<const char*, 9> Names { "message", "reasoning", "tool_call", "run", "state", "lifecycle", "system",
    "error", "custom" };
} // namespace

namespace EventKinds {

QString name(EventKind kind)
{
    return EnumNames::name(Names, kind);
}

EventKind fromName(const QString& name)
{
    return EnumNames::value<EventKind>(Names, name).value_or(EventKind::Custom);
}

QStringList names()
{
    return EnumNames::all(Names);
}

qint64 code(EventKind kind)
{
    return qint64(kind);
}

QString literal(EventKind kind)
{
    return QLatin1Char('\'') + QString::number(code(kind)) + QLatin1Char('\'');
}

EventKind fromCode(qint64 code)
{
    return code >= 0 && code < qint64(Names.size()) ? EventKind(code) : EventKind::Custom;
}

EventKind forRoomKitType(const QString& type)
{
    if (type == QLatin1String("message") || type == QLatin1String("edit") || type == QLatin1String("delete")
        || type == QLatin1String("reaction"))
        return EventKind::Message;
    if (type == QLatin1String("tool_call_start") || type == QLatin1String("tool_call_end"))
        return EventKind::ToolCall;
    if (type == QLatin1String("system"))
        return EventKind::System;
    if (type.startsWith(QLatin1String("task_")) || type == QLatin1String("observation"))
        return EventKind::Run;
    if (type.startsWith(QLatin1String("participant_")) || type.startsWith(QLatin1String("channel_"))
        || type.startsWith(QLatin1String("recording_")) || type == QLatin1String("dtmf")
        || type == QLatin1String("typing") || type == QLatin1String("presence")
        || type.endsWith(QLatin1String("_receipt")))
        return EventKind::Lifecycle;
    return EventKind::Custom;
}

EventKind forAguiType(const QString& type)
{
    if (type.startsWith(QLatin1String("TEXT_MESSAGE_")))
        return EventKind::Message;
    if (type.startsWith(QLatin1String("TOOL_CALL_")))
        return EventKind::ToolCall;
    if (type.startsWith(QLatin1String("REASONING_")) || type.startsWith(QLatin1String("THINKING_")))
        return EventKind::Reasoning;
    if (type == QLatin1String("RUN_ERROR"))
        return EventKind::Error;
    if (type.startsWith(QLatin1String("RUN_")) || type.startsWith(QLatin1String("STEP_")))
        return EventKind::Run;
    if (type.startsWith(QLatin1String("STATE_")) || type == QLatin1String("MESSAGES_SNAPSHOT")
        || type.startsWith(QLatin1String("ACTIVITY_")))
        return EventKind::State;
    return EventKind::Custom;
}

} // namespace EventKinds
