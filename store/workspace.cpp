#include "workspace.h"

#include "facetcounter.h"

#include "eventflags.h"
#include "eventkind.h"
#include "eventquery.h"
#include "recordreader.h"
#include "schema.h"
#include "snapshotpartner.h"
#include "sqlitelibrary.h"
#include "sqlitestatement.h"
#include "storeerror.h"
#include "textpacker.h"
#include "wordcodes.h"

#include <array>
#include <thread>
#include <cstdio>
#include <QAtomicInteger>
#include <QScopeGuard>
#include <QElapsedTimer>
#include <QThread>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QMap>
#include <QJsonArray>
#include <QMessageAuthenticationCode>
#include <QRandomGenerator>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSqlError>
#include <QSqlQuery>

namespace {

// One snapshot for an answer read with several statements ("X of Y": the room's count and the rows shown): without
// it each statement saw the workspace as an import had left it at its own moment, and X could exceed Y. Nothing
// when the connection is in a transaction already.
class ReadSnapshot
{
public:
    explicit ReadSnapshot(sqlite3* db)
        : m_db(sqlite3_get_autocommit(db) ? db : nullptr)
    {
        if (m_db && sqlite3_exec(m_db, "BEGIN", nullptr, nullptr, nullptr) != SQLITE_OK)
            m_db = nullptr;
    }
    ~ReadSnapshot()
    {
        // Never left open (it would pin this connection to an old snapshot): a read has nothing to lose.
        if (m_db && sqlite3_exec(m_db, "COMMIT", nullptr, nullptr, nullptr) != SQLITE_OK)
            sqlite3_exec(m_db, "ROLLBACK", nullptr, nullptr, nullptr);
    }
    ReadSnapshot(const ReadSnapshot&) = delete;
    ReadSnapshot& operator=(const ReadSnapshot&) = delete;

private:
    sqlite3* m_db;
};

QString nextConnectionName()
{
    static QAtomicInteger<quint64> counter;
    return QStringLiteral("sightline-workspace-%1").arg(counter.fetchAndAddRelaxed(1));
}

// A user's words as an FTS5 query: every term quoted, so punctuation is never FTS syntax.
QString ftsQuery(const QString& text, bool bodyOnly)
{
    const QString expr
        = EventQuery::ftsMatch(text.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts), false);
    return bodyOnly ? QStringLiteral("{body} : (") + expr + QLatin1Char(')') : expr;
}

} // namespace

Workspace::Workspace(const QString& path, QFileDevice::Permissions newFileMode)
    : m_path(path)
    , m_connection(nextConnectionName())
{
    // Native calls on QtSql's handle are only sound when the driver runs the SQLite this build links.
    if (const QString mismatch = SqliteLibrary::check(); !mismatch.isEmpty())
        throw StoreError(path, {}, mismatch);
    // The file is never opened here but by SQLite: closing any other descriptor of it would drop every POSIX lock
    // this process holds on it, those of the other connections too, and another process closing the workspace
    // would then take itself for its last user and delete the -wal and -shm files under them.
    QFile file(path);
    if (!file.exists()) {
        // Made here with its mode rather than by SQLite with the process's default (readable by all). Nothing of
        // this process has it open yet.
        if (!file.open(QIODevice::WriteOnly | QIODevice::NewOnly, newFileMode) && !file.exists())
            throw StoreError(path, {}, QStringLiteral("cannot create the workspace: ") + file.errorString());
        file.close();
    }
    if (!QFileInfo(path).isReadable())
        throw StoreError(path, {}, QStringLiteral("cannot read the workspace: permission denied"));
    m_db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_connection);
    m_db.setDatabaseName(path);
    m_db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=%1").arg(BusyTimeoutMs));
    if (!m_db.open())
        throw StoreError(path, {}, QStringLiteral("cannot open the workspace: ") + m_db.lastError().text());
    m_handle = nativeSqliteHandle(m_db);
    m_packer = std::make_unique<TextPacker>(m_handle);
    m_packer->registerFunctions(); // before the migrations, which use them

    try {
        QSqlQuery probe;
        try {
            probe = exec(QStringLiteral("PRAGMA application_id"));
        } catch (const StoreError& e) {
            if (e.message().contains(QLatin1String("file is not a database")))
                throw StoreError(path, {}, QStringLiteral("not a Sightline workspace (not a SQLite database)"));
            throw;
        }
        const int appId = probe.next() ? probe.value(0).toInt() : 0;
        probe = exec(QStringLiteral("SELECT count(*) FROM sqlite_master"));
        const int objects = probe.next() ? probe.value(0).toInt() : 0;
        probe.finish();
        if (appId != Schema::ApplicationId && objects > 0)
            throw StoreError(path, {}, QStringLiteral("not a Sightline workspace (another application's database)"));
        // 16 KB pages for a new workspace (a page size is fixed once the file has one): a row with its payload is
        // 1-2 KB, and a million of them in 4 KB pages cost a fifth more to import (more pages through the log,
        // twice: written, then checkpointed) with no gain in reading them.
        if (objects == 0)
            exec(QStringLiteral("PRAGMA page_size = 16384"));
        enterWal();
        exec(QStringLiteral("PRAGMA synchronous = NORMAL"));
        // Whatever is deleted or rewritten is zeroed, on every connection and every build (Debian's SQLite has it
        // on by default, others not): a row rewritten by an import (a CraftBot call settled, an AG-UI message that
        // grew) leaves no copy of its text in a page's free space that a later redaction could not reach. A test
        // that turned it off for imports found the redacted text in the file.
        exec(QStringLiteral("PRAGMA secure_delete = ON"));
        exec(QStringLiteral("PRAGMA foreign_keys = ON"));
        // (PRAGMA trusted_schema = OFF was tried: the workspace's own triggers feed the FTS5 index, which SQLite
        // then refuses, "unsafe use of virtual table". What a workspace carries is checked instead, below.)
        Schema::migrate(m_db, path);
        refuseForeignObjects();
    } catch (...) {
        m_db.close();
        m_db = QSqlDatabase();
        QSqlDatabase::removeDatabase(m_connection);
        throw;
    }
}

