#include "timelineview.h"

#include "eventlistmodel.h"
#include "timelinedelegate.h"

#include <QKeyEvent>

TimelineView::TimelineView(QWidget* parent)
    : QListView(parent)
    , m_delegate(new TimelineDelegate(this))
{
    setItemDelegate(m_delegate);
    setUniformItemSizes(false);
    setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setResizeMode(QListView::Adjust); // bubbles wrap to the width: lay out again when it changes
    setSelectionMode(QAbstractItemView::SingleSelection);
    setSpacing(0);
}

void TimelineView::setModel(QAbstractItemModel* model)
{
    QListView::setModel(model);
    // An item opened or closed changes height: tell the view to measure it again.
    connect(model, &QAbstractItemModel::dataChanged, this,
        [this](const QModelIndex& from, const QModelIndex& to, const QList<int>& roles) {
            if (roles.contains(EventListModel::ExpandedRole) || roles.contains(EventListModel::GroupPositionRole)) {
                for (int row = from.row(); row <= to.row(); ++row)
                    emit m_delegate->sizeHintChanged(this->model()->index(row, 0));
            }
        });
}

void TimelineView::toggleCurrent()
{
    const QModelIndex current = currentIndex();
    if (current.isValid())
        model()->setData(current, !current.data(EventListModel::ExpandedRole).toBool(), EventListModel::ExpandedRole);
}

void TimelineView::keyPressEvent(QKeyEvent* event)
{
    if (event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter || event->key() == Qt::Key_Space) {
        toggleCurrent();
        event->accept();
        return;
    }
    QListView::keyPressEvent(event);
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent* event)
{
    QListView::mouseDoubleClickEvent(event);
    toggleCurrent();
}
