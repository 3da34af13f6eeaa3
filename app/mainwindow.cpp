#include "mainwindow.h"

#include "contenteditor.h"
#include "demo/demostore.h"
#include "detailspane.h"
#include "editor.h"
#include "elidedelegate.h"
#include "eventactions.h"
#include "eventlistmodel.h"
#include "eventlistview.h"
#include "filterbar.h"
#include "filterpane.h"
#include "filterquery.h"
#include "importstatus.h"
#include "journaldock.h"
#include "comparewindow.h"
#include "queuedock.h"
#include "schema.h"
#include "teamdialog.h"
#include "teamlink.h"
#include "notespanel.h"
#include "opendatabasedialog.h"
#include "recentfiles.h"
#include "reportexporter.h"
#include "roomfilterproxy.h"
#include "roomlistmodel.h"
#include "roomlistview.h"
#include "searchbar.h"
#include "searchresultsdock.h"
#include "roommatch.h"
#include "searchnavigator.h"
#include "settings.h"
#include "shortcutsdialog.h"
#include "sourcefollower.h"
#include "sources/importer.h"
#include "sources/pgconnection.h"
#include "statusline.h"
#include "storeclient.h"
#include "storeerror.h"
#include "theme.h"
#include "workspacewatcher.h"
#include "timelinedelegate.h"
#include "timelineview.h"
#include "toolstatsdock.h"
#include "waterfalldock.h"
#include "workspacecompaction.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QInputDialog>
#include <QComboBox>
#include <QCompleter>
#include <QAbstractItemView>
#include <QKeyEvent>
#include <QCloseEvent>
#include <QDateTime>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QDir>
#include <QStandardPaths>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QProgressDialog>
#include <QScreen>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStyle>
#include <QTableWidget>
#include <QTimer>
#include <QToolButton>
#include <QTreeWidget>
#include <QUrl>
#include <QVBoxLayout>
#include <sqlite3.h>
#include <utility>

namespace {

// A dock's menu item by a name of its own: Qt's toggle action takes the dock's title at every change, and a title
// that says what the dock shows ("Filters: 2 terms active", "Search Results: 3 events holding …") is no menu item.
QAction* namedInMenu(QDockWidget* dock, const QString& name)
{
    QAction* toggle = dock->toggleViewAction();
    toggle->setText(name);
    QObject::connect(dock, &QDockWidget::windowTitleChanged, toggle, [toggle, name] { toggle->setText(name); });
    return toggle;
}

// Return in a completer's list with no completion highlighted accepts the dialog with what was typed: QCompleter
// only closes its list then, and Go ▸ Room needed a second Return (a new user's trial, twice).
class ReturnAccepts : public QObject
{
public:
    ReturnAccepts(QCompleter* completer, QDialog* dialog)
        : QObject(dialog)
        , m_completer(completer)
        , m_dialog(dialog)
    {
        completer->popup()->installEventFilter(this);
    }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() == QEvent::KeyPress) {
            const int key = static_cast<QKeyEvent*>(event)->key();
            if ((key == Qt::Key_Return || key == Qt::Key_Enter) && !m_completer->popup()->currentIndex().isValid()) {
                m_completer->popup()->hide();
                m_dialog->accept();
                return true;
            }
        }
        return QObject::eventFilter(watched, event);
    }

private:
    QCompleter* m_completer;
    QDialog* m_dialog;
};

} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_store(new StoreClient(this))
    , m_roomModel(new RoomListModel(this))
    , m_session(new RoomSession(m_store, this))
    , m_eventModel(m_session->model())
    , m_roomList(new RoomListView(m_roomModel, this))
    , m_eventList(new EventListView(this))
    , m_timeline(new TimelineView(this))
    , m_eventViews(new QStackedWidget(this))
    , m_splitter(new QSplitter(Qt::Horizontal, this))
    , m_status(new QLabel(this))
    , m_filterBar(new FilterBar(this))
    , m_filterPane(new FilterPane(this))
    , m_filterDock(new QDockWidget(tr("Filters"), this))
    , m_searchBar(new SearchBar(this))
    , m_eventActions(new EventActions(
          [this](const EventRecord&) {
              const RoomSummary* r = m_roomModel->room(m_eventModel->roomId());
              return r ? tr("%1, room %2").arg(r->sourcePath, r->nativeId) : QString();
          },
          this))
    , m_resultsDock(new SearchResultsDock(this))
    , m_importStatus(new ImportStatus(this))
    , m_summary(new QLabel(this))
    , m_details(new DetailsPane(this))
    , m_editor(new Editor(m_store, m_eventModel, this))
    , m_contentEditor(new ContentEditor(m_editor, m_store, m_eventModel, this))
    , m_exporter(new ReportExporter(m_store, this))
    , m_notes(new NotesPanel(m_editor, m_eventModel, this))
    , m_journalDock(new JournalDock(m_store, this))
    , m_toolStatsDock(new ToolStatsDock(m_store, this))
    , m_waterfallDock(new WaterfallDock(m_store, this))
    , m_team(new TeamLink(m_store, this))
    , m_watcher(new WorkspaceWatcher(m_store, this))
    , m_queueDock(new QueueDock(m_team, this))
{
    // MainWindow composes: the parts are made above; here they are laid out and wired, an area at a time.
    layOut();
    connectParts();
    createStatusBar();
    createActions();
    connectImport();
    connectTimeline();
    connectSearch();
    connectPanes();
    connectTeam();
    restoreLayout();
    updateStatus();
}

// The window's layout: the timeline and raw rows under the room's banner, the details and notes beside them,
// the room list, and the docks.
void MainWindow::layOut()
{
    setWindowTitle(tr("Sightline[*]"));
    setAcceptDrops(true);
    m_timeline->setModel(m_eventModel); // the raw rows get the model when they are shown (EventListView)
    m_eventModel->setMode(EventListModel::Mode::Timeline);
    m_eventViews->addWidget(m_timeline);
    m_eventViews->addWidget(m_eventList);
    m_eventList->attach(m_eventModel); // once, for the columns' widths, kept while it is not shown
    m_eventList->horizontalHeader()->resizeSection(EventListModel::IndexColumn, 60);
    m_eventList->horizontalHeader()->resizeSection(EventListModel::TimeColumn, 140);
    m_eventList->horizontalHeader()->resizeSection(EventListModel::TypeColumn, 170);
    m_eventList->horizontalHeader()->resizeSection(EventListModel::ChannelColumn, 120);
    // A narrow time column keeps the time of day (the date is the room's): cut at its start.
    m_eventList->setItemDelegateForColumn(EventListModel::TimeColumn, new ElideDelegate(Qt::ElideLeft, m_eventList));
    m_eventList->detach();

    // The events, under a banner for a room that starts with a summary of what came before it.
    auto* events = new QWidget(this);
    auto* eventsLayout = new QVBoxLayout(events);
    eventsLayout->setContentsMargins(0, 0, 0, 0);
    eventsLayout->setSpacing(0);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setFrameShape(QFrame::StyledPanel);
    m_summary->setMargin(6);
    m_summary->setBackgroundRole(QPalette::ToolTipBase);
    m_summary->setForegroundRole(QPalette::ToolTipText);
    m_summary->setAutoFillBackground(true);
    m_summary->hide();
    eventsLayout->addWidget(m_filterBar);
    eventsLayout->addWidget(m_searchBar);
    eventsLayout->addWidget(m_summary);
    eventsLayout->addWidget(m_eventViews);
    m_splitter->addWidget(m_roomList);
    m_splitter->addWidget(events);
    // The event's details over its notes, labels and mark.
    auto* right = new QSplitter(Qt::Vertical, this);
    right->addWidget(m_details);
    right->addWidget(m_notes);
    right->setStretchFactor(0, 3);
    right->setStretchFactor(1, 1);
    m_splitter->addWidget(right);
    m_splitter->setStretchFactor(1, 1);
    setCentralWidget(m_splitter);
    m_filterDock->setObjectName(QStringLiteral("filterDock"));
    m_filterDock->setWidget(m_filterPane);
    connect(m_eventActions, &EventActions::copied, this,
        [this](const QString& what) { say(tr("Copied %1").arg(what), 3000); });
    m_eventActions->attach(m_eventList);
    m_eventActions->attach(m_timeline);
    addDockWidget(Qt::LeftDockWidgetArea, m_filterDock);
    addDockWidget(Qt::BottomDockWidgetArea, m_resultsDock);
    m_resultsDock->hide();
    addDockWidget(Qt::BottomDockWidgetArea, m_journalDock);
    m_journalDock->hide();
    addDockWidget(Qt::BottomDockWidgetArea, m_toolStatsDock);
    m_toolStatsDock->hide();
    addDockWidget(Qt::BottomDockWidgetArea, m_waterfallDock);
    tabifyDockWidget(m_toolStatsDock, m_waterfallDock); // both about the room's calls: one place, a tab each
    m_waterfallDock->hide();
    addDockWidget(Qt::BottomDockWidgetArea, m_queueDock); // wide enough for each reviewer's share
    m_queueDock->hide();
}

