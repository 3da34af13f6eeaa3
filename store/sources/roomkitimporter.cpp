#include "roomkitimporter.h"

#include "../eventflags.h"
#include "../eventkind.h"
#include "../roomkitrowdecoder.h"
#include "../sqlitestatement.h"
#include "../storeerror.h"
#include "../timeutil.h"
#include "../toolpairer.h"
#include "../workspace.h"
#include "sourcedatabase.h"

#include <QDateTime>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlError>
#include <QSqlQuery>

namespace {

constexpr int MaxListedProblems = 1000;

struct RoomTarget
{
    QString nativeId;
    qint64 id = 0;
    qint64 syncedSeq = -1;
    qint64 pending = 0;
};

void note(ImportReport& report, qint64& unlisted, const QString& problem)
{
    if (report.problems.size() < MaxListedProblems)
        report.problems << problem;
    else
        ++unlisted;
}

QString roomTitle(const QJsonObject& room)
{
    const QJsonObject metadata = room.value(QLatin1String("metadata")).toObject();
    for (const char* key : { "title", "name", "subject" }) {
        const QString value = metadata.value(QLatin1String(key)).toString();
        if (!value.isEmpty())
            return value;
    }
    return {};
}

QJsonArray jsonRows(SourceDatabase& src, const char* sql, const QString& roomId)
{
    QJsonArray rows;
    SqliteStatement st(src.handle(), sql);
    st.bind(1, roomId);
    while (st.step())
        rows.append(QJsonDocument::fromJson(st.bytes(0)).object());
    return rows;
}

qint64 upsertSource(Workspace& ws, const QString& origin, const QString& format, int version)
{
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    ws.exec(QStringLiteral("INSERT INTO sources(system, format, origin, schema_version, first_import_ms, last_sync_ms) "
                           "VALUES ('roomkit', ?, ?, ?, ?, ?) ON CONFLICT(origin) DO UPDATE SET "
                           "format = excluded.format, schema_version = excluded.schema_version, "
                           "last_sync_ms = excluded.last_sync_ms"),
        { format, origin, QString::number(version), now, now });
    QSqlQuery q = ws.exec(QStringLiteral("SELECT id FROM sources WHERE origin = ?"), { origin });
    q.next();
    return q.value(0).toLongLong();
}

// Rooms as RoomKit lists them (rowid order), plus any room that has events but no row of its own.
QVector<RoomTarget> importRooms(
    Workspace& ws, SourceDatabase& src, qint64 sourceId, ImportReport& report, qint64& unlisted)
{
    QVector<RoomTarget> targets;
    const bool hasBindings = src.hasTable(QStringLiteral("bindings"));
    const bool hasParticipants = src.hasTable(QStringLiteral("participants"));
    auto upsert = [&](const QString& nativeId, const QString& status, const QVariant& organization, qint64 createdUs,
                      const QByteArray& data) {
        QJsonParseError error;
        const QJsonObject room = QJsonDocument::fromJson(data, &error).object();
        if (!data.isEmpty() && error.error != QJsonParseError::NoError) {
            note(report, unlisted,
                QStringLiteral("%1: room %2: malformed room JSON at byte %3: %4")
                    .arg(src.path(), nativeId)
                    .arg(error.offset)
                    .arg(error.errorString()));
        }
        QJsonObject details;
        if (hasBindings) {
            details.insert(QStringLiteral("bindings"),
                jsonRows(src, "SELECT data FROM bindings WHERE room_id = ? ORDER BY rowid", nativeId));
        }
        if (hasParticipants) {
            details.insert(QStringLiteral("participants"),
                jsonRows(src, "SELECT data FROM participants WHERE room_id = ? ORDER BY rowid", nativeId));
        }
        ws.exec(QStringLiteral("INSERT INTO rooms(source_id, native_id, title, status, organization_id, created_us, "
                               "native_json, details_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
                               "ON CONFLICT(source_id, native_id) DO UPDATE SET title = excluded.title, "
                               "status = excluded.status, organization_id = excluded.organization_id, "
                               "native_json = excluded.native_json, details_json = excluded.details_json"),
            { sourceId, nativeId, roomTitle(room), status, organization, createdUs, QString::fromUtf8(data),
                QString::fromUtf8(QJsonDocument(details).toJson(QJsonDocument::Compact)) });
        QSqlQuery q = ws.exec(QStringLiteral("SELECT id, synced_seq FROM rooms WHERE source_id = ? AND native_id = ?"),
            { sourceId, nativeId });
        q.next();
        targets.append({ nativeId, q.value(0).toLongLong(), q.value(1).toLongLong(), 0 });
    };

    SqliteStatement rooms(
        src.handle(), "SELECT id, status, organization_id, created_ts, CAST(data AS BLOB) FROM rooms ORDER BY rowid");
    while (rooms.step()) {
        upsert(rooms.text(0), rooms.text(1), rooms.isNull(2) ? QVariant() : QVariant(rooms.text(2)),
            TimeUtil::secondsToMicros(rooms.real(3)), rooms.bytes(4));
    }
    SqliteStatement orphans(
        src.handle(), "SELECT DISTINCT room_id FROM events WHERE room_id NOT IN (SELECT id FROM rooms)");
    while (orphans.step()) {
        const QString nativeId = orphans.text(0);
        note(report, unlisted,
            QStringLiteral("%1: room %2: events without a row in the rooms table (imported without room details)")
                .arg(src.path(), nativeId));
        upsert(nativeId, QString(), QVariant(), 0, QByteArray());
    }
    return targets;
}

// Pairs what is new with the starts that were still open after the last sync, and replaces those.
void pairTools(Workspace& ws, qint64 roomId, QVector<ToolEvent> fresh)
{
    if (fresh.isEmpty())
        return;
    QVector<ToolEvent> events;
    QSqlQuery open = ws.exec(QStringLiteral("SELECT tool_name, tool_id, group_id, start_seq, started_us, status "
                                            "FROM tool_calls WHERE room_id = ? AND pairing = 'start_only' "
                                            "ORDER BY start_seq"),
        { roomId });
    while (open.next()) {
        ToolEvent e;
        e.isStart = true;
        e.toolName = open.value(0).toString();
        e.toolId = open.value(1).toString();
        e.correlationId = open.value(2).toString();
        e.index = open.value(3).toLongLong();
        e.createdMicros = open.value(4).toLongLong();
        e.contentStatus = open.value(5).toString();
        events.append(e);
    }
    open.finish();
    ws.exec(QStringLiteral("DELETE FROM tool_calls WHERE room_id = ? AND pairing = 'start_only'"), { roomId });
    events += fresh;

    SqliteStatement insert(ws.handle(),
        "INSERT INTO tool_calls(room_id, tool_name, tool_id, group_id, start_seq, end_seq, "
        "started_us, ended_us, duration_ms, duration_source, status, outcome, pairing, error) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    auto bindOptional = [&insert](int column, const std::optional<qint64>& value) {
        if (value)
            insert.bind(column, *value);
        else
            insert.bindNull(column);
    };
    auto bindText = [&insert](int column, const QString& value) {
        if (value.isEmpty())
            insert.bindNull(column);
        else
            insert.bind(column, value);
    };
    for (const ToolCallRecord& call : ToolPairer::pair(events)) {
        insert.bind(1, roomId);
        bindText(2, call.toolName);
        bindText(3, call.toolId);
        bindText(4, call.groupId);
        bindOptional(5, call.startIndex);
        bindOptional(6, call.endIndex);
        bindOptional(7, call.startMicros);
        bindOptional(8, call.endMicros);
        bindOptional(9, call.durationMs);
        bindText(10, call.durationSource);
        bindText(11, call.status);
        bindText(12, call.outcome);
        insert.bind(13, call.pairing);
        bindText(14, call.error);
        insert.step();
        insert.reset();
    }
}

void updateRoomCounts(Workspace& ws, qint64 roomId, qint64 syncedSeq)
{
    // QtSql binds positional '?' only, so the room id is bound once per use.
    ws.exec(QStringLiteral("UPDATE rooms SET synced_seq = max(synced_seq, ?), "
                           "event_count = (SELECT count(*) FROM events WHERE room_id = ?), "
                           "blocked_count = (SELECT count(*) FROM events WHERE room_id = ? AND blocked = 1), "
                           "first_us = (SELECT min(created_us) FROM events WHERE room_id = ?), "
                           "last_us = (SELECT max(created_us) FROM events WHERE room_id = ?), "
                           "tool_calls = (SELECT count(*) FROM tool_calls WHERE room_id = ?), "
                           "failed = (SELECT count(*) FROM tool_calls WHERE room_id = ? AND outcome = 'failed'), "
                           "refused = (SELECT count(*) FROM tool_calls WHERE room_id = ? AND outcome = 'refused'), "
                           "unserved = (SELECT count(*) FROM tool_calls WHERE room_id = ? AND outcome = 'unserved') "
                           "WHERE id = ?"),
        { syncedSeq, roomId, roomId, roomId, roomId, roomId, roomId, roomId, roomId, roomId });
}

class Transaction
{
public:
    explicit Transaction(Workspace& ws)
        : m_ws(ws)
    {
        if (!m_ws.db().transaction())
            throw StoreError(
                m_ws.path(), {}, QStringLiteral("cannot begin a transaction: ") + m_ws.db().lastError().text());
    }
    ~Transaction()
    {
        if (m_open)
            m_ws.db().rollback();
    }
    void commit()
    {
        if (!m_ws.db().commit())
            throw StoreError(m_ws.path(), {}, QStringLiteral("cannot commit: ") + m_ws.db().lastError().text());
        m_open = false;
    }

private:
    Workspace& m_ws;
    bool m_open = true;
};

} // namespace

