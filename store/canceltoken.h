#pragma once

#include <atomic>
#include <memory>

// Handed to a long task of the store client (StoreClient::run): set when a newer request of the task's kind comes,
// or another workspace is opened. The task asks it between its own steps; what SQLite does for the task is stopped
// by the worker itself (a progress handler on the task's connection), so one long statement does not hold the
// connection for the request that superseded it. Copies share one flag.
class CancelToken
{
public:
    bool isCancelled() const { return m_flag->load(std::memory_order_relaxed); }
    void cancel() const { m_flag->store(true, std::memory_order_relaxed); }

private:
    std::shared_ptr<std::atomic_bool> m_flag = std::make_shared<std::atomic_bool>(false);
};
