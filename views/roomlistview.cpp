#include "roomlistview.h"

#include "annotation.h"
#include "roomfilterproxy.h"
#include "roomlistmodel.h"
#include "roomtitledelegate.h"
#include "settings.h"

#include <QActionGroup>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLineEdit>
#include <QMenu>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QStyle>
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
    // Each count column as wide as its heading and its widest figure, worked out from the rooms' figures (fitWidth):
    // measured by the header (ResizeToContents), every refresh of the list laid out the text of a hundred rooms a
    // column, and with ten thousand rooms refreshed twice a second while a store imports that was the window's longest
    // frames. A reviewer can still drag one wider.
    header->setSectionResizeMode(QHeaderView::Interactive);
    header->setSectionResizeMode(RoomListModel::RoomColumn, QHeaderView::Stretch);
    m_view->setTextElideMode(Qt::ElideMiddle); // room ids differ at their ends as often as at their starts
    m_view->setItemDelegateForColumn(RoomListModel::RoomColumn, new RoomTitleDelegate(m_view)); // titles at their end
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
                m_fitted.fill(-1); // the list's least width with or without it
                fitWidth();
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
    // Once an event loop's turn, however many runs of rooms a refresh changed.
    m_fit = new QTimer(this);
    m_fit->setSingleShot(true);
    m_fit->setInterval(0);
    connect(m_fit, &QTimer::timeout, this, &RoomListView::fitWidth);
    connect(m_model, &QAbstractItemModel::modelReset, m_fit, qOverload<>(&QTimer::start));
    connect(m_model, &QAbstractItemModel::dataChanged, m_fit, qOverload<>(&QTimer::start));

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
            // This room alone: setCurrentIndex() reads the keys held, and a shortcut's Ctrl (Ctrl+Alt+N, a queue's next
            // room) added the room to the rooms selected before.
            m_view->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
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
    // The widest figure of each count column, and the longest "N of M" the Events column says: a room read in part,
    // and the room being read ("reading… N of M", sized for M read of M, so that it does not grow as N does).
    qint64 events = 0, problems = 0, blocked = 0, tools = 0, partly = 0, reading = 0;
    for (const RoomSummary& r : m_model->rooms()) {
        events = std::max(events, r.notReadYet() ? r.sourceEvents() : r.eventCount);
        if (r.partlyRead())
            partly = std::max(partly, r.sourceEvents());
        if (r.id == m_model->reading() && r.unread > 0)
            reading = r.sourceEvents();
        if (!r.notReadYet()) {
            problems = std::max(problems, r.failed + r.refused + r.unserved);
            blocked = std::max(blocked, r.blockedCount);
            tools = std::max(tools, r.toolCalls);
        }
    }
    // While an import reads rooms the columns only grow: narrowed between two rooms (one read to its end, the next
    // not yet said), the Events column went back and forth twice a second.
    const bool importing = m_model->reading() != 0;
    const std::array<qint64, 7> fitted { events, problems, blocked, tools, partly, reading, importing };
    if (fitted == std::exchange(m_fitted, fitted))
        return; // a refresh that moved no widest figure: nothing is measured
    const QLocale locale;
    const QFontMetrics fm = m_view->fontMetrics();
    QHeaderView* header = m_view->header();
    const QFontMetrics headerFm = header->fontMetrics();
    const QStyle* style = header->style();
    // A heading: its text, the header's margins and room for the sort arrow; a cell: its text, the view's margins and
    // the ring a room read in part shows beside its count.
    const int headerExtra = 2 * style->pixelMetric(QStyle::PM_HeaderMargin, nullptr, header)
        + style->pixelMetric(QStyle::PM_HeaderMarkSize, nullptr, header) + 8;
    const int cellExtra = 2 * (style->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, m_view) + 1) + 8;
    const int iconExtra = m_view->iconSize().isValid() ? m_view->iconSize().width() + 4 : 20;
    auto width = [&](int column, QStringList values, bool icon = false) {
        int w = headerFm.horizontalAdvance(m_model->headerData(column, Qt::Horizontal).toString()) + headerExtra;
        for (const QString& v : values)
            w = std::max(w, fm.horizontalAdvance(v) + cellExtra + (icon ? iconExtra : 0));
        return w;
    };
    QStringList eventTexts { locale.toString(events) };
    if (partly > 0)
        eventTexts << tr("%1 of %2").arg(locale.toString(partly), locale.toString(partly));
    if (reading > 0)
        eventTexts << tr("reading… %1 of %2").arg(locale.toString(reading), locale.toString(reading));
    const std::pair<int, int> columns[] = {
        { RoomListModel::EventsColumn, width(RoomListModel::EventsColumn, eventTexts, partly > 0 || reading > 0) },
        { RoomListModel::ProblemsColumn, width(RoomListModel::ProblemsColumn, { locale.toString(problems) }) },
        { RoomListModel::BlockedColumn, width(RoomListModel::BlockedColumn, { locale.toString(blocked) }) },
        { RoomListModel::ToolCallsColumn, width(RoomListModel::ToolCallsColumn, { locale.toString(tools) }) },
        { RoomListModel::ReviewColumn, width(RoomListModel::ReviewColumn, ReviewStatus::all()) },
        { RoomListModel::LastActivityColumn, width(RoomListModel::LastActivityColumn, { QStringLiteral("0000-00-00 00:00") }) },
        { RoomListModel::SystemColumn, width(RoomListModel::SystemColumn, { QStringLiteral("craftbot"), QStringLiteral("roomkit") }) },
    };
    int counts = 0;
    for (const auto& [column, w] : columns) {
        // Wider when a figure needs it; narrower again when it no longer does (the Events column once a room's
        // "reading… N of M" is gone: left wide, it cut every title of the list to "Support room-…"), but never
        // narrower than a reviewer dragged it. A width that is not the one given here last was a reviewer's (a
        // hidden column says 0: not a drag).
        const int now = header->sectionSize(column);
        if (m_sized && !header->isSectionHidden(column) && now != m_fittedWidths.value(column, now))
            m_draggedWidths.insert(column, now);
        const int want = std::max({ w, m_draggedWidths.value(column, 0), importing ? now : 0 });
        if (!m_sized || now != want)
            header->resizeSection(column, want);
        m_fittedWidths.insert(column, want);
        if (!header->isSectionHidden(column))
            counts += header->sectionSize(column);
    }
    m_sized = true;
    // The list: the shown count columns beside a readable title. Wide for "reading… N of M" only while a room is
    // read: held at that width for good, it left the timeline a third of a first window's width.
    m_view->setMinimumWidth(counts + fm.horizontalAdvance(QStringLiteral("Support room")) + cellExtra
        + 2 * m_view->frameWidth() + m_view->verticalScrollBar()->sizeHint().width());
}
