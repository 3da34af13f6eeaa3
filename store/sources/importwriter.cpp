#include "importwriter.h"

#include "../annotationstore.h"
#include "../editstore.h"
#include "../eventflags.h"
#include "../recordfields.h"
#include "../recordreader.h"
#include "../redactionstore.h"
#include "../searchindex.h"
#include "../sqlitestatement.h"
#include "../team/teamsync.h"
#include "../storeerror.h"
#include "../textpacker.h"
#include "../workspace.h"
#include "filetail.h"

#include <QDateTime>
#include <limits>
#include <utility>
#include <QFileInfo>
#include <QSqlError>
#include <QSqlQuery>

namespace {
constexpr int MaxListedProblems = 1000;

// The end of an UPDATE of a room: its blocked rows and its calls by outcome, each from an index alone (the blocked
// rows a seek, the calls a pass over the room's outcome index: each call's outcome was read from its table row,
// beside its arguments and result, a third of a sync), then `WHERE id = ?`. Binds: the room three times.
const QString BlockedAndCalls = QStringLiteral(
    "blocked_count = (SELECT count(*) FROM events WHERE room_id = ? AND blocked = 1), "
    "(tool_calls, failed, refused, unserved) = (SELECT count(*), coalesce(sum(outcome = 'failed'), 0), "
    "coalesce(sum(outcome = 'refused'), 0), coalesce(sum(outcome = 'unserved'), 0) FROM tool_calls "
    "INDEXED BY tool_calls_room_outcome WHERE room_id = ?) WHERE id = ?");

QVariant orNull(const QString& value)
{
    return value.isEmpty() ? QVariant() : QVariant(value);
}
} // namespace

ImportWriter::ImportWriter(Workspace& workspace, const QString& sourcePath, const QString& origin,
    const ImportOptions& options, ImportReport& report)
    : m_ws(workspace)
    , m_source(sourcePath)
    , m_origin(origin)
    , m_options(options)
    , m_report(report)
    , m_given(int(FieldTable::storedColumns(RecordFields::events()).size()) + 3) // room_id, ..., blocked, payload
    , m_messages(workspace.handle(), "messages")
    , m_turns(workspace.handle(), "turns")
    , m_words(workspace.handle())
{
    m_report.source = sourcePath;
    // A cancel asked before the import began: no room is started.
    m_cancelled = m_options.isCancelled && m_options.isCancelled();
    // A batch dirties a few thousand pages; with SQLite's default 2 MB cache they spill to the log before the
    // commit and are written again by it. 32 MB holds a batch's (about 14 MB at 20,000 rows): 64 MB imported no
    // faster (a 100,000-row RoomKit store in 3.0 s with 32 MB against 3.2 s) and took 35 MB more at the peak.
    SqliteStatement size(m_ws.handle(), "PRAGMA cache_size");
    if (size.step())
        m_cacheSize = size.int64(0);
    sqlite3_exec(m_ws.handle(), "PRAGMA cache_size = -32768", nullptr, nullptr, nullptr);
}

ImportWriter::~ImportWriter()
{
    m_insert.reset();
    m_insertRows.reset();
    m_search.reset();
    m_deleteOpen.reset();
    m_insertRun.reset();
    m_updateRun.reset();
    if (m_inTransaction)
        m_ws.db().rollback();
    const QByteArray restore = "PRAGMA cache_size = " + QByteArray::number(m_cacheSize);
    sqlite3_exec(m_ws.handle(), restore.constData(), nullptr, nullptr, nullptr);
}

void ImportWriter::begin()
{
    if (!m_ws.db().transaction())
        throw StoreError(
            m_ws.path(), {}, QStringLiteral("cannot begin a transaction: ") + m_ws.db().lastError().text());
    m_inTransaction = true;
}

void ImportWriter::commit()
{
    flushRows();
    if (!m_ws.db().commit())
        throw StoreError(m_ws.path(), {}, QStringLiteral("cannot commit: ") + m_ws.db().lastError().text());
    m_inTransaction = false;
    m_freed.giveBack(); // what the batch's rows took on this thread and the reading one (FreedMemory)
}

void ImportWriter::rollback()
{
    m_given.clear();
    m_givenRows.clear();
    m_givenWeight = 0;
    m_wordsFrom = m_wordsTo = 0;
    m_ws.db().rollback();
    m_inTransaction = false;
    m_messages.forget();
    m_turns.forget();
    m_words.forget();
}

qint64 ImportWriter::upsertSource(const QString& system, const QString& format, const QString& schemaVersion)
{
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    m_ws.exec(
        QStringLiteral("INSERT INTO sources(system, format, origin, schema_version, first_import_ms, last_sync_ms) "
                       "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(origin) DO UPDATE SET system = excluded.system, "
                       "format = excluded.format, schema_version = excluded.schema_version, "
                       "last_sync_ms = excluded.last_sync_ms"),
        { system, format, m_origin, orNull(schemaVersion), now, now });
    QSqlQuery q = m_ws.exec(QStringLiteral("SELECT id FROM sources WHERE origin = ?"), { m_origin });
    q.next();
    return q.value(0).toLongLong();
}

RoomCursor ImportWriter::upsertRoom(qint64 sourceId, const RoomInfo& r)
{
    // The room's fields come from the source again (its title may be its first message): where a reviewer
    // redacted them, they are redacted again in the same transaction as they are written.
    SqliteStatement& known = preparedOnce(m_roomHasRedactions, m_ws.handle(),
        "SELECT EXISTS (SELECT 1 FROM redactions x JOIN rooms o ON o.id = x.room_id WHERE o.source_id = ? AND "
        "o.native_id = ? AND x.present = 1)");
    known.bind(1, sourceId);
    known.bind(2, r.nativeId);
    const bool redacted = known.step() && known.int64(0) != 0;
    known.reset();
    if (!redacted)
        return writeRoom(sourceId, r);
    m_ws.exec(QStringLiteral("SAVEPOINT room_fields"));
    try {
        const RoomCursor cursor = writeRoom(sourceId, r);
        if (RedactionStore(m_ws).reapply(cursor.id, std::pair<qint64, qint64>(0, -1))) // no rows: the room's fields
            m_redactedAgain = true;
        m_ws.exec(QStringLiteral("RELEASE room_fields"));
        return cursor;
    } catch (...) {
        m_ws.rollbackQuietly("ROLLBACK TO room_fields; RELEASE room_fields");
        throw;
    }
}

