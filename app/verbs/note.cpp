#include "clisession.h"

#include "annotationstore.h"
#include "team/teamstore.h"
#include "workspace.h"

#include <QCommandLineParser>
#include <optional>

namespace Cli {

int Session::note(const QStringList& args)
{
    QCommandLineParser parser;
    parse(parser, args, QStringLiteral("note"));
    const QString source = single(parser);
    const QString text = parser.value(QStringLiteral("text"));
    if (text.trimmed().isEmpty())
        usage(QStringLiteral("--text TEXT is required"));
    const std::optional<qint64> index = indexOption(parser, QStringLiteral("index"));
    auto ws = openSource(source, forcedFormat(parser), roomsAsked(parser));
    const qint64 room = roomId(*ws, source, parser);
    // An auditor is refused before anything is written, here or there.
    auto team = joinTeam(*ws, parser, QStringLiteral("the note is kept in this workspace and goes to the team at the next sync"));
    if (team)
        team->requireWriter();
    const QString who = author(parser); // the team login when no name is given
    AnnotationStore store(*ws);
    store.saveOnly(store.addNote(room, index, text, who));
    m_out << "note added to " << (index ? QStringLiteral("event %1").arg(*index) : QStringLiteral("the room"))
          << " of " << ws->room(room)->nativeId << " by " << who << Qt::endl;
    if (team)
        syncTeam(*ws, *team);
    return Cli::Ok;
}

// What `sightline note` takes and says (the help, the man page and the verb table read it).
VerbSpec Session::noteSpec()
{
    return VerbSpec { QStringLiteral("note"), QStringLiteral("SOURCE"),
        QStringLiteral("Add a note to a room, or to one of its events, signed and saved at once."),
        { { QStringLiteral("room"), QStringLiteral("the room's id, or a part of it that one room's id alone holds"), QStringLiteral("ID") },
            { QStringLiteral("source"), QStringLiteral("the source the room came from, when several hold its id"),
                QStringLiteral("PATH") },
            { QStringLiteral("index"), QStringLiteral("the event's index (default: a note on the room)"), QStringLiteral("N") },
            { QStringLiteral("text"), QStringLiteral("what the note says"), QStringLiteral("TEXT") },
            { QStringLiteral("author"), QStringLiteral("who signs it (default: the name the window asked for, else the team store's login, else the login name)"),
                QStringLiteral("NAME") },
            teamOption() },
        QStringLiteral("SOURCE --room ID [--index N] --text TEXT [--author NAME] [--team URI]"), QStringLiteral("add a note to a room or an event"),
        &Session::note };
}

} // namespace Cli
