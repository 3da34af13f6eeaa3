#include "waterfalllayout.h"

#include <algorithm>
#include <QHash>

namespace {

// Where a call is drawn on the time line: from its start for the source's own duration when it recorded one (RoomKit's
// duration_ms), else to its end's time; a call without a start but with an end and a duration ends there.
struct Span
{
    std::optional<qint64> start;
    std::optional<qint64> end;
    bool fromTimestamps = false;
};

Span spanOf(const ToolCallRecord& c)
{
    Span s;
    const bool recorded = c.durationMs && c.durationSource == DurationSource::Recorded;
    s.start = c.startMicros;
    if (s.start && recorded)
        s.end = *s.start + *c.durationMs * 1000;
    else if (c.endMicros)
        s.end = c.endMicros;
    if (!s.start && s.end && c.durationMs)
        s.start = *s.end - *c.durationMs * 1000;
    else if (!s.start && s.end)
        s.start = s.end; // an end alone: an instant
    s.fromTimestamps = !recorded;
    return s;
}

} // namespace

QVector<int> WaterfallLayout::assignLanes(const QVector<std::pair<qint64, qint64>>& spans)
{
    QVector<int> lanes;
    lanes.reserve(spans.size());
    struct Lane
    {
        qint64 lastStart;
        qint64 lastEnd;
    };
    QVector<Lane> open;
    for (const auto& [start, end] : spans) {
        int lane = 0;
        while (lane < open.size() && !(open[lane].lastEnd <= start && open[lane].lastStart < start))
            ++lane;
        if (lane == open.size())
            open.append({ start, end });
        else
            open[lane] = { start, std::max(end, start) };
        lanes << lane;
    }
    return lanes;
}

WaterfallLayout WaterfallLayout::build(const ToolCallRecords& calls, const RunRecords& runs, qint64 gapThresholdUs)
{
    WaterfallLayout w;
    w.calls = calls;
    QHash<QString, const RunRecord*> runOf;
    for (const RunRecord& r : runs)
        runOf.insert(r.groupId, &r);

    // The bars in time, by group.
    QHash<QString, QVector<Bar>> byGroup; // a quarter of a million calls in a hundred thousand responses: hashed
    bool any = false;
    for (qsizetype i = 0; i < calls.size(); ++i) {
        const Span s = spanOf(calls[i]);
        if (!s.start) {
            ++w.untimed;
            continue;
        }
        Bar b;
        b.call = i;
        b.startUs = *s.start;
        b.fromTimestamps = s.fromTimestamps;
        if (!s.end) {
            b.openEnded = true;
            b.endUs = b.startUs; // until its group's end is known
        } else if (*s.end < *s.start) {
            b.skewed = true;
            b.endUs = b.startUs;
        } else {
            b.endUs = *s.end;
        }
        w.firstUs = any ? std::min(w.firstUs, b.startUs) : b.startUs;
        w.lastUs = any ? std::max(w.lastUs, b.endUs) : b.endUs;
        any = true;
        byGroup[calls[i].groupId].append(b);
    }
    if (!any)
        return w;

    // Each group: its span (its run's, when the source recorded one, and its calls'), its open calls drawn on to
    // its end, its lanes.
    for (auto it = byGroup.begin(); it != byGroup.end(); ++it) {
        QVector<Bar>& bars = it.value();
        Group g;
        g.groupId = it.key();
        g.startUs = bars.first().startUs;
        g.endUs = bars.first().endUs;
        for (const Bar& b : bars) {
            g.startUs = std::min(g.startUs, b.startUs);
            g.endUs = std::max(g.endUs, b.endUs);
        }
        if (const RunRecord* run = runOf.value(g.groupId)) {
            g.kind = run->kind;
            if (run->startMicros)
                g.startUs = std::min(g.startUs, *run->startMicros);
            if (run->endMicros)
                g.endUs = std::max(g.endUs, *run->endMicros);
        }
        g.calls = bars.size();
        // A call that never ended runs on to its response's end; one of no response stays an instant (the calls
        // of no response span the whole room: it would cover everything after it).
        for (Bar& b : bars) {
            if (b.openEnded && !g.groupId.isEmpty())
                b.endUs = std::max(b.startUs, g.endUs);
        }
        w.firstUs = std::min(w.firstUs, g.startUs);
        w.lastUs = std::max(w.lastUs, g.endUs);
        w.groups.append(g);
    }
    std::sort(w.groups.begin(), w.groups.end(), [](const Group& a, const Group& b) {
        return a.startUs != b.startUs ? a.startUs < b.startUs : a.groupId < b.groupId;
    });

    int row = 0;
    for (Group& g : w.groups) {
        QVector<Bar> bars = std::move(byGroup[g.groupId]);
        std::stable_sort(bars.begin(), bars.end(), [](const Bar& a, const Bar& b) {
            return a.startUs != b.startUs ? a.startUs < b.startUs : a.endUs < b.endUs;
        });
        QVector<std::pair<qint64, qint64>> spans;
        spans.reserve(bars.size());
        for (const Bar& b : bars)
            spans.append({ b.startUs, b.endUs });
        const QVector<int> lanes = assignLanes(spans);
        g.headerRow = row;
        g.lanes = lanes.isEmpty() ? 0 : *std::max_element(lanes.begin(), lanes.end()) + 1;
        for (qsizetype k = 0; k < bars.size(); ++k)
            bars[k].row = row + 1 + lanes[k];
        std::stable_sort(bars.begin(), bars.end(), [](const Bar& a, const Bar& b) { return a.row < b.row; });
        w.bars += bars;
        row += 1 + g.lanes;
    }
    w.rows = row;
    // The bar of each card's row, for the card selected in the timeline (a lookup on the GUI thread, not a scan).
    w.m_barAtRow.reserve(w.bars.size());
    for (qsizetype k = 0; k < w.bars.size(); ++k) {
        const ToolCallRecord& c = w.calls[w.bars[k].call];
        const std::optional<qint64> shown = c.startIndex ? c.startIndex : c.endIndex ? c.endIndex : c.resultIndex;
        if (shown && !w.m_barAtRow.contains(*shown))
            w.m_barAtRow.insert(*shown, k);
    }

    // Idle gaps: the stretches no call and no group covers, longer than the threshold.
    if (gapThresholdUs > 0) {
        QVector<std::pair<qint64, qint64>> busy;
        // A response's span is busy (its model thinking between calls); the calls of no response are not one
        // stretch of work: only their own spans are.
        for (const Group& g : std::as_const(w.groups)) {
            if (!g.groupId.isEmpty())
                busy.append({ g.startUs, g.endUs });
        }
        for (const Bar& b : std::as_const(w.bars))
            busy.append({ b.startUs, b.endUs });
        std::sort(busy.begin(), busy.end());
        qint64 reached = busy.first().second;
        qint64 work = 0;
        qint64 from = busy.first().first;
        for (const auto& [start, end] : std::as_const(busy)) {
            if (start - reached > gapThresholdUs) {
                w.gaps.append({ reached, start });
                work += reached - from;
                from = start;
            }
            reached = std::max(reached, end);
        }
        work += reached - from;
        // A break is as wide as a fiftieth of the work, at least a millisecond: seen, never dominant.
        w.gapWidthUs = std::max<qint64>(1000, work / 50);
    }
    double axis = 0;
    qint64 at = w.firstUs;
    for (const Gap& g : std::as_const(w.gaps)) {
        axis += double(g.fromUs - at);
        w.m_gapAxis << axis;
        axis += double(w.gapWidthUs);
        at = g.toUs;
    }
    return w;
}

