#pragma once

#include "runstep.h"

#include <QByteArrayView>

struct EventFilter;
class Workspace;

// A room's steps, in the order they show: its tool calls (by their card) and its messages, from any source format.
namespace RunSteps {
// Every step of the room, read in one pass over its calls and one over its messages, each digested as it is read;
// messages a hook blocked only when `filter` includes blocked rows (blocked:include), as every verb reads them.
// With `filter`, each step is marked shown when the timeline shows its item under the filter (tool:web_search: those
// calls alone). With `first` > 0, only the room's first `first` steps (what a window shows before the rest is read).
RunStepList read(Workspace& workspace, qint64 roomId, const EventFilter* filter = nullptr, int first = 0);
// The texts of one step of room `roomId`, read again from the workspace.
StepText text(Workspace& workspace, qint64 roomId, const RunStep& step);
// JSON written one way (compact, an object's keys in order), so that two sources' spacing and key order do not
// make a difference; other text trimmed.
QString normalised(const QString& text);
// A step's keys (strong, weak, resultDigest) from its texts as read: a call's arguments and result, a message's
// text (in `arguments`). What read() does for each row, and tests for the steps they make.
void key(RunStep& step, QByteArrayView arguments, QByteArrayView result = {});
} // namespace RunSteps
