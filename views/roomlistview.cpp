#include "roomlistview.h"

#include "roomlistmodel.h"

#include <QHeaderView>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTimer>
#include <QTreeView>
#include <QVBoxLayout>

RoomListView::RoomListView(RoomListModel* model, QWidget* parent)
    : QWidget(parent)
    , m_model(model)
    , m_proxy(new QSortFilterProxyModel(this))
    , m_filter(new QLineEdit(this))
    , m_view(new QTreeView(this))
{
    m_proxy->setSourceModel(model);
    m_proxy->setSortRole(RoomListModel::SortRole);
    m_proxy->setFilterRole(RoomListModel::FilterRole);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);

    m_filter->setPlaceholderText(tr("Filter rooms by id, title or participant"));
    m_filter->setClearButtonEnabled(true);
    // A short debounce, so typing a long id does not re-filter on every key.
    auto* debounce = new QTimer(this);
    debounce->setSingleShot(true);
    debounce->setInterval(150);
    connect(m_filter, &QLineEdit::textChanged, debounce, qOverload<>(&QTimer::start));
    connect(debounce, &QTimer::timeout, this, [this] { m_proxy->setFilterFixedString(m_filter->text()); });

    m_view->setModel(m_proxy);
    m_view->setRootIsDecorated(false);
    m_view->setUniformRowHeights(true);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(-1, Qt::AscendingOrder); // the source's own order until the user sorts
    m_view->setAlternatingRowColors(true);
    m_view->setAllColumnsShowFocus(true);
    // Counts size to their contents; the room's name takes what is left, but never less than a readable width.
    m_view->header()->setStretchLastSection(false);
    m_view->header()->setMinimumSectionSize(40);
    m_view->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_view->header()->setSectionResizeMode(RoomListModel::RoomColumn, QHeaderView::Stretch);
    m_view->setMinimumWidth(300);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_filter);
    layout->addWidget(m_view);

    connect(
        m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& current) {
            if (current.isValid())
                emit roomActivated(current.data(RoomListModel::RoomIdRole).toLongLong());
        });
}

bool RoomListView::selectRoom(qint64 roomId)
{
    for (int row = 0; row < m_proxy->rowCount(); ++row) {
        const QModelIndex index = m_proxy->index(row, 0);
        if (index.data(RoomListModel::RoomIdRole).toLongLong() == roomId) {
            m_view->setCurrentIndex(index);
            return true;
        }
    }
    return false;
}

qint64 RoomListView::currentRoom() const
{
    const QModelIndex current = m_view->currentIndex();
    return current.isValid() ? current.data(RoomListModel::RoomIdRole).toLongLong() : 0;
}
