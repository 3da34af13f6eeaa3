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
}

StoreWorker::~StoreWorker() = default;

bool StoreWorker::requireWorkspace()
{
    if (m_workspace)
        return true;
    emit failed(tr("No workspace is open."));
    return false;
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
    if (!requireWorkspace())
        return;
    m_cancel.store(false);
    ImportOptions options;
    options.cancel = &m_cancel;
    options.progress = [this](qint64 done, qint64 total) { emit importProgress(done, total); };
    bool cancelled = false;
    for (const QString& path : paths) {
        try {
            const ImportReport report = Importer::import(*m_workspace, path, options);
            emit imported(report);
            cancelled = report.cancelled;
        } catch (const StoreError& e) {
            emit failed(e.toString()); // the other sources still import
        }
        if (cancelled)
            break;
    }
    emit importFinished(cancelled);
}

void StoreWorker::loadRooms(quint64 generation)
{
    if (!requireWorkspace())
        return;
    try {
        emit roomsLoaded(generation, m_workspace->rooms());
    } catch (const StoreError& e) {
        emit failed(e.toString());
    }
}

void StoreWorker::loadEvents(quint64 generation, qint64 roomId, const EventFilter& filter, const PageRequest& page)
{
    if (!requireWorkspace())
        return;
    try {
        emit eventsLoaded(generation, roomId, m_workspace->listEvents(roomId, filter, page));
    } catch (const StoreError& e) {
        emit failed(e.toString());
    }
}

void StoreWorker::countEvents(quint64 generation, qint64 roomId, const EventFilter& filter)
{
    if (!requireWorkspace())
        return;
    try {
        emit eventsCounted(
            generation, roomId, m_workspace->countEvents(roomId, &filter), m_workspace->countEvents(roomId, nullptr));
    } catch (const StoreError& e) {
        emit failed(e.toString());
    }
}

void StoreWorker::loadTimeline(quint64 generation, qint64 roomId, const EventFilter& filter, const PageRequest& page)
{
    if (!requireWorkspace())
        return;
    try {
        const EventRecords events = m_workspace->listEvents(roomId, filter, page);
        QVector<qint64> tools;
        for (const EventRecord& e : events) {
            if (e.kind == QLatin1String("tool_call"))
                tools << e.index;
        }
        emit timelineLoaded(generation, roomId, events, m_workspace->toolCallsShownAt(roomId, tools));
    } catch (const StoreError& e) {
        emit failed(e.toString());
    }
}

void StoreWorker::loadDetails(quint64 generation, qint64 roomId, qint64 index)
{
    if (!requireWorkspace())
        return;
    try {
        EventDetails details;
        details.roomId = roomId;
        const auto record = m_workspace->event(roomId, index);
        if (!record)
            return;
        details.record = *record;
        details.payload = m_workspace->payload(record->rowId);
        if (record->kind == QLatin1String("tool_call"))
            details.call = m_workspace->toolCallAt(roomId, index);
        if (!record->parentId.isEmpty())
            details.parentIndex = m_workspace->indexOfNativeId(roomId, record->parentId);
        emit detailsLoaded(generation, details);
    } catch (const StoreError& e) {
        emit failed(e.toString());
    }
}

void StoreWorker::findProblemCall(quint64 generation, qint64 roomId, qint64 fromIndex, bool forward)
{
    if (!requireWorkspace())
        return;
    try {
        emit problemCallFound(
            generation, roomId, m_workspace->nextProblemCall(roomId, fromIndex, forward).value_or(-1));
    } catch (const StoreError& e) {
        emit failed(e.toString());
    }
}

void StoreWorker::closeWorkspace()
{
    m_workspace.reset();
}
