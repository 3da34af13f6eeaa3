#pragma once

#include "team/teamconflict.h"
#include "team/teamqueue.h"
#include "team/teamqueueroom.h"

#include <functional>
#include <memory>
#include <optional>
#include <QObject>
#include <QStringList>
#include <utility>

class QTimer;
class QWidget;
class StoreClient;

// The window's side of team review: the workspace open, attached to a team store (TeamSync), kept level with it.
// It syncs when the workspace opens, after every save, whenever the store says a change committed (LISTEN), and every
// 15 s besides (which also says which room this window shows, so teammates see "Ana is reviewing this room"). Every
// sync runs on the store's edit connection (StoreClient::Kind::TeamSync), where the team store's connection lives
// between syncs; what came down is announced with changed() so that the window reads it again in place.
//
// Window changes go up when they are saved: unsaved, they are this reviewer's alone and may be undone.
class TeamLink : public QObject
{
    Q_OBJECT
public:
    struct Status
    {
        QString uri; // the store attached (without a password); empty: none
        QString login; // as the server knows this reviewer
        QString role; // reviewer, auditor, admin
        bool connected = false;
        QString problem; // why it is not connected, or the last sync failed
        qint64 syncedMs = 0; // the last catch-up
        int pending = 0; // saved changes waiting to go up
        int sent = 0; // by the last sync
        int taken = 0;
        QStringList unapplied; // teammates' redactions not cut here yet, and why
        QStringList present; // who else has the room shown open
        TeamConflicts conflicts; // review statuses set each without knowing the other, not settled yet
    };

    TeamLink(StoreClient* store, QWidget* window);
    ~TeamLink() override;

    const Status& status() const { return m_status; }
    bool isAttached() const { return !m_status.uri.isEmpty(); }
    // Who this reviewer signs as in the team: the name given (Edit ▸ Set Your Name…), else the team login.
    QString signature() const;
    // A line for the status bar: "Team: ana (reviewer), caught up 10:02:11", or why not.
    QString summary() const;

    // The workspace opened: its attachment is read, and an attached one is synced.
    void workspaceOpened();
    // Attaches the workspace to the store at `uri` (asking for a password when the server wants one) and syncs.
    void attach(const QString& uri);
    void detach();
    // Syncs now (after the sync under way, when one is).
    void sync();
    // The room this window shows (system, id), for teammates to see; none: no room.
    void setRoom(const std::optional<std::pair<QString, QString>>& room);
    // Settles conflict `id`: the room's review status becomes `status`, this reviewer's choice; then syncs.
    void settle(qint64 id, const QString& status);
    // How often presence is renewed and a missed notification caught up (15 s).
    void setRenewInterval(int ms);
    // Before the window goes: it says it shows no room, and lets go of the connection on the thread that made it.
    void shutDown();

    // Queues, on the same connection. `done` runs on the GUI thread with what came back; `failed` with why.
    void queues(std::function<void(const TeamQueues&)> done, std::function<void(const QString&)> failed);
    void next(const QString& queue, const QString& author, std::function<void(const std::optional<TeamQueueRoom>&)> done,
        std::function<void(const QString&)> failed);
    void finish(const QString& queue, const std::pair<QString, QString>& room, const QString& author,
        std::function<void(const TeamQueueRoom&)> done, std::function<void(const QString&)> failed);

signals:
    // Teammates' changes came down: what shows annotations reads again, and the rows too when `content` (a
    // teammate's redaction cut text here).
    void changed(bool content);
    void statusChanged();
    void synced(); // a sync landed, connected
    void message(const QString& text);

private:
    struct Side; // what lives on the edit connection's thread
    struct Outcome;
    void run(const std::optional<QString>& attachTo, bool detachNow);
    void landed(const Outcome& outcome);
    // Asks for the password of the store's role; false when the reviewer declines.
    bool askPassword(const QString& why);

    StoreClient* m_store;
    QWidget* m_window;
    std::shared_ptr<Side> m_side;
    Status m_status;
    QString m_password; // typed into the prompt: kept in memory for this session, never written
    std::optional<std::pair<QString, QString>> m_room;
    bool m_busy = false; // a sync is out
    bool m_again = false; // another was asked meanwhile
    bool m_declined = false; // the reviewer gave no password: no retry until they attach again
    QTimer* m_timer;
};
