#include "eventlistmodel.h"

#include "eventflags.h"
#include "presentation.h"
#include "reporttext.h"
#include "storeclient.h"
#include "timeutil.h"

#include <QBrush>
#include <QDateTime>
#include <QFont>
#include <QGuiApplication>
#include <QPalette>

EventListModel::EventListModel(StoreClient* client, QObject* parent)
    : QAbstractTableModel(parent)
    , m_client(client)
{
    // The client drops the answers of an earlier view: what comes is this room under this filter.
    connect(client, &StoreClient::annotationsLoaded, this,
        [this](quint64, qint64 roomId, const Annotations& annotations, const QMap<QString, QString>& colours) {
            onAnnotationsLoaded(roomId, annotations, colours);
        });
    connect(client, &StoreClient::rowsIndexed, this, [this](quint64, qint64, const RowIndex& index) { onRowsIndexed(index); });
    connect(client, &StoreClient::blockLoaded, this,
        [this](quint64, qint64, int block, const EventRecords& events, const ToolCallRecords& calls) {
            onBlockLoaded(block, events, calls);
        });
    connect(client, &StoreClient::failed, this, [this](quint64 request, StoreClient::Kind kind, const QString& message) {
        if (kind == StoreClient::Kind::Block || kind == StoreClient::Kind::RowIndex)
            onFailed(request, message);
    });
}

EventFilter EventListModel::queryFilter() const
{
    EventFilter f = m_filter;
    f.timelineItems = m_mode == Mode::Timeline;
    return f;
}

void EventListModel::setRoom(qint64 roomId, const EventFilter& filter)
{
    beginResetModel();
    m_blocks.clear();
    m_requested.clear();
    m_failed.clear();
    m_refreshing = false;
    m_index.reset();
    m_rowCount = 0;
    if (roomId != m_roomId)
        m_expanded.clear();
    const bool newRoom = roomId != m_roomId;
    m_roomId = roomId;
    m_filter = filter;
    m_wanted.reset();
    if (newRoom) {
        m_annotations.clear();
        m_annotated.clear();
    }
    m_shown = m_total = roomId == 0 ? 0 : -1;
    endResetModel();
    emit countsChanged(m_shown, m_total);
    if (!m_client)
        return;
    // The client asks for the first block (the first screen) and then the row index.
    const StoreClient::ViewRequests asked = m_client->setView(roomId, queryFilter(), BlockSize);
    m_indexRequest = asked.index;
    if (roomId != 0)
        m_requested.insert(0, asked.firstBlock);
    if (newRoom && roomId != 0)
        reloadAnnotations();
}

void EventListModel::reloadAnnotations()
{
    if (m_client && m_roomId != 0)
        m_annotationsRequest = m_client->loadAnnotations(m_roomId);
}

Annotations EventListModel::annotationsAt(qint64 index) const
{
    QVector<int> at = m_annotated.values(index);
    std::sort(at.begin(), at.end());
    Annotations out;
    for (int i : at)
        out.append(m_annotations.at(i));
    return out;
}

void EventListModel::onAnnotationsLoaded(
    qint64 roomId, const Annotations& annotations, const QMap<QString, QString>& colors)
{
    if (roomId != m_roomId)
        return;
    // The events whose annotations changed, before and after, are repainted where they are in memory.
    QSet<qint64> touched;
    auto key = [](const Annotation& a) { return std::tuple(a.id, a.value, a.index.value_or(-1), a.detached); };
    QSet<qint64> oldIds, newIds;
    QHash<qint64, Annotation> before;
    for (const Annotation& a : m_annotations)
        before.insert(a.id, a);
    for (const Annotation& a : annotations) {
        const auto it = before.constFind(a.id);
        if (it == before.constEnd() || key(*it) != key(a)) {
            if (a.index)
                touched.insert(*a.index);
        }
        before.remove(a.id);
    }
    for (const Annotation& gone : before) {
        if (gone.index)
            touched.insert(*gone.index);
    }
    const bool coloursChanged = colors != m_labelColors;
    m_annotations = annotations;
    m_labelColors = colors;
    m_annotated.clear();
    for (int i = 0; i < m_annotations.size(); ++i) {
        const Annotation& a = m_annotations.at(i);
        if (a.index && !a.detached)
            m_annotated.insert(*a.index, i);
    }
    if (coloursChanged && m_rowCount > 0) {
        emit dataChanged(index(0, 0), index(m_rowCount - 1, NUM_COLUMNS - 1));
    } else {
        for (qint64 i : std::as_const(touched)) {
            const int row = rowOfIndex(i);
            if (row >= 0)
                emit dataChanged(index(row, 0), index(row, NUM_COLUMNS - 1));
        }
    }
    emit annotationsChanged();
}