namespace RoomKitImporter {

bool detect(const QString& path)
{
    if (!SourceDatabase::looksLikeSqlite(path))
        return false;
    try {
        SourceDatabase src(path);
        return src.hasTable(QStringLiteral("rooms")) && src.hasTable(QStringLiteral("events"))
            && src.columns(QStringLiteral("events")).contains(QLatin1String("idx"));
    } catch (const StoreError&) {
        return false;
    }
}

ImportReport run(Workspace& ws, const QString& sourcePath, const ImportOptions& options)
{
    SourceDatabase src(sourcePath);
    const QStringList eventColumns = src.columns(QStringLiteral("events"));
    if (!src.hasTable(QStringLiteral("rooms")) || !eventColumns.contains(QLatin1String("idx"))
        || !eventColumns.contains(QLatin1String("data"))) {
        throw StoreError(
            sourcePath, {}, QStringLiteral("not a RoomKit store: it has no rooms and events(idx, data) tables"));
    }
    const int version = src.userVersion();
    if (version < 1 || version > 3) {
        throw StoreError(sourcePath, QStringLiteral("PRAGMA user_version"),
            QStringLiteral("unknown RoomKit schema version %1 (Sightline reads versions 1 to 3)").arg(version));
    }

    ImportReport report;
    report.source = sourcePath;
    report.format = QStringLiteral("roomkit.sqlite.v%1").arg(version);
    qint64 unlisted = 0;
    const QString origin = QFileInfo(sourcePath).canonicalFilePath();

    QVector<RoomTarget> targets;
    {
        Transaction tx(ws);
        const qint64 sourceId = upsertSource(ws, origin, report.format, version);
        targets = importRooms(ws, src, sourceId, report, unlisted);
        tx.commit();
    }

    qint64 total = 0;
    {
        SqliteStatement pending(src.handle(), "SELECT count(*) FROM events WHERE room_id = ? AND idx > ?");
        for (RoomTarget& room : targets) {
            pending.bind(1, room.nativeId);
            pending.bind(2, room.syncedSeq);
            pending.step();
            room.pending = pending.int64(0);
            total += room.pending;
            pending.reset();
        }
    }

    SqliteStatement read(src.handle(),
        "SELECT id, type, idx, source_channel_id, source_channel_type, participant_id, correlation_id, "
        "parent_event_id, created_ts, CAST(data AS BLOB) FROM events "
        "WHERE room_id = ? AND idx > ? ORDER BY idx");
    SqliteStatement insert(ws.handle(),
        "INSERT OR IGNORE INTO events(room_id, seq, native_id, type, kind, status, blocked, blocked_by, "
        "channel_id, channel_type, participant_id, correlation_id, parent_id, created_us, role, "
        "tool_name, tool_id, outcome, text, flags, payload) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    SqliteStatement fts(ws.handle(), "INSERT INTO events_fts(rowid, body, arguments, result) VALUES (?, ?, ?, ?)");
    auto bindText = [](SqliteStatement& st, int column, const QString& value) {
        if (value.isEmpty())
            st.bindNull(column);
        else
            st.bind(column, value);
    };

    qint64 done = 0;
    for (const RoomTarget& room : targets) {
        if (options.cancel && options.cancel->load()) {
            report.cancelled = true;
            break;
        }
        ImportReport::Room counted { room.nativeId, 0, 0 };
        QVector<ToolEvent> tools;
        qint64 synced = room.syncedSeq;
        auto tx = std::make_unique<Transaction>(ws);
        int inBatch = 0;
        read.bind(1, room.nativeId);
        read.bind(2, room.syncedSeq);
        while (read.step()) {
            RoomKitColumns columns;
            columns.id = read.text(0);
            columns.type = read.text(1);
            columns.index = read.int64(2);
            columns.channelId = read.text(3);
            columns.channelType = read.text(4);
            columns.participantId = read.text(5);
            columns.correlationId = read.text(6);
            columns.parentId = read.text(7);
            columns.createdSeconds = read.real(8);
            const DecodedRoomKitEvent e = RoomKitRowDecoder::decode(read.bytes(9), columns);
            const EventRecord& r = e.record;
            if (!e.problem.isEmpty()) {
                note(report, unlisted,
                    QStringLiteral("%1: room %2, index %3: %4")
                        .arg(sourcePath, room.nativeId)
                        .arg(r.index)
                        .arg(e.problem));
            }

            insert.bind(1, room.id);
            insert.bind(2, r.index);
            bindText(insert, 3, r.nativeId);
            insert.bind(4, r.type);
            insert.bind(5, r.kind);
            bindText(insert, 6, r.status);
            insert.bind(7, qint64(r.isBlocked() ? 1 : 0));
            bindText(insert, 8, r.blockedBy);
            bindText(insert, 9, r.channelId);
            bindText(insert, 10, r.channelType);
            bindText(insert, 11, r.participantId);
            bindText(insert, 12, r.correlationId);
            bindText(insert, 13, r.parentId);
            insert.bind(14, r.createdMicros);
            bindText(insert, 15, r.role);
            bindText(insert, 16, r.toolName);
            bindText(insert, 17, r.toolId);
            bindText(insert, 18, r.outcome);
            bindText(insert, 19, r.text);
            insert.bind(20, qint64(r.flags));
            if (r.flags & EventFlags::InvalidUtf8)
                insert.bindBlob(21, e.payload);
            else
                insert.bindText(21, e.payload);
            insert.step();
            insert.reset();
            synced = std::max(synced, r.index);
            if (sqlite3_changes(ws.handle()) == 0) {
                note(report, unlisted,
                    QStringLiteral("%1: room %2, index %3: a second row with the same index (event %4) was skipped")
                        .arg(sourcePath, room.nativeId)
                        .arg(r.index)
                        .arg(r.nativeId));
                continue;
            }
            ++counted.added;
            if (!e.body.isEmpty() || !e.arguments.isEmpty() || !e.result.isEmpty()) {
                fts.bind(1, sqlite3_last_insert_rowid(ws.handle()));
                bindText(fts, 2, e.body);
                bindText(fts, 3, e.arguments);
                bindText(fts, 4, e.result);
                fts.step();
                fts.reset();
            }
            if (r.kind == EventKind::ToolCall) {
                ToolEvent t;
                t.index = r.index;
                t.isStart = r.type == QLatin1String("tool_call_start");
                t.correlationId = r.correlationId;
                t.toolId = r.toolId;
                t.toolName = r.toolName;
                t.createdMicros = r.createdMicros;
                t.contentStatus = e.contentStatus;
                t.outcome = r.outcome;
                t.error = e.error;
                t.durationMs = e.durationMs;
                tools.append(t);
            }
            if (++inBatch >= options.batchRows) {
                // The cursor moves with the batch, so a cancelled or failed import resumes where it stopped.
                ws.exec(QStringLiteral("UPDATE rooms SET synced_seq = ? WHERE id = ?"), { synced, room.id });
                tx->commit();
                done += inBatch;
                inBatch = 0;
                if (options.progress)
                    options.progress(done, total);
                if (options.cancel && options.cancel->load()) {
                    report.cancelled = true;
                    break;
                }
                tx = std::make_unique<Transaction>(ws);
            }
        }
        read.reset();
        if (report.cancelled && inBatch == 0)
            tx = std::make_unique<Transaction>(ws);
        pairTools(ws, room.id, tools);
        updateRoomCounts(ws, room.id, synced);
        tx->commit();
        done += inBatch;
        if (options.progress)
            options.progress(done, total);
        QSqlQuery count = ws.exec(QStringLiteral("SELECT event_count FROM rooms WHERE id = ?"), { room.id });
        counted.total = count.next() ? count.value(0).toLongLong() : 0;
        report.rooms.append(counted);
        if (report.cancelled)
            break;
    }

    if (unlisted > 0)
        report.problems << QStringLiteral("%1: and %2 more problems").arg(sourcePath).arg(unlisted);
    ws.exec(QStringLiteral("UPDATE sources SET import_notes = ? WHERE origin = ?"),
        { report.problems.isEmpty() ? QVariant() : QVariant(report.problems.join(QLatin1Char('\n'))), origin });
    return report;
}

} // namespace RoomKitImporter
