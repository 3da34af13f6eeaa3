#include "toolpairer.h"

#include "outcome.h"
#include "timeutil.h"

#include <algorithm>
#include <utility>

namespace {

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
    call.pairing = Pairing::StartOnly;
    call.arguments = start.arguments;
    call.argumentsValid = start.argumentsValid;
    return call;
}

void close(ToolCallRecord& call, const ToolEvent& end, Pairing pairing)
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
    call.outcome = end.outcome == Outcome::None ? Outcome::Served : end.outcome;
    call.error = end.error;
    call.pairing = pairing;
    call.result = end.result;
    call.resultIndex = end.index;
    if (call.arguments.isNull()) {
        call.arguments = end.arguments;
        call.argumentsValid = end.argumentsValid;
    }
    if (end.durationMs) {
        call.durationMs = end.durationMs;
        call.durationSource = DurationSource::Recorded;
    } else if (call.startMicros && *call.startMicros && end.createdMicros) {
        call.durationMs = TimeUtil::durationMs(*call.startMicros, end.createdMicros);
        if (call.durationMs)
            call.durationSource = DurationSource::Timestamps;
    }
}

} // namespace

bool ToolPairer::add(const ToolEvent& e)
{
    if (e.isStart) {
        const qint64 serial = m_nextSerial++;
        m_open.insert(serial, fromStart(e));
        m_opened.append(serial);
        if (e.toolId.isEmpty()) {
            m_byGroupAndName[Key { e.correlationId, e.toolName }].append(serial);
        } else {
            m_byGroupAndId[Key { e.correlationId, e.toolId }].append(serial);
            m_byId[e.toolId].append(serial);
        }
        return false;
    }
    auto take = [](auto& hash, const auto& key) -> qint64 {
        const auto it = hash.find(key);
        if (it == hash.end())
            return -1;
        const qint64 serial = it->takeFirst();
        if (it->isEmpty())
            hash.erase(it); // closed keys go, so the tables hold only what is still open
        return serial;
    };
    qint64 serial = -1;
    Pairing pairing = Pairing::StartOnly;
    if (e.toolId.isEmpty()) {
        serial = take(m_byGroupAndName, Key { e.correlationId, e.toolName });
        pairing = Pairing::NameOnly;
    } else {
        serial = take(m_byGroupAndId, Key { e.correlationId, e.toolId });
        pairing = Pairing::Exact;
        if (serial < 0) {
            serial = take(m_byId, e.toolId);
            pairing = Pairing::IdOnly;
        }
    }
    if (serial < 0) {
        ToolCallRecord orphan;
        orphan.toolName = e.toolName;
        orphan.toolId = e.toolId;
        orphan.groupId = e.correlationId;
        close(orphan, e, Pairing::EndOnly);
        m_settled.append(orphan);
        return false;
    }
    ToolCallRecord call = m_open.take(serial);
    if (!call.toolId.isEmpty()) {
        // It waited under its (correlation, id) and under its id alone: one took it, the other lets it go.
        auto drop = [serial](auto& hash, const auto& key) {
            const auto it = hash.find(key);
            if (it == hash.end())
                return;
            it->removeOne(serial);
            if (it->isEmpty())
                hash.erase(it);
        };
        drop(m_byGroupAndId, Key { call.groupId, call.toolId });
        drop(m_byId, call.toolId);
    }
    close(call, e, pairing);
    m_settled.append(call);
    return true;
}

namespace {
qint64 firstIndex(const ToolCallRecord& c)
{
    return c.startIndex ? *c.startIndex : *c.endIndex;
}

void sortByFirstIndex(ToolCallRecords& calls)
{
    std::stable_sort(calls.begin(), calls.end(),
        [](const ToolCallRecord& a, const ToolCallRecord& b) { return firstIndex(a) < firstIndex(b); });
}
} // namespace

ToolCallRecords ToolPairer::takeSettled()
{
    ToolCallRecords out = std::exchange(m_settled, {});
    sortByFirstIndex(out);
    return out;
}

ToolCallRecords ToolPairer::openCalls() const
{
    return m_open.values(); // by serial: the order the starts came in
}

ToolCallRecords ToolPairer::takeOpened()
{
    ToolCallRecords out;
    for (qint64 serial : std::exchange(m_opened, {})) {
        const auto it = m_open.constFind(serial);
        if (it != m_open.constEnd())
            out.append(*it);
    }
    return out;
}

ToolCallRecords ToolPairer::pair(const QVector<ToolEvent>& events)
{
    ToolPairer pairer;
    for (const ToolEvent& e : events)
        pairer.add(e);
    ToolCallRecords calls = pairer.takeSettled() + pairer.openCalls();
    sortByFirstIndex(calls);
    return calls;
}
