#pragma once

#include "toolstats.h"

#include <QAbstractTableModel>

// A room's tool statistics, a tool a row: its calls, how they ended, and how long they took. SortRole gives
// each figure as a number (a missing duration sorts first), so that a proxy sorts by value, not by text.
class ToolStatsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        ToolColumn,
        CallsColumn,
        ServedColumn,
        FailedColumn,
        RefusedColumn,
        BlockedColumn,
        UnservedColumn,
        CancelledColumn,
        P50Column,
        P95Column,
        MaxColumn,
        TotalColumn,
        NUM_COLUMNS
    };
    enum Roles { SortRole = Qt::UserRole, ToolNameRole, OutcomeRole }; // OutcomeRole: the outcome a figure counts

    explicit ToolStatsModel(QObject* parent = nullptr);

    void setStats(const ToolStatsList& stats);
    const ToolStatsList& stats() const { return m_stats; }
    qint64 totalCalls() const;
    // The outcome a column counts (served for ServedColumn ...), None for the others.
    static Outcome outcomeOf(int column);
    // 87 ms, 2.4 s, 3.5 min, 1.2 h: a duration as people read it.
    static QString durationText(qint64 ms);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    ToolStatsList m_stats;
};
