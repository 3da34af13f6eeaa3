#pragma once

#include "compare/runstep.h"
#include "compare/runsummary.h"
#include "compare/steppair.h"

#include <QAbstractTableModel>

// A comparison of two runs as a table: a row an aligned step (RunAlignment), A's step, what changed, B's step. The
// Compare window shows it; its rows are coloured by what changed, and nextDifference() steps between them.
class CompareModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { AColumn, ChangeColumn, BColumn, ColumnCount };
    enum Roles { ChangeRole = Qt::UserRole, FieldsRole };

    explicit CompareModel(QObject* parent = nullptr);

    void setComparison(RunStepList a, RunStepList b, StepPairs pairs);
    const StepPairs& pairs() const { return m_pairs; }
    const RunStepList& stepsA() const { return m_a; }
    const RunStepList& stepsB() const { return m_b; }
    const RunStep* stepA(int row) const;
    const RunStep* stepB(int row) const;
    // The next row (after `from`, or before it) that is not the same; -1 when there is none that way.
    int nextDifference(int from, bool forward) const;
    // "12 same, 2 changed, 1 only in A, 0 only in B; calls took 415 ms in A, 331 ms in B; outcomes: issue_refund
    // refused → failed".
    QString summary() const;
    // Per tool whose figures moved: "lookup_order 1 → 1 calls, median 243 → 53 ms"; empty when none did.
    QStringList perTool() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // A step as a cell says it: "6  lookup_order  243 ms", "4  user: I was charged twice…".
    static QString described(const RunStep& step);
    // Two JSON values key by key, into objects and arrays: a line a value added, removed or changed, named by its
    // path, "+ key: value", "- items[3]: value", "~ order.total: a → b"; text that is not JSON as a whole,
    // "~ a → b"; none when they are the same.
    static QStringList jsonDiff(const QString& a, const QString& b);

private:
    RunStepList m_a;
    RunStepList m_b;
    StepPairs m_pairs;
    RunSummary m_totals; // what the comparison comes to, counted once when it is set
};