void EventListModel::requestBlock(int block) const
{
    if (!m_client || m_roomId == 0 || m_blocks.contains(block) || m_requested.contains(block))
        return;
    std::optional<qint64> from;
    if (m_index) {
        if (block < 0 || block >= m_index->anchors.size())
            return;
        from = m_index->anchors.at(block);
    } else if (block != 0) {
        return; // only the first block can be read before the index says where the others start
    }
    m_requested.insert(block, m_client->loadBlock(block, from));
}

void EventListModel::fetchRows(int first, int last) const
{
    if (m_rowCount == 0)
        return;
    first = std::clamp(first, 0, m_rowCount - 1);
    last = std::clamp(last, first, m_rowCount - 1);
    for (int block = first / BlockSize; block <= last / BlockSize; ++block)
        requestBlock(block);
}

void EventListModel::refresh()
{
    if (m_roomId == 0 || !m_client)
        return;
    if (!m_index) {
        setRoom(m_roomId, m_filter); // nothing is held yet that would be kept
        return;
    }
    // The rows and blocks held stay on screen while the room is read again under a new view; the new row
    // index says which of them still start where they did (asked again) and which moved (dropped).
    m_requested.clear();
    m_failed.clear();
    m_refreshing = true;
    const StoreClient::ViewRequests asked = m_client->setView(m_roomId, queryFilter(), BlockSize);
    m_indexRequest = asked.index;
    m_requested.insert(0, asked.firstBlock);
}

void EventListModel::onRowsIndexed(const RowIndex& index)
{
    QVector<int> moved;
    if (std::exchange(m_refreshing, false) && m_index) {
        for (auto it = m_blocks.begin(); it != m_blocks.end();) {
            const int block = it.key();
            const bool same = block < index.anchors.size() && block < m_index->anchors.size()
                && index.anchors.at(block) == m_index->anchors.at(block);
            if (!same) {
                moved << block;
                it = m_blocks.erase(it);
                continue;
            }
            if (block != 0) // block 0 was asked with the view
                m_requested.insert(block, m_client->loadBlock(block, index.anchors.at(block)));
            ++it;
        }
    }
    // The first block was read on another connection: if the workspace changed in between, start again from
    // what the index says rather than show rows that disagree with it.
    const auto first = m_blocks.constFind(0);
    if (first != m_blocks.constEnd() && !first->rows.isEmpty()
        && (index.anchors.isEmpty() || first->rows.constFirst().index != index.anchors.constFirst())) {
        m_blocks.clear();
        if (m_rowCount > 0)
            emit dataChanged(this->index(0, 0), this->index(m_rowCount - 1, NUM_COLUMNS - 1));
    }
    const bool firstIndex = !m_index;
    m_index = index;
    const int rows = int(std::min<qint64>(index.rows, std::numeric_limits<int>::max()));
    if (rows > m_rowCount) {
        m_placingTheRoom = firstIndex;
        beginInsertRows({}, m_rowCount, rows - 1);
        m_rowCount = rows;
        endInsertRows();
        m_placingTheRoom = false;
    } else if (rows < m_rowCount) {
        beginRemoveRows({}, rows, m_rowCount - 1);
        m_rowCount = rows;
        endRemoveRows();
    }
    for (int block : moved) {
        // Rows whose block moved show as loading until a view asks for them again.
        const int first = block * BlockSize;
        const int last = std::min(first + BlockSize, m_rowCount) - 1;
        if (last >= first)
            emit dataChanged(this->index(first, 0), this->index(last, NUM_COLUMNS - 1));
    }
    m_shown = index.shown;
    m_total = index.total;
    emit countsChanged(m_shown, m_total);
    resolveWanted();
}

