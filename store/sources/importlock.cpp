#include "importlock.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QThread>

ImportLock::ImportLock(const QString& workspacePath)
    : m_lock(lockPath(workspacePath))
{
    m_lock.setStaleLockTime(0); // an import may run for minutes: only a dead process's lock is stale
    if (m_lock.tryLock(0))
        return;
    qint64 pid = 0;
    QString host;
    QString application;
    // A lock file that names nobody: its process was killed between making it and writing its name in it
    // (QLockFile writes at once), so QLockFile can never tell it stale. Waited for up to a second and a half to name
    // its owner; still nameless then, nobody holds it.
    QElapsedTimer waited;
    waited.start();
    while (!m_lock.getLockInfo(&pid, &host, &application)) {
        const QFileInfo file(lockPath(workspacePath));
        if (!file.exists() || file.lastModified().msecsTo(QDateTime::currentDateTime()) > 1000
            || waited.elapsed() > 1500) {
            m_lock.removeStaleLockFile();
            if (m_lock.tryLock(0))
                return;
            break;
        }
        QThread::msleep(100);
        if (m_lock.tryLock(0))
            return;
    }
    throw WorkspaceBusy(workspacePath, {},
        QStringLiteral("another Sightline (process %1 on %2) is importing into this workspace; try again when it is "
                       "done")
            .arg(pid)
            .arg(host.isEmpty() ? QStringLiteral("this machine") : host));
}

QString ImportLock::lockPath(const QString& workspacePath)
{
    return workspacePath + QStringLiteral(".import-lock");
}