RoomCursor ImportWriter::writeRoom(qint64 sourceId, const RoomInfo& r)
{
    // One statement a room, prepared once: a store of ten thousand rooms is listed before its first screen.
    SqliteStatement& write = preparedOnce(m_writeRoom, m_ws.handle(),
        "INSERT INTO rooms(source_id, native_id, title, status, organization_id, owner, agent_id, summary, created_us, "
        "updated_us, native_json, details_json, file_mark) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13) "
        "ON CONFLICT(source_id, native_id) DO UPDATE SET "
        "title = CASE WHEN ?14 THEN title ELSE excluded.title END, "
        "status = CASE WHEN ?14 THEN status ELSE excluded.status END, organization_id = excluded.organization_id, "
        "owner = excluded.owner, agent_id = excluded.agent_id, summary = excluded.summary, "
        "created_us = coalesce(excluded.created_us, created_us), updated_us = excluded.updated_us, "
        "native_json = excluded.native_json, details_json = excluded.details_json, file_mark = excluded.file_mark "
        "RETURNING id, synced_seq");
    write.bindAll({ sourceId, r.nativeId, orNull(r.title), orNull(r.status), orNull(r.organizationId), orNull(r.owner),
        orNull(r.agentId), orNull(r.summary), r.createdMicros ? QVariant(r.createdMicros) : QVariant(),
        r.updatedMicros ? QVariant(r.updatedMicros) : QVariant(),
        r.nativeJson.isNull() ? QVariant() : QVariant(QString::fromUtf8(r.nativeJson)),
        r.detailsJson.isNull() ? QVariant() : QVariant(QString::fromUtf8(r.detailsJson)),
        !r.file.isEmpty() ? QVariant(FileTail::mark(r.file)) : !r.mark.isEmpty() ? QVariant(r.mark) : QVariant(),
        r.titleFromRows ? 1 : 0 });
    write.step();
    const RoomCursor cursor { r.nativeId, write.int64(0), write.int64(1) };
    while (write.step()) { } // RETURNING: the row is written when the statement is run to its end
    write.reset();
    return cursor;
}

void ImportWriter::note(const QString& place, const QString& problem)
{
    if (m_report.problems.size() < MaxListedProblems)
        m_report.problems << StoreError(m_source, place, problem).toString();
    else
        ++m_unlisted;
}

void ImportWriter::bindText(SqliteStatement& st, int column, const QString& value)
{
    if (value.isEmpty())
        st.bindNull(column);
    else
        st.bind(column, value);
}

qint64 ImportWriter::numbered(const char* column, const QString& text)
{
    if (qstrcmp(column, "message_id") == 0)
        return m_messages.number(m_room.id, text);
    if (qstrcmp(column, "group_id") == 0)
        return m_turns.number(m_room.id, text);
    if (WordCodes::holdsWords(column))
        return m_words.code(text);
    throw std::logic_error("no numbers for this column");
}

void ImportWriter::beginRoom(const RoomCursor& room)
{
    m_room = room;
    m_counted = { room.nativeId, 0, 0, room.id, 0 };
    m_lastSeq = room.syncedSeq;
    m_inBatch = 0;
    m_roomCommits = 0;
    m_batchAdded = 0;
    m_batchFirstUs = 0;
    m_batchLastUs = 0;
    m_written.reset();
    QSqlQuery redacted = m_ws.exec(
        QStringLiteral("SELECT EXISTS (SELECT 1 FROM redactions WHERE room_id = ? AND present = 1), coalesce("
                       "(SELECT counted_through FROM rooms WHERE id = ?), -1)"),
        { room.id, room.id });
    m_roomRedacted = redacted.next() && redacted.value(0).toBool();
    m_countedThrough = redacted.isValid() ? redacted.value(1).toLongLong() : -1;
    redacted.finish();
    if (!m_insert) {
        // The record's columns from its field table, then what the record does not hold: whether it is blocked (said
        // by its status) and its payload.
        // Only a row the room has already (a sync reading again from a record's start) is passed over: any other
        // constraint a row breaks is an error, named by insertOne(), never a row dropped without a word.
        const QStringList columns = FieldTable::storedColumns(RecordFields::events());
        const QString sql = QStringLiteral("INSERT INTO events(room_id, %1, blocked, payload) VALUES (?%2) "
                                           "ON CONFLICT(room_id, seq) DO NOTHING")
                                .arg(columns.join(QStringLiteral(", ")), QStringLiteral(", ?").repeated(columns.size() + 2));
        m_insert = std::make_unique<SqliteStatement>(m_ws.handle(), sql.toUtf8().constData());
        PendingRows::install(m_ws.handle(), m_given.columns());
        // WHERE true: an upsert's ON after a SELECT would be read as a join's.
        const QString rows = QStringLiteral("INSERT INTO events(room_id, %1, blocked, payload) SELECT * FROM "
                                            "sightline_rows(?) WHERE true ON CONFLICT(room_id, seq) DO NOTHING")
                                 .arg(columns.join(QStringLiteral(", ")));
        m_insertRows = std::make_unique<SqliteStatement>(m_ws.handle(), rows.toUtf8().constData());
        m_search = std::make_unique<SearchIndex>(m_ws.handle(), m_ws.packer());
    }
    begin();
}