void EventListModel::onFailed(quint64 request, const QString& message)
{
    // A block that could not be read says so on its rows (not "Loading…" for ever); a view that shows it again
    // asks for it again.
    for (auto it = m_requested.begin(); it != m_requested.end(); ++it) {
        if (it.value() != request)
            continue;
        const int block = it.key();
        m_requested.erase(it);
        m_failed.insert(block, message);
        const int first = block * BlockSize;
        const int last = std::min(first + BlockSize, m_rowCount) - 1;
        if (last >= first)
            emit dataChanged(index(first, 0), index(last, NUM_COLUMNS - 1));
        emit blockFailed(block, message);
        return;
    }
    if (request == m_indexRequest)
        emit blockFailed(-1, message); // the counts stay unknown, and the window says why
}

void EventListModel::onBlockLoaded(int block, const EventRecords& events, const ToolCallRecords& calls)
{
    m_requested.remove(block);
    m_failed.remove(block);
    Block b;
    b.rows = events;
    b.used = ++m_tick;
    for (const ToolCallRecord& c : calls) {
        const std::optional<qint64> at = c.startIndex ? c.startIndex : c.endIndex ? c.endIndex : c.resultIndex;
        b.calls.insert(*at, c);
    }
    const int first = block * BlockSize;
    const int count = int(events.size());
    if (!m_index) {
        // The first screen, before the index: its rows go in as one batch.
        m_blocks.insert(block, std::move(b));
        if (count > 0) {
            beginInsertRows({}, 0, count - 1);
            m_rowCount = count;
            endInsertRows();
        }
    } else {
        m_blocks.insert(block, std::move(b));
        evict();
        const int last = std::min(first + BlockSize, m_rowCount) - 1;
        if (last >= first) {
            // The rows on either side too: where they sit in their AI response may have changed.
            emit dataChanged(
                index(std::max(0, first - 1), 0), index(std::min(m_rowCount - 1, last + 1), NUM_COLUMNS - 1));
        }
    }
    if (count > 0)
        emit rowsLoaded(first, first + count - 1);
    resolveWanted();
}

void EventListModel::evict()
{
    while (m_blocks.size() > MaxBlocks) {
        auto oldest = m_blocks.begin();
        for (auto it = m_blocks.begin(); it != m_blocks.end(); ++it) {
            if (it->used < oldest->used)
                oldest = it;
        }
        m_blocks.erase(oldest);
    }
}

const EventListModel::Block* EventListModel::blockAt(int row) const
{
    if (row < 0 || row >= m_rowCount)
        return nullptr;
    const auto it = m_blocks.constFind(row / BlockSize);
    if (it == m_blocks.constEnd() || row % BlockSize >= it->rows.size())
        return nullptr;
    return &*it;
}

const EventRecord* EventListModel::loadedRecord(int row) const
{
    const Block* b = blockAt(row);
    return b ? &b->rows.at(row % BlockSize) : nullptr;
}

const EventRecord* EventListModel::recordAt(int row) const
{
    const Block* b = blockAt(row);
    if (!b) {
        if (!m_failed.contains(row / BlockSize))
            requestBlock(row / BlockSize);
        return nullptr;
    }
    b->used = ++m_tick;
    return &b->rows.at(row % BlockSize);
}

void EventListModel::resolveWanted()
{
    if (!m_wanted)
        return;
    const qint64 wanted = *m_wanted;
    int block = 0;
    if (m_index) {
        block = m_index->blockOf(wanted);
        if (block < 0) {
            m_wanted.reset();
            emit indexReady(wanted, -1);
            return;
        }
    }
    const auto it = m_blocks.constFind(block);
    if (it == m_blocks.constEnd()) {
        requestBlock(block);
        return;
    }
    // Before the index only the first block is known: it answers when it holds the event or ends before it.
    const bool known
        = m_index || it->rows.size() < BlockSize || (!it->rows.isEmpty() && it->rows.constLast().index >= wanted);
    if (!known)
        return;
    m_wanted.reset();
    emit indexReady(wanted, rowOfIndex(wanted));
}

