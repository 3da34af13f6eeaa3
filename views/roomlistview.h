#pragma once

#include <array>
#include <QHash>

#include <QVector>
#include <QWidget>

class QLineEdit;
class RoomFilterProxy;
class QToolButton;
class QTimer;
class QTreeView;
class RoomListModel;

// The room list: a filter field over id, title and participant, a menu of what rooms hold (failed calls,
// blocked rows, a channel type, recent activity), and a sortable table of rooms with their counts.
class RoomListView : public QWidget
{
    Q_OBJECT
public:
    explicit RoomListView(RoomListModel* model, QWidget* parent = nullptr);

    QLineEdit* filterEdit() const { return m_filter; }
    QTreeView* view() const { return m_view; }
    RoomFilterProxy* proxy() const { return m_proxy; }
    QToolButton* showButton() const { return m_show; } // the menu of what rooms hold
    // Selects the room with this workspace id; false when the filter hides it or it does not exist.
    bool selectRoom(qint64 roomId);
    // Every room listed again: the filter text and every condition of Show cleared.
    void showAllRooms();
    qint64 currentRoom() const;
    QVector<qint64> selectedRooms() const; // the rooms selected, in the list's order

signals:
    void roomActivated(qint64 roomId);

private:
    RoomListModel* m_model;
    void fillShowMenu();
    void showActiveFilters();
    void keepCurrentInView(); // the room shown scrolled into view after a filter changed the rooms listed
    // As narrow as the counts allow, wider while a room is read ("reading… N of M" beside a readable title).
    void fitWidth();
    // The figures the columns were last sized for: the widest events, problems, blocked rows and tool calls, the
    // biggest room read in part, the room being read (its source count), and whether an import is reading rooms.
    std::array<qint64, 7> m_fitted { -1, -1, -1, -1, -1, -1, -1 };
    bool m_sized = false;
    QHash<int, int> m_fittedWidths; // by column, the width fitWidth() last gave it
    QHash<int, int> m_draggedWidths; // by column, the width a reviewer last dragged it to
    QTimer* m_fit = nullptr;
    void clearConditions(); // every condition of Show, not the filter text

    RoomFilterProxy* m_proxy;
    QToolButton* m_show;
    QLineEdit* m_filter;
    QTreeView* m_view;
};
