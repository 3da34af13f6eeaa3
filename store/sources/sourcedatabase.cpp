#include "sourcedatabase.h"

#include "../sqlitelibrary.h"
#include "../sqlitestatement.h"
#include "../storeerror.h"

#include <QAtomicInteger>
#include <QFile>
#include <QFileInfo>
#include <QSqlError>
#include <QSqlQuery>
#include <QtEndian>
#include <QUrl>

namespace {

QString nextConnectionName()
{
    static QAtomicInteger<quint64> counter;
    return QStringLiteral("sightline-source-%1").arg(counter.fetchAndAddRelaxed(1));
}

// The header's page size and page count (https://sqlite.org/fileformat.html §1.3), when they are valid.
void checkHeader(const QString& path, const QByteArray& header, qint64 fileSize)
{
    if (header.size() < 100 || !header.startsWith(QByteArrayLiteral("SQLite format 3\0")))
        throw StoreError(path, {}, QStringLiteral("not a SQLite database"));
    const auto* bytes = reinterpret_cast<const uchar*>(header.constData());
    qint64 pageSize = qFromBigEndian<quint16>(bytes + 16);
    if (pageSize == 1)
        pageSize = 65536;
    const quint32 pages = qFromBigEndian<quint32>(bytes + 28);
    const quint32 changeCounter = qFromBigEndian<quint32>(bytes + 24);
    const quint32 validFor = qFromBigEndian<quint32>(bytes + 92);
    if (pages > 0 && changeCounter == validFor && pageSize * pages > fileSize) {
        throw StoreError(path, QStringLiteral("byte %1").arg(fileSize),
            QStringLiteral("truncated SQLite database: its header says %1 pages of %2 bytes (%3 bytes), "
                           "the file has %4")
                .arg(pages)
                .arg(pageSize)
                .arg(pageSize * pages)
                .arg(fileSize));
    }
}

} // namespace

bool SourceDatabase::looksLikeSqlite(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) && file.read(16) == QByteArrayLiteral("SQLite format 3\0");
}

SourceDatabase::SourceDatabase(const QString& path, int busyTimeoutMs)
    : m_path(path)
    , m_busyTimeoutMs(busyTimeoutMs)
{
    if (const QString mismatch = SqliteLibrary::check(); !mismatch.isEmpty())
        throw StoreError(path, {}, mismatch);
    open();
}

void SourceDatabase::open()
{
    QFile file(m_path);
    if (!QFileInfo::exists(m_path))
        throw StoreError(m_path, {}, QStringLiteral("no such file"));
    if (!file.open(QIODevice::ReadOnly))
        throw StoreError(m_path, {}, QStringLiteral("cannot read: ") + file.errorString());
    const QByteArray header = file.read(100);
    checkHeader(m_path, header, file.size());
    file.close();

    // Byte 18 is 2 for a WAL database. A rollback-journal database is read under SQLite's locks (mode=ro needs
    // no side file there); so is a WAL database whose -wal file exists (its writer may be running). A WAL
    // database without one has no writer now, and immutable=1 reads it without leaving -wal/-shm files behind;
    // refresh() reopens it under the locks when a writer has started since.
    const bool wal = header.at(18) == 2;
    const bool live = !wal || QFileInfo::exists(m_path + QStringLiteral("-wal"));
    m_immutable = !live;
    const QFileInfo info(m_path);
    m_openedSize = info.size();
    m_openedModified = info.lastModified();
    const QString uri = QUrl::fromLocalFile(QFileInfo(m_path).absoluteFilePath()).toString(QUrl::FullyEncoded)
        + (live ? QStringLiteral("?mode=ro") : QStringLiteral("?immutable=1"));
    m_connection = nextConnectionName();
    m_db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_connection);
    m_db.setDatabaseName(uri);
    m_db.setConnectOptions(
        QStringLiteral("QSQLITE_OPEN_READONLY;QSQLITE_OPEN_URI;QSQLITE_BUSY_TIMEOUT=%1").arg(m_busyTimeoutMs));
    auto fail = [this](const QString& message) {
        close();
        throw StoreError(m_path, {}, message);
    };
    if (!m_db.open())
        fail(QStringLiteral("cannot open read-only: ") + m_db.lastError().text());
    m_handle = nativeSqliteHandle(m_db);
    // The first reads are where SQLite meets a lock or a damaged schema.
    auto failRead = [&](QSqlQuery& q, const QString& what) {
        const QString error = q.lastError().text();
        q = QSqlQuery();
        if (const QString hot = hotJournal(error); !hot.isEmpty())
            fail(hot);
        fail(error.contains(QLatin1String("locked"), Qt::CaseInsensitive)
                ? QStringLiteral("the database is locked by another program (waited %1 ms): %2")
                      .arg(m_busyTimeoutMs)
                      .arg(error)
                : QStringLiteral("cannot read ") + what + QStringLiteral(": ") + error);
    };
    QSqlQuery q(m_db);
    if (!q.exec(QStringLiteral("PRAGMA user_version")) || !q.next())
        failRead(q, QStringLiteral("the database"));
    m_userVersion = q.value(0).toInt();
    q.finish();
    // Read through SQLite, not from the file's header: a database made a moment ago in WAL mode has its first page,
    // and the id in it, in the -wal file until a checkpoint.
    if (q.exec(QStringLiteral("PRAGMA application_id")) && q.next())
        m_applicationId = q.value(0).toInt();
    q.finish();
    if (!q.exec(QStringLiteral("SELECT count(*) FROM sqlite_master")))
        failRead(q, QStringLiteral("the database schema"));
    m_objects = q.next() ? q.value(0).toInt() : 0;
}

