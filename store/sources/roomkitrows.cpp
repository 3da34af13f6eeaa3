#include "roomkitrows.h"

#include "../eventflags.h"
#include "../eventkind.h"
#include "../runrecord.h"
#include "../sqlitestatement.h"
#include "../toolpairer.h"
#include "../workspace.h"
#include "roomfeed.h"

#include <QHash>
#include <optional>
#include <QSet>
#include <utility>

// One AI response per correlation id, from its first to its last row: the runs the room had, stretched by the
// rows read since, kept as they stream by (a GROUP BY over the room after each import cost a fourteenth of it)
// and written with every commit (only the ones its rows changed).
//
// Only the responses of the rows read lately are held. The rest are in the runs table, written, and found there by
// runs_room_group when a row of theirs comes again (a resumed import, a sync, a correlation id met long after).
// Holding every response of the room read was 1.4 million of them at ten million events: 250 MB of a 425 MB peak.
class RoomKitRows::Responses
{
public:
    Responses(Workspace& ws, qint64 roomId)
        : m_stored(ws.handle(),
              "SELECT id, first_seq, last_seq, started_us, ended_us FROM runs "
              "WHERE room_id = ?1 AND group_id = ?2 AND kind = 'ai_response' ORDER BY id DESC LIMIT 1")
        , m_roomId(roomId)
    {
    }

    void add(const EventRecord& r)
    {
        if (r.groupId.isEmpty())
            return;
        auto it = m_spans.find(r.groupId);
        if (it == m_spans.end()) {
            if (const std::optional<Span> stored = storedSpan(r.groupId)) {
                it = m_spans.insert(r.groupId, *stored);
            } else {
                m_spans.insert(r.groupId, { r.index, r.index, r.createdMicros, r.createdMicros, 0 });
                m_changed.insert(r.groupId);
                return;
            }
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

    // Writes the responses changed since the last call; then, when many are held, lets the written ones go.
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
        if (m_spans.size() > Held)
            m_spans.clear(); // every one is written: the table has them all
    }

    qsizetype held() const { return m_spans.size(); }

private:
    static constexpr qsizetype Held = 4096; // a batch's responses (20,000 rows) and more
    struct Span
    {
        qint64 first, last, firstUs, lastUs;
        qint64 rowId; // its row in runs, 0 until written
    };

    std::optional<Span> storedSpan(const QString& group)
    {
        m_stored.bind(1, m_roomId);
        m_stored.bind(2, group);
        std::optional<Span> span;
        if (m_stored.step()) {
            span = Span { m_stored.isNull(1) ? 0 : m_stored.int64(1), m_stored.isNull(2) ? 0 : m_stored.int64(2),
                m_stored.isNull(3) ? 0 : m_stored.int64(3), m_stored.isNull(4) ? 0 : m_stored.int64(4),
                m_stored.int64(0) };
        }
        m_stored.reset();
        return span;
    }

    SqliteStatement m_stored;
    qint64 m_roomId;
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
    if (r.index == m_lastIndex) {
        m_feed.note(place(), ImportWriter::skippedRow(r.nativeId));
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
    m_feed.add({ r, e.payload, e.body, e.arguments, e.result, e.packedPayload }, true); // noted if already there
}

void RoomKitRows::finish()
{
    m_responses->write(m_feed); // the last ones, committed with the room's last rows
    m_feed.setSynced(m_synced);
}
