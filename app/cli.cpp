#include "cli.h"
#include "clisession.h"

#include "redactionstore.h"
#include "sources/importer.h"
#include "storeerror.h"

#include <csignal>
#include <QFileInfo>
#include <QRegularExpression>

namespace {

using namespace Cli;

// roff text: backslashes and hyphens escaped, and a line may not start with a control character.
QString roff(QString text)
{
    text.replace(QLatin1Char('\\'), QStringLiteral("\\e"));
    text.replace(QLatin1Char('-'), QStringLiteral("\\-"));
    if (text.startsWith(QLatin1Char('.')) || text.startsWith(QLatin1Char('\'')))
        text.prepend(QStringLiteral("\\&"));
    return text;
}

QString manOptions(const QList<QCommandLineOption>& options)
{
    QString out;
    for (const QCommandLineOption& o : options) {
        QStringList names;
        for (const QString& name : o.names())
            names << (name.size() == 1 ? QStringLiteral("\\fB\\-") : QStringLiteral("\\fB\\-\\-")) + roff(name)
                    + QStringLiteral("\\fR");
        out += QStringLiteral(".TP\n") + names.join(QStringLiteral(", "));
        if (!o.valueName().isEmpty())
            out += QStringLiteral(" \\fI") + roff(o.valueName()) + QStringLiteral("\\fR");
        out += QLatin1Char('\n') + roff(o.description()) + QLatin1Char('\n');
    }
    return out;
}

QString generalHelp()
{
    // The summaries in one column after the usages, a usage too long for it on a line of its own.
    constexpr qsizetype width = 46;
    QString verbs;
    for (const VerbSpec& v : verbSpecs()) {
        const QString usage = v.name + QLatin1Char(' ') + v.usage;
        if (usage.size() > width)
            verbs += QStringLiteral("  %1\n  %2  %3\n").arg(usage, QString(width, QLatin1Char(' ')), v.summary);
        else
            verbs += QStringLiteral("  %1  %2\n").arg(usage.leftJustified(width), v.summary);
    }
    return QStringLiteral(
               "Usage: sightline [FILE|DIR]            open the GUI (the demo workspace when no file is given)\n"
               "       sightline VERB [OPTIONS] ...    run without a display\n"
               "\n"
               "Verbs:\n")
        + verbs
        + QStringLiteral(
            "\n"
            "SOURCE is a RoomKit SQLite store, an AG-UI (kaboo-runtime) JSON Lines log or a folder of them, a CraftBot\n"
            "EVENT.md or sessions.db, or a Sightline workspace; the format is detected from the content (--format\n"
            "roomkit|agui|craftbot|craftbot-sessions|sightline-jsonl|workspace forces one).\n"
            "A store is imported into a cached workspace first, and synced on every later run.\n"
            "Run 'sightline VERB --help' (or 'sightline help VERB') for the options of a verb; 'man sightline' for "
            "all.\n");
}


} // namespace

