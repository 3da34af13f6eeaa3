#include "pgconnection.h"

#include "../reviewer.h"

#include "pgsessions.h"

#include <atomic>
#include <QRegularExpression>
#include <QSqlError>
#include <QUrlQuery>

namespace {

std::atomic<int> connections { 0 };

QString hostAndPort(const QUrl& url)
{
    const QString host = url.host().isEmpty() ? QStringLiteral("the local socket") : url.host();
    return url.port() > 0 ? QStringLiteral("%1:%2").arg(host, QString::number(url.port())) : host;
}

// libpq's message, on one line: its first line, without the "FATAL:" it prefixes server errors with.
QString serverSaid(const QSqlError& error)
{
    QString text = error.databaseText().trimmed();
    if (text.isEmpty())
        text = error.driverText().trimmed();
    text = text.section(QLatin1Char('\n'), 0, 0).trimmed();
    static const QRegularExpression severity(QStringLiteral("^.*(FATAL|ERROR):\\s+"));
    return text.remove(severity).trimmed();
}

// A libpq keyword value, quoted when it must be.
QString quoted(QString value)
{
    if (!value.isEmpty() && !value.contains(QLatin1Char(' ')) && !value.contains(QLatin1Char('\''))
        && !value.contains(QLatin1Char('\\')))
        return value;
    value.replace(QLatin1Char('\\'), QStringLiteral("\\\\")).replace(QLatin1Char('\''), QStringLiteral("\\'"));
    return QLatin1Char('\'') + value + QLatin1Char('\'');
}

bool connectionLost(const QSqlError& error, const QSqlDatabase& db)
{
    const QString text = error.databaseText() + error.driverText();
    return !db.isOpen() || error.nativeErrorCode().startsWith(QLatin1String("57P"))
        || error.nativeErrorCode().startsWith(QLatin1String("08"))
        || text.contains(QLatin1String("server closed the connection"))
        || text.contains(QLatin1String("terminating connection"))
        || text.contains(QLatin1String("no connection to the server"))
        || text.contains(QLatin1String("could not receive data")) || text.contains(QLatin1String("could not send data"));
}

// The query keys of a libpq URI that hold a secret: never shown, kept or passed on as an option.
const QStringList secretKeys { QStringLiteral("password"), QStringLiteral("sslpassword") };

} // namespace

bool PgConnection::isUri(const QString& text)
{
    return text.startsWith(QLatin1String("postgresql://"), Qt::CaseInsensitive)
        || text.startsWith(QLatin1String("postgres://"), Qt::CaseInsensitive);
}

QString PgConnection::withoutPassword(const QString& uri)
{
    const QUrl url(uri);
    // A URI that does not parse may still hold a password: only its scheme is repeated.
    if (!url.isValid())
        return uri.section(QLatin1String("://"), 0, 0) + QStringLiteral("://…");
    // libpq also takes a password as ?password= (and a client key's as ?sslpassword=): those go too.
    QUrl bare = url.adjusted(QUrl::RemovePassword);
    QUrlQuery query(bare);
    for (const QString& secret : secretKeys)
        query.removeAllQueryItems(secret);
    bare.setQuery(query);
    if (query.isEmpty())
        bare.setQuery(QString());
    return bare.toString();
}

QString PgConnection::withPassword(const QString& uri, const QString& password)
{
    QUrl url(uri);
    url.setPassword(password);
    return url.toString();
}

QString PgConnection::displayName(const QString& uri)
{
    const QUrl url(uri);
    QString db = url.path().mid(1);
    if (db.isEmpty())
        db = QUrlQuery(url).queryItemValue(QStringLiteral("service"));
    if (db.isEmpty())
        db = QStringLiteral("PostgreSQL");
    return url.host().isEmpty() ? db : QStringLiteral("%1 on %2").arg(db, url.host());
}

