#pragma once

#include "roomsession.h"
#include "searchnavigator.h"

#include <QElapsedTimer>
#include <QMainWindow>
#include <tuple>
#include <utility>

class DetailsPane;
struct RoomSummary;
class ContentEditor;
class ReportExporter;
class Editor;
class WorkspaceCompaction;
class JournalDock;
class QueueDock;
class CompareWindow;
class TeamDialog;
class TeamLink;
class WorkspaceWatcher;
class ToolStatsDock;
class WaterfallDock;
class NotesPanel;
class ImportStatus;
class SearchResultsDock;
class FilterBar;
class FilterPane;
class SearchBar;
class EventActions;
class QTreeWidget;
class QDockWidget;
class EventListModel;
class EventListView;
class QAbstractItemView;
class QMenu;
class OpenDatabaseDialog;
class SourceFollower;
class QStackedWidget;
class TimelineView;
class QLabel;
class QProgressBar;
class QTimer;
class QToolButton;
class QSplitter;
class RoomListModel;
class RoomListView;
class StoreClient;
struct ImportReport;

// The main window: rooms on the left, the selected room's events on the right, and a status bar that
// always says how many events are shown of how many there are.
struct RoomMatch;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Opens a workspace, or imports a source into its cached workspace (with progress and cancel) and opens
    // that. Errors are shown, never fatal.
    void openPath(const QString& path);
    // A PostgreSQL database (postgresql://...): connects in the background, asks for a password if the server
    // wants one (File > Open Database shows why), and opens it, biggest room first.
    void openDatabase(const QString& uri);
    OpenDatabaseDialog* openDatabaseDialog() const { return m_databaseDialog; }
    void openDemo();
    // An import is queued or running: the room list fills in as rooms are made whole.
    bool isImporting() const;
    // How often the room list's counts move while an import runs (2 s).
    void setImportRefreshInterval(int ms);
    SourceFollower* follower() const { return m_follower; }
    // Sources opened before, newest first (the ones that still exist).
    QStringList recentFiles() const;

    RoomListView* roomList() const { return m_roomList; }
    // The view showing the room's events now: the timeline, or the raw rows.
    QAbstractItemView* eventList() const;
    TimelineView* timeline() const { return m_timeline; }
    EventActions* eventActions() const { return m_eventActions; }
    EventListView* rawList() const { return m_eventList; }
    bool isRawMode() const;
    void setRawMode(bool raw);
    EventListModel* eventModel() const { return m_eventModel; }
    RoomListModel* roomModel() const { return m_roomModel; }
    DetailsPane* detailsPane() const { return m_details; }
    Editor* editor() const { return m_editor; }
    ContentEditor* contentEditor() const { return m_contentEditor; }
    ReportExporter* exporter() const { return m_exporter; }
    JournalDock* journalDock() const { return m_journalDock; }
    ToolStatsDock* toolStatsDock() const { return m_toolStatsDock; }
    WaterfallDock* waterfallDock() const { return m_waterfallDock; }
    TeamLink* teamLink() const { return m_team; }
    QueueDock* queueDock() const { return m_queueDock; }
    TeamDialog* teamDialog(); // File ▸ Team…, made when first asked for
    // File ▸ Compare With…: the room shown (A) beside `choice` (B): a room id of this workspace, or another source's
    // path; asked for when empty. The window it opened, or null.
    CompareWindow* compareWith(const QString& choice = {});
    QString teamText() const; // the status bar's team part: the link, and who else has the room open
    NotesPanel* notesPanel() const { return m_notes; }
    FilterBar* filterBar() const { return m_filterBar; }
    FilterPane* filterPane() const { return m_filterPane; }
    WorkspaceWatcher* workspaceWatcher() const { return m_watcher; }
    QDockWidget* filterDock() const { return m_filterDock; }
    SearchBar* searchBar() const { return m_searchBar; }
    QTreeWidget* searchResults() const;
    const QVector<qint64>& searchMatches() const { return m_matches.matches(); }
    // Selects the next (or previous) match of the search in the room, wrapping at the ends.
    void goToMatch(bool forward);
    // Go ▸ Room…: shows the room a typed id names (RoomMatch), clearing a room filter that hides it; says why not.
    bool goToRoom(const QString& typed);
    // Selects the event at `index` in the current room, loading pages until it is there.
    void goToIndex(qint64 index);
    // Moves to the next (or previous) tool call that failed, was refused or was never answered.
    void goToProblemCall(bool forward);
    void showShortcuts();
    StoreClient* store() const { return m_store; }
    QString statusText() const;
    QString statusMessage() const { return m_message; } // the status bar's message, whole (say() may cut it)
    QString summaryText() const;

signals:
    void roomsShown(); // the room list was (re)loaded, with no import going on

