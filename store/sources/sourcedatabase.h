#pragma once

#include <QSqlDatabase>
#include <QString>

struct sqlite3;

// A source's SQLite file opened read-only through QtSql, never written.
//
// A live store (a -wal or -journal file beside it: its writer may be running) is opened with mode=ro, so
// SQLite's locks keep the read consistent and the rows still in the WAL are seen. A quiet one is opened
// with immutable=1, which needs no -shm file and so works on read-only media and folders.
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
    bool hasTable(const QString& name);
    QStringList columns(const QString& table);

    // Reads the first 100 bytes: whether the file is SQLite, and the header's size check.
    static bool looksLikeSqlite(const QString& path);

private:
    QString m_path;
    QString m_connection;
    QSqlDatabase m_db;
    sqlite3* m_handle = nullptr;
    int m_userVersion = 0;
};
