#include "aguiassembler.h"

#include "../eventflags.h"
#include "../eventkind.h"
#include "../timeutil.h"
#include "../jsontext.h"
#include "../outcome.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <QHash>
#include <QMap>
#include <QSet>
#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <deque>

namespace {

using JsonText::clip;
using JsonText::compact;
using JsonText::parsesAsJson;

QString str(const QJsonObject& o, const char* key)
{
    return o.value(QLatin1String(key)).toString();
}

// The text of a user message's content: a string, or InputContent parts (SOURCES.md §3.4).
QString contentText(const QJsonValue& content)
{
    if (content.isString())
        return content.toString();
    QStringList parts;
    for (const QJsonValue& part : content.toArray()) {
        const QJsonObject o = part.toObject();
        if (o.value(QLatin1String("type")).toString() == QLatin1String("text"))
            parts << o.value(QLatin1String("text")).toString();
        else if (!o.isEmpty())
            parts << QStringLiteral("[%1]").arg(o.value(QLatin1String("type")).toString());
    }
    return parts.join(QLatin1Char('\n'));
}

// A call answered by `content` (a TOOL_CALL_RESULT event's, or a tool message's in a snapshot): its result,
// outcome, and what went wrong when it did not serve.
void settle(ToolCallRecord& call, const QString& content, const QJsonObject& answer)
{
    call.result = content;
    call.error.clear();
    call.outcome = AguiAssembler::outcomeOfResult(content, answer);
    if (call.outcome == Outcome::Served)
        return;
    const QJsonObject o = QJsonDocument::fromJson(content.toUtf8()).object();
    const QJsonValue error
        = answer.contains(QLatin1String("error")) ? answer.value(QLatin1String("error")) : o.value(QLatin1String("error"));
    call.error = error.isUndefined() ? o.value(QLatin1String("message")).toString() : compact(error);
    if (call.error.isEmpty())
        call.error = clip(content);
}

bool isSyntheticResult(const QJsonObject& event)
{
    // kaboo's finalizeRunEvents writes the result as "<toolCallId>-result" with a status and a reason of its own.
    if (str(event, "messageId") != str(event, "toolCallId") + QStringLiteral("-result"))
        return false;
    const QJsonObject content = QJsonDocument::fromJson(str(event, "content").toUtf8()).object();
    const QString reason = content.value(QLatin1String("reason")).toString();
    return reason == QLatin1String("stop_requested") || reason == QLatin1String("missing_terminal_event");
}

bool isSyntheticTerminal(const QString& type, const QJsonObject& event)
{
    if (type == QLatin1String("RUN_ERROR"))
        return str(event, "code") == QLatin1String("INCOMPLETE_STREAM");
    if (type == QLatin1String("RUN_FINISHED"))
        return !event.contains(QLatin1String("threadId")) && !event.contains(QLatin1String("runId"));
    return false;
}

bool isCloser(const QString& type)
{
    return type == QLatin1String("TEXT_MESSAGE_END") || type == QLatin1String("TOOL_CALL_END")
        || type == QLatin1String("TOOL_CALL_RESULT") || type == QLatin1String("REASONING_MESSAGE_END")
        || type == QLatin1String("REASONING_END") || type == QLatin1String("THINKING_TEXT_MESSAGE_END")
        || type == QLatin1String("THINKING_END");
}

struct Call
{
    ToolCallRecord record;
    QStringList fragments;
    QVector<qint64> fragmentRows;
    QVector<qint64> results; // every TOOL_CALL_RESULT of the call; the last one settles it
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

// What the writer and the rows that left know of a call, apart from the call: a copy of the assembler kept for the next
// sync shares the calls themselves until one changes, and these change at every commit and at the log's end.
struct CallTrack
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

// A message a MESSAGES_SNAPSHOT or a RUN_STARTED's input brought, shown at that row.
struct BroughtMessage
{
    QString id;
    QString role;
    QString text;
};

// The events that leave a chunked message or call open (transformChunks passes them through without closing it);
// every other event, the end of a run included, closes it.
bool keepsChunkOpen(const QString& type)
{
    return type == QLatin1String("RAW") || type == QLatin1String("ACTIVITY_SNAPSHOT") || type == QLatin1String("ACTIVITY_DELTA")
        || type == QLatin1String("REASONING_ENCRYPTED_VALUE");
}

// One snapshot's messages (a MESSAGES_SNAPSHOT's, or a RUN_STARTED's input) not seen in an earlier one, and the run
// of the row that brought them.
struct Snapshot
{
    qint64 row;
    QString groupId;
    QByteArray messages; // a JSON array, compact: a long log brings many
};

} // namespace

class AguiAssembler::State
{
public:
    State(Sink& sink, qsizetype window)
        : m_sink(&sink)
        , m_window(window)
    {
    }
    State(const State& other) = default;
    void setSink(Sink& sink) { m_sink = &sink; }

    void take(const AguiLine& line)
    {
        const qint64 i = m_base + qint64(m_rows.size());
        m_rows.emplace_back();
        takeLine(i, line);
        while (m_window > 0 && qsizetype(m_rows.size()) > m_window)
            settleOldest();
    }

    void finish()
    {
        m_finishing = true;
        closeChunkMessage();
        m_chunkCall.clear(); // the log stops inside a chunked call: it did not end, it was cut (or is still coming)
        resolveReplays();
        placeSnapshots();
        showSnapshotCalls();
        showBroughtMessages();
        while (!m_rows.empty())
            settleOldest();
        recallChanged();
        for (auto it = m_recalled.begin(); it != m_recalled.end(); ++it) {
            finalize(*it);
            m_sink->rewrite(*it);
        }
        m_recalled.clear();
        for (const auto& [row, id] : std::as_const(m_userRows)) {
            if (m_firstUserText.isEmpty())
                m_firstUserText = m_userText.value(id);
        }
        for (auto it = m_brought.cbegin(); it != m_brought.cend(); ++it) {
            for (const BroughtMessage& m : it.value()) {
                if (m_firstUserText.isEmpty() && m.role == QLatin1String("user"))
                    m_firstUserText = m.text;
            }
        }
        if (m_firstUserText.isEmpty())
            m_firstUserText = m_firstStreamedUserText;
        if (!m_runs.isEmpty())
            m_lastRunOutcome = m_runs.constLast().outcome.isEmpty() ? QStringLiteral("open") : m_runs.constLast().outcome;
        m_finished = true;
    }

    qint64 settledThrough() const { return m_base - 1; }

    // Rows a copy taken before finish() must know as they were before it: held as brought back (written again at
    // the copy's own finish), unless the copy still holds them itself.
    void adopt(const QMap<qint64, StoredEvent>& rows)
    {
        for (auto it = rows.cbegin(); it != rows.cend(); ++it) {
            if (it.key() < m_base && !m_recalled.contains(it.key()))
                m_recalled.insert(it.key(), it.value());
        }
    }
    const QMap<qint64, StoredEvent>& finishRecalls() const { return m_finishRecalls; }
    qsizetype callSlots() const { return m_calls.size(); }

