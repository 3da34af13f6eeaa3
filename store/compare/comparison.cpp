#include "comparison.h"

#include "../eventfilter.h"
#include "../workspace.h"
#include "runalignment.h"
#include "runsteps.h"

#include <future>
#include <optional>

Comparison Comparison::make(Workspace& a, qint64 roomA, const QString& pathB, qint64 roomB, const EventFilter* filter, int first)
{
    const std::optional<EventFilter> copy = filter ? std::optional<EventFilter>(*filter) : std::nullopt;
    // A workspace's connection belongs to the thread that opened it: B's is opened, used and closed on its own.
    auto b = std::async(std::launch::async, [pathB, roomB, copy, first] {
        Workspace other(pathB);
        return RunSteps::read(other, roomB, copy ? &*copy : nullptr, first);
    });
    Comparison c;
    c.a = RunSteps::read(a, roomA, filter, first);
    c.b = b.get();
    c.pairs = RunAlignment::align(c.a, c.b);
    if (filter)
        c.keepShown();
    return c;
}

void Comparison::keepShown()
{
    RunStepList keptA, keptB;
    StepPairs kept;
    for (StepPair p : pairs) {
        if (!((p.a && a.at(*p.a).shown) || (p.b && b.at(*p.b).shown)))
            continue;
        if (p.a) {
            keptA.append(a.at(*p.a));
            p.a = int(keptA.size() - 1);
        }
        if (p.b) {
            keptB.append(b.at(*p.b));
            p.b = int(keptB.size() - 1);
        }
        kept.append(p);
    }
    a = std::move(keptA);
    b = std::move(keptB);
    pairs = std::move(kept);
}
