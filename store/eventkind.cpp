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

} // namespace EventKind