void EventListModel::locate(qint64 index)
{
    m_wanted = index;
    if (m_roomId == 0) {
        m_wanted.reset();
        emit indexReady(index, -1);
        return;
    }
    resolveWanted();
}

void EventListModel::setMode(Mode mode)
{
    if (mode == m_mode)
        return;
    m_mode = mode;
    setRoom(m_roomId, m_filter);
}

bool EventListModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (role != ExpandedRole || !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return false;
    const EventRecord* e = loadedRecord(index.row());
    if (!e)
        return false;
    if (value.toBool() == m_expanded.contains(e->index))
        return true;
    if (value.toBool())
        m_expanded.insert(e->index);
    else
        m_expanded.remove(e->index);
    emit dataChanged(this->index(index.row(), 0), this->index(index.row(), NUM_COLUMNS - 1), { ExpandedRole });
    return true;
}

EventListModel::GroupPosition EventListModel::groupPosition(int row) const
{
    const QString& group = loadedRecord(row)->groupId;
    if (group.isEmpty())
        return NoGroup;
    // A neighbour not in memory counts as outside the group until its block comes (which repaints this row).
    const EventRecord* previous = loadedRecord(row - 1);
    const EventRecord* next = loadedRecord(row + 1);
    const bool before = previous && previous->groupId == group;
    const bool after = next && next->groupId == group;
    return before ? (after ? GroupMiddle : GroupLast) : (after ? GroupFirst : GroupSingle);
}

int EventListModel::rowOfIndex(qint64 index) const
{
    const int block = m_index ? m_index->blockOf(index) : 0;
    const auto it = m_blocks.constFind(block);
    if (block < 0 || it == m_blocks.constEnd())
        return -1;
    const EventRecords& rows = it->rows;
    const auto at = std::lower_bound(
        rows.cbegin(), rows.cend(), index, [](const EventRecord& e, qint64 i) { return e.index < i; });
    return at != rows.cend() && at->index == index ? block * BlockSize + int(at - rows.cbegin()) : -1;
}

int EventListModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : m_rowCount;
}

int EventListModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : NUM_COLUMNS;
}