void ImportWriter::insert(const StoredEvent& e, bool noteIfSkipped)
{
    const EventRecord& r = e.record;
    RowValues row(m_given.columns());
    row.bind(1, m_room.id);
    const int next = FieldTable::bind(row, 2, r, RecordFields::events(), m_ws.packer(),
        [this](const char* column, const QString& id) { return numbered(column, id); });
    row.bind(next, qint64(r.isBlocked() ? 1 : 0));
    const bool bytes = r.flags & EventFlags::InvalidUtf8;
    if (e.packedPayload.isFor(e.payload, bytes))
        TextPacker::bind(row, next + 1, e.packedPayload); // packed on the reading thread
    else if (bytes)
        row.bindBlob(next + 1, m_ws.packer().packBytes(e.payload)); // the bytes as they were; TEXT must be UTF-8
    else
        m_ws.packer().bindPayload(row, next + 1, e.payload);
    const bool searchable = !e.body.isEmpty() || !e.arguments.isEmpty() || !e.result.isEmpty();
    m_given.add(std::move(row));
    m_givenWeight += e.payload.size() + 2 * (e.body.size() + e.arguments.size() + e.result.size());
    m_givenRows.push_back({ r.index, r.createdMicros, searchable ? e.body : QString(),
        searchable ? e.arguments : QString(), searchable ? e.result : QString(),
        noteIfSkipped ? r.nativeId : QString(), noteIfSkipped });
    m_lastSeq = std::max(m_lastSeq, r.index);
    if (m_given.size() >= GivenRows || m_givenWeight >= GivenWeight)
        writeGiven();
    // A room's first batch is small: a big room shows after it (see checkpointRoom), and sooner is better.
    const int batch = m_roomCommits == 0 ? std::min(m_options.batchRows, FirstBatchRows) : m_options.batchRows;
    ++m_inBatch;
    // Another room wanted now: the batch is committed here, not at its end (20,000 rows are half a second of
    // import, which the user would wait before the room asked for is begun). Any commit is a place a resumed
    // import goes on from.
    constexpr int YieldCheckRows = 500;
    const bool full = m_inBatch >= batch;
    const bool wanted = !full && m_inBatch % YieldCheckRows == 0 && m_yieldWhen && m_yieldWhen();
    if (full || wanted) {
        ++m_roomCommits;
        commitBatch(m_lastSeq);
        heedRequests();
        begin();
    }
}

void ImportWriter::flushRows()
{
    writeGiven();
    indexWords();
}

void ImportWriter::indexWords()
{
    if (m_wordsFrom == 0)
        return;
    m_search->indexWords(m_wordsFrom, m_wordsTo);
    m_wordsFrom = m_wordsTo = 0;
}

void ImportWriter::writeGiven()
{
    if (m_given.empty())
        return;
    sqlite3* db = m_ws.handle();
    // The rows' ids: one after another from the table's last when every row was written (SQLite gives a new row the
    // largest rowid plus one), else read back for those written.
    SqliteStatement& last = preparedOnce(m_lastRowId, db, "SELECT coalesce(max(id), 0) FROM events");
    last.step();
    const qint64 before = last.int64(0);
    last.reset();
    std::vector<qint64> ids(m_given.size(), 0);
    // The rows written, by their index, read back: each index's id goes to its first row given (a second row at the
    // same index was passed over).
    const auto readBack = [&] {
        QHash<qint64, qint64> idOf;
        QSqlQuery q = m_ws.exec(QStringLiteral("SELECT seq, id FROM events WHERE id > ?"), { before });
        while (q.next())
            idOf.insert(q.value(0).toLongLong(), q.value(1).toLongLong());
        return idOf;
    };
    SqliteStatement& write = *m_insertRows;
    m_given.bind(write.handle(), 1);
    bool oneByOne = false;
    try {
        write.step();
        write.reset();
    } catch (const StoreError&) {
        // A row the workspace cannot hold stops the statement: the rows it did not write are written one by one,
        // that row named (insertOne). Anything else (a full disk, a lock) ends the import as before.
        const bool constraint = (sqlite3_errcode(db) & 0xff) == SQLITE_CONSTRAINT;
        write.reset();
        if (!constraint)
            throw;
        oneByOne = true;
    }
    if (oneByOne) {
        // An ABORT undid the statement's rows; a FAIL keeps those before the row refused.
        QHash<qint64, qint64> idOf = readBack();
        for (std::size_t k = 0; k < m_given.size(); ++k)
            ids[k] = idOf.contains(m_givenRows[k].index) ? idOf.take(m_givenRows[k].index)
                                                         : insertOne(m_given.at(k), m_givenRows[k].index);
    } else if (const qint64 added = sqlite3_changes64(db); added == qint64(m_given.size())) {
        const qint64 first = sqlite3_last_insert_rowid(db) - added + 1;
        for (std::size_t k = 0; k < ids.size(); ++k)
            ids[k] = first + qint64(k);
    } else if (added > 0) {
        QHash<qint64, qint64> idOf = readBack();
        for (std::size_t k = 0; k < ids.size(); ++k)
            ids[k] = idOf.take(m_givenRows[k].index);
    }
    for (std::size_t k = 0; k < ids.size(); ++k) {
        const Given& g = m_givenRows[k];
        if (ids[k] <= 0) {
            if (ids[k] == 0 && g.noteIfSkipped)
                note(QStringLiteral("room ") + m_room.nativeId + QStringLiteral(", index ") + QString::number(g.index),
                    skippedRow(g.skippedId));
            continue;
        }
        if (g.index <= m_countedThrough)
            forgetCounted();
        wrote(g.index);
        ++m_counted.added;
        ++m_batchAdded;
        if (g.createdMicros != 0) {
            m_batchFirstUs = m_batchFirstUs ? std::min(m_batchFirstUs, g.createdMicros) : g.createdMicros;
            m_batchLastUs = std::max(m_batchLastUs, g.createdMicros);
        }
        if (!g.body.isEmpty() || !g.arguments.isEmpty() || !g.result.isEmpty()) {
            m_search->addText(ids[k], g.body, g.arguments, g.result);
            m_wordsFrom = m_wordsFrom ? std::min(m_wordsFrom, ids[k]) : ids[k];
            m_wordsTo = std::max(m_wordsTo, ids[k]);
        }
    }
    m_given.clear();
    m_givenRows.clear();
    m_givenWeight = 0;
}

