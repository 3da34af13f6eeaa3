#include "eventlistmodel.h"

#include "eventflags.h"
#include "storeworker.h"
#include "timeutil.h"

#include <QBrush>
#include <QDateTime>
#include <QFont>
#include <QGuiApplication>
#include <QPalette>

EventListModel::EventListModel(StoreWorker* worker, QObject* parent)
    : QAbstractTableModel(parent)
    , m_worker(worker)
{
    connect(worker, &StoreWorker::eventsLoaded, this, &EventListModel::onEventsLoaded);
    connect(worker, &StoreWorker::eventsCounted, this, &EventListModel::onCounted);
    connect(worker, &StoreWorker::timelineLoaded, this, &EventListModel::onTimelineLoaded);
}

void EventListModel::setCountWorker(StoreWorker* counter)
{
    m_counter = counter;
    connect(counter, &StoreWorker::eventsCounted, this, &EventListModel::onCounted);
}

void EventListModel::setRoom(qint64 roomId, const EventFilter& filter)
{
    beginResetModel();
    m_rows.clear();
    m_calls.clear();
    if (roomId != m_roomId)
        m_expanded.clear();
    m_roomId = roomId;
    m_filter = filter;
    ++m_generation;
    m_pending = false;
    m_wanted.reset();
    m_atEnd = roomId == 0;
    m_shown = m_total = roomId == 0 ? 0 : -1;
    endResetModel();
    emit countsChanged(m_shown, m_total);
    if (roomId == 0 || !m_worker)
        return;
    // The first screen before the count: the worker answers in order, and a count grows with the room while a
    // page does not.
    requestPage();
    QMetaObject::invokeMethod(m_counter ? m_counter.data() : m_worker.data(), "countEvents", Qt::QueuedConnection,
        Q_ARG(quint64, m_generation), Q_ARG(qint64, m_roomId), Q_ARG(EventFilter, m_filter));
}

void EventListModel::requestPage()
{
    if (m_pending || m_atEnd || !m_worker)
        return;
    m_pending = true;
    PageRequest page;
    page.limit = PageSize;
    page.afterIndex = m_rows.isEmpty() ? std::numeric_limits<qint64>::min() : m_rows.constLast().index;
    if (m_mode == Mode::Timeline) {
        EventFilter items = m_filter;
        items.timelineItems = true;
        QMetaObject::invokeMethod(m_worker, "loadTimeline", Qt::QueuedConnection, Q_ARG(quint64, m_generation),
            Q_ARG(qint64, m_roomId), Q_ARG(EventFilter, items), Q_ARG(PageRequest, page));
        return;
    }
    QMetaObject::invokeMethod(m_worker, "loadEvents", Qt::QueuedConnection, Q_ARG(quint64, m_generation),
        Q_ARG(qint64, m_roomId), Q_ARG(EventFilter, m_filter), Q_ARG(PageRequest, page));
}

void EventListModel::onEventsLoaded(quint64 generation, qint64 roomId, const EventRecords& events)
{
    if (generation != m_generation || roomId != m_roomId)
        return; // a reply for a room or filter no longer shown
    m_atEnd = events.size() < PageSize;
    if (!events.isEmpty()) {
        // Still pending while the rows go in: a view (or a tester) asking for more from inside the insert
        // signals must not send a second request from the old cursor.
        beginInsertRows({}, int(m_rows.size()), int(m_rows.size() + events.size() - 1));
        m_rows += events;
        endInsertRows();
    }
    m_pending = false;
    emit pageLoaded();
    if (m_wanted) {
        const qint64 wanted = *m_wanted;
        if (m_atEnd || (!m_rows.isEmpty() && m_rows.constLast().index >= wanted)) {
            m_wanted.reset();
            emit indexReady(wanted, rowOfIndex(wanted));
        } else {
            requestPage();
        }
    }
}

