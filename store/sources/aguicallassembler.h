#pragma once

#include "aguiassembler.h"

#include <QHash>
#include <QSet>

class AguiMessageAssembler;
class AguiRows;
class AguiRunTracker;

// The AG-UI assembler's tool calls: paired by toolCallId across START/ARGS/END/RESULT and CHUNK, their arguments
// joined in order, a START that repeats an ended call told apart from a new call of the same id (by what follows it),
// outcomes read from the results, and what the writer has not taken yet.
class AguiCallAssembler
{
public:
    struct Call
    {
        ToolCallRecord record;
        QStringList fragments;
        QVector<qint64> fragmentRows;
        QVector<qint64> results; // every TOOL_CALL_RESULT of the call; the last one settles it
        // The message ids of its answers (a TOOL_CALL_RESULT's messageId, a snapshot's tool message's id): a tool
        // message brought again later (a run's input restating the conversation) is known by its id as this call's
        // answer, not taken for an answer to a later call of the same toolCallId, nor a new answer to this one.
        QStringList answerIds;
        QVector<qint64> replays; // the STARTs that repeated it
        bool open = true;
        bool chunkEnded = false; // sent as chunks and closed the protocol's way: by another event (no END row)
        std::optional<qint64> resultMicros;
        // A START for an id whose call had ended: a new call when ARGS or END follow (the id reused, as the protocol
        // allows once the first call ended), or the same call again when only a RESULT follows (a client replaying
        // the call it carries over, human in the loop). Until then it is a candidate, kept apart.
        std::optional<qsizetype> replayOf;
        bool merged = false; // a replay folded into the call it repeats
        // Known only from a MESSAGES_SNAPSHOT or a run's input (an assistant message's toolCalls), never streamed:
        // its start is the row that brought it.
        bool fromSnapshot = false;
        // Answered only by a tool message in a snapshot or a run's input (a client's answer to a human-in-the-loop
        // call comes so): the row that brought it. It is not folded: it shows what else it brought.
        std::optional<qint64> snapshotResultAt;
        int fragmentCount = 0; // ARGS and chunks taken (fragments may be joined into one once the call ends)
        bool resultReleased = false; // its result was handed to the writer and dropped from memory since
    };

    // A TOOL_CALL_* row at `i`.
    void takeTool(AguiRows& rows, const AguiRunTracker& runs, AguiMessageAssembler& messages, qint64 i, const QJsonObject& e);
    // The chunked call open ends: the next call, another kind of event or the end of its run came.
    void endChunkCall();
    // The log stops inside a chunked call: it did not end, it was cut (or is still coming).
    void cutChunkCall() { m_chunkCall.clear(); }
    // At the log's end: a candidate replay nothing showed to be a new call is the call it repeats.
    void resolveReplays(AguiRows& rows);
    // An end or result kaboo made up: its call is synthetic.
    void markSyntheticRow(qint64 i);

    // What a row shows of its call: the call's arguments at its start, its outcome at its end.
    void finalize(StoredEvent& row);
    // The rows that left before a later line changed what they show: brought back, to be written again.
    void recallChanged(AguiRows& rows) const;
    // The calls changed since the last time whose rows have all left up to `through` (see AguiAssembler).
    QVector<AguiAssembler::CallChange> takeChanged(qint64 through, bool release, bool finished, bool finishing);

    // For the snapshot placer: the calls in their slots, a call added in the next, and one changed.
    const QVector<Call>& calls() const { return m_calls; }
    Call& at(qsizetype k) { return m_calls[k]; }
    qsizetype add(const Call& c);
    void touch(qsizetype k, qint64 i);
    qsizetype slotCount() const { return m_calls.size(); }

    // The first row a call has.
    static qint64 firstRow(const Call& c);
    // A call answered by `content` (a TOOL_CALL_RESULT event's, or a tool message's in a snapshot): its result,
    // outcome, and what went wrong when it did not serve.
    static void answer(ToolCallRecord& call, const QString& content, const QJsonObject& answer);

private:
    // What the writer and the rows that left know of a call, apart from the call: a copy of the assembler kept for the
    // next sync shares the calls themselves until one changes, and these change at every commit and at the log's end.
    struct Track
    {
        // Changed since the writer last took it, and the last row that changed it.
        bool touched = false;
        qint64 lastRow = -1;
        // What its rows held when they left the assembler, to tell whether a later line changed them.
        int settledFragments = -1; // the arguments its start row showed (-1: not settled)
        QString settledName;
        bool settledAsCandidate = false; // its start left while it was still a candidate replay
        std::optional<Outcome> settledEndOutcome; // the outcome its end row showed
    };

    Call* call(const QString& key);
    qsizetype slotOf(const Call& c) const { return &c - m_calls.constData(); }
    void touch(const Call& c, qint64 i) { touch(slotOf(c), i); }
    Call& startCall(AguiRows& rows, const AguiRunTracker& runs, qint64 i, QString id, const QJsonObject& e);
    Call& callFor(AguiRows& rows, const AguiRunTracker& runs, qint64 i, const QString& id);
    void foldInto(AguiRows& rows, const Call& c, qint64 i);
    void settleReplay(AguiRows& rows, Call& c, bool newCall);
    std::optional<ToolCallRecord> finished(const Call& c) const;
    static Outcome outcomeNow(const Call& c);

    QVector<Call> m_calls;
    QVector<Track> m_track; // one for each call
    QVector<qsizetype> m_touchedCalls;
    QHash<QString, qsizetype> m_callAt;
    QHash<qint64, qsizetype> m_callOfRow; // the start, end and result rows of calls
    QSet<qint64> m_syntheticRows; // ends and results kaboo made up
    QString m_chunkCall;
    QString m_lastCall;
};