namespace {

// What sqlite_master says of a workspace's own objects: type and name, and for a trigger or a view its SQL (whose
// body is what runs), white space folded.
QMap<QString, QString> schemaObjects(const QSqlDatabase& db)
{
    QMap<QString, QString> out;
    QSqlQuery q(db);
    q.exec(QStringLiteral("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'"));
    while (q.next()) {
        const QString type = q.value(0).toString();
        const bool runs = type == QLatin1String("trigger") || type == QLatin1String("view");
        out.insert(type + QLatin1Char(' ') + q.value(1).toString(), runs ? q.value(2).toString().simplified() : QString());
    }
    return out;
}

} // namespace

void Workspace::refuseForeignObjects()
{
    // The objects a workspace of this version holds, as the migrations make them in a new database: made once, in
    // memory. (Made as a workspace file in a temporary folder, it cost every command a dozen fsyncs, a tenth of a
    // second, and seconds on a disk busy with other work.)
    static const QMap<QString, QString> expected = [] {
        const QString name = QStringLiteral("sightline-reference-schema");
        QMap<QString, QString> objects;
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
            db.setDatabaseName(QStringLiteral(":memory:"));
            if (db.open()) {
                TextPacker packer(nativeSqliteHandle(db));
                packer.registerFunctions(); // the migrations use them
                Schema::migrate(db, QStringLiteral("(the reference schema)"));
                objects = schemaObjects(db);
                db.close();
            }
        }
        QSqlDatabase::removeDatabase(name);
        return objects;
    }();
    // A workspace comes from colleagues: one holding a trigger, a view or a table Sightline did not make (a
    // trigger copying old.payload into a table of its own keeps all a redaction removes) is refused, named.
    const QMap<QString, QString> found = schemaObjects(m_db);
    for (auto it = found.cbegin(); it != found.cend(); ++it) {
        const auto known = expected.constFind(it.key());
        if (known == expected.cend() || *known != it.value()) {
            throw StoreError(m_path, {},
                QStringLiteral("holds a ") + it.key()
                    + QStringLiteral(" that Sightline did not make (or changed): it could keep what a redaction removes, "
                                     "so the workspace is not opened; take it out with sqlite3 if you trust it"));
        }
    }
}

void Workspace::enterWal()
{
    // Switching a new file to WAL needs it alone, and SQLite answers "locked" at once rather than wait (its busy
    // handler is not asked where waiting could deadlock): another Sightline creating the same workspace at the
    // same moment is waited for here. A file already in WAL mode answers at once.
    QElapsedTimer waited;
    waited.start();
    for (;;) {
        char* error = nullptr;
        const int rc = sqlite3_exec(m_handle, "PRAGMA journal_mode = WAL", nullptr, nullptr, &error);
        const QString message = QString::fromUtf8(error ? error : "");
        sqlite3_free(error);
        if (rc == SQLITE_OK)
            return;
        if ((rc != SQLITE_BUSY && rc != SQLITE_LOCKED) || waited.elapsed() > BusyTimeoutMs) {
            throw StoreError(m_path, {},
                rc == SQLITE_BUSY || rc == SQLITE_LOCKED
                    ? QStringLiteral("another program (another Sightline?) holds this workspace locked")
                    : QStringLiteral("cannot use the workspace's write-ahead log: ") + message);
        }
        QThread::msleep(10);
    }
}

Workspace::~Workspace()
{
    m_partner.reset(); // before the workspace's own connection, which stays the last to close, as without it
    m_db.close();
    m_db = QSqlDatabase();
    QSqlDatabase::removeDatabase(m_connection);
}

QSqlQuery Workspace::exec(const QString& sql, const QVariantList& binds)
{
    QSqlQuery query(m_db);
    query.setForwardOnly(true);
    bool ok = binds.isEmpty() ? query.exec(sql) : false;
    if (!binds.isEmpty()) {
        ok = query.prepare(sql);
        for (const QVariant& value : binds)
            query.addBindValue(value);
        ok = ok && query.exec();
    }
    if (!ok)
        throw StoreError(
            m_path, {}, query.lastError().text() + QStringLiteral(" (in: ") + sql.left(60) + QStringLiteral("…)"));
    return query;
}

QByteArray Workspace::secret(bool create)
{
    if (!m_secret.isEmpty())
        return m_secret;
    QSqlQuery q = exec(QStringLiteral("SELECT value FROM secrets WHERE name = 'workspace'"));
    if (q.next()) {
        m_secret = q.value(0).toByteArray();
        return m_secret;
    }
    q.finish();
    if (!create)
        return {};
    QByteArray key(32, Qt::Uninitialized);
    QRandomGenerator::system()->generate(key.begin(), key.end());
    // Another connection may have made it meanwhile: the first one stays.
    exec(QStringLiteral("INSERT OR IGNORE INTO secrets(name, value) VALUES ('workspace', ?)"), { key });
    return secret(false);
}

std::optional<QString> Workspace::sourceFingerprint(qint64 roomId, qint64 index)
{
    QSqlQuery q = exec(QStringLiteral("SELECT (SELECT fingerprint FROM redactions WHERE room_id = ? AND seq = ? AND present "
                                      "= 1 ORDER BY id LIMIT 1), unpack(payload) FROM events WHERE room_id = ? AND seq = ?"),
        { roomId, index, roomId, index });
    if (!q.next())
        return std::nullopt;
    return q.value(0).isNull() ? fingerprint(q.value(1).toByteArray()) : q.value(0).toString();
}

QHash<QString, qint64> Workspace::findFingerprints(
    qint64 roomId, const QSet<QString>& prints, std::optional<std::pair<qint64, qint64>> range)
{
    QHash<QString, qint64> found;
    if (prints.isEmpty())
        return found;
    QSqlQuery q = range ? exec(QStringLiteral("SELECT seq, unpack(payload) FROM events WHERE room_id = ? AND seq BETWEEN ? AND ? "
                                              "ORDER BY seq"),
                              { roomId, range->first, range->second })
                        : exec(QStringLiteral("SELECT seq, unpack(payload) FROM events WHERE room_id = ? ORDER BY seq"), { roomId });
    while (found.size() < prints.size() && q.next()) {
        const QString print = fingerprint(q.value(1).toByteArray());
        if (prints.contains(print) && !found.contains(print))
            found.insert(print, q.value(0).toLongLong());
    }
    return found;
}

