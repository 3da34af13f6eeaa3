#pragma once

#include "runstep.h"
#include "steppair.h"

#include <QString>

struct EventFilter;
class Workspace;

// Two runs compared: the steps of each (RunSteps) and their alignment (RunAlignment). What the command line, the
// Compare window, its export and the benchmark all make, one way.
struct Comparison
{
    RunStepList a, b;
    StepPairs pairs;

    // Reads room `roomA` of `a` and room `roomB` of the workspace at `pathB` (which may be a's) at once, B's on a
    // thread and connection of its own, and aligns them. With `filter`, the whole rooms are still aligned, and the
    // pairs kept are those either of whose steps the filter shows: a call served in A and failed in B is one changed
    // pair under outcome:failed, not a call only in B. With `first` > 0, each room's first `first` steps alone: what
    // a window shows while the whole is compared.
    static Comparison make(Workspace& a, qint64 roomA, const QString& pathB, qint64 roomB, const EventFilter* filter = nullptr,
        int first = 0);
    // Only the pairs either of whose steps is shown, and the steps they hold (positions renumbered).
    void keepShown();
};
