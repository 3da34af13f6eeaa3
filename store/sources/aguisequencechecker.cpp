#include "aguisequencechecker.h"

#include "aguijson.h"
#include "aguirows.h"

using AguiJson::str;

namespace {

QString quoted(const QStringList& names)
{
    QStringList out;
    for (const QString& n : names)
        out << (n.isEmpty() ? QStringLiteral("(no id)") : n);
    return out.join(QStringLiteral(", "));
}

} // namespace

void AguiSequenceChecker::startRun()
{
    m_messages.clear();
    m_calls.clear();
    m_steps.clear();
    m_runFinished = false;
    m_runError = false;
    m_runStarted = true;
}

void AguiSequenceChecker::take(AguiRows& rows, qint64 i, const QString& t, const QJsonObject& e)
{
    const bool runStarted = t == QLatin1String("RUN_STARTED");
    // Said in the client's terms, so that a reviewer who met its error finds the row, with the row that made it so.
    const QString ended = m_endLine > 0 ? QStringLiteral(" at line %1").arg(m_endLine) : QString();
    if (m_runError && !runStarted)
        rows.problem(i, QStringLiteral("out of sequence: %1 after the run ended with RUN_ERROR%2; AG-UI's client takes "
                                       "no event after it but a new RUN_STARTED").arg(t, ended));
    else if (m_runFinished && !runStarted && t != QLatin1String("RUN_ERROR"))
        rows.problem(i, QStringLiteral("out of sequence: %1 after the run finished (RUN_FINISHED%2); AG-UI's client "
                                       "takes no event after it but RUN_STARTED or RUN_ERROR").arg(t, ended));
    if (m_first) {
        m_first = false;
        if (!runStarted && t != QLatin1String("RUN_ERROR"))
            rows.problem(i, QStringLiteral("out of sequence: the log begins with %1, not RUN_STARTED").arg(t));
    } else if (runStarted && m_runStarted && !m_runFinished && !m_runError) {
        rows.problem(i, QStringLiteral("out of sequence: RUN_STARTED while a run is still active (no RUN_FINISHED "
                                       "or RUN_ERROR ended it)"));
    }

    if (runStarted) {
        // A new run after one ended starts afresh; the first keeps what came before it (the client's reset is so).
        if (m_runFinished || m_runError)
            startRun();
        m_runStarted = true;
    } else if (t == QLatin1String("TEXT_MESSAGE_START")) {
        m_messages << str(e, "messageId");
    } else if (t == QLatin1String("TEXT_MESSAGE_END")) {
        m_messages.removeOne(str(e, "messageId"));
    } else if (t == QLatin1String("TOOL_CALL_START")) {
        m_calls << str(e, "toolCallId");
    } else if (t == QLatin1String("TOOL_CALL_END")) {
        m_calls.removeOne(str(e, "toolCallId"));
    } else if (t == QLatin1String("STEP_STARTED")) {
        const QString step = str(e, "stepName");
        if (m_steps.contains(step))
            rows.problem(i, QStringLiteral("out of sequence: STEP_STARTED for step \"%1\", which is already active").arg(step));
        else
            m_steps << step;
    } else if (t == QLatin1String("STEP_FINISHED")) {
        const QString step = str(e, "stepName");
        if (!m_steps.removeOne(step))
            rows.problem(i, QStringLiteral("out of sequence: STEP_FINISHED for step \"%1\", which was not started").arg(step));
    } else if (t == QLatin1String("RUN_FINISHED")) {
        QStringList open;
        if (!m_steps.isEmpty())
            open << QStringLiteral("steps %1").arg(quoted(m_steps));
        if (!m_messages.isEmpty())
            open << QStringLiteral("text messages %1").arg(quoted(m_messages));
        if (!m_calls.isEmpty())
            open << QStringLiteral("tool calls %1 (no TOOL_CALL_END)").arg(quoted(m_calls));
        if (!open.isEmpty())
            rows.problem(i, QStringLiteral("out of sequence: RUN_FINISHED while still open: ") + open.join(QStringLiteral("; ")));
        m_runFinished = true;
        m_endLine = rows.rec(i).sourceLine;
    } else if (t == QLatin1String("RUN_ERROR")) {
        m_runError = true;
        m_endLine = rows.rec(i).sourceLine;
    }
}
