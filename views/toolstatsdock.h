#pragma once

#include "eventfilter.h"

#include <optional>
#include <QDockWidget>

class QLabel;
class QSortFilterProxyModel;
class QTableView;
class StoreClient;
class ToolStatsModel;

// Tool statistics as a dock (View ▸ Tool Statistics): a row per tool of the room shown, under the filter of the
// bar and panes, counted in calls. A double click on a tool shows its calls; a click on a figure, that tool's calls
// that ended so. Counted on the store's worker, only while the dock is shown.
class ToolStatsDock : public QDockWidget
{
    Q_OBJECT
public:
    ToolStatsDock(StoreClient* client, QWidget* parent = nullptr);

    // The room and filter to count under: counted now when the dock is shown, else once it is.
    void refresh(qint64 roomId, const EventFilter& filter);

    ToolStatsModel* model() const { return m_model; }
    QSortFilterProxyModel* proxy() const { return m_proxy; }
    QTableView* view() const { return m_view; }
    QLabel* summary() const { return m_summary; }

signals:
    // Show `tool`'s calls; with `outcome`, only those that ended so.
    void filterTo(const QString& tool, const QString& outcome);
    void counted(); // the table shows the latest room and filter asked

private:
    void count();

    StoreClient* m_client;
    ToolStatsModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_view;
    QLabel* m_summary;
    qint64 m_roomId = 0;
    EventFilter m_filter;
    bool m_stale = false; // asked for while hidden
    quint64 m_ticket = 0; // the latest count asked: an older one's answer is dropped
    int m_sortedBy = 1; // the column sorted by (ToolStatsModel::CallsColumn)
};
