#include "filetail.h"

#include <QCryptographicHash>
#include <QFile>

namespace FileTail {

QByteArray hashBefore(QFile& file, qint64 offset)
{
    const qint64 from = std::max<qint64>(0, offset - 4096);
    if (!file.seek(from))
        return {};
    return QCryptographicHash::hash(file.read(offset - from), QCryptographicHash::Md5);
}

bool onlyGrew(QFile& file, qint64 offset, const QByteArray& hash)
{
    return file.size() >= offset && hashBefore(file, offset) == hash;
}

QString mark(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const qint64 size = file.size();
    return QString::number(size) + QLatin1Char(':') + QString::fromLatin1(hashBefore(file, size).toHex());
}

bool onlyGrewSince(const QString& path, const QString& mark)
{
    const qsizetype colon = mark.indexOf(QLatin1Char(':'));
    if (path.isEmpty() || colon < 0)
        return true;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return true; // the read says what is wrong with it
    return onlyGrew(file, mark.left(colon).toLongLong(), QByteArray::fromHex(mark.mid(colon + 1).toLatin1()));
}

} // namespace FileTail
