#pragma once

#include "../toolpairer.h"
#include "importwriter.h"

#include <functional>
#include <QSet>

// One room of an import, as a SourceReader sees it: the rows it hands over are written in batches, and
// what is derived from them is written in the same transaction as the rows, whichever way the reader derives it:
// - streamed: each tool start and end goes through pair(), and the calls it settles or leaves open are written
//   with the commit of their rows (the calls an earlier import left open are taken up again first), and what
//   else the reader keeps as the rows stream by is written by its beforeCommit hook;
// - whole: a reader that assembles a room at once writes its calls and runs with replaceCalls() and
//   replaceRuns() after its rows.
// Either way a row the room already holds (a sync reads a log again) goes through place(): compared with the stored
// one, and rewritten where what came since changed what it shows.
// A process killed at any point leaves a workspace whose calls and turns are those of the rows it holds.
class RoomFeed
{
public:
    RoomFeed(ImportWriter& writer, const RoomCursor& room);
    ~RoomFeed();
    RoomFeed(const RoomFeed&) = delete;
    RoomFeed& operator=(const RoomFeed&) = delete;

    const RoomCursor& room() const { return m_room; }
    Workspace& workspace() { return m_writer.workspace(); }
    int assemblyWindow() const { return m_writer.options().assemblyWindow; }
    void note(const QString& place, const QString& problem) { m_writer.note(place, problem); }

    // Says that what the rows derive is written as they stream by (pair(), the beforeCommit hook): the room is
    // then counted and shown whole after its first batch, while the rest of it imports.
    void setStreamed() { m_streamed = true; }
    // Stores a row; one the room already holds at its index is passed over (and noted, `noteIfSkipped`).
    void add(const StoredEvent& row, bool noteIfSkipped = false);
    // The import was cancelled, or another room is wanted first: the reader stops handing rows over (what it
    // committed stays, and the room is read on from there later).
    bool stopped() const { return m_writer.stopped(); }
    // A pass over the room before its rows: its size in units of work, then each part of it read (see
    // ImportWriter::readDone: false once cancelled).
    void addWork(qint64 units) { m_writer.addWork(units); }
    bool readDone(qint64 units) { return m_writer.readDone(units); }
    // The highest index the room is now read to (the cursor of the next sync); the room's cursor until set.
    void setSynced(qint64 index) { m_synced = index; }
    qint64 synced() const { return m_synced; }

    // Streamed pairing (ToolPairer's rules): a tool start or end, in index order. For an end, whether it closed
    // a start, and then shows inside that card (EventFlags::Folded).
    bool pair(const ToolEvent& event);
    // What the reader derives as rows stream by, written before every commit of the room's rows. The reader clears
    // it before read() returns, having written what it holds since the last commit.
    void setBeforeCommit(std::function<void()> hook) { m_beforeCommit = std::move(hook); }
    // Writes one run: a new row when `rowId` is 0, else that row again. Returns its row id.
    qint64 writeRun(const RunRecord& run, qint64 rowId) { return m_writer.writeRun(run, rowId); }

    // Whole-room derivation: the room's calls and runs as they are now, in place of the stored ones.
    void replaceCalls(const ToolCallRecords& calls);
    void replaceRuns(const RunRecords& runs) { m_writer.replaceRuns(runs); }
    void deleteCalls() { m_writer.deleteToolCalls(false); }
    void deleteCallsFrom(qint64 index) { m_writer.deleteToolCallsFrom(index); }
    // One call at a time, as it settles (a reader that streams a whole-room derivation): a new row when `rowId`
    // is 0, else that row again. Returns its row id.
    qint64 writeCall(const ToolCallRecord& call, qint64 rowId, bool keepResult = false)
    {
        return m_writer.writeCall(call, rowId, keepResult);
    }
    void deleteCall(qint64 rowId) { m_writer.deleteCall(rowId); }
    // The stored rows from `from` to `to` (see ImportWriter::storedRows), and one rewritten.
    QVector<StoredEvent> storedRows(qint64 from, qint64 to)
    {
        flushHeld();
        return m_writer.storedRows(from, to);
    }
    void rewrite(const StoredEvent& row)
    {
        flushHeld();
        m_writer.rewrite(row);
    }
    // More of the room's calls, beside the ones stored (after replaceCalls, for a room whose calls stream by).
    void addCalls(const ToolCallRecords& calls) { m_writer.insertToolCalls(calls); }
    // A whole-room reader's rows, in index order: those after the cursor added, and the last one stored renewed
    // (below), until the import is cancelled.
    void addAfterCursor(const QVector<StoredEvent>& rows);
    // A row a reader hands over, new or read again: added after the cursor; the one at the cursor renewed; those the
    // room already holds compared with the stored ones (a few thousand in one read, see flushHeld) and rewritten
    // only where what they show changed (ImportWriter::compareStored).
    void place(const StoredEvent& row);
    // The rows read again and not compared yet, compared now (before the stored rows are read or written otherwise).
    void flushHeld();
    // What a whole-room reader wrote so far (rows, calls, runs) committed and counted up to index `synced`: the
    // room shows while the rest is read, and rows up to there are read again from now on.
    void checkpoint(qint64 synced)
    {
        m_checkpointed = true;
        m_writer.checkpointRoom(synced);
        m_room.syncedSeq = synced;
    }
    // The stored row at `row`'s index, written again when the source's bytes for it changed since: the last line
    // of a log that its writer had not finished when it was read (readers renew the last row they stored).
    void renew(const StoredEvent& row) { m_writer.renew(row); }
    void setTitleAndStatus(const QString& title, const QString& status)
    {
        m_writer.setRoomTitleAndStatus(title, status);
    }
    // The reader found the room must be read again from its start, another way (RoomKit: a row no seek found):
    // what it wrote of the room is dropped (ImportWriter::readRoomAgain) and the room read again.
    void readAgainFromStart() { m_readAgain = true; }
    bool readAgainWanted() const { return m_readAgain; }

private:
    void writeDerived(); // the writer's hook: before each commit
    void reopenCalls();

    ImportWriter& m_writer;
    RoomCursor m_room;
    qint64 m_synced;
    bool m_streamed = false;
    bool m_checkpointed = false;
    bool m_readAgain = false;
    std::function<void()> m_beforeCommit;
    std::optional<ToolPairer> m_pairer; // made on the first pair(), with the calls left open taken up again
    QSet<qint64> m_openInTable; // starts of calls the table holds as start_only
    QVector<StoredEvent> m_held; // rows read again, not compared yet
};
