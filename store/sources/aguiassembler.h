#pragma once

#include "../runrecord.h"
#include "../toolcallrecord.h"
#include "aguilogparser.h"
#include "importwriter.h"

#include <memory>
#include <optional>
#include <QString>
#include <QVector>

// A text or reasoning message assembled from its START/CONTENT/END (or CHUNK) events.
struct AguiMessage
{
    QString messageId;
    QString role; // assistant, user, system, developer; reasoning
    QString text; // the deltas joined in order
    qint64 firstIndex = 0; // the row that shows the message (START, or the first CHUNK)
    qint64 lastIndex = 0; // the last row that added to it
    int deltas = 0;
    int settledDeltas = -1; // how many deltas its first row held when it left the assembler (-1: not yet)
    bool reasoning = false;
    bool complete = false; // closed by an END, a new CHUNK id, or the end of its run
};

// A thread's log assembled whole (AguiAssembler::assemble): a row for each line (with its derived columns and
// display text), the tool calls with their arguments joined in order, the runs, and the messages.
struct AguiAssembly
{
    QVector<StoredEvent> rows; // one per line, index = position in the log
    ToolCallRecords calls;
    RunRecords runs;
    QVector<AguiMessage> messages;
    QVector<QPair<qint64, QString>> problems; // (row index, what is wrong)
    QString firstUserText;
    QString lastRunOutcome;
};

// Assembles an AG-UI thread (SOURCES.md §3, §4.4, §4.5) as its lines stream by: messages from their deltas, tool
// calls paired by toolCallId across START/ARGS/END/RESULT and CHUNK, runs from RUN_STARTED to RUN_FINISHED/RUN_ERROR
// (events without runId belong to the open run; parentRunId nests), kaboo's synthetic closers flagged, and outcomes
// read from the results. Never fails: what it cannot make sense of is kept, flagged and listed as a problem.
//
// Only the last `window` rows are held: an older row leaves for the Sink with what the lines so far tell of it (a
// message's text so far, a call's arguments so far). A later line that changes a row gone (a message still
// streaming past the window, a snapshot answering a call long after it) brings it back (Sink::recall), and the
// row is written again (Sink::rewrite) once the log ends. What the assembler keeps besides is the messages' and
// calls' text and ids, not the lines: a log of any length assembles in bounded memory, and rows reach the
// workspace as they are read. Any window gives the same rows, calls and runs.
class AguiAssembler
{
public:
    // Where the rows go. Positions are the lines' positions in the thread's log, from 0.
    class Sink
    {
    public:
        virtual ~Sink() = default;
        // A row leaves the assembler (in position order; its record.index is its position).
        virtual void settle(StoredEvent&& row) = 0;
        // A row that left, as it was settled or last rewritten, for a change a later line makes to it.
        virtual StoredEvent recall(qint64 position) = 0;
        // A recalled row, changed.
        virtual void rewrite(const StoredEvent& row) = 0;
        virtual void problem(qint64 position, const QString& what) = 0;
    };
    // A call as it stands: its slot (the order calls began in) and its record, or none when the slot no longer
    // holds a call of its own (a replayed START folded into the call it repeats).
    struct CallChange
    {
        qsizetype slot;
        std::optional<ToolCallRecord> call;
        bool resultStored = false; // its result is the one the writer stored before (not in `call`)
    };
    struct RunChange
    {
        qsizetype slot;
        RunRecord run;
    };

    // `window`: how many rows are held before the oldest leaves for the sink; 0 holds them all until finish().
    AguiAssembler(Sink& sink, qsizetype window);
    // A copy of `from` as it stands (taken before its finish()), writing to `sink`: the next sync of a log that
    // grew goes on from it with the lines after those it took.
    AguiAssembler(const AguiAssembler& from, Sink& sink);
    ~AguiAssembler();
    AguiAssembler(const AguiAssembler&) = delete;
    AguiAssembler& operator=(const AguiAssembler&) = delete;

    // The log's next line.
    void take(const AguiLine& line);
    // The log ends here: what was left open is settled, every row has left for the sink, and the rows that later
    // lines changed are rewritten.
    void finish();
    // The last position that has left for the sink (-1: none yet).
    qint64 settledThrough() const;
    // For a copy taken before `finished` finished: the rows its finish() changed, as they were before, are
    // brought back here (and so written again at this copy's own finish, as the lines since make them).
    void resumeAfterFinishOf(const AguiAssembler& finished);
    // How many call slots there are: those a finish() adds (calls only a snapshot brought) come after.
    qsizetype callSlots() const;
    // The calls and runs changed since the last time, whose rows have all left up to `through`: what a writer
    // stores with the rows it commits. After finish(), every one changed. `releaseResults`: the writer keeps the
    // results it was given, and the assembler forgets them (a later change then says resultStored).
    QVector<CallChange> takeChangedCalls(qint64 through, bool releaseResults);
    QVector<RunChange> takeChangedRuns(qint64 through);
    // After finish(): the room's title (the first thing the user asked) and how its last run ended.
    QString firstUserText() const;
    QString lastRunOutcome() const;
    const QVector<AguiMessage>& messages() const;

    // A whole log at once. `indexes`, when given, are the lines' own indexes in the source (kaboo's seq), one per line
    // in order: every row, call, run, message and problem is then named by them instead of by its position.
    static AguiAssembly assemble(
        const QVector<AguiLine>& lines, const QVector<qint64>& indexes = {}, qsizetype window = 0);
    // How a TOOL_CALL_RESULT's content says the call ended: served, failed or cancelled.
    static Outcome outcomeOfResult(const QString& content, const QJsonObject& resultEvent);

private:
    class State;
    std::unique_ptr<State> m_state;
};
