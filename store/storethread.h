#pragma once

#include <QThread>

class StoreWorker;

// Runs a StoreWorker on a thread of its own, and a second one for counts: a count grows with the room while a
// page does not, so pages never wait behind counts (WAL lets both connections read at once). Each worker's
// workspace is closed on its own thread before it stops (a QtSql connection belongs to its thread).
class StoreThread : public QObject
{
    Q_OBJECT
public:
    explicit StoreThread(QObject* parent = nullptr);
    ~StoreThread() override;

    StoreWorker* worker() const { return m_worker; }
    StoreWorker* counter() const { return m_counter; } // open the workspace here after worker() has opened it

private:
    QThread m_thread;
    QThread m_countThread;
    StoreWorker* m_worker;
    StoreWorker* m_counter;
};
