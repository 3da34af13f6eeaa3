#pragma once

#include <QDateTime>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QString>

struct sqlite3;

// A source's SQLite file opened read-only through QtSql, never written.
//
// Where a writer may be running (a rollback-journal database, or a WAL database with its -wal file), it is
// opened with mode=ro, so SQLite's locks keep the read consistent and rows still in the WAL are seen. A WAL
// database without a -wal file has no writer: it is opened with immutable=1, which needs no -shm file, so it
// works in read-only folders and leaves nothing beside the source.
class SourceDatabase
{
public:
    // Throws StoreError naming the file when it is missing, unreadable, not SQLite, truncated or locked.
    explicit SourceDatabase(const QString& path, int busyTimeoutMs = 2000);
    ~SourceDatabase();
    SourceDatabase(const SourceDatabase&) = delete;
    SourceDatabase& operator=(const SourceDatabase&) = delete;

    const QString& path() const { return m_path; }
    QSqlDatabase& db() { return m_db; }
    sqlite3* handle() const { return m_handle; }
    int userVersion() const { return m_userVersion; }
    bool isImmutable() const { return m_immutable; } // opened with immutable=1 (no writer when it was opened)
    // Before a read: an immutable file that a writer has touched since it was opened (a -wal file beside it now,
    // or another size or time) is opened again under SQLite's locks. True when it was reopened: statements
    // prepared on the old handle must be prepared again. Throws StoreError as the constructor does.
    bool refresh();
    bool hasTable(const QString& name);
    QStringList columns(const QString& table);
    // Whether `name` is a view: a source's tables are read, never a view (one can run without end).
    bool isView(const QString& name);
    // How many objects (tables, indexes, ...) its schema has: 0 for a database made a moment ago.
    int objectCount() const { return m_objects; }
    int applicationId() const { return m_applicationId; } // PRAGMA application_id, as SQLite reads it


    // Reads the first 100 bytes: whether the file is SQLite, and the header's size check.
    static bool looksLikeSqlite(const QString& path);

private:
    void open();
    void close();
    // Throws StoreError saying why `q` failed reading `what`: a writer's lock named as one.
    [[noreturn]] void failed(const QSqlQuery& q, const QString& what) const;
    // What to say when `error` comes of a hot journal a crashed writer left; empty when it does not.
    QString hotJournal(const QString& error) const;

    QString m_path;
    int m_busyTimeoutMs;
    bool m_immutable = false;
    qint64 m_openedSize = 0;
    QDateTime m_openedModified;
    QString m_connection;
    QSqlDatabase m_db;
    sqlite3* m_handle = nullptr;
    int m_userVersion = 0;
    int m_objects = 0;
    int m_applicationId = 0;
};
