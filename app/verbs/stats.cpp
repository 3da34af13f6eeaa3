#include "clisession.h"

#include "jsonline.h"
#include "workspace.h"

#include <algorithm>
#include <QCommandLineParser>
#include <optional>

namespace Cli {

int Session::stats(const QStringList& args)
{
    QCommandLineParser parser;
    parse(parser, args, QStringLiteral("stats"));
    const QString source = single(parser);
    const EventFilter filter = filterOf(parser);
    auto ws = openSource(source, forcedFormat(parser), roomsAsked(parser));
    const qint64 room = roomId(*ws, source, parser);
    const ToolStatsList stats = ws->toolStats(room, filter);
    if (parser.isSet(QStringLiteral("json"))) {
        for (const ToolStats& t : stats) {
            JsonLine o;
            o.add("tool_name", t.toolName);
            for (const auto& [key, value] : { std::pair { "calls", t.calls }, { "served", t.served },
                     { "failed", t.failed }, { "refused", t.refused }, { "blocked", t.blocked },
                     { "unserved", t.unserved }, { "cancelled", t.cancelled } })
                o.add(key, value);
            for (const auto& [key, value] : { std::pair { "p50_ms", t.p50Ms }, { "p95_ms", t.p95Ms }, { "max_ms", t.maxMs } }) {
                if (value)
                    o.add(key, *value);
                else
                    o.addNull(key); // no call of the tool has a duration
            }
            // As the dock says it: no total when no call of the tool has a duration (a 0 read as "took no time").
            if (t.maxMs)
                o.add("total_ms", t.totalMs);
            else
                o.addNull("total_ms");
            m_out << o.text() << '\n';
        }
        m_out.flush();
        return Cli::Ok;
    }
    // A table: the tool's name, then its figures right-aligned under their headings.
    const QStringList headings { QStringLiteral("calls"), QStringLiteral("served"), QStringLiteral("failed"),
        QStringLiteral("refused"), QStringLiteral("blocked"), QStringLiteral("unserved"), QStringLiteral("cancelled"),
        QStringLiteral("p50_ms"), QStringLiteral("p95_ms"), QStringLiteral("max_ms"), QStringLiteral("total_ms") };
    qsizetype nameWidth = 9;
    for (const ToolStats& t : stats)
        nameWidth = std::max(nameWidth, t.toolName.size());
    m_out << QStringLiteral("tool_name").leftJustified(nameWidth);
    for (const QString& h : headings)
        m_out << "  " << h.rightJustified(9);
    m_out << '\n';
    auto figure = [](const std::optional<qint64>& v) { return v ? QString::number(*v) : QStringLiteral("-"); };
    for (const ToolStats& t : stats) {
        m_out << t.toolName.leftJustified(nameWidth);
        for (const QString& v : { QString::number(t.calls), QString::number(t.served), QString::number(t.failed),
                 QString::number(t.refused), QString::number(t.blocked), QString::number(t.unserved),
                 QString::number(t.cancelled), figure(t.p50Ms), figure(t.p95Ms), figure(t.maxMs),
                 figure(t.maxMs ? std::optional<qint64>(t.totalMs) : std::nullopt) })
            m_out << "  " << v.rightJustified(9);
        m_out << '\n';
    }
    m_out.flush();
    return Cli::Ok;
}

// What `sightline stats` takes and says (the help, the man page and the verb table read it).
VerbSpec Session::statsSpec()
{
    return VerbSpec { QStringLiteral("stats"), QStringLiteral("SOURCE"),
        QStringLiteral("Sum up a room's tool calls by tool, as the GUI's tool statistics do: calls and how they "
                       "ended (served, failed, refused, blocked, unserved, cancelled), and the p50, p95, longest and "
                       "total duration over the calls that have one (percentiles by nearest rank). Counted in "
                       "calls, not rows; under a filter, the calls whose card the timeline shows."),
        roomOptions() + filterOptions() + QList<QCommandLineOption> {
            { QStringLiteral("json"), QStringLiteral("one JSON object per tool") } },
        QStringLiteral("SOURCE --room ID [filter options] [--json]"),
        QStringLiteral("tool calls by tool: outcomes and durations"), &Session::stats };
}

} // namespace Cli