    QVector<CallChange> takeChangedCalls(qint64 through, bool release)
    {
        QVector<CallChange> out;
        QVector<qsizetype> later;
        for (qsizetype k : std::as_const(m_touchedCalls)) {
            const Call& c = std::as_const(m_calls)[k];
            CallTrack& track = m_track[k];
            if (!m_finished && track.lastRow > through) {
                later << k;
                continue;
            }
            track.touched = false;
            out.append({ k, finished(c), c.resultReleased });
            if (release && !m_finishing && !c.record.result.isNull()) {
                // The writer has it: a result is the biggest part of a call, and a long log has many calls.
                Call& mine = m_calls[k];
                mine.record.result = QString();
                mine.resultReleased = true;
            }
        }
        m_touchedCalls = later;
        std::sort(out.begin(), out.end(), [](const CallChange& a, const CallChange& b) { return a.slot < b.slot; });
        return out;
    }

    QVector<RunChange> takeChangedRuns(qint64 through)
    {
        QVector<RunChange> out;
        QVector<qsizetype> later;
        for (qsizetype k : std::as_const(m_touchedRuns)) {
            RunRecord run = m_runs[k];
            if (!m_finished && run.lastIndex.value_or(0) > through) {
                later << k;
                continue;
            }
            m_runTouched[k] = false;
            if (run.outcome.isEmpty())
                run.outcome = QStringLiteral("open"); // no RUN_FINISHED or RUN_ERROR in the log (yet)
            out.append({ k, run });
        }
        m_touchedRuns = later;
        std::sort(out.begin(), out.end(), [](const RunChange& a, const RunChange& b) { return a.slot < b.slot; });
        return out;
    }

    QString m_firstUserText;
    QString m_firstStreamedUserText; // the first user message that streamed whole (TEXT_MESSAGE_START to END)
    QString m_lastRunOutcome;
    QVector<AguiMessage> m_messages;

private:
    void problem(qint64 index, const QString& what) { m_sink->problem(index, what); }

    // The row at `i`: held, or brought back from the sink for a change (written again at finish()).
    StoredEvent& row(qint64 i)
    {
        if (i >= m_base)
            return m_rows[std::size_t(i - m_base)];
        auto it = m_recalled.find(i);
        if (it == m_recalled.end()) {
            it = m_recalled.insert(i, m_sink->recall(i));
            it->record.index = i;
            if (m_finishing)
                m_finishRecalls.insert(i, *it); // as it was before the log's end changed it

        }
        return *it;
    }
    EventRecord& rec(qint64 i) { return row(i).record; }

    // The oldest row held leaves, with what the lines so far tell of it.
    void settleOldest()
    {
        StoredEvent out = std::move(m_rows.front());
        m_rows.pop_front();
        ++m_base;
        finalize(out);
        m_sink->settle(std::move(out));
    }

    // What a row shows of what came after it: a message's text at the row that starts it, a call's arguments at its
    // start and its outcome at its end, a user's message at kaboo's note of it. Noted, so that a later change is
    // seen (recallChanged).
    void finalize(StoredEvent& row)
    {
        const qint64 p = row.record.index;
        EventRecord& r = row.record;
        if (const auto it = m_messageByFirst.constFind(p); it != m_messageByFirst.constEnd()) {
            AguiMessage& m = m_messages[*it];
            r.text = m.text;
            // Searchable as far as it has streamed: a later sync that reads the rest indexes it again.
            row.body = m.text;
            m.settledDeltas = m.deltas;
        }
        if (const auto it = m_callOfRow.constFind(p); it != m_callOfRow.constEnd()) {
            const Call& c = std::as_const(m_calls)[*it];
            CallTrack& track = m_track[*it];
            if (c.record.startIndex == p && !c.fromSnapshot && !c.merged) {
                if (c.replayOf) {
                    track.settledAsCandidate = true; // shown as it came until it is known to be a call or a replay
                } else {
                    const QString arguments = c.fragments.join(QString());
                    r.text = c.record.toolName + QLatin1Char('(') + clip(arguments) + QLatin1Char(')');
                    // Searchable as far as they have come: a later sync that reads the rest indexes them again.
                    row.arguments = arguments;
                    track.settledFragments = c.fragmentCount;
                    track.settledName = c.record.toolName;
                    track.settledAsCandidate = false;
                }
            }
            if (c.record.endIndex == p && !c.merged) {
                r.outcome = outcomeNow(c);
                track.settledEndOutcome = r.outcome;
            }
        }
        if (const auto it = m_userIdAt.constFind(p); it != m_userIdAt.constEnd()) {
            r.text = m_userText.value(*it);
            row.body = r.text;
            m_userSettled.insert(p, r.text);
        }
    }

    // The rows that left before a later line changed what they show: brought back, to be written again.
    void recallChanged()
    {
        for (const AguiMessage& m : std::as_const(m_messages)) {
            if (m.settledDeltas >= 0 && m.settledDeltas != m.deltas)
                row(m.firstIndex);
        }
        for (qsizetype k = 0; k < m_calls.size(); ++k) {
            const Call& c = std::as_const(m_calls)[k];
            const CallTrack& t = std::as_const(m_track)[k];
            if (c.merged || c.fromSnapshot)
                continue;
            if (c.record.startIndex && *c.record.startIndex < m_base
                && (t.settledAsCandidate
                    || (t.settledFragments >= 0
                        && (t.settledFragments != c.fragmentCount || t.settledName != c.record.toolName))))
                row(*c.record.startIndex);
            if (c.record.endIndex && t.settledEndOutcome && *t.settledEndOutcome != outcomeNow(c))
                row(*c.record.endIndex);
        }
        for (auto it = m_userSettled.cbegin(); it != m_userSettled.cend(); ++it) {
            if (it.value() != m_userText.value(m_userIdAt.value(it.key())))
                row(it.key());
        }
    }

    static Outcome outcomeNow(const Call& c)
    {
        return c.record.resultIndex || c.snapshotResultAt ? c.record.outcome : Outcome::Unserved;
    }

    QString openRun() const { return m_stack.isEmpty() ? QString() : m_runs[m_stack.constLast()].groupId; }

    void touchRun(qsizetype k)
    {
        if (!m_runTouched[k]) {
            m_runTouched[k] = true;
            m_touchedRuns << k;
        }
    }

