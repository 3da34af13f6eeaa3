#include "teamlink.h"

#include "reviewer.h"
#include "settings.h"
#include "sources/pgconnection.h"
#include "storeclient.h"
#include "storeerror.h"
#include "team/teamstore.h"
#include "team/teamsync.h"
#include "timeutil.h"
#include "workspace.h"

#include <QDateTime>
#include <QInputDialog>
#include <QLineEdit>
#include <QPointer>
#include <QTimer>

// The team store's connection, made, used and let go of on the edit connection's thread alone (a QSqlDatabase
// belongs to the thread that opened it, and its LISTEN is served by that thread's event loop).
struct TeamLink::Side
{
    std::unique_ptr<TeamStore> team;
    QString uri; // the URI it was made with, password and all
    ~Side()
    {
        // Let go of on another thread (the window went without shutDown()): left open rather than closed from the
        // wrong thread; the process is ending.
        if (team)
            (void)team.release();
    }
};

// What a sync brought back to the GUI thread.
struct TeamLink::Outcome
{
    Status status;
    bool cut = false;
    bool needPassword = false;
};

namespace {
constexpr int RenewMs = 15000; // presence is renewed, and a missed notification caught up, this often
}

TeamLink::TeamLink(StoreClient* store, QWidget* window)
    : QObject(window)
    , m_store(store)
    , m_window(window)
    , m_side(std::make_shared<Side>())
    , m_timer(new QTimer(this))
{
    m_timer->setInterval(RenewMs);
    connect(m_timer, &QTimer::timeout, this, [this] {
        if (isAttached() && !m_declined)
            sync();
    });
}

TeamLink::~TeamLink() = default;

QString TeamLink::signature() const
{
    const QString given = Settings::author();
    if (!given.isEmpty())
        return given;
    return m_status.login.isEmpty() ? Reviewer::name() : m_status.login;
}

QString TeamLink::summary() const
{
    if (!isAttached())
        return {};
    QString text;
    if (m_status.connected) {
        text = tr("Team: %1 (%2)").arg(m_status.login, m_status.role);
        if (m_status.syncedMs > 0)
            text += tr(", caught up %1").arg(QDateTime::fromMSecsSinceEpoch(m_status.syncedMs).toString(QStringLiteral("HH:mm:ss")));
    } else {
        text = tr("Team: not connected");
    }
    if (!m_status.conflicts.isEmpty()) {
        text += m_status.conflicts.size() == 1 ? tr(", 1 conflict to settle (File ▸ Team…)")
                                               : tr(", %1 conflicts to settle (File ▸ Team…)").arg(m_status.conflicts.size());
    }
    if (m_status.pending > 0)
        text += m_status.pending == 1 ? tr(", 1 change waiting to go up") : tr(", %1 changes waiting to go up").arg(m_status.pending);
    return text;
}

void TeamLink::workspaceOpened()
{
    m_status = {};
    m_declined = false;
    m_room.reset();
    emit statusChanged();
    run(std::nullopt, false);
}

void TeamLink::attach(const QString& uri)
{
    m_declined = false;
    run(uri, false);
}

void TeamLink::detach()
{
    run(std::nullopt, true);
}

void TeamLink::sync()
{
    run(std::nullopt, false);
}

void TeamLink::setRoom(const std::optional<std::pair<QString, QString>>& room)
{
    if (room == m_room)
        return;
    m_room = room;
    m_status.present.clear();
    emit statusChanged();
    if (isAttached() && m_status.connected)
        sync();
}

void TeamLink::run(const std::optional<QString>& attachTo, bool detachNow)
{
    if (m_busy && !attachTo && !detachNow) {
        m_again = true;
        return;
    }
    m_busy = true;
    auto side = m_side;
    auto out = std::make_shared<Outcome>();
    const QString password = m_password;
    const auto room = m_room;
    const QString given = Settings::author(); // else the team login (below, once it is known)
    QPointer<TeamLink> self(this);
    // Called on the GUI thread by the store's NOTIFY (listen() connects it there, with the link as its context, so it
    // is cut when the link goes).
    std::function<void()> notified = [self] {
        if (self)
            self->sync();
    };
    TeamLink* context = this;
    m_store->run(
        StoreClient::Kind::TeamSync,
        [side, out, attachTo, detachNow, password, room, given, notified, context](Workspace& ws, const CancelToken&) {
            Status& s = out->status;
            if (detachNow) {
                if (side->team) {
                    try {
                        side->team->here(TeamSync::client(ws), std::nullopt, given);
                    } catch (const StoreError&) {
                        // Gone already: nothing to take back.
                    }
                }
                side->team.reset();
                TeamSync::detach(ws);
                return;
            }
            const std::optional<QString> attached = TeamSync::attached(ws);
            const std::optional<QString> uri = attachTo ? attachTo : attached;
            if (!uri) {
                side->team.reset();
                return;
            }
            s.uri = PgConnection::withoutPassword(*uri);
            const QString withPassword = password.isEmpty() ? *uri : PgConnection::withPassword(*uri, password);
            try {
                if (!side->team || side->uri != withPassword) {
                    side->team.reset();
                    side->team = std::make_unique<TeamStore>(withPassword);
                    side->uri = withPassword;
                    // The context is the link, on the GUI thread: a notification arrives there, queued.
                    side->team->listen(context, notified);
                }
                TeamStore& team = *side->team;
                if (attachTo)
                    TeamSync::attach(ws, *attachTo, team.storeId(), team.secret());
                s.login = team.login();
                s.role = TeamStore::roleName(team.role());
                const TeamSync::Result r = TeamSync(ws, team).sync();
                s.sent = r.sent;
                s.taken = r.taken;
                s.unapplied = r.unapplied;
                out->cut = r.cut;
                team.here(TeamSync::client(ws), room, given.isEmpty() ? team.login() : given);
                if (room)
                    s.present = team.presentIn(TeamSync::client(ws), *room);
                s.conflicts = team.conflicts();
                s.connected = true;
            } catch (const PgPasswordNeeded& e) {
                side->team.reset();
                out->needPassword = true;
                s.problem = e.message();
            } catch (const StoreError& e) {
                // Unreachable, refused, no team store there: said, and what was made here waits.
                side->team.reset();
                s.problem = e.toString();
            }
            s.pending = TeamSync::pending(ws);
            s.syncedMs = TeamSync::syncedAt(ws);
        },
        this, [this, out] { landed(*out); },
        [this](const QString& why) {
            m_busy = false;
            m_status.connected = false;
            m_status.problem = why;
            emit statusChanged();
        });
}