void SourceDatabase::close()
{
    m_handle = nullptr;
    m_db.close();
    m_db = QSqlDatabase();
    QSqlDatabase::removeDatabase(m_connection);
}

bool SourceDatabase::refresh()
{
    if (!m_immutable)
        return false; // SQLite's locks already keep each read consistent
    // immutable=1 promises SQLite the file never changes: it neither locks nor looks at a -wal file. A writer that
    // started since (a -wal file now, or the file itself changed) would be read wrong, so the file is read again
    // under the locks, as any store with a writer is.
    const QFileInfo info(m_path);
    if (!QFileInfo::exists(m_path + QStringLiteral("-wal")) && info.size() == m_openedSize
        && info.lastModified() == m_openedModified)
        return false;
    close();
    open();
    return true;
}

SourceDatabase::~SourceDatabase()
{
    close();
}

QString SourceDatabase::hotJournal(const QString& error) const
{
    // SQLite must roll back what a writer that crashed left half done before the file can be read, and a source is
    // opened read-only: it says "attempt to write a readonly database", which names neither cause nor cure.
    const QString journal = m_path + QStringLiteral("-journal");
    if (!error.contains(QLatin1String("readonly"), Qt::CaseInsensitive) || !QFileInfo::exists(journal))
        return {};
    return QStringLiteral("a program that was writing it stopped in the middle (its journal ") + journal
        + QStringLiteral(" is still there): SQLite must roll that write back before the store can be read, and "
                         "Sightline never writes a source. Let its program open it again, or roll it back with "
                         "sqlite3 (sqlite3 FILE \"PRAGMA quick_check\"), then open it here");
}

void SourceDatabase::failed(const QSqlQuery& q, const QString& what) const
{
    // Said as it is: a query that failed (a writer's lock, a damaged schema) read as "no such table" once, and a
    // locked store was called "not a RoomKit store".
    const QString error = q.lastError().text();
    if (const QString hot = hotJournal(error); !hot.isEmpty())
        throw StoreError(m_path, {}, hot);
    if (error.contains(QLatin1String("locked"), Qt::CaseInsensitive) || error.contains(QLatin1String("busy"), Qt::CaseInsensitive)) {
        throw StoreError(m_path, {},
            QStringLiteral("the database is locked by another program (waited ") + QString::number(m_busyTimeoutMs)
                + QStringLiteral(" ms): try again once its writer is done (") + error + QLatin1Char(')'));
    }
    throw StoreError(m_path, {}, QStringLiteral("cannot read ") + what + QStringLiteral(": ") + error);
}

bool SourceDatabase::hasTable(const QString& name)
{
    QSqlQuery q(m_db);
    if (!q.prepare(QStringLiteral("SELECT 1 FROM sqlite_master WHERE type IN ('table','view') AND name = ?")))
        failed(q, QStringLiteral("the database schema"));
    q.addBindValue(name);
    if (!q.exec())
        failed(q, QStringLiteral("the database schema"));
    if (q.next())
        return true;
    if (q.lastError().isValid())
        failed(q, QStringLiteral("the database schema"));
    return false;
}

bool SourceDatabase::isView(const QString& name)
{
    QSqlQuery q(m_db);
    if (!q.prepare(QStringLiteral("SELECT 1 FROM sqlite_master WHERE type = 'view' AND name = ?")))
        failed(q, QStringLiteral("the database schema"));
    q.addBindValue(name);
    if (!q.exec())
        failed(q, QStringLiteral("the database schema"));
    return q.next();
}

QStringList SourceDatabase::columns(const QString& table)
{
    QStringList out;
    QSqlQuery q(m_db);
    if (!q.prepare(QStringLiteral("SELECT name FROM pragma_table_info(?)")))
        failed(q, QStringLiteral("the columns of ") + table);
    q.addBindValue(table);
    if (!q.exec())
        failed(q, QStringLiteral("the columns of ") + table);
    while (q.next())
        out << q.value(0).toString();
    if (q.lastError().isValid())
        failed(q, QStringLiteral("the columns of ") + table);
    return out;
}
