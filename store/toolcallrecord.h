#pragma once

#include <optional>
#include <QMetaType>
#include <QString>
#include <QVector>

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
};

Q_DECLARE_METATYPE(ToolCallRecord)
using ToolCallRecords = QVector<ToolCallRecord>;
