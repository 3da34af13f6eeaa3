#pragma once

#include "aguiassembler.h"

#include <functional>
#include <memory>
#include <QHash>
#include <QVector>

class RoomFeed;

// One AG-UI thread written into its room as its lines are read, whether they come from a JSON Lines file or from
// kaboo's PostgreSQL table. The assembler holds a window of rows; each row that leaves it is stored when it is new
// (after the room's cursor), renewed when it is the row the last sync ended on (a line its writer had not
// finished), and compared with the stored one when an earlier import holds it (a sync, a resumed import): rewritten
// only when what it shows has changed (RoomFeed::place). The calls and runs whose rows are stored go in with each commit, so the
// room shows, counted and with its cards, while the rest imports; the title and status once the log ends.
class AguiThread : public AguiAssembler::Sink
{
public:
    // Where a sync of a log stood before the lines still to come: the assembler's state (no rows: they are in the
    // room), and the room's call and run rows. The next sync of the log, once it has grown, goes on from it with the
    // lines after, as if it had read the whole log again.
    struct Resume;

    // `placeOf(index, lineNumber)` names a line in a problem ("thread.jsonl line 12", "thread t-1, seq 815").
    // `from`: where the last sync of this thread stood (the room's cursor is where that sync ended).
    AguiThread(RoomFeed& feed, std::function<QString(qint64 index, qint64 lineNumber)> placeOf,
        std::shared_ptr<const Resume> from = {});
    ~AguiThread() override;

    qint64 taken() const { return m_taken; } // the lines taken, those of the sync resumed from included
    // Keeps where the thread stands now, before the lines still to come, for the next sync (see resume()).
    void keepForResume();
    // After finish(): where the next sync can go on from (none when keepForResume() was not called, or the sync
    // was cancelled).
    std::shared_ptr<const Resume> resume() const;

    // The thread's next line, and its own index in the source (kaboo's seq; its position in a file).
    void take(const AguiLine& line, qint64 index);
    // The log ends here (or the import was cancelled, and what was stored stays).
    void finish();

    void settle(StoredEvent&& row) override;
    StoredEvent recall(qint64 position) override;
    void rewrite(const StoredEvent& row) override;
    void problem(qint64 position, const QString& what) override;

private:
    qint64 indexOf(qint64 position) const { return m_named ? m_indexes[position] : position; }
    StoredEvent named(StoredEvent row) const; // a row by its source index instead of its position
    void writeCallsAndRuns(qint64 through); // before each commit

    RoomFeed& m_feed;
    std::function<QString(qint64, qint64)> m_placeOf;
    qint64 m_lineNumber = 0; // of the line being taken: the one every problem is about
    std::unique_ptr<AguiAssembler> m_assembler;
    qint64 m_cursor;
    qint64 m_taken = 0;
    qint64 m_lastSettled = -1; // the position of the last row stored or compared
    bool m_named = false; // the lines' indexes are not their positions (kaboo's seq)
    QVector<qint64> m_indexes; // each position's index then
    QHash<qsizetype, qint64> m_callRows; // the tool_calls row of each call slot written
    QHash<qsizetype, qint64> m_runRows; // the runs row of each run slot written
    std::shared_ptr<Resume> m_kept;
    bool m_finished = false;
};
