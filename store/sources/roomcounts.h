#pragma once

#include "sourcereader.h"

#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <QVector>

// The exact count of each room's rows after its cursor, taken while the import reads: on a thread of its own, with
// a source connection of its own (SourceReader::countApart). Ten thousand rooms of ten million rows took a second
// to count, and the first screen waited for it; the import orders the rooms and shows them by the reader's quick
// figures, and each room's count replaces its quick figure as it comes (Importer::run, at every commit).
class RoomCounts
{
public:
    struct Count
    {
        RoomCursor room;
        qint64 rows = 0;
    };

    // Starts counting `rooms`, in that order. The reader must outlive this object.
    RoomCounts(const SourceReader& reader, QVector<RoomCursor> rooms);
    // Stops after the room being counted, and waits for that.
    ~RoomCounts();
    RoomCounts(const RoomCounts&) = delete;
    RoomCounts& operator=(const RoomCounts&) = delete;

    // The counts that came since the last call, in the order they came.
    QVector<Count> take();
    // Waits until every room is counted. Throws what the count threw (a store that could not be read).
    void wait();

private:
    std::mutex m_mutex;
    QVector<Count> m_ready;
    std::exception_ptr m_error;
    std::atomic_bool m_stop = false;
    std::thread m_thread;
};
