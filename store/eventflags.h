#pragma once

// Bits of events.flags: what the importer noticed about a stored row.
namespace EventFlags {
enum : int {
    MalformedJson = 1 << 0, // the payload does not parse; derived columns come from the source's own columns
    InvalidUtf8 = 1 << 1, // the payload is not valid UTF-8; it is kept byte for byte as a BLOB
    Edited = 1 << 2, // RoomKit metadata.edited: the content was replaced by a later edit event
    Deleted = 1 << 3, // RoomKit metadata.deleted: soft-deleted, content kept
    Cancelled = 1 << 4, // RoomKit metadata.cancelled: streamed text cut short
    Synthetic = 1 << 5, // made up by the source system, not said by the agent
    DeliveryFailed = 1 << 6, // RoomKit delivery_results has a failed delivery
    Partial = 1 << 8, // the start of the record is missing: rotation cut the file inside it
    Guessed = 1 << 9, // a CraftBot action end attached to its start by name and order, not by an id
    Ambiguous = 1 << 10, // ... and another call of the same name was running at the same time
    Folded = 1 << 11, // shown inside another row's item in the timeline: a call's end, arguments or result, a
                      // message's deltas and end (the raw view still shows it)
    OutOfRange = 1 << 12, // a number the source wrote (a time, a duration) is out of any range: left out
    Redacted = 1 << 13, // a reviewer redacted part of it (RedactionStore): it reads [redacted: reason] there
    Revised = 1 << 14, // a reviewer edited it (EditStore): its text, its call's arguments, result, outcome or pair
                       // (RecordReader::CallColumns reads it as 16384)
    FromSnapshot = 1 << 15, // AG-UI: shows messages a MESSAGES_SNAPSHOT or a run's input brought, which have no
                            // stream of their own in the log
    // 1 << 7 was SearchIndexed (schema 1-4): the contentless index took a row once, for good. Set in older
    // workspaces, read by nothing.
};
} // namespace EventFlags
