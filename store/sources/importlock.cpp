#include "importlock.h"

ImportLock::ImportLock(const QString& workspacePath)
    : m_lock(lockPath(workspacePath))
{
    m_lock.setStaleLockTime(0); // an import may run for minutes: only a dead process's lock is stale
    if (m_lock.tryLock(0))
        return;
    qint64 pid = 0;
    QString host;
    QString application;
    m_lock.getLockInfo(&pid, &host, &application);
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
