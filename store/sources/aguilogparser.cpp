#include "aguilogparser.h"

#include "filelines.h"
#include "importreport.h"

#include "../eventflags.h"
#include "../jsontext.h"

#include <QBuffer>
#include <cctype>
#include <cstring>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSet>
#include <QStringDecoder>

namespace {

// AG-UI's EventType, 33 values (SOURCES.md §3.2).
const QSet<QString>& knownTypes()
{
    static const QSet<QString> types = [] {
        QSet<QString> set;
        for (const char* t : { "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "TEXT_MESSAGE_CHUNK",
                 "TOOL_CALL_START", "TOOL_CALL_ARGS", "TOOL_CALL_END", "TOOL_CALL_CHUNK", "TOOL_CALL_RESULT",
                 "THINKING_START", "THINKING_END", "THINKING_TEXT_MESSAGE_START", "THINKING_TEXT_MESSAGE_CONTENT",
                 "THINKING_TEXT_MESSAGE_END", "STATE_SNAPSHOT", "STATE_DELTA", "MESSAGES_SNAPSHOT", "ACTIVITY_SNAPSHOT",
                 "ACTIVITY_DELTA", "RAW", "CUSTOM", "RUN_STARTED", "RUN_FINISHED", "RUN_ERROR", "STEP_STARTED",
                 "STEP_FINISHED", "REASONING_START", "REASONING_MESSAGE_START", "REASONING_MESSAGE_CONTENT",
                 "REASONING_MESSAGE_END", "REASONING_MESSAGE_CHUNK", "REASONING_END", "REASONING_ENCRYPTED_VALUE" })
            set.insert(QLatin1String(t));
        return set;
    }();
    return types;
}

} // namespace

namespace AguiLogParser {

AguiLine readLine(const QByteArray& raw, qint64 lineNumber, bool last)
{
    AguiLine line;
    line.lineNumber = lineNumber;
    line.raw = raw;
    QByteArray utf8 = raw;
    bool invalid = false;
    const QString text = JsonText::decodeUtf8(raw, &invalid);
    if (invalid) {
        line.flags |= EventFlags::InvalidUtf8;
        line.problem = QStringLiteral("invalid UTF-8 (kept byte for byte)");
        utf8 = text.toUtf8();
    }
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(utf8, &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject()) {
        line.flags |= EventFlags::MalformedJson;
        QString what = error.error != QJsonParseError::NoError
            ? QStringLiteral("not JSON (at byte %1: %2)").arg(error.offset).arg(error.errorString())
            : QStringLiteral("not a JSON object");
        if (last && error.error != QJsonParseError::NoError)
            what = ImportReport::UnfinishedLastLine
                + QStringLiteral(" (no newline: cut short, or still being written, when it is read again whole), ") + what;
        line.problem = line.problem.isEmpty() ? what : line.problem + QStringLiteral("; ") + what;
        return line;
    }
    QJsonObject object = doc.object();
    const QJsonValue inner = object.value(QLatin1String("event"));
    if (!object.contains(QLatin1String("type")) && inner.isObject()) {
        const QJsonValue thread = object.contains(QLatin1String("threadId")) ? object.value(QLatin1String("threadId"))
                                                                             : object.value(QLatin1String("thread_id"));
        line.threadId = thread.toString();
        object = inner.toObject();
    }
    line.event = object;
    if (!object.value(QLatin1String("type")).isString()) {
        const QString what = QStringLiteral("an event without a type");
        line.problem = line.problem.isEmpty() ? what : line.problem + QStringLiteral("; ") + what;
    }
    return line;
}


bool isKnownType(const QString& type)
{
    return knownTypes().contains(type);
}

bool forEachLine(QIODevice& device, const LineTaker& take, qint64 firstLineNumber, qint64* lastLineNumber)
{
    qint64 lineNumber = firstLineNumber - 1;
    return FileLines::forEach(device, [&](const QByteArray& bytes, qint64 offset) {
        ++lineNumber;
        if (lastLineNumber)
            *lastLineNumber = lineNumber;
        const bool last = !bytes.endsWith('\n');
        qsizetype size = bytes.size() - (last ? 0 : 1);
        if (size > 0 && bytes[size - 1] == '\r')
            --size;
        for (qsizetype k = 0; k < size; ++k) {
            if (!std::isspace(static_cast<unsigned char>(bytes[k])))
                return take(QByteArray::fromRawData(bytes.constData(), size), lineNumber, last, offset);
        }
        return true; // a blank line
    });
}

QVector<AguiLine> parse(const QByteArray& content)
{
    QVector<AguiLine> lines;
    QByteArray bytes = content;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::ReadOnly);
    forEachLine(buffer, [&](const QByteArray& raw, qint64 lineNumber, bool last, qint64) {
        lines.append(readLine(QByteArray(raw.constData(), raw.size()), lineNumber, last));
        return true;
    });
    return lines;
}

bool looksLikeAgui(const QByteArray& head)
{
    const QByteArray trimmed = head.trimmed();
    if (!trimmed.startsWith('{'))
        return false;
    const qsizetype end = trimmed.indexOf('\n');
    if (end >= 0 || head.size() < 65536) {
        const AguiLine line = readLine(trimmed.left(end < 0 ? trimmed.size() : end), 1, false);
        return !(line.flags & EventFlags::MalformedJson)
            && isKnownType(line.event.value(QLatin1String("type")).toString());
    }
    // A first line longer than the head (a RUN_STARTED carrying a long history): look for its type.
    static const QRegularExpression type(QStringLiteral("\"type\"\\s*:\\s*\"([A-Z_]+)\""));
    const QRegularExpressionMatch match = type.match(QString::fromUtf8(trimmed));
    return match.hasMatch() && isKnownType(match.captured(1));
}

} // namespace AguiLogParser
