#include "clisession.h"

#include "journal.h"
#include "team/journalchain.h"
#include "team/teamstore.h"
#include "team/teamsync.h"
#include "timeutil.h"
#include "workspace.h"

#include <QCommandLineParser>

namespace Cli {

int Session::verifyTeamJournal(Workspace& ws, const QCommandLineParser& parser, bool json)
{
    const bool named = parser.isSet(QStringLiteral("team")) || TeamSync::attached(ws);
    if (!named)
        usage(QStringLiteral("--verify checks a team store's journal: give --team URI (or attach the workspace to one)"));
    auto team = joinTeam(ws, parser, QStringLiteral("nothing was verified"));
    if (!team)
        return Cli::Error;
    const TeamJournalEntries entries = team->journal();
    const JournalChain::Check check = JournalChain::verify(entries);
    if (check.holds()) {
        if (json) {
            m_out << line({ { QStringLiteral("verified"), true }, { QStringLiteral("entries"), check.entries },
                { QStringLiteral("head"), orNull(check.head) } })
                  << Qt::endl;
        } else {
            m_out << "the team journal holds together: " << check.entries
                  << (check.entries == 1 ? " entry" : " entries") << ", none changed, removed or reordered"
                  << (check.head.isEmpty() ? QString() : QStringLiteral("; its head is ") + check.head) << Qt::endl;
        }
        return Cli::Ok;
    }
    const TeamJournalEntry& e = entries.at(check.broken);
    const QString at = TimeUtil::formatMicros(e.atMs * 1000);
    if (json) {
        m_out << line({ { QStringLiteral("verified"), false }, { QStringLiteral("entries"), check.entries },
            { QStringLiteral("broken"), e.id }, { QStringLiteral("at"), at }, { QStringLiteral("author"), e.author },
            { QStringLiteral("login"), e.login }, { QStringLiteral("action"), e.action }, { QStringLiteral("room"), e.room },
            { QStringLiteral("why"), check.why } })
              << Qt::endl;
    } else {
        m_out << "the team journal does not hold together at entry " << e.id << " (" << at << ", " << e.author << " as "
              << e.login << ", " << e.action << " in room " << e.room << "): " << check.why << Qt::endl;
    }
    return Cli::Error;
}

int Session::journal(const QStringList& args)
{
    QCommandLineParser parser;
    parse(parser, args, QStringLiteral("journal"));
    const QString source = single(parser);
    auto ws = openSource(source, forcedFormat(parser), roomsAsked(parser));
    const bool json = parser.isSet(QStringLiteral("json"));
    if (parser.isSet(QStringLiteral("verify")))
        return verifyTeamJournal(*ws, parser, json);
    if (auto team = joinTeam(*ws, parser, QStringLiteral("showing this workspace's copy of the journal, as of its last sync")))
        syncTeam(*ws, *team);
    const qint64 room = parser.isSet(QStringLiteral("room")) ? roomId(*ws, source, parser) : 0;
    for (const JournalEntry& e : Journal(*ws).entries(room)) {
        const QString at = TimeUtil::formatMicros(e.atMs * 1000);
        if (json) {
            m_out << line({ { QStringLiteral("at"), at }, { QStringLiteral("author"), e.author },
                         { QStringLiteral("action"), e.action }, { QStringLiteral("room"), e.room },
                         { QStringLiteral("index"), indexValue(e.index) }, { QStringLiteral("before"), orNull(e.before) },
                         { QStringLiteral("after"), orNull(e.after) }, { QStringLiteral("saved"), e.saved } })
                  << '\n';
        } else {
            QString what = Journal::describe(e);
            what.replace(QLatin1Char('\n'), QStringLiteral(" / "));
            m_out << at << "  " << e.author << "  " << e.room << "  "
                  << (e.index ? QString::number(*e.index) : QStringLiteral("room")) << "  " << what
                  << (e.saved ? QString() : QStringLiteral("  (not saved)")) << '\n';
        }
    }
    m_out.flush();
    return Cli::Ok;
}

// What `sightline journal` takes and says (the help, the man page and the verb table read it).
VerbSpec Session::journalSpec()
{
    return VerbSpec { QStringLiteral("journal"), QStringLiteral("SOURCE"),
        QStringLiteral("List every change made to the workspace: when, who, the room and event, what, before and "
                       "after."),
        { { QStringLiteral("room"), QStringLiteral("only this room's (its id, or a part of it)"), QStringLiteral("ID") },
            { QStringLiteral("source"), QStringLiteral("the source the room came from, when several hold its id"),
                QStringLiteral("PATH") },
            { QStringLiteral("json"), QStringLiteral("one JSON object per line") }, teamOption(),
            { QStringLiteral("verify"),
                QStringLiteral("check the team store's journal chain: exit 0 when no entry was changed, removed or "
                               "reordered, 1 naming the first that was") } },
        QStringLiteral("SOURCE [--room ID] [--json] [--team URI [--verify]]"), QStringLiteral("list the changes made to the workspace"),
        &Session::journal };
}

} // namespace Cli
