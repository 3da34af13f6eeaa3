#pragma once

#include "annotation.h"
#include "canceltoken.h"
#include "editsteps.h"
#include "eventdetails.h"
#include "eventfilter.h"
#include "eventrecord.h"
#include "facetcounts.h"
#include "journalentry.h"
#include "roomsummary.h"
#include "rowindex.h"
#include "searchhit.h"
#include "sources/importreport.h"
#include "toolcallrecord.h"

#include <array>
#include <atomic>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <QHash>
#include <QMap>
#include <QObject>
#include <QSet>
#include <QStringList>
#include <QThread>

class AnnotationStore;
class StoreWorker;
class Workspace;

// The GUI's one way to the store: typed requests, each answered on the GUI thread by a signal that names it.
//
// Five connections to the workspace, each a StoreWorker on a thread of its own: one browses (the rows on
// screen, details, rooms), one counts (what grows with the room: row indexes, facets, search, the statistics and
// the waterfall), one imports, one edits, and one writes reports (exports, previews, copies), so a page never waits
// behind a count, a count never waits behind an export, and none waits for an import (WAL lets readers read what the
// importer committed while it writes). The client decides which connection serves a request and which replies are
// still wanted: a request supersedes the ones of its kind before it, and their answers are dropped here, so no
// caller keeps generation counters. Every reply, success or failure, carries its request's id.
class StoreClient : public QObject
{
    Q_OBJECT
public:
    // How much nicer than the process the import's threads run (Linux): the window's threads come first when both
    // want a core.
    static constexpr int ImportNice = 5;
    enum class Kind {
        Open,
        Import,
        Rooms,
        RowIndex,
        Block,
        Details,
        Facets,
        MatchingRows,
        Search,
        RoomValues,
        ProblemCall,
        Holder,
        Edit,
        Annotations,
        Journal,
        // Work that reads a whole room or more (run()). These supersede the one of their kind before them:
        ToolStats, // the Tool Statistics dock's figures
        Waterfall, // the Waterfall dock's layout
        RedactionPreview, // Bulk Redact's matches
        ReportPreview, // the export dialog's preview
        CompareStep, // the texts of the step the Compare window shows (on the browsing connection)
        JournalHead, // the journal's size and newest entry: what another process changed (WorkspaceWatcher)
        // and these never do:
        Compare, // two runs' steps read and aligned (a Compare window each: one never stops another's)
        Report, // an export, written to its file
        WorkspaceCopy, // File > Save a Copy
        Compaction, // the workspace written anew without what was redacted or deleted
        EditorRead, // what an edit dialog shows of the event it edits
        TeamSync, // the review shared with a team store: on the edit connection, in order with the edits
    };
    Q_ENUM(Kind)
    static constexpr int KindCount = int(Kind::TeamSync) + 1;
    // Whether a newer request of `kind` supersedes the ones before it (run(): not run, or stopped, and unanswered).
    static bool supersedes(Kind kind);

    explicit StoreClient(QObject* parent = nullptr);
    // The running import stops after its batch (what it committed stays); each connection closes on its thread.
    ~StoreClient() override;

    // Opens `workspacePath` (made or migrated as needed) on every connection, then imports `sources` into it in
    // the background. An open replaces the one before it, even one not answered yet: nothing of the earlier one
    // is imported or reported after it.
    // `firstRoom` (a native id) is read first, where the biggest room goes first otherwise.
    void open(const QString& workspacePath, const QStringList& sources = {}, const QString& firstRoom = {});
    const QString& workspacePath() const { return m_workspacePath; }
    bool isOpen() const { return m_opened; } // the latest open has been answered
    // Syncs `sources` into the workspace open now, in the background: what they hold that is new is read, and
    // reported as an import's is (roomReady, imported, importFinished), without importStarted and its progress.
    // False (nothing done) while the workspace is not open yet or an import or sync runs.
    bool sync(const QStringList& sources);
    // Stops every import asked for so far after its current batch; one not started yet does not start.
    void cancelImport();
    bool isImporting() const { return m_importing; } // the latest open's import has not finished

