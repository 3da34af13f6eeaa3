#include "toolstats.h"

#include <algorithm>

qint64 ToolStats::*ToolStats::counterOf(Outcome outcome)
{
    switch (outcome) {
    case Outcome::Served:
        return &ToolStats::served;
    case Outcome::Failed:
        return &ToolStats::failed;
    case Outcome::Refused:
        return &ToolStats::refused;
    case Outcome::Blocked:
        return &ToolStats::blocked;
    case Outcome::Cancelled:
        return &ToolStats::cancelled;
    case Outcome::Unserved:
    case Outcome::None: // a call with no outcome was never answered
        break;
    }
    return &ToolStats::unserved;
}

qint64 ToolStats::count(Outcome outcome) const
{
    return outcome == Outcome::None ? 0 : this->*counterOf(outcome);
}

ToolStats ToolStats::of(const QString& toolName, const QVector<std::pair<Outcome, std::optional<qint64>>>& calls)
{
    ToolStats s;
    s.toolName = toolName;
    QVector<qint64> durations;
    for (const auto& [outcome, duration] : calls) {
        ++s.calls;
        ++(s.*counterOf(outcome));
        if (duration) {
            durations << *duration;
            s.totalMs += *duration;
        }
    }
    std::sort(durations.begin(), durations.end());
    s.timedCalls = durations.size();
    s.p50Ms = nearestRank(durations, 50);
    s.p95Ms = nearestRank(durations, 95);
    if (!durations.isEmpty())
        s.maxMs = durations.constLast();
    return s;
}

std::optional<qint64> ToolStats::nearestRank(const QVector<qint64>& sorted, int percent)
{
    if (sorted.isEmpty())
        return std::nullopt;
    // rank = ceil(p / 100 * n), 1-based, in integers.
    const qint64 n = sorted.size();
    const qint64 rank = std::clamp<qint64>((percent * n + 99) / 100, 1, n);
    return sorted[rank - 1];
}