// The docks and the editor, on the room shown and the event selected: a bar, a figure, an edit, a redaction, a
// room's review status, the journal's entries.
void MainWindow::connectParts()
{
    // A bar clicked selects its card; a card selected shows its bar (loadDetails).
    connect(m_waterfallDock, &WaterfallDock::callActivated, this, &MainWindow::goToIndex);
    // A figure of the statistics shows its calls: the tool (and the outcome) replace those of the filter.
    connect(m_toolStatsDock, &ToolStatsDock::filterTo, this, [this](const QString& tool, const QString& outcome) {
        EventFilter filter = m_filterBar->filter();
        filter.tools = QStringList { tool };
        filter.excludeTools.clear();
        filter.outcomes = outcome.isEmpty() ? QStringList() : QStringList { outcome };
        filter.excludeOutcomes.clear();
        m_filterBar->setText(FilterQuery::format(filter));
    });
    // The editor acts on the room shown and the event selected; its changes show wherever annotations do.
    m_editor->setCurrent([this] { return std::pair<qint64, qint64>(m_eventModel->roomId(), currentIndex()); });
    m_editor->setRoomNames([this](qint64 id) {
        const RoomSummary* r = m_roomModel->room(id);
        return r ? r->name() : QString();
    });
    m_eventActions->setMoreItems([this](QMenu* menu, const QModelIndex& index) {
        m_editor->addEventItems(menu, index);
        m_contentEditor->addEventItems(menu, index);
    });
    m_contentEditor->setCurrent([this] { return eventList()->currentIndex(); });
    connect(m_contentEditor, &ContentEditor::message, this, [this](const QString& text) { say(text, 8000); });
    connect(m_exporter, &ReportExporter::message, this, [this](const QString& text) { say(text, 10000); });
    connect(m_details, &DetailsPane::showEditsRequested, this, [this] { m_contentEditor->showEdits(currentIndex()); });
    connect(m_editor, &Editor::changed, this, &MainWindow::reviewChanged);
    // A note, a status or a redaction made with the command line meanwhile shows here as a teammate's does.
    connect(m_watcher, &WorkspaceWatcher::changed, this, &MainWindow::reviewChanged);
    // Redacting: the text selected in the details' Raw tab (Ctrl+Shift+R), or a value of its tree.
    connect(m_editor->redactAction(), &QAction::triggered, this, [this] {
        const DetailsPane::RedactionTarget t = m_details->selectedText();
        if (!t.error.isEmpty()) {
            say(t.error, 8000);
            return;
        }
        m_editor->redact(m_eventModel->roomId(), t.index, t.path, t.start, t.length, t.text);
    });
    connect(m_details, &DetailsPane::redactRequested, this, [this](const DetailsPane::RedactionTarget& t) {
        m_editor->redact(m_eventModel->roomId(), t.index, t.path, t.start, t.length, t.text);
    });
    connect(m_editor, &Editor::modifiedChanged, this, &QWidget::setWindowModified);
    // A room's review status and notes, from the room list's context menu.
    m_roomList->view()->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_roomList->view(), &QWidget::customContextMenuRequested, this, [this](const QPoint& at) {
        QAbstractItemView* view = m_roomList->view();
        const QModelIndex index = view->indexAt(at);
        if (!index.isValid())
            return;
        view->setCurrentIndex(index);
        auto* menu = new QMenu(view);
        menu->setAttribute(Qt::WA_DeleteOnClose);
        m_editor->addReviewMenu(menu->addMenu(tr("&Review Status")), index.data(RoomListModel::RoomIdRole).toLongLong());
        menu->addAction(m_editor->roomNoteAction());
        // The room clicked is shown (setCurrentIndex above): it is side A.
        menu->addAction(tr("Co&mpare With…"), this, [this] { compareWith(); });
        menu->popup(view->viewport()->mapToGlobal(at));
    });
    connect(m_editor, &Editor::message, this, [this](const QString& text) { say(text, 6000); });
    m_compaction = new WorkspaceCompaction(m_store, this);
    connect(m_compaction, &WorkspaceCompaction::message, this, [this](const QString& text) { say(text, 10000); });
    // No sync while the file is written anew: following pauses, and goes on as it was after.
    connect(m_compaction, &WorkspaceCompaction::started, this, [this] {
        m_followBeforeCompaction = !m_follower->isPaused();
        m_follower->setPaused(true);
    });
    connect(m_compaction, &WorkspaceCompaction::finished, this, [this] { m_follower->setPaused(!m_followBeforeCompaction); });
    connect(m_editor, &Editor::goToIndex, this, &MainWindow::goToIndex);
    connect(m_journalDock, &JournalDock::goTo, this, [this](qint64 roomId, qint64 index) {
        if (roomId != m_eventModel->roomId() && !m_roomList->selectRoom(roomId)) {
            say(tr("That room is hidden by the room filter."), 4000);
            return;
        }
        if (index >= 0)
            goToIndex(index);
    });
}

// The status bar (the import's progress, the room's counts, following), the follower, the database dialog and the
// timers that pace the room list while an import runs.
void MainWindow::createStatusBar()
{
    m_roomsRefresh = new QTimer(this);
    m_roomsRefresh->setSingleShot(true);
    m_roomsRefresh->setInterval(500);
    // While an import runs the list's counts move every two seconds, so every room is seen filling up. The room
    // shown is read again only once a batch of it is made whole (roomReady): re-reading a growing room of a
    // million rows every two seconds would take the import's own core.
    m_importTick = new QTimer(this);
    m_importTick->setInterval(2000);
    statusBar()->addPermanentWidget(m_importStatus);
    statusBar()->addPermanentWidget(m_status);
    connect(statusBar(), &QStatusBar::messageChanged, this, [this](const QString& message) {
        if (message.isEmpty()) { // say()'s whole message went with it
            statusBar()->setToolTip(QString());
            m_message.clear();
        }
    });
    m_follower = new SourceFollower(m_store, this);
    connect(m_follower, &SourceFollower::syncing, this, [this] {
        m_followSync = true;
        m_timeline->setSayingNewRows(true); // what the source gained since: news
    });
    m_followButton = new QToolButton(this);
    m_followButton->setCheckable(true);
    statusBar()->addPermanentWidget(m_followButton);
    m_databaseDialog = new OpenDatabaseDialog(this);
    connect(m_databaseDialog, &QDialog::rejected, this, [this] {
        say(
            tr("No database was opened: File > Open Database… (Ctrl+Shift+D) connects again."), 10000);
    });
    connect(m_databaseDialog, &OpenDatabaseDialog::openRequested, this,
        [this](const QString& uri, const QString& firstRoom) {
            RecentFiles::remember(PgConnection::withoutPassword(uri));
            openWorkspace(Importer::cachedWorkspacePath(uri), { uri }, firstRoom);
        });
}

// An import's life, seen from the window: it starts, rooms are read and made whole, it ends (or fails); each room
// list that comes keeps the room shown, or picks the first one, and reads the room shown again when its rows moved.
void MainWindow::connectImport()
{
    connect(m_store, &StoreClient::failed, this, [this](quint64, StoreClient::Kind kind, const QString& message) {
        // A followed source's sync that failed (a server gone, a file being replaced) is tried again at the next
        // look: said in the status bar, not in a box that would come back every second.
        if (kind == StoreClient::Kind::Import && m_followSync) {
            say(tr("%1 (following: tried again in a moment)").arg(message), 5000);
            return;
        }
        // A block or the row index that failed says so in the timeline itself (EventListModel::blockFailed).
        // A comparison that failed says so in its own window (CompareWindow), the one the user is looking at.
        // The look for changes made elsewhere fails quietly: the next one, two seconds on, tries again.
        if (kind != StoreClient::Kind::Block && kind != StoreClient::Kind::Compare && kind != StoreClient::Kind::CompareStep
            && kind != StoreClient::Kind::JournalHead)
            showError(message);
    });
    connect(m_store, &StoreClient::workspaceOpened, this, [this](const QString& path) {
        setWindowFilePath(path);
        endUpgradeMessage();
        m_editor->workspaceOpened();
        m_team->workspaceOpened();
        m_watcher->workspaceOpened();
        if (!m_store->isImporting())
            m_store->loadRooms();
    });
    // In the background, on its own connection: the window stays in use, and the biggest room shows after its
    // first batch while the rest imports.
    connect(m_store, &StoreClient::importStarted, this, [this](const QStringList& sources) {
        m_timeline->setSayingNewRows(false); // the rows of a source being opened are not "new events below"
        m_importStatus->start(Importer::displayName(sources.first()));
        m_importClock.start();
        m_importTick->start();
    });
    connect(m_store, &StoreClient::importProgress, m_importStatus, &ImportStatus::setProgress);
    // A room made whole while the import goes on: the list shows it at once, and then not more than twice a
    // second (the first one is the biggest room's first batch: waiting out the half second first made a store's
    // first screen half a second late).
    connect(m_store, &StoreClient::roomReady, this, [this](qint64 roomId) {
        // Only the room shown made whole is read again; another room's rows only move the list's counts (and the
        // status bar's "imported so far").
        m_session->madeWhole(roomId);
        if (m_roomsRefresh->isActive()) {
            m_roomsWaiting = true; // listed when the half second is over
            return;
        }
        m_store->loadRooms();
        m_roomsRefresh->start();
    });
    connect(m_roomsRefresh, &QTimer::timeout, this, [this] {
        if (!std::exchange(m_roomsWaiting, false))
            return;
        m_store->loadRooms();
        m_roomsRefresh->start();
    });
    connect(m_importTick, &QTimer::timeout, m_store, &StoreClient::loadRooms);
    m_readingShown = new QTimer(this);
    m_readingShown->setSingleShot(true);
    m_readingShown->setInterval(200);
    const auto showReading = [this] {
        m_roomModel->setReading(m_readingRoom);
        updateStatus(); // the room shown, not read yet, is being read now
    };
    connect(m_readingShown, &QTimer::timeout, this, showReading);
    connect(m_store, &StoreClient::roomReading, this, [this, showReading](qint64 roomId) {
        m_readingRoom = roomId;
        // The first at once (a room clicked is said to be read as it starts), the rest when the timer ends.
        if (!m_readingShown->isActive()) {
            showReading();
            m_readingShown->start();
        }
    });
    connect(m_store, &StoreClient::imported, this, [this](const ImportReport& report) {
        m_importProblems += report.problems;
        // Rows of the room shown written again in place (a record its writer finished, a call settled) move no
        // count: the next room list reads the room again all the same.
        for (const ImportReport::Room& r : report.rooms) {
            if (r.changed > 0)
                m_session->rewritten(r.id);
        }
        // A sync of a followed source says only what it brought.
        if (m_followSync) {
            if (report.added() > 0)
                say(report.added() == 1
                        ? tr("1 new event from %1").arg(report.source)
                        : tr("%1 new events from %2").arg(QLocale().toString(report.added()), report.source),
                    4000);
            return;
        }
        // The end of an import said with what it read and how long it took: a store of ten million events imports
        // for minutes in the background, and its end went by as the progress bar went away.
        qint64 rooms = 0;
        for (const ImportReport::Room& r : report.rooms)
            rooms += r.added > 0 ? 1 : 0;
        const qint64 ms = m_importClock.isValid() ? m_importClock.elapsed() : 0;
        const QString took = ms < 60000 ? tr("%1 s").arg(QLocale().toString(ms / 1000.0, 'f', 1))
                                        : tr("%1 min %2 s").arg(ms / 60000).arg((ms % 60000) / 1000);
        const QString source = Importer::displayName(report.source); // its name, as the progress and the title say it
        QString text = report.added() == 1 ? tr("Imported 1 new event from %1").arg(source)
                                           : tr("Imported %1 new events from %2").arg(QLocale().toString(report.added()), source);
        if (rooms > 1)
            text += tr(" into %1 rooms").arg(QLocale().toString(rooms));
        text += tr(" in %1").arg(took);
        if (report.roomsNotRead > 0)
            text += report.roomsNotRead == 1 ? tr("; 1 room not read yet") : tr("; %1 rooms not read yet").arg(report.roomsNotRead);
        say(text, 15000);
    });
    connect(m_store, &StoreClient::importFinished, this, [this](bool cancelled) {
        hideImportStatus();
        // A search across rooms shown while rooms were still being read says so: asked again when the import ends
        // (read them all, or cancelled: then it says which are not read, and offers to read them).
        const QString searchAgain = !m_searchWhenRead.isEmpty() ? std::exchange(m_searchWhenRead, QString())
            : !m_resultsDock->notSearchedText().isEmpty()        ? m_searched
                                                                 : QString();
        if (cancelled)
            say(tr("Import cancelled: what was read so far is shown."), 8000);
        // A log's last line that its writer had not finished is what a log being written looks like: said in the
        // status bar (it is read again whole at the next sync), never in a box.
        const qsizetype unfinished = m_importProblems.removeIf(&ImportReport::isUnfinished);
        // What a followed source's sync found wrong goes to the status bar: a box would come back with every
        // sync while the writer goes on.
        if (std::exchange(m_followSync, false) && !m_importProblems.isEmpty()) {
            say(m_importProblems.constFirst(), 8000);
            m_importProblems.clear();
        }
        if (!m_importProblems.isEmpty()) {
            showError(
                tr("Some rows were kept but flagged:\n%1").arg(m_importProblems.mid(0, 20).join(QLatin1Char('\n'))));
            m_importProblems.clear();
        } else if (unfinished > 0) {
            say(tr("The log's last line is not finished yet: it is read again when its writer goes on."), 8000);
        }
        const quint64 roomsRead = m_store->loadRooms();
        // A search across rooms asked again once the rooms it could not search are read: when the list of them is
        // back, so that what it says it could not search is that list's.
        if (!searchAgain.isEmpty())
            m_searchAfterRooms = { roomsRead, searchAgain };
    });
    connect(m_importStatus, &ImportStatus::cancelRequested, m_store, &StoreClient::cancelImport);
    connect(m_store, &StoreClient::roomsLoaded, this, [this](quint64 request, const RoomSummaries& rooms) {
        const qint64 current = m_roomList->currentRoom();
        // The room shown stays as it is (its place, its open cards) unless it grew.
        m_keepingRoom = true;
        m_roomModel->setRooms(rooms);
        updateTitle();
        if (request != 0 && m_searchAfterRooms.first == request)
            searchAllRooms(std::exchange(m_searchAfterRooms, {}).second);
        const bool kept = m_roomList->selectRoom(current);
        m_keepingRoom = false;
        // The room chosen when the source was opened, as soon as the list has it.
        if (!kept && !m_firstRoom.isEmpty()) {
            for (const RoomSummary& r : rooms) {
                if (r.nativeId == m_firstRoom && m_roomList->selectRoom(r.id)) {
                    m_firstRoom.clear();
                    updateStatus();
                    return;
                }
            }
        }
        if (!kept && !rooms.isEmpty()) {
            // The biggest room: the one an import reads first, so the room picked is the same whether the list
            // comes while the store imports or after (the first room with events in list order made it depend on
            // timing). Ties go to the first in list order.
            // By the source's count: before a room is read, the list knows it from the source (and the room shown
            // is the room an import reads next).
            const auto pick = std::max_element(rooms.cbegin(), rooms.cend(),
                [](const RoomSummary& a, const RoomSummary& b) { return a.sourceEvents() < b.sourceEvents(); });
            m_roomList->selectRoom(pick != rooms.cend() && pick->sourceEvents() > 0 ? pick->id : rooms.first().id);
        } else if (kept && m_session->listCame(rooms, current, isImporting())) {
            // The room shown grew (its import went on, or a sync) and was read again in place, the selection, the
            // open cards and the scroll position kept: what is shown beside the rows follows them (the panes, the
            // selected event's details).
            readAroundTheRoom(current);
            loadDetails(eventList()->currentIndex());
        }
        if (rooms.isEmpty())
            m_eventModel->setRoom(0);
        updateStatus();
        if (!isImporting())
            emit roomsShown();
    });
}

