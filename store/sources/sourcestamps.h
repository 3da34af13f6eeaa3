#pragma once

#include <QHash>
#include <QStringList>

// Which followed sources to sync, by one rule for the window (SourceFollower) and `events --follow`: a file when
// its size or time moved since the last sync that succeeded (Importer::stamp), a database whenever asked. A
// source's new stamp is kept only once its sync succeeds: one that failed (a command-line import holding the
// workspace, a file caught while being replaced) is tried again at the next look, even if the file does not
// change again (the window kept the stamp at the sync's start, so a finished log's last rows never came).
class SourceStamps
{
public:
    // The one cadence of following, the window's and the command line's: a look every LookMs (a file is only compared
    // by size and time: a line written shows within a quarter of a second, the sync's own time besides), and a
    // database, which must be asked, at every DatabaseLooks-th look: once a second.
    static constexpr int LookMs = 250;
    static constexpr int DatabaseLooks = 4;

    // The sources from now on, as they are now (what the open's own import reads).
    void reset(const QStringList& sources);
    // The sources due for a sync; `askDatabases`: a database is due at this look. Their stamps wait for synced().
    QStringList due(bool askDatabases);
    // The next look, at the cadence above: what is due at it.
    QStringList look() { return due(++m_looks % DatabaseLooks == 0); }
    // The sync of what due() gave succeeded: its stamps are the ones seen.
    void synced();
    // It failed: the next look tries again.
    void failed();

private:
    QStringList m_sources;
    QHash<QString, QByteArray> m_seen; // as each source was when its last good sync started
    QHash<QString, QByteArray> m_pending; // of the sync under way
    int m_looks = 0;
};
