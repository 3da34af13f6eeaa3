#include "aguicallassembler.h"

#include "../eventflags.h"
#include "../jsontext.h"
#include "../timeutil.h"
#include "aguijson.h"
#include "aguimessageassembler.h"
#include "aguirows.h"
#include "aguiruntracker.h"

#include <algorithm>
#include <QJsonDocument>

using AguiJson::str;
using JsonText::clip;
using JsonText::compact;
using JsonText::parsesAsJson;

namespace {

bool isSyntheticResult(const QJsonObject& event)
{
    // kaboo's finalizeRunEvents writes the result as "<toolCallId>-result" with a status and a reason of its own.
    if (str(event, "messageId") != str(event, "toolCallId") + QStringLiteral("-result"))
        return false;
    const QJsonObject content = QJsonDocument::fromJson(str(event, "content").toUtf8()).object();
    const QString reason = content.value(QLatin1String("reason")).toString();
    return reason == QLatin1String("stop_requested") || reason == QLatin1String("missing_terminal_event");
}

} // namespace

void AguiCallAssembler::answer(ToolCallRecord& call, const QString& content, const QJsonObject& answer)
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

qint64 AguiCallAssembler::firstRow(const Call& c)
{
    return c.record.startIndex ? *c.record.startIndex
        : c.record.endIndex    ? *c.record.endIndex
        : c.record.resultIndex ? *c.record.resultIndex
                               : 0;
}

Outcome AguiCallAssembler::outcomeNow(const Call& c)
{
    return c.record.resultIndex || c.snapshotResultAt ? c.record.outcome : Outcome::Unserved;
}

AguiCallAssembler::Call* AguiCallAssembler::call(const QString& key)
{
    const auto it = m_callAt.constFind(key);
    return it == m_callAt.constEnd() ? nullptr : &m_calls[*it];
}

// A call changed (at row `i`, or -1 for a change no row made): the writer takes it again.
void AguiCallAssembler::touch(qsizetype k, qint64 i)
{
    Track& t = m_track[k];
    t.lastRow = std::max(t.lastRow, i);
    if (!t.touched) {
        t.touched = true;
        m_touchedCalls << k;
    }
}

// A new call in the next slot.
qsizetype AguiCallAssembler::add(const Call& c)
{
    m_calls.append(c);
    m_track.append(Track());
    return m_calls.size() - 1;
}

AguiCallAssembler::Call& AguiCallAssembler::startCall(
    AguiRows& rows, const AguiRunTracker& runs, qint64 i, QString id, const QJsonObject& e)
{
    if (id.isEmpty()) {
        rows.problem(i, QStringLiteral("a tool call without a toolCallId"));
        id = QStringLiteral("call@%1").arg(i);
    }
    std::optional<qsizetype> replayOf;
    QString key = id;
    if (const auto before = m_callAt.constFind(id); before != m_callAt.constEnd()) {
        const Call& earlier = m_calls[*before];
        if (earlier.open && !earlier.chunkEnded && !earlier.record.endIndex && !earlier.record.resultIndex
            && !runs.runEndedSince(firstRow(earlier))) {
            // Still streaming its arguments: the protocol refuses a second START (the verifier's "already in
            // progress"). Kept as a call of its own, said.
            rows.problem(i, QStringLiteral("a second tool call with toolCallId %1 while the first is still open").arg(id));
            key = QStringLiteral("%1@%2").arg(id, QString::number(i));
        } else {
            replayOf = *before;
        }
    }
    Call c;
    c.replayOf = replayOf;
    c.record.toolId = id;
    c.record.toolName = str(e, "toolCallName");
    c.record.groupId = runs.openRun();
    c.record.startIndex = i;
    if (rows.rec(i).createdMicros)
        c.record.startMicros = rows.rec(i).createdMicros;
    c.record.pairing = Pairing::StartOnly;
    add(c);
    m_callAt.insert(key, m_calls.size() - 1);
    m_callOfRow.insert(i, m_calls.size() - 1);
    m_lastCall = key;
    touch(m_calls.size() - 1, i);
    return m_calls.last();
}