void EventListModel::onTimelineLoaded(
    quint64 generation, qint64 roomId, const EventRecords& events, const ToolCallRecords& calls)
{
    if (generation != m_generation || roomId != m_roomId)
        return;
    for (const ToolCallRecord& c : calls) {
        const std::optional<qint64> at = c.startIndex ? c.startIndex : c.endIndex ? c.endIndex : c.resultIndex;
        m_calls.insert(*at, c);
    }
    // The last row of the previous page may now have a neighbour in its group.
    const int before = int(m_rows.size());
    onEventsLoaded(generation, roomId, events);
    if (before > 0)
        emit dataChanged(index(before - 1, 0), index(before - 1, NUM_COLUMNS - 1), { GroupPositionRole });
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
    const qint64 at = m_rows.at(index.row()).index;
    if (value.toBool() == m_expanded.contains(at))
        return true;
    if (value.toBool())
        m_expanded.insert(at);
    else
        m_expanded.remove(at);
    emit dataChanged(this->index(index.row(), 0), this->index(index.row(), NUM_COLUMNS - 1), { ExpandedRole });
    return true;
}

EventListModel::GroupPosition EventListModel::groupPosition(int row) const
{
    const QString& group = m_rows.at(row).groupId;
    if (group.isEmpty())
        return NoGroup;
    const bool before = row > 0 && m_rows.at(row - 1).groupId == group;
    const bool after = row + 1 < m_rows.size() && m_rows.at(row + 1).groupId == group;
    return before ? (after ? GroupMiddle : GroupLast) : (after ? GroupFirst : GroupSingle);
}

void EventListModel::onCounted(quint64 generation, qint64 roomId, qint64 shown, qint64 total)
{
    if (generation != m_generation || roomId != m_roomId)
        return;
    m_shown = shown;
    m_total = total;
    emit countsChanged(shown, total);
}

int EventListModel::rowOfIndex(qint64 index) const
{
    const auto it = std::lower_bound(
        m_rows.cbegin(), m_rows.cend(), index, [](const EventRecord& e, qint64 i) { return e.index < i; });
    return it != m_rows.cend() && it->index == index ? int(it - m_rows.cbegin()) : -1;
}

void EventListModel::loadThrough(qint64 index)
{
    const bool past = !m_rows.isEmpty() && m_rows.constLast().index >= index;
    if (past || m_atEnd) {
        emit indexReady(index, rowOfIndex(index));
        return;
    }
    m_wanted = index;
    requestPage();
}

bool EventListModel::canFetchMore(const QModelIndex& parent) const
{
    return !parent.isValid() && !m_atEnd && !m_pending;
}

void EventListModel::fetchMore(const QModelIndex& parent)
{
    if (!parent.isValid())
        requestPage();
}

int EventListModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int EventListModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : NUM_COLUMNS;
}

QVariant EventListModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const EventRecord& e = m_rows.at(index.row());
    switch (role) {
    case RowIdRole:
        return e.rowId;
    case EventIndexRole:
        return e.index;
    case KindRole:
        return e.kind;
    case BlockedRole:
        return e.isBlocked();
    case OutcomeRole:
        return e.outcome;
    case RecordRole:
        return QVariant::fromValue(e);
    case CallRole: {
        const auto it = m_calls.constFind(e.index);
        return it == m_calls.constEnd() ? QVariant() : QVariant::fromValue(*it);
    }
    case ExpandedRole:
        return m_expanded.contains(e.index);
    case GroupPositionRole:
        return int(groupPosition(index.row()));
    case Qt::ForegroundRole:
        // Blocked rows stay visible but dimmed: a hook refused them, nobody received them.
        if (e.isBlocked())
            return QGuiApplication::palette().brush(QPalette::Disabled, QPalette::Text);
        if (index.column() == TextColumn
            && (e.outcome == QLatin1String("failed") || e.outcome == QLatin1String("refused")
                || e.outcome == QLatin1String("unserved")))
            return QBrush(QColor(0xc0, 0x39, 0x2b));
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
        if (!e.outcome.isEmpty())
            lines << tr("Outcome: %1").arg(e.outcome);
        if (e.flags & EventFlags::MalformedJson)
            lines << tr("The stored JSON of this row is malformed; it is shown from the store's columns.");
        if (e.flags & EventFlags::InvalidUtf8)
            lines << tr("The stored row is not valid UTF-8; it is kept byte for byte.");
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
        return e.outcome.isEmpty() ? e.type : e.type + QStringLiteral(" · ") + e.outcome;
    case ChannelColumn:
        return e.participantId.isEmpty() ? e.channelId : e.channelId + QStringLiteral(" / ") + e.participantId;
    case TextColumn: {
        QString text = e.text.left(500);
        text.replace(QLatin1Char('\n'), QLatin1Char(' '));
        if (e.isBlocked())
            text = tr("[blocked by %1] ").arg(e.blockedBy) + text;
        return text;
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