QString Workspace::fingerprintPrefix()
{
    const QByteArray key = secret(false);
    if (key.isEmpty())
        return {};
    return QString::fromLatin1(
               QMessageAuthenticationCode::hash("sightline fingerprint key", key, QCryptographicHash::Sha256).toHex().left(8))
        + QLatin1Char(':');
}

QString Workspace::fingerprint(const QByteArray& payload)
{
    const QByteArray key = secret(true);
    return fingerprintPrefix()
        + QString::fromLatin1(QMessageAuthenticationCode::hash(payload, key, QCryptographicHash::Sha256).toHex().left(32));
}

void Workspace::saveCopy(const QString& path, QFileDevice::Permissions mode)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    if (absolute == QFileInfo(m_path).absoluteFilePath())
        throw StoreError(path, {}, QStringLiteral("this is the workspace itself: choose another file"));
    const QString partial = absolute + QStringLiteral(".partial");
    QFile::remove(partial);
    // VACUUM INTO writes a new database from the current snapshot, page by page and compact.
    QSqlQuery q(m_db);
    if (!q.prepare(QStringLiteral("VACUUM INTO ?"))) {
        throw StoreError(path, {}, q.lastError().text());
    }
    q.addBindValue(partial);
    if (!q.exec()) {
        const QString why = q.lastError().text();
        QFile::remove(partial);
        throw StoreError(path, {}, QStringLiteral("could not write the copy: ") + why);
    }
    q.finish();
    // The copy goes to someone else: without the secret, its digests and fingerprints cannot be checked against
    // guesses of what was redacted. Deleted with secure_delete and the file made compact again.
    {
        sqlite3* copy = nullptr;
        const bool opened = sqlite3_open_v2(QFile::encodeName(partial).constData(), &copy, SQLITE_OPEN_READWRITE, nullptr) == SQLITE_OK;
        const bool stripped = opened
            && sqlite3_exec(copy, "PRAGMA secure_delete = ON; DELETE FROM secrets; VACUUM;", nullptr, nullptr, nullptr) == SQLITE_OK;
        const QString why = copy ? QString::fromUtf8(sqlite3_errmsg(copy)) : QString();
        sqlite3_close(copy);
        if (!stripped) {
            QFile::remove(partial);
            throw StoreError(path, {}, QStringLiteral("could not finish the copy: ") + why);
        }
    }
    QFile::setPermissions(partial, mode);
    for (const QString& side : { QStringLiteral("-wal"), QStringLiteral("-shm") })
        QFile::remove(absolute + side); // a workspace that was there before: its log is not this copy's
    // rename(2) replaces the file in one step: there is always the old file or the whole copy.
    if (std::rename(QFile::encodeName(partial).constData(), QFile::encodeName(absolute).constData()) != 0) {
        QFile::remove(partial);
        throw StoreError(path, {}, QStringLiteral("could not write the copy there"));
    }
}

void Workspace::rollbackQuietly(const char* sql) noexcept
{
    sqlite3_exec(handle(), sql, nullptr, nullptr, nullptr);
}

bool Workspace::inTransaction() const
{
    return sqlite3_get_autocommit(handle()) == 0;
}

int Workspace::schemaVersion()
{
    QSqlQuery q = exec(QStringLiteral("PRAGMA user_version"));
    return q.next() ? q.value(0).toInt() : 0;
}

RoomSummaries Workspace::rooms()
{
    RoomSummaries out;
    read(QStringLiteral("SELECT ") + RecordReader::RoomColumns
            + QStringLiteral(" FROM rooms r JOIN sources s ON s.id = r.source_id ORDER BY r.id"),
        {}, [&](const SqliteStatement& q) { out.append(RecordReader::room(q)); });
    return out;
}

std::optional<RoomSummary> Workspace::room(qint64 roomId)
{
    std::optional<RoomSummary> out;
    read(QStringLiteral("SELECT ") + RecordReader::RoomColumns
            + QStringLiteral(" FROM rooms r JOIN sources s ON s.id = r.source_id WHERE r.id = ?"),
        { roomId }, [&](const SqliteStatement& q) { out = RecordReader::room(q); });
    return out;
}

QVector<qint64> Workspace::findRooms(const QString& nativeId)
{
    QVector<qint64> ids;
    QSqlQuery q = exec(QStringLiteral("SELECT id FROM rooms WHERE native_id = ? ORDER BY id"), { nativeId });
    while (q.next())
        ids.append(q.value(0).toLongLong());
    return ids;
}

QMap<QString, QStringList> Workspace::roomValues(qint64 roomId, int limit)
{
    QMap<QString, QStringList> out;
    auto read = [&](const QString& field, const QString& sql, const QVariantList& binds) {
        QSqlQuery q = exec(sql, binds);
        while (q.next())
            out[field] << q.value(0).toString();
    };
    // Each indexed column by a loose index scan: one seek per distinct value, not a step per row, so a room
    // of a million events with twenty types costs twenty seeks. "IS NOT NULL" lets SQLite seek the channel index,
    // which holds only the rows on a channel (schema step 22): without it the first min() read the whole room.
    // A type is kept as its word's code (schema step 26): the room's codes, then their names in order.
    const std::pair<const char*, const char*> indexed[] = { { "type", "type" }, { "channel", "channel_id" } };
    for (const auto& [field, column] : indexed) {
        const bool coded = qstrcmp(column, "type") == 0;
        read(QLatin1String(field),
            QStringLiteral("WITH RECURSIVE v(x) AS (SELECT min(%1) FROM events WHERE room_id = ? AND %1 IS NOT NULL UNION ALL "
                           "SELECT (SELECT min(%1) FROM events WHERE room_id = ? AND %1 > v.x) FROM v "
                           "WHERE v.x IS NOT NULL) SELECT %2 AS n FROM v WHERE x IS NOT NULL AND n <> '' %3 LIMIT ?")
                .arg(QLatin1String(column),
                    coded ? QStringLiteral("(SELECT w.name FROM words w WHERE w.code = x)") : QStringLiteral("x"),
                    coded ? QStringLiteral("ORDER BY n") : QString()),
            { roomId, roomId, limit });
    }
    // Participants have no index of their own (schema step 4): the room keeps their list.
    QSqlQuery q = exec(QStringLiteral("SELECT participants FROM rooms WHERE id = ?"), { roomId });
    if (q.next()) {
        QStringList participants = q.value(0).toString().split(QLatin1Char(','), Qt::SkipEmptyParts);
        participants.sort();
        out[QStringLiteral("participant")] = participants.mid(0, limit);
    }
    read(QStringLiteral("tool"),
        QStringLiteral(
            "SELECT DISTINCT tool_name FROM tool_calls WHERE room_id = ? AND tool_name <> '' ORDER BY 1 LIMIT ?"),
        { roomId, limit });
    return out;
}

