#pragma once

#include "runstep.h"

struct EventFilter;
class Workspace;

// A room's steps, in the order they show: its tool calls (by their card) and its messages, from any source format.
namespace RunSteps {
// With `filter`, the steps whose item the timeline shows under it (tool:web_search: those calls alone).
RunStepList read(Workspace& workspace, qint64 roomId, const EventFilter* filter = nullptr);
// JSON written one way (compact, an object's keys in order), so that two sources' spacing and key order do not
// make a difference; other text trimmed.
QString normalised(const QString& text);
} // namespace RunSteps