    quint64 loadRooms();
    quint64 loadDetails(qint64 roomId, qint64 index);
    // The panes' counts. Counting a million rows takes a quarter of a second: while one count is out, the
    // latest filter asked meanwhile waits and is counted next, the ones before it never.
    quint64 loadFacets(qint64 roomId, const EventFilter& filter);
    // The rows of the list under `filter` (timeline items or raw rows) holding the search's words.
    quint64 findRows(qint64 roomId, const EventFilter& filter);
    quint64 searchAllRooms(const QString& text, bool includeBlocked, int limit = 1000);
    quint64 loadRoomValues(qint64 roomId);
    quint64 findProblemCall(qint64 roomId, qint64 fromIndex, bool forward);
    // The timeline item that holds a folded row (Workspace::itemHolding): itemHoldingFound.
    quint64 findItemHolding(qint64 roomId, qint64 index);

    // The room on screen: its first block and then its row index under `filter` (0: none). Blocks and indexes
    // of an earlier view are dropped when they come.
    struct ViewRequests
    {
        quint64 firstBlock = 0;
        quint64 index = 0;
    };
    // The room shown is the room wanted: an import under way that has not read it yet reads it next (its first
    // batch then comes as roomReady).
    ViewRequests setView(qint64 roomId, const EventFilter& filter, int blockSize);
    // Block `block` of the view: up to blockSize rows from index `fromIndex` on (nullopt: from the first), with
    // the tool calls shown in them when the filter asks for timeline items.
    quint64 loadBlock(int block, std::optional<qint64> fromIndex);
    qint64 viewRoom() const { return m_viewRoom; }

    // Runs `work`, a task of `kind` (ToolStats to TeamSync), on the connection its kind goes to: reports,
    // previews and copies on their own, a team sync on the edit connection, the others on the count connection. taskDone when it returns, failed when it
    // throws. A task of a kind that supersedes (supersedes()) is not run once a newer one of its kind is asked, and
    // is stopped if it runs: its token is cancelled and its SQLite statements interrupted, and it is never answered.
    // Every task is stopped so when another workspace is opened, and answered as failed at once.
    using Task = std::function<void(Workspace&, const CancelToken&)>;
    quint64 run(Kind kind, Task work);
    // The same, with what to do next on the GUI thread: `done` when it returned, `failed` with why when it threw;
    // neither once `context` is gone, nor for a task superseded.
    quint64 run(Kind kind, Task work, QObject* context, std::function<void()> done,
        std::function<void(const QString& why)> failed);

    // An edit (a note, a label, a mark, a review; undo, redo, save, discard) on a connection of its own, so that
    // it never waits behind a count or a page. Edits run in the order asked and are never superseded; the
    // annotations and the journal are read on the same connection, so a read asked after an edit sees it.
    // edited(request, steps) with what `work` changed.
    quint64 edit(std::function<EditSteps(AnnotationStore&)> work);
    quint64 loadAnnotations(qint64 roomId); // annotationsLoaded
    quint64 loadJournal(); // journalLoaded: every room's

    // A name for a kind of request, for messages: "reading the rooms".
    static QString describe(Kind kind);

signals:
    void workspaceOpened(const QString& path);
    void importStarted(const QStringList& sources);
    void importProgress(qint64 done, qint64 total);
    void imported(const ImportReport& report);
    void importFinished(bool cancelled);
    void roomReady(qint64 roomId); // the import committed a room's rows so far, whole (ImportOptions::roomReady)
    // The room the import reads now (0: none): the room list says "reading…" beside it.
    void roomReading(qint64 roomId);

