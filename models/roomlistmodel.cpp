#include "roomlistmodel.h"

#include "annotation.h"
#include "presentation.h"

#include <algorithm>
#include <utility>
#include <QBrush>
#include <QDateTime>
#include <QGuiApplication>
#include <QIcon>
#include <QLocale>
#include <QPainter>
#include <QPixmap>
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
        // Only the rooms that moved are said to have changed: every two seconds of an import, the list of 10,000
        // rooms re-sorted and measured them all for the few hundred being read (frames of 50 to 60 ms).
        QVector<std::pair<int, int>> runs; // first and last row of each run of changed rooms
        for (int row = 0; row < rowCount(); ++row) {
            if (rooms.at(row) == m_rooms.at(row))
                continue;
            if (!runs.isEmpty() && runs.last().second == row - 1)
                runs.last().second = row;
            else
                runs.append({ row, row });
        }
        m_rooms = rooms; // the same ids in the same rows: m_rowOf holds
        if (runs.size() > 64) // scattered: one signal, not hundreds
            runs = { { runs.first().first, runs.last().second } };
        for (const auto& [first, last] : std::as_const(runs))
            emit dataChanged(index(first, 0), index(last, NUM_COLUMNS - 1));
        return;
    }
    beginResetModel();
    m_rooms = rooms;
    m_rowOf.clear();
    m_rowOf.reserve(m_rooms.size());
    for (qsizetype row = 0; row < m_rooms.size(); ++row)
        m_rowOf.insert(m_rooms.at(row).id, row);
    endResetModel();
}

const RoomSummary* RoomListModel::room(qint64 roomId) const
{
    const auto row = m_rowOf.constFind(roomId);
    return row == m_rowOf.constEnd() ? nullptr : &m_rooms.at(*row);
}

void RoomListModel::setReading(qint64 roomId)
{
    if (roomId == m_reading)
        return;
    const qint64 was = std::exchange(m_reading, roomId);
    for (int row = 0; row < rowCount(); ++row) {
        if (m_rooms.at(row).id == was || m_rooms.at(row).id == roomId)
            emit dataChanged(index(row, EventsColumn), index(row, EventsColumn));
    }
}

QIcon RoomListModel::readIcon(qint64 read, qint64 total)
{
    // Eighths are enough to see a room fill up; each drawn once.
    static QIcon icons[9];
    const int eighths = total > 0 ? int(std::clamp<qint64>(read * 8 / total, 0, 8)) : 0;
    if (icons[eighths].isNull()) {
        QPixmap pixmap(16, 16);
        pixmap.fill(Qt::transparent);
        QPainter p(&pixmap);
        p.setRenderHint(QPainter::Antialiasing);
        const QColor colour = QGuiApplication::palette().color(QPalette::PlaceholderText);
        const QRectF disc(2.5, 2.5, 11, 11);
        p.setPen(QPen(colour, 1.4));
        p.setBrush(Qt::NoBrush);
        p.drawEllipse(disc);
        if (eighths > 0) {
            p.setPen(Qt::NoPen);
            p.setBrush(colour);
            p.drawPie(disc, 90 * 16, -eighths * 45 * 16);
        }
        icons[eighths] = QIcon(pixmap);
    }
    return icons[eighths];
}

int RoomListModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rooms.size());
}

int RoomListModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : NUM_COLUMNS;
}

