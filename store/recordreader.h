#pragma once

#include "eventrecord.h"
#include "roomsummary.h"
#include "runrecord.h"
#include "toolcallrecord.h"

class SqliteStatement;

// The one place where rows of the workspace become records, by each record's field table (RecordFields), and
// read from a statement that selected them in that order; edits and redactions will be applied here, on every
// read, so nothing shown, searched or exported can miss them.
namespace RecordReader {
// SELECT <EventColumns> FROM events ... (no alias).
extern const QString EventColumns;
EventRecord event(const SqliteStatement& q);

// SELECT <RoomColumns> FROM rooms r JOIN sources s ON s.id = r.source_id ...
extern const QString RoomColumns;
RoomSummary room(const SqliteStatement& q);

// SELECT <CallColumns> FROM tool_calls ...
extern const QString CallColumns;
ToolCallRecord call(const SqliteStatement& q);

// SELECT <RunColumns> FROM runs ...
extern const QString RunColumns;
RunRecord run(const SqliteStatement& q);
} // namespace RecordReader
