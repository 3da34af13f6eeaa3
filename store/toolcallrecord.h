#pragma once

#include "outcome.h"
#include "pairing.h"

#include <optional>
#include <QMetaType>
#include <QString>
#include <QVector>

// Where a call's duration comes from.
namespace DurationSource {
inline const QString Recorded = QStringLiteral("recorded"); // duration_ms on the end
inline const QString Timestamps = QStringLiteral("timestamps"); // end time less start time
// End time less start time, both stamped to the whole second (CraftBot's EVENT.md): 0 means under a second, and
// N seconds anything between N - 1 and N + 1.
inline const QString Seconds = QStringLiteral("seconds");
} // namespace DurationSource

// One logical tool call: a start paired with its end (or one of them alone).
struct ToolCallRecord
{
    QString toolName;
    QString toolId;
    QString groupId; // the correlation (one AI response) it belongs to
    std::optional<qint64> startIndex;
    std::optional<qint64> endIndex;
    std::optional<qint64> startMicros;
    std::optional<qint64> endMicros;
    std::optional<qint64> durationMs;
    QString durationSource; // a DurationSource
    QString status; // the end's content.status (pending when there is no end)
    Outcome outcome = Outcome::Unserved;
    Pairing pairing = Pairing::StartOnly;
    QString error;
    QString arguments; // assembled, exactly as sent
    std::optional<bool> argumentsValid; // whether they parse as JSON (unknown when there are none)
    QString result;
    std::optional<qint64> resultIndex; // where the result is, when it is not the end row itself
    bool synthetic = false; // the end or result was made up by the source system, not the agent
    bool ambiguous = false; // a guessed pair that overlaps another call of the same name
    QString blockedBy; // the hook that blocked it, when its end row is blocked
    bool edited = false; // a reviewer changed it (EditStore): its arguments, result, outcome or pair
};

Q_DECLARE_METATYPE(ToolCallRecord)
using ToolCallRecords = QVector<ToolCallRecord>;
