#include "recordreader.h"

#include "recordfields.h"
#include "sqlitestatement.h"

namespace RecordReader {

const QString EventColumns = FieldTable::selectList(RecordFields::events());

EventRecord event(const SqliteStatement& q)
{
    // From the native statement: QSqlQuery's QVariant per value costs more than the read at a million rows.
    EventRecord r;
    FieldTable::read(q, 0, r, RecordFields::events());
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

const QString CallColumns = FieldTable::selectList(RecordFields::calls());

ToolCallRecord call(const SqliteStatement& q)
{
    ToolCallRecord c;
    FieldTable::read(q, 0, c, RecordFields::calls());
    return c;
}

const QString RunColumns = FieldTable::selectList(RecordFields::runs());

RunRecord run(const SqliteStatement& q)
{
    RunRecord r;
    FieldTable::read(q, 0, r, RecordFields::runs());
    return r;
}

} // namespace RecordReader
