#include "callsalong.h"

#include "recordreader.h"
#include "workspace.h"

CallsAlong::CallsAlong(Workspace& ws, qint64 roomId)
    : m_sql((QStringLiteral("SELECT ") + RecordReader::CallColumns
                + QStringLiteral(" FROM tool_calls WHERE room_id = ? ORDER BY coalesce(start_seq, end_seq, result_seq), id"))
                .toUtf8())
    , m_read(ws.handle(), m_sql.constData())
{
    m_read.bind(1, roomId);
    m_more = m_read.step();
}

const ToolCallRecord* CallsAlong::at(qint64 index)
{
    // Take in every call whose first row is this one or one before it.
    while (m_more) {
        if (!m_next)
            m_next = RecordReader::call(m_read);
        if (firstRow(*m_next) > index)
            break;
        hold(*m_next);
        m_next.reset();
        m_more = m_read.step();
    }
    // Rows passed (or left out by the filter) are let go.
    while (!m_ahead.isEmpty() && m_ahead.firstKey() < index)
        m_ahead.erase(m_ahead.begin());
    const auto it = m_ahead.constFind(index);
    return it == m_ahead.constEnd() ? nullptr : &*it;
}

qint64 CallsAlong::firstRow(const ToolCallRecord& c)
{
    return c.startIndex ? *c.startIndex : c.endIndex ? *c.endIndex : c.resultIndex.value_or(0);
}

void CallsAlong::hold(const ToolCallRecord& c)
{
    for (const std::optional<qint64>& row : { c.startIndex, c.endIndex, c.resultIndex }) {
        if (row)
            m_ahead.insert(*row, c);
    }
}
