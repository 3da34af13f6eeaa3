#include "clisession.h"

#include "filterquery.h"
#include "reportexport.h"
#include "reportmanifest.h"
#include "team/journalchain.h"
#include "reportsignature.h"
#include "reviewer.h"
#include "team/teamstore.h"
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
    // A report holds the review as the team has it now.
    if (auto team = joinTeam(*ws, parser, QStringLiteral("the report holds this workspace's copy of the review, as of its last sync"))) {
        syncTeam(*ws, *team);
        // The report names the chain's head as it stands, checked here first: entries removed or changed after it are
        // seen by `verify --team`. A chain that does not hold is named by no report.
        const JournalChain::Check chain = JournalChain::verify(team->journal());
        if (chain.holds()) {
            scope.teamStore = team->storeId();
            scope.teamEntries = chain.entries;
            scope.teamHead = chain.head;
        } else {
            m_err << "sightline: the team journal does not hold together (sightline journal " << source
                  << " --verify says where): the report names no head of it" << Qt::endl;
        }
    }
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
    const bool blockedLeftOut = blocked > 0 && !scope.filter.includeBlocked && !scope.filter.blockedOnly;
    if (count < inRooms && blockedLeftOut && scope.filter.terms() == 0 && inRooms - count == blocked) {
        // No filter given: what is left out is the blocked rows alone, left out by default, not by a filter.
        m_err << " (" << blocked << " of the " << inRooms << " events left out: blocked rows, which --include-blocked keeps)";
    } else if (count < inRooms) {
        m_err << " (" << inRooms - count << " of the " << inRooms << " events left out by the filter";
        if (blockedLeftOut)
            m_err << ", " << blocked << " of them blocked rows: --include-blocked keeps them";
        m_err << ")";
    }
    m_err << "; manifest " << manifest;
    if (!done.signature.isEmpty())
        m_err << ", signed: " << done.signature;
    if (scope.teamEntries >= 0)
        m_err << "; it names the team journal's head, entry " << scope.teamEntries << " (" << scope.teamHead.left(12) << "…)";
    m_err << Qt::endl;
    return Cli::Ok;
}

// What `sightline export` takes and says (the help, the man page and the verb table read it).
VerbSpec Session::exportSpec()
{
    return VerbSpec { QStringLiteral("export"), QStringLiteral("SOURCE"),
        QStringLiteral("Write a report of a room (or every room) as CSV (a row per event, safe to open in a "
                       "spreadsheet), Markdown, HTML (one self-contained file), PDF (a transcript with tool calls "
                       "as cards, a summary, notes, the redaction ledger and the edit journal) or JSON Lines "
                       "(lossless, opened again as a source), and "
                       "REPORT.manifest.json beside it with the SHA-256 of the report and of the events it was made "
                       "from. Redactions always apply."),
        { { QStringLiteral("room"), QStringLiteral("the room's id, or a part of it that one room's id alone holds; again for more rooms in one report"), QStringLiteral("ID") },
            { QStringLiteral("all-rooms"), QStringLiteral("every room of the source, one after the other") },
            { QStringLiteral("source"), QStringLiteral("the source the room came from, when several hold its id"),
                QStringLiteral("PATH") },
            { QStringLiteral("format"), QStringLiteral("csv, md, html, pdf or jsonl (lossless: Sightline opens it again as a source)"), QStringLiteral("FORMAT") },
            { QStringLiteral("each-room"), QStringLiteral("a report per room, named after it, in the folder -o names (made when missing)") },
            { QStringLiteral("expanded"), QStringLiteral("HTML: every tool call's card open") },
            { QStringLiteral("query"), QStringLiteral("only the events this filter lets through (the filter bar's language)"),
                QStringLiteral("FILTER") },
            { QStringLiteral("include-blocked"), QStringLiteral("include rows a hook blocked (left out by default; as --query blocked:include)") },
            { QStringLiteral("marked"), QStringLiteral("only the events a reviewer marked") },
            { QStringLiteral("author"), QStringLiteral("who makes the report (default: the name the window asked for, else the team store's login, else the login name)"),
                QStringLiteral("NAME") },
            { QStringLiteral("sign"), QStringLiteral("sign the manifest with this Ed25519 private key (PEM; openssl genpkey -algorithm ed25519 -out KEY)"),
                QStringLiteral("KEY") },
            { { QStringLiteral("o"), QStringLiteral("output") }, QStringLiteral("where the report goes (a folder with --each-room)"), QStringLiteral("PATH") },
            teamOption() },
        QStringLiteral("SOURCE (--room ID | --all-rooms) --format csv|md|html|pdf|jsonl [--query F] [--include-blocked] [--marked] [--expanded] [--each-room] [--author NAME] [--sign KEY] -o PATH"),
        QStringLiteral("write a report and its manifest"), &Session::exportReport };
}

} // namespace Cli
