#include "eventkind.h"

namespace EventKind {

QString forRoomKitType(const QString& type)
{
    if (type == QLatin1String("message") || type == QLatin1String("edit") || type == QLatin1String("delete")
        || type == QLatin1String("reaction"))
        return Message;
    if (type == QLatin1String("tool_call_start") || type == QLatin1String("tool_call_end"))
        return ToolCall;
    if (type == QLatin1String("system"))
        return System;
    if (type.startsWith(QLatin1String("task_")) || type == QLatin1String("observation"))
        return Run;
    if (type.startsWith(QLatin1String("participant_")) || type.startsWith(QLatin1String("channel_"))
        || type.startsWith(QLatin1String("recording_")) || type == QLatin1String("dtmf")
        || type == QLatin1String("typing") || type == QLatin1String("presence")
        || type.endsWith(QLatin1String("_receipt")))
        return Lifecycle;
    return Custom;
}

QString forAguiType(const QString& type)
{
    if (type.startsWith(QLatin1String("TEXT_MESSAGE_")))
        return Message;
    if (type.startsWith(QLatin1String("TOOL_CALL_")))
        return ToolCall;
    if (type.startsWith(QLatin1String("REASONING_")) || type.startsWith(QLatin1String("THINKING_")))
        return Reasoning;
    if (type == QLatin1String("RUN_ERROR"))
        return Error;
    if (type.startsWith(QLatin1String("RUN_")) || type.startsWith(QLatin1String("STEP_")))
        return Run;
    if (type.startsWith(QLatin1String("STATE_")) || type == QLatin1String("MESSAGES_SNAPSHOT")
        || type.startsWith(QLatin1String("ACTIVITY_")))
        return State;
    return Custom;
}

} // namespace EventKind