double WaterfallLayout::axisOf(qint64 us) const
{
    // The last gap that starts at or before `us`.
    const auto after = std::upper_bound(gaps.begin(), gaps.end(), us, [](qint64 t, const Gap& g) { return t < g.fromUs; });
    if (after == gaps.begin())
        return double(us - firstUs);
    const qsizetype k = (after - gaps.begin()) - 1;
    const Gap& g = gaps[k];
    if (us < g.toUs) // inside the break: shrunk in proportion
        return m_gapAxis[k] + double(us - g.fromUs) * double(gapWidthUs) / double(g.toUs - g.fromUs);
    return m_gapAxis[k] + double(gapWidthUs) + double(us - g.toUs);
}

qint64 WaterfallLayout::timeOf(double axis) const
{
    const auto after = std::upper_bound(m_gapAxis.begin(), m_gapAxis.end(), axis);
    if (after == m_gapAxis.begin())
        return firstUs + qint64(axis);
    const qsizetype k = (after - m_gapAxis.begin()) - 1;
    const Gap& g = gaps[k];
    const double into = axis - m_gapAxis[k];
    if (into < double(gapWidthUs))
        return g.fromUs + qint64(into * double(g.toUs - g.fromUs) / double(gapWidthUs));
    return g.toUs + qint64(into - double(gapWidthUs));
}

std::optional<qsizetype> WaterfallLayout::barAt(qint64 index) const
{
    const auto it = m_barAtRow.constFind(index);
    return it == m_barAtRow.constEnd() ? std::nullopt : std::optional<qsizetype>(*it);
}

QVector<qsizetype> WaterfallLayout::visible(int firstRow, int lastRow, double fromAxis, double toAxis) const
{
    QVector<qsizetype> out;
    auto it = std::lower_bound(bars.begin(), bars.end(), firstRow, [](const Bar& b, int row) { return b.row < row; });
    for (; it != bars.end() && it->row <= lastRow; ++it) {
        if (axisOf(it->endUs) >= fromAxis && axisOf(it->startUs) <= toAxis)
            out << (it - bars.begin());
    }
    return out;
}
