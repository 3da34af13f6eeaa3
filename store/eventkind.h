#pragma once

#include <QString>
#include <QStringList>

// The canonical kinds that filters share across every source system (SOURCES.md §4.2), while the
// native type stays visible and filterable beside them.
namespace EventKind {
inline const QString Message = QStringLiteral("message");
inline const QString Reasoning = QStringLiteral("reasoning");
inline const QString ToolCall = QStringLiteral("tool_call");
inline const QString Run = QStringLiteral("run");
inline const QString State = QStringLiteral("state");
inline const QString Lifecycle = QStringLiteral("lifecycle");
inline const QString System = QStringLiteral("system");
inline const QString Error = QStringLiteral("error");
inline const QString Custom = QStringLiteral("custom");

inline QStringList all()
{
    return { Message, Reasoning, ToolCall, Run, State, Lifecycle, System, Error, Custom };
}

// RoomKit's EventType (27 values, models/enums.py) onto a canonical kind; unknown types are custom.
QString forRoomKitType(const QString& type);
// AG-UI's EventType (SOURCES.md §3.2) onto a canonical kind; unknown types are custom.
QString forAguiType(const QString& type);
} // namespace EventKind