qint64 ImportWriter::insertOne(const RowValues& row, qint64 index)
{
    SqliteStatement& st = *m_insert;
    row.bindTo(st);
    try {
        st.step();
    } catch (const StoreError& e) {
        // A row the workspace cannot hold (a column it needs is missing): named, and the rest goes on.
        const bool constraint = (sqlite3_errcode(m_ws.handle()) & 0xff) == SQLITE_CONSTRAINT;
        st.reset();
        if (!constraint)
            throw;
        note(QStringLiteral("room ") + m_room.nativeId + QStringLiteral(", index ") + QString::number(index),
            QStringLiteral("not imported: ") + e.message());
        return -1;
    }
    st.reset();
    return sqlite3_changes(m_ws.handle()) > 0 ? sqlite3_last_insert_rowid(m_ws.handle()) : 0;
}

void ImportWriter::commitBatch(qint64 syncedSeq)
{
    flushRows(); // the batch's counts, below, are of its rows written
    if (m_beforeCommit)
        m_beforeCommit();
    redactWritten();
    // The room's count and span move with its rows, in the same transaction: a reader's "X of Y" and time
    // span stay true while a big room imports (finishRoom recounts exactly).
    // Its blocked rows and its calls by outcome too (a hundredth of a second at 260,000 calls): the list's figures of
    // a room being read, and of one whose import was stopped or killed, were its first batch's.
    m_ws.exec(QStringLiteral("UPDATE rooms SET synced_seq = max(synced_seq, ?), event_count = event_count + ?, "
                             "unread = max(0, unread - ?), "
                             "first_us = CASE WHEN ? = 0 THEN first_us ELSE min(coalesce(first_us, ?), ?) END, "
                             "last_us = max(coalesce(last_us, 0), ?), ")
            + BlockedAndCalls,
        { std::max(syncedSeq, m_lastSeq), m_batchAdded, m_batchAdded, m_batchFirstUs, m_batchFirstUs, m_batchFirstUs,
            m_batchLastUs, m_room.id, m_room.id, m_room.id });
    m_batchAdded = 0;
    m_batchFirstUs = 0;
    m_batchLastUs = 0;
    if (m_withEveryCommit)
        m_withEveryCommit();
    commit();
    m_done += m_inBatch;
    m_inBatch = 0;
    reportProgress();
}

void ImportWriter::pauseRoom(qint64 syncedSeq)
{
    // What a batch commit writes, and no more: the room is counted whole, its edits and redactions met again and
    // its notes linked once it is read to its end. A recount of the biggest room here stood between the user's
    // click and the room asked for (a tenth of a second and more at a million rows).
    commitBatch(syncedSeq);
    addToReport();
}

void ImportWriter::readRoomAgain()
{
    flushRows();
    // The rows of the room read so far, committed or not, are read again: the progress's total grows by them.
    m_total += m_counted.added;
    m_ws.exec(QStringLiteral("UPDATE rooms SET unread = unread + event_count WHERE id = ?"), { m_room.id });
    clearRoom(m_room.id);
    m_written.reset();
    m_batchAdded = 0;
    m_countedThrough = -1;
    m_room.syncedSeq = -1;
    m_lastSeq = -1;
    updateRoom(-1); // its figures counted again (none now), committed
}

void ImportWriter::addToReport()
{
    QSqlQuery count = m_ws.exec(QStringLiteral("SELECT event_count FROM rooms WHERE id = ?"), { m_room.id });
    m_counted.total = count.next() ? count.value(0).toLongLong() : 0;
    count.finish();
    // A room read in turns (another was wanted while it was read) is one room of the report.
    const auto earlier = std::find_if(m_report.rooms.begin(), m_report.rooms.end(),
        [&](const ImportReport::Room& r) { return r.id == m_counted.id; });
    if (earlier == m_report.rooms.end()) {
        m_report.rooms.append(m_counted);
    } else {
        earlier->added += m_counted.added;
        earlier->changed += m_counted.changed;
        earlier->total = m_counted.total;
    }
}

namespace {

// A row's derived columns and search text, after its payload-free columns (RecordReader::EventColumns).
QByteArray storedRowSql()
{
    return QStringLiteral("SELECT %1, unpack(s.body), unpack(s.arguments), unpack(s.result) FROM events LEFT JOIN search_text s ON "
                          "s.event_id = events.id WHERE room_id = ? AND seq BETWEEN ? AND ? ORDER BY seq")
        .arg(RecordReader::EventColumns)
        .toUtf8();
}

constexpr int ReviewerFlags = EventFlags::Redacted | EventFlags::Revised;

} // namespace

QVector<StoredEvent> ImportWriter::storedRows(qint64 from, qint64 to)
{
    flushRows();
    if (!m_storedRows)
        m_storedRows = std::make_unique<SqliteStatement>(m_ws.handle(), storedRowSql().constData());
    SqliteStatement& q = *m_storedRows;
    q.bind(1, m_room.id);
    q.bind(2, from);
    q.bind(3, to);
    QVector<StoredEvent> rows;
    const int n = FieldTable::columnCount(RecordFields::events());
    while (q.step()) {
        StoredEvent row;
        row.record = RecordReader::event(q);
        row.body = q.text(n);
        row.arguments = q.text(n + 1);
        row.result = q.text(n + 2);
        rows.append(row);
    }
    q.reset();
    return rows;
}

