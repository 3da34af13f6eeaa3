#pragma once

#include "eventfilter.h"
#include "eventrecord.h"
#include "facetcounts.h"
#include "roomsummary.h"
#include "rowindex.h"
#include "runrecord.h"
#include "searchhit.h"
#include "snapshotpartner.h"
#include "toolcallrecord.h"
#include "toolstats.h"

#include <functional>
#include <QMap>
#include <memory>
#include <optional>
#include <QFileDevice>
#include <QJsonObject>
#include <QMap>
#include <QSqlDatabase>
#include <QSqlQuery> // writeTransaction runs its statements here
#include <QHash>
#include <QSet>
#include <QString>
#include <type_traits>

struct sqlite3;
class SqliteStatement;
class TextPacker;

// Sightline's own SQLite file, through QtSql. One Workspace is one connection and belongs to the thread
// that opened it: the GUI reaches it only through StoreWorker, which owns its own.
class Workspace
{
public:
    // Opens (creating and migrating when needed) the workspace at `path`. Throws StoreError naming the file
    // when it is not a SQLite database, is another application's database, or is newer than this build.
    // A new file is made with `newFileMode` (its -wal and -shm files take the same from SQLite): a workspace
    // holds copies of customer conversations, so by default only its owner may read it.
    explicit Workspace(const QString& path, QFileDevice::Permissions newFileMode = OwnerOnly);
    static constexpr QFileDevice::Permissions OwnerOnly = QFileDevice::ReadOwner | QFileDevice::WriteOwner;
    ~Workspace();
    Workspace(const Workspace&) = delete;
    Workspace& operator=(const Workspace&) = delete;

    const QString& path() const { return m_path; }
    QSqlDatabase& db() { return m_db; }
    sqlite3* handle() const { return m_handle; }
    // Packs and unpacks the big text of this connection (payloads, arguments, results, search text).
    TextPacker& packer() { return *m_packer; }
    int schemaVersion();

    RoomSummaries rooms();
    std::optional<RoomSummary> room(qint64 roomId);
    // Rooms whose native id is `nativeId` (one per source that holds it).
    QVector<qint64> findRooms(const QString& nativeId);
    QJsonObject roomDetails(qint64 roomId); // the room's own JSON, its bindings and participants
    // The values a room holds in the filter bar's fields (type, channel, participant, tool), sorted, at most
    // `limit` each: what the bar offers to complete.
    QMap<QString, QStringList> roomValues(qint64 roomId, int limit = 500);

