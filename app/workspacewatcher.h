#pragma once

#include <QObject>

class QTimer;
class StoreClient;

// Notices what another process changed in the workspace open here: a note, a review status or a redaction made with
// the command line while the window is open (`sightline note`, `review`, `redact`). Every such change is an entry
// of the workspace's journal, so the journal's size and newest entry are looked at every two seconds (one small
// read); when they moved and this window did not move them, changed() says so, and whether rows changed too
// (a redaction, an edit). Before, the window showed such a change only once its room was picked again.
class WorkspaceWatcher : public QObject
{
    Q_OBJECT
public:
    explicit WorkspaceWatcher(StoreClient* store, QObject* parent = nullptr);

    // A workspace opened: what its journal holds now is the start.
    void workspaceOpened();
    // This window changed the workspace (and shows it already): its journal's new state is taken as known.
    void acknowledge();
    void setInterval(int ms);

signals:
    // `content`: among the new entries, a redaction, an edit or a pair fix (rows read again), not only annotations.
    void changed(bool content);

private:
    void look(bool tell);

    StoreClient* m_store;
    QTimer* m_timer;
    qint64 m_count = -1; // the journal's entries when last looked at; -1: not known yet
    qint64 m_newest = 0; // its newest entry's id then
    bool m_looking = false;
};
