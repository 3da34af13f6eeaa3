#include "smallfile.h"

#include "storeerror.h"

#include <QFile>
#include <QFileInfo>

#include <sys/stat.h>

QString SmallFile::notRegular(const QString& path)
{
    struct stat st;
    // stat, not lstat: a link to a report is a fair way to name it; what it points at is what gets read.
    if (::stat(QFile::encodeName(path).constData(), &st) != 0)
        return {}; // not there, or unreadable: opening it says which
    if (S_ISREG(st.st_mode))
        return {};
    if (S_ISDIR(st.st_mode))
        return QStringLiteral("a folder, not a file");
    if (S_ISFIFO(st.st_mode))
        return QStringLiteral("a pipe (FIFO), not a regular file");
    if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))
        return QStringLiteral("a device, not a regular file");
    if (S_ISSOCK(st.st_mode))
        return QStringLiteral("a socket, not a regular file");
    return QStringLiteral("not a regular file");
}

QByteArray SmallFile::read(const QString& path, const QString& what, qint64 limit)
{
    // Checked before opening: opening a FIFO for reading blocks until a writer comes.
    if (const QString why = notRegular(path); !why.isEmpty())
        throw StoreError(path, {}, QStringLiteral("cannot read the ") + what + QStringLiteral(": ") + why);
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw StoreError(path, {}, QStringLiteral("cannot read the ") + what + QStringLiteral(": ") + file.errorString());
    // One byte past the limit tells a file that is too big from one that is exactly as big as allowed, whatever
    // size() said (a file still growing).
    const QByteArray bytes = file.read(limit + 1);
    if (bytes.size() > limit)
        throw StoreError(path, {},
            QStringLiteral("cannot read the ") + what + QStringLiteral(": bigger than ") + QString::number(limit)
                + QStringLiteral(" bytes, more than any ") + what + QStringLiteral(" Sightline writes"));
    return bytes;
}