QJsonObject Workspace::roomDetails(qint64 roomId)
{
    QSqlQuery q = exec(QStringLiteral("SELECT native_json, details_json FROM rooms WHERE id = ?"), { roomId });
    if (!q.next())
        return {};
    QJsonObject details = QJsonDocument::fromJson(q.value(1).toString().toUtf8()).object();
    details.insert(QStringLiteral("room"), QJsonDocument::fromJson(q.value(0).toString().toUtf8()).object());
    return details;
}

void Workspace::read(const QString& sql, const QVariantList& binds, const std::function<void(const SqliteStatement&)>& row)
{
    read(m_handle, sql, binds, row);
}

void Workspace::read(sqlite3* db, const QString& sql, const QVariantList& binds,
    const std::function<void(const SqliteStatement&)>& row)
{
    const QByteArray utf8 = sql.toUtf8();
    SqliteStatement q(db, utf8.constData());
    q.bindAll(binds);
    while (q.step())
        row(q);
}

void Workspace::readEvents(
    const QString& sql, const QVariantList& binds, const std::function<void(const EventRecord&)>& each)
{
    read(sql, binds, [&](const SqliteStatement& q) { each(RecordReader::event(q)); });
}

EventRecords Workspace::readEvents(const QString& sql, const QVariantList& binds)
{
    EventRecords out;
    readEvents(sql, binds, [&](const EventRecord& e) { out.append(e); });
    return out;
}

EventRecords Workspace::listEvents(qint64 roomId, const EventFilter& filter, const PageRequest& page)
{
    const EventQuery q = EventQuery::page(roomId, filter, page);
    return readEvents(q.sql, q.binds);
}

void Workspace::forEachEvent(qint64 roomId, const EventFilter& filter, const PageRequest& page,
    const std::function<void(const EventRecord&)>& each)
{
    const EventQuery q = EventQuery::page(roomId, filter, page);
    readEvents(q.sql, q.binds, each);
}

qint64 Workspace::countEvents(qint64 roomId, const EventFilter* filter)
{
    const EventQuery eq = EventQuery::count(roomId, filter);
    QSqlQuery q = exec(eq.sql, eq.binds);
    return q.next() ? q.value(0).toLongLong() : 0;
}

qint64 Workspace::countEvents(qint64 roomId, const EventFilter& filter, const PageRequest& page)
{
    const EventQuery eq = EventQuery::count(roomId, filter, page);
    const QByteArray sql = eq.sql.toUtf8();
    SqliteStatement q(m_handle, sql.constData());
    q.bindAll(eq.binds);
    return q.step() ? q.int64(0) : 0;
}

RowIndex Workspace::indexRows(qint64 roomId, const EventFilter& filter, int blockSize)
{
    if (blockSize <= 0)
        throw StoreError(m_path, {}, QStringLiteral("a block holds at least one row"));
    const ReadSnapshot snapshot(m_handle);
    RowIndex out;
    out.blockSize = blockSize;
    // The room's own count, which the importer sets as it finishes the room (the window lists rooms only then):
    // count(*) would be a second pass over the room.
    {
        QSqlQuery total = exec(QStringLiteral("SELECT event_count FROM rooms WHERE id = ?"), { roomId });
        out.total = total.next() ? total.value(0).toLongLong() : 0;
    }
    // One pass over the indexes that serve the filter, on the native handle (a QVariant per row would cost more
    // than the scan at a million rows).
    const EventQuery eq = EventQuery::rowIndex(roomId, filter);
    const QByteArray sql = eq.sql.toUtf8();
    SqliteStatement q(m_handle, sql.constData());
    q.bindAll(eq.binds);
    while (q.step()) {
        if (q.int64(2) != 0)
            ++out.shown;
        if (q.int64(1) == 0)
            continue;
        if (out.rows % blockSize == 0)
            out.anchors.append(q.int64(0));
        ++out.rows;
    }
    return out;
}

QVector<qint64> Workspace::listRows(qint64 roomId, const EventFilter& filter, int limit)
{
    QVector<qint64> out;
    const EventQuery eq = EventQuery::rowIndex(roomId, filter);
    const QByteArray sql = eq.sql.toUtf8();
    SqliteStatement q(m_handle, sql.constData());
    q.bindAll(eq.binds);
    while (out.size() < limit && q.step()) {
        if (q.int64(1) != 0)
            out.append(q.int64(0));
    }
    return out;
}

