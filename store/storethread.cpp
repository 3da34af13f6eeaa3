#include "storethread.h"

#include "storeworker.h"

StoreThread::StoreThread(QObject* parent)
    : QObject(parent)
    , m_worker(new StoreWorker)
{
    m_thread.setObjectName(QStringLiteral("sightline-store"));
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    m_thread.start();
}

StoreThread::~StoreThread()
{
    m_worker->cancelImport();
    QMetaObject::invokeMethod(m_worker, &StoreWorker::closeWorkspace, Qt::BlockingQueuedConnection);
    m_thread.quit();
    m_thread.wait();
}
