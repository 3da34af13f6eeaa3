#pragma once

#include <QThread>

class StoreWorker;

// Runs a StoreWorker on a thread of its own, and closes its workspace on that thread before stopping it
// (a QtSql connection must be closed by the thread that opened it).
class StoreThread : public QObject
{
    Q_OBJECT
public:
    explicit StoreThread(QObject* parent = nullptr);
    ~StoreThread() override;

    StoreWorker* worker() const { return m_worker; }

private:
    QThread m_thread;
    StoreWorker* m_worker;
};