namespace {

// Counts the rows of EventQuery::facets, those from seq `from` and before `to` when given, after reading the
// outcomes of the calls that start among them: a start row carries its call's (EventQuery::outcomeOf).
void countFacetRows(sqlite3* db, qint64 roomId, const EventQuery& eq, std::optional<qint64> from,
    std::optional<qint64> to, FacetCounter& counter)
{
    QByteArray range;
    QVariantList rangeBinds;
    if (from) {
        range += " AND start_seq >= ?";
        rangeBinds << *from;
    }
    if (to) {
        range += " AND start_seq < ?";
        rangeBinds << *to;
    }
    {
        // Through the C API: a quarter of a million calls through QSqlQuery's variants took a third of a second.
        const QByteArray sql = "SELECT start_seq, outcome FROM tool_calls INDEXED BY tool_calls_room WHERE room_id = ? "
                               "AND start_seq IS NOT NULL AND outcome IS NOT NULL"
            + range + " ORDER BY start_seq";
        SqliteStatement starts(db, sql.constData());
        starts.bindAll(QVariantList { roomId } + rangeBinds);
        while (starts.step()) {
            const char* outcome = reinterpret_cast<const char*>(sqlite3_column_text(starts.handle(), 1));
            counter.setCallStart(starts.int64(0), QByteArray::fromRawData(outcome, sqlite3_column_bytes(starts.handle(), 1)));
        }
    }
    const QByteArray sql = eq.sql.toUtf8() + range.replace("start_seq", "seq");
    SqliteStatement q(db, sql.constData());
    q.bindAll(eq.binds + rangeBinds);
    while (q.step())
        counter.add(q.handle());
}

} // namespace

SnapshotPartner* Workspace::snapshotPartner()
{
    if (!m_partner && !m_partnerFailed) {
        try {
            // The file SQLite has open: a database with none (in memory, temporary) has no second reader.
            const char* file = sqlite3_db_filename(m_handle, "main");
            if (!file || !*file)
                throw StoreError(m_path, {}, QStringLiteral("no file to open a second reader of"));
            m_partner = std::make_unique<SnapshotPartner>(QFile::decodeName(file));
        } catch (const StoreError&) {
            m_partnerFailed = true; // counted on one thread then, as before there was a partner
        }
    }
    return m_partner.get();
}

void Workspace::setCancelled(std::function<bool()> cancelled)
{
    m_cancelled = std::move(cancelled);
    sqlite3_progress_handler(m_handle, m_cancelled ? 1000 : 0, m_cancelled ? &Workspace::askCancelled : nullptr, this);
}

int Workspace::askCancelled(void* self)
{
    return static_cast<Workspace*>(self)->m_cancelled() ? 1 : 0;
}

std::optional<qint64> Workspace::pinHalves(qint64 roomId, qint64 rows, std::optional<SnapshotPartner::Pin>& pinned)
{
    m_passThreads = 1;
    // A small pass is not worth the second connection's lock and thread.
    if (rows < m_splitCountFrom)
        return std::nullopt;
    SnapshotPartner* partner = snapshotPartner();
    if (!partner)
        return std::nullopt;
    pinned.emplace(*partner, m_handle, BusyTimeoutMs);
    if (!*pinned)
        return std::nullopt;
    // The halves split the source's indexes 0, 1, 2…; a row without a whole one is kept far below them (RoomKitReader)
    // and goes with the first half, so that one such row does not leave it empty. Each bound its own subquery: SQLite
    // seeks one end of the index for a min() or a max() alone, and reads every row of the room for the two together.
    SqliteStatement bounds(m_handle, "SELECT (SELECT min(seq) FROM events WHERE room_id = ?1 AND seq >= 0), "
                                     "(SELECT max(seq) FROM events WHERE room_id = ?1)");
    bounds.bind(1, roomId);
    if (!bounds.step() || bounds.isNull(0) || bounds.int64(1) <= bounds.int64(0)) {
        bounds.reset();
        pinned.reset(); // nothing to split: the reads are let go
        return std::nullopt;
    }
    m_passThreads = 2;
    return bounds.int64(0) + (bounds.int64(1) - bounds.int64(0)) / 2 + 1;
}

void Workspace::bothHalves(const std::function<void(sqlite3*)>& first, const std::function<void(sqlite3*)>& second,
    const std::function<void()>& again)
{
    bool partnerFailed = false;
    sqlite3* const partner = m_partner->handle();
    // The task's cancellation reaches the partner's half too: stopped half-way, the own half throws and the
    // partner's is interrupted (below), but a partner still reading after the own half ended read on to its end.
    if (m_cancelled)
        sqlite3_progress_handler(partner, 1000, &Workspace::askCancelled, this);
    const auto noHandler = qScopeGuard([partner] { sqlite3_progress_handler(partner, 0, nullptr, nullptr); });
    std::thread other([&] {
        try {
            second(partner);
        } catch (...) {
            partnerFailed = true;
        }
    });
    try {
        first(m_handle);
    } catch (...) {
        sqlite3_interrupt(partner); // its half is of no use now: not waited for to its end
        other.join();
        throw;
    }
    other.join();
    if (partnerFailed) {
        if (m_cancelled && m_cancelled())
            throw StoreError(m_path, {}, QStringLiteral("interrupted"));
        // What the partner met (an I/O error, a damaged page) this connection meets too and says, on the same
        // snapshot; or it reads the half itself.
        again();
        second(m_handle);
    }
}