// Its arguments, end and result show in the call's card, at the start's place: a row of a call that has a start, and
// is not a candidate replay (see Call::replayOf) whose fate is still open.
void AguiCallAssembler::foldInto(AguiRows& rows, const Call& c, qint64 i)
{
    if (c.record.startIndex && !c.replayOf && i != *c.record.startIndex)
        rows.rec(i).flags |= EventFlags::Folded;
}

// A candidate replay (see Call::replayOf) that ARGS or END show to be a new call: it stays one, and the id is its from
// now on (already so). One that a RESULT answers first, or that nothing follows, is the call it repeats: folded into it.
void AguiCallAssembler::settleReplay(AguiRows& rows, Call& c, bool newCall)
{
    if (!c.replayOf)
        return;
    const qsizetype earlier = *c.replayOf;
    c.replayOf.reset();
    touch(c, -1);
    if (newCall) {
        for (qint64 at : std::as_const(c.fragmentRows))
            foldInto(rows, c, at); // the arguments it took while it was a candidate
        return;
    }
    c.merged = true;
    const qint64 start = *c.record.startIndex;
    EventRecord& row = rows.rec(start);
    Call& into = m_calls[earlier];
    row.toolId = into.record.toolId;
    row.toolName = into.record.toolName.isEmpty() ? row.toolName : into.record.toolName;
    into.replays << start;
    if (into.record.startIndex)
        row.flags |= EventFlags::Folded; // the START that repeated it shows in its card
    touch(earlier, -1);
    m_callAt.insert(c.record.toolId, earlier);
}

void AguiCallAssembler::resolveReplays(AguiRows& rows)
{
    // By index, read first: a copy kept for the next sync shares the calls until one changes.
    for (qsizetype k = 0; k < m_calls.size(); ++k) {
        if (std::as_const(m_calls)[k].replayOf)
            settleReplay(rows, m_calls[k], false);
    }
}

// The call an ARGS, END or RESULT names. Without an id, ARGS go to the call started last.
AguiCallAssembler::Call& AguiCallAssembler::callFor(AguiRows& rows, const AguiRunTracker& runs, qint64 i, const QString& id)
{
    if (id.isEmpty() && !m_lastCall.isEmpty() && rows.rec(i).type == QLatin1String("TOOL_CALL_ARGS")) {
        rows.problem(i, QStringLiteral("tool call arguments without a toolCallId (joined to %1)").arg(m_lastCall));
        return *call(m_lastCall);
    }
    if (Call* c = call(id)) {
        if (c->replayOf) {
            // ARGS or END: the id was used again for a new call. A RESULT first: the old call, repeated.
            const bool newCall = rows.rec(i).type != QLatin1String("TOOL_CALL_RESULT");
            const qint64 replayed = *c->record.startIndex;
            const qsizetype earlier = *c->replayOf;
            settleReplay(rows, *c, newCall);
            // Said on the call's card (its first START's row), where a reviewer reads the call.
            const std::optional<qint64> card = m_calls[earlier].record.startIndex;
            if (!newCall) {
                const qint64 line = rows.rec(replayed).sourceLine; // recalled already when it had left
                rows.problem(card ? *card : replayed,
                    QStringLiteral("TOOL_CALL_START for %1 came again%2 and only a TOOL_CALL_RESULT followed it: read as "
                                   "the call it repeats; AG-UI 1.0's verifier requires a TOOL_CALL_END")
                        .arg(id, line > 0 ? QStringLiteral(" at line %1").arg(line) : QString()));
            }
            return *call(id);
        }
        return *c;
    }
    rows.problem(i,
        id.isEmpty() ? QStringLiteral("a tool call event without a toolCallId")
                     : QStringLiteral("toolCallId %1 was never started").arg(id));
    Call c;
    c.record.toolId = id.isEmpty() ? QStringLiteral("call@%1").arg(i) : id;
    c.record.groupId = runs.openRun();
    c.record.pairing = Pairing::EndOnly;
    add(c);
    m_callAt.insert(c.record.toolId, m_calls.size() - 1);
    return m_calls.last();
}

