#pragma once

#include <QThread>

class StoreWorker;

// Runs a StoreWorker on a thread of its own, a second one for counts and a third for imports: a count grows with
// the room while a page does not, so pages never wait behind counts, and neither waits for an import (WAL lets
// the readers read what the importer has committed while it writes). Each worker's
// workspace is closed on its own thread before it stops (a QtSql connection belongs to its thread).
class StoreThread : public QObject
{
    Q_OBJECT
public:
    explicit StoreThread(QObject* parent = nullptr);
    ~StoreThread() override;

    StoreWorker* worker() const { return m_worker; }
    StoreWorker* counter() const { return m_counter; } // open the workspace here after worker() has opened it
    // Imports on a connection of their own, so that the window reads what is committed while the rest imports.
    StoreWorker* importer() const { return m_importer; }

private:
    QThread m_thread;
    QThread m_countThread;
    QThread m_importThread;
    StoreWorker* m_worker;
    StoreWorker* m_counter;
    StoreWorker* m_importer;
};
