#pragma once

#include "../runrecord.h"
#include "../toolcallrecord.h"
#include "aguilogparser.h"
#include "importwriter.h"

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
    bool reasoning = false;
    bool complete = false; // closed by an END, a new CHUNK id, or the end of its run
};

// A thread's log assembled: a row for each line (with its derived columns and display text), the tool
// calls with their arguments joined in order, the runs, and the messages.
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

// Assembles an AG-UI thread (SOURCES.md §3, §4.4, §4.5): messages from their deltas, tool calls paired by
// toolCallId across START/ARGS/END/RESULT and CHUNK, runs from RUN_STARTED to RUN_FINISHED/RUN_ERROR (events
// without runId belong to the open run; parentRunId nests), kaboo's synthetic closers flagged, and outcomes
// read from the results. Never fails: what it cannot make sense of is kept, flagged and listed in problems.
namespace AguiAssembler {
// `indexes`, when given, are the lines' own indexes in the source (kaboo's seq), one per line in order: every
// row, call, run, message and problem is then named by them instead of by its position.
AguiAssembly assemble(const QVector<AguiLine>& lines, const QVector<qint64>& indexes = {});
// How a TOOL_CALL_RESULT's content says the call ended: served, failed or cancelled.
Outcome outcomeOfResult(const QString& content, const QJsonObject& resultEvent);
} // namespace AguiAssembler