void AguiCallAssembler::endChunkCall()
{
    if (Call* c = call(m_chunkCall)) {
        c->open = false;
        c->chunkEnded = true;
        touch(*c, -1);
    }
    m_chunkCall.clear();
}

void AguiCallAssembler::markSyntheticRow(qint64 i)
{
    m_syntheticRows.insert(i);
    if (const auto it = m_callOfRow.constFind(i); it != m_callOfRow.constEnd())
        touch(*it, -1);
}

void AguiCallAssembler::takeTool(
    AguiRows& rows, const AguiRunTracker& runs, AguiMessageAssembler& messages, qint64 i, const QJsonObject& e)
{
    EventRecord& r = rows.rec(i);
    r.role = QStringLiteral("assistant");
    const QString& t = r.type;
    const QString id = str(e, "toolCallId");
    Call* c = nullptr;
    if (t == QLatin1String("TOOL_CALL_START")) {
        c = &startCall(rows, runs, i, id, e);
        r.messageId = str(e, "parentMessageId");
        messages.noteStreamed(r.messageId); // the assistant message that made the call: in the stream, by its calls
    } else if (t == QLatin1String("TOOL_CALL_CHUNK")) {
        // toolCallId and toolCallName come on the first chunk; a new id ends the previous call's arguments.
        if (!id.isEmpty() && id != m_chunkCall) {
            endChunkCall();
            // A chunk naming a call that ended starts it again (the transform's second START for one id): its
            // arguments go on; one never seen starts a call.
            if (Call* known = call(id); known && !known->record.endIndex && !known->record.resultIndex) {
                c = known;
                c->open = true;
                c->chunkEnded = false;
            } else {
                c = &startCall(rows, runs, i, id, e);
                settleReplay(rows, *c, true);
            }
            m_chunkCall = id;
        } else if (id.isEmpty() && m_chunkCall.isEmpty()) {
            c = &startCall(rows, runs, i, QString(), e);
            m_chunkCall = c->record.toolId;
        } else {
            c = call(m_chunkCall);
        }
        // A chunk without a delta adds nothing: a call sent so has no arguments, as one whose START came without ARGS
        // (not an empty string that does not parse).
        const QString delta = str(e, "delta");
        if (e.contains(QLatin1String("delta"))) {
            c->fragments << delta;
            ++c->fragmentCount;
        }
        c->fragmentRows << i;
        foldInto(rows, *c, i);
        r.text = delta;
        r.messageId = str(e, "parentMessageId");
        if (!r.messageId.isEmpty())
            messages.noteStreamed(r.messageId);
    } else if (t == QLatin1String("TOOL_CALL_ARGS")) {
        c = &callFor(rows, runs, i, id);
        const QString delta = str(e, "delta");
        c->fragments << delta;
        ++c->fragmentCount;
        c->fragmentRows << i;
        foldInto(rows, *c, i);
        r.text = delta;
    } else if (t == QLatin1String("TOOL_CALL_END")) {
        c = &callFor(rows, runs, i, id);
        c->open = false;
        if (c->record.endIndex && *c->record.endIndex != i) {
            // A second END: the call ends at this one; the first shows as a row of its own.
            EventRecord& before = rows.rec(*c->record.endIndex);
            before.flags &= ~EventFlags::Folded;
            before.outcome = Outcome::None;
            m_callOfRow.remove(*c->record.endIndex);
        }
        c->record.endIndex = i;
        m_callOfRow.insert(i, slotOf(*c));
        if (c->fragments.size() > 1)
            c->fragments = QStringList { c->fragments.join(QString()) }; // one string from now on: less memory
        foldInto(rows, *c, i);
        if (r.createdMicros)
            c->record.endMicros = r.createdMicros;
    } else if (t == QLatin1String("TOOL_CALL_RESULT")) {
        c = &callFor(rows, runs, i, id);
        // A string, or content parts as a tool message may carry (1.0): their text.
        const QString content = AguiJson::contentText(e.value(QLatin1String("content")));
        // Each result is the call's (the protocol keeps them all, a tool message each); the last settles it.
        c->results << i;
        c->record.resultIndex = i;
        m_callOfRow.insert(i, slotOf(*c));
        foldInto(rows, *c, i);
        if (r.createdMicros)
            c->resultMicros = r.createdMicros;
        answer(c->record, content, e);
        c->resultReleased = false;
        if (const QString answerId = str(e, "messageId"); !answerId.isEmpty() && !c->answerIds.contains(answerId))
            c->answerIds << answerId;
        r.role = QStringLiteral("tool");
        r.messageId = str(e, "messageId");
        messages.noteStreamed(r.messageId);
        r.outcome = c->record.outcome;
        r.text = clip(content);
        rows.row(i).result = content;
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

void AguiCallAssembler::finalize(StoredEvent& row)
{
    const qint64 p = row.record.index;
    EventRecord& r = row.record;
    const auto it = m_callOfRow.constFind(p);
    if (it == m_callOfRow.constEnd())
        return;
    const Call& c = std::as_const(m_calls)[*it];
    Track& track = m_track[*it];
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

void AguiCallAssembler::recallChanged(AguiRows& rows) const
{
    for (qsizetype k = 0; k < m_calls.size(); ++k) {
        const Call& c = m_calls[k];
        const Track& t = m_track[k];
        if (c.merged || c.fromSnapshot)
            continue;
        if (c.record.startIndex && *c.record.startIndex <= rows.settledThrough()
            && (t.settledAsCandidate
                || (t.settledFragments >= 0 && (t.settledFragments != c.fragmentCount || t.settledName != c.record.toolName))))
            rows.row(*c.record.startIndex);
        if (c.record.endIndex && t.settledEndOutcome && *t.settledEndOutcome != outcomeNow(c))
            rows.row(*c.record.endIndex);
    }
}

QVector<AguiAssembler::CallChange> AguiCallAssembler::takeChanged(qint64 through, bool release, bool finished, bool finishing)
{
    QVector<AguiAssembler::CallChange> out;
    QVector<qsizetype> later;
    for (qsizetype k : std::as_const(m_touchedCalls)) {
        const Call& c = std::as_const(m_calls)[k];
        Track& track = m_track[k];
        if (!finished && track.lastRow > through) {
            later << k;
            continue;
        }
        track.touched = false;
        out.append({ k, this->finished(c), c.resultReleased });
        if (release && !finishing && !c.record.result.isNull()) {
            // The writer has it: a result is the biggest part of a call, and a long log has many calls.
            Call& mine = m_calls[k];
            mine.record.result = QString();
            mine.resultReleased = true;
        }
    }
    m_touchedCalls = later;
    std::sort(out.begin(), out.end(),
        [](const AguiAssembler::CallChange& a, const AguiAssembler::CallChange& b) { return a.slot < b.slot; });
    return out;
}

// A call's record as the log so far makes it; none for a START folded into the call it repeated, or arguments for a
// call never started (their rows stay, listed in the problems).
std::optional<ToolCallRecord> AguiCallAssembler::finished(const Call& c) const
{
    if (c.merged)
        return std::nullopt;
    ToolCallRecord call = c.record;
    // Answered in a snapshot or a run's input, not by an event, or answered there again after its event's result (a
    // tool message with an id of its own): the last answer settles it, as the last of several results does.
    if (c.snapshotResultAt && (!call.resultIndex || *c.snapshotResultAt > *call.resultIndex))
        call.resultIndex = c.snapshotResultAt;
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
