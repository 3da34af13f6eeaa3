#include "storeworker.h"

#include "sources/importer.h"
#include "storeerror.h"
#include "workspace.h"

StoreWorker::StoreWorker(QObject* parent)
    : QObject(parent)
{
    qRegisterMetaType<EventFilter>();
    qRegisterMetaType<PageRequest>();
    qRegisterMetaType<EventRecords>();
    qRegisterMetaType<RoomSummaries>();
    qRegisterMetaType<ImportReport>();
    qRegisterMetaType<EventDetails>();
    qRegisterMetaType<ToolCallRecords>();
    qRegisterMetaType<RowIndex>();
    qRegisterMetaType<FacetCounts>();
    qRegisterMetaType<QVector<qint64>>();
    qRegisterMetaType<SearchHits>();
}

StoreWorker::~StoreWorker() = default;

void StoreWorker::withWorkspace(const std::function<void(Workspace&)>& work)
{
    // Every request reports its failure as a message rather than ending the thread's event loop.
    if (!m_workspace) {
        emit failed(tr("No workspace is open."));
        return;
    }
    try {
        work(*m_workspace);
    } catch (const StoreError& e) {
        emit failed(e.toString());
    }
}

void StoreWorker::openWorkspace(const QString& path)
{
    try {
        m_workspace.reset();
        m_workspace = std::make_unique<Workspace>(path);
        emit workspaceOpened(path);
    } catch (const StoreError& e) {
        emit failed(e.toString());
    }
}

void StoreWorker::importSources(const QStringList& paths)
{
    if (m_closing.load() || !m_workspace) {
        if (!m_closing.load())
            emit failed(tr("No workspace is open."));
        emit importFinished(m_closing.load()); // a window waiting for the import goes on
        return;
    }
    withWorkspace([&](Workspace& ws) {
        m_cancel.store(false); // a cancel meant for an import before this one
        ImportOptions options;
        options.cancel = &m_cancel;
        options.progress = [this](qint64 done, qint64 total) { emit importProgress(done, total); };
        options.roomReady = [this](qint64 roomId) { emit roomReady(roomId); };
        bool cancelled = false;
        for (const QString& path : paths) {
            try {
                const ImportReport report = Importer::import(ws, path, options);
                emit imported(report);
                cancelled = report.cancelled;
            } catch (const StoreError& e) {
                emit failed(e.toString()); // the other sources still import
            }
            if (cancelled)
                break;
        }
        emit importFinished(cancelled);
    });
}

void StoreWorker::loadRooms(quint64 generation)
{
    withWorkspace([&](Workspace& ws) { emit roomsLoaded(generation, ws.rooms()); });
}

void StoreWorker::indexRows(quint64 generation, qint64 roomId, const EventFilter& filter, int blockSize)
{
    withWorkspace(
        [&](Workspace& ws) { emit rowsIndexed(generation, roomId, ws.indexRows(roomId, filter, blockSize)); });
}

void StoreWorker::loadBlock(
    quint64 generation, qint64 roomId, const EventFilter& filter, int block, qint64 fromIndex, int limit)
{
    withWorkspace([&](Workspace& ws) {
        PageRequest page;
        page.limit = limit;
        if (fromIndex > std::numeric_limits<qint64>::min())
            page.afterIndex = fromIndex - 1;
        const EventRecords events = ws.listEvents(roomId, filter, page);
        QVector<qint64> tools;
        if (filter.timelineItems) {
            for (const EventRecord& e : events) {
                if (e.kind == QLatin1String("tool_call"))
                    tools << e.index;
            }
        }
        emit blockLoaded(generation, roomId, block, events,
            tools.isEmpty() ? ToolCallRecords() : ws.toolCallsShownAt(roomId, tools));
    });
}

void StoreWorker::loadDetails(quint64 generation, qint64 roomId, qint64 index)
{
    withWorkspace([&](Workspace& ws) {
        EventDetails details;
        details.roomId = roomId;
        const auto record = ws.event(roomId, index);
        if (!record)
            return;
        details.record = *record;
        details.payload = ws.payload(record->rowId);
        if (record->kind == QLatin1String("tool_call"))
            details.call = ws.toolCallAt(roomId, index);
        if (!record->parentId.isEmpty())
            details.parentIndex = ws.indexOfNativeId(roomId, record->parentId);
        emit detailsLoaded(generation, details);
    });
}

void StoreWorker::loadRoomValues(quint64 generation, qint64 roomId)
{
    withWorkspace([&](Workspace& ws) {
        QVariantMap values;
        const QMap<QString, QStringList> found = ws.roomValues(roomId);
        for (auto it = found.cbegin(); it != found.cend(); ++it)
            values.insert(it.key(), it.value());
        emit roomValuesLoaded(generation, roomId, values);
    });
}

void StoreWorker::findProblemCall(quint64 generation, qint64 roomId, qint64 fromIndex, bool forward)
{
    withWorkspace([&](Workspace& ws) {
        emit problemCallFound(generation, roomId, ws.nextProblemCall(roomId, fromIndex, forward).value_or(-1));
    });
}

void StoreWorker::closeWorkspace()
{
    m_workspace.reset();
}

void StoreWorker::loadFacets(quint64 generation, qint64 roomId, const EventFilter& filter)
{
    withWorkspace([&](Workspace& ws) { emit facetsLoaded(generation, ws.facets(roomId, filter)); });
}

void StoreWorker::findRows(quint64 generation, qint64 roomId, const EventFilter& filter)
{
    withWorkspace([&](Workspace& ws) { emit rowsFound(generation, roomId, ws.listRows(roomId, filter)); });
}

void StoreWorker::searchAllRooms(quint64 generation, const QString& text, bool includeBlocked)
{
    withWorkspace(
        [&](Workspace& ws) { emit searchFound(generation, text, ws.searchRooms(text, 1000, includeBlocked)); });
}