namespace Cli {

const QVector<VerbSpec>& verbSpecs()
{
    static const QVector<VerbSpec> specs {
        { QStringLiteral("import"), QStringLiteral("SOURCE..."),
            QStringLiteral("Import sources into a workspace, or sync what is new since the last import."),
            { { QStringList { QStringLiteral("o"), QStringLiteral("output") },
                QStringLiteral("the workspace to import into (default: each source's cached workspace)"),
                QStringLiteral("WORKSPACE") } },
            QStringLiteral("SOURCE... [-o WORKSPACE]"), QStringLiteral("import (or sync what is new) into a workspace"),
            &Session::import },
        { QStringLiteral("rooms"), QStringLiteral("SOURCE"),
            QStringLiteral("List the rooms, empty ones included, at once: a room not read yet with its source's count."),
            { { QStringLiteral("json"), QStringLiteral("one JSON object per line") },
                { QStringLiteral("read"), QStringLiteral("read every room first, for every room's figures") } },
            QStringLiteral("SOURCE [--read] [--json]"), QStringLiteral("list the rooms, empty ones included"), &Session::rooms },
        { QStringLiteral("events"), QStringLiteral("SOURCE"),
            QStringLiteral("List a room's events, under RoomKit's read contract."),
            roomOptions() + filterOptions() + QList<QCommandLineOption> {
                { QStringLiteral("top-level-only"), QStringLiteral("leave out thread replies") },
                { QStringLiteral("limit"), QStringLiteral("at most N events (default: all)"), QStringLiteral("N") },
                { QStringLiteral("offset"), QStringLiteral("skip N events (from the newest end with --newest-first)"),
                    QStringLiteral("N") },
                { QStringLiteral("newest-first"),
                    QStringLiteral("take the window from the room's tail (still printed oldest first)") },
                { QStringLiteral("after-index"), QStringLiteral("events after this index (exclusive)"),
                    QStringLiteral("I") },
                { QStringLiteral("before-index"), QStringLiteral("the last events before this index (exclusive)"),
                    QStringLiteral("I") },
                { QStringLiteral("count"), QStringLiteral("print how many events match instead of the events") },
                { QStringLiteral("conversation"),
                    QStringLiteral(
                        "messages only, blocked ones included: the newest --limit, or forward from --after-index") },
                { QStringLiteral("json"), QStringLiteral("one JSON object per line") },
                { QStringLiteral("follow"),
                    QStringLiteral("after the events, print new ones as the source gains them, like tail -f, until "
                                   "Ctrl+C") },
            },
            QStringLiteral("SOURCE --room ID [...]"), QStringLiteral("list a room's events (RoomKit's read contract)"),
            &Session::events },
        { QStringLiteral("tools"), QStringLiteral("SOURCE"),
            QStringLiteral("List a room's tool calls, each start paired with its end."),
            { { QStringLiteral("room"), QStringLiteral("the room's id, or a part of it that one room's id alone holds"), QStringLiteral("ID") },
                { QStringLiteral("source"),
                    QStringLiteral("the source the room came from, by path or file name, when a workspace holds that "
                                   "room id from several (import -o)"),
                    QStringLiteral("PATH") },
                { QStringLiteral("json"), QStringLiteral("one JSON object per line") } },
            QStringLiteral("SOURCE --room ID [--json]"), QStringLiteral("list a room's tool calls, start paired with end"),
            &Session::tools },
        { QStringLiteral("stats"), QStringLiteral("SOURCE"),
            QStringLiteral("Sum up a room's tool calls by tool, as the GUI's tool statistics do: calls and how they "
                           "ended (served, failed, refused, blocked, unserved, cancelled), and the p50, p95, longest and "
                           "total duration over the calls that have one (percentiles by nearest rank). Counted in "
                           "calls, not rows; under a filter, the calls whose card the timeline shows."),
            roomOptions() + filterOptions() + QList<QCommandLineOption> {
                { QStringLiteral("json"), QStringLiteral("one JSON object per tool") } },
            QStringLiteral("SOURCE --room ID [filter options] [--json]"),
            QStringLiteral("tool calls by tool: outcomes and durations"), &Session::stats },
        { QStringLiteral("facets"), QStringLiteral("SOURCE"),
            QStringLiteral("Count a room's events by each value of type, kind, channel, channel type, participant, "
                           "tool and outcome, and its blocked rows, as the GUI's filter panes do: under a filter, a "
                           "field's counts apply every other part of it."),
            { { QStringLiteral("room"), QStringLiteral("the room's id, or a part of it that one room's id alone holds"), QStringLiteral("ID") },
                { QStringLiteral("source"),
                    QStringLiteral("the source the room came from, by path or file name, when a workspace holds that "
                                   "room id from several (import -o)"),
                    QStringLiteral("PATH") },
                { QStringLiteral("query"), QStringLiteral("a filter in the filter bar's language (see events)"),
                    QStringLiteral("FILTER") },
                { QStringLiteral("limit"), QStringLiteral("at most N values a field (default 20)"),
                    QStringLiteral("N") },
                { QStringLiteral("json"), QStringLiteral("one JSON object per line") } },
            QStringLiteral("SOURCE --room ID [...]"),
            QStringLiteral("count a room's events by type, channel, participant, tool, outcome"), &Session::facets },
        { QStringLiteral("notes"), QStringLiteral("SOURCE"),
            QStringLiteral("List the notes reviewers wrote on rooms and events, with who wrote each and when."),
            { { QStringLiteral("room"), QStringLiteral("only this room's (its id, or a part of it)"), QStringLiteral("ID") },
                { QStringLiteral("source"), QStringLiteral("the source the room came from, when several hold its id"),
                    QStringLiteral("PATH") },
                { QStringLiteral("json"), QStringLiteral("one JSON object per line") } },
            QStringLiteral("SOURCE [--room ID] [--json]"), QStringLiteral("list the notes on rooms and events"),
            &Session::notes },
        { QStringLiteral("note"), QStringLiteral("SOURCE"),
            QStringLiteral("Add a note to a room, or to one of its events, signed and saved at once."),
            { { QStringLiteral("room"), QStringLiteral("the room's id, or a part of it that one room's id alone holds"), QStringLiteral("ID") },
                { QStringLiteral("source"), QStringLiteral("the source the room came from, when several hold its id"),
                    QStringLiteral("PATH") },
                { QStringLiteral("index"), QStringLiteral("the event's index (default: a note on the room)"), QStringLiteral("N") },
                { QStringLiteral("text"), QStringLiteral("what the note says"), QStringLiteral("TEXT") },
                { QStringLiteral("author"), QStringLiteral("who signs it (default: the name the window asked for, or the login name)"),
                    QStringLiteral("NAME") } },
            QStringLiteral("SOURCE --room ID [--index N] --text TEXT"), QStringLiteral("add a note to a room or an event"),
            &Session::note },
        { QStringLiteral("review"), QStringLiteral("SOURCE"),
            QStringLiteral("Set a room's review status (unreviewed, in review, done), signed and saved at once."),
            { { QStringLiteral("room"), QStringLiteral("the room's id, or a part of it that one room's id alone holds"), QStringLiteral("ID") },
                { QStringLiteral("source"), QStringLiteral("the source the room came from, when several hold its id"),
                    QStringLiteral("PATH") },
                { QStringLiteral("status"), QStringLiteral("unreviewed, in-review or done"), QStringLiteral("STATUS") },
                { QStringLiteral("author"), QStringLiteral("who signs it (default: the name the window asked for, or the login name)"),
                    QStringLiteral("NAME") } },
            QStringLiteral("SOURCE --room ID --status S"), QStringLiteral("set a room's review status"), &Session::review },
        { QStringLiteral("journal"), QStringLiteral("SOURCE"),
            QStringLiteral("List every change made to the workspace: when, who, the room and event, what, before and "
                           "after."),
            { { QStringLiteral("room"), QStringLiteral("only this room's (its id, or a part of it)"), QStringLiteral("ID") },
                { QStringLiteral("source"), QStringLiteral("the source the room came from, when several hold its id"),
                    QStringLiteral("PATH") },
                { QStringLiteral("json"), QStringLiteral("one JSON object per line") } },
            QStringLiteral("SOURCE [--room ID] [--json]"), QStringLiteral("list the changes made to the workspace"),
            &Session::journal },
        { QStringLiteral("export"), QStringLiteral("SOURCE"),
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
                { QStringLiteral("marked"), QStringLiteral("only the events a reviewer marked") },
                { QStringLiteral("author"), QStringLiteral("who makes the report (default: the name the window asked for, or the login name)"),
                    QStringLiteral("NAME") },
                { QStringLiteral("sign"), QStringLiteral("sign the manifest with this Ed25519 private key (PEM; openssl genpkey -algorithm ed25519 -out KEY)"),
                    QStringLiteral("KEY") },
                { { QStringLiteral("o"), QStringLiteral("output") }, QStringLiteral("where the report goes (a folder with --each-room)"), QStringLiteral("PATH") } },
            QStringLiteral("SOURCE (--room ID | --all-rooms) --format csv|md|html|pdf|jsonl [--query F] [--marked] [--each-room] [--sign KEY] -o PATH"),
            QStringLiteral("write a report and its manifest"), &Session::exportReport },
        { QStringLiteral("verify"), QStringLiteral("PATH"),
            QStringLiteral("Check a report against its manifest (PATH: the report or REPORT.manifest.json): says which "
                           "file changed since it was written, and with --key whether the manifest is the one that key "
                           "signed; exits 1 when anything is not as it was written."),
            { { QStringLiteral("key"), QStringLiteral("check the manifest's signature with this Ed25519 public key (PEM)"),
                QStringLiteral("PUB") } },
            QStringLiteral("PATH [--key PUB]"), QStringLiteral("check that a report is as it was written"), &Session::verify },
        { QStringLiteral("compact"), QStringLiteral("SOURCE"),
            QStringLiteral("Make the workspace of SOURCE (or the workspace file itself) as small as its content: the "
                           "text a workspace made before 3 December 2026 keeps as written is packed, as a new import "
                           "packs it, and the file written anew without its free pages. What it shows does not "
                           "change."),
            { { QStringLiteral("json"), QStringLiteral("one JSON object: workspace, bytes_before, bytes_after, rows_packed") } },
            QStringLiteral("SOURCE [--json]"), QStringLiteral("pack an older workspace's text and shrink the file"),
            &Session::compact },
        { QStringLiteral("redact"), QStringLiteral("SOURCE"),
            QStringLiteral("Redact every match of a regular expression or of built-in patterns in the string values of "
                           "a room's (or every room's) events: each becomes [redacted: REASON], saved at once, the text "
                           "gone from the workspace; the ledger keeps its keyed digest (HMAC-SHA-256). Prints every match (with its text "
                           "under --dry-run, which changes nothing)."),
            { { QStringLiteral("room"), QStringLiteral("the room's id, or a part of it that one room's id alone holds"), QStringLiteral("ID") },
                { QStringLiteral("all-rooms"), QStringLiteral("every room of the source") },
                { QStringLiteral("source"), QStringLiteral("the source the room came from, when several hold its id"),
                    QStringLiteral("PATH") },
                { QStringLiteral("pattern"), QStringLiteral("a regular expression (PCRE; repeatable)"), QStringLiteral("REGEX") },
                { QStringLiteral("builtin"), QStringLiteral("built-in patterns: email, phone, card (Luhn-checked), secret (API keys, bearer tokens)"),
                    QStringLiteral("LIST") },
                { QStringLiteral("reason"), QStringLiteral("why: what the placeholder and the ledger say"), QStringLiteral("TEXT") },
                { QStringLiteral("dry-run"), QStringLiteral("print what would be redacted, change nothing") },
                { QStringLiteral("author"), QStringLiteral("who signs it (default: the name the window asked for, or the login name)"),
                    QStringLiteral("NAME") },
                { QStringLiteral("json"), QStringLiteral("one JSON object per line") } },
            QStringLiteral("SOURCE (--room ID | --all-rooms) (--pattern RE | --builtin LIST) --reason TEXT [--dry-run]"),
            QStringLiteral("redact text by pattern, with a preview"), &Session::redact },
    };
    return specs;
}



