#include "recordfields.h"

using namespace FieldRule;

namespace RecordFields {

const Fields<EventRecord>& events()
{
    using E = EventRecord;
    static const Fields<E> fields {
        { "rowId", &E::rowId, "id", nullptr, Key },
        { "index", &E::index, "seq", "index" },
        { "nativeId", &E::nativeId, "native_id", "id" },
        // Kept once per workspace (schema step 26, WordCodes): the row holds the word's code (as for a role and a
        // tool's name). A kind is its code.
        { "type", &E::type, "type", "type", Always | Coded, "(SELECT w.name FROM words w WHERE w.code = events.type)" },
        { "kind", &E::kind, "kind", "kind" },
        { "status", &E::status, "status", "status" },
        { "blockedBy", &E::blockedBy, "blocked_by", "blocked_by" },
        { "channelId", &E::channelId, "channel_id", "channel_id" },
        { "channelType", &E::channelType, "channel_type", "channel_type" },
        { "participantId", &E::participantId, "participant_id", "participant_id" },
        { "correlationId", &E::correlationId, "correlation_id", "correlation_id" },
        { "parentId", &E::parentId, "parent_id", "parent_id" },
        // Kept once per room (schema step 24, RoomNumbers): the row holds the room's number for it.
        { "groupId", &E::groupId, "group_id", "group_id", Numbered,
            "CASE WHEN events.group_id IS NOT NULL THEN (SELECT t.native FROM turns t WHERE t.room_id = "
            "events.room_id AND t.number = events.group_id) END" },
        // Kept once per room (schema step 23, RoomNumbers): the row holds the room's number for it.
        { "messageId", &E::messageId, "message_id", "message_id", Numbered,
            "CASE WHEN events.message_id IS NOT NULL THEN (SELECT m.native FROM messages m WHERE m.room_id = "
            "events.room_id AND m.number = events.message_id) END" },
        { "sourceLine", &E::sourceLine, "source_line", "line", ZeroIsNull },
        { "createdMicros", &E::createdMicros, "created_us", "created_us", ZeroIsNull },
        { "role", &E::role, "role", "role", Coded,
            "CASE WHEN events.role IS NOT NULL THEN (SELECT w.name FROM words w WHERE w.code = events.role) END" },
        { "toolName", &E::toolName, "tool_name", "tool_name", Coded,
            "CASE WHEN events.tool_name IS NOT NULL THEN (SELECT w.name FROM words w WHERE w.code = events.tool_name) END" },
        { "toolId", &E::toolId, "tool_id", "tool_id" },
        { "outcome", &E::outcome, "outcome", "outcome" },
        // Packed when it is long: an EVENT.md tool result's row holds it whole.
        { "text", &E::text, "text", "text", Packed },
        { "flags", &E::flags, "flags", "flags" },
        { "warning", &E::warning, "warning", "warning" },
    };
    return fields;
}

const Fields<ToolCallRecord>& calls()
{
    using C = ToolCallRecord;
    static const Fields<C> fields {
        { "toolName", &C::toolName, "tool_name", "tool_name" },
        { "toolId", &C::toolId, "tool_id", "tool_id" },
        { "groupId", &C::groupId, "group_id", "group_id" },
        { "startIndex", &C::startIndex, "start_seq", "start_index" },
        { "endIndex", &C::endIndex, "end_seq", "end_index" },
        { "startMicros", &C::startMicros, "started_us", "started_us" },
        { "endMicros", &C::endMicros, "ended_us", "ended_us" },
        { "durationMs", &C::durationMs, "duration_ms", "duration_ms" },
        { "durationSource", &C::durationSource, "duration_source", "duration_from" },
        { "status", &C::status, "status", "status" },
        { "outcome", &C::outcome, "outcome", "outcome" },
        { "pairing", &C::pairing, "pairing", "pairing" },
        { "error", &C::error, "error", "error" },
        { "arguments", &C::arguments, "arguments", "arguments", Packed | NullIsNone },
        { "argumentsValid", &C::argumentsValid, "arguments_valid", "arguments_valid" },
        { "result", &C::result, "result", "result", Packed | NullIsNone },
        { "resultIndex", &C::resultIndex, "result_seq", "result_index" },
        { "synthetic", &C::synthetic, "synthetic", "synthetic" },
        { "ambiguous", &C::ambiguous, "ambiguous", "ambiguous" },
        // Who blocked a blocked call is said on its end row only: the card says it too.
        { "blockedBy", &C::blockedBy, nullptr, "blocked_by", 0,
            "(SELECT e.blocked_by FROM events e WHERE e.room_id = tool_calls.room_id AND e.seq = tool_calls.end_seq "
            "AND e.blocked = 1)" },
        // A reviewer edited it (EditStore flags the card's row): one seek on the row it shows at. The report says
        // what was edited in its ledger, not on the call.
        { "edited", &C::edited, nullptr, nullptr, 0,
            "(SELECT e.flags & 16384 FROM events e WHERE e.room_id = tool_calls.room_id AND e.seq = "
            "coalesce(tool_calls.start_seq, tool_calls.end_seq, tool_calls.result_seq))" },
    };
    return fields;
}

const Fields<RunRecord>& runs()
{
    using R = RunRecord;
    static const Fields<R> fields {
        { "rowId", &R::rowId, "id", nullptr, Key },
        { "groupId", &R::groupId, "group_id", "group_id", Always },
        { "kind", &R::kind, "kind", "kind", Always },
        { "name", &R::name, "name", "name" },
        { "parentGroupId", &R::parentGroupId, "parent_group_id", "parent_group_id" },
        { "firstIndex", &R::firstIndex, "first_seq", "first_index" },
        { "lastIndex", &R::lastIndex, "last_seq", "last_index" },
        { "startMicros", &R::startMicros, "started_us", "started_us" },
        { "endMicros", &R::endMicros, "ended_us", "ended_us" },
        { "outcome", &R::outcome, "outcome", "outcome" },
        { "detail", &R::detail, "detail", "detail" },
        { "synthetic", &R::synthetic, "synthetic", "synthetic" },
        { "usageJson", &R::usageJson, "usage_json", "usage_json" },
        { "interruptsJson", &R::interruptsJson, "interrupts_json", "interrupts_json" },
    };
    return fields;
}

} // namespace RecordFields
