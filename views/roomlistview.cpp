#include "roomlistview.h"

#include "annotation.h"
#include "roomfilterproxy.h"
#include "roomlistmodel.h"
#include "settings.h"

#include <QActionGroup>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLineEdit>
#include <QMenu>
#include <QSortFilterProxyModel>
#include <QTimer>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

RoomListView::RoomListView(RoomListModel* model, QWidget* parent)
    : QWidget(parent)
    , m_model(model)
    , m_proxy(new RoomFilterProxy(model, this))
    , m_show(new QToolButton(this))
    , m_filter(new QLineEdit(this))
    , m_view(new QTreeView(this))
{
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
    connect(debounce, &QTimer::timeout, this, [this] {
        m_proxy->setFilterFixedString(m_filter->text());
        keepCurrentInView();
    });

    m_view->setModel(m_proxy);
    m_view->setRootIsDecorated(false);
    m_view->setUniformRowHeights(true);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(-1, Qt::AscendingOrder); // the source's own order until the user sorts
    m_view->setAlternatingRowColors(true);
    m_view->setAllColumnsShowFocus(true);
    // Several rooms at once (Ctrl+click, Shift+click) for a report of them; the current one is the room shown.
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    // Counts size to their contents and are never cut; the room's title takes what is left. The columns a
    // reviewer scans first are shown; the others (review, tools, last activity, system) are a right click on the
    // header away, remembered. With every column shown the list scrolls sideways rather than cut a count.
    QHeaderView* header = m_view->header();
    header->setStretchLastSection(false);
    header->setMinimumSectionSize(40);
    header->setSectionResizeMode(QHeaderView::ResizeToContents);
    // Sized by the rooms in view and a hundred more, not the first thousand: with ten thousand rooms the counts
    // move every two seconds while a store imports, and each move measured a thousand rows a column.
    header->setResizeContentsPrecision(100);
    header->setSectionResizeMode(RoomListModel::RoomColumn, QHeaderView::Stretch);
    m_view->setTextElideMode(Qt::ElideMiddle); // room ids differ at their ends as often as at their starts
    const QList<int> hidden = Settings::hiddenRoomColumns().value_or(QList<int> { RoomListModel::ReviewColumn,
        RoomListModel::ToolCallsColumn, RoomListModel::LastActivityColumn, RoomListModel::SystemColumn });
    for (int column : hidden) {
        if (column != RoomListModel::RoomColumn)
            header->setSectionHidden(column, true);
    }
    header->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(header, &QWidget::customContextMenuRequested, this, [this](const QPoint& at) {
        QMenu menu;
        for (int column = RoomListModel::EventsColumn; column < RoomListModel::NUM_COLUMNS; ++column) {
            QAction* a = menu.addAction(m_model->headerData(column, Qt::Horizontal).toString());
            a->setCheckable(true);
            a->setChecked(!m_view->header()->isSectionHidden(column));
            connect(a, &QAction::toggled, this, [this, column](bool on) {
                m_view->header()->setSectionHidden(column, !on);
                QList<int> hiddenNow;
                for (int c = 0; c < RoomListModel::NUM_COLUMNS; ++c) {
                    if (m_view->header()->isSectionHidden(c))
                        hiddenNow << c;
                }
                Settings::setHiddenRoomColumns(hiddenNow);
            });
        }
        menu.exec(m_view->header()->mapToGlobal(at));
    });
    fitWidth();
    connect(m_model, &QAbstractItemModel::modelReset, this, &RoomListView::fitWidth);
    connect(m_model, &QAbstractItemModel::dataChanged, this, &RoomListView::fitWidth);

    m_show->setObjectName(QStringLiteral("roomShow"));
    m_show->setPopupMode(QToolButton::InstantPopup);
    m_show->setToolTip(tr("Only rooms with problem calls, blocked rows, a channel type or recent activity"));
    m_show->setMenu(new QMenu(m_show));
    connect(m_show->menu(), &QMenu::aboutToShow, this, &RoomListView::fillShowMenu);
    showActiveFilters();

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* top = new QHBoxLayout;
    top->setSpacing(2);
    top->addWidget(m_filter, 1);
    top->addWidget(m_show);
    layout->addLayout(top);
    layout->addWidget(m_view);

    connect(
        m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& current) {
            if (current.isValid())
                emit roomActivated(current.data(RoomListModel::RoomIdRole).toLongLong());
        });
}

QVector<qint64> RoomListView::selectedRooms() const
{
    // In the list's order, as the user sees them.
    QModelIndexList rows = m_view->selectionModel()->selectedRows();
    std::sort(rows.begin(), rows.end(), [](const QModelIndex& a, const QModelIndex& b) { return a.row() < b.row(); });
    QVector<qint64> ids;
    for (const QModelIndex& row : std::as_const(rows))
        ids << row.data(RoomListModel::RoomIdRole).toLongLong();
    return ids;
}

void RoomListView::showAllRooms()
{
    m_filter->clear();
    m_proxy->setFilterFixedString({}); // at once, not after the typing pause (the debounce that follows finds it so)
    clearConditions();
}

