#include "clisession.h"

#include "annotationstore.h"
#include "team/teamstore.h"
#include "timeutil.h"
#include "workspace.h"

#include <QCommandLineParser>

namespace Cli {

int Session::notes(const QStringList& args)
{
    QCommandLineParser parser;
    parse(parser, args, QStringLiteral("notes"));
    const QString source = single(parser);
    auto ws = openSource(source, forcedFormat(parser), roomsAsked(parser));
    if (auto team = joinTeam(*ws, parser, QStringLiteral("showing this workspace's copy of the review, as of its last sync")))
        syncTeam(*ws, *team);
    const qint64 room = parser.isSet(QStringLiteral("room")) ? roomId(*ws, source, parser) : 0;
    const bool json = parser.isSet(QStringLiteral("json"));
    QHash<qint64, QString> names;
    for (const RoomSummary& r : ws->rooms())
        names.insert(r.id, r.nativeId);
    for (const Annotation& a : AnnotationStore(*ws).notes(room)) {
        const QString at = TimeUtil::formatMicros(a.atMs * 1000);
        if (json) {
            m_out << line({ { QStringLiteral("room"), names.value(a.roomId) },
                         { QStringLiteral("index"), indexValue(a.index) }, { QStringLiteral("author"), a.author },
                         { QStringLiteral("at"), at }, { QStringLiteral("text"), a.value },
                         { QStringLiteral("saved"), a.saved }, { QStringLiteral("detached"), a.detached } })
                  << '\n';
        } else {
            QString text = a.value;
            text.replace(QLatin1Char('\n'), QStringLiteral(" / "));
            m_out << names.value(a.roomId) << "  " << (a.index ? QString::number(*a.index) : QStringLiteral("room"))
                  << "  " << a.author << "  " << at << "  " << text
                  << (a.saved ? QString() : QStringLiteral("  (not saved)"))
                  << (a.detached ? QStringLiteral("  (its event is no longer in the source)") : QString()) << '\n';
        }
    }
    m_out.flush();
    return Cli::Ok;
}

// What `sightline notes` takes and says (the help, the man page and the verb table read it).
VerbSpec Session::notesSpec()
{
    return VerbSpec { QStringLiteral("notes"), QStringLiteral("SOURCE"),
        QStringLiteral("List the notes reviewers wrote on rooms and events, with who wrote each and when."),
        { { QStringLiteral("room"), QStringLiteral("only this room's (its id, or a part of it)"), QStringLiteral("ID") },
            { QStringLiteral("source"), QStringLiteral("the source the room came from, when several hold its id"),
                QStringLiteral("PATH") },
            { QStringLiteral("json"), QStringLiteral("one JSON object per line") }, teamOption() },
        QStringLiteral("SOURCE [--room ID] [--json] [--team URI]"), QStringLiteral("list the notes on rooms and events"),
        &Session::notes };
}

} // namespace Cli