void ImportWriter::rewrite(const StoredEvent& e)
{
    flushRows();
    if (!m_rewrite) {
        m_rewrite = std::make_unique<SqliteStatement>(m_ws.handle(),
            "UPDATE events SET flags = (?1 & ~?2) | (flags & ?2), outcome = ?3, tool_id = ?4, tool_name = ?5, "
            "group_id = ?6, message_id = ?7, role = ?8, text = CASE WHEN flags & ?12 THEN text ELSE ?9 END, "
            "warning = ?13 WHERE room_id = ?10 AND seq = ?11 RETURNING id, flags & ?12");
    }
    const EventRecord& r = e.record;
    SqliteStatement& st = *m_rewrite;
    st.bind(1, qint64(r.flags));
    st.bind(2, qint64(ReviewerFlags));
    bindText(st, 3, Outcomes::name(r.outcome));
    bindText(st, 4, r.toolId);
    if (r.toolName.isEmpty())
        st.bindNull(5);
    else
        st.bind(5, numbered("tool_name", r.toolName));
    if (r.groupId.isEmpty())
        st.bindNull(6);
    else
        st.bind(6, numbered("group_id", r.groupId));
    if (r.messageId.isEmpty())
        st.bindNull(7);
    else
        st.bind(7, numbered("message_id", r.messageId));
    if (r.role.isEmpty())
        st.bindNull(8);
    else
        st.bind(8, numbered("role", r.role));
    m_ws.packer().bindOrNull(st, 9, r.text);
    st.bind(10, m_room.id);
    st.bind(11, r.index);
    // A redacted row keeps its text and search text: the source's hold what was redacted (RedactionStore::reapply
    // finds its payload still redacted, and looks no further).
    st.bind(12, qint64(EventFlags::Redacted));
    bindText(st, 13, r.warning);
    const bool found = st.step();
    const qint64 rowId = found ? st.int64(0) : 0;
    const bool redacted = found && st.int64(1) != 0;
    while (st.step()) { }
    st.reset();
    if (!found)
        return;
    if (!redacted)
        m_search->set(rowId, e.body, e.arguments, e.result);
    ++m_counted.changed;
    wrote(r.index);
}

void ImportWriter::compareStored(const QVector<StoredEvent>& rows)
{
    if (rows.isEmpty())
        return;
    const QVector<StoredEvent> stored = storedRows(rows.constFirst().record.index, rows.constLast().record.index);
    QHash<qint64, qsizetype> at;
    for (qsizetype k = 0; k < stored.size(); ++k)
        at.insert(stored[k].record.index, k);
    for (const StoredEvent& row : rows) {
        const auto it = at.constFind(row.record.index);
        if (it == at.constEnd())
            continue;
        const StoredEvent& was = stored[*it];
        const EventRecord& a = row.record;
        const EventRecord& b = was.record;
        const int flags = (a.flags & ~ReviewerFlags) | (b.flags & ReviewerFlags);
        // A redacted row's text is what its stored payload says, never the source's: only what derives from the
        // rows around it (its task, its call, its flags) can change.
        const bool redacted = b.flags & EventFlags::Redacted;
        if (flags != b.flags || a.outcome != b.outcome || a.toolId != b.toolId || a.toolName != b.toolName
            || a.groupId != b.groupId || a.messageId != b.messageId || a.role != b.role || a.warning != b.warning
            || (!redacted
                && (a.text != b.text || row.body != was.body || row.arguments != was.arguments
                    || row.result != was.result)))
            rewrite(row);
    }
}

void ImportWriter::renew(const StoredEvent& e)
{
    flushRows();
    QSqlQuery q = m_ws.exec(QStringLiteral("SELECT id, CAST(unpack(payload) AS BLOB) FROM events WHERE room_id = ? AND seq = ?"),
        { m_room.id, e.record.index });
    // Only what the writer went on writing: the stored bytes the start of the source's now, or (the first half of
    // the next record read as a line of this one) the other way round. A row a reviewer redacted differs in its
    // middle, and keeps its redaction.
    if (!q.next())
        return;
    const QByteArray stored = q.value(1).toByteArray();
    if (stored == e.payload || !(e.payload.startsWith(stored) || stored.startsWith(e.payload)))
        return;
    const qint64 rowId = q.value(0).toLongLong();
    q.finish();
    m_search->remove(rowId);
    m_ws.exec(QStringLiteral("DELETE FROM events WHERE id = ?"), { rowId });
    --m_counted.added; // the row is there again, not added
    ++m_counted.changed;
    insert(e);
}

void ImportWriter::wrote(qint64 index)
{
    if (!m_roomRedacted)
        return;
    m_written = m_written ? std::pair(std::min(m_written->first, index), std::max(m_written->second, index))
                          : std::pair(index, index);
}

void ImportWriter::forgetCounted()
{
    // In the transaction of the row: a process killed after it commits leaves no count claiming the row.
    m_ws.exec(QStringLiteral("UPDATE rooms SET counted_through = NULL WHERE id = ?"), { m_room.id });
    m_countedThrough = -1;
}

void ImportWriter::redactWritten()
{
    if (!m_written)
        return;
    if (RedactionStore(m_ws).reapply(m_room.id, m_written)) {
        m_redactedAgain = true;
        // In the batch's transaction: a process killed before the room is whole leaves the mark, and the next
        // import writes the file anew (the words the rows held may sit in the index's and the pages' unused space).
        m_ws.exec(QStringLiteral("INSERT OR IGNORE INTO pending(name) VALUES ('forget')"));
    }
    m_written.reset();
}

void ImportWriter::setUnread(qint64 roomId, qint64 rows)
{
    SqliteStatement& set = preparedOnce(m_setUnread, m_ws.handle(), "UPDATE rooms SET unread = ? WHERE id = ?");
    set.bind(1, rows);
    set.bind(2, roomId);
    set.step();
    set.reset();
}

