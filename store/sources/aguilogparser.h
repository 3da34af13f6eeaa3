#pragma once

#include "../textpacker.h"

#include <functional>
#include <QByteArray>
#include <QIODevice>
#include <QJsonObject>
#include <QString>
#include <QVector>

// One line of an AG-UI event log as kaboo-runtime's readEvents returns it (JSON Lines).
struct AguiLine
{
    qint64 lineNumber = 0; // 1-based, in the file
    QByteArray raw; // the line's bytes, verbatim
    QJsonObject event; // empty when the line is not a JSON object
    QString threadId; // from a {threadId, event} wrapper line; empty otherwise
    int flags = 0; // EventFlags::MalformedJson, InvalidUtf8
    QString problem; // empty when the line read cleanly
    PackedValue packedPayload; // the line as it is to be stored, when the reading thread packed it (AguiReader)
};

// Splits a JSON Lines file into events. Never fails: a line that is not JSON (a truncated last line, a line
// of another kind) is kept, flagged and described; blank lines are skipped. Also reads the wrapped form a
// dump of kaboo_thread_events gives, one {"threadId"|"thread_id", "event": {...}} object per line.
namespace AguiLogParser {
QVector<AguiLine> parse(const QByteArray& content);
// The non-blank lines of a log as it is read from the device's position on, a chunk at a time: each line's bytes
// (without its line break; valid only during the call, not copied: copy what is kept), its number (the first line
// read is `firstLineNumber`), whether it is the last one and ends without a newline, and the device position it
// starts at. `take` returns false to stop; so does this then. `lastLineNumber`: the number of the last line split,
// blank or not.
using LineTaker = std::function<bool(const QByteArray& raw, qint64 lineNumber, bool last, qint64 offset)>;
bool forEachLine(QIODevice& device, const LineTaker& take, qint64 firstLineNumber = 1, qint64* lastLineNumber = nullptr);
// One event's bytes (a line of a file, or a row of kaboo_thread_events): `last` says it ends the file without a
// newline, so a parse error there is a truncated last line.
AguiLine readLine(const QByteArray& raw, qint64 lineNumber, bool last = false);
// Whether the start of a file looks like an AG-UI event log: its first line is an object with an AG-UI
// event type (or a wrapper around one).
bool looksLikeAgui(const QByteArray& head);
bool isKnownType(const QString& type);
} // namespace AguiLogParser
