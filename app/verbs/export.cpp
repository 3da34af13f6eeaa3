#include "clisession.h"

#include "filterquery.h"
#include "reportexport.h"
#include "reportmanifest.h"
#include "reportsignature.h"
#include "reviewer.h"
#include "workspace.h"

#include <csignal>
#include <QCommandLineParser>
#include <optional>

namespace Cli {

int Session::exportReport(const QStringList& args)
{
    QCommandLineParser parser;
    parse(parser, args, QStringLiteral("export"));
    const QString source = single(parser);
    const bool all = parser.isSet(QStringLiteral("all-rooms"));
    if (all == parser.isSet(QStringLiteral("room")))
        usage(QStringLiteral("give either --room ID or --all-rooms"));
    const QString format = parser.value(QStringLiteral("format")).toLower();
    if (format.isEmpty())
        usage(QStringLiteral("give --format csv, md, html, pdf or jsonl"));
    if (!ReportExport::formats().contains(format))
        usage(QStringLiteral("--format is csv, md, html, pdf or jsonl"));
    const QString path = parser.value(QStringLiteral("output"));
    if (path.isEmpty())
        usage(QStringLiteral("give -o PATH: where the report goes (its manifest goes beside it)"));
    ReportScope scope;
    scope.filter = filterOf(parser);
    if (parser.isSet(QStringLiteral("marked")))
        scope.filter.states << QStringLiteral("marked");
    scope.filterText = FilterQuery::format(scope.filter);
    // Who made it, as far as anyone can tell: a report is no change, so it is never refused for want of a name.
    scope.author = parser.value(QStringLiteral("author")).trimmed();
    if (scope.author.isEmpty())
        scope.author = Reviewer::name();
    if (scope.author.isEmpty())
        scope.author = QStringLiteral("unknown");
    scope.version = QStringLiteral(SIGHTLINE_VERSION);
    scope.source = source;
    auto ws = openSource(source, forcedFormat(parser), roomsAsked(parser));
    if (all) {
        for (const RoomSummary& r : ws->rooms())
            scope.roomIds << r.id;
    } else {
        // --room again and again: those rooms, in the order given, one after the other in one report.
        for (const QString& id : parser.values(QStringLiteral("room"))) {
            const qint64 room = roomId(*ws, source, parser, id);
            if (!scope.roomIds.contains(room))
                scope.roomIds << room;
        }
    }
    // What the rooms were read from, as the window names it: the store, not the workspace a command was given.
    QStringList origins;
    for (const qint64 id : std::as_const(scope.roomIds)) {
        const std::optional<RoomSummary> r = ws->room(id);
        if (r && !r->sourcePath.isEmpty() && !origins.contains(r->sourcePath))
            origins << r->sourcePath;
    }
    if (!origins.isEmpty())
        scope.source = origins.join(QStringLiteral(", "));
    if (parser.isSet(QStringLiteral("each-room"))) {
        // -o is a folder: a report per room, each with its manifest.
        const QVector<ReportExport::Each> each = ReportExport::runEach(
            *ws, scope, format, parser.isSet(QStringLiteral("expanded")), path, parser.value(QStringLiteral("sign")));
        for (const ReportExport::Each& e : each) {
            m_err << "wrote " << e.result.events << (e.result.events == 1 ? " event" : " events") << " to " << e.path
                  << "; manifest " << e.result.manifest;
            if (!e.result.signature.isEmpty())
                m_err << ", signed: " << e.result.signature;
            m_err << Qt::endl;
        }
        const QString set = ReportManifest::setPathFor(path);
        m_err << "the set's manifest: " << set;
        if (!parser.value(QStringLiteral("sign")).isEmpty())
            m_err << ", signed: " << ReportSignature::pathFor(set);
        m_err << " (sightline verify " << path << " checks every report in it)" << Qt::endl;
        return Cli::Ok;
    }
    if (!path.endsWith(ReportExport::suffix(format), Qt::CaseInsensitive))
        m_err << "note: " << path << " does not end in " << ReportExport::suffix(format) << ": it holds " << format
              << " all the same" << Qt::endl;
    const ReportExport::Result done = ReportExport::run(
        *ws, scope, format, parser.isSet(QStringLiteral("expanded")), path, parser.value(QStringLiteral("sign")));
    const qint64 count = done.events;
    const QString& manifest = done.manifest;
    m_err << "wrote " << count << (count == 1 ? " event" : " events") << " to " << path;
    // The rows the filter left out are said, never dropped without a word: blocked rows above all, which a
    // report leaves out unless asked (as the timeline hides them).
    qint64 inRooms = 0;
    qint64 blocked = 0;
    for (const qint64 id : std::as_const(scope.roomIds)) {
        const std::optional<RoomSummary> r = ws->room(id);
        inRooms += r ? r->eventCount : 0;
        blocked += r ? r->blockedCount : 0;
    }
    if (count < inRooms) {
        m_err << " (" << inRooms - count << " of the " << inRooms << " events left out by the filter";
        if (blocked > 0 && !scope.filter.includeBlocked && !scope.filter.blockedOnly)
            m_err << ", " << blocked << " of them blocked rows: --query blocked:include keeps them";
        m_err << ")";
    }
    m_err << "; manifest " << manifest;
    if (!done.signature.isEmpty())
        m_err << ", signed: " << done.signature;
    m_err << Qt::endl;
    return Cli::Ok;
}

} // namespace Cli
