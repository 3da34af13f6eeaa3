#pragma once

#include <QWidget>

class QLineEdit;
class QSortFilterProxyModel;
class QTreeView;
class RoomListModel;

// The room list: a filter field over id and title, and a sortable table of rooms with their counts.
class RoomListView : public QWidget
{
    Q_OBJECT
public:
    explicit RoomListView(RoomListModel* model, QWidget* parent = nullptr);

    QLineEdit* filterEdit() const { return m_filter; }
    QTreeView* view() const { return m_view; }
    // Selects the room with this workspace id; false when the filter hides it or it does not exist.
    bool selectRoom(qint64 roomId);
    qint64 currentRoom() const;

signals:
    void roomActivated(qint64 roomId);

private:
    RoomListModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QLineEdit* m_filter;
    QTreeView* m_view;
};
