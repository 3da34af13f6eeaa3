#include "clisession.h"

#include "journal.h"
#include "timeutil.h"
#include "workspace.h"

#include <QCommandLineParser>

namespace Cli {

int Session::journal(const QStringList& args)
{
    QCommandLineParser parser;
    parse(parser, args, QStringLiteral("journal"));
    const QString source = single(parser);
    auto ws = openSource(source, forcedFormat(parser), roomsAsked(parser));
    const qint64 room = parser.isSet(QStringLiteral("room")) ? roomId(*ws, source, parser) : 0;
    const bool json = parser.isSet(QStringLiteral("json"));
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
            { QStringLiteral("json"), QStringLiteral("one JSON object per line") } },
        QStringLiteral("SOURCE [--room ID] [--json]"), QStringLiteral("list the changes made to the workspace"),
        &Session::journal };
}

} // namespace Cli
