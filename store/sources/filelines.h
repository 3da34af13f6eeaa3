#pragma once

#include <cstring>
#include <QByteArray>
#include <QIODevice>

// The lines of a device from its position on, read a megabyte at a time: a log of any size in bounded memory.
// `take(line, offset)` gets each line's bytes where they lie (valid for the call: a reader that keeps them copies
// them), its '\n' included (none on a last line the file does not end), and where it starts in the device; false from
// it stops, and is returned. A template: it runs on every line of logs of a gigabyte.
namespace FileLines {
template <typename Take>
bool forEach(QIODevice& device, Take&& take)
{
    constexpr qint64 Chunk = 1 << 20;
    QByteArray buffer;
    qint64 bufferAt = device.pos(); // the device's position of the buffer's first byte
    bool atEnd = false;
    while (!atEnd) {
        const QByteArray more = device.read(Chunk);
        atEnd = more.isEmpty();
        buffer += more;
        const char* data = buffer.constData();
        qsizetype from = 0;
        while (from < buffer.size()) {
            const void* newline = std::memchr(data + from, '\n', std::size_t(buffer.size() - from));
            if (!newline && !atEnd)
                break; // the rest of the line is in the next chunk
            const qsizetype end = newline ? static_cast<const char*>(newline) - data + 1 : buffer.size();
            const qsizetype at = from;
            from = end;
            if (!take(QByteArray::fromRawData(data + at, end - at), bufferAt + at))
                return false;
        }
        buffer.remove(0, from);
        bufferAt += from;
    }
    return true;
}
} // namespace FileLines
