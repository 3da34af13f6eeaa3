#include "eventmdparser.h"

#include "../eventflags.h"
#include "../jsontext.h"
#include "filelines.h"

#include <QBuffer>
#include <QDate>
#include <QStringDecoder>

namespace {

// "[2026/05/04 07:59:07] [": 23 bytes, checked by hand (this runs on every line of a 10 MB log).
bool isRecordStart(const QByteArray& line)
{
    static const char pattern[] = "[0000/00/00 00:00:00] [";
    if (line.size() < 23)
        return false;
    for (int i = 0; i < 23; ++i) {
        const char want = pattern[i];
        const char c = line[i];
        if (want == '0' ? (c < '0' || c > '9') : c != want)
            return false;
    }
    return line.indexOf("]: ", 23) > 0 || line.trimmed().endsWith("]:");
}

qint64 micros(const QByteArray& line)
{
    auto number = [&line](int from, int count) { return line.mid(from, count).toInt(); };
    const QDate date(number(1, 4), number(6, 2), number(9, 2));
    if (!date.isValid())
        return 0;
    const qint64 days = date.toJulianDay() - QDate(1970, 1, 1).toJulianDay();
    return (days * 86400 + number(12, 2) * 3600 + number(15, 2) * 60 + number(18, 2)) * 1000000;
}

QString decode(const QByteArray& bytes, int& flags)
{
    bool invalid = false;
    QString text = JsonText::decodeUtf8(bytes, &invalid);
    if (invalid)
        flags |= EventFlags::InvalidUtf8;
    return text;
}

void finish(EventMdRecord& r)
{
    QByteArray body = r.raw;
    if (body.endsWith('\n'))
        body.chop(1); // the record's own line end; a message that ends with a newline keeps that one
    if (!r.partial) {
        const qsizetype colon = body.indexOf("]: ", 23);
        const qsizetype split = colon > 0 ? colon : body.indexOf("]:", 23);
        r.kind = decode(body.mid(23, split - 23), r.flags);
        body = body.mid(split + (colon > 0 ? 3 : 2));
    }
    r.message = decode(body, r.flags);
}

} // namespace

namespace EventMdParser {

bool forEachRecord(QIODevice& device, const RecordTaker& take, QString* header, qint64 firstLine)
{
    const qint64 startAt = device.pos();
    qint64 lineNumber = firstLine - 1;
    QByteArray before; // the lines before the first record
    EventMdRecord current;
    qint64 currentAt = 0;
    bool open = false;
    const bool whole = FileLines::forEach(device, [&](const QByteArray& line, qint64 lineAt) {
        ++lineNumber;
        if (isRecordStart(line)) {
            if (open) {
                finish(current);
                if (!take(std::move(current), currentAt))
                    return false;
            } else if (!before.isEmpty()) {
                if (before.trimmed().startsWith('#')) {
                    int flags = 0;
                    if (header)
                        *header = decode(before, flags);
                } else {
                    EventMdRecord partial;
                    partial.partial = true;
                    partial.firstLine = firstLine;
                    partial.lastLine = lineNumber - 1;
                    partial.raw = before;
                    partial.kind = QStringLiteral("(cut by rotation)");
                    finish(partial);
                    if (!take(std::move(partial), startAt))
                        return false;
                }
                before.clear();
            }
            current = EventMdRecord();
            current.firstLine = current.lastLine = lineNumber;
            current.micros = micros(line);
            current.wholeSeconds = true;
            current.raw = QByteArray(line.constData(), line.size());
            currentAt = lineAt;
            open = true;
        } else if (open) {
            current.raw += line;
            current.lastLine = lineNumber;
        } else {
            before += line;
        }
        return true;
    });
    if (!whole)
        return false;
    if (open) {
        finish(current);
        return take(std::move(current), currentAt);
    }
    if (!before.trimmed().isEmpty() && !before.trimmed().startsWith('#')) {
        EventMdRecord partial;
        partial.partial = true;
        partial.firstLine = firstLine;
        partial.lastLine = lineNumber;
        partial.raw = before;
        partial.kind = QStringLiteral("(cut by rotation)");
        finish(partial);
        return take(std::move(partial), startAt);
    }
    int flags = 0;
    if (header)
        *header = decode(before, flags);
    return true;
}

EventMdFile parse(const QByteArray& content)
{
    EventMdFile file;
    QBuffer buffer;
    buffer.setData(content);
    buffer.open(QIODevice::ReadOnly);
    forEachRecord(
        buffer,
        [&file](EventMdRecord&& record, qint64) {
            file.records.append(std::move(record));
            return true;
        },
        &file.header);
    return file;
}

qint64 countRecords(QIODevice& device)
{
    // As forEachRecord: the bytes before the first record are a header when their first non-blank character is
    // '#', else a partial record (when a record follows them, or when they hold more than blanks).
    qint64 count = 0;
    bool anyBefore = false;
    bool blankBefore = true;
    bool header = false;
    FileLines::forEach(device, [&](const QByteArray& line, qint64) {
        if (isRecordStart(line)) {
            if (count == 0 && anyBefore && !header)
                ++count; // the partial record
            ++count;
        } else if (count == 0) {
            anyBefore = true;
            if (blankBefore && !line.trimmed().isEmpty()) {
                blankBefore = false;
                header = line.trimmed().startsWith('#');
            }
        }
        return true;
    });
    if (count == 0 && !blankBefore && !header)
        return 1;
    return count;
}

bool looksLikeEventMd(const QByteArray& head)
{
    if (head.startsWith("# Event Log") || head.startsWith("# Unprocessed Event Log"))
        return true; // CraftBot's template, perhaps with no record yet
    // A record within the first lines (a rotated file starts with the tail of a record cut in half).
    qsizetype from = 0;
    for (int i = 0; i < 40 && from < head.size(); ++i) {
        qsizetype end = head.indexOf('\n', from);
        end = end < 0 ? head.size() : end + 1;
        if (isRecordStart(head.mid(from, end - from)))
            return true;
        from = end;
    }
    return false;
}

} // namespace EventMdParser
