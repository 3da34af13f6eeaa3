#include "kaboopgreader.h"

#include "../timeutil.h"
#include "aguithread.h"
#include "roomfeed.h"


KabooPgReader::KabooPgReader(std::unique_ptr<PgConnection> connection)
    : m_pg(std::move(connection))
{
    for (const char* table : { "kaboo_threads", "kaboo_thread_events" })
        m_pg->requireSelect(QLatin1String(table));
}

bool KabooPgReader::holds(PgConnection& pg)
{
    return pg.hasTable(QStringLiteral("kaboo_thread_events"), QStringLiteral("seq"))
        && pg.hasTable(QStringLiteral("kaboo_threads"));
}

QString KabooPgReader::origin() const
{
    return m_pg->origin();
}

SourceIdentity KabooPgReader::identity() const
{
    return { QStringLiteral("agui"), QStringLiteral("kaboo.postgres"), QString() };
}

QVector<RoomInfo> KabooPgReader::rooms(const SourceNotes& notes)
{
    // owner_id came with kaboo 0.2.0; an older store has none.
    const bool owners = m_pg->hasTable(QStringLiteral("kaboo_threads"), QStringLiteral("owner_id"));
    QVector<RoomInfo> listed;
    QSqlQuery q = m_pg->select(
        QStringLiteral("SELECT id, agent_id, %1, created_at, updated_at, json_build_object('id', id, 'agentId', "
                       "agent_id, 'ownerId', %1, 'createdAt', created_at, 'updatedAt', updated_at)::text "
                       "FROM kaboo_threads ORDER BY updated_at DESC, id")
            .arg(owners ? QStringLiteral("owner_id") : QStringLiteral("NULL::text")),
        {}, QStringLiteral("kaboo_threads"));
    while (q.next()) {
        RoomInfo room;
        room.titleFromRows = true;
        room.nativeId = q.value(0).toString();
        room.agentId = q.value(1).toString();
        room.owner = q.value(2).toString();
        room.createdMicros = TimeUtil::millisToMicros(q.value(3).toDouble());
        room.updatedMicros = TimeUtil::millisToMicros(q.value(4).toDouble());
        room.nativeJson = q.value(5).toByteArray();
        listed.append(room);
    }
    QSqlQuery orphans = m_pg->select(QStringLiteral("SELECT DISTINCT thread_id FROM kaboo_thread_events e WHERE NOT "
                                                    "EXISTS (SELECT 1 FROM kaboo_threads t WHERE t.id = e.thread_id)"),
        {}, QStringLiteral("kaboo_thread_events"));
    while (orphans.next()) {
        RoomInfo room;
        room.titleFromRows = true;
        room.nativeId = orphans.value(0).toString();
        notes(QStringLiteral("thread %1").arg(room.nativeId),
            QStringLiteral("events without a row in kaboo_threads (imported without owner and agent)"));
        listed.append(room);
    }
    return listed;
}

qint64 KabooPgReader::rowsAfter(const RoomCursor& cursor)
{
    return m_pg->count(QStringLiteral("SELECT count(*) FROM kaboo_thread_events WHERE thread_id = ? AND seq > ?"),
        { cursor.nativeId, cursor.syncedSeq }, QStringLiteral("thread %1").arg(cursor.nativeId));
}

void KabooPgReader::read(const RoomCursor& cursor, RoomFeed& feed)
{
    // The whole thread, by keyset in pages, assembled as it comes (a message's start may be long before the rows
    // that are new): a row is stored once the assembler lets it go.
    AguiThread thread(
        feed, [&](qint64 seq, qint64) { return QStringLiteral("thread %1, seq %2").arg(cursor.nativeId, QString::number(seq)); });
    qint64 after = -1;
    while (!feed.stopped()) {
        QSqlQuery page = m_pg->select(QStringLiteral("SELECT seq, event::text FROM kaboo_thread_events "
                                                     "WHERE thread_id = ? AND seq > ? ORDER BY seq LIMIT ?"),
            { cursor.nativeId, after, PageRows }, QStringLiteral("thread %1, after seq %2").arg(cursor.nativeId, QString::number(after)));
        int rows = 0;
        while (page.next() && !feed.stopped()) {
            ++rows;
            after = page.value(0).toLongLong();
            thread.take(AguiLogParser::readLine(page.value(1).toByteArray(), 0), after);
        }
        if (rows < PageRows)
            break;
    }
    thread.finish();
}
