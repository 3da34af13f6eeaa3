#include "importlock.h"

#include <QByteArray>
#include <QFile>
#include <QSysInfo>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

QString systemError(int error)
{
    return QString::fromLocal8Bit(std::strerror(error));
}

// Whether the open file is still the one at the path: a holder that lets go unlinks the file, and a process that
// opened it just before then holds a lock on a file nobody else can find.
bool stillAtPath(int fd, const QByteArray& path)
{
    struct stat opened {};
    struct stat named {};
    return ::fstat(fd, &opened) == 0 && ::stat(path.constData(), &named) == 0 && opened.st_dev == named.st_dev
        && opened.st_ino == named.st_ino;
}

// "pid\nhost\n", as the holder wrote it; empty while it has not yet.
QString holderOf(int fd)
{
    char text[256] = {};
    const ssize_t read = ::pread(fd, text, sizeof text - 1, 0);
    const QList<QByteArray> lines = QByteArray(text, read > 0 ? int(read) : 0).split('\n');
    const qint64 pid = lines.value(0).toLongLong();
    const QString host = QString::fromUtf8(lines.value(1));
    if (pid <= 0)
        return QStringLiteral("another Sightline");
    return QStringLiteral("another Sightline (process %1 on %2)")
        .arg(pid)
        .arg(host.isEmpty() ? QStringLiteral("this machine") : host);
}

} // namespace

ImportLock::ImportLock(const QString& workspacePath)
    : m_path(lockPath(workspacePath))
{
    const QByteArray path = QFile::encodeName(m_path);
    // A few tries: each lost only to a holder letting go between our open and our lock.
    for (int attempt = 0; attempt < 100; ++attempt) {
        int fd = ::open(path.constData(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        if (fd < 0 && errno == EACCES) // another user's lock on a shared workspace still locks
            fd = ::open(path.constData(), O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            throw StoreError(m_path, {}, QStringLiteral("cannot make the import lock: %1").arg(systemError(errno)));
        if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
            const int error = errno;
            const QString holder = holderOf(fd);
            ::close(fd);
            if (error == EWOULDBLOCK)
                throw WorkspaceBusy(workspacePath, {},
                    QStringLiteral("%1 is importing into this workspace; try again when it is done").arg(holder));
            throw StoreError(m_path, {}, QStringLiteral("cannot lock for the import: %1").arg(systemError(error)));
        }
        if (!stillAtPath(fd, path)) {
            ::close(fd);
            continue;
        }
        const QByteArray holder = QByteArray::number(qint64(::getpid())) + '\n' + QSysInfo::machineHostName().toUtf8() + '\n';
        // Only the message needs it: a lock whose text could not be written still locks.
        if (::ftruncate(fd, 0) == 0 && ::pwrite(fd, holder.constData(), size_t(holder.size()), 0) != holder.size())
            (void)::ftruncate(fd, 0);
        m_fd = fd;
        return;
    }
    throw WorkspaceBusy(workspacePath, {},
        QStringLiteral("other Sightlines keep taking and leaving the import lock; try again when they are done"));
}

ImportLock::~ImportLock()
{
    // Unlinked before it is let go, so that nobody takes a lock on a file that is about to disappear.
    ::unlink(QFile::encodeName(m_path).constData());
    ::close(m_fd);
}

QString ImportLock::lockPath(const QString& workspacePath)
{
    return workspacePath + QStringLiteral(".import-lock");
}
