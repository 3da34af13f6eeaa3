#pragma once

#include "../eventflags.h"
#include "../eventrecord.h"
#include "../freedmemory.h"
#include "../roominfo.h"
#include "../runrecord.h"
#include "../textpacker.h"
#include "../toolcallrecord.h"
#include "importreport.h"
#include "pendingrows.h"
#include "roomnumbers.h"
#include "wordcodes.h"

#include <functional>
#include <memory>
#include <optional>
#include <QByteArray>
#include <QSet>
#include <QString>

class SearchIndex;
class SqliteStatement;
class Workspace;


// A room as an earlier import stored it.
struct StoredRoom
{
    qint64 id = 0;
    QByteArray nativeJson;
    QString fileMark; // FileTail::mark of its log at that import, or the reader's RoomInfo::mark
    qint64 syncedSeq = -1; // the last row read then
    QString cursorId; // that row's own id (events.native_id), to tell it is still the source's row there
};

// Where a room's import stands: its workspace id and the highest source index already imported.
struct RoomCursor
{
    QString nativeId;
    qint64 id = 0;
    qint64 syncedSeq = -1;
};

// One source row to store: its derived columns, its verbatim payload and the text search indexes for it.
struct StoredEvent
{
    EventRecord record;
    QByteArray payload;
    QString body; // message text
    QString arguments; // tool arguments
    QString result; // tool result
    PackedValue packedPayload; // the payload packed on the reading thread (preparePayload), when it was
    // Packs the payload ahead, on the thread that reads the source (with that thread's own packer).
    void preparePayload(TextPacker& packer)
    {
        packedPayload = packer.prepare(payload, record.flags & EventFlags::InvalidUtf8);
    }
};

// What every importer writes through: sources, rooms, events (one transaction per batch, a few hundred rows a
// statement on the native handle), search text, paired tool calls, runs, and a room's counts. The sync
// cursor moves with each batch, so a cancelled or failed import resumes where it stopped.
class ImportWriter
{
public:
    // `origin` names the source in the workspace (SourceReader::origin); `sourcePath` names it in problems.
    ImportWriter(Workspace& workspace, const QString& sourcePath, const QString& origin, const ImportOptions& options,
        ImportReport& report);
    ~ImportWriter();
    ImportWriter(const ImportWriter&) = delete;
    ImportWriter& operator=(const ImportWriter&) = delete;

    // The workspace, with every row given to insert() written in it (the transaction still open).
    Workspace& workspace()
    {
        flushRows();
        return m_ws;
    }
    const ImportOptions& options() const { return m_options; }

    // Runs `work` in one transaction, rolled back if it throws.
    template<typename Work> void transaction(Work&& work)
    {
        begin();
        try {
            work();
        } catch (...) {
            rollback();
            throw;
        }
        commit();
    }

    qint64 upsertSource(const QString& system, const QString& format, const QString& schemaVersion);
    RoomCursor upsertRoom(qint64 sourceId, const RoomInfo& room);
    // The room the source holds under `nativeId`, when an earlier import made it: its id and its JSON as stored.
    std::optional<StoredRoom> storedRoom(qint64 sourceId, const QString& nativeId);
    // The rows the source holds after the room's cursor that this import has not read yet (rooms.unread).
    void setUnread(qint64 roomId, qint64 rows);
    // Where the room's import stands now: its cursor as the workspace holds it (a room read in turns resumes there).
    RoomCursor cursor(const RoomCursor& room);
    // Removes a room's rows, calls and runs (their search text goes with them), and starts its cursor again: a
    // log rotated or rewritten since the last import is read again from the start.
    void clearRoom(qint64 roomId);
    // Records "FILE: PLACE: problem" in the report (the first thousand, then a count).
    void note(const QString& place, const QString& problem);
    // The rows to read in all, `done` of them read before this import began.
    void setTotal(qint64 rows, qint64 done = 0)
    {
        m_total = rows;
        m_done = done;
    }
    // A reader's pass over a room before its rows (CraftBot's shape, 15 s at a million records): `units` more of
    // work, then done a part at a time, so the progress moves and a cancel is heard while nothing is written.
    // readDone() is false once the import is cancelled.
    void addWork(qint64 units) { m_total += units; }
    bool readDone(qint64 units);

