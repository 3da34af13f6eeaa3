#include "toolpairer.h"

#include "outcome.h"

#include <algorithm>
#include <QHash>
#include <QVarLengthArray>

namespace {

struct Key
{
    QString group;
    QString id;
    bool operator==(const Key&) const = default;
};

size_t qHash(const Key& key, size_t seed = 0)
{
    return qHashMulti(seed, key.group, key.id);
}

// The open starts of one key, oldest first. Nearly every key holds one call: kept inline, as a std::deque's
// first block (512 bytes) for each of a quarter of a million keys was most of a big room's pairing.
struct OpenQueue
{
    QVarLengthArray<qsizetype, 2> positions;
    qsizetype head = 0;

    void push(qsizetype at) { positions.append(at); }
};

ToolCallRecord fromStart(const ToolEvent& start)
{
    ToolCallRecord call;
    call.toolName = start.toolName;
    call.toolId = start.toolId;
    call.groupId = start.correlationId;
    call.startIndex = start.index;
    call.startMicros = start.createdMicros;
    call.status = start.contentStatus.isEmpty() ? QStringLiteral("pending") : start.contentStatus;
    call.outcome = Outcome::Unserved;
    call.pairing = QStringLiteral("start_only");
    call.arguments = start.arguments;
    return call;
}

void close(ToolCallRecord& call, const ToolEvent& end, const QString& pairing)
{
    if (call.toolName.isEmpty())
        call.toolName = end.toolName;
    if (call.toolId.isEmpty())
        call.toolId = end.toolId;
    if (call.groupId.isEmpty())
        call.groupId = end.correlationId;
    call.endIndex = end.index;
    call.endMicros = end.createdMicros;
    call.status = end.contentStatus;
    call.outcome = end.outcome.isEmpty() ? Outcome::Served : end.outcome;
    call.error = end.error;
    call.pairing = pairing;
    call.result = end.result;
    if (call.arguments.isNull())
        call.arguments = end.arguments;
    if (end.durationMs) {
        call.durationMs = end.durationMs;
        call.durationSource = QStringLiteral("recorded");
    } else if (call.startMicros) {
        call.durationMs = (end.createdMicros - *call.startMicros) / 1000;
        call.durationSource = QStringLiteral("timestamps");
    }
}

} // namespace

namespace ToolPairer {

ToolCallRecords pair(const QVector<ToolEvent>& events)
{
    ToolCallRecords calls;
    calls.reserve(events.size() / 2 + 1);
    // Open starts, as positions in `calls`, oldest first.
    QHash<Key, OpenQueue> byGroupAndId;
    QHash<QString, OpenQueue> byId;
    QHash<Key, OpenQueue> byGroupAndName; // for rows without a tool id
    byGroupAndId.reserve(events.size() / 2 + 1);
    byId.reserve(events.size() / 2 + 1);
    auto takeOpen = [&calls](OpenQueue& queue) -> qsizetype {
        while (queue.head < queue.positions.size()) {
            const qsizetype at = queue.positions[queue.head++];
            if (!calls[at].endIndex)
                return at;
        }
        return -1;
    };

    for (const ToolEvent& e : events) {
        if (e.isStart) {
            const qsizetype at = calls.size();
            calls.append(fromStart(e));
            if (e.toolId.isEmpty()) {
                byGroupAndName[Key { e.correlationId, e.toolName }].push(at);
            } else {
                byGroupAndId[Key { e.correlationId, e.toolId }].push(at);
                byId[e.toolId].push(at);
            }
            continue;
        }
        qsizetype at = -1;
        QString pairing;
        if (e.toolId.isEmpty()) {
            at = takeOpen(byGroupAndName[Key { e.correlationId, e.toolName }]);
            pairing = QStringLiteral("name_only");
        } else {
            at = takeOpen(byGroupAndId[Key { e.correlationId, e.toolId }]);
            pairing = QStringLiteral("exact");
            if (at < 0) {
                at = takeOpen(byId[e.toolId]);
                pairing = QStringLiteral("id_only");
            }
        }
        if (at >= 0) {
            close(calls[at], e, pairing);
        } else {
            ToolCallRecord orphan;
            orphan.toolName = e.toolName;
            orphan.toolId = e.toolId;
            orphan.groupId = e.correlationId;
            close(orphan, e, QStringLiteral("end_only"));
            calls.append(orphan);
        }
    }
    auto firstIndex = [](const ToolCallRecord& c) { return c.startIndex ? *c.startIndex : *c.endIndex; };
    std::stable_sort(calls.begin(), calls.end(),
        [&](const ToolCallRecord& a, const ToolCallRecord& b) { return firstIndex(a) < firstIndex(b); });
    return calls;
}

} // namespace ToolPairer
