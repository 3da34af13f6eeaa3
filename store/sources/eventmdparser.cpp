#include "eventmdparser.h"

#include "../eventflags.h"
#include "../jsontext.h"

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

EventMdFile parse(const QByteArray& content)
{
    EventMdFile file;
    QByteArray before;
    qint64 lineNumber = 0;
    qsizetype from = 0;
    EventMdRecord current;
    bool open = false;
    while (from < content.size()) {
        qsizetype end = content.indexOf('\n', from);
        end = end < 0 ? content.size() : end + 1;
        const QByteArray line = content.mid(from, end - from);
        from = end;
        ++lineNumber;
        if (isRecordStart(line)) {
            if (open) {
                finish(current);
                file.records.append(current);
            } else if (!before.isEmpty()) {
                if (before.trimmed().startsWith('#')) {
                    int flags = 0;
                    file.header = decode(before, flags);
                } else {
                    EventMdRecord partial;
                    partial.partial = true;
                    partial.firstLine = 1;
                    partial.lastLine = lineNumber - 1;
                    partial.raw = before;
                    partial.kind = QStringLiteral("(cut by rotation)");
                    finish(partial);
                    file.records.append(partial);
                }
            }
            current = EventMdRecord();
            current.firstLine = current.lastLine = lineNumber;
            current.micros = micros(line);
            current.raw = line;
            open = true;
        } else if (open) {
            current.raw += line;
            current.lastLine = lineNumber;
        } else {
            before += line;
        }
    }
    if (open) {
        finish(current);
        file.records.append(current);
    } else if (!before.trimmed().isEmpty() && !before.trimmed().startsWith('#')) {
        EventMdRecord partial;
        partial.partial = true;
        partial.firstLine = 1;
        partial.lastLine = lineNumber;
        partial.raw = before;
        partial.kind = QStringLiteral("(cut by rotation)");
        finish(partial);
        file.records.append(partial);
    } else {
        int flags = 0;
        file.header = decode(before, flags);
    }
    return file;
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