    void takeLine(qint64 i, const AguiLine& line)
    {
        StoredEvent& stored = row(i);
        EventRecord& r = stored.record;
        r.index = i;
        r.sourceLine = line.lineNumber;
        r.flags = line.flags;
        stored.payload = line.raw;
        if (!line.problem.isEmpty())
            problem(i, line.problem);
        const QJsonObject& e = line.event;
        r.type = e.value(QLatin1String("type")).toString();
        if (r.type.isEmpty())
            r.type = (line.flags & EventFlags::MalformedJson) ? QStringLiteral("(malformed)")
                                                              : QStringLiteral("(untyped)");
        r.kind = EventKinds::forAguiType(r.type);
        const QJsonValue ts = e.value(QLatin1String("timestamp"));
        if (ts.isDouble()) {
            bool outOfRange = false;
            r.createdMicros = TimeUtil::millisToMicros(ts.toDouble(), &outOfRange);
            if (outOfRange) {
                r.flags |= EventFlags::OutOfRange;
                problem(i, QStringLiteral("timestamp %1 is out of range (the event has no time)").arg(ts.toDouble()));
            }
        }
        r.groupId = openRun();
        if (line.flags & EventFlags::MalformedJson)
            return;
        if (!AguiLogParser::isKnownType(r.type) && !r.type.startsWith(QLatin1Char('(')))
            problem(i, QStringLiteral("unknown event type %1 (kept as custom)").arg(r.type));

        const QString& t = r.type;
        // A chunked message or call ends the protocol's way: when an event of another kind comes.
        if (!keepsChunkOpen(t)) {
            if (t != QLatin1String("TEXT_MESSAGE_CHUNK") && t != QLatin1String("REASONING_MESSAGE_CHUNK"))
                closeChunkMessage();
            if (t != QLatin1String("TOOL_CALL_CHUNK"))
                endChunkCall();
        }
        if (t == QLatin1String("RUN_STARTED") || t == QLatin1String("RUN_FINISHED") || t == QLatin1String("RUN_ERROR"))
            takeRun(i, e);
        else if (t.startsWith(QLatin1String("TEXT_MESSAGE_")))
            takeText(i, e, false);
        else if (t.startsWith(QLatin1String("REASONING_")) || t.startsWith(QLatin1String("THINKING_")))
            takeReasoning(i, e);
        else if (t.startsWith(QLatin1String("TOOL_CALL_")))
            takeTool(i, e);
        else
            takeOther(i, e);
    }

    void rememberUserMessages(const QJsonArray& messages)
    {
        for (const QJsonValue& m : messages) {
            const QJsonObject message = m.toObject();
            if (message.value(QLatin1String("role")).toString() == QLatin1String("user"))
                m_userText.insert(message.value(QLatin1String("id")).toString(),
                    contentText(message.value(QLatin1String("content"))));
        }
    }

    // A snapshot's messages, those an earlier snapshot did not bring already (a run's input repeats the whole
    // conversation so far): placed once the log has ended (placeSnapshots), when it is known what streamed.
    void rememberSnapshot(qint64 i, const QJsonArray& messages)
    {
        QJsonArray fresh;
        for (const QJsonValue& v : messages) {
            const QByteArray key = QCryptographicHash::hash(
                QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact), QCryptographicHash::Md5);
            if (m_snapshotMessagesSeen.contains(key))
                continue;
            m_snapshotMessagesSeen.insert(key);
            fresh.append(v);
        }
        if (!fresh.isEmpty())
            m_snapshots.append({ i, rec(i).groupId, QJsonDocument(fresh).toJson(QJsonDocument::Compact) });
    }

    void takeRun(qint64 i, const QJsonObject& e)
    {
        EventRecord& r = rec(i);
        r.role = QStringLiteral("system");
        const QString runId = str(e, "runId");
        if (r.type == QLatin1String("RUN_STARTED")) {
            RunRecord run;
            run.groupId = runId.isEmpty() ? QStringLiteral("run@%1").arg(i) : runId;
            run.kind = QStringLiteral("run");
            run.parentGroupId = str(e, "parentRunId");
            run.firstIndex = run.lastIndex = i;
            if (r.createdMicros)
                run.startMicros = run.endMicros = r.createdMicros;
            m_runs.append(run);
            m_runTouched.append(false);
            touchRun(m_runs.size() - 1);
            m_stack.append(m_runs.size() - 1);
            r.groupId = run.groupId;
            r.text = QStringLiteral("run %1 started").arg(run.groupId);
            // The input carries the conversation so far: the user's messages are found here by id.
            const QJsonArray input = e.value(QLatin1String("input")).toObject().value(QLatin1String("messages")).toArray();
            rememberUserMessages(input);
            if (!input.isEmpty())
                rememberSnapshot(i, input);
            return;
        }
        // RUN_FINISHED or RUN_ERROR: closes the run it names, or the one open.
        qsizetype at = -1;
        for (qsizetype k = m_stack.size() - 1; k >= 0; --k) {
            if (runId.isEmpty() || m_runs[m_stack[k]].groupId == runId) {
                at = k;
                break;
            }
        }
        qsizetype slot = -1;
        if (at >= 0) {
            slot = m_stack[at];
            m_stack.resize(at);
        } else {
            // A run that failed before the agent said anything: kaboo stores a lone RUN_ERROR.
            RunRecord lone;
            lone.groupId = runId.isEmpty() ? QStringLiteral("run@%1").arg(i) : runId;
            lone.kind = QStringLiteral("run");
            lone.firstIndex = i;
            if (r.createdMicros)
                lone.startMicros = r.createdMicros;
            m_runs.append(lone);
            m_runTouched.append(false);
            slot = m_runs.size() - 1;
        }
        touchRun(slot);
        RunRecord* run = &m_runs[slot];
        r.groupId = run->groupId;
        run->lastIndex = i;
        m_lastRunEnd = i;
        if (r.createdMicros)
            run->endMicros = r.createdMicros;
        if (r.type == QLatin1String("RUN_ERROR")) {
            run->outcome = QStringLiteral("error");
            const QString code = str(e, "code");
            run->detail = code.isEmpty() ? str(e, "message") : code + QStringLiteral(": ") + str(e, "message");
            r.text = run->detail; // the row's kind says it is an error; outcomes are the calls'
        } else {
            const QJsonObject outcome = e.value(QLatin1String("outcome")).toObject();
            run->outcome = outcome.value(QLatin1String("type")).toString();
            if (run->outcome.isEmpty())
                run->outcome = QStringLiteral("success");
            if (isSyntheticTerminal(r.type, e))
                run->outcome = QStringLiteral("stopped"); // kaboo closed it for the agent: the user pressed Stop
            if (outcome.contains(QLatin1String("interrupts")))
                run->interruptsJson = compact(outcome.value(QLatin1String("interrupts")));
            r.text = QStringLiteral("run finished: ") + run->outcome;
        }
        if (e.contains(QLatin1String("usage")))
            run->usageJson = compact(e.value(QLatin1String("usage")));
        if (isSyntheticTerminal(r.type, e)) {
            run->synthetic = true;
            markSyntheticBlock(i);
        }
    }

