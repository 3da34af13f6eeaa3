#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>

class AguiRows;

// What AG-UI's own client refuses in a stream of events (its verifier, @ag-ui/client 1.0), said at the row where a log
// does it: a log that does not begin with RUN_STARTED, a RUN_STARTED inside a run still active, a RUN_FINISHED with a
// text message, a tool call or a step still open, an event after a run finished or errored, a step finished that
// never started. Sightline reads such a log all the same (the assembler's parts read on as the protocol means), so
// that a reviewer sees both what was said and where a client would have stopped. Chunks are not tracked here: the
// client's transform closes a chunked message or call at the next event of another kind, so one is never open when a
// run ends. A plain value, copied with the assembler's state.
class AguiSequenceChecker
{
public:
    // The event at row `i`, of type `type` (not a malformed line).
    void take(AguiRows& rows, qint64 i, const QString& type, const QJsonObject& e);

private:
    void startRun();

    bool m_first = true;
    bool m_runStarted = false;
    bool m_runFinished = false;
    bool m_runError = false;
    qint64 m_endLine = 0; // the line of the RUN_FINISHED or RUN_ERROR that ended the run (0: a database's row)
    QStringList m_messages; // text messages open (TEXT_MESSAGE_START without its END yet), in order
    QStringList m_calls; // tool calls open (TOOL_CALL_START without its END yet)
    QStringList m_steps; // steps open (STEP_STARTED without its STEP_FINISHED yet)
};
