#include "aguiassembler.h"

#include "../eventflags.h"
#include "../eventkind.h"
#include "../jsontext.h"
#include "../timeutil.h"
#include "aguicallassembler.h"
#include "aguijson.h"
#include "aguimessageassembler.h"
#include "aguirows.h"
#include "aguiruntracker.h"
#include "aguisequencechecker.h"
#include "aguisnapshotplacer.h"

#include <limits>
#include <QJsonArray>
#include <QJsonDocument>

using AguiJson::str;
using JsonText::clip;
using JsonText::compact;

namespace {

// The events that leave a chunked message or call open (transformChunks passes them through without closing it);
// every other event, the end of a run included, closes it.
bool keepsChunkOpen(const QString& type)
{
    return type == QLatin1String("RAW") || type == QLatin1String("ACTIVITY_SNAPSHOT") || type == QLatin1String("ACTIVITY_DELTA")
        || type == QLatin1String("REASONING_ENCRYPTED_VALUE");
}

} // namespace

// The one row window and its parts: each line goes to the part its type names (the rest are said here), and a
// row leaving the window shows what the parts know of it by then. Copyable as a whole (the next sync of a log that
// grew goes on from a copy): the parts hold no pointers to each other, each is handed the others it changes.
class AguiAssembler::State
{
public:
    State(Sink& sink, qsizetype window)
        : m_rows(sink, window)
    {
    }
    State(const State& other) = default;
    void setSink(Sink& sink) { m_rows.setSink(sink); }

    void take(const AguiLine& line)
    {
        const qint64 i = m_rows.append();
        takeLine(i, line);
        while (m_rows.overWindow())
            settleOldest();
    }

    void finish()
    {
        m_rows.setFinishing();
        m_messages.closeChunkMessage();
        m_calls.cutChunkCall();
        m_calls.resolveReplays(m_rows);
        m_snapshots.place(m_rows, m_calls, m_messages);
        m_snapshots.showCalls(m_rows, m_calls);
        m_snapshots.showMessages(m_rows);
        while (m_rows.holdsAny())
            settleOldest();
        // The rows that left before a later line changed what they show: brought back, and written again.
        m_messages.recallChanged(m_rows);
        m_calls.recallChanged(m_rows);
        m_rows.rewriteRecalled([this](StoredEvent& row) { finalize(row); });
        m_firstUserText = m_messages.firstNotedUserText();
        if (m_firstUserText.isEmpty())
            m_firstUserText = m_snapshots.firstUserText();
        if (m_firstUserText.isEmpty())
            m_firstUserText = m_messages.firstStreamedUserText();
        m_lastRunOutcome = m_runs.lastOutcome();
        m_finished = true;
    }

    qint64 settledThrough() const { return m_rows.settledThrough(); }
    void adopt(const QMap<qint64, StoredEvent>& rows) { m_rows.adopt(rows); }
    const QMap<qint64, StoredEvent>& finishRecalls() const { return m_rows.finishRecalls(); }
    qsizetype callSlots() const { return m_calls.slotCount(); }
    QVector<CallChange> takeChangedCalls(qint64 through, bool release)
    {
        return m_calls.takeChanged(through, release, m_finished, m_rows.isFinishing());
    }
    QVector<RunChange> takeChangedRuns(qint64 through) { return m_runs.takeChanged(through, m_finished); }
    const QVector<AguiMessage>& messages() const { return m_messages.messages(); }

    QString m_firstUserText;
    QString m_lastRunOutcome;

private:
    // The oldest row held leaves, with what the lines so far tell of it.
    void settleOldest()
    {
        StoredEvent out = m_rows.takeOldest();
        finalize(out);
        m_rows.settle(std::move(out));
    }

    // What a row shows of what came after it: a message's text at the row that starts it, a call's arguments at its
    // start and its outcome at its end, a user's message at kaboo's note of it. Noted, so that a later change is
    // seen (recallChanged).
    void finalize(StoredEvent& row)
    {
        m_messages.finalize(row);
        m_calls.finalize(row);
    }