QString manPage()
{
    QString page = QStringLiteral(".TH SIGHTLINE 1 \"%1\" \"sightline %2\" \"User Commands\"\n")
                       .arg(QLatin1String(SIGHTLINE_RELEASE_DATE), QLatin1String(SIGHTLINE_VERSION));
    page += QStringLiteral(
        ".SH NAME\nsightline \\- read, check and report what AI agents did\n"
        ".SH SYNOPSIS\n.B sightline\n[\\fIFILE\\fR|\\fIDIR\\fR]\n.br\n.B sightline\n\\fIVERB\\fR [\\fIOPTIONS\\fR] "
        "\\fISOURCE\\fR...\n"
        ".SH DESCRIPTION\n"
        "Sightline opens the stored event logs of AI-agent frameworks and shows each conversation as a timeline of "
        "messages and tool calls, every call's start paired with its end, its outcome and its timing. With a FILE or "
        "DIR it opens the window on it; with nothing, on a demo workspace. With a VERB it runs without a display.\n"
        ".PP\n"
        "A SOURCE is a RoomKit SQLite store, an AG\\-UI (kaboo\\-runtime) JSON Lines log or a folder of them, a "
        "CraftBot "
        "EVENT.md or sessions.db, or a Sightline workspace; the format is told from the content. A source is imported "
        "into a workspace of Sightline's own (cached per source), and synced on every later run; it is only read, "
        "never written.\n"
        ".SH VERBS\n");
    for (const VerbSpec& v : verbSpecs()) {
        page += QStringLiteral(".SS \"sightline %1 %2\"\n%3\n").arg(v.name, roff(v.positional), roff(v.synopsis));
        page += manOptions(v.options);
    }
    page += QStringLiteral(".SH COMMON OPTIONS\nEvery verb also takes:\n") + manOptions(commonOptions());
    page += QStringLiteral(
        ".SH EXIT STATUS\n0 on success, 1 on an error (the file and what is wrong are written to standard error), 2 on "
        "a "
        "usage error.\n"
        ".SH FILES\n.TP\n\\fI~/.cache/sightline/workspaces/\\fR\nthe cached workspace of each source\n"
        ".SH EXAMPLES\n.nf\nsightline rooms support.sqlite\n"
        "sightline events support.sqlite \\-\\-room sup\\-late\\-delivery \\-\\-type tool_call_end \\-\\-json\n"
        "sightline tools EVENT.md \\-\\-room EVENT.md\n.fi\n");
    return page;
}

