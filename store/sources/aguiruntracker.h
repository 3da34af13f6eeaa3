#pragma once

#include "aguiassembler.h"

class AguiCallAssembler;
class AguiRows;

// The AG-UI assembler's runs: RUN_STARTED opens one (nested in the one open, parentRunId said), RUN_FINISHED or
// RUN_ERROR closes the one it names or the one open (a lone RUN_ERROR is a run of its own), and kaboo's closers made up
// at a run's end are flagged synthetic, with their calls.
class AguiRunTracker
{
public:
    // A RUN_STARTED, RUN_FINISHED or RUN_ERROR at row `i`.
    void take(AguiRows& rows, AguiCallAssembler& calls, qint64 i, const QJsonObject& e);
    // The run open now, innermost; empty outside any.
    QString openRun() const { return m_stack.isEmpty() ? QString() : m_runs[m_stack.constLast()].groupId; }
    // Whether a run ended after row `since`: an id of that run may be used again (the verifier resets at the next
    // RUN_STARTED).
    bool runEndedSince(qint64 since) const { return m_lastRunEnd > since; }
    // The runs changed since the last time whose rows have all left up to `through` (after the log's end: all).
    QVector<AguiAssembler::RunChange> takeChanged(qint64 through, bool finished);
    // How the last run ended ("open" without an end); empty without runs.
    QString lastOutcome() const;

private:
    void touch(qsizetype k);
    void markSyntheticBlock(AguiRows& rows, AguiCallAssembler& calls, qint64 terminal);

    QVector<RunRecord> m_runs;
    QVector<bool> m_touched;
    QVector<qsizetype> m_touchedRuns;
    QVector<qsizetype> m_stack; // open runs, innermost last
    qint64 m_lastRunEnd = -1; // the row of the last RUN_FINISHED or RUN_ERROR
};
