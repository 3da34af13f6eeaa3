#include "queuedock.h"

#include "reviewer.h"
#include "teamlink.h"

#include <QAction>
#include <QDateTime>
#include <QHeaderView>
#include <QLabel>
#include <QToolBar>
#include <QTreeWidget>
#include <QVBoxLayout>

QueueDock::QueueDock(TeamLink* link, QWidget* parent)
    : QDockWidget(tr("Queues"), parent)
    , m_link(link)
    , m_list(new QTreeWidget(this))
    , m_held(new QLabel(this))
    , m_next(new QAction(tr("&Next Room in Queue"), this))
    , m_done(new QAction(tr("&Done with Room"), this))
{
    setObjectName(QStringLiteral("queueDock"));
    m_list->setHeaderLabels({ tr("Queue"), tr("Done"), tr("In review"), tr("Left"), tr("By reviewer") });
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true);
    m_list->header()->setStretchLastSection(true);
    m_held->setWordWrap(true);
    m_next->setIconText(tr("Next Room"));
    m_done->setIconText(tr("Done"));
    m_next->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_N));
    m_next->setStatusTip(tr("The room you review next in the selected queue, held for you"));
    m_done->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_D));
    m_done->setStatusTip(tr("Finish the room you hold: its review is set done, saved and shared"));
    auto* tools = new QToolBar(this);
    tools->setToolButtonStyle(Qt::ToolButtonTextOnly);
    tools->addAction(m_next);
    tools->addAction(m_done);
    tools->addAction(tr("Refresh"), this, &QueueDock::refresh);
    auto* body = new QWidget(this);
    auto* layout = new QVBoxLayout(body);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(tools);
    layout->addWidget(m_list);
    layout->addWidget(m_held);
    setWidget(body);
    connect(m_next, &QAction::triggered, this, &QueueDock::takeNext);
    connect(m_done, &QAction::triggered, this, &QueueDock::finish);
    connect(this, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (visible)
            refresh();
    });
    // Each sync that lands moves what the team did meanwhile (rooms taken, finished): read again while shown.
    connect(m_link, &TeamLink::synced, this, [this] { refresh(); });
    // Next stays enabled: pressed with no team store connected, it says how to get one rather than nothing.
    connect(m_link, &TeamLink::statusChanged, this, [this] {
        m_done->setEnabled(m_link->status().connected && m_room.has_value());
        showHeld();
    });
    m_done->setEnabled(false);
    showHeld();
}

void QueueDock::refresh()
{
    if (isHidden() || !m_link->status().connected)
        return;
    m_link->queues([this](const TeamQueues& queues) { showQueues(queues); },
        [this](const QString& why) { emit message(tr("The queues were not read: %1").arg(why)); });
}

void QueueDock::showQueues(const TeamQueues& queues)
{
    const bool take = m_takeWhenRead;
    m_takeWhenRead = false;
    const QString selected = selectedQueue();
    m_queues = queues;
    m_list->clear();
    for (const TeamQueue& q : queues) {
        QStringList shares;
        for (auto it = q.byReviewer.cbegin(); it != q.byReviewer.cend(); ++it) {
            shares << tr("%1 %2 done%3")
                          .arg(it.key())
                          .arg(it->done)
                          .arg(it->inReview > 0 ? tr(", %1 in review").arg(it->inReview) : QString());
        }
        auto* item = new QTreeWidgetItem(m_list,
            { q.name, QString::number(q.done), QString::number(q.inReview), QString::number(q.left()),
                shares.join(QStringLiteral("; ")) });
        QStringList tip;
        if (!q.query.isEmpty())
            tip << tr("Rooms with events that match: %1").arg(q.query);
        if (!q.instructions.isEmpty())
            tip << tr("Instructions: %1").arg(q.instructions);
        tip << (q.rooms == 1 ? tr("1 room, held for %1 min").arg(q.lockSeconds / 60)
                             : tr("%1 rooms, each held for %2 min").arg(q.rooms).arg(q.lockSeconds / 60));
        tip << (q.reviewers.isEmpty() ? tr("Taken by every reviewer") : tr("Taken by %1").arg(q.reviewers.join(QStringLiteral(", "))));
        for (int c = 0; c < m_list->columnCount(); ++c)
            item->setToolTip(c, tip.join(QLatin1Char('\n')));
        if (q.name == selected || (selected.isEmpty() && m_list->topLevelItemCount() == 1))
            m_list->setCurrentItem(item);
    }
    for (int c = 0; c < 4; ++c)
        m_list->resizeColumnToContents(c);
    if (!m_list->currentItem() && m_list->topLevelItemCount() > 0)
        m_list->setCurrentItem(m_list->topLevelItem(0));
    if (take)
        takeNext();
}

