#include "recordreader.h"

#include "sqlitestatement.h"

namespace {
std::optional<qint64> optional(const SqliteStatement& q, int column)
{
    return q.isNull(column) ? std::nullopt : std::optional<qint64>(q.int64(column));
}
} // namespace

namespace RecordReader {

const QString EventColumns = QStringLiteral(
    "id, seq, native_id, type, kind, status, blocked_by, channel_id, channel_type, participant_id, correlation_id, "
    "parent_id, created_us, role, tool_name, tool_id, outcome, unpack(text), flags, group_id, message_id, source_line");

EventRecord event(const SqliteStatement& q)
{
    // From the native statement: QSqlQuery's QVariant per value costs more than the read at a million rows.
    EventRecord r;
    r.rowId = q.int64(0);
    r.index = q.int64(1);
    r.nativeId = q.text(2);
    r.type = q.text(3);
    r.kind = EventKinds::fromName(q.text(4));
    r.status = q.text(5);
    r.blockedBy = q.text(6);
    r.channelId = q.text(7);
    r.channelType = q.text(8);
    r.participantId = q.text(9);
    r.correlationId = q.text(10);
    r.parentId = q.text(11);
    r.createdMicros = q.int64(12);
    r.role = q.text(13);
    r.toolName = q.text(14);
    r.toolId = q.text(15);
    r.outcome = Outcomes::fromName(q.text(16));
    r.text = q.text(17);
    r.flags = int(q.int64(18));
    r.groupId = q.text(19);
    r.messageId = q.text(20);
    r.sourceLine = q.int64(21);
    return r;
}

const QString RoomColumns = QStringLiteral(
    "r.id, r.native_id, r.title, s.system, s.origin, r.status, r.created_us, r.event_count, r.blocked_count, "
    "r.tool_calls, r.failed, r.refused, r.unserved, r.first_us, r.last_us, r.owner, r.agent_id, r.summary, "
    "r.participants, r.channel_types, r.unread, "
    // Its review now (AnnotationStore: one review row present a room) and how many notes it has.
    "(SELECT a.value || char(31) || a.author || char(31) || a.at_ms FROM annotations a WHERE a.room_id = r.id AND "
    "a.seq IS NULL AND a.kind = 'review' AND a.present = 1 ORDER BY a.id DESC LIMIT 1), "
    "(SELECT count(*) FROM annotations a WHERE a.room_id = r.id AND a.kind = 'note' AND a.present = 1)");

RoomSummary room(const SqliteStatement& q)
{
    RoomSummary r;
    r.id = q.int64(0);
    r.nativeId = q.text(1);
    r.title = q.text(2);
    r.system = q.text(3);
    r.sourcePath = q.text(4);
    r.status = q.text(5);
    r.createdMicros = q.int64(6);
    r.eventCount = q.int64(7);
    r.blockedCount = q.int64(8);
    r.toolCalls = q.int64(9);
    r.failed = q.int64(10);
    r.refused = q.int64(11);
    r.unserved = q.int64(12);
    r.firstMicros = q.int64(13);
    r.lastMicros = q.int64(14);
    r.owner = q.text(15);
    r.agentId = q.text(16);
    r.summary = q.text(17);
    r.participants = q.text(18);
    r.channelTypes = q.text(19).split(QLatin1Char(','), Qt::SkipEmptyParts);
    r.unread = q.int64(20);
    const QStringList review = q.text(21).split(QChar(31));
    if (review.size() == 3) {
        r.review = review.at(0);
        r.reviewer = review.at(1);
        r.reviewedMs = review.at(2).toLongLong();
    }
    r.notes = q.int64(22);
    return r;
}

const QString CallColumns = QStringLiteral(
    "tool_name, tool_id, group_id, start_seq, end_seq, started_us, ended_us, duration_ms, duration_source, status, "
    "outcome, pairing, error, unpack(arguments), arguments_valid, unpack(result), result_seq, synthetic, ambiguous, "
    // Who blocked a blocked call is said on its end row only: the card says it too.
    "(SELECT e.blocked_by FROM events e WHERE e.room_id = tool_calls.room_id AND e.seq = tool_calls.end_seq "
    "AND e.blocked = 1), "
    // A reviewer edited it (EditStore flags the card's row): one seek on the row it shows at.
    "(SELECT e.flags & 16384 FROM events e WHERE e.room_id = tool_calls.room_id AND e.seq = "
    "coalesce(tool_calls.start_seq, tool_calls.end_seq, tool_calls.result_seq))");

ToolCallRecord call(const SqliteStatement& q)
{
    ToolCallRecord c;
    c.toolName = q.text(0);
    c.toolId = q.text(1);
    c.groupId = q.text(2);
    c.startIndex = optional(q, 3);
    c.endIndex = optional(q, 4);
    c.startMicros = optional(q, 5);
    c.endMicros = optional(q, 6);
    c.durationMs = optional(q, 7);
    c.durationSource = q.text(8);
    c.status = q.text(9);
    c.outcome = Outcomes::fromName(q.text(10));
    c.pairing = Pairings::fromName(q.text(11)).value_or(Pairing::StartOnly);
    c.error = q.text(12);
    c.arguments = q.text(13);
    if (!q.isNull(14))
        c.argumentsValid = q.int64(14) != 0;
    c.result = q.text(15);
    c.resultIndex = optional(q, 16);
    c.synthetic = q.int64(17) != 0;
    c.ambiguous = q.int64(18) != 0;
    c.blockedBy = q.text(19);
    c.edited = !q.isNull(20) && q.int64(20) != 0;
    return c;
}

const QString RunColumns
    = QStringLiteral("group_id, kind, name, parent_group_id, first_seq, last_seq, started_us, ended_us, outcome, detail, "
                     "synthetic, usage_json, interrupts_json, id");

RunRecord run(const SqliteStatement& q)
{
    RunRecord r;
    r.groupId = q.text(0);
    r.kind = q.text(1);
    r.name = q.text(2);
    r.parentGroupId = q.text(3);
    r.firstIndex = optional(q, 4);
    r.lastIndex = optional(q, 5);
    r.startMicros = optional(q, 6);
    r.endMicros = optional(q, 7);
    r.outcome = q.text(8);
    r.detail = q.text(9);
    r.synthetic = q.int64(10) != 0;
    r.usageJson = q.text(11);
    r.interruptsJson = q.text(12);
    r.rowId = q.int64(13);
    return r;
}

} // namespace RecordReader
