#include "clisession.h"

#include "annotation.h"
#include "timeutil.h"
#include "team/teamstore.h"
#include "workspace.h"

#include <QCommandLineParser>
#include <optional>
#include <QJsonObject>

namespace Cli {

int Session::rooms(const QStringList& args)
{
    QCommandLineParser parser;
    parse(parser, args, QStringLiteral("rooms"));
    // Every room of the source at once, with the source's counts: none is read for this (a later command, or
    // the window, reads the rooms it is asked for).
    auto ws = openSource(single(parser), forcedFormat(parser),
        parser.isSet(QStringLiteral("read")) ? std::nullopt : std::optional<QStringList>(QStringList()));
    if (auto team = joinTeam(*ws, parser, QStringLiteral("showing this workspace's copy of the review, as of its last sync")))
        syncTeam(*ws, *team);
    const bool json = parser.isSet(QStringLiteral("json"));
    for (const RoomSummary& r : ws->rooms()) {
        if (json) {
            QJsonObject o { { QStringLiteral("id"), r.nativeId }, { QStringLiteral("title"), orNull(r.title) },
                { QStringLiteral("system"), r.system }, { QStringLiteral("source"), r.sourcePath },
                { QStringLiteral("status"), orNull(r.status) },
                { QStringLiteral("event_count"), r.eventCount },
                { QStringLiteral("blocked_count"), r.blockedCount }, { QStringLiteral("tool_calls"), r.toolCalls },
                { QStringLiteral("failed"), r.failed }, { QStringLiteral("refused"), r.refused },
                { QStringLiteral("unserved"), r.unserved },
                { QStringLiteral("first_at"),
                    r.firstMicros ? QJsonValue(TimeUtil::formatMicros(r.firstMicros)) : QJsonValue() },
                { QStringLiteral("last_at"),
                    r.lastMicros ? QJsonValue(TimeUtil::formatMicros(r.lastMicros)) : QJsonValue() },
                { QStringLiteral("owner"), orNull(r.owner) }, { QStringLiteral("agent"), orNull(r.agentId) },
                { QStringLiteral("summary"), orNull(r.summary) },
                { QStringLiteral("review"), r.review.isEmpty() ? ReviewStatus::Unreviewed : r.review },
                { QStringLiteral("reviewer"), orNull(r.reviewer) }, { QStringLiteral("notes"), r.notes },
                { QStringLiteral("read"),
                    r.notReadYet()      ? QStringLiteral("no")
                        : r.partlyRead() ? QStringLiteral("part")
                                         : QStringLiteral("whole") },
                { QStringLiteral("source_events"), r.sourceEvents() } };
            // What only reading the room tells (its rows, calls, blocked rows, span) is not known: null, not 0.
            if (r.notReadYet()) {
                for (const char* unknown : { "event_count", "blocked_count", "tool_calls", "failed", "refused",
                         "unserved", "first_at", "last_at" })
                    o.insert(QLatin1String(unknown), QJsonValue());
            }
            m_out << line(o) << '\n';
        } else if (r.notReadYet()) {
            m_out << r.nativeId
                  << (r.title.isEmpty() ? QString() : QStringLiteral(" \"") + r.title + QLatin1Char('"')) << "  "
                  << r.system << "  events " << r.sourceEvents() << " (not read yet)"
                  << (r.review.isEmpty() ? QString() : QStringLiteral("  review: %1 (%2)").arg(r.review, r.reviewer))
                  << (r.notes > 0 ? QStringLiteral("  notes %1").arg(r.notes) : QString()) << '\n';
        } else {
            m_out << r.nativeId
                  << (r.title.isEmpty() ? QString() : QStringLiteral(" \"") + r.title + QLatin1Char('"')) << "  "
                  << r.system << "  events " << r.eventCount
                  << (r.partlyRead() ? QStringLiteral(" of %1 (read in part)").arg(r.sourceEvents()) : QString())
                  << "  blocked " << r.blockedCount << "  tools "
                  << r.toolCalls << " (failed " << r.failed << ", refused " << r.refused << ", unserved "
                  << r.unserved << ")  " << timeOrDash(r.firstMicros) << " .. " << timeOrDash(r.lastMicros)
                  << (r.review.isEmpty() ? QString() : QStringLiteral("  review: %1 (%2)").arg(r.review, r.reviewer))
                  << (r.notes > 0 ? QStringLiteral("  notes %1").arg(r.notes) : QString()) << '\n';
        }
    }
    m_out.flush();
    return Cli::Ok;
}

// What `sightline rooms` takes and says (the help, the man page and the verb table read it).
VerbSpec Session::roomsSpec()
{
    return VerbSpec { QStringLiteral("rooms"), QStringLiteral("SOURCE"),
        QStringLiteral("List the rooms, empty ones included, at once: a room not read yet with its source's count."),
        { { QStringLiteral("json"), QStringLiteral("one JSON object per line") },
            { QStringLiteral("read"), QStringLiteral("read every room first, for every room's figures") }, teamOption() },
        QStringLiteral("SOURCE [--read] [--json] [--team URI]"), QStringLiteral("list the rooms, empty ones included"), &Session::rooms };
}

} // namespace Cli
