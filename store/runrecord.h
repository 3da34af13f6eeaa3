#pragma once

#include <optional>
#include <QString>
#include <QVector>

// One AI response, run or task: a group of events from its first to its last row.
struct RunRecord
{
    qint64 rowId = 0; // the workspace's own key (0: not stored yet)
    QString groupId;
    QString kind; // ai_response | run | task
    QString name; // a CraftBot task's name
    QString parentGroupId; // AG-UI parentRunId
    std::optional<qint64> firstIndex;
    std::optional<qint64> lastIndex;
    std::optional<qint64> startMicros;
    std::optional<qint64> endMicros;
    QString outcome; // success | interrupt | error | open; completed | cancelled for tasks
    QString detail; // the error message, error code or end note
    bool synthetic = false; // its end was made up by the source system
    QString usageJson; // AG-UI token usage
    QString interruptsJson;
};

using RunRecords = QVector<RunRecord>;
