#pragma once

#include <QString>

// Writes the bundled demo: a RoomKit (schema version 3) SQLite store with rooms that show what Sightline is
// for: parallel calls of one tool, failed, refused, unserved and blocked calls, blocked messages, a long
// result, unicode and right-to-left text, and an empty room.
namespace DemoStore {
// Writes the store to `path` (replacing any file there). Throws StoreError on failure.
void write(const QString& path);
// The demo store's path in the cache, written the first time it is asked for. It is opened like any user's
// RoomKit store: imported on the store worker into its cached workspace.
QString ensureStore();
} // namespace DemoStore
