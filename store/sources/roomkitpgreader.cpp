#include "roomkitpgreader.h"

#include "../roomkitrowdecoder.h"
#include "../timeutil.h"
#include "roomfeed.h"
#include "roomkitreader.h"
#include "roomkitrows.h"

#include <QHash>
#include <QJsonDocument>
#include <QJsonObject>

namespace {

// Each event as RoomKit's SQLiteStore would have stored its RoomEvent.model_dump_json(), keys in its order.
const char* const EventSql = R"SQL(
SELECT id, type, "index", source_channel_id, source_channel_type, source_participant_id, correlation_id,
  parent_event_id, extract(epoch FROM created_at)::float8,
  json_build_object('id', id, 'room_id', room_id, 'type', type,
    'source', json_build_object('channel_id', source_channel_id, 'channel_type', source_channel_type,
      'direction', source_direction, 'participant_id', source_participant_id,
      'external_id', source_extra -> 'external_id', 'provider', source_provider,
      'raw_payload', coalesce(source_extra -> 'raw_payload', '{}'::jsonb),
      'provider_message_id', source_extra -> 'provider_message_id'),
    'content', content, 'status', status, 'blocked_by', blocked_by, 'visibility', visibility,
    'addressed_to', addressed_to, 'response_visibility', response_visibility, 'index', "index",
    'chain_depth', chain_depth, 'parent_event_id', parent_event_id, 'correlation_id', correlation_id,
    'idempotency_key', idempotency_key,
    'created_at', to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
    'metadata', metadata, 'channel_data', channel_data)::text
FROM events WHERE room_id = ? AND "index" > ? ORDER BY "index" LIMIT ?
)SQL";

} // namespace

RoomKitPgReader::RoomKitPgReader(std::unique_ptr<PgConnection> connection)
    : m_pg(std::move(connection))
{
    for (const char* table : { "rooms", "events" })
        m_pg->requireSelect(QLatin1String(table));
    if (m_pg->hasTable(QStringLiteral("schema_version"))) {
        m_pg->requireSelect(QStringLiteral("schema_version"));
        QSqlQuery version = m_pg->select(QStringLiteral("SELECT max(version) FROM schema_version"));
        if (version.next())
            m_version = version.value(0).toString();
    }
}

bool RoomKitPgReader::holds(PgConnection& pg)
{
    return pg.hasTable(QStringLiteral("rooms")) && pg.hasTable(QStringLiteral("events"), QStringLiteral("index"))
        && pg.hasTable(QStringLiteral("events"), QStringLiteral("content"));
}

QString RoomKitPgReader::origin() const
{
    return m_pg->origin();
}

SourceIdentity RoomKitPgReader::identity() const
{
    return { QStringLiteral("roomkit"), QStringLiteral("roomkit.postgres.v%1").arg(m_version), m_version };
}

QVector<RoomInfo> RoomKitPgReader::rooms(const SourceNotes& notes)
{
    Q_UNUSED(notes);
    // Bindings and participants of every room in one statement each, not two per room.
    QHash<QString, QJsonObject> details;
    for (const char* table : { "bindings", "participants" }) {
        const QString name = QLatin1String(table);
        if (!m_pg->hasTable(name))
            continue;
        const QString order = name == QLatin1String("bindings") ? QStringLiteral("attached_at")
                                                                : QStringLiteral("joined_at");
        QSqlQuery q = m_pg->select(QStringLiteral("SELECT room_id, json_agg(row_to_json(t) ORDER BY t.%1)::text "
                                                  "FROM %2 t GROUP BY room_id")
                                       .arg(order, name),
            {}, name);
        while (q.next())
            details[q.value(0).toString()].insert(name, QJsonDocument::fromJson(q.value(1).toByteArray()).array());
    }
    QVector<RoomInfo> listed;
    // RoomKit keeps each room's tally of events (rooms.event_count, schema 2): what a first import's progress
    // and order take, where counting a room of a million rows would cost the first screen a second.
    const bool tallied = m_pg->hasTable(QStringLiteral("rooms"), QStringLiteral("event_count"));
    QSqlQuery q = m_pg->select(QStringLiteral("SELECT id, status, organization_id, "
                                              "(extract(epoch FROM created_at) * 1000000)::bigint, row_to_json(r)::text, "
                                              "%1 FROM rooms r ORDER BY created_at, id")
                                   .arg(tallied ? QStringLiteral("event_count") : QStringLiteral("-1")),
        {}, QStringLiteral("rooms"));
    m_tallies.clear();
    while (q.next()) {
        RoomInfo room;
        room.nativeId = q.value(0).toString();
        room.status = q.value(1).toString();
        room.organizationId = q.value(2).toString();
        room.createdMicros = q.value(3).toLongLong();
        room.nativeJson = q.value(4).toByteArray();
        room.title = RoomKitReader::roomTitle(QJsonDocument::fromJson(room.nativeJson).object());
        room.detailsJson = QJsonDocument(details.value(room.nativeId)).toJson(QJsonDocument::Compact);
        if (q.value(5).toLongLong() >= 0)
            m_tallies.insert(room.nativeId, q.value(5).toLongLong());
        listed.append(room);
    }
    return listed;
}

qint64 RoomKitPgReader::rowsAfter(const RoomCursor& cursor)
{
    // Nothing read yet: the room's own tally (a store that keeps none, or a room it says is empty, is counted:
    // cheap when it is right, and true when it is not). A sync counts what is past its cursor (an index range).
    if (cursor.syncedSeq < 0 && m_tallies.value(cursor.nativeId) > 0)
        return m_tallies.value(cursor.nativeId);
    return m_pg->count(QStringLiteral("SELECT count(*) FROM events WHERE room_id = ? AND \"index\" > ?"),
        { cursor.nativeId, cursor.syncedSeq }, QStringLiteral("room %1").arg(cursor.nativeId));
}

void RoomKitPgReader::read(const RoomCursor& room, RoomFeed& feed)
{
    RoomKitRows out(feed);
    qint64 after = room.syncedSeq;
    // By keyset, a page at a time: each page is a statement of its own (and so a read-only transaction), and a
    // connection lost between pages leaves every page before it written and the cursor after it.
    for (;;) {
        QSqlQuery page = m_pg->select(QLatin1String(EventSql), { room.nativeId, after, PageRows },
            QStringLiteral("room %1, after index %2").arg(room.nativeId, QString::number(after)));
        int rows = 0;
        while (page.next()) {
            ++rows;
            RoomKitColumns columns;
            columns.id = page.value(0).toString();
            columns.type = page.value(1).toString();
            columns.index = page.value(2).toLongLong();
            columns.channelId = page.value(3).toString();
            columns.channelType = page.value(4).toString();
            columns.participantId = page.value(5).toString();
            columns.correlationId = page.value(6).toString();
            columns.parentId = page.value(7).toString();
            columns.createdSeconds = page.value(8).toDouble();
            after = columns.index;
            DecodedRoomKitEvent event = RoomKitRowDecoder::decode(page.value(9).toByteArray(), columns);
            out.add(event);
            if (feed.stopped())
                break;
        }
        if (rows < PageRows || feed.stopped())
            break;
    }
    out.finish();
}
