#pragma once

#include "sqlbinder.h"

#include <memory>
#include <QVariant>
#include <QVector>
#include <sqlite3.h>

// A prepared statement on the native handle of a QtSql SQLite connection, for the hot paths (bulk import,
// windows of rows) where QSqlQuery's per-value QVariant work costs several times the read itself.
// Reused: bind, step, reset.
class SqliteStatement final : public SqlBinder
{
public:
    SqliteStatement(sqlite3* db, const char* sql);
    ~SqliteStatement() override;
    SqliteStatement(const SqliteStatement&) = delete;
    SqliteStatement& operator=(const SqliteStatement&) = delete;

    using SqlBinder::bind;
    void bind(int column, qint64 value) override;
    void bindText(int column, const QByteArray& utf8) override;
    void bindBlob(int column, const QByteArray& bytes) override;
    void bindNull(int column) override;
    // Positional: a null QVariant as NULL, strings as text, byte arrays as blobs, floating point as real, the
    // integer types and bool as integers; any other type throws StoreError.
    void bindAll(const QVariantList& binds);

    bool step(); // true while a row is ready; throws on error
    void reset();

    bool isNull(int column) const;
    qint64 int64(int column) const;
    double real(int column) const;
    QString text(int column) const;
    QByteArray bytes(int column) const;

    sqlite3_stmt* handle() const { return m_stmt; }

private:
    void bound(int rc, int column) const; // throws StoreError unless rc is SQLITE_OK
    // Text and blobs are bound without a copy (SQLITE_STATIC): the statement keeps a reference to each value
    // (QByteArray is shared, not copied) until that parameter is bound again. A bulk import binds twenty values
    // a row, the payload among them, and SQLite's own copy of each was a malloc and a memcpy.
    const QByteArray& keep(int column, const QByteArray& bytes);

    sqlite3* m_db;
    sqlite3_stmt* m_stmt = nullptr;
    QVector<QByteArray> m_kept; // by parameter, from 1
};

// A statement made on its first use into `slot` and kept, reset for this one: a listing of ten thousand rooms
// prepared the same few statements ten thousand times each.
SqliteStatement& preparedOnce(std::unique_ptr<SqliteStatement>& slot, sqlite3* db, const char* sql);

// The sqlite3* behind a QSqlDatabase, or nullptr when the driver is not QSQLITE.
class QSqlDatabase;
sqlite3* nativeSqliteHandle(const QSqlDatabase& db);
