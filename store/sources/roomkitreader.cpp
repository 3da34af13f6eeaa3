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
#include <utility>

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
constexpr const char* indexOf = "CASE WHEN typeof(idx) = 'integer' THEN idx ELSE -1099511627776 + rowid END";
// Rows past the cursor; the odd ones (above) only at the room's first import, when they are named.
constexpr const char* after = "(typeof(idx) = 'integer' AND idx >= 0 AND idx > ?2 OR (?2 < 0 AND (typeof(idx) != "
                              "'integer' OR idx < 0)))";

} // namespace

qint64 RoomKitReader::rowsAfter(const RoomCursor& cursor)
{
    if (cursor.syncedSeq >= 0) {
        // A room read before: the whole-number indexes past its cursor, a range of the room's index.
        SqliteStatement& count = preparedOnce(m_countAfter, m_src.handle(),
            "SELECT count(*) FROM events WHERE room_id = ?1 AND typeof(idx) = 'integer' AND idx > ?2");
        count.bind(1, cursor.nativeId);
        count.bind(2, cursor.syncedSeq);
        count.step();
        const qint64 rows = count.int64(0);
        count.reset();
        return rows;
    }
    // A room never read: every row, and the odd ones found in the same pass over the room's index (read() reads
    // them by rowid: three passes over the biggest room's index took half a second before its first screen).
    SqliteStatement& count = preparedOnce(m_countNew, m_src.handle(),
        "SELECT count(*), group_concat(CASE WHEN typeof(idx) != 'integer' OR idx < 0 THEN rowid END) FROM events "
        "WHERE room_id = ?1");
    count.bind(1, cursor.nativeId);
    count.step();
    m_oddRows.insert(cursor.nativeId, count.bytes(1));
    const qint64 rows = count.int64(0);
    count.reset();
    return rows;
}

qint64 RoomKitReader::rowsAfterUnread(const RoomCursor& cursor)
{
    if (cursor.syncedSeq >= 0)
        return rowsAfter(cursor);
    // A room never read and not read now: its rows alone, without a pass that finds its odd ones (0.8 s of 1.25 for
    // nine million rows); read() finds them by a pass of its own when the room is read.
    SqliteStatement& count
        = preparedOnce(m_countPlain, m_src.handle(), "SELECT count(*) FROM events WHERE room_id = ?1");
    count.bind(1, cursor.nativeId);
    count.step();
    const qint64 rows = count.int64(0);
    count.reset();
    return rows;
}

void RoomKitReader::read(const RoomCursor& room, RoomFeed& feed)
{
    // Each room is read as the file is now: a writer that started since the open is read under its locks.
    m_countAfter.reset();
    m_countNew.reset();
    m_countPlain.reset();
    m_src.refresh();
    // The odd rows (at the room's first import only): by the rowids the count found, or else by a pass of their own.
    // group_concat wrote the rowids: whole numbers, joined by commas.
    const auto known = m_oddRows.constFind(room.nativeId);
    const bool firstImport = room.syncedSeq < 0;
    const QByteArray oddWhere = known != m_oddRows.constEnd()
        ? "rowid IN (" + *known + ")"
        : QByteArray("(typeof(idx) != 'integer' OR idx < 0)");
    const bool anyOdd = firstImport && (known == m_oddRows.constEnd() || !known->isEmpty());
    if (anyOdd) {
        const QByteArray sql = QByteArray("SELECT id, typeof(idx), CAST(idx AS TEXT), ") + indexOf
            + " FROM events WHERE room_id = ? AND " + oddWhere + " ORDER BY rowid";
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
    // a few, sorted by their stand-in index), then the whole-number indexes after the cursor by the index on
    // (room_id, idx). One read ordered by the stand-in expression sorted the whole room in a temporary b-tree
    // before its first row: the biggest room of a million-event store showed its first screen after 4 s, not 0.2.
    const QByteArray columns = QByteArray("SELECT id, type, ") + indexOf
        + ", source_channel_id, source_channel_type, participant_id, correlation_id, "
          "parent_event_id, created_ts, CAST(data AS BLOB) FROM events WHERE room_id = ?1 AND ";
    const QByteArray oddSql = columns + oddWhere + " ORDER BY " + indexOf;
    const QByteArray wholeSql
        = columns + "typeof(idx) = 'integer' AND idx > max(?2, -1) ORDER BY idx";
    SqliteStatement oddRows(m_src.handle(), oddSql.constData());
    SqliteStatement wholeRows(m_src.handle(), wholeSql.constData());
    oddRows.bind(1, room.nativeId);
    wholeRows.bind(1, room.nativeId);
    wholeRows.bind(2, room.syncedSeq);
    // Calls are paired as their rows are read and written as they settle, batch by batch (RoomFeed): an end is
    // written folded into its card exactly when it closes a start, and only the calls still open stay in memory.
    RoomKitRows out(feed);
    // The source is read and decoded on the pipe's thread; only this loop writes.
    std::optional<RowPipe<DecodedRoomKitEvent>> rows;
    rows.emplace([&oddRows, &wholeRows, anyOdd](auto&& put) {
        for (SqliteStatement* read : { &oddRows, &wholeRows }) {
            if (read == &oddRows && !anyOdd)
                continue;
            while (read->step()) {
                RoomKitColumns columns;
                columns.id = read->text(0);
                columns.type = read->text(1);
                columns.index = read->int64(2);
                columns.channelId = read->text(3);
                columns.channelType = read->text(4);
                columns.participantId = read->text(5);
                columns.correlationId = read->text(6);
                columns.parentId = read->text(7);
                columns.createdSeconds = read->real(8);
                if (!put(RoomKitRowDecoder::decode(read->bytes(9), columns)))
                    return;
            }
        }
    });
    const auto stop = qScopeGuard([&] { rows.reset(); }); // its thread stops before the statement it steps is finalized
    while (!feed.stopped()) {
        DecodedRoomKitEvent* next = rows->next();
        if (!next)
            break;
        out.add(*next);
    }
    out.finish();
}
