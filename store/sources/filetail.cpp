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

} // namespace FileTail
