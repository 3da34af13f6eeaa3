#pragma once

#include "runstep.h"
#include "steppair.h"

#include <optional>
#include <QMap>
#include <QString>
#include <QVector>

// What a comparison comes to: how many steps of each change, the time the calls took in each run, the outcomes that
// changed, and per tool its calls and median duration in each. The command line and the Compare window say it.
struct RunSummary
{
    struct Tool
    {
        int callsA = 0, callsB = 0;
        int snapshotA = 0, snapshotB = 0; // of those, the calls a snapshot brought rather than the run's own events
        std::optional<qint64> medianMsA, medianMsB;
        bool moved() const { return callsA != callsB || medianMsA != medianMsB || snapshotA != snapshotB; }
    };
    struct OutcomeChange
    {
        QString tool;
        qint64 indexA = 0, indexB = 0;
        QString a, b;
    };

    int counts[4] = { 0, 0, 0, 0 }; // by StepPair::Change
    qint64 totalMsA = 0, totalMsB = 0;
    QVector<OutcomeChange> outcomes;
    QMap<QString, Tool> tools;

    int count(StepPair::Change c) const { return counts[int(c)]; }
    bool differ() const { return counts[1] + counts[2] + counts[3] > 0; }
    // A total as people read it: "415 ms", "32.4 s", "32 min 17 s", "2 h 5 min".
    static QString spoken(qint64 ms);

    static RunSummary of(const RunStepList& a, const RunStepList& b, const StepPairs& pairs);
};