PgConnection::PgConnection(const QString& uri, PgSessions* sessions, Access access)
    : m_origin(withoutPassword(uri))
    , m_sessions(access == Access::ReadOnly ? sessions : nullptr)
    , m_access(access)
{
    const QUrl url(uri);
    if (!url.isValid() || !isUri(uri))
        throw StoreError(m_origin, {}, QStringLiteral("not a PostgreSQL URI (postgresql://user@host:port/dbname)"));
    if (m_sessions) {
        m_uri = uri;
        if (takeKept(uri))
            return;
    }
    m_connection = QStringLiteral("sightline-pg-%1").arg(connections.fetch_add(1));
    if (!QSqlDatabase::isDriverAvailable(QStringLiteral("QPSQL"))) {
        throw StoreError(m_origin, {},
            QStringLiteral("Qt's PostgreSQL driver (QPSQL) is not installed: install libqt6sql6-psql"));
    }
    m_db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), m_connection);
    if (!url.host().isEmpty())
        m_db.setHostName(url.host());
    if (url.port() > 0)
        m_db.setPort(url.port());
    m_db.setDatabaseName(url.path().mid(1));
    // The role and its password, from the user part or, as libpq also takes them, from ?user= and ?password=
    // (the user part wins where both are given, as in libpq).
    const QUrlQuery query(url);
    const QString user = !url.userName().isEmpty() ? url.userName()
                                                    : query.queryItemValue(QStringLiteral("user"), QUrl::FullyDecoded);
    const QString password = !url.password().isEmpty()
        ? url.password()
        : query.queryItemValue(QStringLiteral("password"), QUrl::FullyDecoded);
    m_db.setUserName(user);
    if (!password.isEmpty())
        m_db.setPassword(password);
    // Every libpq keyword the URI's query gives (sslmode, service, sslrootcert, ...), and a session whose
    // transactions are all read-only from its first statement on.
    QStringList options { QStringLiteral("connect_timeout=10"), QStringLiteral("application_name=Sightline") };
    if (access == Access::ReadOnly)
        options << QStringLiteral("options='-c default_transaction_read_only=on'");
    for (const auto& [key, value] : QUrlQuery(url).queryItems(QUrl::FullyDecoded)) {
        if (key != QLatin1String("user") && key != QLatin1String("password") && key != QLatin1String("options"))
            options << key + QLatin1Char('=') + quoted(value);
    }
    m_db.setConnectOptions(options.join(QLatin1Char(';')));
    if (m_db.open())
        return;
    const QSqlError error = m_db.lastError();
    const QString said = serverSaid(error);
    const QString all = error.databaseText() + error.driverText();
    const QString role = user.isEmpty() ? PgConnection::defaultRole() : user;
    m_db = QSqlDatabase();
    QSqlDatabase::removeDatabase(m_connection);
    if (all.contains(QLatin1String("no password supplied"))) {
        throw PgPasswordNeeded(m_origin,
            QStringLiteral("the server asks for the password of role %1: give it in PGPASSWORD or ~/.pgpass, or in "
                           "the window's prompt")
                .arg(role),
            false);
    }
    if (all.contains(QLatin1String("password authentication failed")))
        throw PgPasswordNeeded(m_origin, QStringLiteral("the server refused the password for role %1").arg(role), true);
    if (all.contains(QLatin1String("Connection refused"))) {
        throw PgUnreachable(m_origin, {},
            QStringLiteral("no PostgreSQL server answers at %1 (connection refused): is it running, and listening "
                           "there?")
                .arg(hostAndPort(url)));
    }
    if (all.contains(QLatin1String("could not translate host name")))
        throw PgUnreachable(m_origin, {}, QStringLiteral("unknown host %1").arg(url.host()));
    if (all.contains(QLatin1String("timeout expired")))
        throw PgUnreachable(m_origin, {}, QStringLiteral("the server at %1 did not answer in time").arg(hostAndPort(url)));
    throw StoreError(m_origin, {}, QStringLiteral("cannot connect: %1").arg(said));
}

