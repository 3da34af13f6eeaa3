#pragma once

#include "eventfilter.h"
#include "eventrecord.h"
#include "toolcallrecord.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QPointer>
#include <QSet>

class StoreWorker;

// A room's events, one row each, read from the store worker a page at a time as the view scrolls
// (fetchMore with an index cursor, never OFFSET). Every request carries a generation; a reply for an older
// room or filter is dropped. Rows are appended in batches on the GUI thread.
class EventListModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { IndexColumn, TimeColumn, TypeColumn, ChannelColumn, TextColumn, NUM_COLUMNS };
    enum Roles {
        RowIdRole = Qt::UserRole,
        EventIndexRole,
        KindRole,
        BlockedRole,
        OutcomeRole,
        RecordRole, // the EventRecord
        CallRole, // the ToolCallRecord shown at this row (timeline mode), or nothing
        ExpandedRole, // whether the item is open (settable)
        GroupPositionRole, // GroupPosition: where the row sits in its AI response
    };
    enum GroupPosition { NoGroup, GroupFirst, GroupMiddle, GroupLast, GroupSingle };
    // Raw: every stored row. Timeline: one row per item (a call's card at its start, a message once).
    enum class Mode { Raw, Timeline };
    static constexpr int PageSize = 200;

    explicit EventListModel(StoreWorker* worker, QObject* parent = nullptr);
    // Counts go to this worker (its own connection to the same workspace), so they never hold up a page.
    void setCountWorker(StoreWorker* counter);

    // Shows `roomId` under `filter` (0: nothing). Clears the rows and reads the first page.
    void setRoom(qint64 roomId, const EventFilter& filter = {});
    void setMode(Mode mode); // reloads the room
    Mode mode() const { return m_mode; }
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    qint64 roomId() const { return m_roomId; }
    const EventFilter& filter() const { return m_filter; }
    const EventRecord& record(int row) const { return m_rows.at(row); }
    bool isLoading() const { return m_pending; }
    qint64 shownCount() const { return m_shown; } // what the filter lets through, -1 until counted
    qint64 totalCount() const { return m_total; } // every row of the room, -1 until counted
    // The row showing the event at `index`, or -1 when it is not loaded (or not shown under the filter).
    int rowOfIndex(qint64 index) const;
    // Loads pages until the event at `index` is in, then emits indexReady (row -1 when the filter hides it).
    void loadThrough(qint64 index);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    bool canFetchMore(const QModelIndex& parent) const override;
    void fetchMore(const QModelIndex& parent) override;

signals:
    void countsChanged(qint64 shown, qint64 total);
    void pageLoaded();
    void indexReady(qint64 index, int row);

private:
    void onEventsLoaded(quint64 generation, qint64 roomId, const EventRecords& events);
    void onTimelineLoaded(quint64 generation, qint64 roomId, const EventRecords& events, const ToolCallRecords& calls);
    GroupPosition groupPosition(int row) const;
    void onCounted(quint64 generation, qint64 roomId, qint64 shown, qint64 total);
    void requestPage();

    QPointer<StoreWorker> m_worker;
    QPointer<StoreWorker> m_counter;
    qint64 m_roomId = 0;
    EventFilter m_filter;
    EventRecords m_rows;
    quint64 m_generation = 0;
    bool m_pending = false;
    bool m_atEnd = true;
    qint64 m_shown = -1;
    qint64 m_total = -1;
    std::optional<qint64> m_wanted; // an index loadThrough is waiting for
    Mode m_mode = Mode::Raw;
    QHash<qint64, ToolCallRecord> m_calls; // by the index of the row that shows them
    QSet<qint64> m_expanded; // indexes of the open items
};