void TeamLink::landed(const Outcome& outcome)
{
    m_busy = false;
    const bool wasAttached = isAttached();
    m_status = outcome.status;
    if (isAttached())
        m_timer->start();
    else
        m_timer->stop();
    emit statusChanged();
    if (!m_status.problem.isEmpty() && m_status.connected == false && wasAttached != isAttached())
        emit message(tr("The team store was not reached: %1").arg(m_status.problem));
    if (outcome.needPassword && !m_declined) {
        if (askPassword(outcome.status.problem)) {
            run(outcome.status.uri, false);
            return;
        }
        m_declined = true;
        emit message(tr("Not connected to the team store: no password was given. Changes wait here; File ▸ Team… "
                        "connects."));
    }
    if (m_status.taken > 0 || outcome.cut)
        emit changed(outcome.cut);
    if (m_status.connected)
        emit synced();
    if (m_status.taken > 0)
        emit message(m_status.taken == 1 ? tr("1 change from the team") : tr("%1 changes from the team").arg(m_status.taken));
    if (m_again) {
        m_again = false;
        sync();
    }
}

bool TeamLink::askPassword(const QString& why)
{
    bool ok = false;
    const QString typed = QInputDialog::getText(m_window, tr("Team Store Password"),
        tr("%1\n\nThe password is kept in memory until the window closes, never written.").arg(why), QLineEdit::Password,
        {}, &ok);
    if (!ok || typed.isEmpty())
        return false;
    m_password = typed;
    return true;
}

void TeamLink::settle(qint64 id, const QString& status)
{
    auto side = m_side;
    const QString author = signature();
    m_store->run(
        StoreClient::Kind::TeamSync,
        [side, id, status, author](Workspace& ws, const CancelToken&) {
            if (!side->team)
                throw StoreError({}, {}, QStringLiteral("not connected to the team store"));
            side->team->requireWriter();
            side->team->settle(id, status, author, TeamSync::client(ws) + QStringLiteral(":settle:%1").arg(id));
        },
        this, [this] { sync(); },
        [this](const QString& why) { emit message(tr("The conflict was not settled: %1").arg(why)); });
}

void TeamLink::setRenewInterval(int ms)
{
    m_timer->setInterval(ms);
}

void TeamLink::shutDown()
{
    m_timer->stop();
    if (!m_side->team && !isAttached())
        return;
    auto side = m_side;
    const QString author = signature();
    m_store->run(StoreClient::Kind::TeamSync, [side, author](Workspace& ws, const CancelToken&) {
        if (!side->team)
            return;
        try {
            side->team->here(TeamSync::client(ws), std::nullopt, author);
        } catch (const StoreError&) {
            // The server went first: the row runs out by itself.
        }
        side->team.reset();
    });
}

void TeamLink::queues(std::function<void(const TeamQueues&)> done, std::function<void(const QString&)> failed)
{
    auto side = m_side;
    auto out = std::make_shared<TeamQueues>();
    m_store->run(
        StoreClient::Kind::TeamSync,
        [side, out](Workspace&, const CancelToken&) {
            if (!side->team)
                throw StoreError({}, {}, QStringLiteral("not connected to the team store"));
            *out = side->team->queues();
        },
        this, [done, out] { done(*out); }, failed);
}

void TeamLink::next(const QString& queue, const QString& author,
    std::function<void(const std::optional<TeamQueueRoom>&)> done, std::function<void(const QString&)> failed)
{
    auto side = m_side;
    auto out = std::make_shared<std::optional<TeamQueueRoom>>();
    m_store->run(
        StoreClient::Kind::TeamSync,
        [side, out, queue, author](Workspace&, const CancelToken&) {
            if (!side->team)
                throw StoreError({}, {}, QStringLiteral("not connected to the team store"));
            side->team->requireWriter();
            *out = side->team->nextInQueue(queue, author);
        },
        this, [done, out] { done(*out); }, failed);
}

void TeamLink::finish(const QString& queue, const std::pair<QString, QString>& room, const QString& author,
    std::function<void(const TeamQueueRoom&)> done, std::function<void(const QString&)> failed)
{
    auto side = m_side;
    auto out = std::make_shared<TeamQueueRoom>();
    m_store->run(
        StoreClient::Kind::TeamSync,
        [side, out, queue, room, author](Workspace&, const CancelToken&) {
            if (!side->team)
                throw StoreError({}, {}, QStringLiteral("not connected to the team store"));
            side->team->requireWriter();
            *out = side->team->doneInQueue(queue, room, author);
        },
        this, [done, out] { done(*out); }, failed);
}
