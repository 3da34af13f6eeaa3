#include "roomkitreader.h"


#include "../eventflags.h"
#include "../eventkind.h"
#include "../roomkitrowdecoder.h"
#include "../sqlitestatement.h"
#include "../storeerror.h"
#include "../timeutil.h"
#include "../toolpairer.h"
#include "../workspace.h"
#include "roomfeed.h"
#include "roomkitrows.h"
#include "rowpipe.h"

#include <optional>
#include <QDateTime>
#include <QFileInfo>
#include <QHash>
#include <QScopeGuard>
#include <QSet>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlError>
#include <QSqlQuery>
#include <atomic>
#include <utility>
#include <sys/stat.h>

namespace {

// A table's JSON rows by room, in one pass (a statement a room took a second for ten thousand rooms).
QHash<QString, QJsonArray> jsonRowsByRoom(SourceDatabase& src, const char* sql)
{
    QHash<QString, QJsonArray> rows;
    SqliteStatement st(src.handle(), sql);
    while (st.step())
        rows[st.text(0)].append(QJsonDocument::fromJson(st.bytes(1)).object());
    return rows;
}

} // namespace

QString RoomKitReader::roomTitle(const QJsonObject& room)
{
    const QJsonObject metadata = room.value(QLatin1String("metadata")).toObject();
    for (const char* key : { "title", "name", "subject" }) {
        const QString value = metadata.value(QLatin1String(key)).toString();
        if (!value.isEmpty())
            return value;
    }
    return {};
}

RoomKitReader::RoomKitReader(const QString& path)
    : m_path(path)
    , m_src(path)
{
    const QStringList eventColumns = m_src.columns(QStringLiteral("events"));
    if (!m_src.hasTable(QStringLiteral("rooms")) || !eventColumns.contains(QLatin1String("idx"))
        || !eventColumns.contains(QLatin1String("data"))) {
        throw StoreError(path, {}, QStringLiteral("not a RoomKit store: it has no rooms and events(idx, data) tables"));
    }
    // RoomKit keeps its rooms and events in tables. A view by either name is not read: a view that recurses
    // without end (WITH RECURSIVE) hung every verb.
    for (const QString& table : { QStringLiteral("rooms"), QStringLiteral("events") }) {
        if (m_src.isView(table)) {
            throw StoreError(path, {},
                QStringLiteral("not a RoomKit store: its \"") + table
                    + QStringLiteral("\" is a view, not a table (Sightline reads a store's tables, never a view)"));
        }
    }
    m_version = m_src.userVersion();
    if (m_version < 1 || m_version > 3) {
        throw StoreError(path, QStringLiteral("PRAGMA user_version"),
            QStringLiteral("unknown RoomKit schema version %1 (Sightline reads versions 1 to 3)").arg(m_version));
    }
}

bool RoomKitReader::detect(const QString& path)
{
    if (!SourceDatabase::looksLikeSqlite(path))
        return false;
    try {
        SourceDatabase src(path);
        return src.hasTable(QStringLiteral("rooms")) && src.hasTable(QStringLiteral("events"))
            && src.columns(QStringLiteral("events")).contains(QLatin1String("idx"));
    } catch (const StoreError& e) {
        // A store a writer holds locked cannot be told apart now: said, not taken for something else.
        if (e.message().startsWith(QLatin1String("the database is locked"))
            || e.message().startsWith(QLatin1String("a program that was writing it stopped")))
            throw;
        return false;
    }
}

QString RoomKitReader::origin() const
{
    return QFileInfo(m_path).canonicalFilePath();
}

SourceIdentity RoomKitReader::identity() const
{
    return { QStringLiteral("roomkit"), QStringLiteral("roomkit.sqlite.v%1").arg(m_version), QString::number(m_version) };
}

