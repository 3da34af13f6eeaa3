#pragma once

#include "eventdetails.h"
#include "eventfilter.h"
#include "eventrecord.h"
#include "facetcounts.h"
#include "roomsummary.h"
#include "rowindex.h"
#include "searchhit.h"
#include "sources/importreport.h"

#include <atomic>
#include <functional>
#include <memory>
#include <QObject>
#include <QStringList>
#include <QVariant>

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
    // Thread-safe: the running import stops after its batch and no queued one starts (the window is closing).
    void shutDown()
    {
        m_closing.store(true);
        m_cancel.store(true);
    }

public slots:
    void openWorkspace(const QString& path);
    void importSources(const QStringList& paths);
    void loadRooms(quint64 generation);
    // The counts and block anchors of a room under a filter (see RowIndex).
    void indexRows(quint64 generation, qint64 roomId, const EventFilter& filter, int blockSize);
    // Block `block`: up to `limit` rows from index `fromIndex` on, with the tool calls shown in them when the
    // filter asks for timeline items.
    void loadBlock(
        quint64 generation, qint64 roomId, const EventFilter& filter, int block, qint64 fromIndex, int limit);
    void loadDetails(quint64 generation, qint64 roomId, qint64 index);
    // The panes' counts under a filter (Workspace::facets).
    void loadFacets(quint64 generation, qint64 roomId, const EventFilter& filter);
    // The rows of the list that a search finds in a room (the filter holds its words), for F3 and Shift+F3.
    void findRows(quint64 generation, qint64 roomId, const EventFilter& filter);
    // Every room's events holding the words, for the list of results across rooms.
    void searchAllRooms(quint64 generation, const QString& text, bool includeBlocked);
    // The values the room holds in the filter bar's fields, for completion (Workspace::roomValues).
    void loadRoomValues(quint64 generation, qint64 roomId);
    void findProblemCall(quint64 generation, qint64 roomId, qint64 fromIndex, bool forward);
    void closeWorkspace();

signals:
    void workspaceOpened(const QString& path);
    void importProgress(qint64 done, qint64 total);
    void imported(const ImportReport& report);
    void importFinished(bool cancelled);
    void roomReady(qint64 roomId); // an import committed a room's rows so far, whole (ImportOptions::roomReady)
    void roomsLoaded(quint64 generation, const RoomSummaries& rooms);
    void rowsIndexed(quint64 generation, qint64 roomId, const RowIndex& index);
    void blockLoaded(
        quint64 generation, qint64 roomId, int block, const EventRecords& events, const ToolCallRecords& calls);
    void detailsLoaded(quint64 generation, const EventDetails& details);
    void facetsLoaded(quint64 generation, const FacetCounts& facets);
    void rowsFound(quint64 generation, qint64 roomId, const QVector<qint64>& indexes);
    void searchFound(quint64 generation, const QString& text, const SearchHits& hits);
    void roomValuesLoaded(quint64 generation, qint64 roomId, const QVariantMap& values); // field: QStringList
    void problemCallFound(quint64 generation, qint64 roomId, qint64 index); // -1: none that way
    void failed(const QString& message);

private:
    // Runs `work` on the open workspace; no workspace, or a StoreError, is reported through failed().
    void withWorkspace(const std::function<void(Workspace&)>& work);

    std::unique_ptr<Workspace> m_workspace;
    std::atomic<bool> m_cancel { false };
    std::atomic<bool> m_closing { false };
};
