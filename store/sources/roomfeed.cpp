#include "roomfeed.h"

RoomFeed::RoomFeed(ImportWriter& writer, const RoomCursor& room)
    : m_writer(writer)
    , m_room(room)
    , m_synced(room.syncedSeq)
{
    m_writer.setBeforeCommit([this] { writeDerived(); });
}

RoomFeed::~RoomFeed()
{
    m_writer.setBeforeCommit({}); // it calls into this feed
}

void RoomFeed::add(const StoredEvent& row, bool noteIfSkipped)
{
    m_writer.insert(row, noteIfSkipped);
    if (m_streamed && !m_checkpointed && m_writer.roomCommits() > 0) {
        // After a big room's first batch (its calls and turns committed with it), the room is counted for a
        // reader: the first screen of a source never opened before shows while the rest of it imports.
        m_checkpointed = true;
        m_writer.checkpointRoom(std::max(m_synced, row.record.index));
    }
}

void RoomFeed::addAfterCursor(const QVector<StoredEvent>& rows)
{
    for (const StoredEvent& row : rows) {
        if (stopped())
            break;
        place(row);
    }
    flushHeld();
}

void RoomFeed::place(const StoredEvent& row)
{
    constexpr qsizetype CompareRows = 2000;
    if (row.record.index > m_room.syncedSeq) {
        flushHeld();
        add(row);
        return;
    }
    if (row.record.index == m_room.syncedSeq)
        renew(row); // a last line or record the writer had not finished then
    m_held.append(row);
    if (m_held.size() >= CompareRows)
        flushHeld();
}

void RoomFeed::flushHeld()
{
    if (m_held.isEmpty())
        return;
    m_writer.compareStored(m_held);
    m_held.clear();
}

bool RoomFeed::pair(const ToolEvent& event)
{
    if (!m_pairer)
        reopenCalls();
    return m_pairer->add(event);
}

// The calls the room's last sync (or a killed import) left open go back in the pairer: what this import reads may
// close them. Their rows stay in the table until an end closes them.
void RoomFeed::reopenCalls()
{
    m_pairer.emplace();
    for (const ToolCallRecord& c : m_writer.openCalls()) {
        ToolEvent e;
        e.isStart = true;
        e.toolName = c.toolName;
        e.toolId = c.toolId;
        e.correlationId = c.groupId;
        e.index = *c.startIndex;
        e.createdMicros = c.startMicros.value_or(0);
        e.contentStatus = c.status;
        e.arguments = c.arguments;
        e.argumentsValid = c.argumentsValid;
        m_pairer->add(e);
        m_openInTable.insert(e.index);
    }
    m_pairer->takeOpened(); // already in the table
}

void RoomFeed::writeDerived()
{
    if (m_pairer) {
        const ToolCallRecords settled = m_pairer->takeSettled();
        for (const ToolCallRecord& c : settled) {
            if (c.startIndex && m_openInTable.remove(*c.startIndex))
                m_writer.deleteOpenCall(*c.startIndex); // a start an earlier commit wrote open, closed now
        }
        m_writer.insertToolCalls(settled);
        const ToolCallRecords opened = m_pairer->takeOpened();
        for (const ToolCallRecord& c : opened)
            m_openInTable.insert(*c.startIndex);
        m_writer.insertToolCalls(opened);
    }
    if (m_beforeCommit)
        m_beforeCommit();
}

void RoomFeed::replaceCalls(const ToolCallRecords& calls)
{
    m_writer.deleteToolCalls(false);
    m_writer.insertToolCalls(calls);
}
