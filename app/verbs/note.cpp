#include "clisession.h"

#include "annotationstore.h"
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
    const QString who = author(parser);
    auto ws = openSource(source, forcedFormat(parser), roomsAsked(parser));
    const qint64 room = roomId(*ws, source, parser);
    AnnotationStore store(*ws);
    store.saveOnly(store.addNote(room, index, text, who));
    m_out << "note added to " << (index ? QStringLiteral("event %1").arg(*index) : QStringLiteral("the room"))
          << " of " << ws->room(room)->nativeId << " by " << who << Qt::endl;
    return Cli::Ok;
}

} // namespace Cli