// The room shown: its details, a call or item found for it, its model's blocks and row index, and the filter bar
// applied to it.
void MainWindow::connectTimeline()
{
    connect(m_store, &StoreClient::detailsLoaded, this, [this](quint64, const EventDetails& details) {
        if (details.roomId == m_eventModel->roomId())
            m_details->setDetails(details);
    });
    connect(m_store, &StoreClient::problemCallFound, this, [this](quint64, qint64 roomId, qint64 index) {
        if (roomId != m_eventModel->roomId())
            return;
        if (index < 0) {
            say(tr("No more failed, refused or unanswered calls that way."), 4000);
        } else {
            // The call is where the keys go next (Enter opens it), wherever ] was pressed.
            eventList()->setFocus(Qt::ShortcutFocusReason);
            goToIndex(index);
        }
    });
    connect(m_details, &DetailsPane::goToIndex, this, &MainWindow::goToIndex);
    connect(m_store, &StoreClient::itemHoldingFound, this, [this](quint64, qint64 roomId, qint64 index, qint64 item) {
        if (roomId != m_eventModel->roomId() || isRawMode())
            return;
        if (item < 0) { // held by nothing the timeline shows: the raw rows show it on its own
            setRawMode(true);
            m_eventModel->locate(index);
            return;
        }
        m_openWhenLocated = item;
        m_eventModel->locate(item);
    });
    connect(m_eventModel, &EventListModel::blockFailed, this, [this](int block, const QString& message) {
        if (block < 0) // the row index: without it the room cannot be scrolled past its first screen
            showError(tr("This room's events could not be counted:\n%1").arg(message));
    });
    connect(m_eventModel, &EventListModel::indexReady, this, [this](qint64 index, int row) {
        if (index == m_keepWhenLocated) {
            m_keepWhenLocated = -1;
            if (row < 0) { // the filter leaves the selected event out: nothing is selected, and nothing said
                m_openWhenLocated = -1;
                return;
            }
        }
        if (row < 0 && !isRawMode()) {
            // Folded into a card or a message in the timeline: the item that holds it is selected and opened
            // there (switching to the raw rows lost the reader's place).
            m_store->findItemHolding(m_eventModel->roomId(), index);
            return;
        }
        if (row < 0) {
            say(tr("Event %1 is not shown under the current filter.").arg(index), 4000);
            return;
        }
        // Only the item asked to be opened is: an answer for another locate that comes first leaves it waiting.
        if (m_openWhenLocated == index) {
            m_openWhenLocated = -1;
            m_eventModel->setData(m_eventModel->index(row, 0), true, EventListModel::ExpandedRole);
        }
        eventList()->setCurrentIndex(m_eventModel->index(row, 0));
        eventList()->scrollTo(m_eventModel->index(row, 0), QAbstractItemView::PositionAtCenter);
    });
    connect(m_timeline->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &MainWindow::loadDetails);
    connect(m_eventList, &EventListView::currentRowChanged, this, &MainWindow::loadDetails);
    // The current row's block may still be on its way (End in a big room): its details follow it.
    connect(m_eventModel, &EventListModel::rowsLoaded, this, [this](int first, int last) {
        const QModelIndex current = eventList()->currentIndex();
        if (m_detailsPending && current.isValid() && current.row() >= first && current.row() <= last)
            loadDetails(current);
    });
    connect(m_eventModel, &QAbstractItemModel::modelReset, m_details, &DetailsPane::clear);
    connect(m_eventModel, &QAbstractItemModel::modelReset, m_notes, [this] { m_notes->showItem(-1); });
    connect(m_filterBar, &FilterBar::filterChanged, this, [this](const EventFilter& filter) {
        m_filterPane->setFilter(filter);
        // An active filter is seen at a glance: in the dock's title, and as the bar's tint (FilterBar).
        m_filterDock->setWindowTitle(filter.terms() == 0 ? tr("Filters")
                : filter.terms() == 1                     ? tr("Filters: 1 term active")
                                                          : tr("Filters: %1 terms active").arg(filter.terms()));
        if (m_eventModel->roomId() != 0) {
            // The event selected stays selected (and open) when the new filter still shows it.
            const qint64 selected = currentIndex();
            const bool open = eventList()->currentIndex().data(EventListModel::ExpandedRole).toBool();
            m_eventModel->setRoom(m_eventModel->roomId(), filter);
            if (selected >= 0) {
                m_keepWhenLocated = selected;
                m_openWhenLocated = open ? selected : -1;
                m_eventModel->locate(selected);
            }
            requestFacets();
            findMatches();
        }
    });
}

