#pragma once

#include <QByteArray>

class QFile;

// How a reader tells that a log it read up to an offset has only grown since (a followed log appended to): a hash
// of the 4 KB just before the offset is the same, and the file is at least that long.
namespace FileTail {
QByteArray hashBefore(QFile& file, qint64 offset); // moves the file's position
bool onlyGrew(QFile& file, qint64 offset, const QByteArray& hash);
// The same across processes, kept in the workspace (rooms.file_mark): the file's size and that hash, as text.
QString mark(const QString& path); // empty when the file cannot be read
// Whether the file at `path` has only grown since `mark` was taken of it (true without a mark: nothing to tell).
bool onlyGrewSince(const QString& path, const QString& mark);
} // namespace FileTail
