#pragma once

#include <QByteArray>
#include <QString>

// The whole of a small file that must be a regular file: a manifest, a signature, a key. verify reads what
// someone else handed over, so a FIFO, a device such as /dev/zero or a file of gigabytes must be refused with a
// word, never read until memory runs out or waited on for ever.
class SmallFile
{
public:
    // Why `path` is not a regular file (a folder, a FIFO, a device, a socket), or empty when it is one. A link
    // is followed: a link to a regular file is one.
    static QString notRegular(const QString& path);

    // The file's bytes, at most `limit` of them. Throws StoreError naming the file and `what` it was to be when
    // it cannot be opened, is not a regular file, or holds more than `limit` bytes.
    static QByteArray read(const QString& path, const QString& what, qint64 limit);

    static constexpr qint64 manifestLimit = 16 * 1024 * 1024; // a manifest lists a few files: kilobytes
    static constexpr qint64 keyLimit = 64 * 1024; // a PEM key or a base64 signature: well under a kilobyte
};