// Find in the room (F3) and search across rooms (the Search Results dock).
void MainWindow::connectSearch()
{
    // Find in the room: the rows that match, stepped through with F3; found again when the filter changes.
    connect(m_searchBar, &SearchBar::searchChanged, this, [this] {
        m_goToFirstMatch = true;
        findMatches();
    });
    connect(m_searchBar, &SearchBar::next, this, [this] { goToMatch(true); });
    connect(m_searchBar, &SearchBar::previous, this, [this] { goToMatch(false); });
    connect(m_store, &StoreClient::rowsFound, this, [this](quint64 request, qint64 roomId, const QVector<qint64>& indexes) {
            if (request != m_matchesRequest || roomId != m_eventModel->roomId())
                return;
            m_matches.setMatches(indexes);
            const std::optional<qint64> first = m_matches.firstFrom(currentIndex());
            if (std::exchange(m_goToFirstMatch, false) && first) {
                if (!isRawMode())
                    m_openWhenLocated = *first; // opened, as F3 opens what it finds
                goToIndex(*first);
            }
            showMatchPosition();
        });
    connect(m_searchBar, &SearchBar::searchAllRooms, this, &MainWindow::searchAllRooms);
    connect(m_store, &StoreClient::searchFound, m_resultsDock, [this](quint64, const QString& text, const SearchHits& hits) {
        m_resultsDock->setResults(text, hits);
        m_searched = text;
        // The rooms not read yet were not searched: said, with an offer to read them.
        int rooms = 0;
        qint64 events = 0;
        for (const RoomSummary& r : m_roomModel->rooms()) {
            if (r.unread > 0) {
                ++rooms;
                events += r.unread;
            }
        }
        m_resultsDock->setNotSearched(rooms, events, isImporting());
    });
    connect(m_resultsDock, &SearchResultsDock::readRestRequested, this, [this] {
        m_searchWhenRead = m_searched;
        if (isImporting()) {
            say(tr("The search runs again once the import has read every room."), 6000);
            return;
        }
        // The sources open now; for a workspace opened as it is, those of the rooms not read, where they still are.
        QStringList sources = m_follower->sources();
        if (sources.isEmpty()) {
            for (const RoomSummary& r : m_roomModel->rooms()) {
                if (r.unread > 0 && !sources.contains(r.sourcePath)
                    && (PgConnection::isUri(r.sourcePath) || QFileInfo::exists(r.sourcePath)))
                    sources << r.sourcePath;
            }
        }
        if (sources.isEmpty() || !m_store->sync(sources)) {
            m_searchWhenRead.clear();
            showError(tr("The rooms not read yet cannot be read now: their source is not where it was read from, or "
                         "another import is under way."));
            return;
        }
        m_importStatus->start(Importer::displayName(sources.first()));
        m_importClock.start();
        m_importTick->start();
        say(tr("Reading the rooms not read yet: the search runs again once they are read."), 6000);
    });
    connect(m_resultsDock, &SearchResultsDock::hitActivated, this, [this](qint64 roomId, const QString& room, qint64 index) {
        if (roomId != m_eventModel->roomId() && !m_roomList->selectRoom(roomId)) {
            say(tr("Room %1 is hidden by the room filter.").arg(room), 4000);
            return;
        }
        goToIndex(index);
    });
    connect(m_timeline->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        &MainWindow::showMatchPosition);
    connect(m_eventList, &EventListView::currentRowChanged, this, &MainWindow::showMatchPosition);
}

// The filter panes and the bar, the room list, and the status line kept true.
void MainWindow::connectPanes()
{
    // The panes write into the bar, which applies the filter and shows it as text.
    connect(m_filterPane, &FilterPane::filterEdited, this,
        [this](const EventFilter& filter) { m_filterBar->setText(FilterQuery::format(filter)); });
    connect(m_store, &StoreClient::facetsLoaded, this, [this](quint64, const FacetCounts& f) {
        if (f.roomId == m_eventModel->roomId())
            m_filterPane->setCounts(f);
    });
    // The room's own values complete in the filter bar; read on the count worker, after the room's row index.
    connect(m_store, &StoreClient::roomValuesLoaded, this,
        [this](quint64, qint64 roomId, const QMap<QString, QStringList>& values) {
            if (roomId == m_eventModel->roomId())
                m_filterBar->setCompletions(values);
        });
    connect(m_roomList, &RoomListView::roomActivated, this, [this](qint64 roomId) {
        if (!(m_keepingRoom && roomId == m_eventModel->roomId()))
            showRoom(roomId);
    });
    connect(m_eventModel, &EventListModel::countsChanged, this, &MainWindow::updateStatus);
    // The room list's filter hiding the room shown, or showing it again: the status line says which room it is.
    for (const auto signal : { &QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved })
        connect(m_roomList->proxy(), signal, this, &MainWindow::updateStatus);
    connect(m_roomList->proxy(), &QAbstractItemModel::modelReset, this, &MainWindow::updateStatus);
    connect(m_roomList->proxy(), &QAbstractItemModel::layoutChanged, this, &MainWindow::updateStatus);
    connect(m_eventModel, &QAbstractItemModel::rowsInserted, this, &MainWindow::updateStatus);
    connect(m_eventModel, &QAbstractItemModel::modelReset, this, &MainWindow::updateStatus);
}

// The window as the user left it (its place, split and docks, the last filter), or most of the screen the first time.
void MainWindow::restoreLayout()
{
    const Settings::Window placed = Settings::window();
    restoreGeometry(placed.geometry);
    m_splitter->restoreState(placed.splitter);
    m_splitFirstShown = placed.splitter.isEmpty(); // the first run: split once the window has its width (showEvent)
    restoreState(placed.docks);
    m_resultsDock->hide(); // it comes back empty: shown again by the next search of every room
    // The filter of the last session applies to the first room shown; the bar and "showing X of Y" say so.
    const QString lastFilter = Settings::currentFilter();
    if (!lastFilter.isEmpty())
        m_filterBar->setText(lastFilter);
    if (placed.geometry.isEmpty()) {
        // The first run: most of the screen, never more than it.
        const QRect screen = QGuiApplication::primaryScreen()->availableGeometry();
        resize(std::min(1500, screen.width() * 9 / 10), std::min(900, screen.height() * 9 / 10));
    }
}


MainWindow::~MainWindow()
{
    // Before the store's connections close: teammates stop seeing this window in its room, and the team store's
    // connection is let go of on the thread that made it.
    m_team->shutDown();
}

