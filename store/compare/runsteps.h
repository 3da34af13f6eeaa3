#pragma once

#include "runstep.h"

#include <utility>

struct EventFilter;
class Workspace;

// A room's steps, in the order they show: its tool calls (by their card) and its messages, from any source format.
namespace RunSteps {
// With `filter`, the steps whose item the timeline shows under it (tool:web_search: those calls alone).
RunStepList read(Workspace& workspace, qint64 roomId, const EventFilter* filter = nullptr);
// Both sides of a comparison at once: A's on this thread from `a`, B's on a thread of its own through a connection of
// its own to the workspace at `pathB` (which may be a's): two rooms read in the time of one, on two cores.
std::pair<RunStepList, RunStepList> readBoth(Workspace& a, qint64 roomA, const QString& pathB, qint64 roomB,
    const EventFilter* filter = nullptr);
// JSON written one way (compact, an object's keys in order), so that two sources' spacing and key order do not
// make a difference; other text trimmed.
QString normalised(const QString& text);
} // namespace RunSteps
