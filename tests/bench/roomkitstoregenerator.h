#pragma once

#include <QString>

// Writes a large RoomKit-format SQLite store (schema version 3, the columns and event JSON RoomKit's SQLiteStore
// writes, with its own events_fts) for the benchmark: support conversations where AI responses interleave text
// with tool calls, some parallel, some failed, refused or never answered, blocked messages and system events.
// One room (`room-big`) gets `bigRoomShare` of the events. Deterministic for a seed.
namespace RoomKitStoreGenerator {
void write(const QString& path, qint64 events, int rooms, double bigRoomShare, quint32 seed);
}
