#include "csvreport.h"

#include "callsalong.h"
#include "reportroom.h"
#include "reporttext.h"
#include "timeutil.h"
#include "workspace.h"

#include <QIODevice>

const QStringList& CsvReport::header()
{
    static const QStringList columns { QStringLiteral("room"), QStringLiteral("index"), QStringLiteral("time"),
        QStringLiteral("type"), QStringLiteral("kind"), QStringLiteral("status"), QStringLiteral("blocked_by"),
        QStringLiteral("channel"), QStringLiteral("channel_type"), QStringLiteral("participant"), QStringLiteral("role"),
        QStringLiteral("tool"), QStringLiteral("outcome"), QStringLiteral("duration_ms"), QStringLiteral("result"),
        QStringLiteral("error"), QStringLiteral("text"), QStringLiteral("marked"),
        QStringLiteral("labels"), QStringLiteral("notes"), QStringLiteral("edited"), QStringLiteral("redacted") };
    return columns;
}

QString CsvReport::cell(const QString& value)
{
    QString v = ReportText::shown(value); // a bidi override or a NUL as its code point
    // A spreadsheet runs a cell that starts so as a formula (CSV injection): a leading ' keeps it text.
    if (!v.isEmpty()
        && (v.front() == QLatin1Char('=') || v.front() == QLatin1Char('+') || v.front() == QLatin1Char('-')
            || v.front() == QLatin1Char('@') || v.front() == QLatin1Char('\t') || v.front() == QLatin1Char('\r')))
        v.prepend(QLatin1Char('\''));
    if (v.contains(QLatin1Char(',')) || v.contains(QLatin1Char('"')) || v.contains(QLatin1Char('\n'))
        || v.contains(QLatin1Char('\r'))) {
        v.replace(QLatin1Char('"'), QStringLiteral("\"\""));
        return QLatin1Char('"') + v + QLatin1Char('"');
    }
    return v;
}

qint64 CsvReport::write(Workspace& ws, const ReportScope& scope, QIODevice& out, Sha256* events)
{
    auto line = [&out](const QStringList& cells) {
        QStringList quoted;
        quoted.reserve(cells.size());
        for (const QString& c : cells)
            quoted << cell(c);
        out.write(quoted.join(QLatin1Char(',')).toUtf8());
        out.write("\r\n");
    };
    line(header());
    qint64 written = 0;
    for (qint64 roomId : scope.roomIds) {
        const std::optional<ReportRoom> r = ReportRoom::read(ws, roomId, false);
        if (!r)
            continue;
        const RoomSummary* room = &r->room;
        const auto& labels = r->labels;
        const auto& notes = r->notes;
        const auto& marked = r->marked;
        PageRequest all;
        all.limit = std::numeric_limits<int>::max();
        CallsAlong calls(ws, roomId);
        ws.forEachEvent(roomId, scope.filter, all, [&](const EventRecord& e) {
            // A tool row says how its call went: its outcome, duration, result and error (the row's own text is
            // the call's name and arguments).
            const ToolCallRecord* call = calls.at(e.index);
            const bool isCall = call != nullptr;
            line({ room->nativeId, QString::number(e.index),
                e.createdMicros ? TimeUtil::formatMicros(e.createdMicros) : QString(), e.type, EventKinds::name(e.kind), e.status,
                e.blockedBy, e.channelId, e.channelType, e.participantId, e.role, e.toolName,
                Outcomes::name(e.outcome == Outcome::None && isCall ? call->outcome : e.outcome),
                isCall && call->durationMs ? QString::number(*call->durationMs) : QString(), isCall ? call->result : QString(),
                isCall ? call->error : QString(), e.text,
                marked.contains(e.index) ? QStringLiteral("yes") : QString(), labels.value(e.index).join(QLatin1Char(' ')),
                notes.value(e.index).join(QLatin1Char('\n')),
                (e.flags & EventFlags::Revised) ? QStringLiteral("yes") : QString(),
                (e.flags & EventFlags::Redacted) ? QStringLiteral("yes") : QString() });
            r->digest(events, e);
            scope.written();
            ++written;
        });
    }
    return written;
}
