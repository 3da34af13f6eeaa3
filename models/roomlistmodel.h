#pragma once

#include "roomsummary.h"

#include <QAbstractTableModel>
#include <QHash>
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
    // The room with this workspace id, or nullptr when the list does not hold it. Valid until the next setRooms.
    const RoomSummary* room(qint64 roomId) const;
    qsizetype rowOf(qint64 roomId) const { return m_rowOf.value(roomId, -1); } // -1: not in the list
    // The room an import reads now (0: none): its Events say "reading… N of M".
    void setReading(qint64 roomId);
    qint64 reading() const { return m_reading; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // The icon the Room column shows for a room in review (a ring) or done (a disc with a tick).
    static QIcon reviewIcon(bool done);
    // The icon the Events column shows for a room its source holds more of than was read: a pie of the part read
    // (an empty ring: not read yet).
    static QIcon readIcon(qint64 read, qint64 total);

private:
    RoomSummaries m_rooms;
    QHash<qint64, qsizetype> m_rowOf; // a room's row by its id: the window looks rooms up by id at every refresh
    qint64 m_reading = 0;
};
