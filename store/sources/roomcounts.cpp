#include "roomcounts.h"

RoomCounts::RoomCounts(const SourceReader& reader, QVector<RoomCursor> rooms)
{
    m_thread = std::thread([this, &reader, rooms = std::move(rooms)] {
        try {
            reader.countApart(rooms, [this](const RoomCursor& room, qint64 rows) {
                std::lock_guard lock(m_mutex);
                m_ready.append({ room, rows });
                return !m_stop.load();
            });
        } catch (...) {
            std::lock_guard lock(m_mutex);
            m_error = std::current_exception();
        }
    });
}

RoomCounts::~RoomCounts()
{
    m_stop = true;
    if (m_thread.joinable())
        m_thread.join();
}

QVector<RoomCounts::Count> RoomCounts::take()
{
    std::lock_guard lock(m_mutex);
    return std::exchange(m_ready, {});
}

void RoomCounts::wait()
{
    if (m_thread.joinable())
        m_thread.join();
    std::lock_guard lock(m_mutex);
    if (m_error)
        std::rethrow_exception(std::exchange(m_error, nullptr));
}
