#pragma once

#include <QByteArray>
#include <QIODevice>
#include <functional>
#include <QString>
#include <QVector>

// One record of a CraftBot EVENT.md: "[YYYY/MM/DD HH:MM:SS] [kind]: message", the message running on over
// every following line up to the next record (SOURCES.md §2.4, §4.5.10).
struct EventMdRecord
{
    qint64 firstLine = 0; // 1-based
    qint64 lastLine = 0;
    qint64 micros = 0; // the line's UTC time, second precision; 0 for a record cut by rotation
    bool wholeSeconds = false; // whether micros is stamped to the second (EVENT.md), not the microsecond (sessions.db)
    QString kind; // exactly as written: "agent message to platform: Telegram"
    QString message; // the text after "]: ", continuation lines included, without the record's last newline
    QByteArray raw; // every byte of the record's lines, verbatim
    bool partial = false; // the lines before the first record: the tail of a record rotation cut in half
    int flags = 0; // EventFlags::InvalidUtf8
    QString severity; // sessions.db only: DEBUG, INFO, WARN, ERROR
    QString displayMessage; // sessions.db only
};

struct EventMdFile
{
    QString header; // CraftBot's template header ("# Event Log" ... "## Events"), when the file has one
    QVector<EventMdRecord> records;
};

// Splits an EVENT.md (or EVENT_UNPROCESSED.md) into records. Never fails: lines before the first record are
// the template header when they start with a markdown heading, else the remains of a record cut by rotation,
// kept as one partial record at index 0.
namespace EventMdParser {
// Hands each record of `device`, from its position on, to `take` with the offset of its first line, as the file is
// read a megabyte at a time; false from `take` stops (and is returned). Lines are numbered from `firstLine`; the
// header, when the lines before the first record are one, goes to `header`.
using RecordTaker = std::function<bool(EventMdRecord&& record, qint64 offset)>;
bool forEachRecord(QIODevice& device, const RecordTaker& take, QString* header = nullptr, qint64 firstLine = 1);
EventMdFile parse(const QByteArray& content); // the records of a log held whole (tests, fuzzing)
// How many records forEachRecord would hand over, without reading them (a line scan).
qint64 countRecords(QIODevice& device);
// Whether the start of a file looks like an EVENT.md: a record line, or CraftBot's header.
bool looksLikeEventMd(const QByteArray& head);
} // namespace EventMdParser