    // Opens the room's first transaction.
    void beginRoom(const RoomCursor& room);
    // Stores a row, written with the next few hundred by one statement (flushRows(): before anything reads the
    // room, and before each commit). A row the room already has at that index is passed over (with `noteIfSkipped`,
    // noted in the report as skippedRow() at its place). Commits every batch, and then reports progress and honours a
    // cancel request (see cancelled()).
    void insert(const StoredEvent& event, bool noteIfSkipped = false);
    static QString skippedRow(const QString& nativeId)
    {
        return QStringLiteral("a second row with the same index (event %1) was skipped").arg(nativeId);
    }
    // The row at `event`'s index as the source has it now, in place of the stored one when the stored bytes are
    // only the start of it, or it the start of them (the writer had not finished the line or record, or the next
    // one, when it was read).
    void renew(const StoredEvent& event);
    bool cancelled() const { return m_cancelled; }
    // Whether the room being read should stop after the batch just committed: the import was cancelled, or the user
    // asked for a room not read yet (setYieldWhen), which is read next while this one waits its turn.
    bool stopped() const { return m_cancelled || m_yielding; }
    // Asked with every commit of a room's rows: true when another room is wanted now.
    void setYieldWhen(std::function<bool()> wanted) { m_yieldWhen = std::move(wanted); }
    // The room just finished stopped for another: its read resumes later (and this says no more).
    bool takeYielded() { return std::exchange(m_yielding, false); }
    // The room's stored rows from index `from` to `to`: their derived columns and search text (no payload).
    QVector<StoredEvent> storedRows(qint64 from, qint64 to);
    // A stored row's derived columns, display text and search text, as the reader makes them now (a reviewer's
    // own flags kept; what redactions cover is redacted again before the commit).
    void rewrite(const StoredEvent& event);
    // Rows the room already holds, read again from the source (a sync, a resumed import): each one the reader now
    // makes otherwise (derived columns, display or search text) is rewritten.
    void compareStored(const QVector<StoredEvent>& rows);
    // The room's title and status as a later read makes them (AG-UI: its first question, how its last run ended).
    void setRoomTitleAndStatus(const QString& title, const QString& status);
    // The calls of the room that nothing has closed yet (start_only), in index order.
    ToolCallRecords openCalls();
    void deleteToolCalls(bool openOnly); // openOnly: only calls still without an end (start_only)
    void deleteToolCallsFrom(qint64 index); // the calls with a row at `index` or after it
    void deleteOpenCall(qint64 startSeq); // the start_only row of a call that an end has now closed
    void insertToolCalls(const ToolCallRecords& calls);
    // Writes one call: a new row when `rowId` is 0, else that row again (its stored result kept when `keepResult`).
    // Returns its row id.
    qint64 writeCall(const ToolCallRecord& call, qint64 rowId, bool keepResult = false);
    void deleteCall(qint64 rowId);
    void replaceRuns(const RunRecords& runs);
    // Writes one run: a new row when `rowId` is 0, else that row again. Returns its row id.
    qint64 writeRun(const RunRecord& run, qint64 rowId);
    // Called inside every commit of the room, before it: what an importer derives from the rows as they stream
    // by (paired calls, turns) is written in the same transaction as those rows and the cursor, so a process
    // killed at any point leaves a workspace whose calls and turns are those of the rows it holds, and a
    // resumed import ends where a clean one does.
    void setBeforeCommit(std::function<void()> hook) { m_beforeCommit = std::move(hook); }
    // Called inside every commit of a room's rows too, for the import's own bookkeeping of other rooms (the
    // source's counts as they come, RoomCounts), whatever room and feed is being read.
    void setWithEveryCommit(std::function<void()> hook) { m_withEveryCommit = std::move(hook); }
    // Recounts the room, moves its cursor, commits, and adds the room to the report.
    void finishRoom(qint64 syncedSeq);
    // A room stopped for another the user asked for: what it read committed as a batch is (its cursor moved), and
    // no more; it is counted whole when it is read to its end.
    void pauseRoom(qint64 syncedSeq);
    // A room its reader wants read again from its start (RoomFeed::readAgainFromStart), after its feed is gone:
    // what was written of it is removed and its rows counted as unread again, committed. beginRoom() starts it again.
    void readRoomAgain();
    // The same in the middle of a room (its tool calls paired so far): what was read shows whole in a reader
    // while the rest imports. A recount reads the room, so once early, not every batch.
    void checkpointRoom(qint64 syncedSeq);
    int roomCommits() const { return m_roomCommits; } // batches committed since beginRoom()
    static constexpr int FirstBatchRows = 1000; // a room's first transaction: enough for a first screen
    // Keeps the problems with the source.
    void finish();

private:
    // The rows given to insert() since the last write, written now (SQLite keeps its cursors on the table and its
    // indexes from row to row of one statement: PendingRows), with each one's count and search text; then the words
    // of the search texts written since the last time, indexed.
    void flushRows();
    void writeGiven(); // flushRows()'s first half: every few hundred rows
    // The full-text index learns the words of the rows written since it last did, at once: before anything reads or
    // changes it, and before each commit. Learnt row by row, its words were flushed to a new segment of the index
    // at the start of every statement over many rows (SQLite 3.40's FTS5 writes out what it holds at each statement's
    // savepoint): an EVENT.md of 100,000 records imported 7 % slower than row by row.
    void indexWords();
    // Before every commit of a room's rows: what they hold of a redacted text is redacted in the same transaction.
    qint64 insertOne(const RowValues& row, qint64 index); // its rowid; 0 when passed over, -1 refused (noted)
    void redactWritten();
    void wrote(qint64 index);
    void forgetCounted(); // a row at or before m_countedThrough changes: the next count is whole
    RoomCursor writeRoom(qint64 sourceId, const RoomInfo& room); // upsertRoom's insert or update
    void updateRoom(qint64 syncedSeq); // recount, move the cursor, commit, report progress
    void countParticipants(); // the room's participants and channel types, and counted_through
    void reportProgress();
    void heedRequests(); // a cancel, or a room wanted now: asked between batches
    void commitBatch(qint64 syncedSeq); // the batch's derived rows, redactions and the room's counts, committed
    void addToReport(); // the room just read, once in the report however many turns it took
    void begin();
    void commit();
    void rollback();
    void bindText(SqliteStatement& statement, int column, const QString& value);
    qint64 numbered(const char* column, const QString& text); // the room's number for a Numbered field's text

