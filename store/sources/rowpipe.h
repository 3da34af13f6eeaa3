#pragma once

#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <QtGlobal>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

// Rows read and decoded on a thread of their own, handed to the writer in batches: decoding a row's JSON is a
// fifth of an import and the writer's SQLite work most of the rest, so on two cores the one hides the other.
// At most `capacity` batches wait, so memory stays bounded however far the reader gets ahead. Rows of very
// different sizes (an AG-UI snapshot line can be megabytes) are bounded by weight too: a batch also ends once its
// rows weigh `batchWeight` (weigh(row), in bytes), so the rows in flight weigh a few batches' worth.
//
// `produce(put)` runs on the reading thread and calls put(Row&&) for each row, in order; it stops early when
// put returns false (the writer stopped). What it throws is rethrown by next() on the writer's side, after
// the rows read before it.
template<typename Row> class RowPipe
{
public:
    using Weigh = std::function<qint64(const Row&)>;
    template<typename Produce>
    explicit RowPipe(Produce produce, int batchRows = 256, int capacity = 8, Weigh weigh = {}, qint64 batchWeight = 0)
        : m_batchRows(batchRows)
        , m_capacity(capacity)
    {
        m_thread = std::thread([this, produce = std::move(produce), weigh = std::move(weigh), batchWeight]() mutable {
            std::vector<Row> batch;
            batch.reserve(m_batchRows);
            qint64 weight = 0;
            try {
                produce([&](Row&& row) {
                    if (weigh)
                        weight += weigh(row);
                    batch.push_back(std::move(row));
                    if (int(batch.size()) < m_batchRows && (!weigh || weight < batchWeight))
                        return true;
                    const bool open = push(std::move(batch));
                    batch = {};
                    batch.reserve(m_batchRows);
                    weight = 0;
                    return open;
                });
            } catch (...) {
                std::lock_guard lock(m_mutex);
                m_error = std::current_exception();
            }
            if (!batch.empty()) // the rows read before the end, or before an error
                push(std::move(batch));
            std::lock_guard lock(m_mutex);
            m_finished = true;
            m_changed.notify_all();
        });
    }

    ~RowPipe()
    {
        {
            std::lock_guard lock(m_mutex);
            m_stopped = true;
            m_changed.notify_all();
        }
        m_thread.join();
    }

    RowPipe(const RowPipe&) = delete;
    RowPipe& operator=(const RowPipe&) = delete;

    // The next row, or nullptr at the end. The pointer stays valid until the next call.
    Row* next()
    {
        if (++m_at < m_current.size())
            return &m_current[m_at];
        std::unique_lock lock(m_mutex);
        m_changed.wait(lock, [this] { return !m_batches.empty() || m_finished; });
        if (m_batches.empty()) {
            if (m_error)
                std::rethrow_exception(std::exchange(m_error, nullptr));
            return nullptr;
        }
        // The rows just written go back to the reading thread to be freed: memory allocated on one thread and
        // freed on another costs glibc's allocator a lock per block.
        if (!m_current.empty())
            m_spent.push_back(std::move(m_current));
        m_current = std::move(m_batches.front());
        m_batches.pop_front();
        m_changed.notify_all();
        m_at = 0;
        return &m_current[0];
    }

private:
    bool push(std::vector<Row>&& batch)
    {
        std::deque<std::vector<Row>> spent;
        {
            std::lock_guard lock(m_mutex);
            spent.swap(m_spent);
        }
        spent.clear(); // outside the lock
        std::unique_lock lock(m_mutex);
        m_changed.wait(lock, [this] { return int(m_batches.size()) < m_capacity || m_stopped; });
        if (m_stopped)
            return false;
        m_batches.push_back(std::move(batch));
        m_changed.notify_all();
        return true;
    }

    const int m_batchRows;
    const int m_capacity;
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::deque<std::vector<Row>> m_batches;
    std::deque<std::vector<Row>> m_spent; // written, for the reading thread to free
    std::exception_ptr m_error;
    bool m_finished = false;
    bool m_stopped = false;
    std::vector<Row> m_current; // the writer's batch: touched only by next()
    size_t m_at = 0;
    std::thread m_thread; // last: started once everything above is ready
};
