#pragma once

#include "../storeerror.h"

#include <QSqlDatabase>
#include <QSqlQuery>
#include <QString>
#include <QUrl>
#include <QVariantList>

class PgSessions;

// The server asked for a password and none was given (none in the URI, PGPASSWORD or ~/.pgpass), or it
// refused the one given: a window asks for one and tries again, the command line says how to give it.
class PgPasswordNeeded : public StoreError
{
public:
    PgPasswordNeeded(const QString& origin, const QString& message, bool refused)
        : StoreError(origin, {}, message)
        , m_refused(refused)
    {
    }
    bool refused() const { return m_refused; } // a password was given and the server refused it

private:
    bool m_refused;
};

// No server answers at the URI's address, or the connection to it was lost: what was written is kept, and what a
// team store was to get waits for the next sync (a window or a verb goes on with what it has).
class PgUnreachable : public StoreError
{
public:
    using StoreError::StoreError;
};

// A PostgreSQL database a source store lives in, reached through QtSql's QPSQL driver (libpq), only ever read; or
// a team store (TeamStore), the one database Sightline writes, opened ReadWrite.
//
// Named by a URI, as libpq takes it: postgresql://user@host:port/dbname?sslmode=require, or
// postgresql:///dbname?service=name for a service of pg_service.conf. A password in the URI is used and never
// shown or kept: origin() leaves it out, and so does every message. Without one, libpq looks in PGPASSWORD and
// ~/.pgpass, as psql does. The session is read-only (default_transaction_read_only) and every read runs in a
// read-only transaction, so a role that may only SELECT is enough and nothing Sightline sends can write.
class PgConnection
{
public:
    enum class Access { ReadOnly, ReadWrite };

    // Connects. Throws PgPasswordNeeded when the server wants a password it was not given (or refused it),
    // and StoreError naming the database for every other failure, saying what to check. With `sessions`, a session
    // kept there for `uri` is taken when it still answers, and this one is kept there when it ends.
    // ReadWrite: a session whose transactions may write (a team store's), never kept in `sessions`.
    explicit PgConnection(const QString& uri, PgSessions* sessions = nullptr, Access access = Access::ReadOnly);
    ~PgConnection();
    PgConnection(const PgConnection&) = delete;
    PgConnection& operator=(const PgConnection&) = delete;

    // Whether `text` names a PostgreSQL database (postgresql:// or postgres://).
    static bool isUri(const QString& text);
    // The URI without its password: what the workspace, the recent list and every message call it.
    static QString withoutPassword(const QString& uri);
    // The same URI with `password` in it: how a password typed into a prompt reaches the import, in memory only.
    static QString withPassword(const QString& uri, const QString& password);
    // The role a URI without a user connects as: PGUSER, else the login name (what libpq takes).
    static QString defaultRole();
    // A short name for titles and the status bar: "roomkit on db.example.com".
    static QString displayName(const QString& uri);

    const QString& origin() const { return m_origin; }
    QSqlDatabase& database() { return m_db; }
    QString databaseName() const { return m_db.databaseName(); }

    // Runs `sql` with `values` bound in order, in a transaction of its own (read-only unless ReadWrite). Throws
    // StoreError saying what failed (a lost connection, a missing privilege) with `place` where in the source it was
    // reading.
    QSqlQuery select(const QString& sql, const QVariantList& values = {}, const QString& place = {});
    // The one number a statement like "SELECT count(*) ..." gives (0 when it gives no row).
    qint64 count(const QString& sql, const QVariantList& values = {}, const QString& place = {});
    // Whether the public schema has `table` (with `column`, when one is named), as the catalog says.
    bool hasTable(const QString& table, const QString& column = {});
    // Throws StoreError when the role may not SELECT from `table`.
    void requireSelect(const QString& table);

    // Throws StoreError saying what failed: a lost connection, a missing privilege, the server's message.
    [[noreturn]] void fail(const QSqlError& error, const QString& place);

private:
    bool takeKept(const QString& uri); // from m_sessions, when one answers

    QString m_origin;
    QString m_uri; // kept only while a PgSessions may take the session back
    PgSessions* m_sessions = nullptr;
    bool m_lost = false; // the server closed it: not kept
    Access m_access;
    QString m_connection;
    QSqlDatabase m_db;
};