    EventRecords listEvents(qint64 roomId, const EventFilter& filter, const PageRequest& page);
    // The same rows one at a time, for an export that never holds the room in memory.
    void forEachEvent(qint64 roomId, const EventFilter& filter, const PageRequest& page,
        const std::function<void(const EventRecord&)>& each);
    qint64 countEvents(qint64 roomId, const EventFilter* filter = nullptr);
    // How many rows listEvents(roomId, filter, page) returns.
    qint64 countEvents(qint64 roomId, const EventFilter& filter, const PageRequest& page);
    // The counts of a room under `filter` and the index at the start of every block of `blockSize` rows.
    RowIndex indexRows(qint64 roomId, const EventFilter& filter, int blockSize);
    // The rows of the list under `filter` (timeline items, or raw rows), ascending by index, at most `limit`:
    // what a search steps through with F3 (the search's words are in the filter).
    QVector<qint64> listRows(qint64 roomId, const EventFilter& filter, int limit = 1000000);
    // The panes' counts of a room under `filter` (see FacetCounts): one pass over the room's scan index.
    FacetCounts facets(qint64 roomId, const EventFilter& filter, int bins = 120, int limit = 1000);
    EventRecords conversation(qint64 roomId, int limit, std::optional<qint64> afterIndex = std::nullopt);
    ToolCallRecords toolCalls(qint64 roomId);
    // The room's calls by tool, as the timeline shows them under `filter` (a call counts when its card does),
    // most calls first.
    ToolStatsList toolStats(qint64 roomId, const EventFilter& filter);
    // The room's calls whose cards the timeline shows under `filter`, in room order (the waterfall's); with
    // `results` false, what a drawing needs alone: no result, no blocked_by, no edited mark, and in start order
    // (calls without a start first).
    ToolCallRecords toolCallsShown(qint64 roomId, const EventFilter& filter, bool results = true);
    // Every result of a call, in order, the one that settled it (its `result`, as edited) last: an AG-UI call can
    // have several (a TOOL_CALL_RESULT each); the others are read from their rows' text, redactions applied.
    QStringList callResults(qint64 roomId, const ToolCallRecord& call);
    // The warned rows of a room (events_room_warned): index, the row's tool id and its warning (one a line).
    struct Warned
    {
        QString toolId;
        QString warning;
    };
    QMap<qint64, Warned> warnedRows(qint64 roomId);
    // The warnings on a call's own rows, from its first to its last (a START it repeated, a result), one each, from
    // the room's warned rows.
    static QStringList callWarnings(const QMap<qint64, Warned>& warned, const ToolCallRecord& call);
    // The indexes of a call's results before the one that settled it (AG-UI), in order.
    QVector<qint64> earlierResults(qint64 roomId, const ToolCallRecord& call);
    // The same, each as it is read: a report of a room of a quarter of a million calls never holds them together.
    void forEachToolCall(qint64 roomId, const std::function<void(const ToolCallRecord&)>& each);
    ToolCallRecords openToolCalls(qint64 roomId); // the calls nothing has closed yet (start_only), by start
    RunRecords runs(qint64 roomId); // AI responses, runs and tasks, in order
    // The tool call whose start, end or result is at `index`, if any.
    std::optional<ToolCallRecord> toolCallAt(qint64 roomId, qint64 index);
    // The calls shown at these indexes: by their start, or by their end or result when the start is missing.
    ToolCallRecords toolCallsShownAt(qint64 roomId, const QVector<qint64>& indexes);
    // The index where the next (or previous) tool call that failed, was refused or was never answered shows,
    // after (before) `fromIndex`; nullopt when there is none.
    std::optional<qint64> nextProblemCall(qint64 roomId, qint64 fromIndex, bool forward);
    // The timeline item that folds the row at `index` into itself: its call's card (the start) for a call's end
    // or result, its message's first row for a streamed message's delta; nullopt when it is an item itself or
    // nothing holds it.
    std::optional<qint64> itemHolding(qint64 roomId, qint64 index);
    std::optional<EventRecord> event(qint64 roomId, qint64 index);
    std::optional<qint64> indexOfNativeId(qint64 roomId, const QString& nativeId);
    QByteArray payload(qint64 eventRowId);
    // Full-text search over message text, tool arguments and results (`bodyOnly`: message text alone, as
    // RoomKit's own search_events reads). roomId 0 searches every room. Hits ascend by room and index.
    EventRecords search(qint64 roomId, const QString& text, int limit, bool includeBlocked, bool bodyOnly = false);

    // The events of every room holding all the words, by room and index, at most `limit`.
    SearchHits searchRooms(const QString& text, int limit, bool includeBlocked);

    // The workspace's secret (256 random bits in `secrets`, made on first use when `create`): the key of the
    // fingerprints that find an annotated or redacted event again, and of the redactions' digests. Keyed, so that
    // neither gives away a redacted text to someone hashing candidates; a copy handed on (saveCopy) has none.
    QByteArray secret(bool create = true);
    // A keyed fingerprint of an event's payload: "<key id>:<HMAC-SHA-256, 128 bits, hex>". A fingerprint made under
    // another key (a copy that got a new secret) never equals one made under this one.
    QString fingerprint(const QByteArray& payload);
    // The fingerprint of the payload the source wrote for the event at `index`, by which a note, an edit or a
    // redaction finds its event again: a redacted row's is the one its first redaction saw. nullopt: no event.
    std::optional<QString> sourceFingerprint(qint64 roomId, qint64 index);
    // Where the events whose payloads have these fingerprints are now (a rotated log read again moved them): the
    // first index of each, among the rows of `range` when given, else the whole room's. One pass over the
    // payloads, which stops once every one is found; what annotations, edits and redactions all find again by.
    QHash<QString, qint64> findFingerprints(
        qint64 roomId, const QSet<QString>& prints, std::optional<std::pair<qint64, qint64>> range = std::nullopt);
    // The key id fingerprints made under this workspace's secret start with ("<id>:"); empty without a secret.
    QString fingerprintPrefix();

    // Writes a self-contained copy of the workspace as it is committed now (every note, label, review and
    // redaction; no free page, so nothing a redaction removed) to `path` with `mode`. Written beside it first
    // and renamed over it: a copy that fails leaves whatever was at `path`. Throws StoreError naming `path`.
    void saveCopy(const QString& path, QFileDevice::Permissions mode = OwnerOnly);