// Rooms as RoomKit lists them (rowid order), plus any room that has events but no row of its own.
QVector<RoomInfo> RoomKitReader::rooms(const SourceNotes& notes)
{
    QVector<RoomInfo> listed;
    // The store's file by its device and inode: another file put at the path (a run's store copied or moved over the
    // last one) is another store, whatever its rooms are called.
    QString fileMark;
    struct stat st;
    if (::stat(QFile::encodeName(m_path).constData(), &st) == 0)
        fileMark = QStringLiteral("file %1:%2").arg(quint64(st.st_dev)).arg(quint64(st.st_ino));
    const bool hasBindings = m_src.hasTable(QStringLiteral("bindings"));
    const bool hasParticipants = m_src.hasTable(QStringLiteral("participants"));
    const QHash<QString, QJsonArray> bindings = hasBindings
        ? jsonRowsByRoom(m_src, "SELECT room_id, data FROM bindings ORDER BY rowid")
        : QHash<QString, QJsonArray>();
    const QHash<QString, QJsonArray> participants = hasParticipants
        ? jsonRowsByRoom(m_src, "SELECT room_id, data FROM participants ORDER BY rowid")
        : QHash<QString, QJsonArray>();
    auto add = [&](const QString& nativeId, const QString& status, const QString& organization, qint64 createdUs,
                   const QByteArray& data) {
        QJsonParseError error;
        const QJsonObject json = QJsonDocument::fromJson(data, &error).object();
        if (!data.isEmpty() && error.error != QJsonParseError::NoError) {
            notes(QStringLiteral("room %1").arg(nativeId),
                QStringLiteral("malformed room JSON at byte %1: %2").arg(error.offset).arg(error.errorString()));
        }
        QJsonObject details;
        if (hasBindings)
            details.insert(QStringLiteral("bindings"), bindings.value(nativeId));
        if (hasParticipants)
            details.insert(QStringLiteral("participants"), participants.value(nativeId));
        RoomInfo room;
        room.nativeId = nativeId;
        room.mark = fileMark;
        room.title = RoomKitReader::roomTitle(json);
        room.status = status;
        room.organizationId = organization;
        room.createdMicros = createdUs;
        room.nativeJson = data;
        room.detailsJson = QJsonDocument(details).toJson(QJsonDocument::Compact);
        listed.append(room);
    };

    SqliteStatement rooms(
        m_src.handle(), "SELECT id, status, organization_id, created_ts, CAST(data AS BLOB) FROM rooms ORDER BY rowid");
    while (rooms.step())
        add(rooms.text(0), rooms.text(1), rooms.text(2), TimeUtil::secondsToMicros(rooms.real(3)), rooms.bytes(4));
    // The rooms the events name, by a seek a room along an index led by room_id (RoomKit's idx_events_room):
    // SELECT DISTINCT passed over every event, a second for ten million.
    SqliteStatement indexed(m_src.handle(),
        "SELECT EXISTS (SELECT 1 FROM pragma_index_list('events') l, pragma_index_info(l.name) i "
        "WHERE i.seqno = 0 AND i.name = 'room_id')");
    const bool byIndex = indexed.step() && indexed.int64(0) != 0;
    SqliteStatement orphans(m_src.handle(),
        byIndex ? "WITH RECURSIVE r(id) AS (SELECT min(room_id) FROM events UNION ALL SELECT (SELECT min(room_id) "
                  "FROM events WHERE room_id > r.id) FROM r WHERE r.id IS NOT NULL) "
                  "SELECT id FROM r WHERE id IS NOT NULL AND id NOT IN (SELECT id FROM rooms)"
                : "SELECT DISTINCT room_id FROM events WHERE room_id NOT IN (SELECT id FROM rooms)");
    while (orphans.step()) {
        const QString nativeId = orphans.text(0);
        notes(QStringLiteral("room %1").arg(nativeId),
            QStringLiteral("events without a row in the rooms table (imported without room details)"));
        add(nativeId, QString(), QString(), 0, QByteArray());
    }
    return listed;
}

namespace {

// A row's index in the workspace. RoomKit numbers a room's events 0, 1, 2...; a row whose idx is not a whole
// number (2.5, 1e300, 'abc', NULL) is kept before the room's first event at a stand-in index made of its rowid,
// (-2^40 + rowid), and a negative one at its own index: neither is ever the sync cursor (1e300 read as a whole number was
// INT64_MAX, and no later row was ever imported), and neither is taken for another row's duplicate.
constexpr const char* indexOf = "CASE WHEN typeof(idx) = 'integer' THEN idx ELSE -1099511627776 + events.rowid END";

// A room's rows after the cursor: every row of a room never read (its odd ones too, read at its first import), else
// the whole-number indexes past the cursor, a range of the room's index.
constexpr const char* countAfterSql
    = "SELECT count(*) FROM events WHERE room_id = ?1 AND typeof(idx) = 'integer' AND idx > ?2";
constexpr const char* countAllSql = "SELECT count(*) FROM events WHERE room_id = ?1";

qint64 countRows(SqliteStatement& after, SqliteStatement& all, const RoomCursor& cursor)
{
    SqliteStatement& count = cursor.syncedSeq >= 0 ? after : all;
    count.bind(1, cursor.nativeId);
    if (cursor.syncedSeq >= 0)
        count.bind(2, cursor.syncedSeq);
    count.step();
    const qint64 rows = count.int64(0);
    count.reset();
    return rows;
}

} // namespace