bool isCliInvocation(const QStringList& arguments)
{
    const QString first = arguments.value(1);
    // A bare word that names no file is a verb mistyped (`sightline exprot`): a usage error, never a window
    // that tries to open it.
    static const QRegularExpression word(QStringLiteral("^[a-z][a-z-]*$"));
    const bool mistypedVerb = word.match(first).hasMatch() && !QFileInfo::exists(first);
    return isVerb(first) || mistypedVerb || first == QLatin1String("--help") || first == QLatin1String("-h")
        || first == QLatin1String("--version") || first == QLatin1String("-v") || first == QLatin1String("help");
}

int run(const QStringList& arguments, QTextStream& out, QTextStream& err)
{
    const QString first = arguments.value(1);
    if (first == QLatin1String("help") && arguments.value(2) == QLatin1String("--man")) {
        out << manPage();
        out.flush();
        return Ok;
    }
    if (first == QLatin1String("help") && isVerb(arguments.value(2)))
        return run({ arguments.value(0), arguments.value(2), QStringLiteral("--help") }, out, err);
    if (first == QLatin1String("--help") || first == QLatin1String("-h") || first == QLatin1String("help")) {
        out << generalHelp();
        out.flush();
        return Ok;
    }
    if (first == QLatin1String("--version") || first == QLatin1String("-v")) {
        out << "sightline " << SIGHTLINE_VERSION << Qt::endl;
        return Ok;
    }
    try {
        return Session(out, err).run(arguments);
    } catch (const Failure& f) {
        if (!f.message.isEmpty()) {
            err << "sightline: " << f.message << '\n';
            if (f.code == Usage)
                err << "Run 'sightline --help' for usage.\n";
            err.flush();
        }
        return f.code;
    } catch (const StoreError& e) {
        // An error in the workspace cached for a source (an index the room does not have) names the source the user
        // gave, not a file in a cache folder they never saw.
        const QString source = arguments.value(2);
        if (!source.isEmpty() && !e.file().isEmpty() && !source.startsWith(QLatin1Char('-'))
            && e.file() != source && e.file() == Importer::cachedWorkspacePath(source)) {
            err << "sightline: " << StoreError(source, e.place(), e.message()).toString() << Qt::endl;
            return Error;
        }
        err << "sightline: " << e.toString() << Qt::endl;
        return Error;
    } catch (const std::bad_alloc&) {
        err << "sightline: there was not enough memory for this (a source may hold a record too big to read)"
            << Qt::endl;
        return Error;
    } catch (const std::exception& e) {
        err << "sightline: unexpected error: " << e.what() << Qt::endl;
        return Error;
    }
}

} // namespace Cli