protected:
    void showEvent(QShowEvent* event) override;
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    // Whether `match` names a room; else the status bar says why (several ids hold the text, or none).
    bool roomNamed(const RoomMatch& match, const QString& typed);
    // The constructor's areas, in its order.
    void layOut();
    void connectParts();
    void createStatusBar();
    void createActions();
    void connectImport();
    void connectTimeline();
    void connectSearch();
    void connectPanes();
    void restoreLayout();
    void showAbout();
    void openWorkspace(const QString& workspacePath, const QStringList& importSources, const QString& firstRoom = {});
    void hideImportStatus();
    void endUpgradeMessage(); // takes down "Upgrading …" unless something else was said since
    void searchAllRooms(const QString& text); // the Search Results dock's search, across every room
    void showError(const QString& message);
    void updateStatus();
    void say(const QString& text, int timeoutMs); // a message in the status bar, cut to the room it has
    void moveSelection(int delta);
    qint64 currentIndex() const; // the selected event's index, or -1
    void loadDetails(const QModelIndex& current);
    // Asks the count worker for the panes' counts; one request at a time, the latest filter when it is back.
    void requestFacets();
    void showRoom(qint64 roomId); // the room's events, values, search and summary
    // What is read beside the room's events, again when they change: the panes' counts, the search's matches,
    // the values the filter bar completes.
    void readAroundTheRoom(qint64 roomId);
    void updateTitle(); // the source open and the room shown
    bool roomHiddenByFilter() const; // the room shown is not in the room list as filtered
    void findMatches(); // the search's rows in the current room, under the current filter
    void showMatchPosition(); // "n of N" for the current row
    // Notes, labels, marks, reviews or redactions changed (here, or came down from the team): what shows them reads
    // again in place, and the rows too when `content` (a redaction changed their text).
    void reviewChanged(bool content);
    // Team review: the link's state in the status bar, the room shown for teammates to see, the queue's rooms.
    void connectTeam();
    void updateTeamStatus();
    qint64 roomOf(const QString& system, const QString& nativeId) const; // 0: not in this workspace

    StoreClient* m_store;
    QString m_searched; // the last search across rooms
    QString m_searchWhenRead; // asked again once the rooms it could not search are read
    std::pair<quint64, QString> m_searchAfterRooms; // and then once the room list read after them is back
    RoomListModel* m_roomModel;
    // The room shown: its model, and whether a room list that comes says its rows moved (then read again in place).
    RoomSession* m_session;
    EventListModel* m_eventModel; // the session's, which the views, editor and notes show

    RoomListView* m_roomList;
    EventListView* m_eventList; // every stored row, one a line
    TimelineView* m_timeline;
    QStackedWidget* m_eventViews;
    QAction* m_rawAction = nullptr;
    QMenu* m_recentMenu = nullptr;
    OpenDatabaseDialog* m_databaseDialog = nullptr;
    SourceFollower* m_follower = nullptr;
    QToolButton* m_followButton = nullptr;
    bool m_followSync = false; // the import under way is a followed source's sync
    QString m_firstRoom; // the room chosen to show first, until the room list has it
    QString m_openName; // what the title names as open: the source, or the workspace opened as it is
    qint64 m_rawKept = -1; // the raw row selected when the timeline was shown: selected again on the way back
    QSplitter* m_splitter;
    QLabel* m_status;
    FilterBar* m_filterBar;
    FilterPane* m_filterPane;
    QDockWidget* m_filterDock;
    SearchBar* m_searchBar;
    EventActions* m_eventActions;
    SearchResultsDock* m_resultsDock; // matches across rooms
    ImportStatus* m_importStatus;
    SearchNavigator m_matches; // the rows the search finds in the room, ascending, and F3's steps through them
    bool m_goToFirstMatch = false; // a new search: the first match at or after the current row is selected
    quint64 m_matchesRequest = 0; // the search's rows in the room being found (0: none)
    QLabel* m_summary; // a room's summary of what came before its events (CraftBot head_summary)
    DetailsPane* m_details;
    Editor* m_editor;
    WorkspaceCompaction* m_compaction; // File ▸ Compact Workspace
    ContentEditor* m_contentEditor;
    ReportExporter* m_exporter;
    NotesPanel* m_notes;
    JournalDock* m_journalDock;
    ToolStatsDock* m_toolStatsDock; // calls by tool, under the filter
    WaterfallDock* m_waterfallDock; // calls on a time line, under the filter
    TeamLink* m_team; // the review shared through a team store
    WorkspaceWatcher* m_watcher; // what another process (the command line) changes in the workspace open here
    QueueDock* m_queueDock;
    TeamDialog* m_teamDialog = nullptr;
    QLabel* m_teamStatus = nullptr;
    bool m_followBeforeCompaction = false;
    bool m_closing = false; // saved on the way out: the window closes once the save is back
    bool m_detailsPending = false; // the current row's record is not in memory yet
    QTimer* m_roomsRefresh = nullptr; // lists rooms made whole during an import, twice a second at most
    bool m_roomsWaiting = false; // a room was made whole while m_roomsRefresh ran
    QTimer* m_importTick = nullptr; // the list's counts while an import runs
    // The room being read, shown at most five times a second: a store of ten thousand small rooms starts a hundred
    // a second, and each start laid out the room list again (the window froze for seconds at a time).
    QTimer* m_readingShown = nullptr;
    qint64 m_readingRoom = 0;
    QElapsedTimer m_importClock; // since the import under way started, for the message that ends it
    qint64 m_openWhenLocated = -1; // a card to open once it is located: it holds the row gone to
    qint64 m_keepWhenLocated = -1; // the event selected before a filter changed, selected again if still shown
    bool m_splitFirstShown = false; // no split of the user's yet: the first show makes one by the window's width
    bool m_keepingRoom = false; // the room list is reloading: the room shown is selected again, not re-read
    QString m_message; // what say() shows, whole, while it shows
    QString m_upgrading; // what say() says while a workspace of an older schema is upgraded as it opens
    QStringList m_importProblems;
};
