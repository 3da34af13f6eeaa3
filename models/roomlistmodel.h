#pragma once

#include "roomsummary.h"

#include <QAbstractTableModel>
#include <QIcon>

// The rooms of a workspace with their counts. A short list held in memory: sorting and the text filter
// run in a proxy over it.
class RoomListModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        // What a reviewer scans first comes first: a narrow list still shows the events and the problems.
        RoomColumn, // with the room's review status as its icon
        EventsColumn,
        ProblemsColumn, // failed, refused or never answered calls
        BlockedColumn,
        ReviewColumn, // unreviewed (empty), in review, done, and who set it
        ToolCallsColumn,
        LastActivityColumn,
        SystemColumn,
        NUM_COLUMNS
    };
    enum Roles { RoomIdRole = Qt::UserRole, NativeIdRole, SortRole, FilterRole, ReviewRole };

    explicit RoomListModel(QObject* parent = nullptr);

    void setRooms(const RoomSummaries& rooms);
    const RoomSummaries& rooms() const { return m_rooms; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // The icon the Room column shows for a room in review (a ring) or done (a disc with a tick).
    static QIcon reviewIcon(bool done);

private:
    RoomSummaries m_rooms;
};