void MainWindow::createActions()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    // Icons from the desktop's theme, with Qt's own where the theme has none.
    QAction* open = file->addAction(
        QIcon::fromTheme(QStringLiteral("document-open"), style()->standardIcon(QStyle::SP_DialogOpenButton)),
        tr("&Open…"));
    open->setShortcut(QKeySequence::Open);
    open->setStatusTip(tr("Open a store, a log or a workspace: RoomKit, AG-UI, CraftBot, a JSON Lines report"));
    connect(open, &QAction::triggered, this, [this] {
        // Every format Sightline reads is offered by default: the logs too, not only the databases.
        const QString path = QFileDialog::getOpenFileName(this, tr("Open a store, a log or a workspace"), QString(),
            tr("Everything Sightline reads (*.sqlite *.sqlite3 *.db *.sightline *.jsonl *.ndjson *.json *.md);;"
               "RoomKit stores and workspaces (*.sqlite *.sqlite3 *.db *.sightline);;"
               "AG-UI thread logs (*.jsonl *.ndjson *.json);;"
               "CraftBot logs (*.md sessions.db);;Sightline JSON Lines reports (*.jsonl);;All files (*)"));
        if (!path.isEmpty())
            openPath(path);
    });
    QAction* openFolder = file->addAction(
        QIcon::fromTheme(QStringLiteral("folder-open"), style()->standardIcon(QStyle::SP_DirOpenIcon)),
        tr("Open &Folder…"));
    openFolder->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    openFolder->setStatusTip(tr("Open a folder of AG-UI thread logs"));
    connect(openFolder, &QAction::triggered, this, [this] {
        const QString path = QFileDialog::getExistingDirectory(this, tr("Open a folder of AG-UI thread logs"));
        if (!path.isEmpty())
            openPath(path);
    });
    QAction* openDatabase = file->addAction(QIcon::fromTheme(QStringLiteral("network-server-database")),
        tr("Open &Database…"));
    openDatabase->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D));
    openDatabase->setStatusTip(tr("Open RoomKit's or kaboo-runtime's store in a PostgreSQL database"));
    connect(openDatabase, &QAction::triggered, m_databaseDialog, &OpenDatabaseDialog::choose);
    m_recentMenu = file->addMenu(QIcon::fromTheme(QStringLiteral("document-open-recent")), tr("Open &Recent"));
    connect(m_recentMenu, &QMenu::aboutToShow, this,
        [this] { RecentFiles::fillMenu(m_recentMenu, [this](const QString& path) { openPath(path); }); });
    QAction* demo = file->addAction(tr("Open Demo &Workspace")); // D is Open Database…'s
    connect(demo, &QAction::triggered, this, &MainWindow::openDemo);
    file->addSeparator();
    file->addAction(m_editor->saveAction());
    QAction* saveAs = file->addAction(tr("Save Workspace &As…"));
    // Spelled out: QKeySequence::SaveAs is no key at all outside KDE and GNOME (under openbox the key did nothing).
    saveAs->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
    saveAs->setStatusTip(tr("A self-contained copy to hand on: every note, label, review and redaction, and none of "
                            "the text redacted"));
    connect(saveAs, &QAction::triggered, this, [this] {
        // A name offered: the source's, as a workspace, in the reports' last folder (else Documents).
        QString folder = Settings::exportChoices().folder;
        if (folder.isEmpty() || !QFileInfo(folder).isDir())
            folder = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
        const RoomSummaries rooms = m_roomModel->rooms();
        const QString base = rooms.isEmpty() ? QStringLiteral("review") : QFileInfo(rooms.first().sourcePath).completeBaseName();
        const QString path = QFileDialog::getSaveFileName(this, tr("Save Workspace As"),
            QDir(folder).filePath(base + QStringLiteral(" review.sightline")), tr("Sightline workspaces (*.sightline)"));
        if (path.isEmpty())
            return;
        QStringList sources;
        for (const RoomSummary& r : m_roomModel->rooms())
            sources << r.sourcePath;
        sources.removeDuplicates();
        m_editor->saveCopy(path.endsWith(QLatin1String(".sightline")) ? path : path + QStringLiteral(".sightline"),
            Importer::workspaceMode(sources));
    });
    file->addAction(m_editor->revertAction());
    file->addAction(m_compaction->action());
    file->addSeparator();
    QAction* compare = file->addAction(tr("Co&mpare With…"));
    compare->setStatusTip(tr("Put the room shown beside another run, step by step: another room, or a room of another source"));
    connect(compare, &QAction::triggered, this, [this] { compareWith(); });
    QAction* team = file->addAction(QIcon::fromTheme(QStringLiteral("system-users")), tr("&Team…"));
    team->setStatusTip(tr("Share this workspace's review with a team through a PostgreSQL team store"));
    connect(team, &QAction::triggered, this, [this] {
        TeamDialog* dialog = teamDialog();
        dialog->show();
        dialog->raise();
        dialog->activateWindow();
    });
    file->addSeparator();
    // Reports: the room shown, under the filter applied, or every room.
    QAction* exportReport = file->addAction(QIcon::fromTheme(QStringLiteral("document-export")), tr("&Export Report…"));
    exportReport->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    exportReport->setStatusTip(tr("A PDF, HTML, CSV or Markdown report of the room, with a manifest to verify it by"));
    connect(exportReport, &QAction::triggered, this, [this] {
        ReportExporter::Request request;
        request.roomId = m_eventModel->roomId();
        request.filter = m_filterBar->filter();
        for (const RoomSummary& r : m_roomModel->rooms()) {
            request.everyRoom << r.id;
            if (r.id == request.roomId) {
                request.roomName = r.name(); // its title, else its id: the file's name and the dialog's words
                request.source = r.sourcePath;
            }
        }
        request.selectedRooms = m_roomList->selectedRooms();
        // The events selected in the view shown: a range to offer.
        for (const QModelIndex& row : eventList()->selectionModel()->selectedRows()) {
            const qint64 index = row.data(EventListModel::EventIndexRole).toLongLong();
            request.selection = request.selection
                ? std::pair { std::min(request.selection->first, index), std::max(request.selection->second, index) }
                : std::pair { index, index };
        }
        m_exporter->ask(request);
    });
    file->addSeparator();
    QAction* quit = file->addAction(
        QIcon::fromTheme(QStringLiteral("application-exit"), style()->standardIcon(QStyle::SP_DialogCloseButton)),
        tr("&Quit"));
    quit->setShortcut(QKeySequence::Quit);
    connect(quit, &QAction::triggered, this, &QWidget::close);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    m_editor->fillEditMenu(edit);
    m_contentEditor->fillEditMenu(edit);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    m_rawAction = view->addAction(tr("&Raw Rows"));
    m_rawAction->setCheckable(true);
    m_rawAction->setShortcut(QKeySequence(Qt::Key_R));
    m_rawAction->setStatusTip(tr("Every stored row as it is, one a line, instead of the timeline"));
    connect(m_rawAction, &QAction::toggled, this, &MainWindow::setRawMode);
    QMenu* themes = view->addMenu(tr("&Theme"));
    auto* themeGroup = new QActionGroup(this);
    for (Theme::Choice choice : { Theme::Choice::System, Theme::Choice::Light, Theme::Choice::Dark }) {
        const QString label = choice == Theme::Choice::System ? tr("&System")
            : choice == Theme::Choice::Light                  ? tr("&Light")
                                                              : tr("&Dark");
        QAction* a = themes->addAction(label, this, [choice] {
            Theme::apply(choice);
            Theme::save(choice);
        });
        a->setCheckable(true);
        a->setChecked(Theme::saved() == choice);
        a->setObjectName(QStringLiteral("theme-") + Theme::name(choice));
        themeGroup->addAction(a);
    }
    QAction* expand = view->addAction(tr("Open or Close the Item"));
    expand->setShortcuts({ QKeySequence(Qt::Key_Return), QKeySequence(Qt::Key_Space) });
    expand->setShortcutContext(Qt::WidgetShortcut); // the timeline handles the keys itself; listed for F1
    connect(expand, &QAction::triggered, m_timeline, &TimelineView::toggleCurrent);
    view->addSeparator();
    QAction* findRoom = view->addAction(tr("Filter &Rooms"));
    findRoom->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    connect(findRoom, &QAction::triggered, this, [this] {
        m_roomList->filterEdit()->setFocus(Qt::ShortcutFocusReason);
        m_roomList->filterEdit()->selectAll();
    });

    QAction* filter = view->addAction(tr("&Filter Events"));
    filter->setShortcut(QKeySequence::Find);
    filter->setStatusTip(tr("Type a filter: type:, tool:, outcome:, channel:, after:, blocked:, words…"));
    connect(filter, &QAction::triggered, this, [this] {
        m_filterBar->edit()->setFocus(Qt::ShortcutFocusReason);
        m_filterBar->edit()->selectAll();
    });
    QAction* panes = namedInMenu(m_filterDock, tr("Filter &Panes"));
    panes->setShortcut(QKeySequence(Qt::Key_F9));
    panes->setStatusTip(tr("Types, channels, time, blocked rows, tools, outcomes and participants, with counts"));
    view->addAction(panes);
    // A pane shown again counts what it missed while hidden.
    connect(m_filterDock, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (visible && m_eventModel->roomId() != 0)
            requestFacets();
    });
    QAction* find = view->addAction(tr("Find in the &Room"));
    find->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F));
    find->setStatusTip(tr("Words in messages, arguments and results, stepped through with F3"));
    connect(find, &QAction::triggered, this, [this] {
        m_searchBar->edit()->setFocus(Qt::ShortcutFocusReason);
        m_searchBar->edit()->selectAll();
    });
    QAction* findAll = view->addAction(tr("Search &All Rooms"));
    findAll->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_F));
    connect(findAll, &QAction::triggered, this, [this] {
        if (m_searchBar->text().isEmpty())
            m_searchBar->edit()->setFocus(Qt::ShortcutFocusReason);
        else
            emit m_searchBar->searchAllRooms(m_searchBar->text());
    });
    view->addAction(namedInMenu(m_resultsDock, tr("Search &Results")));
    QAction* journal = m_journalDock->toggleViewAction();
    journal->setText(tr("Edit &Journal"));
    journal->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_J));
    view->addAction(journal);
    // The two docks share a tab: their shortcut brings a dock behind the other's tab to the front, and hides it
    // only when it is in front (a toggle hid the one behind, unseen).
    auto dockAction = [this, view](QDockWidget* dock, const QString& text, const QKeySequence& keys) {
        QAction* a = view->addAction(text);
        a->setShortcut(keys);
        a->setCheckable(true);
        connect(dock, &QDockWidget::visibilityChanged, a, [a, dock] { a->setChecked(!dock->isHidden()); });
        connect(a, &QAction::triggered, this, [a, dock] {
            const bool inFront = !dock->isHidden() && !dock->visibleRegion().isEmpty();
            if (inFront) {
                dock->hide();
            } else {
                dock->show();
                dock->raise();
            }
            a->setChecked(!dock->isHidden());
        });
    };
    dockAction(m_waterfallDock, tr("&Waterfall"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_W));
    dockAction(m_toolStatsDock, tr("&Tool Statistics"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_T));
    view->addAction(namedInMenu(m_queueDock, tr("&Queues")));
    view->addSeparator();
    // Live follow: on while a source is open, paused here or from the status bar's button.
    QAction* follow = view->addAction(tr("&Follow Source Changes"));
    follow->setCheckable(true);
    follow->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_L));
    follow->setStatusTip(tr("Show what the agent writes to the source as it writes it"));
    connect(follow, &QAction::toggled, this, [this](bool on) { m_follower->setPaused(!on); });
    connect(m_followButton, &QToolButton::clicked, follow, &QAction::trigger);
    const auto showFollow = [this, follow] {
        const bool any = !m_follower->sources().isEmpty();
        const QSignalBlocker quiet(follow);
        follow->setEnabled(any);
        follow->setChecked(!m_follower->isPaused());
        m_followButton->setVisible(any);
        m_followButton->setChecked(m_follower->isFollowing());
        m_followButton->setText(m_follower->isPaused() ? tr("Follow paused") : tr("● Following"));
        m_followButton->setToolTip(m_follower->isPaused()
                ? tr("New events in the source are not read: click (or Ctrl+Shift+L) to follow again")
                : tr("What is written to the source shows within a second: click (or Ctrl+Shift+L) to pause"));
    };
    connect(m_follower, &SourceFollower::stateChanged, this, showFollow);
    showFollow();
    QAction* filterBack = view->addAction(tr("Previous Filter"), this, [this] { m_filterBar->back(); });
    filterBack->setShortcut(QKeySequence::Back);
    QAction* filterForward = view->addAction(tr("Next Filter"), this, [this] { m_filterBar->forward(); });
    filterForward->setShortcut(QKeySequence::Forward);

    QMenu* go = menuBar()->addMenu(tr("&Go"));
    QAction* room = go->addAction(tr("&Room…"), this, [this] {
        // The room ids complete as they are typed (any part of one, in any case).
        auto* dialog = new QInputDialog(this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->setWindowTitle(tr("Go to Room"));
        dialog->setLabelText(tr("Room id, or a part of it:"));
        dialog->resize(std::max(dialog->width(), 420), dialog->height()); // its title and the ids whole
        dialog->show(); // its line edit exists once shown
        if (auto* edit = dialog->findChild<QLineEdit*>()) {
            QStringList ids;
            for (const RoomSummary& r : m_roomModel->rooms())
                ids << r.nativeId;
            auto* completer = new QCompleter(ids, dialog);
            completer->setCaseSensitivity(Qt::CaseInsensitive);
            completer->setFilterMode(Qt::MatchContains);
            edit->setCompleter(completer);
            // A completion chosen (Return in its list) goes to that room at once: one Return, not two.
            connect(completer, QOverload<const QString&>::of(&QCompleter::activated), dialog, [dialog](const QString& id) {
                dialog->setTextValue(id);
                dialog->accept();
            });
            new ReturnAccepts(completer, dialog); // and Return with none highlighted goes to what was typed
        }
        connect(dialog, &QInputDialog::textValueSelected, this, [this](const QString& text) { goToRoom(text.trimmed()); });
    });
    room->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_G));
    // A queue's two keys work with the Queues dock hidden: it shows itself to say which room is held.
    go->addAction(m_queueDock->nextAction());
    go->addAction(m_queueDock->doneAction());
    go->addSeparator();
    QAction* next = go->addAction(tr("Next Event"), this, [this] { moveSelection(1); });
    next->setShortcut(QKeySequence(Qt::Key_J));
    QAction* previous = go->addAction(tr("Previous Event"), this, [this] { moveSelection(-1); });
    previous->setShortcut(QKeySequence(Qt::Key_K));
    go->addSeparator();
    QAction* nextMatch = go->addAction(tr("Next Match"), this, [this] { goToMatch(true); });
    nextMatch->setShortcut(QKeySequence(Qt::Key_F3));
    QAction* previousMatch = go->addAction(tr("Previous Match"), this, [this] { goToMatch(false); });
    previousMatch->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F3));
    go->addSeparator();
    QAction* nextProblem
        = go->addAction(tr("Next Failed, Refused or Unanswered Call"), this, [this] { goToProblemCall(true); });
    nextProblem->setShortcut(QKeySequence(Qt::Key_BracketRight));
    QAction* previousProblem
        = go->addAction(tr("Previous Failed, Refused or Unanswered Call"), this, [this] { goToProblemCall(false); });
    previousProblem->setShortcut(QKeySequence(Qt::Key_BracketLeft));

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* keys = help->addAction(tr("&Keyboard Shortcuts"), this, &MainWindow::showShortcuts);
    keys->setShortcuts({ QKeySequence(Qt::Key_F1), QKeySequence(Qt::Key_Question) });
    help->addSeparator();
    QAction* about = help->addAction(QIcon::fromTheme(QStringLiteral("help-about")), tr("&About Sightline"));
    connect(about, &QAction::triggered, this, &MainWindow::showAbout);
    QAction* aboutQt = help->addAction(tr("About &Qt"));
    connect(aboutQt, &QAction::triggered, qApp, &QApplication::aboutQt);
}

