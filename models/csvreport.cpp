#include "csvreport.h"

#include "recordreader.h"
#include "reportroom.h"
#include "reporttext.h"
#include "sqlitestatement.h"
#include "timeutil.h"
#include "workspace.h"

#include <QHash>
#include <QIODevice>

namespace {

// A room's calls by each of their rows (start, end, result), read in the order of their first row as the events go by
// in index order: only the calls with a row still ahead are held, never the room's quarter of a million.
class CallsAlong
{
public:
    CallsAlong(Workspace& ws, qint64 roomId)
        : m_sql((QStringLiteral("SELECT ") + RecordReader::CallColumns
                    + QStringLiteral(" FROM tool_calls WHERE room_id = ? ORDER BY coalesce(start_seq, end_seq, result_seq), id"))
                    .toUtf8())
        , m_read(ws.handle(), m_sql.constData())
    {
        m_read.bind(1, roomId);
        m_more = m_read.step();
    }

    // The call the row at `index` belongs to; indexes come in ascending order.
    const ToolCallRecord* at(qint64 index)
    {
        // Take in every call whose first row is this one or one before it.
        while (m_more) {
            if (!m_next)
                m_next = RecordReader::call(m_read);
            if (firstRow(*m_next) > index)
                break;
            hold(*m_next);
            m_next.reset();
            m_more = m_read.step();
        }
        // Rows passed (or left out by the filter) are let go.
        while (!m_ahead.isEmpty() && m_ahead.firstKey() < index)
            m_ahead.erase(m_ahead.begin());
        const auto it = m_ahead.constFind(index);
        return it == m_ahead.constEnd() ? nullptr : &*it;
    }

private:
    static qint64 firstRow(const ToolCallRecord& c)
    {
        return c.startIndex ? *c.startIndex : c.endIndex ? *c.endIndex : c.resultIndex.value_or(0);
    }

    void hold(const ToolCallRecord& c)
    {
        for (const std::optional<qint64>& row : { c.startIndex, c.endIndex, c.resultIndex }) {
            if (row)
                m_ahead.insert(*row, c);
        }
    }

    QByteArray m_sql;
    SqliteStatement m_read;
    bool m_more = false;
    std::optional<ToolCallRecord> m_next; // the row the statement is on, its first row still ahead
    QMap<qint64, ToolCallRecord> m_ahead; // by each row still ahead
};

} // namespace

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