    void takeLine(qint64 i, const AguiLine& line)
    {
        StoredEvent& stored = m_rows.row(i);
        EventRecord& r = stored.record;
        r.index = i;
        r.sourceLine = line.lineNumber;
        r.flags = line.flags;
        stored.payload = line.raw;
        stored.packedPayload = line.packedPayload;
        if (!line.problem.isEmpty())
            m_rows.problem(i, line.problem);
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
                m_rows.problem(i, QStringLiteral("timestamp %1 is out of range (the event has no time)").arg(ts.toDouble()));
            }
        }
        r.groupId = m_runs.openRun();
        if (line.flags & EventFlags::MalformedJson)
            return;
        if (!AguiLogParser::isKnownType(r.type) && !r.type.startsWith(QLatin1Char('(')))
            m_rows.problem(i, QStringLiteral("unknown event type %1 (kept as custom)").arg(r.type));
        if (!r.type.startsWith(QLatin1Char('(')))
            m_sequence.take(m_rows, i, r.type, e);

        const QString& t = r.type;
        // A chunked message or call ends the protocol's way: when an event of another kind comes.
        if (!keepsChunkOpen(t)) {
            if (t != QLatin1String("TEXT_MESSAGE_CHUNK") && t != QLatin1String("REASONING_MESSAGE_CHUNK"))
                m_messages.closeChunkMessage();
            if (t != QLatin1String("TOOL_CALL_CHUNK"))
                m_calls.endChunkCall();
        }
        if (t == QLatin1String("RUN_STARTED") || t == QLatin1String("RUN_FINISHED") || t == QLatin1String("RUN_ERROR")) {
            m_runs.take(m_rows, m_calls, i, e);
            if (t == QLatin1String("RUN_STARTED")) {
                // The input carries the conversation so far: the user's messages are found here by id.
                const QJsonArray input = e.value(QLatin1String("input")).toObject().value(QLatin1String("messages")).toArray();
                m_messages.rememberUserMessages(input);
                if (!input.isEmpty())
                    m_snapshots.remember(m_rows, i, input);
            }
        } else if (t.startsWith(QLatin1String("TEXT_MESSAGE_"))) {
            m_messages.takeText(m_rows, m_runs, i, e, false);
        } else if (t.startsWith(QLatin1String("REASONING_")) || t.startsWith(QLatin1String("THINKING_"))) {
            m_messages.takeReasoning(m_rows, m_runs, i, e);
        } else if (t.startsWith(QLatin1String("TOOL_CALL_"))) {
            m_calls.takeTool(m_rows, m_runs, m_messages, i, e);
        } else {
            takeOther(i, e);
        }
    }

    // The rows no part assembles: said in their own words, kaboo's notes of user messages and snapshots handed on.
    void takeOther(qint64 i, const QJsonObject& e)
    {
        EventRecord& r = m_rows.rec(i);
        const QString& t = r.type;
        r.role = QStringLiteral("system");
        if (t == QLatin1String("CUSTOM") && str(e, "name") == QLatin1String("kaboo.message_meta")) {
            // kaboo's note of a user message: its id and time. The text is in the run's input.
            m_messages.takeUserNote(r, i, e.value(QLatin1String("value")).toObject());
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
            m_messages.rememberUserMessages(messages);
            m_snapshots.remember(m_rows, i, messages);
        } else if (t.startsWith(QLatin1String("ACTIVITY_"))) {
            r.messageId = str(e, "messageId");
            m_messages.noteStreamed(r.messageId);
            r.text = clip(str(e, "activityType") + QStringLiteral(": ")
                + compact(e.value(
                    t == QLatin1String("ACTIVITY_SNAPSHOT") ? QLatin1String("content") : QLatin1String("patch"))));
        } else
            r.text = clip(compact(e));
    }

    AguiRows m_rows;
    AguiRunTracker m_runs;
    AguiMessageAssembler m_messages;
    AguiCallAssembler m_calls;
    AguiSnapshotPlacer m_snapshots;
    AguiSequenceChecker m_sequence;
    bool m_finished = false;
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
    return m_state->messages();
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
