#include "roomlistmodel.h"

#include "annotation.h"
#include "presentation.h"

#include <algorithm>
#include <QBrush>
#include <QDateTime>
#include <QGuiApplication>
#include <QLocale>
#include <QPalette>

RoomListModel::RoomListModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void RoomListModel::setRooms(const RoomSummaries& rooms)
{
    // The same rooms in the same order, their counts moved (an import lists them every two seconds): changed in
    // place, so the list keeps its scroll position, selection and sort.
    const bool sameRooms = !rooms.isEmpty()
        && std::equal(rooms.cbegin(), rooms.cend(), m_rooms.cbegin(), m_rooms.cend(),
            [](const RoomSummary& a, const RoomSummary& b) { return a.id == b.id; });
    if (sameRooms) {
        m_rooms = rooms;
        emit dataChanged(index(0, 0), index(rowCount() - 1, NUM_COLUMNS - 1));
        return;
    }
    beginResetModel();
    m_rooms = rooms;
    endResetModel();
}

int RoomListModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rooms.size());
}

int RoomListModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : NUM_COLUMNS;
}

QVariant RoomListModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const RoomSummary& r = m_rooms.at(index.row());
    switch (role) {
    case RoomIdRole:
        return r.id;
    case NativeIdRole:
        return r.nativeId;
    case ReviewRole:
        return r.review.isEmpty() ? ReviewStatus::Unreviewed : r.review;
    case FilterRole:
        return QStringList { r.nativeId, r.title, r.owner, r.participants }.join(QLatin1Char(' '));
    case Qt::ToolTipRole:
        if (index.column() == ReviewColumn && !r.review.isEmpty()) {
            return tr("%1 by %2, %3").arg(r.review, r.reviewer,
                QDateTime::fromMSecsSinceEpoch(r.reviewedMs).toString(QStringLiteral("yyyy-MM-dd HH:mm")));
        }
        return QString(tr("%1\n%2\nsource: %3").arg(r.nativeId, r.title, r.sourcePath).trimmed()
            + (r.notes > 0 ? (r.notes == 1 ? tr("\n1 note") : tr("\n%1 notes").arg(r.notes)) : QString()));
    case Qt::TextAlignmentRole:
        return index.column() >= EventsColumn && index.column() <= BlockedColumn
            ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
            : QVariant();
    case Qt::ForegroundRole:
        if ((index.column() == ProblemsColumn && r.failed + r.refused + r.unserved > 0)
            || (index.column() == BlockedColumn && r.blockedCount > 0))
            return QBrush(Presentation::problemColour());
        return {};
    case Qt::DisplayRole:
    case SortRole:
        break;
    default:
        return {};
    }
    const bool sort = role == SortRole;
    // Counts sort as numbers and read with the locale's digit groups (900,001), as the panes and the status bar
    // write them.
    auto count = [sort](qint64 n) { return sort ? QVariant(n) : QVariant(QLocale().toString(n)); };
    switch (index.column()) {
    case RoomColumn:
        return r.title.isEmpty() ? r.nativeId : r.title;
    case SystemColumn:
        return r.system;
    case EventsColumn:
        return count(r.eventCount);
    case ToolCallsColumn:
        return count(r.toolCalls);
    case ProblemsColumn:
        return count(r.failed + r.refused + r.unserved);
    case BlockedColumn:
        return count(r.blockedCount);
    case ReviewColumn:
        // Sorted by how far along: unreviewed, in review, done.
        if (sort)
            return int(ReviewStatus::all().indexOf(r.review.isEmpty() ? ReviewStatus::Unreviewed : r.review));
        return r.review == ReviewStatus::Unreviewed ? QString() : r.review;
    case LastActivityColumn:
        if (sort)
            return r.lastMicros;
        return r.lastMicros ? QDateTime::fromMSecsSinceEpoch(r.lastMicros / 1000, Qt::UTC)
                                  .toLocalTime()
                                  .toString(QStringLiteral("yyyy-MM-dd HH:mm"))
                            : QString();
    }
    return {};
}

QVariant RoomListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::ToolTipRole && section == ProblemsColumn)
        return tr("Problem calls: tool calls that failed, were refused or were never answered");
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case RoomColumn:
        return tr("Room");
    case SystemColumn:
        return tr("System");
    case EventsColumn:
        return tr("Events");
    case ToolCallsColumn:
        return tr("Tools");
    case ProblemsColumn:
        return tr("Problems");
    case BlockedColumn:
        return tr("Blocked");
    case ReviewColumn:
        return tr("Review");
    case LastActivityColumn:
        return tr("Last activity");
    }
    return {};
}
