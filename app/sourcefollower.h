#pragma once

#include "sources/sourcestamps.h"

#include <QObject>
#include <QStringList>

class QTimer;
class StoreClient;

// Live follow: the sources of the workspace open now are looked at four times a second (a database once a second)
// and synced when they changed, so that what an agent writes shows within a second. Which are due is
// SourceStamps' rule, the command line's too: a sync that failed is tried again at the next look. One sync at a
// time: a look that finds an import or sync under way waits for the next. Paused, nothing is looked at.
class SourceFollower : public QObject
{
    Q_OBJECT
public:
    explicit SourceFollower(StoreClient* store, QObject* parent = nullptr);

    // The sources to follow from now on (empty: none, as for a workspace opened as it is).
    void follow(const QStringList& sources);
    const QStringList& sources() const { return m_sources; }
    void setPaused(bool paused);
    bool isPaused() const { return m_paused; }
    // Whether there is something followed and following is not paused.
    bool isFollowing() const { return !m_paused && !m_sources.isEmpty(); }

signals:
    void stateChanged();
    // A sync was started for `sources`.
    void syncing(const QStringList& sources);

private:
    void look();

    StoreClient* m_store;
    QTimer* m_timer;
    QStringList m_sources;
    SourceStamps m_stamps;
    bool m_waiting = false; // a sync this follower started has not said how it went
    bool m_paused = false;
};
