#include "clisession.h"

#include "annotationstore.h"
#include "team/teamstore.h"
#include "team/teamsync.h"
#include "workspace.h"

#include <QCommandLineParser>

namespace Cli {

int Session::review(const QStringList& args)
{
    QCommandLineParser parser;
    parse(parser, args, QStringLiteral("review"));
    const QString source = single(parser);
    QString status = parser.value(QStringLiteral("status")).trimmed().toLower();
    status.replace(QLatin1Char('-'), QLatin1Char(' ')).replace(QLatin1Char('_'), QLatin1Char(' '));
    if (!ReviewStatus::all().contains(status)) {
        usage(QStringLiteral("--status is one of: unreviewed, in-review, done (not '%1')")
                  .arg(parser.value(QStringLiteral("status"))));
    }
    auto ws = openSource(source, forcedFormat(parser), roomsAsked(parser));
    const qint64 room = roomId(*ws, source, parser);
    auto team = joinTeam(*ws, parser,
        QStringLiteral("the status is kept in this workspace and goes to the team at the next sync"));
    if (team) {
        team->requireWriter();
        // The room's status as the team has it now, not as this workspace last saw it.
        syncTeam(*ws, *team);
    }
    const QString who = author(parser); // the team login when no name is given
    AnnotationStore store(*ws);
    const EditSteps steps = store.setReview(room, status, who);
    store.saveOnly(steps);
    m_out << ws->room(room)->nativeId << ": review " << status
          << (steps.isEmpty() ? QStringLiteral(" (it already was)") : QStringLiteral(" by ") + who) << Qt::endl;
    if (team && syncTeam(*ws, *team)) {
        // Setting the status again is choosing: a conflict over the room is settled with it, even one kept as it is.
        const std::optional<RoomSummary> r = ws->room(room);
        for (const TeamConflict& c : team->conflicts()) {
            if (!c.isReview() || c.system != r->system || c.room != r->nativeId)
                continue;
            team->settle(c.id, status, who, TeamSync::client(*ws) + QStringLiteral(":settle:%1").arg(c.id));
            m_out << r->nativeId << ": the conflict between " << c.theirsAuthor << "'s " << c.theirs << " and "
                  << c.mineAuthor << "'s " << c.mine << " is settled: " << status << Qt::endl;
        }
        syncTeam(*ws, *team);
    }
    return Cli::Ok;
}

// What `sightline review` takes and says (the help, the man page and the verb table read it).
VerbSpec Session::reviewSpec()
{
    return VerbSpec { QStringLiteral("review"), QStringLiteral("SOURCE"),
        QStringLiteral("Set a room's review status (unreviewed, in review, done), signed and saved at once."),
        { { QStringLiteral("room"), QStringLiteral("the room's id, or a part of it that one room's id alone holds"), QStringLiteral("ID") },
            { QStringLiteral("source"), QStringLiteral("the source the room came from, when several hold its id"),
                QStringLiteral("PATH") },
            { QStringLiteral("status"), QStringLiteral("unreviewed, in-review or done"), QStringLiteral("STATUS") },
            { QStringLiteral("author"), QStringLiteral("who signs it (default: the name the window asked for, else the team store's login, else the login name)"),
                QStringLiteral("NAME") },
            teamOption() },
        QStringLiteral("SOURCE --room ID --status S [--author NAME] [--team URI]"), QStringLiteral("set a room's review status"), &Session::review };
}

} // namespace Cli