    // Runs `sql` with positional `binds`; throws StoreError naming the workspace on failure.
    QSqlQuery exec(const QString& sql, const QVariantList& binds = {});
    // Rolls back (`sql`: "ROLLBACK", or "ROLLBACK TO name; RELEASE name") inside a catch, never throwing: a rollback
    // that fails (a full disk, the transaction already gone) must not replace the error being handled, and SQLite
    // rolls back what is left when the connection closes.
    void rollbackQuietly(const char* sql) noexcept;
    // Whether a transaction is open on the connection.
    bool inTransaction() const;
    // Runs `work` in one write transaction, and returns what it returns. BEGIN IMMEDIATE: the write lock first, so that
    // a reader's snapshot never has to be upgraded (which could fail). Inside a caller's transaction, a savepoint,
    // undone alone on failure.
    template<typename Work> auto writeTransaction(Work&& work) -> decltype(work())
    {
        const bool outer = !inTransaction();
        exec(outer ? QStringLiteral("BEGIN IMMEDIATE") : QStringLiteral("SAVEPOINT work"));
        try {
            if constexpr (std::is_void_v<decltype(work())>) {
                work();
                exec(outer ? QStringLiteral("COMMIT") : QStringLiteral("RELEASE work"));
            } else {
                auto result = work();
                exec(outer ? QStringLiteral("COMMIT") : QStringLiteral("RELEASE work"));
                return result;
            }
        } catch (...) {
            rollbackQuietly(outer ? "ROLLBACK" : "ROLLBACK TO work; RELEASE work");
            throw;
        }
    }

    // How long a statement waits for another connection's write lock before it fails.
    static constexpr int BusyTimeoutMs = 5000;
    // A room of this many events or more has its panes' counts and its waterfall's calls read on two threads
    // (facets(), toolCallsShown()) by default; the benchmark and the tests set it to compare the two ways. How many
    // threads the last such pass used.
    static constexpr qint64 SplitCountFrom = 20000;
    void setSplitCountFrom(qint64 events) { m_splitCountFrom = events; }
    int passThreads() const { return m_passThreads; }
    // Whether the task under way is no longer wanted (StoreClient's Interruption sets it for a task): SQLite asks it
    // every thousand steps of a statement on this connection, and on the second reader of a pass split in two, and
    // the statement then fails as interrupted. Empty: never.
    void setCancelled(std::function<bool()> cancelled);

private:
    void enterWal();
    // The progress handler of setCancelled, on this connection and the partner's.
    static int askCancelled(void* self);
    // Throws StoreError naming a schema object (a trigger, a view, a table) the migrations do not make.
    void refuseForeignObjects();
    // Runs `sql` on the native handle, calling `row` with each row (RecordReader makes records of them).
    void read(const QString& sql, const QVariantList& binds, const std::function<void(const SqliteStatement&)>& row);
    // The same on another connection of this workspace (SnapshotPartner's, for a pass split in two).
    static void read(sqlite3* db, const QString& sql, const QVariantList& binds,
        const std::function<void(const SqliteStatement&)>& row);
    EventRecords readEvents(const QString& sql, const QVariantList& binds);
    // The second reader of this workspace, opened on first use; nullptr when it cannot be opened.
    SnapshotPartner* snapshotPartner();
    // For a pass over a big room split in two (facets(), the waterfall's calls): pins this connection and the
    // partner's to one snapshot (`pinned`) and gives the first index of the second half; nothing when the room is
    // small or the two could not be pinned (then read on one thread).
    // `rows`: how many rows the pass reads (the room's events, or its calls).
    std::optional<qint64> pinHalves(qint64 roomId, qint64 rows, std::optional<SnapshotPartner::Pin>& pinned);
    // The two halves at once: `first` on this connection, `second` on the partner's. When the partner's half fails,
    // `second` runs again here, on the same snapshot, after `again` drops what it made.
    void bothHalves(const std::function<void(sqlite3*)>& first, const std::function<void(sqlite3*)>& second,
        const std::function<void()>& again);
    void readEvents(const QString& sql, const QVariantList& binds, const std::function<void(const EventRecord&)>& each);

    QString m_path;
    QString m_connection;
    QSqlDatabase m_db;
    sqlite3* m_handle = nullptr;
    std::unique_ptr<TextPacker> m_packer; // its SQL functions are the connection's: it outlives it
    std::unique_ptr<SnapshotPartner> m_partner;
    bool m_partnerFailed = false;
    qint64 m_splitCountFrom = SplitCountFrom;
    int m_passThreads = 0;
    std::function<bool()> m_cancelled;
    QByteArray m_secret; // read once found
};
