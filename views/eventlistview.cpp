#include "eventlistview.h"

#include <QHeaderView>
#include <QItemSelectionModel>

EventListView::EventListView(QWidget* parent)
    : QTableView(parent)
{
    setShowGrid(false);
    setWordWrap(false);
    setAlternatingRowColors(true);
    setTextElideMode(Qt::ElideRight);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setSelectionMode(QAbstractItemView::ExtendedSelection);
    setVerticalScrollMode(QAbstractItemView::ScrollPerItem);
    verticalHeader()->hide();
    // Every row the same height, never measured.
    verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    horizontalHeader()->setStretchLastSection(true);
    horizontalHeader()->setDefaultSectionSize(120);
    horizontalHeader()->setHighlightSections(false);
}

void EventListView::resizeEvent(QResizeEvent* event)
{
    QTableView::resizeEvent(event);
    if (isVisible())
        fitLastColumn();
}

void EventListView::showEvent(QShowEvent* event)
{
    QTableView::showEvent(event);
    fitLastColumn();
}

void EventListView::fitLastColumn()
{
    QHeaderView* header = horizontalHeader();
    const int count = header->count();
    if (count < 2)
        return;
    int others = 0;
    for (int visual = 0; visual < count - 1; ++visual) {
        const int column = header->logicalIndex(visual);
        if (!header->isSectionHidden(column))
            others += header->sectionSize(column);
    }
    const int room = viewport()->width() * 3 / 5;
    if (others <= room || room <= 0)
        return;
    for (int visual = 0; visual < count - 1; ++visual) {
        const int column = header->logicalIndex(visual);
        if (!header->isSectionHidden(column))
            header->resizeSection(column, std::max(60, header->sectionSize(column) * room / others));
    }
}

void EventListView::setSelectionModel(QItemSelectionModel* selectionModel)
{
    QTableView::setSelectionModel(selectionModel);
    if (selectionModel)
        connect(selectionModel, &QItemSelectionModel::currentRowChanged, this, &EventListView::currentRowChanged);
}

void EventListView::attach(QAbstractItemModel* model)
{
    if (isAttached() && model == m_attached)
        return;
    m_attached = model;
    replaceModel(model);
    if (!m_columns.isEmpty())
        horizontalHeader()->restoreState(m_columns);
}

void EventListView::detach()
{
    if (!isAttached())
        return;
    m_columns = horizontalHeader()->saveState();
    m_attached = nullptr;
    replaceModel(nullptr);
}

void EventListView::replaceModel(QAbstractItemModel* model)
{
    // setModel leaves the old selection model alive and still following the room's model: it would go on
    // saying its current row changed as rooms come and go.
    QItemSelectionModel* old = selectionModel();
    setModel(model);
    if (old && old != selectionModel()) {
        disconnect(old, nullptr, this, nullptr);
        old->deleteLater();
    }
}