QAbstractItemView* MainWindow::eventList() const
{
    return isRawMode() ? static_cast<QAbstractItemView*>(m_eventList) : m_timeline;
}

bool MainWindow::isRawMode() const
{
    return m_eventViews->currentWidget() == m_eventList;
}

void MainWindow::setRawMode(bool raw)
{
    if (raw == isRawMode())
        return;
    // The event selected stays selected both ways (in the timeline, the card or message that holds it). A card
    // stands for its start, end and result rows: back in the raw rows, the row that was selected there is again
    // when the card still holds it (an end row came back as its start).
    qint64 keep = currentIndex();
    if (raw && m_rawKept >= 0) {
        const QVariant call = m_timeline->currentIndex().data(EventListModel::CallRole);
        if (call.isValid()) {
            const ToolCallRecord c = call.value<ToolCallRecord>();
            if (c.startIndex == m_rawKept || c.endIndex == m_rawKept || c.resultIndex == m_rawKept)
                keep = m_rawKept;
        }
    }
    m_rawKept = raw ? -1 : keep;
    // The raw rows hold the model only while shown: taken before the model changes mode, given after, so their
    // header never lays out the other mode's rows.
    if (raw) {
        m_eventModel->setMode(EventListModel::Mode::Raw);
        m_eventList->attach(m_eventModel);
        m_eventViews->setCurrentWidget(m_eventList);
    } else {
        m_eventViews->setCurrentWidget(m_timeline);
        m_eventList->detach();
        m_eventModel->setMode(EventListModel::Mode::Timeline);
    }
    findMatches(); // a card's match is its start in the timeline, the row itself in the raw rows
    if (m_rawAction)
        m_rawAction->setChecked(raw);
    if (keep >= 0)
        m_eventModel->locate(keep);
}

qint64 MainWindow::currentIndex() const
{
    const QModelIndex current = eventList()->currentIndex();
    const EventRecord* e = current.isValid() ? m_eventModel->loadedRecord(current.row()) : nullptr;
    return e ? e->index : -1;
}

void MainWindow::loadDetails(const QModelIndex& current)
{
    m_detailsPending = false;
    m_contentEditor->updateActions();
    m_notes->showItem(current.isValid() ? current.data(EventListModel::EventIndexRole).toLongLong() : -1);
    if (!current.isValid()) {
        m_details->clear();
        return;
    }
    const EventRecord* e = m_eventModel->loadedRecord(current.row());
    if (!e) {
        m_detailsPending = true;
        return;
    }
    m_store->loadDetails(m_eventModel->roomId(), e->index);
    m_waterfallDock->showCall(e->index);
}

void MainWindow::readAroundTheRoom(qint64 roomId)
{
    requestFacets();
    findMatches();
    m_store->loadRoomValues(roomId);
}

void MainWindow::say(const QString& text, int timeoutMs)
{
    // Qt clips a message at the widgets kept on the right: its last words ran into the room's counts. Cut with "…"
    // to the room they leave, the whole of it in the bar's tooltip while it shows.
    int room = statusBar()->width() - 24;
    for (const QWidget* w : { static_cast<QWidget*>(m_importStatus), static_cast<QWidget*>(m_status),
             static_cast<QWidget*>(m_followButton) }) {
        if (w->isVisible())
            room -= w->width() + 6;
    }
    room = std::max(120, room - 16); // a gap before the counts
    const QFontMetrics metrics = statusBar()->fontMetrics();
    QString shown = text;
    // A path first ("FILE: what went wrong") gives up its middle before the reason goes.
    const qsizetype colon = text.indexOf(QLatin1String(": "));
    if (metrics.horizontalAdvance(text) > room && colon > 0 && text.left(colon).contains(QLatin1Char('/'))) {
        const QString reason = text.mid(colon);
        const int left = room - metrics.horizontalAdvance(reason);
        if (left > 80)
            shown = metrics.elidedText(text.left(colon), Qt::ElideMiddle, left) + reason;
    }
    shown = metrics.elidedText(shown, Qt::ElideRight, room);
    statusBar()->setToolTip(shown == text ? QString() : text);
    statusBar()->showMessage(shown, timeoutMs);
    m_message = text;
}

void MainWindow::showRoom(qint64 roomId)
{
    m_openWhenLocated = -1; // a card of the room left is not opened in this one
    m_rawKept = -1;
    const RoomSummary* listed = m_roomModel->room(roomId);
    m_session->show(roomId, m_filterBar->filter(), listed); // not in the list: the next list reads it again
    updateTitle();
    m_team->setRoom(listed ? std::optional(std::pair(listed->system, listed->nativeId)) : std::nullopt);
    m_filterBar->setCompletions({});
    m_filterPane->clear();
    readAroundTheRoom(roomId);
    QStringList banner;
    bool guessedByDesign = false;
    if (listed) {
        const RoomSummary& r = *listed;
        if (!r.summary.isEmpty())
            banner << tr("<b>Before these events</b> (summarised by the agent): %1").arg(r.summary.toHtmlEscaped());
        // CraftBot keeps no call ids: every pair is a guess. Said once for the room, so that the cards badge only
        // what is doubtful (a badge on 5,822 cards of 5,823 said nothing).
        guessedByDesign = r.system == QLatin1String("craftbot") && r.toolCalls > 0;
        if (guessedByDesign) {
            banner << tr("<b>Tool calls are paired by name and order</b>: CraftBot keeps no call ids. Only the "
                         "pairs that overlapped another call of the same tool are marked ambiguous.");
        }
    }
    m_timeline->timelineDelegate()->setPairsGuessedByDesign(guessedByDesign);
    m_summary->setText(banner.join(QStringLiteral("<br>")));
    m_summary->setVisible(!banner.isEmpty());
    // A room not read (in whole) yet, chosen while nothing reads the source (an import cancelled): the source open
    // now is read again, this room first (StoreClient::setView made it the one wanted).
    const RoomSummary* r = m_roomModel->room(roomId);
    if (r && r->unread > 0 && !isImporting() && !m_follower->sources().isEmpty()
        && m_store->sync(m_follower->sources())) {
        m_importStatus->start(Importer::displayName(m_follower->sources().first()));
        m_importTick->start();
        say(tr("Reading %1 from the source, and then the rest.").arg(r->title.isEmpty() ? r->nativeId : r->title), 6000);
    }
}

void MainWindow::requestFacets()
{
    // The client counts one filter at a time, the latest asked meanwhile next (StoreClient::loadFacets).
    if (m_eventModel->roomId() != 0 && m_filterDock->isVisible())
        m_store->loadFacets(m_eventModel->roomId(), m_filterBar->filter());
    m_toolStatsDock->refresh(m_eventModel->roomId(), m_filterBar->filter()); // counted while it is shown
    m_waterfallDock->refresh(m_eventModel->roomId(), m_filterBar->filter()); // laid out while it is shown
    // A saved waterfall says what it shows: the room, and the filter when there is one.
    QString caption;
    if (const RoomSummary* r = m_roomModel->room(m_eventModel->roomId()))
        caption = r->title.isEmpty() || r->title == r->nativeId ? r->nativeId : r->nativeId + QStringLiteral(" — ") + r->title;
    const QString filterText = FilterQuery::format(m_filterBar->filter());
    if (!filterText.isEmpty())
        caption += tr(" · filter: %1").arg(filterText);
    m_waterfallDock->setCaption(caption);
}

void MainWindow::findMatches()
{
    m_matches.clear();
    m_matchesRequest = 0;
    const QString text = m_searchBar->text();
    m_timeline->setHighlights(text.split(QLatin1Char(' '), Qt::SkipEmptyParts));
    if (text.isEmpty() || m_eventModel->roomId() == 0) {
        showMatchPosition();
        return;
    }
    // The rows of the list under the filter that also hold the words: a card by its arguments or its result.
    EventFilter f = m_filterBar->filter();
    f.words += text.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    f.timelineItems = !isRawMode();
    m_searchBar->setSearching();
    m_matchesRequest = m_store->findRows(m_eventModel->roomId(), f);
}

void MainWindow::showMatchPosition()
{
    m_searchBar->setPosition(m_matches.position(currentIndex()), int(m_matches.matches().size()));
}

void MainWindow::goToMatch(bool forward)
{
    if (m_matches.isEmpty()) {
        if (m_searchBar->text().isEmpty()) {
            m_searchBar->edit()->setFocus(Qt::ShortcutFocusReason);
            return;
        }
        say(tr("No matches for “%1” here.").arg(m_searchBar->text()), 4000);
        return;
    }
    const SearchNavigator::Step step = *m_matches.step(currentIndex(), forward);
    if (step.wrap == SearchNavigator::Wrap::FromTop)
        say(tr("Search went on from the top."), 3000);
    else if (step.wrap == SearchNavigator::Wrap::FromBottom)
        say(tr("Search went on from the bottom."), 3000);
    // The item found is opened: a card's match may be in its result, a message's below its closed lines.
    if (!isRawMode())
        m_openWhenLocated = step.target;
    goToIndex(step.target);
}

void MainWindow::moveSelection(int delta)
{
    const int rows = m_eventModel->rowCount();
    if (rows == 0)
        return;
    const QModelIndex current = eventList()->currentIndex();
    const int row = std::clamp(current.isValid() ? current.row() + delta : 0, 0, rows - 1);
    eventList()->setCurrentIndex(m_eventModel->index(row, 0));
}

void MainWindow::goToIndex(qint64 index)
{
    if (m_eventModel->roomId() != 0)
        m_eventModel->locate(index);
}

