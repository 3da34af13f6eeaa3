#include "roomfilterproxy.h"

#include "annotation.h"
#include "roomlistmodel.h"

#include <algorithm>
#include <QSet>

RoomFilterProxy::RoomFilterProxy(RoomListModel* rooms, QObject* parent)
    : QSortFilterProxyModel(parent)
    , m_rooms(rooms)
{
    // Before the proxy's own handlers, which filter the rooms against the newest time.
    connect(rooms, &QAbstractItemModel::modelReset, this, &RoomFilterProxy::findNewest);
    connect(rooms, &QAbstractItemModel::dataChanged, this, &RoomFilterProxy::findNewest);
    setSourceModel(rooms);
    findNewest();
}

void RoomFilterProxy::findNewest()
{
    m_newest = 0;
    for (const RoomSummary& r : m_rooms->rooms())
        m_newest = std::max(m_newest, r.lastMicros);
}

void RoomFilterProxy::refilter()
{
    // Qt 6.4 has no beginFilterChange(): invalidateFilter() re-runs filterAcceptsRow for every room.
    invalidateFilter();
}

void RoomFilterProxy::setWithProblemCalls(bool on)
{
    m_problems = on;
    refilter();
}

void RoomFilterProxy::setWithBlockedRows(bool on)
{
    m_blocked = on;
    refilter();
}

void RoomFilterProxy::setChannelType(const QString& type)
{
    m_channelType = type;
    refilter();
}

void RoomFilterProxy::setActiveWithin(qint64 micros)
{
    m_within = micros;
    refilter();
}

void RoomFilterProxy::setReview(const QString& status)
{
    m_review = status;
    refilter();
}

int RoomFilterProxy::activeFilters() const
{
    return int(m_problems) + int(m_blocked) + int(!m_channelType.isEmpty()) + int(m_within > 0)
        + int(!m_review.isEmpty());
}

QStringList RoomFilterProxy::channelTypes() const
{
    QSet<QString> types;
    for (const RoomSummary& r : m_rooms->rooms())
        for (const QString& t : r.channelTypes)
            types.insert(t);
    QStringList out(types.cbegin(), types.cend());
    out.sort();
    return out;
}

bool RoomFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    if (!QSortFilterProxyModel::filterAcceptsRow(sourceRow, sourceParent))
        return false;
    const RoomSummary& r = m_rooms->rooms().at(sourceRow);
    if (m_problems && r.failed + r.refused + r.unserved == 0)
        return false;
    if (m_blocked && r.blockedCount == 0)
        return false;
    if (!m_channelType.isEmpty() && !r.channelTypes.contains(m_channelType))
        return false;
    if (m_within > 0 && (r.lastMicros == 0 || r.lastMicros < m_newest - m_within))
        return false;
    if (!m_review.isEmpty() && (r.review.isEmpty() ? ReviewStatus::Unreviewed : r.review) != m_review)
        return false;
    return true;
}