    // kaboo appends its closers together at the end of a run, every one stamped with the terminal event's
    // time: walking back from a synthetic RUN_ERROR or bare RUN_FINISHED, the closers with that time are
    // synthetic too; an agent's own closers before them are not (SOURCES.md §4.5.4).
    void markSyntheticBlock(qint64 terminal)
    {
        rec(terminal).flags |= EventFlags::Synthetic;
        const qint64 time = rec(terminal).createdMicros;
        for (qint64 i = terminal - 1; i >= 0; --i) {
            EventRecord& r = rec(i);
            // Without times nothing tells kaboo's closers from the agent's own: only the terminal is taken
            // for made up (AG-UI's timestamps are optional; kaboo stamps every event).
            const bool sameTime = r.createdMicros && time && r.createdMicros == time;
            if (!isCloser(r.type) || !sameTime)
                break;
            if (r.type == QLatin1String("TOOL_CALL_RESULT") && !r.isSynthetic())
                break; // a real result: the block ends here
            r.flags |= EventFlags::Synthetic;
            markSyntheticRow(i);
        }
    }

    // An end or result made up by kaboo: its call is synthetic.
    void markSyntheticRow(qint64 i)
    {
        m_syntheticRows.insert(i);
        if (const auto it = m_callOfRow.constFind(i); it != m_callOfRow.constEnd())
            touch(*it, -1);
    }

    AguiMessage* message(const QString& key)
    {
        const auto it = m_messageAt.constFind(key);
        return it == m_messageAt.constEnd() ? nullptr : &m_messages[*it];
    }

    AguiMessage& startMessage(qint64 i, QString id, const QString& role, bool reasoning)
    {
        m_streamed.insert(id);
        if (id.isEmpty()) {
            problem(i, QStringLiteral("a message without a messageId"));
            id = QStringLiteral("message@%1").arg(i);
        } else if (AguiMessage* before = message(id)) {
            // The protocol lets an id be used again once its message ended, or its run did: a new message.
            const bool ended = before->complete || runEndedSince(before->firstIndex);
            if (!ended)
                problem(i, QStringLiteral("a second message with messageId %1 while the first is still open").arg(id));
            if (ended)
                m_messageAt.remove(id); // its later deltas are the new message's
            else
                id = QStringLiteral("%1@%2").arg(id, QString::number(i));
        }
        AguiMessage m;
        m.messageId = id;
        m.role = role;
        m.reasoning = reasoning;
        m.firstIndex = m.lastIndex = i;
        m_messages.append(m);
        m_messageAt.insert(id, m_messages.size() - 1);
        m_messageByFirst.insert(i, m_messages.size() - 1);
        return m_messages.last();
    }

    // The message a delta or end belongs to; one is started when the log never opened it.
    AguiMessage& messageFor(qint64 i, const QString& id, bool reasoning)
    {
        if (AguiMessage* m = message(id))
            return *m;
        problem(i,
            id.isEmpty() ? QStringLiteral("a message delta without a messageId")
                         : QStringLiteral("messageId %1 was never started").arg(id));
        return startMessage(i, id, reasoning ? QStringLiteral("reasoning") : QStringLiteral("assistant"), reasoning);
    }

    void addDelta(qint64 i, AguiMessage& m, const QString& delta)
    {
        m.text += delta;
        ++m.deltas;
        m.lastIndex = i;
        EventRecord& r = rec(i);
        r.messageId = m.messageId;
        r.role = m.role;
        r.text = delta;
        if (i != m.firstIndex)
            r.flags |= EventFlags::Folded; // shown in its message, at the row that starts it
    }

    void closeChunkMessage()
    {
        if (AguiMessage* m = message(m_chunkMessage))
            m->complete = true;
        m_chunkMessage.clear();
    }

    void takeText(qint64 i, const QJsonObject& e, bool reasoning)
    {
        EventRecord& r = rec(i);
        const QString& t = r.type;
        const QString id = str(e, "messageId");
        const QString defaultRole = reasoning ? QStringLiteral("reasoning") : QStringLiteral("assistant");
        if (t.endsWith(QLatin1String("_MESSAGE_START"))) {
            QString role = str(e, "role");
            AguiMessage& m = startMessage(i, id, role.isEmpty() ? defaultRole : role, reasoning);
            r.messageId = m.messageId;
            r.role = m.role;
        } else if (t.endsWith(QLatin1String("_MESSAGE_CONTENT"))) {
            addDelta(i, messageFor(i, id, reasoning), str(e, "delta"));
        } else if (t.endsWith(QLatin1String("_MESSAGE_END"))) {
            AguiMessage& m = messageFor(i, id, reasoning);
            m.complete = true;
            m.lastIndex = i;
            // A user's message streamed whole (a runtime with no notes of its own and no snapshot): the thread's title
            // when nothing better names it.
            if (m_firstStreamedUserText.isEmpty() && m.role == QLatin1String("user") && !m.text.trimmed().isEmpty())
                m_firstStreamedUserText = m.text;
            r.messageId = m.messageId;
            r.role = m.role;
            if (i != m.firstIndex)
                r.flags |= EventFlags::Folded;
        } else if (t.endsWith(QLatin1String("_MESSAGE_CHUNK"))) {
            // messageId is required on the first chunk only; a new id ends the previous chunked message.
            if (!id.isEmpty() && id != m_chunkMessage) {
                closeChunkMessage();
                if (AguiMessage* existing = message(id)) {
                    m_chunkMessage = existing->messageId;
                } else {
                    const QString role = str(e, "role");
                    m_chunkMessage = startMessage(i, id, role.isEmpty() ? defaultRole : role, reasoning).messageId;
                }
            } else if (id.isEmpty() && m_chunkMessage.isEmpty()) {
                m_chunkMessage = startMessage(i, QString(), defaultRole, reasoning).messageId;
            }
            addDelta(i, *message(m_chunkMessage), str(e, "delta"));
        }
    }

    void takeReasoning(qint64 i, const QJsonObject& e)
    {
        EventRecord& r = rec(i);
        r.role = QStringLiteral("reasoning");
        const QString& t = r.type;
        if (t.startsWith(QLatin1String("THINKING_TEXT_MESSAGE_"))) {
            // The deprecated THINKING_* events carry no ids: one thinking message at a time.
            QJsonObject withId = e;
            if (t == QLatin1String("THINKING_TEXT_MESSAGE_START"))
                m_thinking = QStringLiteral("thinking@%1").arg(i);
            if (m_thinking.isEmpty())
                m_thinking = QStringLiteral("thinking@%1").arg(i);
            withId.insert(QStringLiteral("messageId"), m_thinking);
            const QString mapped = QString(t).replace(QLatin1String("THINKING_TEXT"), QLatin1String("REASONING"));
            const QString original = r.type;
            r.type = mapped;
            takeText(i, withId, true);
            r.type = original;
            if (t == QLatin1String("THINKING_TEXT_MESSAGE_END"))
                m_thinking.clear();
        } else if (t.startsWith(QLatin1String("REASONING_MESSAGE_"))) {
            takeText(i, e, true);
        } else if (t == QLatin1String("REASONING_ENCRYPTED_VALUE")) {
            r.text = QStringLiteral("(encrypted %1 %2)").arg(str(e, "subtype"), str(e, "entityId"));
        } else {
            // REASONING_START/END and THINKING_START/END only frame the reasoning messages inside them.
            r.messageId = str(e, "messageId");
            r.text = str(e, "title");
            r.flags |= EventFlags::Folded;
        }
    }