bool PgConnection::takeKept(const QString& uri)
{
    const QString name = m_sessions->take(uri);
    if (name.isEmpty())
        return false;
    m_db = QSqlDatabase::database(name, false);
    // One round trip says whether the server still holds the session: one it dropped is closed here, and a new
    // one made, where the first read would fail.
    {
        QSqlQuery ping(m_db);
        if (m_db.isOpen() && ping.exec(QStringLiteral("SELECT 1")) && ping.next()) {
            m_connection = name;
            return true;
        }
    }
    m_db = QSqlDatabase();
    PgSessions::close(name);
    return false;
}

PgConnection::~PgConnection()
{
    if (m_sessions && !m_lost && m_db.isOpen()) {
        m_db = QSqlDatabase();
        m_sessions->keep(m_uri, m_connection);
        return;
    }
    m_db.close();
    m_db = QSqlDatabase();
    QSqlDatabase::removeDatabase(m_connection);
}

void PgConnection::fail(const QSqlError& error, const QString& place)
{
    const QString said = serverSaid(error);
    if (connectionLost(error, m_db)) {
        m_lost = true;
        throw PgUnreachable(m_origin, place,
            QStringLiteral("the connection to the server was lost (%1): what was imported is kept, and the next "
                           "sync goes on from there")
                .arg(said));
    }
    // A change a writing session may not make: the server's refusal names the role and what it may do (a team
    // store's functions say so), and its transaction took nothing.
    if (error.nativeErrorCode() == QLatin1String("42501") && m_access == Access::ReadWrite)
        throw StoreError(m_origin, place, said + QStringLiteral("; nothing was written"));
    if (error.nativeErrorCode() == QLatin1String("42501")) {
        throw StoreError(m_origin, place,
            QStringLiteral("role %1 may not read this store (it needs SELECT on its tables): %2")
                .arg(m_db.userName().isEmpty() ? PgConnection::defaultRole() : m_db.userName(), said));
    }
    throw StoreError(m_origin, place, said);
}

QString PgConnection::defaultRole()
{
    // As libpq picks it: PGUSER, else the login name the process runs as.
    const QString given = qEnvironmentVariable("PGUSER");
    return given.isEmpty() ? Reviewer::loginName() : given;
}

QSqlQuery PgConnection::select(const QString& sql, const QVariantList& values, const QString& place)
{
    QSqlQuery query(m_db);
    query.setForwardOnly(true);
    if (!query.prepare(sql))
        fail(query.lastError(), place);
    for (const QVariant& value : values)
        query.addBindValue(value);
    if (!query.exec())
        fail(query.lastError(), place);
    return query;
}

qint64 PgConnection::count(const QString& sql, const QVariantList& values, const QString& place)
{
    QSqlQuery q = select(sql, values, place);
    return q.next() ? q.value(0).toLongLong() : 0;
}

bool PgConnection::hasTable(const QString& table, const QString& column)
{
    // From the catalog, which every role may read: information_schema lists only the tables a role may use,
    // and a role without SELECT must hear that it lacks it, not that the store is missing.
    const QString name = QStringLiteral("public.") + table;
    QSqlQuery q = column.isEmpty()
        ? select(QStringLiteral("SELECT to_regclass(?) IS NOT NULL"), { name })
        : select(QStringLiteral("SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_attribute WHERE attrelid = to_regclass(?) "
                                "AND attname = ? AND NOT attisdropped)"),
            { name, column });
    return q.next() && q.value(0).toBool();
}

void PgConnection::requireSelect(const QString& table)
{
    QSqlQuery q = select(QStringLiteral("SELECT has_table_privilege(current_user, ?, 'SELECT'), current_user"),
        { QVariant(QStringLiteral("public.") + table) });
    if (q.next() && !q.value(0).toBool()) {
        throw StoreError(m_origin, {},
            QStringLiteral("role %1 may not read table %2: grant it SELECT (GRANT SELECT ON ALL TABLES IN SCHEMA "
                           "public TO %1)")
                .arg(q.value(1).toString(), table));
    }
}