bool RoomKitReader::cursorRowChanged(const RoomInfo& room, qint64 seq, const QString& id)
{
    if (seq < 0 || id.isEmpty())
        return false; // a stand-in index (an odd idx), or a row without an id: nothing to tell by
    // Prepared once: a sync of ten thousand rooms asks it ten thousand times.
    SqliteStatement& q = preparedOnce(m_rowId, m_src.handle(), "SELECT id FROM events WHERE room_id = ?1 AND idx = ?2");
    q.bind(1, room.nativeId);
    q.bind(2, seq);
    const bool changed = !q.step() || q.text(0) != id;
    q.reset();
    return changed;
}

qint64 RoomKitReader::rowsAfter(const RoomCursor& cursor)
{
    return countRows(preparedOnce(m_countAfter, m_src.handle(), countAfterSql),
        preparedOnce(m_countAll, m_src.handle(), countAllSql), cursor);
}

qint64 RoomKitReader::quickRowsAfter(const RoomCursor& cursor)
{
    // SQLite takes max() from the end of the index on (room_id, idx): one seek, whatever the room's size.
    SqliteStatement& highest = preparedOnce(m_highest, m_src.handle(),
        "SELECT max(idx) FROM events WHERE room_id = ?1 AND typeof(idx) = 'integer'");
    highest.bind(1, cursor.nativeId);
    highest.step();
    const bool any = !highest.isNull(0);
    const qint64 top = highest.int64(0);
    highest.reset();
    if (!any)
        return 0;
    return std::max<qint64>(0, top - std::max<qint64>(cursor.syncedSeq, -1));
}

void RoomKitReader::countApart(
    const QVector<RoomCursor>& rooms, const std::function<bool(const RoomCursor& room, qint64 rows)>& put) const
{
    SourceDatabase src(m_path); // this thread's own connection: the reader's goes on reading meanwhile
    SqliteStatement after(src.handle(), countAfterSql);
    SqliteStatement all(src.handle(), countAllSql);
    for (const RoomCursor& room : rooms) {
        if (!put(room, countRows(after, all, room)))
            return;
    }
}

