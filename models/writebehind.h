#pragma once

#include <condition_variable>
#include <mutex>
#include <QByteArray>
#include <QIODevice>
#include <thread>

// A device that writes to another one on a thread of its own, a chunk at a time, while its writer goes on: a report
// of a million events is 1.7 GB, and the kernel's copy of it into the file was a fifth of the export, on the thread
// that reads the rows and writes the JSON. One chunk is written while the next fills, so memory stays at two chunks.
// The target is touched by that thread alone until finish(); a write that fails is said by the next write() (-1)
// and by finish().
class WriteBehind : public QIODevice
{
public:
    explicit WriteBehind(QIODevice& target, qsizetype chunk = 1 << 20);
    ~WriteBehind() override; // what is not written by then is dropped (an export that failed)
    WriteBehind(const WriteBehind&) = delete;
    WriteBehind& operator=(const WriteBehind&) = delete;

    bool isSequential() const override { return true; }
    // Writes what is left and waits for it; false (errorString() says why) when a write failed.
    bool finish();

protected:
    qint64 readData(char*, qint64) override { return -1; }
    qint64 writeData(const char* data, qint64 size) override;

private:
    bool handOver(); // the filled chunk to the thread, once it wrote the one before; false after a failed write
    void run();

    QIODevice& m_target;
    const qsizetype m_chunk;
    QByteArray m_filling; // this side's
    bool m_failed = false; // this side saw a write fail
    std::mutex m_mutex;
    std::condition_variable m_changed;
    QByteArray m_toWrite; // the thread's, handed over under the lock
    bool m_writing = false; // the thread holds a chunk
    bool m_stopping = false;
    QString m_failure; // the target's error, said once
    std::thread m_thread; // last: started once everything above is ready
};
