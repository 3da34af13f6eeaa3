#include "sourcefollower.h"

#include "sources/importer.h"
#include "sources/pgconnection.h"
#include "storeclient.h"

#include <QTimer>

SourceFollower::SourceFollower(StoreClient* store, QObject* parent)
    : QObject(parent)
    , m_store(store)
    , m_timer(new QTimer(this))
{
    // Files four times a second (a look only compares their size and time): a line written shows within half a
    // second of it, the sync's own time besides. A database every fourth look: once a second.
    m_timer->setInterval(250);
    connect(m_timer, &QTimer::timeout, this, &SourceFollower::look);
}

void SourceFollower::follow(const QStringList& sources)
{
    m_sources = sources;
    m_stamps.clear();
    // As they are now: the open's own import reads them, and what they gain after it is synced.
    for (const QString& source : sources)
        m_stamps.insert(source, Importer::stamp(source));
    if (isFollowing())
        m_timer->start();
    else
        m_timer->stop();
    emit stateChanged();
}

void SourceFollower::setPaused(bool paused)
{
    if (paused == m_paused)
        return;
    m_paused = paused;
    if (isFollowing()) {
        m_timer->start();
        look(); // what came while paused, at once
    } else {
        m_timer->stop();
    }
    emit stateChanged();
}

void SourceFollower::look()
{
    if (!isFollowing() || m_store->isImporting())
        return;
    ++m_ticks;
    QStringList changed;
    QHash<QString, QByteArray> now;
    for (const QString& source : std::as_const(m_sources)) {
        // A database says what is new only when asked: every fourth look.
        if (PgConnection::isUri(source)) {
            if (m_ticks % 4 == 0)
                changed << source;
            continue;
        }
        const QByteArray stamp = Importer::stamp(source);
        if (stamp != m_stamps.value(source)) {
            changed << source;
            now.insert(source, stamp);
        }
    }
    if (changed.isEmpty() || !m_store->sync(changed))
        return;
    for (auto it = now.cbegin(); it != now.cend(); ++it)
        m_stamps.insert(it.key(), it.value());
    emit syncing(changed);
}