FacetCounts Workspace::facets(qint64 roomId, const EventFilter& filter, int bins, int limit)
{
    // A big room is counted in two halves on two threads, on one snapshot (SnapshotPartner): the pass is SQLite
    // stepping the scan index and reading each row's columns, and at a million events it was half a second on one
    // core.
    qint64 events = 0;
    {
        QSqlQuery q = exec(QStringLiteral("SELECT event_count FROM rooms WHERE id = ?"), { roomId });
        events = q.next() ? q.value(0).toLongLong() : 0;
    }
    std::optional<SnapshotPartner::Pin> pinned;
    const std::optional<qint64> middle = pinHalves(roomId, events, pinned);
    const ReadSnapshot snapshot(m_handle); // nothing to do when pinned: the pin's read is this connection's
    std::optional<std::pair<qint64, qint64>> span;
    {
        QSqlQuery q = exec(QStringLiteral("SELECT first_us, last_us FROM rooms WHERE id = ?"), { roomId });
        if (q.next() && !q.isNull(0))
            span = std::pair { q.value(0).toLongLong(), q.value(1).toLongLong() };
    }
    FacetCounter counter(roomId, span, bins, WordCodes::all(m_handle));
    // What reviewers added to each row: its labels, and whether it is marked, noted or labelled (is:).
    {
        QSqlQuery added = exec(QStringLiteral("SELECT seq, kind, value FROM annotations WHERE room_id = ? AND present = 1 "
                                              "AND detached = 0 AND seq IS NOT NULL AND kind IN ('label', 'note', 'mark')"),
            { roomId });
        while (added.next()) {
            const QString kind = added.value(1).toString();
            counter.addAdded(added.value(0).toLongLong(),
                kind == QLatin1String("mark")       ? FacetCounter::Marked
                    : kind == QLatin1String("note") ? FacetCounter::Noted
                                                    : FacetCounter::Labelled,
                added.value(2).toString().toUtf8());
        }
    }
    const EventQuery eq = EventQuery::facets(roomId, filter);
    if (!middle) {
        countFacetRows(m_handle, roomId, eq, std::nullopt, std::nullopt, counter);
        return counter.result(limit);
    }
    // The second half's counter is a copy of this one with the additions in it, added to it at the end.
    const FacetCounter fresh = counter;
    FacetCounter second = fresh;
    bothHalves([&](sqlite3* db) { countFacetRows(db, roomId, eq, std::nullopt, middle, counter); },
        [&](sqlite3* db) { countFacetRows(db, roomId, eq, middle, std::nullopt, second); }, [&] { second = fresh; });
    counter.merge(second);
    return counter.result(limit);
}

EventRecords Workspace::conversation(qint64 roomId, int limit, std::optional<qint64> afterIndex)
{
    QSqlQuery system = exec(QStringLiteral("SELECT s.system FROM rooms r JOIN sources s ON s.id = r.source_id WHERE r.id = ?"), { roomId });
    const bool roomKit = !system.next() || system.value(0).toString() == QLatin1String("roomkit");
    const EventQuery q = EventQuery::conversation(roomId, limit, afterIndex, !roomKit);
    return readEvents(q.sql, q.binds);
}

ToolCallRecords Workspace::toolCalls(qint64 roomId)
{
    ToolCallRecords out;
    forEachToolCall(roomId, [&](const ToolCallRecord& c) { out.append(c); });
    return out;
}

ToolCallRecords Workspace::toolCallsShown(qint64 roomId, const EventFilter& filter, bool results)
{
    // Each call at the row that shows it (its start, else its end or result), kept when the timeline shows that
    // row under the filter: the same question as the cards', so the calls are the timeline's.
    EventFilter cards = filter;
    cards.timelineItems = true;
    ToolCallRecords out;
    if (!results) {
        // For a drawing (the waterfall): the call's own columns straight from the join, in the order of the index
        // it walks (start, the calls without one first): no result (it can be a page fetched), none of the two
        // seeks per call for who blocked it and whether a reviewer edited it, no sort. At a quarter of a million
        // calls the whole read was eighteen times that of the calls' times alone.
        // A big room's calls are read in two halves by start at once, on one snapshot, as the panes' counts are
        // (facets): 0.6 s at a quarter of a million calls on one thread.
        QVariantList light { roomId };
        const QString whereLight = EventQuery::where(roomId, cards, light);
        const QString sql = QStringLiteral("SELECT c.tool_name, c.tool_id, c.group_id, c.start_seq, c.end_seq, c.started_us, "
                            "c.ended_us, c.duration_ms, c.duration_source, c.status, c.outcome, c.pairing, c.error, "
                            "unpack(c.arguments), c.arguments_valid, NULL, c.result_seq, c.synthetic, c.ambiguous, NULL, 0 "
                            "FROM tool_calls c INDEXED BY tool_calls_room JOIN events ON events.room_id = c.room_id "
                            "AND events.seq = coalesce(c.start_seq, c.end_seq, c.result_seq) WHERE c.room_id = ?")
            + whereLight;
        const auto readCalls = [&](sqlite3* db, const QString& range, const QVariantList& rangeBinds, ToolCallRecords& into) {
            // The index's own order (its rowid last): ties in one order whichever statement reads them.
            read(db, sql + range + QStringLiteral(" ORDER BY c.start_seq, c.id"), light + rangeBinds,
                [&](const SqliteStatement& q) { into.append(RecordReader::call(q)); });
        };
        // Room made for every call of the room at once: grown as they came, the list was copied a dozen times and
        // its pages faulted in anew each time (a fifth of the read at a quarter of a million calls). Split by its
        // calls, not its events: a big room of few calls is read on one thread.
        qint64 calls = 0;
        {
            QSqlQuery q = exec(QStringLiteral("SELECT tool_calls FROM rooms WHERE id = ?"), { roomId });
            calls = q.next() ? q.value(0).toLongLong() : 0;
        }
        std::optional<SnapshotPartner::Pin> pinned;
        const std::optional<qint64> middle = pinHalves(roomId, calls, pinned);
        // A filter that leaves a few calls gives back what it did not use.
        const auto fitted = [&] {
            if (out.size() < out.capacity() / 2)
                out.squeeze();
            return out;
        };
        if (!middle) {
            out.reserve(calls);
            readCalls(m_handle, {}, {}, out);
            return fitted();
        }
        // The calls without a start come first, with the first half; the second half's follow its, moved in.
        ToolCallRecords second;
        bothHalves(
            [&](sqlite3* db) {
                out.reserve(calls);
                readCalls(db, QStringLiteral(" AND (c.start_seq IS NULL OR c.start_seq < ?)"), { *middle }, out);
            },
            [&](sqlite3* db) {
                second.reserve(calls / 2 + 1);
                readCalls(db, QStringLiteral(" AND c.start_seq >= ?"), { *middle }, second);
            },
            [&] { second.clear(); });
        for (ToolCallRecord& c : second)
            out.append(std::move(c));
        return fitted();
    }
    // The calls' own columns share names with the events' (tool_name, outcome): the join picks ids only.
    QVariantList binds { roomId, roomId };
    const QString where = EventQuery::where(roomId, cards, binds);
    read(QStringLiteral("SELECT ") + RecordReader::CallColumns
            + QStringLiteral(" FROM tool_calls WHERE room_id = ? AND id IN (SELECT c.id FROM tool_calls c JOIN events "
                             "ON events.room_id = c.room_id AND events.seq = coalesce(c.start_seq, c.end_seq, "
                             "c.result_seq) WHERE c.room_id = ?")
            + where + QStringLiteral(") ORDER BY coalesce(start_seq, end_seq, result_seq), id"),
        binds, [&](const SqliteStatement& q) { out.append(RecordReader::call(q)); });
    return out;
}

