#include "clisession.h"

#include "sources/pgconnection.h"
#include "team/teamschema.h"
#include "team/teamstore.h"
#include "team/teamsync.h"
#include "timeutil.h"
#include "workspace.h"

#include <QCommandLineParser>

namespace Cli {

int Session::team(const QStringList& args)
{
    QCommandLineParser parser;
    parse(parser, args, QStringLiteral("team"));
    const QStringList positional = parser.positionalArguments();
    const QString action = positional.value(0);
    static const QStringList actions { QStringLiteral("init"), QStringLiteral("attach"), QStringLiteral("sync"),
        QStringLiteral("status"), QStringLiteral("detach") };
    if (!actions.contains(action))
        usage(QStringLiteral("team takes one of: %1 (not '%2')").arg(actions.join(QStringLiteral(", ")), action));
    if (positional.size() != 2)
        usage(action == QLatin1String("init") ? QStringLiteral("team init takes the team store's URI: team init postgresql://admin@host/db")
                                              : QStringLiteral("team %1 takes one SOURCE").arg(action));
    const QString target = positional.at(1);
    if (action != QLatin1String("init") && PgConnection::isUri(target)) {
        usage(QStringLiteral("team %1 takes the SOURCE whose workspace shares the review (the store or log you read), "
                             "not the team store's URI: sightline team %1 SOURCE%2")
                  .arg(action, action == QLatin1String("attach") ? QStringLiteral(" --team URI") : QString()));
    }

    if (action == QLatin1String("init")) {
        if (!PgConnection::isUri(target))
            usage(QStringLiteral("team init takes a postgresql:// URI, not '%1'").arg(target));
        PgConnection db(target, nullptr, PgConnection::Access::ReadWrite);
        const TeamSchema::Upgrade upgrade = TeamSchema::init(db);
        if (upgrade.from == upgrade.to) {
            m_out << "team store " << db.origin() << ": already at schema step " << upgrade.to << ", nothing to do"
                  << Qt::endl;
        } else {
            m_out << "team store " << db.origin() << ": "
                  << (upgrade.from == 0 ? QStringLiteral("created") : QStringLiteral("upgraded from step %1").arg(upgrade.from))
                  << " (schema step " << upgrade.to << ")\n"
                  << "roles: sightline_reviewer (reads and changes the review), sightline_auditor (reads, exports and "
                     "verifies), sightline_admin (a reviewer who also makes queues)\n"
                  << "make a login a reviewer (in psql): CREATE ROLE ana LOGIN PASSWORD '…'; GRANT sightline_reviewer TO ana;"
                  << Qt::endl;
        }
        return Cli::Ok;
    }

    if (action == QLatin1String("attach") && !parser.isSet(QStringLiteral("team")))
        usage(QStringLiteral("team attach SOURCE takes --team URI"));
    m_syncOnOpen = false;
    auto ws = openSource(target, forcedFormat(parser), std::optional<QStringList>(QStringList()));
    if (action == QLatin1String("detach")) {
        const std::optional<QString> was = TeamSync::attached(*ws);
        TeamSync::detach(*ws);
        m_out << (was ? QStringLiteral("detached from %1: the review made since stays in this workspace").arg(*was)
                      : QStringLiteral("the workspace is attached to no team store"))
              << Qt::endl;
        return Cli::Ok;
    }
    if (action == QLatin1String("status")) {
        const std::optional<QString> uri = TeamSync::attached(*ws);
        if (!uri && !parser.isSet(QStringLiteral("team"))) {
            m_out << "the workspace is attached to no team store" << Qt::endl;
            return Cli::Ok;
        }
        auto team = joinTeam(*ws, parser, QStringLiteral("what follows is this workspace's side"));
        const qint64 synced = TeamSync::syncedAt(*ws);
        const int waiting = TeamSync::pending(*ws);
        m_out << "team store: " << TeamSync::attached(*ws).value_or(QString()) << '\n';
        if (team)
            m_out << "you are: " << team->login() << " (" << TeamStore::roleName(team->role()) << ")\n";
        m_out << "last caught up: " << (synced > 0 ? TimeUtil::formatMicros(synced * 1000) : QStringLiteral("never")) << '\n'
              << "waiting to go up: " << waiting << (waiting == 1 ? " change" : " changes") << Qt::endl;
        if (team) {
            for (const TeamConflict& c : team->conflicts()) {
                if (!c.isReview()) {
                    m_out << "conflict: room " << c.room << ", event " << c.seq.value_or(0) << ", its " << c.field << ": "
                          << c.theirsAuthor << " made one (at " << TimeUtil::formatMicros(c.theirsAtMs * 1000) << "); "
                          << c.mineAuthor << " made another (at " << TimeUtil::formatMicros(c.mineAtMs * 1000)
                          << ") not knowing it, which reached the store later and shows: keep one in the window (File ▸ "
                             "Team…)"
                          << Qt::endl;
                    continue;
                }
                m_out << "conflict: room " << c.room << ": " << c.theirsAuthor << " set " << c.theirs << " (at "
                      << TimeUtil::formatMicros(c.theirsAtMs * 1000) << "); " << c.mineAuthor << " set " << c.mine
                      << " (at " << TimeUtil::formatMicros(c.mineAtMs * 1000)
                      << ") not knowing it, which reached the store later and applies: `sightline review " << target
                      << " --room " << c.room << " --status STATUS` keeps one" << Qt::endl;
            }
        }
        return Cli::Ok;
    }
    auto team = joinTeam(*ws, parser, QStringLiteral("nothing was synced"));
    if (!team)
        return Cli::Error;
    const int waiting = TeamSync::pending(*ws);
    const std::optional<TeamSync::Result> result = syncTeam(*ws, *team);
    if (!result)
        return Cli::Error;
    m_out << (action == QLatin1String("attach") ? QStringLiteral("attached to ") : QStringLiteral("synced with "))
          << team->origin() << " as " << team->login() << " (" << TeamStore::roleName(team->role()) << "): sent "
          << result->sent << " of " << waiting << ", took " << result->taken << Qt::endl;
    return Cli::Ok;
}

// What `sightline team` takes and says (the help, the man page and the verb table read it).
VerbSpec Session::teamSpec()
{
    return VerbSpec { QStringLiteral("team"), QStringLiteral("ACTION URI|SOURCE"),
        QStringLiteral("Share the review (notes, labels, marks, review statuses, edits, redactions and their journal) with a team through "
                       "a PostgreSQL team store. init URI: create or upgrade the store, its roles and grants (an admin, "
                       "once). attach SOURCE --team URI: attach the source's workspace to it (remembered) and sync. "
                       "sync SOURCE: send what waits and take what teammates changed. status SOURCE: the store, your "
                       "role, the last sync, what waits. detach SOURCE: stop sharing."),
        { teamOption() }, QStringLiteral("init URI | attach SOURCE --team URI | sync|status|detach SOURCE"),
        QStringLiteral("share the review through a PostgreSQL team store"), &Session::team };
}

} // namespace Cli
