#pragma once

#include "eventrecord.h"
#include "toolcallrecord.h"

#include <QByteArray>
#include <QString>

// Events and tool calls as JSON Lines and as text lines: what `sightline events` and `sightline tools` print, and
// what the report writers write, from one place so that no two outputs disagree on a field.
namespace EventSerializer {
// index, id, type (native), kind, status, blocked_by, channel_id, channel_type, participant_id, correlation_id,
// created_at, group_id, message_id, synthetic, line, text; tool_name, tool_id and outcome on tool rows; the
// marks that apply (malformed, invalid_utf8, partial, guessed, ambiguous, out_of_range). One line, no newline.
QByteArray eventJson(const EventRecord& e);
QString eventText(const EventRecord& e);
// tool_name, tool_id, correlation_id, start_index, end_index, result_index, duration_ms, duration_from, status,
// outcome, pairing, error, arguments_valid, synthetic, ambiguous.
QByteArray callJson(const ToolCallRecord& c);
QString callText(const ToolCallRecord& c);
} // namespace EventSerializer
