#include "runsummary.h"

#include "../toolstats.h"

#include <algorithm>

namespace {

// The median as the Tool Statistics dock and `stats` give it (the 50th percentile by nearest rank, the lower middle
// of an even count): one figure for one tool's calls everywhere.
std::optional<qint64> median(QVector<qint64> values)
{
    std::sort(values.begin(), values.end());
    return ToolStats::nearestRank(values, 50);
}

} // namespace

RunSummary RunSummary::of(const RunStepList& a, const RunStepList& b, const StepPairs& pairs)
{
    RunSummary s;
    QMap<QString, QVector<qint64>> msA, msB;
    // Each run's calls into its side of each tool's figures.
    const auto count = [&s](const RunStepList& steps, int RunSummary::Tool::*calls, int RunSummary::Tool::*snapshot,
                           QMap<QString, QVector<qint64>>& ms, qint64& total) {
        for (const RunStep& step : steps) {
            if (step.kind != RunStep::Kind::ToolCall)
                continue;
            RunSummary::Tool& tool = s.tools[step.tool];
            ++(tool.*calls);
            tool.*snapshot += step.fromSnapshot ? 1 : 0;
            if (step.durationMs) {
                ms[step.tool] << *step.durationMs;
                total += *step.durationMs;
            }
        }
    };
    count(a, &Tool::callsA, &Tool::snapshotA, msA, s.totalMsA);
    count(b, &Tool::callsB, &Tool::snapshotB, msB, s.totalMsB);
    for (auto it = s.tools.begin(); it != s.tools.end(); ++it) {
        it->medianMsA = median(msA.value(it.key()));
        it->medianMsB = median(msB.value(it.key()));
    }
    for (const StepPair& p : pairs) {
        ++s.counts[int(p.change)];
        if (p.fields.contains(QLatin1String("outcome"))) {
            const RunStep& x = a.at(*p.a);
            const RunStep& y = b.at(*p.b);
            s.outcomes.append({ x.tool, x.index, y.index, x.outcome, y.outcome });
        }
    }
    return s;
}

QString RunSummary::spoken(qint64 ms)
{
    if (ms < 1000)
        return QStringLiteral("%1 ms").arg(ms);
    if (ms < 60'000)
        return QStringLiteral("%1 s").arg(double(ms) / 1000.0, 0, 'f', 1);
    const qint64 s = ms / 1000;
    if (s < 3600)
        return QStringLiteral("%1 min %2 s").arg(s / 60).arg(s % 60);
    return QStringLiteral("%1 h %2 min").arg(s / 3600).arg((s % 3600) / 60);
}
