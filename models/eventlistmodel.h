#pragma once

#include "annotation.h"
#include "eventfilter.h"
#include "eventrecord.h"
#include "rowindex.h"
#include "toolcallrecord.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QPointer>
#include <QSet>

class StoreClient;

// A room's events, one row each, read from the store worker in blocks as the view reaches them: the model never
// holds a whole room. The store first answers with the room's first block (the first screen), then with a
// RowIndex (the counts and the index at the start of every block), after which the model has a row for every
// shown event and reads any block with a keyset query from its anchor. Only the blocks used last stay in memory;
// a row whose block is not in memory has no record yet (data() asks for its block and answers with a
// placeholder). Every request carries a generation; a reply for an older room or filter is dropped.
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
        RecordRole, // the EventRecord; nothing while the row's block is loading
        CallRole, // the ToolCallRecord shown at this row (timeline mode), or nothing
        ExpandedRole, // whether the item is open (settable)
        GroupPositionRole, // GroupPosition: where the row sits in its AI response
        LoadedRole, // whether the row's record is in memory
        MarkedRole, // whether a reviewer marked the event
        LabelsRole, // its labels' names (QStringList)
        NotesRole, // its notes' texts (QStringList)
        LabelColorsRole, // every label's colour by name (QVariantMap of "#rrggbb")
    };
    enum GroupPosition { NoGroup, GroupFirst, GroupMiddle, GroupLast, GroupSingle };
    // Raw: every stored row. Timeline: one row per item (a call's card at its start, a message once).
    enum class Mode { Raw, Timeline };
    static constexpr int BlockSize = 256;
    // At most this many blocks stay in memory (16,384 rows), whatever the size of the room.
    static constexpr int MaxBlocks = 64;

    // The model shows the client's view (StoreClient::setView): one event model per client.
    explicit EventListModel(StoreClient* client, QObject* parent = nullptr);

    // Shows `roomId` under `filter` (0: nothing). Clears the rows and reads the first block and the row index.
    void setRoom(qint64 roomId, const EventFilter& filter = {});
    void setMode(Mode mode); // reloads the room
    // Reads the room again where it stands (it grew, or rows changed): no reset, the rows held stay until their
    // blocks come again, new rows are inserted at the end, and the selection and open items keep their place.
    void refresh();
    Mode mode() const { return m_mode; }
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    qint64 roomId() const { return m_roomId; }
    const EventFilter& filter() const { return m_filter; }
    // The record at `row`, or nullptr while its block is not in memory (asking does not load it).
    const EventRecord* loadedRecord(int row) const;
    // Asks for the blocks that hold rows `first` to `last` (a view calls it with what it is about to show).
    void fetchRows(int first, int last) const;
    bool isLoading() const { return !m_requested.isEmpty() || (m_roomId != 0 && !m_index); }
    bool isIndexed() const { return m_index.has_value(); }
    // Rows are being inserted because the room's row index came for the first time: the rest of the rows it had
    // when it was opened, not rows it gained (TimelineView says only those).
    bool isPlacingTheRoom() const { return m_placingTheRoom; }
    int blocksInMemory() const { return int(m_blocks.size()); }
    qint64 shownCount() const { return m_shown; } // what the filter lets through, -1 until counted
    qint64 totalCount() const { return m_total; } // every row of the room, -1 until counted
    // The row showing the event at `index`, or -1 when it is not in memory (or not shown under the filter).
    int rowOfIndex(qint64 index) const;
    // Finds the row of the event at `index`, loading its block, then emits indexReady (row -1 when the
    // filter hides it).
    void locate(qint64 index);

    // What reviewers added to the room (notes, labels, marks, its review), read when the room is set and again
    // when reloadAnnotations() is called after an edit; the rows whose annotations changed are repainted.
    void reloadAnnotations();
    const Annotations& annotations() const { return m_annotations; }
    Annotations annotationsAt(qint64 index) const; // the event's (its card's), oldest first
    const QMap<QString, QString>& labelColors() const { return m_labelColors; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

signals:
    void countsChanged(qint64 shown, qint64 total);
    void rowsLoaded(int first, int last); // a block came in
    void indexReady(qint64 index, int row);
    // A block (-1: the row index) could not be read: its rows say so instead of "Loading…".
    void blockFailed(int block, const QString& message);
    void annotationsChanged(); // the room's annotations were read again

private:
    struct Block
    {
        EventRecords rows;
        QHash<qint64, ToolCallRecord> calls; // by the index of the row that shows them
        mutable quint64 used = 0; // when it was last read, for eviction
    };

    void onRowsIndexed(const RowIndex& index);
    void onBlockLoaded(int block, const EventRecords& events, const ToolCallRecords& calls);
    void onFailed(quint64 request, const QString& message);
    const EventRecord* recordAt(int row) const; // asks for the block when it is not in memory
    const Block* blockAt(int row) const;
    void requestBlock(int block) const;
    void evict();
    void resolveWanted();
    EventFilter queryFilter() const;
    GroupPosition groupPosition(int row) const;

    QPointer<StoreClient> m_client;
    qint64 m_roomId = 0;
    EventFilter m_filter;
    Mode m_mode = Mode::Raw;
    int m_rowCount = 0;
    std::optional<RowIndex> m_index;
    QHash<int, Block> m_blocks;
    mutable QHash<int, quint64> m_requested; // blocks asked for and not yet answered: their requests
    QHash<int, QString> m_failed; // blocks that could not be read, and why (until the room is shown again)
    quint64 m_indexRequest = 0;
    bool m_refreshing = false; // refresh(): the next row index replaces the one held
    bool m_placingTheRoom = false; // isPlacingTheRoom()
    mutable quint64 m_tick = 0;
    qint64 m_shown = -1;
    qint64 m_total = -1;
    std::optional<qint64> m_wanted; // an index locate() is waiting for
    QSet<qint64> m_expanded; // indexes of the open items
    void onAnnotationsLoaded(qint64 roomId, const Annotations& annotations, const QMap<QString, QString>& colors);
    Annotations m_annotations; // the room's, as last read
    QMultiHash<qint64, int> m_annotated; // event index -> position in m_annotations
    QMap<QString, QString> m_labelColors;
    quint64 m_annotationsRequest = 0;
};
