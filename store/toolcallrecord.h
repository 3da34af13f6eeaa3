#pragma once

#include <optional>
#include <QMetaType>
#include <QString>
#include <QVector>

// How a call's start and end were put together (SOURCES.md §4.3): the values of ToolCallRecord::pairing, as
// stored and filtered.
namespace Pairing {
inline const QString Exact = QStringLiteral("exact"); // same correlation and tool id
inline const QString IdOnly = QStringLiteral("id_only"); // same tool id, another correlation
inline const QString NameOnly = QStringLiteral("name_only"); // no ids: same name, oldest open start
inline const QString Guessed = QStringLiteral("guessed"); // CraftBot: by name and order, nothing else to go on
inline const QString StartOnly = QStringLiteral("start_only"); // nothing closed it
inline const QString EndOnly = QStringLiteral("end_only"); // nothing opened it
inline const QString Manual = QStringLiteral("manual"); // a reviewer linked the end to the start (PairFixer)
} // namespace Pairing

// Where a call's duration comes from.
namespace DurationSource {
inline const QString Recorded = QStringLiteral("recorded"); // duration_ms on the end
inline const QString Timestamps = QStringLiteral("timestamps"); // end time less start time
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
    QString durationSource; // "recorded" (duration_ms on the end) or "timestamps" (end - start)
    QString status; // the end's content.status (pending when there is no end)
    QString outcome; // served | refused | failed | blocked | unserved | cancelled
    QString pairing; // exact | id_only | name_only | guessed | start_only | end_only
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