RoomCursor ImportWriter::cursor(const RoomCursor& room)
{
    QSqlQuery q = m_ws.exec(QStringLiteral("SELECT synced_seq FROM rooms WHERE id = ?"), { room.id });
    RoomCursor now = room;
    if (q.next())
        now.syncedSeq = q.value(0).toLongLong();
    return now;
}

std::optional<StoredRoom> ImportWriter::storedRoom(qint64 sourceId, const QString& nativeId)
{
    flushRows();
    SqliteStatement& q = preparedOnce(m_storedRoom, m_ws.handle(),
        "SELECT r.id, r.native_json, r.file_mark, r.synced_seq, e.native_id FROM rooms r LEFT JOIN events e "
        "ON e.room_id = r.id AND e.seq = r.synced_seq WHERE r.source_id = ? AND r.native_id = ?");
    q.bind(1, sourceId);
    q.bind(2, nativeId);
    if (!q.step())
        return std::nullopt;
    StoredRoom stored { q.int64(0), q.text(1).toUtf8(), q.text(2), q.isNull(3) ? -1 : q.int64(3), q.text(4) };
    q.reset();
    return stored;
}

void ImportWriter::clearRoom(qint64 roomId)
{
    flushRows();
    m_readAgain.insert(roomId);
    // The room's ids go with its rows: read again, it numbers them from 1 as a first import does.
    for (const char* table : { "events", "tool_calls", "runs", "messages", "turns" })
        m_ws.exec(QStringLiteral("DELETE FROM %1 WHERE room_id = ?").arg(QLatin1String(table)), { roomId });
    m_messages.forget();
    m_turns.forget();
    m_words.forget();
    m_ws.exec(QStringLiteral("UPDATE rooms SET synced_seq = -1, counted_through = NULL WHERE id = ?"), { roomId });
}

void ImportWriter::setRoomTitleAndStatus(const QString& title, const QString& status)
{
    m_ws.exec(QStringLiteral("UPDATE rooms SET title = ?, status = ? WHERE id = ?"),
        { orNull(title), orNull(status), m_room.id });
}

ToolCallRecords ImportWriter::openCalls()
{
    return m_ws.openToolCalls(m_room.id);
}

void ImportWriter::deleteToolCalls(bool openOnly)
{
    m_ws.exec(openOnly ? QStringLiteral("DELETE FROM tool_calls WHERE room_id = ? AND pairing = 'start_only'")
                       : QStringLiteral("DELETE FROM tool_calls WHERE room_id = ?"),
        { m_room.id });
}

void ImportWriter::deleteToolCallsFrom(qint64 index)
{
    // Each end of a call sought along its own index: a scan of every call of the room, looking up the end and result
    // of each in the table, took 0.4 s of a followed log's sync at a million records.
    m_ws.exec(QStringLiteral("DELETE FROM tool_calls WHERE id IN (SELECT id FROM tool_calls WHERE room_id = ? AND "
                             "start_seq >= ? UNION SELECT id FROM tool_calls WHERE room_id = ? AND end_seq >= ? UNION "
                             "SELECT id FROM tool_calls WHERE room_id = ? AND result_seq >= ?)"),
        { m_room.id, index, m_room.id, index, m_room.id, index });
}

void ImportWriter::deleteOpenCall(qint64 startSeq)
{
    if (!m_deleteOpen) {
        m_deleteOpen = std::make_unique<SqliteStatement>(m_ws.handle(),
            "DELETE FROM tool_calls WHERE room_id = ? AND start_seq = ? AND pairing = 'start_only'");
    }
    m_deleteOpen->bind(1, m_room.id);
    m_deleteOpen->bind(2, startSeq);
    m_deleteOpen->step();
    m_deleteOpen->reset();
}

void ImportWriter::insertToolCalls(const ToolCallRecords& calls)
{
    for (const ToolCallRecord& c : calls)
        writeCall(c, 0);
}

qint64 ImportWriter::writeCall(const ToolCallRecord& c, qint64 rowId, bool keepResult)
{
    if (!m_insertCall) {
        const Fields<ToolCallRecord>& fields = RecordFields::calls();
        const QStringList columns = FieldTable::storedColumns(fields);
        const int last = int(columns.size()) + 1; // the room for a new call, the call itself for one written over
        m_insertCall = std::make_unique<SqliteStatement>(m_ws.handle(),
            QStringLiteral("INSERT INTO tool_calls(%1, room_id) VALUES (?%2)")
                .arg(columns.join(QStringLiteral(", ")), QStringLiteral(", ?").repeated(columns.size()))
                .toUtf8()
                .constData());
        // A result kept (a call settled again by a row that holds none): the last parameter but one says so.
        m_updateCall = std::make_unique<SqliteStatement>(m_ws.handle(),
            QStringLiteral("UPDATE tool_calls SET %1 WHERE id = ?%2")
                .arg(FieldTable::assignments(fields, 1,
                         { { QStringLiteral("result"),
                             QStringLiteral("CASE WHEN ?%1 THEN result ELSE %2 END").arg(last + 1) } }))
                .arg(last)
                .toUtf8()
                .constData());
    }
    SqliteStatement& st = rowId ? *m_updateCall : *m_insertCall;
    const int last = FieldTable::bind(st, 1, c, RecordFields::calls(), m_ws.packer());
    st.bind(last, rowId ? rowId : m_room.id);
    if (rowId)
        st.bind(last + 1, qint64(keepResult ? 1 : 0));
    st.step();
    st.reset();
    // Its arguments and result come from the rows as the source wrote them: checked with the rows written.
    for (const std::optional<qint64>& at : { c.startIndex, c.endIndex, c.resultIndex }) {
        if (at)
            wrote(*at);
    }
    return rowId ? rowId : sqlite3_last_insert_rowid(m_ws.handle());
}