    Call* call(const QString& key)
    {
        const auto it = m_callAt.constFind(key);
        return it == m_callAt.constEnd() ? nullptr : &m_calls[*it];
    }

    qsizetype slotOf(const Call& c) const { return &c - m_calls.constData(); }

    // A call changed (at row `i`, or -1 for a change no row made): the writer takes it again.
    void touch(qsizetype k, qint64 i)
    {
        CallTrack& t = m_track[k];
        t.lastRow = std::max(t.lastRow, i);
        if (!t.touched) {
            t.touched = true;
            m_touchedCalls << k;
        }
    }

    // A new call in the next slot.
    void addCall(const Call& c)
    {
        m_calls.append(c);
        m_track.append(CallTrack());
    }
    void touch(const Call& c, qint64 i) { touch(slotOf(c), i); }

    Call& startCall(qint64 i, QString id, const QJsonObject& e)
    {
        if (id.isEmpty()) {
            problem(i, QStringLiteral("a tool call without a toolCallId"));
            id = QStringLiteral("call@%1").arg(i);
        }
        std::optional<qsizetype> replayOf;
        QString key = id;
        if (const auto before = m_callAt.constFind(id); before != m_callAt.constEnd()) {
            const Call& earlier = m_calls[*before];
            if (earlier.open && !earlier.chunkEnded && !earlier.record.endIndex && !earlier.record.resultIndex
                && !runEndedSince(callFirstRow(earlier))) {
                // Still streaming its arguments: the protocol refuses a second START (the verifier's "already in
                // progress"). Kept as a call of its own, said.
                problem(i, QStringLiteral("a second tool call with toolCallId %1 while the first is still open").arg(id));
                key = QStringLiteral("%1@%2").arg(id, QString::number(i));
            } else {
                replayOf = *before;
            }
        }
        Call c;
        c.replayOf = replayOf;
        c.record.toolId = id;
        c.record.toolName = str(e, "toolCallName");
        c.record.groupId = openRun();
        c.record.startIndex = i;
        if (rec(i).createdMicros)
            c.record.startMicros = rec(i).createdMicros;
        c.record.pairing = Pairing::StartOnly;
        addCall(c);
        m_callAt.insert(key, m_calls.size() - 1);
        m_callOfRow.insert(i, m_calls.size() - 1);
        m_lastCall = key;
        touch(m_calls.size() - 1, i);
        return m_calls.last();
    }

    qint64 callFirstRow(const Call& c) const
    {
        return c.record.startIndex ? *c.record.startIndex
            : c.record.endIndex    ? *c.record.endIndex
            : c.record.resultIndex ? *c.record.resultIndex
                                   : 0;
    }

    // Whether a run ended after row `since`: an id of that run may be used again (the verifier resets at the
    // next RUN_STARTED).
    bool runEndedSince(qint64 since) const { return m_lastRunEnd > since; }

    // Its arguments, end and result show in the call's card, at the start's place: a row of a call that has a
    // start, and is not a candidate replay (see Call::replayOf) whose fate is still open.
    void foldInto(const Call& c, qint64 i)
    {
        if (c.record.startIndex && !c.replayOf && i != *c.record.startIndex)
            rec(i).flags |= EventFlags::Folded;
    }

    // A candidate replay (see Call::replayOf) that ARGS or END show to be a new call: it stays one, and the id
    // is its from now on (already so). One that a RESULT answers first, or that nothing follows, is the call it
    // repeats: folded into it.
    void settleReplay(Call& c, bool newCall)
    {
        if (!c.replayOf)
            return;
        const qsizetype earlier = *c.replayOf;
        c.replayOf.reset();
        touch(c, -1);
        if (newCall) {
            for (qint64 at : std::as_const(c.fragmentRows))
                foldInto(c, at); // the arguments it took while it was a candidate
            return;
        }
        c.merged = true;
        const qint64 start = *c.record.startIndex;
        EventRecord& row = rec(start);
        Call& into = m_calls[earlier];
        row.toolId = into.record.toolId;
        row.toolName = into.record.toolName.isEmpty() ? row.toolName : into.record.toolName;
        into.replays << start;
        if (into.record.startIndex)
            row.flags |= EventFlags::Folded; // the START that repeated it shows in its card
        touch(earlier, -1);
        m_callAt.insert(c.record.toolId, earlier);
    }

    void resolveReplays()
    {
        // By index, read first: a copy kept for the next sync shares the calls until one changes.
        for (qsizetype k = 0; k < m_calls.size(); ++k) {
            if (std::as_const(m_calls)[k].replayOf)
                settleReplay(m_calls[k], false);
        }
    }

    // The call an ARGS, END or RESULT names. Without an id, ARGS go to the call started last.
    Call& callFor(qint64 i, const QString& id)
    {
        if (id.isEmpty() && !m_lastCall.isEmpty() && rec(i).type == QLatin1String("TOOL_CALL_ARGS")) {
            problem(i, QStringLiteral("tool call arguments without a toolCallId (joined to %1)").arg(m_lastCall));
            return *call(m_lastCall);
        }
        if (Call* c = call(id)) {
            if (c->replayOf) {
                // ARGS or END: the id was used again for a new call. A RESULT first: the old call, repeated.
                const bool newCall = rec(i).type != QLatin1String("TOOL_CALL_RESULT");
                settleReplay(*c, newCall);
                return *call(id);
            }
            return *c;
        }
        problem(i,
            id.isEmpty() ? QStringLiteral("a tool call event without a toolCallId")
                         : QStringLiteral("toolCallId %1 was never started").arg(id));
        Call c;
        c.record.toolId = id.isEmpty() ? QStringLiteral("call@%1").arg(i) : id;
        c.record.groupId = openRun();
        c.record.pairing = Pairing::EndOnly;
        addCall(c);
        m_callAt.insert(c.record.toolId, m_calls.size() - 1);
        return m_calls.last();
    }

    // The chunked call open ends: the next call, another kind of event or the end of its run came.
    void endChunkCall()
    {
        if (Call* c = call(m_chunkCall)) {
            c->open = false;
            c->chunkEnded = true;
            touch(*c, -1);
        }
        m_chunkCall.clear();
    }

