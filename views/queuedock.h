#pragma once

#include "team/teamqueue.h"
#include "team/teamqueueroom.h"

#include <optional>
#include <QDockWidget>

class QAction;
class QLabel;
class QTreeWidget;
class TeamLink;

// The Queue dock: the team store's queues with the team's progress in each, and the two keys of a review round:
// Next Room (the room this reviewer reviews next, held for them) and Done (finished: its review done and shared).
// MainWindow shows the room taken and sets its review; the dock keeps which room is held, from which queue.
class QueueDock : public QDockWidget
{
    Q_OBJECT
public:
    QueueDock(TeamLink* link, QWidget* parent = nullptr);

    // Reads the queues again (while the dock is shown and the link is connected).
    void refresh();
    QTreeWidget* list() const { return m_list; }
    QAction* nextAction() const { return m_next; }
    QAction* doneAction() const { return m_done; }
    QString heldText() const; // what the dock says of the room held
    QString selectedQueue() const;

signals:
    void roomTaken(const QString& system, const QString& room, const QString& instructions);
    void roomFinished(const QString& system, const QString& room);
    void message(const QString& text);

private:
    void takeNext();
    void finish();
    void showQueues(const TeamQueues& queues);
    void showHeld();

    TeamLink* m_link;
    QTreeWidget* m_list;
    QLabel* m_held;
    QAction* m_next;
    QAction* m_done;
    TeamQueues m_queues;
    std::optional<TeamQueueRoom> m_room; // the room this reviewer holds
    QString m_roomQueue; // the queue it came from
    bool m_takeWhenRead = false; // Next was asked before the queues were read
};
