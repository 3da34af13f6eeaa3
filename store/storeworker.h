#pragma once

#include "eventdetails.h"
#include "eventfilter.h"
#include "eventrecord.h"
#include "roomsummary.h"
#include "sources/importreport.h"

#include <atomic>
#include <functional>
#include <memory>
#include <QObject>
#include <QStringList>

class Workspace;

Q_DECLARE_METATYPE(EventFilter)
Q_DECLARE_METATYPE(PageRequest)

// The store's worker: lives on its own thread and owns its own workspace connection, so nothing on the GUI
// thread waits on SQL that grows with the room. Requests carry a generation that comes back with the reply;
// a model drops replies older than its last request.
class StoreWorker : public QObject
{
    Q_OBJECT
public:
    explicit StoreWorker(QObject* parent = nullptr);
    ~StoreWorker() override;

    // Thread-safe: asks a running import to stop after its current batch.
    void cancelImport() { m_cancel.store(true); }

public slots:
    void openWorkspace(const QString& path);
    void importSources(const QStringList& paths);
    void loadRooms(quint64 generation);
    void loadEvents(quint64 generation, qint64 roomId, const EventFilter& filter, const PageRequest& page);
    void countEvents(quint64 generation, qint64 roomId, const EventFilter& filter);
    void loadDetails(quint64 generation, qint64 roomId, qint64 index);
    // A page of timeline items (filter.timelineItems) with the tool calls shown in it.
    void loadTimeline(quint64 generation, qint64 roomId, const EventFilter& filter, const PageRequest& page);
    void findProblemCall(quint64 generation, qint64 roomId, qint64 fromIndex, bool forward);
    void closeWorkspace();

signals:
    void workspaceOpened(const QString& path);
    void importProgress(qint64 done, qint64 total);
    void imported(const ImportReport& report);
    void importFinished(bool cancelled);
    void roomsLoaded(quint64 generation, const RoomSummaries& rooms);
    void eventsLoaded(quint64 generation, qint64 roomId, const EventRecords& events);
    void timelineLoaded(quint64 generation, qint64 roomId, const EventRecords& events, const ToolCallRecords& calls);
    void eventsCounted(quint64 generation, qint64 roomId, qint64 shown, qint64 total);
    void detailsLoaded(quint64 generation, const EventDetails& details);
    void problemCallFound(quint64 generation, qint64 roomId, qint64 index); // -1: none that way
    void failed(const QString& message);

private:
    // Runs `work` on the open workspace; no workspace, or a StoreError, is reported through failed().
    void withWorkspace(const std::function<void(Workspace&)>& work);

    std::unique_ptr<Workspace> m_workspace;
    std::atomic<bool> m_cancel { false };
};
