#include "storeclient.h"

#include <algorithm>
#include <memory>

#include <sqlite3.h>
#ifdef Q_OS_LINUX
#include <cerrno>
#include <sys/resource.h>
#endif

#include "annotationstore.h"
#include "eventkind.h"
#include "journal.h"
#include "sources/importer.h"
#include "storeerror.h"
#include "storeworker.h"
#include "workspace.h"

namespace {
const char* const threadNames[]
    = { "sightline-store", "sightline-counts", "sightline-import", "sightline-edits", "sightline-reports" };

// A task's SQLite work stopped once its token is cancelled: the workspace asks it every thousand steps of a
// statement, on its connection and on the second reader of a pass split in two (Workspace::setCancelled), and the
// statement then fails as interrupted (a query over ten million rows stops within a millisecond, not at its end).
class Interruption
{
public:
    Interruption(Workspace& ws, const CancelToken& token)
        : m_ws(ws)
        , m_token(token)
    {
        m_ws.setCancelled([token] { return token.isCancelled(); });
    }
    ~Interruption()
    {
        m_ws.setCancelled({});
        // A statement stopped inside a transaction of its own leaves the connection as the next task expects it.
        if (m_token.isCancelled() && !sqlite3_get_autocommit(m_ws.handle()))
            sqlite3_exec(m_ws.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
    }
    Interruption(const Interruption&) = delete;
    Interruption& operator=(const Interruption&) = delete;

private:
    Workspace& m_ws;
    CancelToken m_token;
};

// The import yields the cores to the window. On two cores its reading and writing threads kept both busy, and the
// window's thread hands the fills of each repaint to Qt's thread pool and waits for them: a pool thread that had to
// wait its turn behind the import made frames of 60 to 110 ms while a store of ten million events was read in the
// background. A thread's nice value is its own on Linux and the threads it starts take it on (the import's reading
// threads); ImportNice above the process's own, no more: beside other busy programs (a build, tests run in parallel)
// the import, which a user waits on when they asked for a room not read yet, keeps a quarter of a shared core rather
// than starving. On an idle machine it runs as fast as before.
void yieldToTheWindow()
{
#ifdef Q_OS_LINUX
    errno = 0;
    const int own = getpriority(PRIO_PROCESS, 0); // 0: the calling thread, on Linux
    if (errno == 0)
        setpriority(PRIO_PROCESS, 0, std::min(19, own + StoreClient::ImportNice));
#endif
}

bool isTask(StoreClient::Kind kind)
{
    return kind >= StoreClient::Kind::ToolStats;
}

} // namespace

StoreClient::StoreClient(QObject* parent)
    : QObject(parent)
{
    // For queued connections and QSignalSpy on the replies.
    qRegisterMetaType<EventRecords>();
    qRegisterMetaType<ToolCallRecords>();
    qRegisterMetaType<RoomSummaries>();
    qRegisterMetaType<RowIndex>();
    qRegisterMetaType<EventDetails>();
    qRegisterMetaType<FacetCounts>();
    qRegisterMetaType<SearchHits>();
    qRegisterMetaType<ImportReport>();
    qRegisterMetaType<QVector<qint64>>();
    qRegisterMetaType<EditSteps>();
    qRegisterMetaType<Annotations>();
    qRegisterMetaType<JournalEntries>();
    for (int c = 0; c < Connections; ++c) {
        m_workers[c] = new StoreWorker;
        m_workers[c]->moveToThread(&m_threads[c]);
        m_threads[c].setObjectName(QLatin1String(threadNames[c]));
        connect(&m_threads[c], &QThread::finished, m_workers[c], &QObject::deleteLater);
        m_threads[c].start();
    }
    QMetaObject::invokeMethod(m_workers[Import], &yieldToTheWindow, Qt::QueuedConnection);
}

StoreClient::~StoreClient()
{
    m_closing.store(true); // the import stops after its current batch; what it committed stays
    // Each connection closes after the work queued before it: an edit or a save asked last is written.
    for (int c = 0; c < Connections; ++c) {
        StoreWorker* worker = m_workers[c];
        QMetaObject::invokeMethod(worker, [worker] { worker->close(); }, Qt::BlockingQueuedConnection);
        m_threads[c].quit();
        m_threads[c].wait();
    }
}

QString StoreClient::describe(Kind kind)
{
    switch (kind) {
    case Kind::Open:
        return tr("opening the workspace");
    case Kind::Import:
        return tr("importing");
    case Kind::Rooms:
        return tr("reading the rooms");
    case Kind::RowIndex:
        return tr("counting the room's events");
    case Kind::Block:
        return tr("reading the room's events");
    case Kind::Details:
        return tr("reading the event's details");
    case Kind::Facets:
        return tr("counting the filter panes' values");
    case Kind::MatchingRows:
        return tr("finding the words in the room");
    case Kind::Search:
        return tr("searching every room");
    case Kind::RoomValues:
        return tr("reading the room's values for completion");
    case Kind::ProblemCall:
        return tr("finding the next failed call");
    case Kind::Holder:
        return tr("finding the card that holds the event");
    case Kind::Edit:
        return tr("writing the change");
    case Kind::Annotations:
        return tr("reading the notes, labels and marks");
    case Kind::Journal:
        return tr("reading the journal");
    case Kind::ToolStats:
        return tr("counting the tool statistics");
    case Kind::Waterfall:
        return tr("laying out the waterfall");
    case Kind::RedactionPreview:
        return tr("finding what to redact");
    case Kind::ReportPreview:
        return tr("making the report's preview");
    case Kind::Compare:
        return tr("comparing the two runs");
    case Kind::CompareStep:
        return tr("reading the compared step");
    case Kind::JournalHead:
        return tr("looking for changes made elsewhere");
    case Kind::Report:
        return tr("writing the report");
    case Kind::WorkspaceCopy:
        return tr("saving a copy of the workspace");
    case Kind::Compaction:
        return tr("writing the workspace anew");
    case Kind::EditorRead:
        return tr("reading the event to edit");
    case Kind::TeamSync:
        return tr("sharing the review with the team");
    }
    return {};
}

bool StoreClient::supersedes(Kind kind)
{
    switch (kind) {
    case Kind::Report:
    case Kind::Compare:
    case Kind::WorkspaceCopy:
    case Kind::Compaction:
    case Kind::EditorRead:
    case Kind::Edit:
    case Kind::TeamSync:
        return false;
    default:
        return true;
    }
}

bool StoreClient::isWanted(quint64 request, Kind kind, quint64 view) const
{
    if (view != 0) // blocks and row indexes: wanted while their view is the one shown
        return view == m_viewId;
    if (kind == Kind::Edit || isTask(kind))
        return m_tasks.contains(request) && (!supersedes(kind) || m_latest[int(kind)] == request);
    return m_latest[int(kind)] == request;
}

void StoreClient::want(Kind kind, quint64 request)
{
    m_latest[int(kind)] = request;
    m_wanted[int(kind)].store(request);
}

template<typename Result>
quint64 StoreClient::post(Kind kind, Connection connection, std::function<Result(Workspace&)> work,
    std::function<void(quint64, Result&)> deliver)
{
    const quint64 id = ++m_lastRequest;
    const bool ofView = kind == Kind::Block || kind == Kind::RowIndex;
    if (!ofView)
        want(kind, id);
    send<Result>(id, kind, connection, std::move(work), std::move(deliver), {}, ofView ? m_viewId : 0);
    return id;
}

template<typename Result>
void StoreClient::send(quint64 id, Kind kind, Connection connection, std::function<Result(Workspace&)> work,
    std::function<void(quint64, Result&)> deliver, std::function<void()> after, quint64 view,
    std::optional<CancelToken> token)
{
    StoreWorker* worker = m_workers[connection];
    QMetaObject::invokeMethod(
        worker,
        [this, worker, id, kind, view, token, work = std::move(work), deliver = std::move(deliver),
            after = std::move(after)]() mutable {
            // Superseded while it waited its turn: not run, and its answer (none) dropped as any superseded one.
            const bool superseded = (token && token->isCancelled())
                || (view != 0 ? m_currentView.load() != view : supersedes(kind) && m_wanted[int(kind)].load() != id);
            auto result = std::make_shared<std::optional<Result>>();
            const QString error = superseded ? QString() : StoreWorker::guarded([&] {
                Workspace& ws = worker->workspace();
                std::optional<Interruption> stop;
                if (token)
                    stop.emplace(ws, *token);
                result->emplace(work(ws));
            });
            // Back on the GUI thread; a client destroyed meanwhile drops the event with it.
            QMetaObject::invokeMethod(
                this,
                [this, id, kind, view, error, result, deliver = std::move(deliver), after = std::move(after)] {
                    const bool wanted = isWanted(id, kind, view) && (result->has_value() || !error.isEmpty());
                    m_tasks.remove(id);
                    m_tokens.remove(id);
                    if (wanted) {
                        if (error.isEmpty())
                            deliver(id, **result);
                        else
                            emit failed(id, kind, error);
                    }
                    if (after)
                        after();
                },
                Qt::QueuedConnection);
        },
        Qt::QueuedConnection);
}

void StoreClient::open(const QString& workspacePath, const QStringList& sources, const QString& firstRoom)
{
    // Whatever was importing stops after its batch (what it committed stays).
    cancelImport();
    const quint64 openId = ++m_openId;
    m_workspacePath = workspacePath;
    m_opened = false;
    m_importing = !sources.isEmpty();
    // Everything asked of the workspace before is of no use now.
    m_latest.fill(0);
    for (auto& wanted : m_wanted)
        wanted.store(0);
    // A task asked of the workspace before (an export under way) is answered now, so that what waits for it (a
    // progress dialog, its connections to this client) ends: its own answer will be dropped as unwanted.
    // It is stopped too: the connection it holds is free for the new workspace at its next thousand steps.
    const QHash<quint64, CancelToken> tokens = std::exchange(m_tokens, {});
    for (const CancelToken& token : tokens)
        token.cancel();
    const QSet<quint64> stopped = std::exchange(m_tasks, {});
    for (quint64 task : stopped)
        emit failed(task, m_taskKinds.value(task, Kind::Edit), QStringLiteral("stopped: another source was opened"));
    m_taskKinds.clear();
    m_currentView.store(++m_viewId);
    m_viewRoom = 0;
    m_wantedRoom.store(0);
    m_facetsNext.reset();
    // The browse connection opens first and answers for the open (the others would only say the same again); a
    // count connection that could not open fails its own requests, each named. The others open once it has: a
    // workspace of an older Sightline is upgraded by the first connection to open it (Schema::migrate, under the
    // write lock), which at millions of events takes longer than another connection waits for that lock.
    auto opened = std::make_shared<std::promise<void>>();
    m_upgraded = opened->get_future().share();
    for (Connection c : { Count, Edits, Reports }) {
        StoreWorker* worker = m_workers[c];
        QMetaObject::invokeMethod(
            worker,
            [worker, workspacePath, ready = m_upgraded] {
                ready.wait();
                StoreWorker::guarded([&] { worker->open(workspacePath); });
            },
            Qt::QueuedConnection);
    }
    StoreWorker* browser = m_workers[Browse];
    QMetaObject::invokeMethod(
        browser,
        [this, browser, workspacePath, openId, opened] {
            const QString error = StoreWorker::guarded([&] { browser->open(workspacePath); });
            opened->set_value();
            QMetaObject::invokeMethod(
                this,
                [this, openId, workspacePath, error] {
                    if (openId != m_openId)
                        return; // another workspace was opened since
                    if (!error.isEmpty()) {
                        emit failed(0, Kind::Open, error);
                        return;
                    }
                    m_opened = true;
                    emit workspaceOpened(workspacePath);
                },
                Qt::QueuedConnection);
        },
        Qt::QueuedConnection);
    if (!sources.isEmpty()) {
        emit importStarted(sources);
        runImport(openId, workspacePath, sources, firstRoom, ++m_importTickets);
    }
}

bool StoreClient::sync(const QStringList& sources)
{
    if (!m_opened || m_importing || sources.isEmpty())
        return false;
    m_importing = true;
    runImport(m_openId, m_workspacePath, sources, {}, ++m_importTickets);
    return true;
}

void StoreClient::cancelImport()
{
    m_cancelledThrough.store(m_importTickets);
}

void StoreClient::runImport(
    quint64 openId, const QString& workspacePath, const QStringList& sources, const QString& firstRoom, quint64 ticket)
{
    StoreWorker* worker = m_workers[Import];
    // Progress and rooms made whole are reported only while this is still the workspace open.
    auto report = [this, openId](std::function<void()> signal) {
        QMetaObject::invokeMethod(
            this,
            [this, openId, signal = std::move(signal)] {
                if (openId == m_openId)
                    signal();
            },
            Qt::QueuedConnection);
    };
    QMetaObject::invokeMethod(
        worker,
        [this, worker, workspacePath, sources, firstRoom, ticket, report, ready = m_upgraded] {
            auto cancelled = [this, ticket] { return m_closing.load() || ticket <= m_cancelledThrough.load(); };
            if (ready.valid())
                ready.wait(); // the browse connection's open, which upgrades an older workspace
            bool stopped = cancelled();
            if (!stopped) {
                const QString error = StoreWorker::guarded([&] { worker->open(workspacePath); });
                if (!error.isEmpty())
                    report([this, error] { emit failed(0, Kind::Import, error); });
                else {
                    ImportOptions options;
                    options.firstRoom = firstRoom;
                    options.isCancelled = cancelled;
                    options.pgSessions = &worker->pgSessions(); // a followed database asked each second on one session
                    options.progress = [this, report](qint64 done, qint64 total) {
                        report([this, done, total] { emit importProgress(done, total); });
                    };
                    options.roomReady = [this, report](qint64 roomId) { report([this, roomId] { emit roomReady(roomId); }); };
                    options.wantedRoom = [this] { return m_wantedRoom.load(); };
                    options.roomStarted = [this, report](qint64 roomId) {
                        report([this, roomId] { emit roomReading(roomId); });
                    };
                    for (const QString& path : sources) {
                        ImportReport result;
                        const QString failure
                            = StoreWorker::guarded([&] { result = Importer::import(worker->workspace(), path, options); });
                        if (failure.isEmpty())
                            report([this, result] { emit imported(result); });
                        else
                            report([this, failure] { emit failed(0, Kind::Import, failure); }); // the others still import
                        stopped = result.cancelled || cancelled();
                        if (stopped)
                            break;
                    }
                }
            }
            report([this, stopped] {
                m_importing = false;
                emit roomReading(0);
                emit importFinished(stopped);
            });
        },
        Qt::QueuedConnection);
}

quint64 StoreClient::loadRooms()
{
    return post<RoomSummaries>(
        Kind::Rooms, Browse, [](Workspace& ws) { return ws.rooms(); },
        [this](quint64 id, RoomSummaries& rooms) { emit roomsLoaded(id, rooms); });
}

quint64 StoreClient::loadDetails(qint64 roomId, qint64 index)
{
    return post<std::optional<EventDetails>>(
        Kind::Details, Browse,
        [roomId, index](Workspace& ws) -> std::optional<EventDetails> {
            const auto record = ws.event(roomId, index);
            if (!record)
                return std::nullopt;
            EventDetails details;
            details.roomId = roomId;
            details.record = *record;
            details.payload = ws.payload(record->rowId);
            if (record->kind == EventKind::ToolCall)
                details.call = ws.toolCallAt(roomId, index);
            if (details.call && details.call->startIndex == index) {
                auto payloadAt = [&](const std::optional<qint64>& at) {
                    const auto row = at && *at != index ? ws.event(roomId, *at) : std::nullopt;
                    return row ? ws.payload(row->rowId) : QByteArray();
                };
                details.endPayload = payloadAt(details.call->endIndex);
                if (details.call->resultIndex != details.call->endIndex)
                    details.resultPayload = payloadAt(details.call->resultIndex);
                for (qint64 at : ws.earlierResults(roomId, *details.call))
                    details.earlierResults.append({ at, payloadAt(at) });
            }
            if (!record->parentId.isEmpty())
                details.parentIndex = ws.indexOfNativeId(roomId, record->parentId);
            return details;
        },
        [this](quint64 id, std::optional<EventDetails>& details) {
            if (details)
                emit detailsLoaded(id, *details);
        });
}

quint64 StoreClient::loadFacets(qint64 roomId, const EventFilter& filter)
{
    const quint64 id = ++m_lastRequest;
    want(Kind::Facets, id); // the one counting now, if any, is no longer wanted
    m_facetsNext = FacetsRequest { id, roomId, filter };
    if (!m_facetsOut)
        sendFacets();
    return id;
}

void StoreClient::sendFacets()
{
    const FacetsRequest next = *std::exchange(m_facetsNext, std::nullopt);
    m_facetsOut = true;
    send<FacetCounts>(
        next.id, Kind::Facets, Count,
        [roomId = next.roomId, filter = next.filter](Workspace& ws) { return ws.facets(roomId, filter); },
        [this](quint64 request, FacetCounts& facets) { emit facetsLoaded(request, facets); },
        // Whatever came back (counts, a failure, or an answer no longer wanted), the latest filter asked
        // meanwhile is counted next.
        [this] {
            m_facetsOut = false;
            if (m_facetsNext)
                sendFacets();
        });
}

quint64 StoreClient::findRows(qint64 roomId, const EventFilter& filter)
{
    return post<QVector<qint64>>(
        Kind::MatchingRows, Count, [roomId, filter](Workspace& ws) { return ws.listRows(roomId, filter); },
        [this, roomId](quint64 id, QVector<qint64>& rows) { emit rowsFound(id, roomId, rows); });
}

quint64 StoreClient::searchAllRooms(const QString& text, bool includeBlocked, int limit)
{
    return post<SearchHits>(
        Kind::Search, Count,
        [text, includeBlocked, limit](Workspace& ws) { return ws.searchRooms(text, limit, includeBlocked); },
        [this, text](quint64 id, SearchHits& hits) { emit searchFound(id, text, hits); });
}

quint64 StoreClient::loadRoomValues(qint64 roomId)
{
    return post<QMap<QString, QStringList>>(
        Kind::RoomValues, Count, [roomId](Workspace& ws) { return ws.roomValues(roomId); },
        [this, roomId](quint64 id, QMap<QString, QStringList>& values) { emit roomValuesLoaded(id, roomId, values); });
}

quint64 StoreClient::findProblemCall(qint64 roomId, qint64 fromIndex, bool forward)
{
    return post<qint64>(
        Kind::ProblemCall, Browse,
        [roomId, fromIndex, forward](Workspace& ws) {
            return ws.nextProblemCall(roomId, fromIndex, forward).value_or(-1);
        },
        [this, roomId](quint64 id, qint64& index) { emit problemCallFound(id, roomId, index); });
}

quint64 StoreClient::findItemHolding(qint64 roomId, qint64 index)
{
    return post<qint64>(
        Kind::Holder, Browse, [roomId, index](Workspace& ws) { return ws.itemHolding(roomId, index).value_or(-1); },
        [this, roomId, index](quint64 id, qint64& item) { emit itemHoldingFound(id, roomId, index, item); });
}

StoreClient::ViewRequests StoreClient::setView(qint64 roomId, const EventFilter& filter, int blockSize)
{
    m_currentView.store(++m_viewId);
    m_viewRoom = roomId;
    // The room on screen is the room the user wants: an import that has not read it yet reads it next.
    m_wantedRoom.store(roomId);
    m_viewFilter = filter;
    m_viewBlockSize = blockSize;
    if (roomId == 0)
        return {};
    // The first screen before the index: a connection answers in order, and the index grows with the room while
    // a block does not. The index is read on the count connection, beside the blocks.
    ViewRequests asked;
    asked.firstBlock = loadBlock(0, std::nullopt);
    asked.index = post<RowIndex>(
        Kind::RowIndex, Count,
        [roomId, filter, blockSize](Workspace& ws) { return ws.indexRows(roomId, filter, blockSize); },
        [this, roomId](quint64 request, RowIndex& index) { emit rowsIndexed(request, roomId, index); });
    return asked;
}

quint64 StoreClient::loadBlock(int block, std::optional<qint64> fromIndex)
{
    const qint64 roomId = m_viewRoom;
    const EventFilter filter = m_viewFilter;
    const int limit = m_viewBlockSize;
    struct Block
    {
        EventRecords events;
        ToolCallRecords calls;
    };
    const quint64 id = post<Block>(
        Kind::Block, Browse,
        [roomId, filter, limit, fromIndex](Workspace& ws) {
            PageRequest page;
            page.limit = limit;
            if (fromIndex)
                page.afterIndex = *fromIndex - 1;
            Block b;
            b.events = ws.listEvents(roomId, filter, page);
            QVector<qint64> tools;
            if (filter.timelineItems) {
                for (const EventRecord& e : b.events) {
                    if (e.kind == EventKind::ToolCall)
                        tools << e.index;
                }
            }
            if (!tools.isEmpty())
                b.calls = ws.toolCallsShownAt(roomId, tools);
            return b;
        },
        [this, roomId, block](quint64 request, Block& b) { emit blockLoaded(request, roomId, block, b.events, b.calls); });
    return id;
}

quint64 StoreClient::run(
    Kind kind, Task work, QObject* context, std::function<void()> done, std::function<void(const QString& why)> failed)
{
    const quint64 request = run(kind, std::move(work));
    auto ok = std::make_shared<QMetaObject::Connection>();
    auto error = std::make_shared<QMetaObject::Connection>();
    *ok = connect(this, &StoreClient::taskDone, context, [=](quint64 r) {
        if (r != request)
            return;
        disconnect(*ok);
        disconnect(*error);
        if (done)
            done();
    });
    *error = connect(this, &StoreClient::failed, context, [=](quint64 r, StoreClient::Kind, const QString& why) {
        if (r != request)
            return;
        disconnect(*ok);
        disconnect(*error);
        if (failed)
            failed(why);
    });
    return request;
}

quint64 StoreClient::run(Kind kind, Task work)
{
    Q_ASSERT(isTask(kind));
    const quint64 id = ++m_lastRequest;
    if (supersedes(kind)) {
        // The one before of this kind, waiting or under way, is stopped: its answer would be dropped all the same.
        for (auto it = m_tokens.begin(); it != m_tokens.end(); ++it) {
            if (m_taskKinds.value(it.key()) == kind)
                it.value().cancel();
        }
        want(kind, id);
    }
    const CancelToken token;
    m_tasks.insert(id);
    m_tokens.insert(id, token);
    m_taskKinds.insert(id, kind);
    // A team sync writes the review, so it goes where the edits go: after the edit asked before it, and with the
    // team store's connection, which lives on that thread, kept between syncs.
    const Connection connection = kind == Kind::Report || kind == Kind::ReportPreview || kind == Kind::WorkspaceCopy
        ? Reports
        : kind == Kind::TeamSync  ? Edits
        : kind == Kind::CompareStep || kind == Kind::JournalHead ? Browse // a few seeks, not behind a long count
                                    : Count;
    send<bool>(
        id, kind, connection,
        [work = std::move(work), token](Workspace& ws) {
            work(ws, token);
            return true;
        },
        [this](quint64 request, bool&) { emit taskDone(request); },
        [this, id] { m_taskKinds.remove(id); }, 0, token);
    return id;
}

quint64 StoreClient::edit(std::function<EditSteps(AnnotationStore&)> work)
{
    const quint64 id = ++m_lastRequest;
    m_tasks.insert(id);
    send<EditSteps>(
        id, Kind::Edit, Edits,
        [work = std::move(work)](Workspace& ws) {
            AnnotationStore store(ws);
            return work(store);
        },
        [this](quint64 request, EditSteps& steps) { emit edited(request, steps); }, {});
    return id;
}

quint64 StoreClient::loadAnnotations(qint64 roomId)
{
    struct Loaded
    {
        Annotations annotations;
        QMap<QString, QString> colors;
    };
    return post<Loaded>(
        Kind::Annotations, Edits,
        [roomId](Workspace& ws) {
            AnnotationStore store(ws);
            return Loaded { store.annotations(roomId), store.labelColors() };
        },
        [this, roomId](quint64 request, Loaded& l) { emit annotationsLoaded(request, roomId, l.annotations, l.colors); });
}

quint64 StoreClient::loadJournal()
{
    struct Loaded
    {
        JournalEntries entries;
        int unsaved = 0;
    };
    return post<Loaded>(
        Kind::Journal, Edits,
        [](Workspace& ws) { return Loaded { Journal(ws).entries(), AnnotationStore(ws).unsavedChanges() }; },
        [this](quint64 request, Loaded& l) { emit journalLoaded(request, l.entries, l.unsaved); });
}
