#pragma once

#include "toolcallrecord.h"

#include <optional>
#include <QHash>
#include <QMap>
#include <QString>
#include <QVector>

// A tool start or end row, as the pairer needs it.
struct ToolEvent
{
    qint64 index = 0;
    bool isStart = true;
    QString correlationId;
    QString toolId;
    QString toolName;
    qint64 createdMicros = 0;
    QString contentStatus;
    Outcome outcome = Outcome::None; // of an end: served when None
    QString error;
    std::optional<qint64> durationMs;
    QString arguments; // as compact JSON
    std::optional<bool> argumentsValid; // whether they parse as JSON (unknown when there are none)
    QString result; // on the end row itself
};

// Pairs tool starts with their ends (SOURCES.md §4.3, §4.5), as the rows stream by.
//
// RoomKit's key is content.tool_id, but providers reuse ids such as "call_0" in every answer, so an end
// pairs first with an open start of the same (correlation, tool_id): "exact". Failing that, with the
// oldest open start of the same tool_id in another correlation: "id_only". Without an id, with the oldest
// open start of the same name in the same correlation: "name_only". A start that nothing closes is
// "start_only" (outcome unserved); an end that nothing opened is "end_only" and keeps its own outcome.
// Parallel calls of one tool carry distinct ids, so they pair exactly whatever their order.
//
// A call is settled once its end is read and never changes after, so an import writes calls as it goes and
// keeps only the open ones: the pairs of a room of a million rows never sit in memory together. Fed the same
// rows in the same order, it settles the same calls however the rows are cut into batches.
class ToolPairer
{
public:
    // The next row, in index order. For an end: whether it closed a start (then it shows inside that card).
    bool add(const ToolEvent& event);
    // The calls settled since the last call, in index order of their first row.
    ToolCallRecords takeSettled();
    // The starts nothing has closed yet (start_only), in index order.
    ToolCallRecords openCalls() const;
    // The starts added since the last call that nothing has closed yet, in index order: with takeSettled(), what
    // an import writes at each commit so that the table holds exactly the calls of the rows committed.
    ToolCallRecords takeOpened();

    // Everything at once: settled and open calls, in index order of their first row.
    static ToolCallRecords pair(const QVector<ToolEvent>& eventsInIndexOrder);

private:
    struct Key
    {
        QString group;
        QString id;
        bool operator==(const Key&) const = default;
        friend size_t qHash(const Key& key, size_t seed = 0) { return qHashMulti(seed, key.group, key.id); }
    };
    using Queue = QVector<qint64>; // open starts by serial, oldest first; nearly always one

    qint64 m_nextSerial = 0;
    QMap<qint64, ToolCallRecord> m_open; // by serial, which follows index order
    QHash<Key, Queue> m_byGroupAndId;
    QHash<QString, Queue> m_byId;
    QHash<Key, Queue> m_byGroupAndName; // for rows without a tool id
    ToolCallRecords m_settled;
    QVector<qint64> m_opened; // serials of the starts added since takeOpened()
};