ToolStatsList Workspace::toolStats(qint64 roomId, const EventFilter& filter)
{
    QMap<QString, QVector<std::pair<Outcome, std::optional<qint64>>>> byTool;
    // Names, outcomes and durations: the read without results a drawing uses.
    for (const ToolCallRecord& c : toolCallsShown(roomId, filter, false))
        byTool[c.toolName].append({ c.outcome, c.durationMs });
    ToolStatsList out;
    for (auto it = byTool.cbegin(); it != byTool.cend(); ++it)
        out << ToolStats::of(it.key(), it.value());
    std::stable_sort(out.begin(), out.end(), [](const ToolStats& a, const ToolStats& b) { return a.calls > b.calls; });
    return out;
}

void Workspace::forEachToolCall(qint64 roomId, const std::function<void(const ToolCallRecord&)>& each)
{
    read(QStringLiteral("SELECT ") + RecordReader::CallColumns
            + QStringLiteral(" FROM tool_calls WHERE room_id = ? ORDER BY coalesce(start_seq, end_seq, result_seq), id"),
        { roomId }, [&](const SqliteStatement& q) { each(RecordReader::call(q)); });
}

ToolCallRecords Workspace::openToolCalls(qint64 roomId)
{
    ToolCallRecords out;
    read(QStringLiteral("SELECT ") + RecordReader::CallColumns
            + QStringLiteral(" FROM tool_calls WHERE room_id = ? AND pairing = 'start_only' ORDER BY start_seq"),
        { roomId }, [&](const SqliteStatement& q) { out.append(RecordReader::call(q)); });
    return out;
}

std::optional<ToolCallRecord> Workspace::toolCallAt(qint64 roomId, qint64 index)
{
    std::optional<ToolCallRecord> out;
    read(QStringLiteral("SELECT ") + RecordReader::CallColumns
            + QStringLiteral(" FROM tool_calls WHERE room_id = ? AND (start_seq = ? OR end_seq = ? OR result_seq = ?) "
                             "LIMIT 1"),
        { roomId, index, index, index }, [&](const SqliteStatement& q) { out = RecordReader::call(q); });
    return out;
}

QVector<qint64> Workspace::earlierResults(qint64 roomId, const ToolCallRecord& call)
{
    QVector<qint64> at;
    const std::optional<qint64> from = call.startIndex ? call.startIndex : call.endIndex;
    if (!from || !call.resultIndex || *call.resultIndex <= *from)
        return at;
    QSqlQuery q = exec(QStringLiteral("SELECT seq FROM events WHERE room_id = ? AND tool_id = ? AND type = (SELECT code FROM "
                                      "words WHERE name = 'TOOL_CALL_RESULT') AND seq >= ? AND seq < ? ORDER BY seq"),
        { roomId, call.toolId, *from, *call.resultIndex });
    while (q.next())
        at << q.value(0).toLongLong();
    return at;
}

QStringList Workspace::callResults(qint64 roomId, const ToolCallRecord& call)
{
    QStringList results;
    const std::optional<qint64> from = call.startIndex ? call.startIndex : call.endIndex;
    if (from && call.resultIndex && *call.resultIndex > *from) {
        // A result row with an empty result has no search text: its result is "", not left out.
        QSqlQuery earlier = exec(QStringLiteral("SELECT coalesce(unpack(s.result), '') FROM events e LEFT JOIN search_text s ON s.event_id = e.id "
                                                "WHERE e.room_id = ? AND e.tool_id = ? AND e.type = (SELECT code FROM words "
                                                "WHERE name = 'TOOL_CALL_RESULT') "
                                                "AND e.seq >= ? AND e.seq < ? ORDER BY e.seq"),
            { roomId, call.toolId, *from, *call.resultIndex });
        while (earlier.next())
            results << earlier.value(0).toString();
    }
    if (!call.result.isNull() || call.resultIndex)
        results << call.result;
    return results;
}

QMap<qint64, Workspace::Warned> Workspace::warnedRows(qint64 roomId)
{
    QMap<qint64, Warned> out;
    QSqlQuery q = exec(QStringLiteral("SELECT seq, tool_id, warning FROM events INDEXED BY events_room_warned WHERE room_id = ? "
                                      "AND warning IS NOT NULL"),
        { roomId });
    while (q.next())
        out.insert(q.value(0).toLongLong(), { q.value(1).toString(), q.value(2).toString() });
    return out;
}

QStringList Workspace::callWarnings(const QMap<qint64, Warned>& warned, const ToolCallRecord& call)
{
    QStringList warnings;
    std::optional<qint64> first, last;
    for (const std::optional<qint64>& at : { call.startIndex, call.endIndex, call.resultIndex }) {
        if (!at)
            continue;
        first = first ? std::min(*first, *at) : *at;
        last = last ? std::max(*last, *at) : *at;
    }
    if (!first || warned.isEmpty())
        return warnings;
    for (auto it = warned.lowerBound(*first); it != warned.cend() && it.key() <= *last; ++it) {
        if (it->toolId == call.toolId)
            warnings << it->warning.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    }
    return warnings;
}

