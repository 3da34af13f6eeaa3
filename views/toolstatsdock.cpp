#include "toolstatsdock.h"

#include "storeclient.h"
#include "toolstatsmodel.h"
#include "workspace.h"

#include <memory>
#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

ToolStatsDock::ToolStatsDock(StoreClient* client, QWidget* parent)
    : RoomDock(tr("Tool Statistics"), client, parent)
    , m_model(new ToolStatsModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_view(new QTableView)
    , m_summary(new QLabel)
{
    setObjectName(QStringLiteral("toolStatsDock"));
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(ToolStatsModel::SortRole);
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(ToolStatsModel::CallsColumn, Qt::DescendingOrder);
    // A figure sorts most first on its first click (the tools that failed most, the slowest): Qt starts ascending.
    connect(m_view->horizontalHeader(), &QHeaderView::sortIndicatorChanged, this, [this](int section, Qt::SortOrder order) {
        if (section != m_sortedBy && section != ToolStatsModel::ToolColumn && order == Qt::AscendingOrder) {
            m_sortedBy = section;
            m_view->horizontalHeader()->setSortIndicator(section, Qt::DescendingOrder);
            return;
        }
        m_sortedBy = section;
    });
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->verticalHeader()->hide();
    m_view->setWordWrap(false);
    m_view->horizontalHeader()->setSectionResizeMode(ToolStatsModel::ToolColumn, QHeaderView::Stretch);
    m_summary->setWordWrap(true);
    m_summary->setText(tr("Pick a room to see its tool calls by tool."));
    // A figure is a way in: its calls. A double click on the tool (or anything but a figure) shows all of them.
    connect(m_view, &QAbstractItemView::clicked, this, [this](const QModelIndex& index) {
        const QString outcome = index.data(ToolStatsModel::OutcomeRole).toString();
        if (!outcome.isEmpty() && index.data(ToolStatsModel::SortRole).toLongLong() > 0)
            emit filterTo(index.data(ToolStatsModel::ToolNameRole).toString(), outcome);
    });
    connect(m_view, &QAbstractItemView::doubleClicked, this, [this](const QModelIndex& index) {
        if (index.data(ToolStatsModel::OutcomeRole).isNull())
            emit filterTo(index.data(ToolStatsModel::ToolNameRole).toString(), QString());
    });
    auto* body = new QWidget;
    auto* layout = new QVBoxLayout(body);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_summary);
    layout->addWidget(m_view);
    setWidget(body);
}

void ToolStatsDock::reread(quint64 ticket)
{
    if (roomId() == 0) {
        m_model->setStats({});
        m_summary->setText(tr("Pick a room to see its tool calls by tool."));
        emit counted();
        return;
    }
    auto stats = std::make_shared<ToolStatsList>();
    client()->run(
        StoreClient::Kind::ToolStats,
        [stats, room = roomId(), filter = filter()](Workspace& ws, const CancelToken&) {
            *stats = ws.toolStats(room, filter);
        },
        this,
        [this, stats, ticket] {
            if (!isLatest(ticket))
                return; // a newer room or filter was asked for meanwhile
            m_model->setStats(*stats);
            m_view->resizeColumnsToContents();
            m_view->horizontalHeader()->setSectionResizeMode(ToolStatsModel::ToolColumn, QHeaderView::Stretch);
            const qint64 n = m_model->totalCalls();
            const QString calls = n == 1 ? tr("1 call") : tr("%L1 calls").arg(n);
            const QString tools = stats->size() == 1 ? tr("1 tool") : tr("%L1 tools").arg(stats->size());
            m_summary->setText((filter().terms() == 0 ? tr("%1 of %2, counted in calls (a start, its end and its results are one).")
                                                      : tr("%1 of %2 under the filter, counted in calls (a start, its end and its results are one)."))
                                   .arg(calls, tools)
                + QLatin1Char(' ') + tr("Click a figure to see those calls; double-click a tool to see all of its."));
            emit counted();
        },
        [this, ticket](const QString& why) {
            if (isLatest(ticket))
                m_summary->setText(tr("The statistics could not be counted: %1").arg(why));
        });
}
