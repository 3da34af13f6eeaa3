#pragma once

#include <QString>
#include <QStringList>

// The canonical kinds that filters share across every source system (SOURCES.md §4.2), while the native type
// stays visible and filterable beside them. Stored and filtered (kind:tool_call) by its name.
enum class EventKind : quint8 { Message, Reasoning, ToolCall, Run, State, Lifecycle, System, Error, Custom };

namespace EventKinds {
QString name(EventKind kind); // message, reasoning, tool_call, ...
// The kind of that name; custom for a name this build does not know.
EventKind fromName(const QString& name);
QStringList names(); // every name, in the enum's order

// RoomKit's EventType (27 values, models/enums.py) onto a canonical kind; unknown types are custom.
EventKind forRoomKitType(const QString& type);
// AG-UI's EventType (SOURCES.md §3.2) onto a canonical kind; unknown types are custom.
EventKind forAguiType(const QString& type);
} // namespace EventKinds
