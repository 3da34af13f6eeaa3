#include "storethread.h"

#include "storeworker.h"

StoreThread::StoreThread(QObject* parent)
    : QObject(parent)
    , m_worker(new StoreWorker)
    , m_counter(new StoreWorker)
{
    m_thread.setObjectName(QStringLiteral("sightline-store"));
    m_countThread.setObjectName(QStringLiteral("sightline-counts"));
    for (auto [worker, thread] : { std::pair { m_worker, &m_thread }, std::pair { m_counter, &m_countThread } }) {
        worker->moveToThread(thread);
        connect(thread, &QThread::finished, worker, &QObject::deleteLater);
        thread->start();
    }
}

StoreThread::~StoreThread()
{
    m_worker->cancelImport();
    for (auto [worker, thread] : { std::pair { m_worker, &m_thread }, std::pair { m_counter, &m_countThread } }) {
        QMetaObject::invokeMethod(worker, &StoreWorker::closeWorkspace, Qt::BlockingQueuedConnection);
        thread->quit();
        thread->wait();
    }
}
