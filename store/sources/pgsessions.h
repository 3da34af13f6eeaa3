#pragma once

#include <QElapsedTimer>
#include <QString>
#include <QVector>

// PostgreSQL sessions kept open between the syncs of a followed database, one per URI: a follow asks the server
// every second, and a new connection each time is a new server process, an authentication and a line in the
// server's log each second. A PgConnection made with a PgSessions takes a kept session (checked with a round trip
// first: a server restarted since, or an administrator's pg_terminate_backend, gives a new one, not an error) and
// gives it back when it ends, unless it was lost.
//
// Like the QtSql connections it keeps, a PgSessions belongs to one thread: the import's (StoreWorker), or the
// command line's follow loop. A session idle for a minute is closed the next time one is taken or kept, and all
// are closed with closeAll() or the PgSessions.
class PgSessions
{
public:
    PgSessions() = default;
    ~PgSessions();
    PgSessions(const PgSessions&) = delete;
    PgSessions& operator=(const PgSessions&) = delete;

    void closeAll();
    qsizetype size() const { return m_kept.size(); }

    static constexpr qint64 IdleMs = 60000;

private:
    friend class PgConnection;
    // The QtSql connection name of the session kept for `uri` (empty: none), no longer kept.
    QString take(const QString& uri);
    // Keeps the open QtSql connection `name` for the next PgConnection to `uri`.
    void keep(const QString& uri, const QString& name);
    void closeIdle();
    static void close(const QString& name);

    struct Kept
    {
        QString uri; // with its password, in memory only: the key a sync asks with
        QString name;
        QElapsedTimer idle;
    };
    QVector<Kept> m_kept;
};