void ImportWriter::deleteCall(qint64 rowId)
{
    m_ws.exec(QStringLiteral("DELETE FROM tool_calls WHERE id = ?"), { rowId });
}

void ImportWriter::replaceRuns(const RunRecords& runs)
{
    // The room's runs become `runs`, their ids in its order (the order readers take runs of one first index in). A
    // followed EVENT.md's tasks are all made again at each sync, 30,000 at a million records, and all but the last
    // few are as stored: only those that differ are written (writing them all was a tenth of a sync).
    const auto same = [](const RunRecord& a, const RunRecord& b) { return FieldTable::same(a, b, RecordFields::runs()); };
    QVector<std::pair<qsizetype, qint64>> changed; // a run of `runs`, and the stored row it is written over
    qint64 gone = 0; // the first stored row past them: it and those after it go
    qsizetype k = 0;
    {
        SqliteStatement stored(m_ws.handle(),
            (QStringLiteral("SELECT ") + RecordReader::RunColumns + QStringLiteral(" FROM runs WHERE room_id = ? ORDER BY id"))
                .toUtf8()
                .constData());
        stored.bind(1, m_room.id);
        for (; stored.step(); ++k) {
            const RunRecord was = RecordReader::run(stored);
            if (k >= runs.size()) {
                gone = was.rowId;
                break;
            }
            if (!same(was, runs[k]))
                changed.append({ k, was.rowId });
        }
    }
    if (gone)
        m_ws.exec(QStringLiteral("DELETE FROM runs WHERE room_id = ? AND id >= ?"), { m_room.id, gone });
    for (const auto& [at, rowId] : std::as_const(changed))
        writeRun(runs[at], rowId);
    // A room of a million events has a quarter of a million turns: one statement, bound natively.
    for (; k < runs.size(); ++k)
        writeRun(runs[k], 0);
}

qint64 ImportWriter::writeRun(const RunRecord& r, qint64 rowId)
{
    if (!m_insertRun) {
        const Fields<RunRecord>& fields = RecordFields::runs();
        const QStringList columns = FieldTable::storedColumns(fields);
        m_insertRun = std::make_unique<SqliteStatement>(m_ws.handle(),
            QStringLiteral("INSERT INTO runs(%1, room_id) VALUES (?%2)")
                .arg(columns.join(QStringLiteral(", ")), QStringLiteral(", ?").repeated(columns.size()))
                .toUtf8()
                .constData());
        m_updateRun = std::make_unique<SqliteStatement>(m_ws.handle(),
            QStringLiteral("UPDATE runs SET %1 WHERE id = ?%2")
                .arg(FieldTable::assignments(fields, 1))
                .arg(columns.size() + 1)
                .toUtf8()
                .constData());
    }
    // One order of columns for both: the last is the room for a new row, the row itself otherwise.
    SqliteStatement& st = rowId ? *m_updateRun : *m_insertRun;
    const int last = FieldTable::bind(st, 1, r, RecordFields::runs(), m_ws.packer());
    st.bind(last, rowId ? rowId : m_room.id);
    st.step();
    st.reset();
    return rowId ? rowId : sqlite3_last_insert_rowid(m_ws.handle());
}

void ImportWriter::updateRoom(qint64 syncedSeq)
{
    flushRows();
    if (m_beforeCommit)
        m_beforeCommit();
    redactWritten();
    const qint64 id = m_room.id;
    // QtSql binds positional '?' only, so the room id is bound once per use.
    // A followed room of a million rows is counted again at every sync: each figure from the narrowest index that
    // has it (the count, the blocked rows and the time span are quick), and the calls by outcome from an index alone
    // (each call's outcome was read from its table row, beside its arguments and result: a third of a sync).
    m_ws.exec(QStringLiteral("UPDATE rooms SET synced_seq = max(synced_seq, ?), unread = max(0, unread - ?), "
                             "event_count = (SELECT count(*) FROM events WHERE room_id = ?), "
                             "first_us = (SELECT min(created_us) FROM events WHERE room_id = ?), "
                             "last_us = (SELECT max(created_us) FROM events WHERE room_id = ?), ")
            + BlockedAndCalls,
        { std::max(syncedSeq, m_lastSeq), m_batchAdded, id, id, id, id, id, id });
    countParticipants();
    m_batchAdded = 0;
    m_batchFirstUs = 0;
    m_batchLastUs = 0;
    if (m_withEveryCommit)
        m_withEveryCommit();
    commit();
    m_done += m_inBatch;
    m_inBatch = 0;
    reportProgress();
    if (m_options.roomReady)
        m_options.roomReady(id);
}

void ImportWriter::countParticipants()
{
    flushRows();
    // The participants and channel types, each in the order of its first row, take a pass over the room's scan index:
    // 0.2 s at a million rows, most of a followed room's sync. The rows counted before that no row at or before
    // them has changed since are not read again (rooms.counted_through): only those after them, whose values new to
    // the room go at the end, as a whole count would put them. A room with redactions is counted whole: its
    // fields are redacted again after the count (RedactionStore::reapply).
    const qint64 id = m_room.id;
    const bool whole = m_countedThrough < 0 || m_roomRedacted;
    const qint64 after = whole ? std::numeric_limits<qint64>::min() : m_countedThrough;
    QSqlQuery q = m_ws.exec(QStringLiteral("SELECT group_concat(DISTINCT participant_id), group_concat(DISTINCT "
                                           "channel_type), max(seq) FROM events INDEXED BY events_room_scan WHERE "
                                           "room_id = ? AND seq > ?"),
        { id, after });
    q.next();
    QVariant participants = q.value(0);
    QVariant channelTypes = q.value(1);
    const QVariant last = q.value(2);
    q.finish();
    if (last.isNull() && !whole)
        return; // nothing after the rows counted
    if (!whole) {
        QSqlQuery was = m_ws.exec(QStringLiteral("SELECT participants, channel_types FROM rooms WHERE id = ?"), { id });
        was.next();
        // Lists as group_concat writes them: values joined by ','.
        const auto merged = [](const QString& before, const QString& more) -> QVariant {
            QStringList list = before.split(QLatin1Char(','), Qt::SkipEmptyParts);
            const QSet<QString> known(list.cbegin(), list.cend());
            for (const QString& value : more.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
                if (!known.contains(value))
                    list << value;
            }
            return list.isEmpty() ? QVariant() : QVariant(list.join(QLatin1Char(',')));
        };
        participants = merged(was.value(0).toString(), participants.toString());
        channelTypes = merged(was.value(1).toString(), channelTypes.toString());
    }
    m_ws.exec(QStringLiteral("UPDATE rooms SET participants = ?, channel_types = ?, counted_through = ? WHERE id = ?"),
        { participants, channelTypes, last, id });
    m_countedThrough = last.isNull() ? -1 : last.toLongLong();
}

