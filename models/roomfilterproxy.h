#pragma once

#include <QSortFilterProxyModel>

class RoomListModel;

// The room list's filters: the text (id, title, participant) and what a room holds, ANDed: calls that failed,
// rows a hook blocked, a channel type, and activity within a span of the newest room's last event (stored
// logs are read long after they were written, so "the last day" is the workspace's, not the clock's).
class RoomFilterProxy : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit RoomFilterProxy(RoomListModel* rooms, QObject* parent = nullptr);

    void setWithProblemCalls(bool on); // failed, refused or never answered: the Problems column
    void setWithBlockedRows(bool on);
    void setChannelType(const QString& type); // empty: any
    void setActiveWithin(qint64 micros); // 0: any time
    void setReview(const QString& status); // a ReviewStatus; empty: any
    const QString& review() const { return m_review; }
    bool withProblemCalls() const { return m_problems; }
    bool withBlockedRows() const { return m_blocked; }
    const QString& channelType() const { return m_channelType; }
    qint64 activeWithin() const { return m_within; }
    int activeFilters() const; // how many of the five are set
    // Every channel type the rooms have, sorted.
    QStringList channelTypes() const;

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    void refilter();
    void findNewest();

    RoomListModel* m_rooms;
    bool m_problems = false;
    bool m_blocked = false;
    QString m_channelType;
    qint64 m_within = 0;
    QString m_review;
    qint64 m_newest = 0; // the last event of the newest room
};
