#include "roomkitrows.h"

#include "../eventflags.h"
#include "../eventkind.h"
#include "../runrecord.h"
#include "../toolpairer.h"
#include "../workspace.h"
#include "roomfeed.h"

#include <QHash>
#include <QSet>
#include <utility>

// One AI response per correlation id, from its first to its last row: the runs the room had, stretched by the
// rows read since, kept as they stream by (a GROUP BY over the room after each import cost a fourteenth of it)
// and written with every commit (only the ones its rows changed).
class RoomKitRows::Responses
{
public:
    Responses(Workspace& ws, qint64 roomId)
    {
        for (const RunRecord& r : ws.runs(roomId)) {
            if (r.kind == QLatin1String("ai_response")) {
                m_spans.insert(r.groupId,
                    { r.firstIndex.value_or(0), r.lastIndex.value_or(0), r.startMicros.value_or(0),
                        r.endMicros.value_or(0), r.rowId });
            }
        }
    }

    void add(const EventRecord& r)
    {
        if (r.groupId.isEmpty())
            return;
        auto it = m_spans.find(r.groupId);
        if (it == m_spans.end()) {
            m_spans.insert(r.groupId, { r.index, r.index, r.createdMicros, r.createdMicros, 0 });
            m_changed.insert(r.groupId);
            return;
        }
        const Span before = *it;
        it->first = std::min(it->first, r.index);
        it->last = std::max(it->last, r.index);
        if (r.createdMicros != 0) {
            it->firstUs = it->firstUs ? std::min(it->firstUs, r.createdMicros) : r.createdMicros;
            it->lastUs = std::max(it->lastUs, r.createdMicros);
        }
        if (it->first != before.first || it->last != before.last || it->firstUs != before.firstUs
            || it->lastUs != before.lastUs)
            m_changed.insert(r.groupId);
    }

    // Writes the responses changed since the last call.
    void write(RoomFeed& feed)
    {
        for (const QString& group : std::exchange(m_changed, {})) {
            Span& span = m_spans[group];
            RunRecord r;
            r.groupId = group;
            r.kind = QStringLiteral("ai_response");
            r.firstIndex = span.first;
            r.lastIndex = span.last;
            r.startMicros = span.firstUs;
            r.endMicros = span.lastUs;
            span.rowId = feed.writeRun(r, span.rowId);
        }
    }

private:
    struct Span
    {
        qint64 first, last, firstUs, lastUs;
        qint64 rowId; // its row in runs, 0 until written
    };
    QHash<QString, Span> m_spans;
    QSet<QString> m_changed;
};

RoomKitRows::RoomKitRows(RoomFeed& feed)
    : m_feed(feed)
    , m_responses(std::make_unique<Responses>(feed.workspace(), feed.room().id))
    , m_synced(feed.room().syncedSeq)
    , m_lastIndex(feed.room().syncedSeq)
{
    feed.setStreamed();
    feed.setBeforeCommit([this] { m_responses->write(m_feed); });
}

RoomKitRows::~RoomKitRows()
{
    m_feed.setBeforeCommit({}); // it holds this object
}

void RoomKitRows::add(DecodedRoomKitEvent& e)
{
    EventRecord& r = e.record;
    r.groupId = r.correlationId;
    auto place = [&] { return QStringLiteral("room %1, index %2").arg(m_feed.room().nativeId, QString::number(r.index)); };
    if (!e.problem.isEmpty())
        m_feed.note(place(), e.problem);
    m_synced = std::max(m_synced, r.index);
    // Rows come in index order: a second row at the same index (a store without its unique index) is
    // left out before it can open or close a call.
    auto skipped = [&] {
        m_feed.note(
            place(), QStringLiteral("a second row with the same index (event %1) was skipped").arg(r.nativeId));
    };
    if (r.index == m_lastIndex) {
        skipped();
        return;
    }
    m_lastIndex = r.index;
    if (r.kind == EventKind::ToolCall) {
        ToolEvent t;
        t.index = r.index;
        t.isStart = r.type == QLatin1String("tool_call_start");
        t.correlationId = r.correlationId;
        t.toolId = r.toolId;
        t.toolName = r.toolName;
        t.createdMicros = r.createdMicros;
        t.contentStatus = e.contentStatus;
        t.outcome = r.outcome;
        t.error = e.error;
        t.durationMs = e.durationMs;
        t.arguments = e.arguments;
        // RoomKit stores arguments as a JSON object, so they always parse.
        if (!e.arguments.isEmpty())
            t.argumentsValid = true;
        t.result = e.result;
        if (m_feed.pair(t))
            r.flags |= EventFlags::Folded; // shown inside its call's card, at the start's place
    }
    m_responses->add(r);
    if (!m_feed.add({ r, e.payload, e.body, e.arguments, e.result }))
        skipped(); // already in the workspace
}

void RoomKitRows::finish()
{
    m_responses->write(m_feed); // the last ones, committed with the room's last rows
    m_feed.setSynced(m_synced);
}