void ImportWriter::reportProgress()
{
    // A row written again (a last record its writer went on with) is work the count before the import did not
    // foresee: the progress stops at its end rather than passing it.
    if (m_options.progress)
        m_options.progress(std::min(m_done, m_total), m_total);
}

bool ImportWriter::readDone(qint64 units)
{
    m_done += units;
    reportProgress();
    heedRequests();
    return !stopped();
}

void ImportWriter::heedRequests()
{
    m_cancelled = m_cancelled || (m_options.isCancelled && m_options.isCancelled());
    m_yielding = m_yielding || (!m_cancelled && m_yieldWhen && m_yieldWhen());
}

void ImportWriter::checkpointRoom(qint64 syncedSeq)
{
    flushRows();
    updateRoom(syncedSeq);
    begin();
}

void ImportWriter::finishRoom(qint64 syncedSeq)
{
    flushRows();
    // A read that ended at the source's end leaves nothing unread, whatever the count before it foresaw.
    if (!stopped())
        m_ws.exec(QStringLiteral("UPDATE rooms SET unread = 0 WHERE id = ?"), { m_room.id });
    updateRoom(syncedSeq);
    // Rows read again from the source (a rotated log) were redacted again in the transaction that wrote them
    // (redactWritten); once the room is whole, what reviewers edited shows again, every redaction is checked once
    // more over the whole room (an event that moved across two batches), and the log is emptied of what the rows
    // held; then the events reviewers annotated, which a re-read log may have moved, are found again by their
    // payload. One short query each when there is nothing to do.
    QSqlQuery changed = m_ws.exec(QStringLiteral("SELECT EXISTS (SELECT 1 FROM redactions WHERE room_id = ?), EXISTS "
                                                 "(SELECT 1 FROM edits WHERE room_id = ? AND present = 1), EXISTS (SELECT 1 "
                                                 "FROM pending WHERE name = 'forget'), EXISTS (SELECT 1 FROM team_redactions) OR EXISTS (SELECT 1 FROM "
                                                 "team_edits)"),
        { m_room.id, m_room.id });
    changed.next();
    const bool anyRedaction = changed.value(0).toBool();
    const bool anyEdit = changed.value(1).toBool();
    // A teammate's redaction or edit that waited for this room's rows (TeamSync): made as they come.
    const bool anyWaiting = changed.value(3).toBool();
    // A file left to be written anew by an import killed after it redacted rows again.
    if (changed.value(2).toBool())
        m_redactedAgain = true;
    changed.finish();
    if (anyRedaction || anyEdit || m_redactedAgain || anyWaiting) {
        m_ws.exec(QStringLiteral("BEGIN IMMEDIATE"));
        bool again = false;
        try {
            if (anyEdit)
                EditStore(m_ws).reapply(m_room.id);
            RedactionStore redactions(m_ws);
            again = (anyRedaction && redactions.reapply(m_room.id)) || std::exchange(m_redactedAgain, false);
            again = (anyWaiting && TeamSync::applyWaiting(m_ws, m_room.id)) || again;
            // A room read again from its start (a log rotated or rewritten) whose redacted text could not be found
            // again: said, never dropped without a word.
            if (m_readAgain.remove(m_room.id)) {
                for (const Redaction& r : redactions.ledger(m_room.id)) {
                    if (redactions.unplaced().contains(r.id)) {
                        note(QStringLiteral("room ") + m_room.nativeId,
                            QStringLiteral("redaction %1 (event %2, %3) was not found again after the log was read again: "
                                           "check the room for the text it removed")
                                .arg(QString::number(r.id), QString::number(r.index), r.path.isEmpty() ? QStringLiteral("its text") : r.path));
                    }
                }
            }
            m_ws.exec(QStringLiteral("COMMIT"));
        } catch (...) {
            m_ws.rollbackQuietly("ROLLBACK");
            m_messages.forget(); // a number handed out before in this transaction is gone with it
            m_turns.forget();
            m_words.forget();
            throw;
        }
        if (again) {
            try {
                RedactionStore(m_ws).forget();
            } catch (const StoreError& e) {
                note(QString(), e.message());
            }
        }
    }
    AnnotationStore(m_ws).relink(m_room.id);
    addToReport();
    m_cancelled = m_cancelled || (m_options.isCancelled && m_options.isCancelled());
}

void ImportWriter::finish()
{
    flushRows();
    if (m_unlisted > 0)
        m_report.problems
            << StoreError(m_source, {}, QStringLiteral("and %1 more problems").arg(m_unlisted)).toString();
    m_report.cancelled = m_cancelled;
    m_ws.exec(QStringLiteral("UPDATE sources SET import_notes = ? WHERE origin = ?"),
        { m_report.problems.isEmpty() ? QVariant() : QVariant(m_report.problems.join(QLatin1Char('\n'))), m_origin });
}
