#pragma once

#include "../runrecord.h"
#include "../toolcallrecord.h"
#include "eventmdparser.h"
#include "importwriter.h"

#include <QString>
#include <QVector>

struct CraftBotAssembly
{
    QVector<StoredEvent> rows; // one per record, index = position in the stream
    ToolCallRecords calls;
    RunRecords runs; // the tasks
    QVector<QPair<qint64, QString>> problems; // (row index, what is wrong)
};

// Assembles a CraftBot event stream (SOURCES.md §2): canonical kinds for its free-form kinds, actions paired
// start to end, tasks from task_start to task_end with their end status, and each record's task.
//
// CraftBot writes no action ids, so an end is attached to the oldest open start of the same action name:
// every such pair is flagged guessed, and where two calls of one name were running at once (parallel calls,
// or two tasks at the same time) all of them are flagged ambiguous, since the order of the ends says nothing
// about which start they close. A start that nothing ends is unserved; an end whose start rotation dropped
// is kept as end_only. The outcome is read from the output: error_code "cancelled" is cancelled, status
// "error" or an error key is failed. Inputs and outputs are JSON (newer CraftBot) or Python literals (older).
namespace CraftBotAssembler {
CraftBotAssembly assemble(const QVector<EventMdRecord>& records);
EventKind canonicalKind(const QString& craftBotKind);
} // namespace CraftBotAssembler