void RoomKitReader::read(const RoomCursor& room, RoomFeed& feed)
{
    // Each room is read as the file is now: a writer that started since the open is read under its locks.
    m_countAfter.reset();
    m_countAll.reset();
    m_highest.reset();
    m_src.refresh();
    const bool firstImport = room.syncedSeq < 0;
    const bool slowly = firstImport && m_readSlowly.contains(room.nativeId);
    // The odd rows, at the room's first import only. The index on (room_id, idx) orders a room's NULLs first, then its
    // numbers, then its text and blobs: three seeks find the NULL, negative and text ones, where a pass over the room
    // (half a second in a room of nine million) stood before its first screen. A positive number that is not whole
    // sits among the whole ones: the read below meets it there, and the room is read again slowly, by that pass.
    const QByteArray seeks = "WITH odd(r) AS (SELECT rowid FROM events WHERE room_id = ?1 AND idx IS NULL UNION ALL "
                             "SELECT rowid FROM events WHERE room_id = ?1 AND idx < 0 UNION ALL "
                             "SELECT rowid FROM events WHERE room_id = ?1 AND idx >= '') ";
    const QByteArray oddFrom = slowly
        ? QByteArray(" FROM events WHERE room_id = ?1 AND (typeof(idx) != 'integer' OR idx < 0)")
        : QByteArray(" FROM odd CROSS JOIN events ON events.rowid = odd.r"); // CROSS JOIN: by rowid, odd row by odd row
    const QByteArray oddPrefix = slowly ? QByteArray() : seeks;
    if (firstImport) {
        // Read slowly, the others were named by the read that sent the room here: only those it could not seek.
        const QByteArray sql = oddPrefix + "SELECT id, typeof(idx), CAST(idx AS TEXT), " + indexOf + oddFrom
            + (slowly ? " AND typeof(idx) = 'real' AND idx >= 0" : "") + " ORDER BY events.rowid";
        SqliteStatement odd(m_src.handle(), sql.constData());
        odd.bind(1, room.nativeId);
        while (odd.step()) {
            const QString place = QStringLiteral("room ") + room.nativeId + QStringLiteral(", event ") + odd.text(0);
            const QString type = odd.text(1);
            const QString was = type == QLatin1String("null") ? QStringLiteral("NULL") : odd.text(2);
            feed.note(place,
                type == QLatin1String("integer")
                    ? QString(QStringLiteral("its idx ") + was + QStringLiteral(" is negative: kept at that index, before the room's first event"))
                    : QStringLiteral("its idx ") + was + QStringLiteral(" (") + type
                        + QStringLiteral(") is not a whole number: kept before the room's first event, at index ")
                        + QString::number(odd.int64(3)));
        }
    }
    // Two reads, so that the room's index gives the order: the odd rows first (at the room's first import only:
    // a few, sorted by their stand-in index), then the numbers after the cursor by the index on (room_id, idx).
    // One read ordered by the stand-in expression sorted the whole room in a temporary b-tree before its first row:
    // the biggest room of a million-event store showed its first screen after 4 s, not 0.2.
    const QByteArray columns = QByteArray("SELECT id, type, ") + indexOf
        + ", source_channel_id, source_channel_type, participant_id, correlation_id, "
          "parent_event_id, created_ts, CAST(data AS BLOB)";
    const QByteArray oddSql = oddPrefix + columns + oddFrom + " ORDER BY " + indexOf;
    // Every number past the cursor, not the whole ones alone: a positive one that is not whole comes by in its place,
    // and is either a row stored as odd already or one no seek found (above).
    const QByteArray wholeSql = columns + " FROM events WHERE room_id = ?1 AND "
        + (firstImport ? "idx >= 0" : "idx > ?2") + " AND idx < '' ORDER BY idx";
    SqliteStatement oddRows(m_src.handle(), oddSql.constData());
    SqliteStatement wholeRows(m_src.handle(), wholeSql.constData());
    oddRows.bind(1, room.nativeId);
    wholeRows.bind(1, room.nativeId);
    if (!firstImport)
        wholeRows.bind(2, room.syncedSeq);
    // The odd rows the room holds already (a room read on from its cursor): their stand-in indexes.
    QSet<qint64> held;
    if (!firstImport) {
        QSqlQuery stored = feed.workspace().exec(
            QStringLiteral("SELECT seq FROM events WHERE room_id = ? AND seq < 0"), { room.id });
        while (stored.next())
            held.insert(stored.value(0).toLongLong());
    }
    // Calls are paired as their rows are read and written as they settle, batch by batch (RoomFeed): an end is
    // written folded into its card exactly when it closes a start, and only the calls still open stay in memory.
    RoomKitRows out(feed);
    std::atomic_bool unseen = false; // a positive idx that is not whole, and not read with the odd rows
    // The source is read and decoded on the pipe's thread; only this loop writes. 32 batches of 256 rows ahead: with
    // the default 8 the reading thread stopped, its queue full, through each commit of the writer (its full-text
    // index, the log, a checkpoint), and a million events took 28 s; 24 s with these, for 17 MB more at the peak
    // (EVENT.md and AG-UI logs, whose writer is the pace throughout, gained nothing from a longer queue). A batch
    // also ends at a megabyte, so that rows holding big results (a fetched page) keep the queue to tens of MB.
    std::optional<RowPipe<DecodedRoomKitEvent>> rows;
    rows.emplace([&oddRows, &wholeRows, &held, &unseen, firstImport, slowly](auto&& put) {
        TextPacker packer(nullptr); // the payloads are packed here, beside the writer: its thread is the import's pace
        for (SqliteStatement* read : { &oddRows, &wholeRows }) {
            if (read == &oddRows && !firstImport)
                continue;
            while (read->step()) {
                RoomKitColumns columns;
                columns.index = read->int64(2);
                if (read == &wholeRows && columns.index < 0) { // its stand-in index: not a whole number
                    if (slowly || held.contains(columns.index))
                        continue;
                    unseen = true;
                    return;
                }
                columns.id = read->text(0);
                columns.type = read->text(1);
                columns.channelId = read->text(3);
                columns.channelType = read->text(4);
                columns.participantId = read->text(5);
                columns.correlationId = read->text(6);
                columns.parentId = read->text(7);
                columns.createdSeconds = read->real(8);
                DecodedRoomKitEvent decoded = RoomKitRowDecoder::decode(read->bytes(9), columns);
                decoded.packedPayload = packer.prepare(decoded.payload, decoded.record.flags & EventFlags::InvalidUtf8);
                if (!put(std::move(decoded)))
                    return;
            }
        }
    }, 256, 32, [](const DecodedRoomKitEvent& e) {
        // A row's weight: its payload, as read and as packed, and its texts (a tool's result is both), in bytes.
        return qint64(e.payload.size() + e.packedPayload.stored.size())
            + 2 * qint64(e.body.size() + e.arguments.size() + e.result.size());
    }, qint64(1) << 20);
    const auto stop = qScopeGuard([&] { rows.reset(); }); // its thread stops before the statement it steps is finalized
    bool ended = false; // every row the pipe read is written: a stop (a cancel, another room) leaves some unread
    while (!feed.stopped()) {
        DecodedRoomKitEvent* next = rows->next();
        if (!next) {
            ended = true;
            break;
        }
        out.add(*next);
    }
    // The pipe's thread reads ahead: the row it stopped at counts only once every row before it is written.
    if (ended && unseen) {
        // What was read of the room is dropped, and the room read again from its start, its odd rows found by a pass
        // of their own: the same rows, calls and turns as a store without such a row gives.
        m_readSlowly.insert(room.nativeId);
        feed.readAgainFromStart();
        return;
    }
    out.finish();
}
