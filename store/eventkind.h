#pragma once

#include <QString>
#include <QStringList>

// The canonical kinds that filters share across every source system (SOURCES.md §4.2), while the native type
// stays visible and filterable beside them. Filtered (kind:tool_call) by its name; kept in the workspace by its code
// (schema step 26): its place in the enum, which the workspace's `words` table gives its name. Codes are file format: a
// kind added later goes after Custom, below FirstWord.
enum class EventKind : quint8 { Message, Reasoning, ToolCall, Run, State, Lifecycle, System, Error, Custom };

namespace EventKinds {
QString name(EventKind kind); // message, reasoning, tool_call, ...
// The kind of that name; custom for a name this build does not know.
EventKind fromName(const QString& name);
QStringList names(); // every name, in the enum's order

// The code the workspace keeps a kind as, and the kind of a code (custom for one this build does not know). Codes
// below FirstWord are kinds'; the words of types and roles take those from FirstWord on (store/wordcodes.h).
constexpr qint64 FirstWord = 16;
qint64 code(EventKind kind);
EventKind fromCode(qint64 code);
QString literal(EventKind kind); // its code as an SQL literal ('2' for tool_call), for a query that names a kind

// RoomKit's EventType (27 values, models/enums.py) onto a canonical kind; unknown types are custom.
EventKind forRoomKitType(const QString& type);
// AG-UI's EventType (SOURCES.md §3.2) onto a canonical kind; unknown types are custom.
EventKind forAguiType(const QString& type);
} // namespace EventKinds
