#include "storethread.h"

#include "storeworker.h"

#include <array>

StoreThread::StoreThread(QObject* parent)
    : QObject(parent)
    , m_worker(new StoreWorker)
    , m_counter(new StoreWorker)
    , m_importer(new StoreWorker)
{
    m_thread.setObjectName(QStringLiteral("sightline-store"));
    m_countThread.setObjectName(QStringLiteral("sightline-counts"));
    m_importThread.setObjectName(QStringLiteral("sightline-import"));
    for (auto [worker, thread] : std::array { std::pair { m_worker, &m_thread },
             std::pair { m_counter, &m_countThread }, std::pair { m_importer, &m_importThread } }) {
        worker->moveToThread(thread);
        connect(thread, &QThread::finished, worker, &QObject::deleteLater);
        thread->start();
    }
}

StoreThread::~StoreThread()
{
    m_importer->shutDown(); // it stops after its current batch; what was committed stays
    for (auto [worker, thread] : std::array { std::pair { m_worker, &m_thread },
             std::pair { m_counter, &m_countThread }, std::pair { m_importer, &m_importThread } }) {
        QMetaObject::invokeMethod(worker, &StoreWorker::closeWorkspace, Qt::BlockingQueuedConnection);
        thread->quit();
        thread->wait();
    }
}
