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
    // The command line's cadence too (SourceStamps): files four times a second, a database once a second.
    m_timer->setInterval(SourceStamps::LookMs);
    connect(m_timer, &QTimer::timeout, this, &SourceFollower::look);
    // How its sync went: only a sync that succeeded keeps the sources' new stamps.
    connect(m_store, &StoreClient::imported, this, [this] {
        if (std::exchange(m_waiting, false))
            m_stamps.synced();
    });
    connect(m_store, &StoreClient::failed, this, [this](quint64, StoreClient::Kind kind, const QString&) {
        if (kind == StoreClient::Kind::Import && std::exchange(m_waiting, false))
            m_stamps.failed();
    });
}

void SourceFollower::follow(const QStringList& sources)
{
    m_sources = sources;
    m_waiting = false;
    // As they are now: the open's own import reads them, and what they gain after it is synced.
    m_stamps.reset(sources);
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
    const QStringList changed = m_stamps.look();
    if (changed.isEmpty() || !m_store->sync(changed)) {
        m_stamps.failed(); // not started: looked at again next time
        return;
    }
    m_waiting = true;
    emit syncing(changed);
}
