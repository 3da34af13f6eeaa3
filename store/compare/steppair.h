#pragma once

#include <optional>
#include <QStringList>
#include <QVector>

// A row of a comparison: a step of run A and a step of run B aligned (the same step, or the same step changed), or
// a step of one alone. Positions are into the runs' step lists.
struct StepPair
{
    enum class Change { Same, Changed, OnlyA, OnlyB };

    std::optional<int> a;
    std::optional<int> b;
    Change change = Change::Same;
    QStringList fields; // changed: what differs (arguments, result, outcome, text)

    static QString changeName(Change c)
    {
        switch (c) {
        case Change::Same:
            return QStringLiteral("same");
        case Change::Changed:
            return QStringLiteral("changed");
        case Change::OnlyA:
            return QStringLiteral("only_a");
        case Change::OnlyB:
            return QStringLiteral("only_b");
        }
        return {};
    }
};

using StepPairs = QVector<StepPair>;