    void takeTool(qint64 i, const QJsonObject& e)
    {
        EventRecord& r = rec(i);
        r.role = QStringLiteral("assistant");
        const QString& t = r.type;
        const QString id = str(e, "toolCallId");
        Call* c = nullptr;
        if (t == QLatin1String("TOOL_CALL_START")) {
            c = &startCall(i, id, e);
            r.messageId = str(e, "parentMessageId");
            m_streamed.insert(r.messageId); // the assistant message that made the call: in the stream, by its calls
        } else if (t == QLatin1String("TOOL_CALL_CHUNK")) {
            // toolCallId and toolCallName come on the first chunk; a new id ends the previous call's arguments.
            if (!id.isEmpty() && id != m_chunkCall) {
                endChunkCall();
                // A chunk naming a call that ended starts it again (the transform's second START for one id):
                // its arguments go on; one never seen starts a call.
                if (Call* known = call(id); known && !known->record.endIndex && !known->record.resultIndex) {
                    c = known;
                    c->open = true;
                    c->chunkEnded = false;
                } else {
                    c = &startCall(i, id, e);
                    settleReplay(*c, true);
                }
                m_chunkCall = id;
            } else if (id.isEmpty() && m_chunkCall.isEmpty()) {
                c = &startCall(i, QString(), e);
                m_chunkCall = c->record.toolId;
            } else {
                c = call(m_chunkCall);
            }
            // A chunk without a delta adds nothing: a call sent so has no arguments, as one whose START came
            // without ARGS (not an empty string that does not parse).
            const QString delta = str(e, "delta");
            if (e.contains(QLatin1String("delta"))) {
                c->fragments << delta;
                ++c->fragmentCount;
            }
            c->fragmentRows << i;
            foldInto(*c, i);
            r.text = delta;
            r.messageId = str(e, "parentMessageId");
            if (!r.messageId.isEmpty())
                m_streamed.insert(r.messageId);
        } else if (t == QLatin1String("TOOL_CALL_ARGS")) {
            c = &callFor(i, id);
            const QString delta = str(e, "delta");
            c->fragments << delta;
            ++c->fragmentCount;
            c->fragmentRows << i;
            foldInto(*c, i);
            r.text = delta;
        } else if (t == QLatin1String("TOOL_CALL_END")) {
            c = &callFor(i, id);
            c->open = false;
            if (c->record.endIndex && *c->record.endIndex != i) {
                // A second END: the call ends at this one; the first shows as a row of its own.
                EventRecord& before = rec(*c->record.endIndex);
                before.flags &= ~EventFlags::Folded;
                before.outcome = Outcome::None;
                m_callOfRow.remove(*c->record.endIndex);
            }
            c->record.endIndex = i;
            m_callOfRow.insert(i, slotOf(*c));
            if (c->fragments.size() > 1)
                c->fragments = QStringList { c->fragments.join(QString()) }; // one string from now on: less memory
            foldInto(*c, i);
            if (r.createdMicros)
                c->record.endMicros = r.createdMicros;
        } else if (t == QLatin1String("TOOL_CALL_RESULT")) {
            c = &callFor(i, id);
            const QString content = str(e, "content");
            // Each result is the call's (the protocol keeps them all, a tool message each); the last settles it.
            c->results << i;
            c->record.resultIndex = i;
            m_callOfRow.insert(i, slotOf(*c));
            foldInto(*c, i);
            if (r.createdMicros)
                c->resultMicros = r.createdMicros;
            settle(c->record, content, e);
            c->resultReleased = false;
            r.role = QStringLiteral("tool");
            r.messageId = str(e, "messageId");
            m_streamed.insert(r.messageId);
            r.outcome = c->record.outcome;
            r.text = clip(content);
            row(i).result = content;
            if (isSyntheticResult(e)) {
                r.flags |= EventFlags::Synthetic;
                m_syntheticRows.insert(i);
            }
        }
        if (c) {
            touch(*c, i);
            r.toolId = c->record.toolId;
            if (c->record.toolName.isEmpty())
                c->record.toolName = str(e, "toolCallName");
            r.toolName = c->record.toolName;
        }
    }

    void takeOther(qint64 i, const QJsonObject& e)
    {
        EventRecord& r = rec(i);
        const QString& t = r.type;
        r.role = QStringLiteral("system");
        if (t == QLatin1String("CUSTOM") && str(e, "name") == QLatin1String("kaboo.message_meta")) {
            // kaboo's note of a user message: its id and time. The text is in the run's input.
            const QJsonObject value = e.value(QLatin1String("value")).toObject();
            r.kind = EventKind::Message;
            r.role = value.value(QLatin1String("role")).toString(QStringLiteral("user"));
            r.messageId = value.value(QLatin1String("messageId")).toString();
            const QJsonValue created = value.value(QLatin1String("createdAt"));
            if (created.isDouble())
                r.createdMicros = TimeUtil::millisToMicros(created.toDouble());
            // Its text comes from a run's input or a messages snapshot, possibly later.
            m_userRows.append({ i, r.messageId });
            m_userIdAt.insert(i, r.messageId);
            return;
        }
        if (t == QLatin1String("CUSTOM"))
            r.text = clip(str(e, "name") + QStringLiteral(": ") + compact(e.value(QLatin1String("value"))));
        else if (t == QLatin1String("RAW"))
            r.text = clip(compact(e.value(QLatin1String("event"))));
        else if (t == QLatin1String("STEP_STARTED") || t == QLatin1String("STEP_FINISHED"))
            r.text = str(e, "stepName");
        else if (t == QLatin1String("STATE_SNAPSHOT"))
            r.text = clip(compact(e.value(QLatin1String("snapshot"))));
        else if (t == QLatin1String("STATE_DELTA"))
            r.text = clip(compact(e.value(QLatin1String("delta"))));
        else if (t == QLatin1String("MESSAGES_SNAPSHOT")) {
            const QJsonArray messages = e.value(QLatin1String("messages")).toArray();
            r.text = QStringLiteral("%1 messages").arg(messages.size());
            rememberUserMessages(messages);
            rememberSnapshot(i, messages);
        } else if (t.startsWith(QLatin1String("ACTIVITY_"))) {
            r.messageId = str(e, "messageId");
            m_streamed.insert(r.messageId);
            r.text = clip(str(e, "activityType") + QStringLiteral(": ")
                + compact(e.value(
                    t == QLatin1String("ACTIVITY_SNAPSHOT") ? QLatin1String("content") : QLatin1String("patch"))));
        } else
            r.text = clip(compact(e));
    }

    // What a MESSAGES_SNAPSHOT or a run's input holds that the log never streamed: a log not written by kaboo
    // carries the user's messages only there, and a client's answer to a call comes as a tool message there.
    // As the protocol's client applies them, a message is new when its id is not known yet: shown once, at the
    // row that brought it first, and never when it streamed anywhere in the log, kaboo's message_meta placed it,
    // or a call's result already holds it.
    void placeSnapshots()
    {
        if (m_snapshots.isEmpty())
            return;
        QSet<QString> placed = m_streamed;
        for (const auto& [row, id] : std::as_const(m_userRows))
            placed.insert(id);
        for (qsizetype k = 0; k < m_calls.size(); ++k)
            m_callsById[std::as_const(m_calls)[k].record.toolId].append(k);
        for (const Snapshot& snapshot : std::as_const(m_snapshots)) {
            for (const QJsonValue& v : QJsonDocument::fromJson(snapshot.messages).array()) {
                const QJsonObject m = v.toObject();
                const QString role = str(m, "role");
                if (role == QLatin1String("assistant")) {
                    for (const QJsonValue& tc : m.value(QLatin1String("toolCalls")).toArray())
                        placeSnapshotCall(snapshot, tc.toObject());
                } else if (role == QLatin1String("tool") && answerFromSnapshot(snapshot.row, m)) {
                    continue;
                }
                if (role == QLatin1String("activity"))
                    continue; // shown by its ACTIVITY_SNAPSHOT rows
                QString text = contentText(m.value(QLatin1String("content")));
                // Its calls are written in it, as it sent them: the row shows the message, not a card.
                for (const QJsonValue& tc : m.value(QLatin1String("toolCalls")).toArray()) {
                    const QJsonObject function = tc.toObject().value(QLatin1String("function")).toObject();
                    text += (text.isEmpty() ? QString() : QStringLiteral("\n")) + str(function, "name")
                        + QLatin1Char('(') + clip(str(function, "arguments")) + QLatin1Char(')');
                }
                const QString id = str(m, "id");
                const QString key = id.isEmpty() ? role + QLatin1Char('\n') + text : id;
                if (text.isEmpty() || placed.contains(key))
                    continue; // an empty message, or one shown already
                placed.insert(key);
                m_brought[snapshot.row].append({ id, role.isEmpty() ? QStringLiteral("user") : role, text });
            }
        }
    }

