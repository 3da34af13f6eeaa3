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
               "Usage: sightline [FILE|DIR]            open the GUI (with nothing: the source opened last, the demo the first time)\n"
               "       sightline VERB [OPTIONS] ...    run without a display\n"
               "\n"
               "Verbs:\n")
        + verbs
        + QStringLiteral(
            "\n"
            "SOURCE is a RoomKit SQLite store, an AG-UI (kaboo-runtime) JSON Lines log or a folder of them, a CraftBot\n"
            "EVENT.md or sessions.db, a Sightline JSON Lines report or workspace, or a postgresql:// URI of RoomKit's or\n"
            "kaboo's PostgreSQL store; the format is detected from the content (--format\n"
            "roomkit|agui|craftbot|craftbot-sessions|sightline-jsonl|workspace forces one).\n"
            "A store is imported into a cached workspace first, and synced on every later run.\n"
            "Run 'sightline VERB --help' (or 'sightline help VERB') for the options of a verb; 'man sightline' (or\n"
            "'sightline help --man | man -l -' from a build) for all.\n");
}


} // namespace

namespace Cli {

const QVector<VerbSpec>& verbSpecs()
{
    static const QVector<VerbSpec> specs {
        Session::importSpec(),
        Session::roomsSpec(),
        Session::eventsSpec(),
        Session::toolsSpec(),
        Session::statsSpec(),
        Session::facetsSpec(),
        Session::notesSpec(),
        Session::noteSpec(),
        Session::reviewSpec(),
        Session::journalSpec(),
        Session::exportSpec(),
        Session::verifySpec(),
        Session::compactSpec(),
        Session::redactSpec(),
        Session::teamSpec(),
        Session::queueSpec(),
        Session::compareSpec(),
        Session::demoSpec(),
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
        "DIR it opens the window on it; with nothing, on the source opened last (the demo workspace the first time). With a VERB it "
        "runs without a display.\n"
        ".PP\n"
        "A SOURCE is a RoomKit SQLite store, an AG\\-UI (kaboo\\-runtime) JSON Lines log or a folder of them, a "
        "CraftBot "
        "EVENT.md or sessions.db, a Sightline JSON Lines report or workspace, or a postgresql:// URI of RoomKit's or "
        "kaboo's PostgreSQL store; the format is told from the content. A source is imported "
        "into a workspace of Sightline's own (cached per source), and synced on every later run; it is only read, "
        "never written.\n"
        ".SH VERBS\n");
    for (const VerbSpec& v : verbSpecs()) {
        page += QStringLiteral(".SS \"sightline %1\"\n%2\n").arg(QString(v.name + QLatin1Char(' ') + roff(v.positional)).trimmed(), roff(v.synopsis));
        page += manOptions(v.options);
    }
    page += QStringLiteral(".SH COMMON OPTIONS\nEvery verb also takes these; \\fB\\-\\-format\\fR only a verb that reads a SOURCE "
                           "(\\fBexport\\fR calls it \\fB\\-\\-source\\-format\\fR; \\fBverify\\fR reads a report and has none):\n")
        + manOptions(commonOptions());
    page += QStringLiteral(
        ".SH EXIT STATUS\n0 on success, 1 on an error (the file and what is wrong are written to standard error), 2 on "
        "a "
        "usage error.\n"
        ".SH ENVIRONMENT\n.TP\n\\fBXDG_CACHE_HOME\\fR\nwhere the cached workspaces are kept (default \\fI~/.cache\\fR)\n"
        ".TP\n\\fBXDG_CONFIG_HOME\\fR\nwhere the settings are kept (default \\fI~/.config\\fR)\n"
        ".TP\n\\fBPGPASSWORD\\fR, \\fBPGPASSFILE\\fR\nthe password of a \\fIpostgresql://\\fR source, as PostgreSQL's own "
        "tools read them (else \\fI~/.pgpass\\fR); Sightline never writes a password down\n"
        ".TP\n\\fBPGSERVICEFILE\\fR\nwhere the connection services named by a URI's \\fIservice=\\fR are "
        "(\\fIpostgresql:///?service=NAME\\fR; else \\fI~/.pg_service.conf\\fR), as libpq reads it\n"
        ".SH FILES\n.TP\n\\fI$XDG_CACHE_HOME/sightline/workspaces/\\fR\nthe cached workspace of each source (private to "
        "its owner)\n.TP\n\\fI$XDG_CONFIG_HOME/sightline/sightline.conf\\fR\nthe settings: the reviewer's name, the "
        "window's layout, the saved filters\n"
        ".TP\n\\fI$XDG_CACHE_HOME/sightline/sightline/demo/\\fR\nthe demo store Sightline writes itself (\\fBsightline demo\\fR prints "
        "its path)\n"
        ".SH EXAMPLES\n.nf\nDEMO=$(sightline demo)\nsightline rooms \"$DEMO\"\n"
        "sightline events \"$DEMO\" \\-\\-room demo\\-refund\\-trouble \\-\\-type tool_call_end \\-\\-json\n"
        "sightline tools \"$DEMO\" \\-\\-room demo\\-refund\\-trouble\n"
        "sightline export \"$DEMO\" \\-\\-room demo\\-refund\\-trouble \\-\\-format html \\-o refund.html\n"
        "sightline verify refund.html\n.fi\n");
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
    // `help VERB` is `VERB --help`; help for no verb (`help bogus`) is the mistyped verb's usage error (exit 2).
    if (first == QLatin1String("help") && !arguments.value(2).isEmpty())
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
    // compare exits as diff does: 1 when the runs differ, so any trouble (a source that cannot be read, a room not
    // there) is 2, never taken by a script for "they differ".
    const bool diffLike = first == QLatin1String("compare");
    const auto error = [diffLike] { return diffLike ? int(Usage) : int(Error); };
    try {
        return Session(out, err).run(arguments);
    } catch (const Failure& f) {
        if (!f.message.isEmpty()) {
            err << "sightline: " << f.message << '\n';
            if (f.code == Usage) {
                // A verb's own help for a verb's mistake (its options); the general one otherwise.
                if (isVerb(first))
                    err << "Run 'sightline " << first << " --help' for its options.\n";
                else
                    err << "Run 'sightline --help' for usage.\n";
            }
            err.flush();
        }
        return f.code == Error ? error() : f.code;
    } catch (const StoreError& e) {
        // An error in the workspace cached for a source (an index the room does not have) names the source the user
        // gave, not a file in a cache folder they never saw.
        const QString source = arguments.value(2);
        if (!source.isEmpty() && !e.file().isEmpty() && !source.startsWith(QLatin1Char('-'))
            && e.file() != source && e.file() == Importer::cachedWorkspacePath(source)) {
            err << "sightline: " << StoreError(source, e.place(), e.message()).toString() << Qt::endl;
            return error();
        }
        err << "sightline: " << e.toString() << Qt::endl;
        return error();
    } catch (const std::bad_alloc&) {
        err << "sightline: there was not enough memory for this (a source may hold a record too big to read)"
            << Qt::endl;
        return error();
    } catch (const std::exception& e) {
        err << "sightline: unexpected error: " << e.what() << Qt::endl;
        return error();
    }
}

} // namespace Cli