QIcon RoomListModel::reviewIcon(bool done)
{
    static const QIcon icons[2] = { [] {
        QPixmap pixmap(16, 16);
        pixmap.fill(Qt::transparent);
        QPainter p(&pixmap);
        p.setRenderHint(QPainter::Antialiasing);
        p.setPen(QPen(QColor(0xE6, 0x9F, 0x00), 2));
        p.drawEllipse(QRectF(3, 3, 10, 10));
        return QIcon(pixmap);
    }(), [] {
        QPixmap pixmap(16, 16);
        pixmap.fill(Qt::transparent);
        QPainter p(&pixmap);
        p.setRenderHint(QPainter::Antialiasing);
        p.setPen(Qt::NoPen);
        p.setBrush(QColor(0x00, 0x9E, 0x73));
        p.drawEllipse(QRectF(2, 2, 12, 12));
        p.setPen(QPen(Qt::white, 2));
        p.drawPolyline(QPolygonF({ QPointF(5, 8.5), QPointF(7, 10.5), QPointF(11, 5.5) }));
        return QIcon(pixmap);
    }() };
    return icons[done ? 1 : 0];
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
    case Qt::DecorationRole:
        // The review status where the eye starts, whatever the list's width: a ring in review, a disc done.
        if (index.column() == RoomColumn && (r.review == ReviewStatus::InReview || r.review == ReviewStatus::Done))
            return reviewIcon(r.review == ReviewStatus::Done);
        // A room not read yet, or read in part, says so beside its count: never a bare 0.
        if (index.column() == EventsColumn && r.unread > 0)
            return readIcon(r.eventCount, r.sourceEvents());
        return {};
    case FilterRole:
        return QStringList { r.nativeId, r.title, r.owner, r.participants }.join(QLatin1Char(' '));
    case Qt::ToolTipRole: {
        const QString review = r.review.isEmpty() ? QString()
                                                  : tr("%1 by %2, %3").arg(r.review, r.reviewer,
                                                      QDateTime::fromMSecsSinceEpoch(r.reviewedMs).toString(QStringLiteral("yyyy-MM-dd HH:mm")));
        if (index.column() == ReviewColumn)
            return review;
        // The room's own figures, whatever the filter: its events and its calls, and how many went wrong.
        const QLocale locale;
        QString reading;
        if (r.notReadYet()) {
            reading = tr("Not read yet: its source holds %1 events.")
                          .arg(locale.toString(r.sourceEvents()));
        } else if (r.partlyRead()) {
            reading = (r.id == m_reading ? tr("Reading: %1 of the source's %2 events so far.")
                                         : tr("Read in part: %1 of the source's %2 events."))
                          .arg(locale.toString(r.eventCount), locale.toString(r.sourceEvents()));
        }
        if (index.column() == EventsColumn && !reading.isEmpty())
            return reading;
        QString figures = tr("%1 events, %2 tool calls").arg(locale.toString(r.eventCount), locale.toString(r.toolCalls));
        QStringList wrong;
        if (r.failed > 0)
            wrong << tr("%1 failed").arg(locale.toString(r.failed));
        if (r.refused > 0)
            wrong << tr("%1 refused").arg(locale.toString(r.refused));
        if (r.unserved > 0)
            wrong << tr("%1 unserved").arg(locale.toString(r.unserved));
        if (!wrong.isEmpty())
            figures += QStringLiteral(" (") + wrong.join(QStringLiteral(", ")) + QLatin1Char(')');
        if (r.blockedCount > 0)
            figures += tr(", %1 blocked rows").arg(locale.toString(r.blockedCount));
        // A room not read yet: what its source says, never "0 events, 0 tool calls".
        if (r.notReadYet())
            figures = reading;
        return QString(tr("%1\n%2\nsource: %3").arg(r.nativeId, r.title, r.sourcePath).trimmed()
            + QLatin1Char('\n') + figures
            + (r.notes > 0 ? (r.notes == 1 ? tr("\n1 note") : tr("\n%1 notes").arg(r.notes)) : QString())
            + (review.isEmpty() ? QString() : tr("\nreview: ") + review)
            + (reading.isEmpty() || r.notReadYet() ? QString() : QLatin1Char('\n') + reading));
    }
    case Qt::TextAlignmentRole:
        return index.column() >= EventsColumn && index.column() <= BlockedColumn
            ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
            : QVariant();
    case Qt::ForegroundRole:
        if ((index.column() == ProblemsColumn && r.failed + r.refused + r.unserved > 0)
            || (index.column() == BlockedColumn && r.blockedCount > 0))
            return QBrush(Presentation::problemColour());
        // The source's count of a room not read (in whole) yet: what is coming, not what is there.
        if (index.column() == EventsColumn && r.unread > 0)
            return QGuiApplication::palette().brush(QPalette::PlaceholderText);
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
        // A room not read in whole yet: what its source holds, and how much of it is read.
        if (sort)
            return r.sourceEvents();
        if (r.id == m_reading && r.unread > 0)
            return tr("reading… %1 of %2").arg(QLocale().toString(r.eventCount), QLocale().toString(r.sourceEvents()));
        if (r.partlyRead())
            return tr("%1 of %2").arg(QLocale().toString(r.eventCount), QLocale().toString(r.sourceEvents()));
        return count(r.notReadYet() ? r.sourceEvents() : r.eventCount);
    // What only reading a room tells is not known before it is read: blank, not a 0 (and sorted below every count).
    case ToolCallsColumn:
        return r.notReadYet() ? (sort ? QVariant(qint64(-1)) : QVariant()) : count(r.toolCalls);
    case ProblemsColumn:
        return r.notReadYet() ? (sort ? QVariant(qint64(-1)) : QVariant()) : count(r.failed + r.refused + r.unserved);
    case BlockedColumn:
        return r.notReadYet() ? (sort ? QVariant(qint64(-1)) : QVariant()) : count(r.blockedCount);
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
    // Each figure says what it counts (a room's events are rows; its problems and calls are calls).
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case EventsColumn:
            return tr("Events: the rows the room holds (a tool call is two rows or more), blocked ones included");
        case ProblemsColumn:
            return tr("Problem calls: tool calls that failed, were refused or were never answered");
        case BlockedColumn:
            return tr("Blocked: rows a hook blocked");
        case ToolCallsColumn:
            return tr("Calls: the room's tool calls");
        default:
            return {};
        }
    }
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
        return tr("Calls");
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