    // The call a snapshot's tool message or tool call names: the last one started at or before `row`, else
    // one the log streams later (it is known, not new).
    std::optional<qsizetype> knownCall(const QString& id, qint64 row) const
    {
        const QVector<qsizetype> found = m_callsById.value(id);
        std::optional<qsizetype> later;
        for (auto k = found.crbegin(); k != found.crend(); ++k) {
            const Call& c = std::as_const(m_calls)[*k];
            if (c.merged)
                continue;
            if (callFirstRow(c) <= row)
                return *k;
            later = *k;
        }
        return later;
    }

    // An assistant message's tool call the log never streamed: a call of its own, started at the row that
    // brought it (it has no time of its own).
    void placeSnapshotCall(const Snapshot& snapshot, const QJsonObject& toolCall)
    {
        const QString id = str(toolCall, "id");
        if (id.isEmpty() || knownCall(id, snapshot.row))
            return;
        const QJsonObject function = toolCall.value(QLatin1String("function")).toObject();
        Call c;
        c.fromSnapshot = true;
        c.open = false;
        c.record.toolId = id;
        c.record.toolName = str(function, "name");
        c.record.groupId = snapshot.groupId;
        c.record.startIndex = snapshot.row;
        if (function.contains(QLatin1String("arguments"))) {
            c.fragments << str(function, "arguments");
            ++c.fragmentCount;
        }
        // The row names the tool (tool:, the Tools pane) when every call it brought is of that tool.
        EventRecord& r = rec(snapshot.row);
        const bool first = !m_snapshotCallRows.contains(snapshot.row);
        m_snapshotCallRows.insert(snapshot.row);
        r.toolName = first || r.toolName == c.record.toolName ? c.record.toolName : QString();
        addCall(c);
        m_callsById[id].append(m_calls.size() - 1);
        touch(m_calls.size() - 1, -1);
    }

    // A tool message answers the call it names, when no TOOL_CALL_RESULT did. True when it is a call's answer,
    // so not a message of its own.
    bool answerFromSnapshot(qint64 row, const QJsonObject& message)
    {
        const std::optional<qsizetype> k = knownCall(str(message, "toolCallId"), row);
        if (!k)
            return false;
        if (std::as_const(m_calls)[*k].record.resultIndex || std::as_const(m_calls)[*k].snapshotResultAt)
            return true; // the answer the call has, brought again
        Call* c = &m_calls[*k];
        c->snapshotResultAt = row;
        settle(c->record, contentText(message.value(QLatin1String("content"))), message);
        c->resultReleased = false;
        touch(*c, -1);
        return true;
    }

    // A call a snapshot brought is searchable at the row that brought it, beside the other calls and messages it
    // brought.
    void showSnapshotCalls()
    {
        for (const Call& c : std::as_const(m_calls)) {
            if (!c.fromSnapshot)
                continue;
            QString& arguments = row(*c.record.startIndex).arguments;
            arguments += (arguments.isEmpty() ? QString() : QStringLiteral("\n")) + c.fragments.join(QString());
        }
    }

    // A row that brought messages shows them: the message when it brought one, each with its role when several.
    void showBroughtMessages()
    {
        for (auto it = m_brought.cbegin(); it != m_brought.cend(); ++it) {
            const QVector<BroughtMessage>& brought = it.value();
            StoredEvent& stored = row(it.key());
            EventRecord& r = stored.record;
            // Its kind stays its type's (a RUN_STARTED is a run's row, whatever it brought): the flag makes it
            // the messages' bubble, so that the Types pane's counts add up under each kind.
            r.flags |= EventFlags::FromSnapshot;
            r.messageId = brought.first().id;
            const bool oneRole = std::all_of(brought.begin(), brought.end(),
                [&](const BroughtMessage& m) { return m.role == brought.first().role; });
            r.role = oneRole ? brought.first().role : QStringLiteral("system");
            QStringList parts;
            for (const BroughtMessage& m : brought)
                parts << (brought.size() == 1 ? m.text : m.role + QStringLiteral(": ") + m.text);
            r.text = parts.join(QStringLiteral("\n\n"));
            stored.body = r.text;
        }
    }

    // A call's record as the log so far makes it; none for a START folded into the call it repeated, or arguments
    // for a call never started (their rows stay, listed in the problems).
    std::optional<ToolCallRecord> finished(const Call& c) const
    {
        if (c.merged)
            return std::nullopt;
        ToolCallRecord call = c.record;
        if (!call.resultIndex && c.snapshotResultAt)
            call.resultIndex = c.snapshotResultAt; // answered in a snapshot or a run's input, not by an event
        if (!call.startIndex && !call.endIndex && !call.resultIndex)
            return std::nullopt;
        call.arguments = c.fragments.join(QString());
        if (!c.fragments.isEmpty())
            call.argumentsValid = parsesAsJson(call.arguments);
        const bool ended = call.endIndex || call.resultIndex || c.chunkEnded;
        if (call.startIndex)
            call.pairing = ended ? Pairing::Exact : Pairing::StartOnly;
        if (!call.resultIndex)
            call.outcome = Outcome::Unserved; // nothing answered it, whether or not its arguments closed
        call.status = call.resultIndex        ? QStringLiteral("completed")
            : call.endIndex || c.chunkEnded ? QStringLiteral("ended")
                                            : QStringLiteral("pending");
        const std::optional<qint64> finishedAt = c.resultMicros ? c.resultMicros : call.endMicros;
        if (call.startMicros && finishedAt) {
            call.endMicros = finishedAt;
            call.durationMs = TimeUtil::durationMs(*call.startMicros, *finishedAt);
            if (call.durationMs)
                call.durationSource = DurationSource::Timestamps;
        }
        call.synthetic = (call.endIndex && m_syntheticRows.contains(*call.endIndex))
            || (call.resultIndex && m_syntheticRows.contains(*call.resultIndex));
        return call;
    }

