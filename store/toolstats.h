#pragma once

#include "outcome.h"

#include <optional>
#include <QMetaType>
#include <QString>
#include <QVector>

// The figures of one tool in a room, counted in calls (a call's start, end and results are one), as the
// statistics pane, `sightline stats` and the room list's tooltip show them.
struct ToolStats
{
    QString toolName;
    qint64 calls = 0;
    qint64 served = 0;
    qint64 failed = 0;
    qint64 refused = 0;
    qint64 blocked = 0;
    qint64 unserved = 0;
    qint64 cancelled = 0;
    // Over the calls that have a duration; percentiles by nearest rank (the smallest duration that at least p %
    // of the timed calls do not exceed), so that each is a duration a call really took.
    qint64 timedCalls = 0;
    std::optional<qint64> p50Ms;
    std::optional<qint64> p95Ms;
    std::optional<qint64> maxMs;
    qint64 totalMs = 0;

    qint64 count(Outcome outcome) const;
    // The calls of one tool, with their outcomes and durations, summed up.
    static ToolStats of(const QString& toolName, const QVector<std::pair<Outcome, std::optional<qint64>>>& calls);
    static std::optional<qint64> nearestRank(const QVector<qint64>& sorted, int percent);

private:
    static qint64 ToolStats::*counterOf(Outcome outcome); // the figure a call of that outcome adds to
};

Q_DECLARE_METATYPE(ToolStats)
using ToolStatsList = QVector<ToolStats>;
