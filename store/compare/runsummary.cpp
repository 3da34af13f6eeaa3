#include "runsummary.h"

#include <algorithm>

namespace {

std::optional<qint64> median(QVector<qint64> values)
{
    if (values.isEmpty())
        return std::nullopt;
    std::sort(values.begin(), values.end());
    return values.at(values.size() / 2);
}

} // namespace

RunSummary RunSummary::of(const RunStepList& a, const RunStepList& b, const StepPairs& pairs)
{
    RunSummary s;
    QMap<QString, QVector<qint64>> msA, msB;
    for (const RunStep& step : a) {
        if (step.kind != RunStep::Kind::ToolCall)
            continue;
        ++s.tools[step.tool].callsA;
        if (step.durationMs) {
            msA[step.tool] << *step.durationMs;
            s.totalMsA += *step.durationMs;
        }
    }
    for (const RunStep& step : b) {
        if (step.kind != RunStep::Kind::ToolCall)
            continue;
        ++s.tools[step.tool].callsB;
        if (step.durationMs) {
            msB[step.tool] << *step.durationMs;
            s.totalMsB += *step.durationMs;
        }
    }
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
