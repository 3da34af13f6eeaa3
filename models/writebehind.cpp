#include "writebehind.h"

WriteBehind::WriteBehind(QIODevice& target, qsizetype chunk)
    : m_target(target)
    , m_chunk(chunk)
    , m_thread([this] { run(); })
{
    m_filling.reserve(m_chunk);
    open(QIODevice::WriteOnly | QIODevice::Unbuffered);
}

WriteBehind::~WriteBehind()
{
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
        m_toWrite.clear();
        m_changed.notify_all();
    }
    m_thread.join();
}

void WriteBehind::run()
{
    std::unique_lock lock(m_mutex);
    for (;;) {
        m_changed.wait(lock, [this] { return m_writing || m_stopping; });
        if (!m_writing)
            return;
        const QByteArray chunk = std::exchange(m_toWrite, QByteArray());
        lock.unlock();
        QString failure;
        if (m_failure.isEmpty() && m_target.write(chunk) != chunk.size())
            failure = m_target.errorString().isEmpty() ? QStringLiteral("it was not written whole") : m_target.errorString();
        lock.lock();
        if (m_failure.isEmpty())
            m_failure = failure;
        m_writing = false;
        m_changed.notify_all();
    }
}

bool WriteBehind::handOver()
{
    std::unique_lock lock(m_mutex);
    m_changed.wait(lock, [this] { return !m_writing; });
    if (!m_failure.isEmpty()) {
        setErrorString(m_failure);
        return false;
    }
    if (m_filling.isEmpty())
        return true;
    m_toWrite = std::exchange(m_filling, QByteArray());
    m_writing = true;
    m_changed.notify_all();
    lock.unlock();
    m_filling.reserve(m_chunk);
    return true;
}

qint64 WriteBehind::writeData(const char* data, qint64 size)
{
    if (m_failed)
        return -1; // nothing more is kept: the report is not written
    m_filling.append(data, size);
    if (m_filling.size() >= m_chunk && !handOver()) {
        m_failed = true;
        m_filling = QByteArray();
        return -1;
    }
    return size;
}

bool WriteBehind::finish()
{
    if (m_failed || !handOver())
        return false;
    std::unique_lock lock(m_mutex);
    m_changed.wait(lock, [this] { return !m_writing; });
    if (!m_failure.isEmpty()) {
        setErrorString(m_failure);
        return false;
    }
    return true;
}
