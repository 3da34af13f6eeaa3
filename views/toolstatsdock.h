#pragma once

#include "roomdock.h"

class QLabel;
class QSortFilterProxyModel;
class QTableView;
class ToolStatsModel;

// Tool statistics as a dock (View ▸ Tool Statistics): a row per tool of the room shown, under the filter of the
// bar and panes, counted in calls. A double click on a tool shows its calls; a click on a figure, that tool's calls
// that ended so. Counted on the store's worker, only while the dock is shown.
class ToolStatsDock : public RoomDock
{
    Q_OBJECT
public:
    ToolStatsDock(StoreClient* client, QWidget* parent = nullptr);

    ToolStatsModel* model() const { return m_model; }
    QSortFilterProxyModel* proxy() const { return m_proxy; }
    QTableView* view() const { return m_view; }
    QLabel* summary() const { return m_summary; }

signals:
    // Show `tool`'s calls; with `outcome`, only those that ended so.
    void filterTo(const QString& tool, const QString& outcome);
    void counted(); // the table shows the latest room and filter asked

protected:
    void reread(quint64 ticket) override;

private:
    ToolStatsModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_view;
    QLabel* m_summary;
    int m_sortedBy = 1; // the column sorted by (ToolStatsModel::CallsColumn)
};