    Sink* m_sink;
    qsizetype m_window;
    std::deque<StoredEvent> m_rows; // the rows held, from m_base on
    qint64 m_base = 0;
    QMap<qint64, StoredEvent> m_recalled; // rows that had left, brought back for a change
    bool m_finished = false;
    bool m_finishing = false;
    QMap<qint64, StoredEvent> m_finishRecalls; // rows finish() brought back, as they were before it
    QVector<RunRecord> m_runs;
    QVector<bool> m_runTouched;
    QVector<qsizetype> m_touchedRuns;
    QVector<qsizetype> m_stack; // open runs, innermost last
    qint64 m_lastRunEnd = -1; // the row of the last RUN_FINISHED or RUN_ERROR
    QHash<QString, qsizetype> m_messageAt;
    QHash<qint64, qsizetype> m_messageByFirst; // the row that shows a message
    QHash<QString, QString> m_userText;
    QVector<std::pair<qint64, QString>> m_userRows; // kaboo's notes of user messages: their row and message id
    QHash<qint64, QString> m_userIdAt;
    QHash<qint64, QString> m_userSettled; // the text a user row showed when it left
    QSet<QString> m_streamed; // the ids of messages the log streamed (text, reasoning, results, activity)
    QVector<Snapshot> m_snapshots;
    QSet<QByteArray> m_snapshotMessagesSeen;
    QMap<qint64, QVector<BroughtMessage>> m_brought; // by the row that shows them
    QHash<QString, QVector<qsizetype>> m_callsById;
    QSet<qint64> m_snapshotCallRows; // the rows that brought calls
    QSet<qint64> m_syntheticRows; // ends and results kaboo made up
    QString m_chunkMessage;
    QString m_thinking;
    QVector<Call> m_calls;
    QVector<CallTrack> m_track; // one for each call
    QVector<qsizetype> m_touchedCalls;
    QHash<QString, qsizetype> m_callAt;
    QHash<qint64, qsizetype> m_callOfRow; // the start, end and result rows of calls
    QString m_chunkCall;
    QString m_lastCall;
};

namespace {

// The whole log's rows in memory: what assemble() returns.
class Collected : public AguiAssembler::Sink
{
public:
    void settle(StoredEvent&& row) override { m_out.rows.append(std::move(row)); }
    StoredEvent recall(qint64 position) override { return m_out.rows.at(position); }
    void rewrite(const StoredEvent& row) override { m_out.rows[row.record.index] = row; }
    void problem(qint64 position, const QString& what) override { m_out.problems.append({ position, what }); }

    AguiAssembly m_out;
};

} // namespace

AguiAssembler::AguiAssembler(Sink& sink, qsizetype window)
    : m_state(std::make_unique<State>(sink, window))
{
}

AguiAssembler::AguiAssembler(const AguiAssembler& from, Sink& sink)
    : m_state(std::make_unique<State>(*from.m_state))
{
    m_state->setSink(sink);
}

AguiAssembler::~AguiAssembler() = default;

void AguiAssembler::resumeAfterFinishOf(const AguiAssembler& finished)
{
    m_state->adopt(finished.m_state->finishRecalls());
}

qsizetype AguiAssembler::callSlots() const
{
    return m_state->callSlots();
}

void AguiAssembler::take(const AguiLine& line)
{
    m_state->take(line);
}

void AguiAssembler::finish()
{
    m_state->finish();
}

qint64 AguiAssembler::settledThrough() const
{
    return m_state->settledThrough();
}

QVector<AguiAssembler::CallChange> AguiAssembler::takeChangedCalls(qint64 through, bool releaseResults)
{
    return m_state->takeChangedCalls(through, releaseResults);
}

QVector<AguiAssembler::RunChange> AguiAssembler::takeChangedRuns(qint64 through)
{
    return m_state->takeChangedRuns(through);
}

QString AguiAssembler::firstUserText() const
{
    return m_state->m_firstUserText;
}

QString AguiAssembler::lastRunOutcome() const
{
    return m_state->m_lastRunOutcome;
}

const QVector<AguiMessage>& AguiAssembler::messages() const
{
    return m_state->m_messages;
}

Outcome AguiAssembler::outcomeOfResult(const QString& content, const QJsonObject& resultEvent)
{
    const QJsonValue eventError = resultEvent.value(QLatin1String("error"));
    if (eventError.isString() && !eventError.toString().isEmpty())
        return Outcome::Failed;
    const QJsonDocument doc = QJsonDocument::fromJson(content.toUtf8());
    if (doc.isObject()) {
        const QJsonObject o = doc.object();
        const QString status = o.value(QLatin1String("status")).toString();
        if (status == QLatin1String("stopped") || status == QLatin1String("cancelled"))
            return Outcome::Cancelled;
        if (status == QLatin1String("error") || status == QLatin1String("failed"))
            return Outcome::Failed;
        if (o.value(QLatin1String("ok")) == QJsonValue(false))
            return Outcome::Failed;
        const QJsonValue error = o.value(QLatin1String("error"));
        if (!error.isUndefined() && !error.isNull() && error != QJsonValue(false))
            return Outcome::Failed;
        return Outcome::Served;
    }
    if (!doc.isArray() && content.trimmed().startsWith(QLatin1String("error"), Qt::CaseInsensitive))
        return Outcome::Failed;
    return Outcome::Served;
}

AguiAssembly AguiAssembler::assemble(const QVector<AguiLine>& lines, const QVector<qint64>& indexes, qsizetype window)
{
    Collected sink;
    AguiAssembler assembler(sink, window);
    for (const AguiLine& line : lines)
        assembler.take(line);
    assembler.finish();
    AguiAssembly out = std::move(sink.m_out);
    for (const CallChange& change : assembler.takeChangedCalls(std::numeric_limits<qint64>::max(), false)) {
        if (change.call)
            out.calls.append(*change.call);
    }
    for (const RunChange& change : assembler.takeChangedRuns(std::numeric_limits<qint64>::max()))
        out.runs.append(change.run);
    out.messages = assembler.messages();
    out.firstUserText = assembler.firstUserText();
    out.lastRunOutcome = assembler.lastRunOutcome();
    if (indexes.isEmpty())
        return out;
    // Assembled by position, then named by the source's own index: every place a row is referred to.
    const auto at = [&](qint64 position) { return indexes.value(position, position); };
    const auto move = [&](std::optional<qint64>& index) {
        if (index)
            index = at(*index);
    };
    for (StoredEvent& row : out.rows)
        row.record.index = at(row.record.index);
    for (ToolCallRecord& call : out.calls) {
        move(call.startIndex);
        move(call.endIndex);
        move(call.resultIndex);
    }
    for (RunRecord& run : out.runs) {
        move(run.firstIndex);
        move(run.lastIndex);
    }
    for (AguiMessage& m : out.messages) {
        m.firstIndex = at(m.firstIndex);
        m.lastIndex = at(m.lastIndex);
    }
    for (auto& problem : out.problems)
        problem.first = at(problem.first);
    return out;
}
