#include "aguiloggenerator.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>
#include <cstdlib>
#include <QTextStream>

namespace {

// The ids a line carries (runs, messages, calls), wherever they sit in it: renamed in each repetition.
void collectIds(const QJsonValue& value, QSet<QString>& ids)
{
    static const QSet<QString> keys = { QStringLiteral("runId"), QStringLiteral("parentRunId"),
        QStringLiteral("messageId"), QStringLiteral("parentMessageId"), QStringLiteral("toolCallId"),
        QStringLiteral("id") };
    if (value.isObject()) {
        const QJsonObject o = value.toObject();
        for (auto it = o.begin(); it != o.end(); ++it) {
            if (keys.contains(it.key()) && it.value().isString() && it.value().toString().size() >= 6)
                ids.insert(it.value().toString());
            collectIds(it.value(), ids);
        }
    } else if (value.isArray()) {
        for (const QJsonValue& v : value.toArray())
            collectIds(v, ids);
    }
}

struct TemplateLine
{
    QByteArray raw;
    QVector<QByteArray> ids; // quoted, as they appear in the line
};

} // namespace

namespace AguiLogGenerator {

void write(const QString& path, qint64 events, const QString& templateDir)
{
    QVector<TemplateLine> lines;
    QSet<QByteArray> threads;
    for (const QFileInfo& f : QDir(templateDir).entryInfoList({ QStringLiteral("*.jsonl") }, QDir::Files, QDir::Name)) {
        QFile file(f.filePath());
        if (!file.open(QIODevice::ReadOnly))
            continue;
        threads.insert('"' + f.completeBaseName().toUtf8() + '"');
        for (const QByteArray& raw : file.readAll().split('\n')) {
            if (raw.trimmed().isEmpty())
                continue;
            TemplateLine line { raw, {} };
            QSet<QString> ids;
            collectIds(QJsonDocument::fromJson(raw).object(), ids);
            for (const QString& id : std::as_const(ids))
                line.ids << '"' + id.toUtf8() + '"';
            lines << line;
        }
    }
    if (lines.isEmpty()) {
        QTextStream(stderr) << "sightline_bench: no AG-UI thread logs in " << templateDir << Qt::endl;
        std::exit(1);
    }
    // Times move on by a day each repetition; every thread is the generated one.
    static const QRegularExpression time(QStringLiteral("\"(timestamp|createdAt)\":(\\d{13})"));
    QFile out(path);
    if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        QTextStream(stderr) << "sightline_bench: cannot write " << path << Qt::endl;
        std::exit(1);
    }
    const QByteArray thread = "\"th_bench\"";
    QByteArray buffer;
    qint64 written = 0;
    for (qint64 round = 0; written < events; ++round) {
        const QByteArray suffix = "_r" + QByteArray::number(round) + '"';
        const qint64 shift = round * 86400000;
        for (const TemplateLine& line : std::as_const(lines)) {
            if (written == events)
                break;
            QByteArray raw = line.raw;
            for (const QByteArray& id : line.ids)
                raw.replace(id, QByteArray(id.left(id.size() - 1) + suffix));
            for (const QByteArray& t : std::as_const(threads))
                raw.replace(t, thread);
            QString text = QString::fromUtf8(raw);
            QRegularExpressionMatchIterator it = time.globalMatch(text);
            QString moved;
            qsizetype from = 0;
            while (it.hasNext()) {
                const QRegularExpressionMatch m = it.next();
                moved += QStringView(text).mid(from, m.capturedStart(2) - from);
                moved += QString::number(m.captured(2).toLongLong() + shift);
                from = m.capturedEnd(2);
            }
            moved += QStringView(text).mid(from);
            buffer += moved.toUtf8() + '\n';
            ++written;
            if (buffer.size() > (4 << 20)) {
                out.write(buffer);
                buffer.clear();
            }
        }
    }
    out.write(buffer);
}

} // namespace AguiLogGenerator