QVariant EventListModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const EventRecord* record = recordAt(index.row());
    if (!record) {
        // The block is on its way: a placeholder row, repainted when it comes.
        if (role == LoadedRole)
            return false;
        const auto failed = m_failed.constFind(index.row() / BlockSize);
        if (failed != m_failed.constEnd()) {
            if (role == Qt::DisplayRole && index.column() == TextColumn)
                return tr("Could not read these events: %1").arg(*failed);
            if (role == Qt::ToolTipRole)
                return *failed;
            if (role == Qt::ForegroundRole)
                return QBrush(Presentation::problemColour());
            return {};
        }
        if (role == Qt::DisplayRole && index.column() == TextColumn)
            return tr("Loading…");
        if (role == Qt::ForegroundRole)
            return QGuiApplication::palette().brush(QPalette::Disabled, QPalette::Text);
        return {};
    }
    const EventRecord& e = *record;
    switch (role) {
    case LoadedRole:
        return true;
    case RowIdRole:
        return e.rowId;
    case EventIndexRole:
        return e.index;
    case KindRole:
        return EventKinds::name(e.kind);
    case BlockedRole:
        return e.isBlocked();
    case OutcomeRole:
        return Outcomes::name(e.outcome);
    case RecordRole:
        return QVariant::fromValue(e);
    case CallRole: {
        const Block* b = blockAt(index.row());
        const auto it = b->calls.constFind(e.index);
        return it == b->calls.constEnd() ? QVariant() : QVariant::fromValue(*it);
    }
    case ExpandedRole:
        return m_expanded.contains(e.index);
    case GroupPositionRole:
        return int(groupPosition(index.row()));
    case MarkedRole:
    case LabelsRole:
    case NotesRole: {
        bool marked = false;
        QStringList labels, notes;
        for (const Annotation& a : annotationsAt(e.index)) {
            if (a.kind == Annotation::Kind::Mark)
                marked = true;
            else if (a.kind == Annotation::Kind::Label)
                labels << a.value;
            else if (a.kind == Annotation::Kind::Note)
                notes << a.value;
        }
        return role == MarkedRole ? QVariant(marked) : role == LabelsRole ? QVariant(labels) : QVariant(notes);
    }
    case LabelColorsRole: {
        QVariantMap colours;
        for (auto it = m_labelColors.cbegin(); it != m_labelColors.cend(); ++it)
            colours.insert(it.key(), it.value());
        return colours;
    }
    case Qt::ForegroundRole:
        // Blocked rows stay visible but dimmed: a hook refused them, nobody received them.
        if (e.isBlocked())
            return QGuiApplication::palette().brush(QPalette::Disabled, QPalette::Text);
        if (index.column() == TextColumn && Presentation::isProblem(e.outcome))
            return QBrush(Presentation::problemColour());
        return {};
    case Qt::FontRole:
        if (e.flags & (EventFlags::MalformedJson | EventFlags::InvalidUtf8)) {
            QFont font;
            font.setItalic(true);
            return font;
        }
        return {};
    case Qt::ToolTipRole: {
        QStringList lines { TimeUtil::formatMicros(e.createdMicros) };
        if (e.isBlocked())
            lines << tr("Blocked by %1").arg(e.blockedBy.isEmpty() ? tr("an unnamed hook") : e.blockedBy);
        if (e.outcome != Outcome::None)
            lines << tr("Outcome: %1").arg(Outcomes::name(e.outcome));
        if (e.flags & EventFlags::MalformedJson)
            lines << tr("The stored JSON of this row is malformed; it is shown from the store's columns.");
        if (e.flags & EventFlags::InvalidUtf8)
            lines << tr("The stored row is not valid UTF-8; it is kept byte for byte.");
        for (const QString& w : e.warning.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
            lines << tr("Warning: %1").arg(w);
        for (const Annotation& a : annotationsAt(e.index)) {
            if (a.kind == Annotation::Kind::Note)
                lines << tr("Note by %1: %2").arg(a.author, a.value);
            else if (a.kind == Annotation::Kind::Label)
                lines << tr("Label: %1").arg(a.value);
            else if (a.kind == Annotation::Kind::Mark)
                lines << tr("Marked by %1").arg(a.author);
        }
        return lines.join(QLatin1Char('\n'));
    }
    case Qt::TextAlignmentRole:
        return index.column() == IndexColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    case Qt::DisplayRole:
        break;
    default:
        return {};
    }
    switch (index.column()) {
    case IndexColumn:
        return e.index;
    case TimeColumn:
        return QDateTime::fromMSecsSinceEpoch(e.createdMicros / 1000, Qt::UTC)
            .toLocalTime()
            .toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
    case TypeColumn:
        return ReportText::shown(
            e.outcome == Outcome::None ? e.type : e.type + QStringLiteral(" · ") + Outcomes::name(e.outcome));
    case ChannelColumn:
        return ReportText::shown(
            e.participantId.isEmpty() ? e.channelId : e.channelId + QStringLiteral(" / ") + e.participantId);
    case TextColumn: {
        // A bidi override or a NUL as its code point, as the timeline and reports show it: "invoice <RLO>fdp.exe"
        // read as "invoice exe.pdf" in the raw rows too.
        QString text = ReportText::shown(e.text.left(500));
        text.replace(QLatin1Char('\n'), QLatin1Char(' '));
        if (e.isBlocked())
            text = tr("[blocked by %1] ").arg(ReportText::shown(e.blockedBy)) + text;
        // What reviewers added, ahead of the text: a mark, labels, a note.
        QString added;
        for (const Annotation& a : annotationsAt(e.index)) {
            if (a.kind == Annotation::Kind::Mark)
                added.prepend(QStringLiteral("⚑ "));
            else if (a.kind == Annotation::Kind::Label)
                added += QLatin1Char('#') + a.value + QLatin1Char(' ');
            else if (a.kind == Annotation::Kind::Note && !added.contains(QStringLiteral("✎")))
                added += QStringLiteral("✎ ");
        }
        return QString(added + text);
    }
    }
    return {};
}

QVariant EventListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case IndexColumn:
        return tr("Index");
    case TimeColumn:
        return tr("Time");
    case TypeColumn:
        return tr("Type");
    case ChannelColumn:
        return tr("Channel");
    case TextColumn:
        return tr("Text");
    }
    return {};
}