ToolCallRecords Workspace::toolCallsShownAt(qint64 roomId, const QVector<qint64>& indexes)
{
    ToolCallRecords out;
    if (indexes.isEmpty())
        return out;
    QStringList marks;
    QVariantList values;
    for (qint64 i : indexes) {
        marks << QStringLiteral("?");
        values << i;
    }
    const QString in = QStringLiteral("(") + marks.join(QLatin1Char(',')) + QStringLiteral(")");
    // Two lookups that each use tool_calls_room (room_id, start_seq): calls by their start, then the few that
    // have none (shown at their end or result). One query on coalesce(...) would scan every call of the room.
    const QStringList lookups { QString(QStringLiteral("WHERE room_id = ? AND start_seq IN ") + in),
        QString(QStringLiteral("WHERE room_id = ? AND start_seq IS NULL AND coalesce(end_seq, result_seq) IN ") + in) };
    for (const QString& where : lookups) {
        read(QStringLiteral("SELECT ") + RecordReader::CallColumns + QStringLiteral(" FROM tool_calls ") + where,
            QVariantList { roomId } + values, [&](const SqliteStatement& q) { out.append(RecordReader::call(q)); });
    }
    return out;
}

std::optional<qint64> Workspace::nextProblemCall(qint64 roomId, qint64 fromIndex, bool forward)
{
    // A call shows at its start, or at its end when the start is not in the log.
    QSqlQuery q = exec(QStringLiteral("SELECT coalesce(start_seq, end_seq, result_seq) AS at FROM tool_calls "
                                      "WHERE room_id = ? AND outcome IN ('failed', 'refused', 'unserved') AND at ")
            + (forward ? QStringLiteral("> ? ORDER BY at ASC") : QStringLiteral("< ? ORDER BY at DESC"))
            + QStringLiteral(" LIMIT 1"),
        { roomId, fromIndex });
    if (!q.next())
        return std::nullopt;
    return q.value(0).toLongLong();
}

std::optional<qint64> Workspace::itemHolding(qint64 roomId, qint64 index)
{
    const std::optional<EventRecord> row = event(roomId, index);
    if (!row || !(row->flags & EventFlags::Folded))
        return std::nullopt;
    QSqlQuery q = row->kind == EventKind::ToolCall
        ? exec(QStringLiteral("SELECT start_seq FROM tool_calls WHERE room_id = ? AND (end_seq = ? OR result_seq = ?) "
                              "AND start_seq IS NOT NULL LIMIT 1"),
              { roomId, index, index })
        : exec(QStringLiteral("SELECT min(seq) FROM events WHERE room_id = ? AND message_id = (SELECT message_id FROM "
                              "events WHERE room_id = ? AND seq = ?) AND kind = ? AND (flags & ?) = 0"),
              { roomId, roomId, index, EventKinds::code(row->kind), int(EventFlags::Folded) });
    if (!q.next() || q.value(0).isNull())
        return std::nullopt;
    return q.value(0).toLongLong();
}

std::optional<qint64> Workspace::indexOfNativeId(qint64 roomId, const QString& nativeId)
{
    QSqlQuery q = exec(
        QStringLiteral("SELECT seq FROM events WHERE room_id = ? AND native_id = ? LIMIT 1"), { roomId, nativeId });
    if (!q.next())
        return std::nullopt;
    return q.value(0).toLongLong();
}

std::optional<EventRecord> Workspace::event(qint64 roomId, qint64 index)
{
    const EventRecords rows = readEvents(
        QStringLiteral("SELECT ") + RecordReader::EventColumns + QStringLiteral(" FROM events WHERE room_id = ? AND seq = ?"),
        { roomId, index });
    if (rows.isEmpty())
        return std::nullopt;
    return rows.first();
}

RunRecords Workspace::runs(qint64 roomId)
{
    RunRecords out;
    read(QStringLiteral("SELECT ") + RecordReader::RunColumns
            + QStringLiteral(" FROM runs WHERE room_id = ? ORDER BY first_seq, id"),
        { roomId }, [&](const SqliteStatement& q) { out.append(RecordReader::run(q)); });
    return out;
}

QByteArray Workspace::payload(qint64 eventRowId)
{
    SqliteStatement st(m_handle, "SELECT unpack(payload) FROM events WHERE id = ?");
    st.bind(1, eventRowId);
    return st.step() ? st.bytes(0) : QByteArray();
}

SearchHits Workspace::searchRooms(const QString& text, int limit, bool includeBlocked)
{
    SearchHits hits;
    if (text.trimmed().isEmpty())
        return hits;
    QSqlQuery q
        = exec(QStringLiteral("SELECT e.room_id, r.native_id, e.seq, (SELECT w.name FROM words w WHERE w.code = e.type), "
                              "e.created_us, "
                              "coalesce(unpack(e.text), (SELECT w.name FROM words w WHERE w.code = e.tool_name), ''), r.title "
                              "FROM events e JOIN rooms r ON r.id = e.room_id "
                              "WHERE e.id IN (SELECT rowid FROM events_fts WHERE events_fts MATCH ?)")
                + (includeBlocked ? QString() : QStringLiteral(" AND ") + EventQuery::readable(QStringLiteral("e")))
                + QStringLiteral(" ORDER BY e.room_id, e.seq LIMIT ?"),
            { ftsQuery(text, false), limit });
    while (q.next()) {
        SearchHit hit;
        hit.roomId = q.value(0).toLongLong();
        hit.room = q.value(1).toString();
        hit.index = q.value(2).toLongLong();
        hit.type = q.value(3).toString();
        hit.createdMicros = q.value(4).toLongLong();
        hit.text = q.value(5).toString();
        hit.roomTitle = q.value(6).toString();
        hits.append(hit);
    }
    return hits;
}

EventRecords Workspace::search(qint64 roomId, const QString& text, int limit, bool includeBlocked, bool bodyOnly)
{
    const QString match = ftsQuery(text, bodyOnly);
    if (text.trimmed().isEmpty())
        return {};
    QString sql = QStringLiteral("SELECT ") + RecordReader::EventColumns
        + QStringLiteral(" FROM events WHERE id IN (SELECT rowid FROM events_fts WHERE events_fts MATCH ?)");
    QVariantList binds { match };
    if (roomId != 0) {
        sql += QStringLiteral(" AND room_id = ?");
        binds << roomId;
    }
    if (!includeBlocked)
        sql += QStringLiteral(" AND ") + EventQuery::readable(QStringLiteral("events"));
    sql += QStringLiteral(" ORDER BY room_id, seq LIMIT ?");
    binds << limit;
    return readEvents(sql, binds);
}