void RoomListView::clearConditions()
{
    m_proxy->setWithProblemCalls(false);
    m_proxy->setWithBlockedRows(false);
    m_proxy->setChannelType({});
    m_proxy->setActiveWithin(0);
    m_proxy->setReview({});
    showActiveFilters();
}

void RoomListView::showActiveFilters()
{
    const int n = m_proxy->activeFilters();
    m_show->setText(n == 0 ? tr("Show") : tr("Show (%1)").arg(n));
    keepCurrentInView();
}

void RoomListView::keepCurrentInView()
{
    // Once the view has laid out the rooms the filter let back in: a filter cleared left the list at its top, the
    // room shown somewhere below.
    QTimer::singleShot(0, this, [this] {
        if (m_view->currentIndex().isValid())
            m_view->scrollTo(m_view->currentIndex(), QAbstractItemView::PositionAtCenter);
    });
}

void RoomListView::fillShowMenu()
{
    // Built when it opens: the channel types are the rooms' own.
    QMenu* menu = m_show->menu();
    menu->clear();
    QAction* failed = menu->addAction(tr("With &Problem Calls (failed, refused, unanswered)"), this, [this](bool on) {
        m_proxy->setWithProblemCalls(on);
        showActiveFilters();
    });
    failed->setCheckable(true);
    failed->setChecked(m_proxy->withProblemCalls());
    QAction* blocked = menu->addAction(tr("With &Blocked Rows"), this, [this](bool on) {
        m_proxy->setWithBlockedRows(on);
        showActiveFilters();
    });
    blocked->setCheckable(true);
    blocked->setChecked(m_proxy->withBlockedRows());

    QMenu* channels = menu->addMenu(tr("&Channel Type"));
    auto* channelGroup = new QActionGroup(channels);
    const QStringList types = QStringList { QString() } + m_proxy->channelTypes();
    for (const QString& type : types) {
        QAction* a = channels->addAction(type.isEmpty() ? tr("Any") : type, this, [this, type] {
            m_proxy->setChannelType(type);
            showActiveFilters();
        });
        a->setCheckable(true);
        a->setChecked(m_proxy->channelType() == type);
        channelGroup->addAction(a);
    }

    QMenu* review = menu->addMenu(tr("&Review Status"));
    auto* reviewGroup = new QActionGroup(review);
    for (const QString& status : QStringList { QString() } + ReviewStatus::all()) {
        QAction* a = review->addAction(status.isEmpty() ? tr("Any") : status, this, [this, status] {
            m_proxy->setReview(status);
            showActiveFilters();
        });
        a->setCheckable(true);
        a->setChecked(m_proxy->review() == status);
        reviewGroup->addAction(a);
    }

    QMenu* activity = menu->addMenu(tr("Last &Activity"));
    activity->setToolTipsVisible(true);
    auto* activityGroup = new QActionGroup(activity);
    constexpr qint64 hour = 3600LL * 1000000;
    const std::pair<qint64, QString> spans[] = { { 0, tr("Any Time") }, { hour, tr("Within an Hour of the Newest") },
        { 24 * hour, tr("Within a Day of the Newest") }, { 7 * 24 * hour, tr("Within a Week of the Newest") },
        { 30 * 24 * hour, tr("Within 30 Days of the Newest") } };
    for (const auto& [span, label] : spans) {
        QAction* a = activity->addAction(label, this, [this, s = span] {
            m_proxy->setActiveWithin(s);
            showActiveFilters();
        });
        a->setToolTip(tr("Rooms whose last event is this close to the newest room's last event"));
        a->setCheckable(true);
        a->setChecked(m_proxy->activeWithin() == span);
        activityGroup->addAction(a);
    }
    menu->addSeparator();
    menu->addAction(tr("Show All Rooms"), this, &RoomListView::clearConditions);
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

void RoomListView::fitWidth()
{
    // The counts, the problems and the blocked rows beside a readable title; while a room is read, its "reading… N of
    // M" too (sized for M read of M, so that it does not grow as N does): sized for a count alone, the room being
    // read squeezed the ids beside it to "r…g". Only while it is read: held at that width for good, it left the
    // timeline a third of a first window's width.
    const RoomSummary* reading = m_model->room(m_model->reading());
    const qint64 total = reading && reading->unread > 0 ? reading->sourceEvents() : 0;
    if (total == std::exchange(m_fittedFor, total))
        return; // a list refresh moves counts every half second while an import runs: measured once a room
    const QString events = total > 0 ? tr("reading… %1 of %2").arg(QLocale().toString(total), QLocale().toString(total))
                                     : QLocale().toString(qint64(10000000));
    const QFontMetrics fm = m_view->fontMetrics();
    m_view->setMinimumWidth(fm.horizontalAdvance(QStringLiteral("Support room")) + fm.horizontalAdvance(events)
        + fm.horizontalAdvance(QStringLiteral("Problems")) + fm.horizontalAdvance(QStringLiteral("Blocked")) + 56);
}
