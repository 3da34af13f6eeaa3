#include "aguiruntracker.h"

#include "../eventflags.h"
#include "../jsontext.h"
#include "aguicallassembler.h"
#include "aguijson.h"
#include "aguirows.h"

#include <algorithm>

using AguiJson::str;
using JsonText::compact;

namespace {

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

} // namespace

void AguiRunTracker::touch(qsizetype k)
{
    if (!m_touched[k]) {
        m_touched[k] = true;
        m_touchedRuns << k;
    }
}

void AguiRunTracker::take(AguiRows& rows, AguiCallAssembler& calls, qint64 i, const QJsonObject& e)
{
    EventRecord& r = rows.rec(i);
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
        m_touched.append(false);
        touch(m_runs.size() - 1);
        m_stack.append(m_runs.size() - 1);
        r.groupId = run.groupId;
        r.text = QStringLiteral("run %1 started").arg(run.groupId);
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
        m_touched.append(false);
        slot = m_runs.size() - 1;
    }
    touch(slot);
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
        markSyntheticBlock(rows, calls, i);
    }
}

// kaboo appends its closers together at the end of a run, every one stamped with the terminal event's time: walking
// back from a synthetic RUN_ERROR or bare RUN_FINISHED, the closers with that time are synthetic too; an agent's own
// closers before them are not (SOURCES.md §4.5.4).
void AguiRunTracker::markSyntheticBlock(AguiRows& rows, AguiCallAssembler& calls, qint64 terminal)
{
    rows.rec(terminal).flags |= EventFlags::Synthetic;
    const qint64 time = rows.rec(terminal).createdMicros;
    for (qint64 i = terminal - 1; i >= 0; --i) {
        EventRecord& r = rows.rec(i);
        // Without times nothing tells kaboo's closers from the agent's own: only the terminal is taken for made up
        // (AG-UI's timestamps are optional; kaboo stamps every event).
        const bool sameTime = r.createdMicros && time && r.createdMicros == time;
        if (!isCloser(r.type) || !sameTime)
            break;
        if (r.type == QLatin1String("TOOL_CALL_RESULT") && !r.isSynthetic())
            break; // a real result: the block ends here
        r.flags |= EventFlags::Synthetic;
        calls.markSyntheticRow(i);
    }
}

QVector<AguiAssembler::RunChange> AguiRunTracker::takeChanged(qint64 through, bool finished)
{
    QVector<AguiAssembler::RunChange> out;
    QVector<qsizetype> later;
    for (qsizetype k : std::as_const(m_touchedRuns)) {
        RunRecord run = m_runs[k];
        if (!finished && run.lastIndex.value_or(0) > through) {
            later << k;
            continue;
        }
        m_touched[k] = false;
        if (run.outcome.isEmpty())
            run.outcome = QStringLiteral("open"); // no RUN_FINISHED or RUN_ERROR in the log (yet)
        out.append({ k, run });
    }
    m_touchedRuns = later;
    std::sort(out.begin(), out.end(),
        [](const AguiAssembler::RunChange& a, const AguiAssembler::RunChange& b) { return a.slot < b.slot; });
    return out;
}

QString AguiRunTracker::lastOutcome() const
{
    if (m_runs.isEmpty())
        return {};
    return m_runs.constLast().outcome.isEmpty() ? QStringLiteral("open") : m_runs.constLast().outcome;
}
