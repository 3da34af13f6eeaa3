#include "eventmdgenerator.h"

#include "sources/eventmdparser.h"

#include <QDateTime>
#include <QFile>
#include <QRegularExpression>
#include <QSet>
#include <QTextStream>
#include <QTimeZone>
#include <cstdlib>

namespace EventMdGenerator {

void write(const QString& path, qint64 records, const QString& templateFile, qint64 firstRound)
{
    QFile in(templateFile);
    if (!in.open(QIODevice::ReadOnly)) {
        QTextStream(stderr) << "sightline_bench: cannot read " << templateFile << Qt::endl;
        std::exit(1);
    }
    const EventMdFile log = EventMdParser::parse(in.readAll());
    QVector<QByteArray> raws;
    QSet<QByteArray> ids;
    static const QRegularExpression idPattern(QStringLiteral("\"(?:_session_id|task_id)\": \"([^\"]+)\""));
    for (const EventMdRecord& r : log.records) {
        if (r.partial)
            continue;
        raws << r.raw;
        QRegularExpressionMatchIterator it = idPattern.globalMatch(QString::fromUtf8(r.raw));
        while (it.hasNext())
            ids.insert(it.next().captured(1).toUtf8());
    }
    QFile out(path);
    if (raws.isEmpty() || !out.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        QTextStream(stderr) << "sightline_bench: cannot write " << path << Qt::endl;
        std::exit(1);
    }
    out.write("# Event Log\n\n## Events\n\n");
    QByteArray buffer;
    qint64 written = 0;
    for (qint64 round = firstRound; written < records; ++round) {
        const QByteArray suffix = "r" + QByteArray::number(round);
        for (QByteArray raw : std::as_const(raws)) {
            if (written == records)
                break;
            for (const QByteArray& id : std::as_const(ids))
                raw.replace(QByteArray('"' + id + '"'), QByteArray('"' + id + suffix + '"'));
            // "[YYYY/MM/DD HH:MM:SS]": a day later each round.
            const QDateTime at = QDateTime::fromString(QString::fromLatin1(raw.mid(1, 19)), QStringLiteral("yyyy/MM/dd HH:mm:ss"));
            if (at.isValid())
                raw.replace(1, 19, at.addDays(round).toString(QStringLiteral("yyyy/MM/dd HH:mm:ss")).toLatin1());
            buffer += raw;
            if (!buffer.endsWith('\n'))
                buffer += '\n';
            ++written;
            if (buffer.size() > (4 << 20)) {
                out.write(buffer);
                buffer.clear();
            }
        }
    }
    out.write(buffer);
}

} // namespace EventMdGenerator