    Workspace& m_ws;
    QString m_source;
    QString m_origin;
    ImportOptions m_options;
    ImportReport& m_report;
    std::unique_ptr<SqliteStatement> m_insert;
    std::unique_ptr<SqliteStatement> m_insertRows; // the same, of PendingRows
    std::unique_ptr<SqliteStatement> m_lastRowId;
    // Rows given are written (writeGiven) 256 at a time (100,000 rows: 527 ms in 200s, 522 in 500s, 512 in 1,000s), or
    // sooner once they weigh 4 MB (payloads and texts: a RoomKit row can hold a fetched page).
    static constexpr std::size_t GivenRows = 256;
    static constexpr qint64 GivenWeight = 4 << 20;
    qint64 m_givenWeight = 0;
    // The rows given and not written yet, and what their writing needs of each beyond its values.
    struct Given
    {
        qint64 index = 0;
        qint64 createdMicros = 0;
        QString body, arguments, result;
        QString skippedId; // the event's own id, noted when the row is passed over (insert's noteIfSkipped)
        bool noteIfSkipped = false;
    };
    PendingRows m_given;
    std::vector<Given> m_givenRows;
    qint64 m_wordsFrom = 0, m_wordsTo = 0; // the rows whose search text is not indexed yet (0: none)
    RoomNumbers m_messages; // message_id
    RoomNumbers m_turns; // group_id
    WordCodes m_words; // type, role, tool_name
    std::unique_ptr<SearchIndex> m_search;
    std::unique_ptr<SqliteStatement> m_deleteOpen;
    std::unique_ptr<SqliteStatement> m_insertRun;
    std::unique_ptr<SqliteStatement> m_updateRun;
    std::unique_ptr<SqliteStatement> m_insertCall;
    std::unique_ptr<SqliteStatement> m_updateCall;
    std::unique_ptr<SqliteStatement> m_storedRows;
    std::unique_ptr<SqliteStatement> m_rewrite;
    std::unique_ptr<SqliteStatement> m_roomHasRedactions;
    std::unique_ptr<SqliteStatement> m_writeRoom;
    std::unique_ptr<SqliteStatement> m_storedRoom;
    std::unique_ptr<SqliteStatement> m_setUnread;
    std::function<void()> m_beforeCommit;
    std::function<void()> m_withEveryCommit;
    std::function<bool()> m_yieldWhen;
    RoomCursor m_room;
    ImportReport::Room m_counted;
    bool m_inTransaction = false;
    FreedMemory m_freed;
    bool m_cancelled = false;
    bool m_yielding = false;
    qint64 m_lastSeq = -1;
    qint64 m_total = 0;
    qint64 m_done = 0;
    int m_inBatch = 0;
    int m_roomCommits = 0;
    // The rooms whose redactions the rows read again must meet in their own batch (RedactionStore::reapply), and
    // the indexes of the rows written since the last commit.
    bool m_roomRedacted = false;
    std::optional<std::pair<qint64, qint64>> m_written;
    bool m_redactedAgain = false; // the log is emptied of what they held once the room is whole
    QSet<qint64> m_readAgain; // rooms cleared and read again from the start in this import
    // rooms.counted_through: the rows up to this index are in the room's participants and channel types as counted
    // whole; a count after it reads the rows after it alone (-1: the next count reads the room whole).
    qint64 m_countedThrough = -1;
    qint64 m_batchAdded = 0; // rows this batch added, and their time span (0: none)
    qint64 m_batchFirstUs = 0;
    qint64 m_batchLastUs = 0;
    qint64 m_unlisted = 0;
    qint64 m_cacheSize = -2000; // the connection's own, restored after the import
};
