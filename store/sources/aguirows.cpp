#include "aguirows.h"

AguiRows::AguiRows(AguiAssembler::Sink& sink, qsizetype window)
    : m_sink(&sink)
    , m_window(window)
{
}

qint64 AguiRows::append()
{
    m_rows.emplace_back();
    return m_base + qint64(m_rows.size()) - 1;
}

StoredEvent AguiRows::takeOldest()
{
    StoredEvent out = std::move(m_rows.front());
    m_rows.pop_front();
    ++m_base;
    return out;
}

StoredEvent& AguiRows::row(qint64 i)
{
    if (i >= m_base)
        return m_rows[std::size_t(i - m_base)];
    auto it = m_recalled.find(i);
    if (it == m_recalled.end()) {
        it = m_recalled.insert(i, m_sink->recall(i));
        it->record.index = i;
        if (m_finishing)
            m_finishRecalls.insert(i, *it); // as it was before the log's end changed it
    }
    return *it;
}

void AguiRows::adopt(const QMap<qint64, StoredEvent>& rows)
{
    for (auto it = rows.cbegin(); it != rows.cend(); ++it) {
        if (it.key() < m_base && !m_recalled.contains(it.key()))
            m_recalled.insert(it.key(), it.value());
    }
}