    void roomsLoaded(quint64 request, const RoomSummaries& rooms);
    void rowsIndexed(quint64 request, qint64 roomId, const RowIndex& index);
    void blockLoaded(
        quint64 request, qint64 roomId, int block, const EventRecords& events, const ToolCallRecords& calls);
    void detailsLoaded(quint64 request, const EventDetails& details);
    void facetsLoaded(quint64 request, const FacetCounts& facets);
    void rowsFound(quint64 request, qint64 roomId, const QVector<qint64>& indexes);
    void searchFound(quint64 request, const QString& text, const SearchHits& hits);
    void roomValuesLoaded(quint64 request, qint64 roomId, const QMap<QString, QStringList>& values);
    void problemCallFound(quint64 request, qint64 roomId, qint64 index); // -1: none that way
    void itemHoldingFound(quint64 request, qint64 roomId, qint64 index, qint64 item); // item -1: none
    void taskDone(quint64 request);
    void edited(quint64 request, const EditSteps& steps);
    void annotationsLoaded(quint64 request, qint64 roomId, const Annotations& annotations,
        const QMap<QString, QString>& labelColors);
    // The journal, and how many of its entries are not saved (made since the last save, or left by a session
    // that ended without saving).
    void journalLoaded(quint64 request, const JournalEntries& entries, int unsaved);
    // A request, an open or an import failed: which one, and why. A superseded request fails silently.
    void failed(quint64 request, StoreClient::Kind kind, const QString& message);

private:
    enum Connection { Browse, Count, Import, Edits, Reports };
    static constexpr int Connections = 5;

    // Sends `work` to a connection; `deliver` gets its result on the GUI thread if the request is still wanted.
    template<typename Result>
    quint64 post(Kind kind, Connection connection, std::function<Result(Workspace&)> work,
        std::function<void(quint64, Result&)> deliver);
    // The same under a given id; `after` runs on the GUI thread once the answer is back, wanted or not.
    template<typename Result>
    void send(quint64 id, Kind kind, Connection connection, std::function<Result(Workspace&)> work,
        std::function<void(quint64, Result&)> deliver, std::function<void()> after, quint64 view = 0,
        std::optional<CancelToken> token = std::nullopt);
    bool isWanted(quint64 request, Kind kind, quint64 view) const; // view: the one a block or index was asked in
    QSet<quint64> m_tasks; // tasks and edits not answered yet
    QHash<quint64, CancelToken> m_tokens; // tasks not answered yet, to stop when superseded or another workspace opens
    QHash<quint64, Kind> m_taskKinds; // their kinds
    void runImport(quint64 openId, const QString& workspacePath, const QStringList& sources, const QString& firstRoom,
        quint64 ticket);
    void sendFacets();

    std::array<QThread, Connections> m_threads;
    std::array<StoreWorker*, Connections> m_workers {};
    quint64 m_lastRequest = 0;
    std::array<quint64, KindCount> m_latest {}; // the request each kind waits for
    // The same, and the view, for the workers to read: a request superseded before its turn comes is not run
    // (typing a word into the find box asks for every prefix of it; only the last is worth reading a room for).
    std::array<std::atomic<quint64>, KindCount> m_wanted {};
    std::atomic<quint64> m_currentView { 1 };
    void want(Kind kind, quint64 request);
    quint64 m_openId = 0;
    // Ready once the browse connection has opened the workspace (and upgraded it, if it was older): the other
    // connections open after it (StoreClient::open).
    std::shared_future<void> m_upgraded;
    QString m_workspacePath;
    bool m_opened = false;
    bool m_importing = false;
    // Imports are numbered as they are asked for; a cancel stops all those numbered so far.
    quint64 m_importTickets = 0;
    std::atomic<quint64> m_cancelledThrough { 0 };
    std::atomic<bool> m_closing { false };
    // The room on screen (setView), for the import to read next when it has not read it yet.
    std::atomic<qint64> m_wantedRoom { 0 };
    // The view.
    quint64 m_viewId = 1; // never 0: a request of no view says 0
    qint64 m_viewRoom = 0;
    EventFilter m_viewFilter;
    int m_viewBlockSize = 256;
    // Facets: one counting at a time, and the latest asked meanwhile.
    struct FacetsRequest
    {
        quint64 id;
        qint64 roomId;
        EventFilter filter;
    };
    bool m_facetsOut = false;
    std::optional<FacetsRequest> m_facetsNext;
};