QString QueueDock::selectedQueue() const
{
    return m_list->currentItem() ? m_list->currentItem()->text(0) : QString();
}

QString QueueDock::heldText() const
{
    return m_held->text();
}

void QueueDock::showHeld()
{
    if (!m_link->isAttached()) {
        m_held->setText(tr("Attach the workspace to a team store (File ▸ Team…) to take rooms from its queues."));
    } else if (m_room) {
        m_held->setText(tr("Yours: %1 (queue \"%2\") until %3. Ctrl+Alt+D when done.")
                            .arg(m_room->room, m_roomQueue,
                                QDateTime::fromMSecsSinceEpoch(m_room->untilMs).toString(QStringLiteral("HH:mm"))));
    } else {
        m_held->setText(tr("Next Room (Ctrl+Alt+N) takes the next room of the selected queue and holds it for you."));
    }
}

void QueueDock::takeNext()
{
    if (!m_link->status().connected) {
        show();
        emit message(m_link->isAttached() ? tr("Not connected to the team store: File ▸ Team… connects")
                                          : tr("Queues are a team store's: attach this workspace to one with File ▸ Team…"));
        return;
    }
    const QString queue = selectedQueue();
    if (queue.isEmpty() && !m_takeWhenRead && m_queues.isEmpty()) {
        // Asked before the queues were read (the dock just shown): taken once they are.
        m_takeWhenRead = true;
        show();
        refresh();
        return;
    }
    if (queue.isEmpty()) {
        emit message(m_queues.isEmpty() ? tr("The team store has no queue you may take rooms from: an admin makes one "
                                             "with sightline queue create")
                                        : tr("Select a queue in the Queues dock first"));
        return;
    }
    m_link->next(
        queue, m_link->signature(),
        [this, queue](const std::optional<TeamQueueRoom>& room) {
            if (!room) {
                emit message(tr("Queue \"%1\": nothing left for you").arg(queue));
                refresh();
                return;
            }
            m_room = room;
            m_roomQueue = queue;
            m_done->setEnabled(true);
            showHeld();
            QString instructions;
            for (const TeamQueue& q : m_queues) {
                if (q.name == queue)
                    instructions = q.instructions;
            }
            emit roomTaken(room->system, room->room, instructions);
            refresh();
        },
        [this](const QString& why) { emit message(tr("No room was taken: %1").arg(why)); });
}

void QueueDock::finish()
{
    if (!m_room) {
        emit message(tr("You hold no room: take one with Next Room (Ctrl+Alt+N)"));
        return;
    }
    const TeamQueueRoom held = *m_room;
    m_link->finish(
        m_roomQueue, { held.system, held.room }, m_link->signature(),
        [this, held](const TeamQueueRoom& done) {
            m_room.reset();
            m_done->setEnabled(false);
            showHeld();
            if (done.login != m_link->status().login) {
                emit message(tr("%1 was finished already, by %2").arg(done.room, done.author));
            } else {
                emit roomFinished(held.system, held.room);
            }
            refresh();
        },
        [this](const QString& why) { emit message(tr("The room was not finished: %1").arg(why)); });
}