void MainWindow::goToProblemCall(bool forward)
{
    if (m_eventModel->roomId() == 0)
        return;
    const qint64 from = currentIndex() >= 0 ? currentIndex() : (forward ? -1 : std::numeric_limits<qint64>::max());
    m_store->findProblemCall(m_eventModel->roomId(), from, forward);
}

void MainWindow::showShortcuts()
{
    auto* dialog = new ShortcutsDialog(menuBar(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
}

void MainWindow::showAbout()
{
    // Sightline ships no third-party code of its own: it uses the system's Qt and SQLite, named here with
    // their licences and the versions actually loaded.
    auto* box = new QMessageBox(this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setObjectName(QStringLiteral("aboutSightline"));
    box->setWindowTitle(tr("About Sightline"));
    box->setIconPixmap(windowIcon().pixmap(96, 96));
    box->setTextFormat(Qt::RichText);
    box->setText(tr("<h3>Sightline %1</h3><p>Reads, checks and reports what AI agents did: RoomKit rooms, AG-UI "
                    "threads as kaboo-runtime stores them, and CraftBot event logs.</p>")
                     .arg(QLatin1String(SIGHTLINE_VERSION)));
    box->setInformativeText(
        tr("<p><b>Software it uses</b> (from your system, not bundled):</p>"
           "<ul><li>Qt %1 (built with %2): LGPL-3.0-only, <a "
           "href=\"https://www.qt.io/licensing/\">qt.io/licensing</a></li>"
           "<li>SQLite %3: public domain, <a "
           "href=\"https://sqlite.org/copyright.html\">sqlite.org/copyright.html</a></li></ul>"
           "<p>The icon and the demo workspace are Sightline's own.</p>")
            .arg(QLatin1String(qVersion()), QLatin1String(QT_VERSION_STR), QLatin1String(sqlite3_libversion())));
    box->setStandardButtons(QMessageBox::Close);
    for (QLabel* label : box->findChildren<QLabel*>())
        label->setOpenExternalLinks(true);
    box->open();
}

void MainWindow::openDatabase(const QString& uri)
{
    m_databaseDialog->connectTo(uri, true);
}

void MainWindow::openPath(const QString& given)
{
    if (PgConnection::isUri(given)) {
        openDatabase(given);
        return;
    }
    // A folder given with its trailing slash (`sightline threads/`) is the folder: its name titles the window and
    // the status bar says it (they were empty), and it shares the cached workspace of the same folder without one.
    const QString path = QDir::cleanPath(given);
    const QFileInfo info(path);
    if (!info.exists()) {
        showError(tr("%1: no such file").arg(path));
        return;
    }
    // The workspace open now is not opened again: reading its header outside SQLite would drop this process's
    // locks on it (see Workspace), and it is on screen already.
    if (info.canonicalFilePath() == QFileInfo(m_store->workspacePath()).canonicalFilePath()) {
        say(tr("%1 is open already.").arg(info.fileName()), 4000);
        return;
    }
    const Importer::Format format = Importer::detect(path);
    if (format != Importer::Format::Unknown)
        RecentFiles::remember(info.absoluteFilePath());
    switch (format) {
    case Importer::Format::Workspace:
        openWorkspace(path, {});
        break;
    case Importer::Format::RoomKitSqlite:
    case Importer::Format::AguiJsonl:
    case Importer::Format::CraftBotEventMd:
    case Importer::Format::CraftBotSessions:
    case Importer::Format::SightlineJsonl:
    case Importer::Format::Postgres:
        openWorkspace(Importer::cachedWorkspacePath(path), { path });
        break;
    case Importer::Format::Unknown:
        showError(Importer::unsupported(path).toString());
        break;
    }
}

QTreeWidget* MainWindow::searchResults() const
{
    return m_resultsDock->tree();
}

QStringList MainWindow::recentFiles() const
{
    return RecentFiles::files();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    for (const QUrl& url : event->mimeData()->urls()) {
        if (url.isLocalFile()) {
            event->acceptProposedAction();
            return;
        }
    }
}

void MainWindow::dropEvent(QDropEvent* event)
{
    // A dropped store, log, folder or workspace opens as if chosen in File > Open.
    for (const QUrl& url : event->mimeData()->urls()) {
        if (url.isLocalFile()) {
            openPath(url.toLocalFile());
            event->acceptProposedAction();
            return;
        }
    }
}

void MainWindow::openDemo()
{
    try {
        const QString store = DemoStore::ensureStore();
        openWorkspace(Importer::cachedWorkspacePath(store), { store });
    } catch (const StoreError& e) {
        showError(e.toString());
    }
}

void MainWindow::openWorkspace(const QString& workspacePath, const QStringList& importSources, const QString& firstRoom)
{
    // The workspace open now may hold unsaved changes: saved first (then this goes on), dropped, or kept open.
    if (!m_editor->confirmLeave(
            [this, workspacePath, importSources, firstRoom] { openWorkspace(workspacePath, importSources, firstRoom); }))
        return;
    // Whatever was importing into the workspace open now stops after its batch (what it committed stays), and
    // nothing asked of it is shown any more.
    hideImportStatus();
    m_importProblems.clear();
    m_eventModel->setRoom(0);
    m_roomModel->setRooms({});
    m_resultsDock->clear();
    // The title names what is open: the source, or the workspace opened as it is.
    m_openName = Importer::displayName(importSources.isEmpty() ? workspacePath : importSources.first());
    updateTitle();
    // A workspace of an older Sightline is upgraded as it opens (Schema::migrate), once: at millions of events that
    // takes a minute, with nothing else in the window to say why it waits.
    const int version = Schema::fileVersion(workspacePath);
    endUpgradeMessage(); // of the workspace opened before this one, if it is still upgrading
    m_firstRoom = firstRoom;
    m_followSync = false;
    m_store->open(workspacePath, importSources, firstRoom);
    // Said after the open, which ends what was asked of the workspace before (and may say so).
    if (version >= 0 && version < Schema::latestVersion()) {
        m_upgrading = tr("Upgrading %1 for this version of Sightline (once; a minute for millions of events)…")
                          .arg(m_openName);
        say(m_upgrading, 0);
    }
    m_follower->follow(importSources);
}

void MainWindow::endUpgradeMessage()
{
    if (!m_upgrading.isEmpty() && m_message == std::exchange(m_upgrading, QString()))
        statusBar()->clearMessage(); // unless something else was said since
}

void MainWindow::searchAllRooms(const QString& text)
{
    if (text.isEmpty())
        return;
    m_resultsDock->searching(text);
    m_store->searchAllRooms(
        text, m_filterBar->filter().includeBlocked || m_filterBar->filter().blockedOnly, SearchResultsDock::Limit);
}

void MainWindow::hideImportStatus()
{
    m_importStatus->finish();
    m_roomsRefresh->stop();
    m_roomsWaiting = false;
    m_importTick->stop();
    // No room is being read now, whether the import ended or another workspace is opened (whose import says its
    // own): the room list's columns may narrow again (RoomListView::fitWidth).
    m_readingShown->stop();
    m_readingRoom = 0;
    m_roomModel->setReading(0);
}

bool MainWindow::isImporting() const
{
    return m_store->isImporting();
}

void MainWindow::showError(const QString& message)
{
    QString line = message.section(QLatin1Char('\n'), 0, 0);
    // A heading that introduces a list ("Some rows were kept but flagged:") says its first item too.
    if (line.endsWith(QLatin1Char(':')) && message.count(QLatin1Char('\n')) > 0)
        line += QLatin1Char(' ') + message.section(QLatin1Char('\n'), 1, 1);
    if (line.size() > 140)
        line = line.left(139) + QChar(0x2026);
    say(line, 15000);
    // Not modal: the rest of the window keeps working while the message is read.
    auto* box = new QMessageBox(QMessageBox::Warning, tr("Sightline"), message, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

QString MainWindow::summaryText() const
{
    return m_summary->isVisible() ? m_summary->text() : QString();
}

QString MainWindow::statusText() const
{
    return m_status->text();
}

bool MainWindow::roomNamed(const RoomMatch& match, const QString& typed)
{
    if (!match.several.isEmpty()) {
        say(tr("“%1” is part of %L2 room ids (%3): give more of one.")
                .arg(typed)
                .arg(match.several.size())
                .arg(match.several.mid(0, 3).join(QStringLiteral(", ")) + (match.several.size() > 3 ? QStringLiteral(", …") : QString())),
            6000);
        return false;
    }
    if (match.ids.isEmpty()) {
        say(match.otherCase.isEmpty() || match.otherCase.size() > 5
                ? tr("No room “%1”.").arg(typed)
                : tr("No room “%1”; room ids are matched as written: did you mean %2?")
                      .arg(typed, match.otherCase.join(tr(" or "))),
            6000);
        return false;
    }
    return true;
}

bool MainWindow::goToRoom(const QString& typed)
{
    const RoomMatch match = RoomMatch::find(m_roomModel->rooms(), typed);
    if (!roomNamed(match, typed))
        return false;
    // A room the list's filter hides is shown all the same: the filter goes, so that the list shows it selected.
    if (!m_roomList->selectRoom(match.ids.first())) {
        m_roomList->showAllRooms();
        if (!m_roomList->selectRoom(match.ids.first()))
            return false;
    }
    return true;
}

void MainWindow::updateTitle()
{
    // The room shown is named: the timeline has no header, and a room filter may hide it from the list.
    const RoomSummary* room = m_roomModel->room(m_eventModel->roomId());
    if (m_openName.isEmpty())
        setWindowTitle(tr("Sightline[*]"));
    else if (room)
        setWindowTitle(tr("%1[*] — %2 — Sightline").arg(m_openName, room->nativeId));
    else
        setWindowTitle(tr("%1[*] — Sightline").arg(m_openName));
}

bool MainWindow::roomHiddenByFilter() const
{
    const qsizetype row = m_roomModel->rowOf(m_eventModel->roomId());
    return row >= 0 && !m_roomList->proxy()->mapFromSource(m_roomModel->index(int(row), 0)).isValid();
}

void MainWindow::updateStatus()
{
    StatusLine::Facts facts;
    facts.roomId = m_eventModel->roomId();
    facts.shown = m_eventModel->shownCount();
    facts.total = m_eventModel->totalCount();
    facts.items = m_eventModel->rowCount();
    facts.timeline = !isRawMode();
    facts.indexed = m_eventModel->isIndexed();
    facts.importing = isImporting();
    facts.room = m_roomModel->room(facts.roomId);
    facts.hiddenByRoomFilter = roomHiddenByFilter();
    const StatusLine::Texts texts = StatusLine::of(facts);
    m_status->setText(texts.status);
    m_timeline->setEmptyText(texts.empty);
}

void MainWindow::showEvent(QShowEvent* event)
{
    QMainWindow::showEvent(event);
    if (!std::exchange(m_splitFirstShown, false))
        return;
    // The starting split (the user's own comes back next time), by the width the window has: the timeline half of
    // it, the room list a third and more (its titles beside their counts) and the details the rest. Set before the window had its width, the sizes were the
    // timeline's alone to give up (the one part that stretches), and it was left a fifth of a first window.
    // The filter panes no wider than their dates, buttons and a type's name need: the room list's titles need it more.
    const int panes = std::max(m_filterDock->minimumSizeHint().width(), fontMetrics().horizontalAdvance(QLatin1Char('x')) * 38);
    const int freed = m_filterDock->width() - panes;
    resizeDocks({ m_filterDock }, { panes }, Qt::Horizontal);
    const int width = m_splitter->width() + std::max(0, freed);
    // The details a quarter: at a fifth a new user found a call's keys and values cut at a 1400-pixel screen.
    m_splitter->setSizes({ width * 36 / 100, width * 40 / 100, width * 24 / 100 });
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    // Unsaved notes, labels, marks or reviews: save them (the window closes once they are), drop them, or stay.
    if (!m_closing && !m_editor->confirmLeave([this] {
            m_closing = true;
            close();
        })) {
        event->ignore();
        return;
    }
    Settings::setWindow({ saveGeometry(), m_splitter->saveState(), saveState() });
    Settings::setCurrentFilter(FilterQuery::format(m_filterBar->filter()));
    event->accept();
}

void MainWindow::setImportRefreshInterval(int ms)
{
    m_importTick->setInterval(ms);
}

void MainWindow::reviewChanged(bool content)
{
    m_watcher->acknowledge(); // what this window shows now is the workspace's
    m_contentEditor->updateActions();
    m_eventModel->reloadAnnotations();
    m_journalDock->reload();
    m_store->loadRooms(); // review statuses, note counts, a title redacted
    // A filter on what reviewers add answers again; a redaction changed the rows' text (and what finds them).
    const EventFilter& f = m_eventModel->filter();
    if (content
        || !(f.labels.isEmpty() && f.excludeLabels.isEmpty() && f.notes.isEmpty() && f.excludeNotes.isEmpty()
            && f.states.isEmpty() && f.excludeStates.isEmpty())) {
        if (content)
            m_filterPane->clear(); // a redacted participant leaves the panes' values, not kept at 0
        m_eventModel->refresh();
        readAroundTheRoom(m_eventModel->roomId());
    } else {
        requestFacets(); // the Labels and Review panes count what was just added
    }
    if (content)
        loadDetails(eventList()->currentIndex());
}

void MainWindow::connectTeam()
{
    m_teamStatus = new QLabel(this);
    m_teamStatus->hide();
    statusBar()->addPermanentWidget(m_teamStatus);
    connect(m_team, &TeamLink::statusChanged, this, &MainWindow::updateTeamStatus);
    connect(m_team, &TeamLink::statusChanged, this, [this] { m_editor->setNameHint(m_team->status().login); });
    connect(m_team, &TeamLink::changed, this, &MainWindow::reviewChanged);
    connect(m_team, &TeamLink::message, this, [this](const QString& text) { say(text, 8000); });
    // Saved changes go up at once (unsaved ones are this reviewer's, and may be undone).
    connect(m_editor, &Editor::modifiedChanged, this, [this](bool modified) {
        if (!modified && m_team->isAttached())
            m_team->sync();
    });
    connect(m_queueDock, &QueueDock::message, this, [this](const QString& text) { say(text, 8000); });
    connect(m_queueDock->nextAction(), &QAction::triggered, m_queueDock, [this] { m_queueDock->show(); });
    // The room taken is shown and set in review; the one finished is set done, saved and so shared.
    connect(m_queueDock, &QueueDock::roomTaken, this, [this](const QString& system, const QString& room, const QString& instructions) {
        const qint64 id = roomOf(system, room);
        if (id == 0) {
            say(tr("The queue handed you room %1, which this workspace does not hold (the queue was made from another "
                   "source)")
                    .arg(room),
                10000);
            return;
        }
        goToRoom(room);
        const RoomSummary* r = m_roomModel->room(id);
        if (r && (r->review.isEmpty() || r->review == ReviewStatus::Unreviewed))
            m_editor->setReview(id, ReviewStatus::InReview);
        say(instructions.isEmpty() ? tr("Room %1 is yours to review: Ctrl+Alt+D when done").arg(room)
                                   : tr("Room %1 is yours to review: %2").arg(room, instructions),
            10000);
    });
    connect(m_queueDock, &QueueDock::roomFinished, this, [this](const QString& system, const QString& room) {
        const qint64 id = roomOf(system, room);
        if (id == 0)
            return;
        m_editor->setReview(id, ReviewStatus::Done);
        m_editor->save([this, room] { say(tr("Room %1 done, saved and shared with the team").arg(room), 8000); });
    });
}

CompareWindow* MainWindow::compareWith(const QString& choice)
{
    const qint64 roomA = m_eventModel->roomId();
    const RoomSummary* a = m_roomModel->room(roomA);
    if (!a) {
        say(tr("Show a room first: it is side A of the comparison"), 6000);
        return nullptr;
    }
    QString picked = choice;
    const QString another = tr("Another source or log…");
    if (picked.isEmpty()) {
        QStringList items;
        for (const RoomSummary& r : m_roomModel->rooms()) {
            if (r.id != roomA)
                items << r.nativeId;
        }
        items << another;
        // A store may hold thousands of rooms: a part of a name finds one, the rooms that hold it in the list.
        QInputDialog dialog(this);
        dialog.setWindowTitle(tr("Compare With"));
        dialog.setLabelText(tr("Compare room %1 (A) with (B), a room or another source (type a part of a room's name to "
                               "find it):")
                                .arg(a->nativeId));
        dialog.setComboBoxItems(items);
        dialog.setComboBoxEditable(true);
        if (auto* box = dialog.findChild<QComboBox*>()) {
            box->setInsertPolicy(QComboBox::NoInsert);
            box->completer()->setFilterMode(Qt::MatchContains);
            box->completer()->setCaseSensitivity(Qt::CaseInsensitive);
            box->completer()->setCompletionMode(QCompleter::PopupCompletion);
        }
        if (dialog.exec() != QDialog::Accepted)
            return nullptr;
        picked = dialog.textValue().trimmed();
        if (picked.isEmpty())
            return nullptr;
        if (picked == another) {
            picked = QFileDialog::getOpenFileName(this, tr("Compare with a room of another source"), QString(),
                tr("Everything Sightline reads (*.sqlite *.sqlite3 *.db *.sightline *.jsonl *.ndjson *.json *.md);;All files (*)"));
            if (picked.isEmpty())
                return nullptr;
        }
    }
    // Another room of this workspace as Go ▸ Room… finds one (RoomMatch: its id, or the one id that holds what was
    // typed); else a file, named by its whole path (the file dialog's, or a caller's), is another source.
    RoomSummaries others = m_roomModel->rooms();
    others.removeIf([roomA](const RoomSummary& r) { return r.id == roomA; });
    const RoomMatch match = RoomMatch::find(others, picked);
    const qint64 roomB = match.ids.value(0);
    if (roomB != 0)
        picked = m_roomModel->room(roomB)->nativeId;
    else if (!(QFileInfo(picked).isAbsolute() && QFileInfo::exists(picked)) && !roomNamed(match, picked))
        return nullptr;
    const QString titleA = tr("%1, room %2").arg(QFileInfo(a->sourcePath).fileName(), a->nativeId);
    // Each side by its file's name (the whole path is in the tooltip of the room list and the title bar); B's room is
    // said by the window, which may compare another.
    const RoomSummary* b = roomB != 0 ? m_roomModel->room(roomB) : nullptr;
    const QString titleB = QFileInfo(b ? b->sourcePath : picked).fileName();
    // The filter applied here applies to both sides (a filter of nothing compares every step).
    const EventFilter filter = m_filterBar->filter();
    const bool filtered = !FilterQuery::format(filter).isEmpty();
    auto* window = new CompareWindow(titleA, titleB, this); // the filter shows in its own filter field
    // A's step double-clicked: shown here, in its room.
    connect(window, &CompareWindow::goToEvent, this, [this](qint64 room, qint64 index) {
        if (m_eventModel->roomId() != room)
            m_roomList->selectRoom(room);
        goToIndex(index);
        raise();
        activateWindow();
    });
    window->show();
    window->compare(m_store, roomA, roomB, roomB != 0 ? QString() : picked, filtered ? std::optional(filter) : std::nullopt);
    return window;
}

TeamDialog* MainWindow::teamDialog()
{
    if (!m_teamDialog)
        m_teamDialog = new TeamDialog(m_team, this);
    return m_teamDialog;
}

qint64 MainWindow::roomOf(const QString& system, const QString& nativeId) const
{
    for (const RoomSummary& r : m_roomModel->rooms()) {
        if (r.system == system && r.nativeId == nativeId)
            return r.id;
    }
    return 0;
}

QString MainWindow::teamText() const
{
    return m_teamStatus->text();
}

void MainWindow::updateTeamStatus()
{
    const TeamLink::Status& s = m_team->status();
    m_teamStatus->setVisible(m_team->isAttached());
    QString text = m_team->summary();
    // Who else has the room shown open: the first thing to know before writing in it.
    if (!s.present.isEmpty()) {
        text = (s.present.size() == 1 ? tr("%1 is reviewing this room").arg(s.present.first())
                                      : tr("%1 are reviewing this room").arg(s.present.join(tr(" and "))))
            + QStringLiteral(" · ") + text;
    }
    m_teamStatus->setText(text);
    m_teamStatus->setToolTip(s.connected ? tr("Team store %1: teammates' changes show as they make them; yours go up "
                                              "when saved (File ▸ Team…)")
                                               .arg(s.uri)
                                         : tr("Team store %1 not reached: %2 (changes wait here)").arg(s.uri, s.problem));
}
