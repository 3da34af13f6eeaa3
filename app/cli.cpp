#include "cli.h"

#include "annotationstore.h"
#include "eventflags.h"
#include "eventserializer.h"
#include "filterquery.h"
#include "jsonline.h"
#include "journal.h"
#include "redactionpatterns.h"
#include "redactionstore.h"
#include "reportexport.h"
#include "reportmanifest.h"
#include "reportsignature.h"
#include "reviewer.h"
#include "roommatch.h"
#include "sources/importer.h"
#include "sources/sourcestamps.h"
#include "sources/importlock.h"
#include "sources/pgconnection.h"
#include "sources/pgsessions.h"
#include "workspacecompactor.h"
#include "storeerror.h"
#include "timeutil.h"
#include "workspace.h"

#include <algorithm>
#include <atomic>
#include <csignal>
#include <climits>
#include <memory>
#include <QCommandLineParser>
#include <optional>
#include <QFileInfo>
#include <QSqlQuery>
#include <QThread>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

namespace {

QString generalHelp(); // from the verb table, below

struct Failure
{
    int code;
    QString message;
};

// Letters to change, add or drop to turn one word into the other (Levenshtein), for "did you mean".
int editDistance(const QString& a, const QString& b)
{
    QVector<int> row(b.size() + 1);
    for (int j = 0; j <= b.size(); ++j)
        row[j] = j;
    for (int i = 1; i <= a.size(); ++i) {
        int diagonal = row[0];
        row[0] = i;
        for (int j = 1; j <= b.size(); ++j) {
            const int up = row[j];
            row[j] = std::min({ row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1) });
            diagonal = up;
        }
    }
    return row[b.size()];
}

[[noreturn]] void usage(const QString& message)
{
    throw Failure { Cli::Usage, message };
}

QJsonValue orNull(const QString& value)
{
    return value.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(value);
}

QString line(const QJsonObject& object)
{
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

QString timeOrDash(qint64 micros)
{
    return micros ? TimeUtil::formatMicros(micros) : QStringLiteral("-");
}

QString sourceHelp()
{
    return QStringLiteral(
        "a RoomKit store, an AG-UI log or folder, a CraftBot EVENT.md or sessions.db, or a workspace");
}

// What every verb takes besides its own options.
QList<QCommandLineOption> commonOptions()
{
    return {
        { QStringLiteral("format"),
            QStringLiteral("read SOURCE as this format instead of detecting it (roomkit, agui, craftbot, "
                           "craftbot-sessions, sightline-jsonl, workspace)"),
            QStringLiteral("FORMAT") },
        { QStringList { QStringLiteral("h"), QStringLiteral("help") }, QStringLiteral("show this help") },
        { QStringList { QStringLiteral("v"), QStringLiteral("version") }, QStringLiteral("show the version") },
    };
}

class Session;

// The verbs, listed once: what they parse, what their --help and `sightline --help` say, what the man page lists,
// and what runs them.
struct VerbSpec
{
    QString name;
    QString positional;
    QString synopsis;
    QList<QCommandLineOption> options;
    QString usage; // the line `sightline --help` shows, after the name
    QString summary; // ... and what it says the verb does
    int (Session::*run)(const QStringList& args) = nullptr;
};

const QVector<VerbSpec>& verbSpecs(); // after Session, whose verbs it names

bool isVerb(const QString& name)
{
    for (const VerbSpec& s : verbSpecs()) {
        if (s.name == name)
            return true;
    }
    return false;
}

const VerbSpec& spec(const QString& name)
{
    for (const VerbSpec& s : verbSpecs()) {
        if (s.name == name)
            return s;
    }
    Q_UNREACHABLE();
}

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

class Session
{
public:
    Session(QTextStream& out, QTextStream& err)
        : m_out(out)
        , m_err(err)
    {
    }

    int run(const QStringList& args)
    {
        const QString verb = args.value(1);
        for (const VerbSpec& v : verbSpecs()) {
            if (v.name == verb)
                return (this->*v.run)(args);
        }
        QStringList verbs;
        QString nearest;
        int best = 3; // two letters off at most: a typo, not another word
        for (const VerbSpec& v : verbSpecs()) {
            verbs << v.name;
            if (const int d = editDistance(verb, v.name); d < best) {
                best = d;
                nearest = v.name;
            }
        }
        usage(QStringLiteral("'%1' is neither a verb nor a file; %2the verbs are %3")
                  .arg(verb, nearest.isEmpty() ? QString() : QStringLiteral("did you mean '%1'? ").arg(nearest),
                      verbs.join(QStringLiteral(", "))));
    }

private:
    QString m_formatOption = QStringLiteral("format"); // the option that forces SOURCE's format (parse())
    friend const QVector<VerbSpec>& verbSpecs();

    void parse(QCommandLineParser& parser, const QStringList& args, const QString& verb)
    {
        const VerbSpec& verbSpec = spec(verb);
        parser.setApplicationDescription(verbSpec.synopsis);
        parser.addPositionalArgument(verbSpec.positional,
            verbSpec.positional == QLatin1String("PATH") ? QStringLiteral("a report, or its manifest (REPORT.manifest.json)")
                                                         : sourceHelp());
        parser.addOptions(verbSpec.options);
        // A verb with a --format of its own (export: the report's) reads SOURCE's forced format from
        // --source-format instead.
        m_formatOption = QStringLiteral("format");
        for (const QCommandLineOption& option : verbSpec.options) {
            if (option.names().contains(QLatin1String("format")))
                m_formatOption = QStringLiteral("source-format");
        }
        for (const QCommandLineOption& option : commonOptions()) {
            if (verbSpec.positional == QLatin1String("PATH") && option.names().contains(QLatin1String("format")))
                continue; // a report is no source: it has no format to force
            if (!option.names().contains(QLatin1String("format")))
                parser.addOption(option);
            else if (m_formatOption == QLatin1String("format"))
                parser.addOption(option);
            else
                parser.addOption({ m_formatOption, option.description(), option.valueName() });
        }
        QStringList verbArgs = args.mid(2);
        verbArgs.prepend(QStringLiteral("sightline ") + verb);
        if (!parser.parse(verbArgs))
            usage(parser.errorText());
        if (parser.isSet(QStringLiteral("help"))) {
            // Qt names the program by its path; the usage line names the verb.
            static const QRegularExpression program(QStringLiteral("^Usage: \\S+"));
            m_out << parser.helpText().replace(program, QStringLiteral("Usage: sightline ") + verb);
            throw Failure { Cli::Ok, {} };
        }
        if (parser.isSet(QStringLiteral("version"))) {
            m_out << "sightline " << SIGHTLINE_VERSION << Qt::endl;
            throw Failure { Cli::Ok, {} };
        }
        if (verbSpec.positional != QLatin1String("PATH") && parser.isSet(m_formatOption)
            && Importer::parseFormat(parser.value(m_formatOption)) == Importer::Format::Unknown)
            usage(QStringLiteral("unknown format '%1' (roomkit, agui, craftbot, craftbot-sessions, sightline-jsonl, workspace)")
                      .arg(parser.value(m_formatOption)));
    }

    Importer::Format forcedFormat(const QCommandLineParser& parser)
    {
        return Importer::parseFormat(parser.value(m_formatOption));
    }

    void reportProblems(const ImportReport& report)
    {
        for (const QString& problem : report.problems)
            m_err << "warning: " << problem << Qt::endl;
    }

    // The format `path` is read as: the one detected, or a `forced` one where detection cannot tell. A file
    // Sightline recognises read as another format gives nothing but a flood of problems and a junk room: refused,
    // naming what it is (by import as by every verb that reads a source).
    static Importer::Format formatOf(const QString& path, Importer::Format forced)
    {
        const Importer::Format detected = Importer::detect(path);
        if (detected != Importer::Format::Unknown && forced != Importer::Format::Unknown && forced != detected) {
            usage(QStringLiteral("%1 is a %2 source, not %3: leave out --format, or give --format %2")
                      .arg(path, Importer::formatName(detected), Importer::formatName(forced)));
        }
        return detected != Importer::Format::Unknown ? detected : forced;
    }

    // The rooms a verb's --room names, read alone from a source (the others are listed, and read by a later
    // command or the window); every room for --all-rooms or a verb without --room.
    static std::optional<QStringList> roomsAsked(const QCommandLineParser& parser)
    {
        const QStringList given = parser.optionNames(); // isSet() warns of an option the verb does not define
        if (given.contains(QStringLiteral("all-rooms")) || !given.contains(QStringLiteral("room")))
            return std::nullopt;
        return parser.values(QStringLiteral("room"));
    }

    // A workspace as it is, or a source synced into its cached workspace: `onlyRooms` of it (all when unset, none
    // when empty; ImportOptions::onlyRooms).
    std::unique_ptr<Workspace> openSource(
        const QString& path, Importer::Format format, const std::optional<QStringList>& onlyRooms = std::nullopt)
    {
        if (!PgConnection::isUri(path) && !QFileInfo::exists(path))
            throw StoreError(path, {}, QStringLiteral("no such file"));
        if (!PgConnection::isUri(path) && !QFileInfo(path).isFile() && !QFileInfo(path).isDir())
            throw Importer::notAFile(path); // a pipe would be waited on for ever, a device read for ever
        const Importer::Format forced = format;
        format = formatOf(path, forced);
        // A workspace an import (another command, a window) has only begun to make: a moment later it is one.
        for (int waited = 0; format == Importer::Format::Unknown && waited < 30 && Importer::mayBeBeingMade(path); ++waited) {
            QThread::msleep(100);
            format = formatOf(path, forced);
        }
        if (format == Importer::Format::Workspace)
            return std::make_unique<Workspace>(path);
        if (format == Importer::Format::Unknown)
            throw Importer::unsupported(path);
        // (A --format other than what the file is was refused above: the cache holds the file as it is.)
        const QString cached = Importer::cachedWorkspacePath(path);
        const bool existed = QFileInfo::exists(cached);
        auto workspace = std::make_unique<Workspace>(cached);
        try {
            ImportOptions options;
            options.onlyRooms = onlyRooms;
            reportProblems(Importer::import(*workspace, path, options, format));
        } catch (const WorkspaceBusy& e) {
            // A window (or another command) is importing this source: what it has committed is read as it is.
            m_err << "note: " << e.message() << "; showing what it has imported so far" << Qt::endl;
        } catch (const StoreError&) {
            // A source that could not be read at all (a server that is not there, a database that does not exist)
            // leaves no empty workspace behind in the cache.
            if (!existed) {
                QSqlQuery rooms = workspace->exec(QStringLiteral("SELECT count(*) FROM rooms"));
                const bool empty = rooms.next() && rooms.value(0).toLongLong() == 0;
                rooms.finish();
                workspace.reset();
                if (empty) {
                    for (const char* suffix : { "", "-wal", "-shm" })
                        QFile::remove(cached + QLatin1String(suffix));
                }
            }
            throw;
        }
        return workspace;
    }

    // The room `nativeId` of the workspace opened for `source` (errors name the source as the user gave it, not
    // its cached workspace).
    qint64 roomId(Workspace& ws, const QString& source, const QCommandLineParser& parser)
    {
        return roomId(ws, source, parser, parser.value(QStringLiteral("room")));
    }

    // The room `nativeId` names (its id, or a part of it that one room's id alone holds).
    qint64 roomId(Workspace& ws, const QString& source, const QCommandLineParser& parser, const QString& nativeId)
    {
        if (nativeId.isEmpty())
            usage(QStringLiteral("--room ID is required"));
        // The exact id by the workspace's own lookup; the rest of the rule (RoomMatch) over the room list.
        QVector<qint64> ids = ws.findRooms(nativeId);
        RoomMatch match;
        if (ids.isEmpty()) {
            match = RoomMatch::find(ws.rooms(), nativeId);
            ids = match.ids;
        }
        if (!match.several.isEmpty()) {
            throw StoreError(source, {},
                QStringLiteral("'%1' is part of %2 room ids (%3): give more of one")
                    .arg(nativeId, QString::number(match.several.size()),
                        match.several.mid(0, 5).join(QStringLiteral(", "))
                            + (match.several.size() > 5 ? QStringLiteral(", …") : QString())));
        }
        if (ids.isEmpty()) {
            // Room ids are matched as written (RoomKit's are case-sensitive); one written in another case is named,
            // never taken for it.
            if (!match.otherCase.isEmpty() && match.otherCase.size() <= 5) {
                throw StoreError(source, {},
                    QStringLiteral("no room '%1'; room ids are matched as written: did you mean %2?")
                        .arg(nativeId,
                            QLatin1Char('\'') + match.otherCase.join(QStringLiteral("' or '")) + QLatin1Char('\'')));
            }
            throw StoreError(source, {}, QStringLiteral("no room '%1' (sightline rooms lists them)").arg(nativeId));
        }
        // A workspace made of several sources (import -o) can hold one room id from each: --source names one,
        // by its path or its file name.
        const QString from = parser.value(QStringLiteral("source"));
        QStringList sources;
        QVector<qint64> named;
        for (const qint64 id : ids) {
            const QString path = ws.room(id)->sourcePath;
            sources << path;
            if (!from.isEmpty()
                && (QFileInfo(path).fileName() == from
                    || QFileInfo(path).canonicalFilePath() == QFileInfo(from).canonicalFilePath()))
                named << id;
        }
        if (!from.isEmpty()) {
            if (named.isEmpty()) {
                throw StoreError(source, {},
                    QStringLiteral("no room '%1' from the source '%2'; it is in: %3")
                        .arg(nativeId, from, sources.join(QStringLiteral(", "))));
            }
            ids = named;
        }
        if (ids.size() > 1) {
            throw StoreError(source, {},
                QStringLiteral("room '%1' is in %2 sources of this workspace (%3): name one with --source PATH")
                    .arg(nativeId, QString::number(ids.size()), sources.join(QStringLiteral(", "))));
        }
        // A room the workspace has not read (a window or a command reads the rooms asked first): said, never
        // answered as empty. One read in part answers with what it holds, and says so.
        const RoomSummary room = *ws.room(ids.first());
        if (room.notReadYet()) {
            throw StoreError(source, QStringLiteral("room ") + room.nativeId,
                QStringLiteral("not read yet: its source (%1) holds %2 events; give the source to read it")
                    .arg(room.sourcePath, QString::number(room.sourceEvents())));
        }
        if (room.partlyRead()) {
            m_err << "note: room " << room.nativeId << " is read in part: " << room.eventCount << " of the "
                  << room.sourceEvents() << " events its source holds; give the source to read the rest" << Qt::endl;
        }
        return ids.first();
    }

    int import(const QStringList& args)
    {
        QCommandLineParser parser;
        parse(parser, args, QStringLiteral("import"));
        const QStringList sources = parser.positionalArguments();
        if (sources.isEmpty())
            usage(QStringLiteral("import needs at least one SOURCE"));
        int code = Cli::Ok;
        // Ctrl+C (or SIGTERM) cancels as the window's Cancel does: the batch under way ends, what was committed stays,
        // and it is said; the next import goes on from there. (It killed the process without a word, exit 130.)
        static std::atomic<bool> stop { false };
        struct sigaction quit {};
        quit.sa_handler = [](int) { stop.store(true); };
        sigaction(SIGINT, &quit, nullptr);
        sigaction(SIGTERM, &quit, nullptr);
        ImportOptions options;
        options.isCancelled = [] { return stop.load(); };
        std::unique_ptr<Workspace> shared;
        if (parser.isSet(QStringLiteral("output")))
            shared = std::make_unique<Workspace>(parser.value(QStringLiteral("output")), Importer::workspaceMode(sources));
        for (const QString& source : sources) {
            if (stop.load())
                break;
            try {
                std::unique_ptr<Workspace> own;
                if (!shared)
                    own = std::make_unique<Workspace>(Importer::cachedWorkspacePath(source));
                Workspace& ws = shared ? *shared : *own;
                const ImportReport report = Importer::import(ws, source, options, formatOf(source, forcedFormat(parser)));
                reportProblems(report);
                if (report.cancelled) {
                    m_err << "cancelled: what was read is kept (" << report.added() << " events added to " << ws.path()
                          << ", " << report.roomsNotRead << " rooms not read in whole); the next import goes on from there"
                          << Qt::endl;
                }
                // A database is named without the password its URI may hold.
                m_out << (PgConnection::isUri(source) ? PgConnection::withoutPassword(source) : source) << " ("
                      << report.format << ")\n";
                for (const ImportReport::Room& room : report.rooms)
                    m_out << "  " << room.nativeId << ": +" << room.added << " (" << room.total << " events)\n";
                m_out << "  added " << report.added() << " events to " << ws.path() << Qt::endl;
            } catch (const StoreError& e) {
                m_err << "sightline: " << e.toString() << Qt::endl; // the other sources still import
                code = Cli::Error;
            }
        }
        // Stopped cleanly, and not whole: the shell's code for a command ended by Ctrl+C.
        return stop.load() ? 130 : code;
    }

    int rooms(const QStringList& args)
    {
        QCommandLineParser parser;
        parse(parser, args, QStringLiteral("rooms"));
        // Every room of the source at once, with the source's counts: none is read for this (a later command, or
        // the window, reads the rooms it is asked for).
        auto ws = openSource(single(parser), forcedFormat(parser),
            parser.isSet(QStringLiteral("read")) ? std::nullopt : std::optional<QStringList>(QStringList()));
        const bool json = parser.isSet(QStringLiteral("json"));
        for (const RoomSummary& r : ws->rooms()) {
            if (json) {
                QJsonObject o { { QStringLiteral("id"), r.nativeId }, { QStringLiteral("title"), orNull(r.title) },
                    { QStringLiteral("system"), r.system }, { QStringLiteral("source"), r.sourcePath },
                    { QStringLiteral("status"), orNull(r.status) },
                    { QStringLiteral("event_count"), r.eventCount },
                    { QStringLiteral("blocked_count"), r.blockedCount }, { QStringLiteral("tool_calls"), r.toolCalls },
                    { QStringLiteral("failed"), r.failed }, { QStringLiteral("refused"), r.refused },
                    { QStringLiteral("unserved"), r.unserved },
                    { QStringLiteral("first_at"),
                        r.firstMicros ? QJsonValue(TimeUtil::formatMicros(r.firstMicros)) : QJsonValue() },
                    { QStringLiteral("last_at"),
                        r.lastMicros ? QJsonValue(TimeUtil::formatMicros(r.lastMicros)) : QJsonValue() },
                    { QStringLiteral("owner"), orNull(r.owner) }, { QStringLiteral("agent"), orNull(r.agentId) },
                    { QStringLiteral("summary"), orNull(r.summary) },
                    { QStringLiteral("review"), r.review.isEmpty() ? ReviewStatus::Unreviewed : r.review },
                    { QStringLiteral("reviewer"), orNull(r.reviewer) }, { QStringLiteral("notes"), r.notes },
                    { QStringLiteral("read"),
                        r.notReadYet()      ? QStringLiteral("no")
                            : r.partlyRead() ? QStringLiteral("part")
                                             : QStringLiteral("whole") },
                    { QStringLiteral("source_events"), r.sourceEvents() } };
                // What only reading the room tells (its rows, calls, blocked rows, span) is not known: null, not 0.
                if (r.notReadYet()) {
                    for (const char* unknown : { "event_count", "blocked_count", "tool_calls", "failed", "refused",
                             "unserved", "first_at", "last_at" })
                        o.insert(QLatin1String(unknown), QJsonValue());
                }
                m_out << line(o) << '\n';
            } else if (r.notReadYet()) {
                m_out << r.nativeId
                      << (r.title.isEmpty() ? QString() : QStringLiteral(" \"") + r.title + QLatin1Char('"')) << "  "
                      << r.system << "  events " << r.sourceEvents() << " (not read yet)"
                      << (r.review.isEmpty() ? QString() : QStringLiteral("  review: %1 (%2)").arg(r.review, r.reviewer))
                      << (r.notes > 0 ? QStringLiteral("  notes %1").arg(r.notes) : QString()) << '\n';
            } else {
                m_out << r.nativeId
                      << (r.title.isEmpty() ? QString() : QStringLiteral(" \"") + r.title + QLatin1Char('"')) << "  "
                      << r.system << "  events " << r.eventCount
                      << (r.partlyRead() ? QStringLiteral(" of %1 (read in part)").arg(r.sourceEvents()) : QString())
                      << "  blocked " << r.blockedCount << "  tools "
                      << r.toolCalls << " (failed " << r.failed << ", refused " << r.refused << ", unserved "
                      << r.unserved << ")  " << timeOrDash(r.firstMicros) << " .. " << timeOrDash(r.lastMicros)
                      << (r.review.isEmpty() ? QString() : QStringLiteral("  review: %1 (%2)").arg(r.review, r.reviewer))
                      << (r.notes > 0 ? QStringLiteral("  notes %1").arg(r.notes) : QString()) << '\n';
            }
        }
        m_out.flush();
        return Cli::Ok;
    }

    QString single(const QCommandLineParser& parser)
    {
        const QStringList positional = parser.positionalArguments();
        if (positional.size() != 1)
            usage(QStringLiteral("expected exactly one SOURCE, got %1").arg(positional.size()));
        return positional.first();
    }

    static std::optional<qint64> indexOption(const QCommandLineParser& parser, const QString& name)
    {
        if (!parser.isSet(name))
            return std::nullopt;
        bool ok = false;
        const qint64 value = parser.value(name).toLongLong(&ok);
        if (!ok)
            usage(QStringLiteral("--%1 takes an index, not '%2'").arg(name, parser.value(name)));
        return value;
    }

    static int countOption(const QCommandLineParser& parser, const QString& name, int fallback)
    {
        if (!parser.isSet(name))
            return fallback;
        bool ok = false;
        const int value = parser.value(name).toInt(&ok);
        if (!ok || value < 0)
            usage(QStringLiteral("--%1 takes a number of 0 or more, not '%2'").arg(name, parser.value(name)));
        return value;
    }

    // The filter of a verb's options and its --query, read as one filter bar text: an option is the field of
    // the same name (--type T is type:T, --exclude-type T is -type:T, --correlation and --group are group:), so
    // that the one rule of the language holds between them too: the same field twice means either value.
    EventFilter filterOf(const QCommandLineParser& parser)
    {
        // optionNames(): the options given (isSet and value warn about an option the verb does not define).
        const QStringList given = parser.optionNames();
        QStringList terms;
        auto add = [&](const char* option, const char* field, bool negated = false) {
            if (!given.contains(QLatin1String(option)))
                return;
            for (const QString& value : parser.values(QLatin1String(option)))
                terms << FilterQuery::term(QLatin1String(field), value, negated);
        };
        add("type", "type");
        add("exclude-type", "type", true);
        add("kind", "kind");
        add("group", "group");
        add("correlation", "group");
        add("channel", "channel");
        add("channel-type", "channel_type");
        add("participant", "participant");
        for (const char* bound : { "after", "before" }) {
            if (!given.contains(QLatin1String(bound)))
                continue;
            // The filter bar's reading of a time: a date, or a date and time, local unless it says Z or an offset.
            const QString value = parser.value(QLatin1String(bound));
            if (!TimeUtil::parseUserTime(value)) {
                usage(QStringLiteral("--%1 takes a date or a date and time such as 2026-03-01 or 2026-03-01T12:00:05Z "
                                     "(local time unless it ends in Z or an offset), not '%2'")
                          .arg(QLatin1String(bound), value));
            }
            terms << FilterQuery::term(QLatin1String(bound), value);
        }
        if (given.contains(QLatin1String("include-blocked")))
            terms << QStringLiteral("blocked:include");
        // --text: every word of it, as the search field reads it.
        if (given.contains(QLatin1String("text"))) {
            for (const QString& word : parser.value(QStringLiteral("text")).split(QLatin1Char(' '), Qt::SkipEmptyParts))
                terms << FilterQuery::term(QStringLiteral("text"), word);
        }
        const QString query = given.contains(QLatin1String("query")) ? parser.value(QStringLiteral("query")) : QString();
        const FilterQuery::Result own = FilterQuery::parse(query);
        if (!own.ok()) {
            // The text again with a caret under the place, as a compiler does.
            usage(QStringLiteral("--query: %1 (at column %2)\n  %3\n  %4%5")
                      .arg(own.error, QString::number(own.position + 1), query, QString(own.position, QLatin1Char(' ')),
                          QString(own.length, QLatin1Char('^'))));
        }
        if (!own.note.isEmpty())
            m_err << "note: --query: " << own.note << Qt::endl;
        const QString whole = QString(terms.join(QLatin1Char(' ')) + QLatin1Char(' ') + query).trimmed();
        const FilterQuery::Result r = FilterQuery::parse(whole);
        if (!r.ok())
            usage(QStringLiteral("the options and --query: %1 (%2)").arg(r.error, whole));
        EventFilter filter = r.filter;
        filter.topLevelOnly = given.contains(QLatin1String("top-level-only"));
        return filter;
    }

    int events(const QStringList& args)
    {
        QCommandLineParser parser;
        parse(parser, args, QStringLiteral("events"));
        const QString source = single(parser);

        const EventFilter filter = filterOf(parser);

        PageRequest page;
        page.limit = countOption(parser, QStringLiteral("limit"), INT_MAX);
        page.offset = countOption(parser, QStringLiteral("offset"), 0);
        page.newestFirst = parser.isSet(QStringLiteral("newest-first"));
        page.afterIndex = indexOption(parser, QStringLiteral("after-index"));
        page.beforeIndex = indexOption(parser, QStringLiteral("before-index"));
        if (page.afterIndex && page.beforeIndex)
            usage(QStringLiteral("--after-index and --before-index are mutually exclusive"));
        if (page.newestFirst && (page.afterIndex || page.beforeIndex))
            usage(QStringLiteral("--newest-first applies only without --after-index or --before-index"));
        const bool conversation = parser.isSet(QStringLiteral("conversation"));
        if (conversation && (filter != EventFilter() || page.beforeIndex || page.newestFirst || page.offset))
            usage(QStringLiteral("--conversation takes only --limit and --after-index"));
        const bool follow = parser.isSet(QStringLiteral("follow"));
        if (follow && (parser.isSet(QStringLiteral("count")) || page.beforeIndex))
            usage(QStringLiteral("--follow prints what comes after: not with --count or --before-index"));

        auto ws = openSource(source, forcedFormat(parser), roomsAsked(parser));
        const qint64 room = roomId(*ws, source, parser);
        if (parser.isSet(QStringLiteral("count")) && conversation) {
            // What the same command lists: the conversation's messages (within --limit and after --after-index).
            m_out << ws->conversation(room, page.limit, page.afterIndex).size() << Qt::endl;
            return Cli::Ok;
        }
        if (parser.isSet(QStringLiteral("count"))) {
            // Without any filter or window every committed row counts, blocked ones included (RoomKit's
            // get_event_count); with one, exactly the rows the same command lists (blocked:hide, the default
            // filter said out loud, counts what it shows).
            bool given = false;
            for (const char* option : { "type", "exclude-type", "kind", "group", "channel", "channel-type", "participant",
                     "correlation", "after", "before", "include-blocked", "top-level-only", "query", "text", "limit",
                     "offset", "newest-first", "after-index", "before-index" })
                given = given || parser.isSet(QLatin1String(option));
            m_out << (given ? ws->countEvents(room, filter, page) : ws->countEvents(room)) << Qt::endl;
            return Cli::Ok;
        }
        const bool json = parser.isSet(QStringLiteral("json"));
        // The last event printed, as its text line says it: following, a record its writer went on with after it
        // was printed (a CraftBot record whose lines were still coming) is printed again, whole. Its text, not its
        // JSON: a call paired since (its end came) changes the JSON of a row that was whole when printed.
        std::optional<std::pair<qint64, QString>> lastPrinted;
        auto print = [&](const EventRecord& e) {
            const QString text = EventSerializer::eventText(e);
            if (json)
                m_out << EventSerializer::eventJson(e) << '\n'; // QTextStream reads a QByteArray as UTF-8
            else
                m_out << text << '\n';
            lastPrinted = { e.index, text };
        };
        qint64 last = -1; // the highest index printed or passed over
        // Following a log its writer is still writing: its last line or record, when the file does not end with a
        // line break yet, is held back until it does (printed half, it was never printed again whole).
        const bool textLog = follow && QFileInfo(source).isFile()
            && (formatOf(source, forcedFormat(parser)) == Importer::Format::AguiJsonl
                || formatOf(source, forcedFormat(parser)) == Importer::Format::CraftBotEventMd);
        auto printFrom = [&](const PageRequest& window) {
            const qint64 end = lastIndex(*ws, room);
            const qint64 hold = textLog && !endsWithLineBreak(source) ? end : std::numeric_limits<qint64>::max();
            const auto printBefore = [&](const EventRecord& e) {
                if (e.index < hold)
                    print(e);
            };
            if (conversation) {
                for (const EventRecord& e : ws->conversation(room, window.limit, window.afterIndex))
                    printBefore(e);
            } else {
                // A line as each row is read: a room is never held whole.
                ws->forEachEvent(room, filter, window, printBefore);
            }
            m_out.flush();
            last = std::max(last, hold == std::numeric_limits<qint64>::max() ? end : hold - 1);
        };
        printFrom(page);
        if (follow)
            followSource(*ws, source, forcedFormat(parser), roomsAsked(parser), [&] {
                // A log rotated or rewritten is read again from its start, and listed again from there.
                if (lastIndex(*ws, room) < last) {
                    m_err << "note: " << source << " was rotated or rewritten: its events follow from its start"
                          << Qt::endl;
                    last = -1;
                }
                if (lastPrinted && !conversation) {
                    PageRequest again;
                    again.limit = 1;
                    again.afterIndex = lastPrinted->first - 1;
                    const auto before = lastPrinted;
                    ws->forEachEvent(room, filter, again, [&](const EventRecord& e) {
                        if (e.index == before->first && EventSerializer::eventText(e) != before->second) {
                            m_err << "note: event " << e.index << " was still being written when printed: again, whole"
                                  << Qt::endl;
                            print(e);
                        }
                    });
                }
                PageRequest next;
                next.limit = INT_MAX;
                next.afterIndex = last;
                printFrom(next);
            });
        return Cli::Ok;
    }

    static bool endsWithLineBreak(const QString& path)
    {
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly) || f.size() == 0)
            return true;
        f.seek(f.size() - 1);
        return f.read(1) == "\n";
    }

    static qint64 lastIndex(Workspace& ws, qint64 room)
    {
        QSqlQuery q = ws.exec(QStringLiteral("SELECT coalesce(max(seq), -1) FROM events WHERE room_id = ?"), { room });
        return q.next() ? q.value(0).toLongLong() : -1;
    }

    // Syncs `source` into `ws` whenever it changed (a database: every second) and calls `printNew` after each
    // sync, until SIGINT or SIGTERM: then the sync under way stops after its batch and the loop ends cleanly.
    // Only `onlyRooms` of it, when given (the room a verb follows: the others are not read for it).
    void followSource(Workspace& ws, const QString& source, Importer::Format format,
        const std::optional<QStringList>& onlyRooms, const std::function<void()>& printNew)
    {
        static std::atomic<bool> stop { false };
        struct sigaction quit {};
        quit.sa_handler = [](int) { stop.store(true); };
        sigaction(SIGINT, &quit, nullptr);
        sigaction(SIGTERM, &quit, nullptr);
        PgSessions sessions; // one server session for the whole follow, closed when it ends
        ImportOptions options;
        options.isCancelled = [] { return stop.load(); };
        options.pgSessions = &sessions;
        options.onlyRooms = onlyRooms;
        const bool database = PgConnection::isUri(source);
        // The window's rule for what is due (SourceStamps): a sync that failed is tried again.
        SourceStamps stamps;
        stamps.reset({ source });
        while (!stop.load()) {
            for (int slice = 0; slice < (database ? 10 : 5) && !stop.load(); ++slice)
                QThread::msleep(100);
            if (stop.load() || stamps.due(true).isEmpty())
                continue;
            try {
                ImportReport report = Importer::import(ws, source, options, format);
                // A line its writer is still writing is held back (see events), not warned about at every look.
                report.problems.removeIf(&ImportReport::isUnfinished);
                reportProblems(report);
                stamps.synced();
            } catch (const WorkspaceBusy&) {
                stamps.failed(); // a window is syncing it: its rows are read next time
                continue;
            } catch (const StoreError& e) {
                // A server that went away, a file being replaced: said, and tried again.
                stamps.failed();
                m_err << "sightline: " << e.toString() << "; trying again" << Qt::endl;
                continue;
            }
            printNew();
        }
    }

    int tools(const QStringList& args)
    {
        QCommandLineParser parser;
        parse(parser, args, QStringLiteral("tools"));
        const QString source = single(parser);
        auto ws = openSource(source, forcedFormat(parser), roomsAsked(parser));
        const qint64 room = roomId(*ws, source, parser);
        const bool json = parser.isSet(QStringLiteral("json"));
        for (const ToolCallRecord& c : ws->toolCalls(room)) {
            if (json) {
                // The call as assembled, so that a script checks it without reading its events: its arguments as
                // sent (a string), the result that settled it, and each of its results when there are several.
                QByteArray o = EventSerializer::callJson(c);
                o.chop(1);
                JsonLine more;
                if (c.arguments.isNull())
                    more.addNull("arguments");
                else
                    more.add("arguments", c.arguments);
                if (c.result.isNull() && !c.resultIndex)
                    more.addNull("result");
                else
                    more.add("result", c.result);
                QJsonArray results;
                for (const QString& r : ws->callResults(room, c))
                    results.append(r);
                more.addJson("results", QJsonDocument(results).toJson(QJsonDocument::Compact));
                m_out << o << ',' << more.text().mid(1) << '\n';
            } else
                m_out << EventSerializer::callText(c) << '\n';
        }
        m_out.flush();
        return Cli::Ok;
    }

    int stats(const QStringList& args)
    {
        QCommandLineParser parser;
        parse(parser, args, QStringLiteral("stats"));
        const QString source = single(parser);
        const EventFilter filter = filterOf(parser);
        auto ws = openSource(source, forcedFormat(parser), roomsAsked(parser));
        const qint64 room = roomId(*ws, source, parser);
        const ToolStatsList stats = ws->toolStats(room, filter);
        if (parser.isSet(QStringLiteral("json"))) {
            for (const ToolStats& t : stats) {
                JsonLine o;
                o.add("tool_name", t.toolName);
                for (const auto& [key, value] : { std::pair { "calls", t.calls }, { "served", t.served },
                         { "failed", t.failed }, { "refused", t.refused }, { "blocked", t.blocked },
                         { "unserved", t.unserved }, { "cancelled", t.cancelled } })
                    o.add(key, value);
                for (const auto& [key, value] : { std::pair { "p50_ms", t.p50Ms }, { "p95_ms", t.p95Ms }, { "max_ms", t.maxMs } }) {
                    if (value)
                        o.add(key, *value);
                    else
                        o.addNull(key); // no call of the tool has a duration
                }
                o.add("total_ms", t.totalMs);
                m_out << o.text() << '\n';
            }
            m_out.flush();
            return Cli::Ok;
        }
        // A table: the tool's name, then its figures right-aligned under their headings.
        const QStringList headings { QStringLiteral("calls"), QStringLiteral("served"), QStringLiteral("failed"),
            QStringLiteral("refused"), QStringLiteral("blocked"), QStringLiteral("unserved"), QStringLiteral("cancelled"),
            QStringLiteral("p50_ms"), QStringLiteral("p95_ms"), QStringLiteral("max_ms"), QStringLiteral("total_ms") };
        qsizetype nameWidth = 9;
        for (const ToolStats& t : stats)
            nameWidth = std::max(nameWidth, t.toolName.size());
        m_out << QStringLiteral("tool_name").leftJustified(nameWidth);
        for (const QString& h : headings)
            m_out << "  " << h.rightJustified(9);
        m_out << '\n';
        auto figure = [](const std::optional<qint64>& v) { return v ? QString::number(*v) : QStringLiteral("-"); };
        for (const ToolStats& t : stats) {
            m_out << t.toolName.leftJustified(nameWidth);
            for (const QString& v : { QString::number(t.calls), QString::number(t.served), QString::number(t.failed),
                     QString::number(t.refused), QString::number(t.blocked), QString::number(t.unserved),
                     QString::number(t.cancelled), figure(t.p50Ms), figure(t.p95Ms), figure(t.maxMs),
                     QString::number(t.totalMs) })
                m_out << "  " << v.rightJustified(9);
            m_out << '\n';
        }
        m_out.flush();
        return Cli::Ok;
    }

    int facets(const QStringList& args)
    {
        QCommandLineParser parser;
        parse(parser, args, QStringLiteral("facets"));
        const QString source = single(parser);
        const EventFilter filter = filterOf(parser);
        const int limit = countOption(parser, QStringLiteral("limit"), 20);
        auto ws = openSource(source, forcedFormat(parser), roomsAsked(parser));
        const qint64 room = roomId(*ws, source, parser);
        const FacetCounts counts = ws->facets(room, filter, 1, limit);
        const bool json = parser.isSet(QStringLiteral("json"));
        // A text line: the count right-aligned in a column, then what it counts.
        auto countLine = [this](qint64 count, const QString& label) {
            m_out << "  " << QString::number(count).rightJustified(12) << "  " << label << '\n';
        };
        for (const QString& field :
            { QStringLiteral("kind"), QStringLiteral("type"), QStringLiteral("channel"), QStringLiteral("channel_type"),
                QStringLiteral("participant"), QStringLiteral("tool"), QStringLiteral("outcome") }) {
            const QVector<FacetValue> values = counts.fields.value(field);
            if (std::none_of(values.cbegin(), values.cend(), [](const FacetValue& v) { return v.count > 0; }))
                continue;
            if (!json)
                m_out << field << '\n';
            for (const FacetValue& v : values) {
                if (v.count == 0)
                    continue; // what the room holds but the filter leaves out: the panes list it, the counts not
                if (json) {
                    QJsonObject o { { QStringLiteral("field"), field }, { QStringLiteral("value"), v.value },
                        { QStringLiteral("count"), v.count } };
                    if (!v.group.isEmpty())
                        o.insert(QStringLiteral("group"), v.group);
                    m_out << line(o) << '\n';
                } else {
                    countLine(v.count, v.value);
                }
            }
            if (counts.more.contains(field)) {
                if (json)
                    m_out << line({ { QStringLiteral("field"), field }, { QStringLiteral("value"), QJsonValue() },
                        { QStringLiteral("count"), counts.more.value(field) } })
                          << '\n';
                else
                    countLine(counts.more.value(field), QStringLiteral("(other values)"));
            }
        }
        if (json) {
            m_out << line(
                { { QStringLiteral("field"), QStringLiteral("blocked") }, { QStringLiteral("blocked"), counts.blocked },
                    { QStringLiteral("unblocked"), counts.unblocked }, { QStringLiteral("shown"), counts.shown } })
                  << '\n';
        } else {
            m_out << "blocked\n";
            countLine(counts.blocked, QStringLiteral("blocked by a hook"));
            countLine(counts.unblocked, QStringLiteral("not blocked"));
            m_out << "shown\n";
            countLine(counts.shown, QStringLiteral("events under the whole filter"));
        }
        m_out.flush();
        return Cli::Ok;
    }

    // Who signs a change made here: --author, else the name the window asks for once, else the login name.
    QString author(const QCommandLineParser& parser)
    {
        QString name = parser.value(QStringLiteral("author")).trimmed();
        if (name.isEmpty())
            name = Reviewer::name();
        if (name.isEmpty())
            usage(QStringLiteral("who is making this change? give --author NAME"));
        return name;
    }

    // The room's index as the journal and notes print it.
    static QJsonValue indexValue(const std::optional<qint64>& index)
    {
        return index ? QJsonValue(*index) : QJsonValue();
    }

    int notes(const QStringList& args)
    {
        QCommandLineParser parser;
        parse(parser, args, QStringLiteral("notes"));
        const QString source = single(parser);
        auto ws = openSource(source, forcedFormat(parser), roomsAsked(parser));
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

    int note(const QStringList& args)
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

    int review(const QStringList& args)
    {
        QCommandLineParser parser;
        parse(parser, args, QStringLiteral("review"));
        const QString source = single(parser);
        QString status = parser.value(QStringLiteral("status")).trimmed().toLower();
        status.replace(QLatin1Char('-'), QLatin1Char(' ')).replace(QLatin1Char('_'), QLatin1Char(' '));
        if (!ReviewStatus::all().contains(status)) {
            usage(QStringLiteral("--status is one of: %1 (not '%2')")
                      .arg(ReviewStatus::all().join(QStringLiteral(", ")), parser.value(QStringLiteral("status"))));
        }
        const QString who = author(parser);
        auto ws = openSource(source, forcedFormat(parser), roomsAsked(parser));
        const qint64 room = roomId(*ws, source, parser);
        AnnotationStore store(*ws);
        const EditSteps steps = store.setReview(room, status, who);
        store.saveOnly(steps);
        m_out << ws->room(room)->nativeId << ": review " << status
              << (steps.isEmpty() ? QStringLiteral(" (it already was)") : QStringLiteral(" by ") + who) << Qt::endl;
        return Cli::Ok;
    }

    int journal(const QStringList& args)
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

    int exportReport(const QStringList& args)
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

    int verify(const QStringList& args)
    {
        QCommandLineParser parser;
        parse(parser, args, QStringLiteral("verify"));
        const QString path = single(parser);
        const ReportManifest::Check check = ReportManifest::verify(path);
        if (!check.error.isEmpty()) {
            m_err << "sightline: " << check.error << Qt::endl;
            return Cli::Error;
        }
        for (const QString& file : check.changed)
            m_out << "changed: " << file << '\n';
        for (const QString& file : check.missing)
            m_out << "missing: " << file << '\n';
        if (check.ok)
            m_out << "ok: every file " << check.manifest << " lists is as it was written" << '\n';
        // The signature: whether the manifest is the one its key signed, so that a report and its manifest changed
        // together are caught.
        bool signedOk = true;
        const QString key = parser.value(QStringLiteral("key"));
        const QString signature = ReportSignature::pathFor(check.manifest);
        if (!key.isEmpty()) {
            switch (ReportSignature::verify(check.manifest, key)) {
            case ReportSignature::Result::Valid:
                m_out << "signature: valid, by key " << ReportSignature::publicKeyId(key) << '\n';
                break;
            case ReportSignature::Result::Invalid:
                signedOk = false;
                m_out << "signature: INVALID: " << check.manifest
                      << (!check.keyId.isEmpty() && check.keyId != ReportSignature::publicKeyId(key)
                                 ? QStringLiteral(" names another signing key (%1)").arg(check.keyId)
                                 : QStringLiteral(" changed since it was signed"))
                      << '\n';
                break;
            case ReportSignature::Result::Unsigned:
                signedOk = false;
                m_out << "signature: none: " << signature << " is not there" << '\n';
                break;
            }
        } else if (QFileInfo::exists(signature)) {
            // A signed report checked without its key proves nothing against someone who changed the report and wrote
            // its manifest's digests again: not a pass.
            signedOk = false;
            m_out << "signature: " << signature << " (key " << (check.keyId.isEmpty() ? QStringLiteral("?") : check.keyId)
                  << "), not checked: give --key PUBLIC.pem (without it, a report changed together with its manifest "
                     "would pass)"
                  << '\n';
        }
        m_out.flush();
        return check.ok && signedOk ? Cli::Ok : Cli::Error;
    }

    int compact(const QStringList& args)
    {
        QCommandLineParser parser;
        parse(parser, args, QStringLiteral("compact"));
        const QString source = single(parser);
        auto ws = openSource(source, forcedFormat(parser), roomsAsked(parser));
        // No import writes it meanwhile: one under way (a window following its source) is said, and nothing done.
        const ImportLock lock(ws->path());
        const WorkspaceCompactor::Result r = WorkspaceCompactor(*ws).run();
        // A QString, not the string builder `auto` would keep (it pointed at a number already gone).
        const auto mb = [](qint64 bytes) -> QString {
            return QString::number(double(bytes) / 1e6, 'f', 1) + QStringLiteral(" MB");
        };
        if (parser.isSet(QStringLiteral("json"))) {
            JsonLine line;
            line.add("workspace", ws->path());
            line.add("bytes_before", r.bytesBefore);
            line.add("bytes_after", r.bytesAfter);
            line.add("rows_packed", r.packed);
            m_out << line.text() << '\n';
        } else {
            m_out << "compacted " << ws->path() << ": " << mb(r.bytesBefore) << " -> " << mb(r.bytesAfter) << " ("
                  << r.packed << " rows packed)" << '\n';
        }
        m_out.flush();
        return Cli::Ok;
    }

    int redact(const QStringList& args)
    {
        QCommandLineParser parser;
        parse(parser, args, QStringLiteral("redact"));
        const QString source = single(parser);
        const bool all = parser.isSet(QStringLiteral("all-rooms"));
        if (all == parser.isSet(QStringLiteral("room")))
            usage(QStringLiteral("give either --room ID or --all-rooms"));
        QVector<RedactionPatterns::Pattern> patterns;
        QString error;
        for (const QString& expression : parser.values(QStringLiteral("pattern"))) {
            const auto p = RedactionPatterns::custom(expression, &error);
            if (p.isEmpty())
                usage(QStringLiteral("--pattern '%1': %2").arg(expression, error));
            patterns += p;
        }
        if (parser.isSet(QStringLiteral("builtin"))) {
            // --builtin email --builtin card is --builtin email,card: the last one alone was taken before.
            const auto p = RedactionPatterns::builtin(
                parser.values(QStringLiteral("builtin")).join(QLatin1Char(',')).split(QLatin1Char(','), Qt::SkipEmptyParts), &error);
            if (p.isEmpty())
                usage(QStringLiteral("--builtin: %1").arg(error.isEmpty() ? QStringLiteral("name one") : error));
            patterns += p;
        }
        if (patterns.isEmpty())
            usage(QStringLiteral("give --pattern REGEX or --builtin email,phone,card,secret"));
        const bool dryRun = parser.isSet(QStringLiteral("dry-run"));
        const QString reason = parser.value(QStringLiteral("reason")).simplified();
        if (!dryRun && reason.isEmpty())
            usage(QStringLiteral("--reason TEXT is required (it is what the placeholder and the ledger say)"));
        const QString who = dryRun ? QString() : author(parser);
        auto ws = openSource(source, forcedFormat(parser), roomsAsked(parser));
        // No import writes it meanwhile (a window following its source): the rows it had not written yet would
        // come in clear, after a redaction that said it was done. Said, and nothing done.
        std::optional<ImportLock> lock;
        if (!dryRun)
            lock.emplace(ws->path());
        const qint64 room = all ? 0 : roomId(*ws, source, parser);
        const RedactionMatches found = RedactionStore(*ws).find(room, patterns);
        const bool json = parser.isSet(QStringLiteral("json"));
        // A dry run shows what would go; a redaction says where, never the text it removed.
        for (const RedactionMatch& m : found) {
            if (json) {
                // A note on the room itself has no index.
                const bool roomNote = m.path == QLatin1String("@note") && m.index < 0;
                QJsonObject o { { QStringLiteral("room"), m.room }, { QStringLiteral("index"), roomNote ? QJsonValue() : QJsonValue(m.index) },
                    { QStringLiteral("path"), m.path }, { QStringLiteral("start"), m.start },
                    { QStringLiteral("length"), m.length }, { QStringLiteral("pattern"), m.pattern } };
                if (dryRun)
                    o.insert(QStringLiteral("text"), m.text);
                m_out << line(o) << '\n';
            } else {
                m_out << m.room << "  " << (m.path == QLatin1String("@note") && m.index < 0 ? QStringLiteral("room") : QString::number(m.index))
                      << "  " << (m.path.isEmpty() ? QStringLiteral("(text)") : m.path) << " [" << m.start << ", " << m.start + m.length
                      << ")  " << m.pattern
                      << (dryRun ? QStringLiteral("  \"%1\"").arg(m.text) : QString()) << '\n';
            }
        }
        if (!dryRun && !found.isEmpty()) {
            AnnotationStore store(*ws);
            store.redactMatchesAndSave(found, reason, who);
        }
        m_err << (dryRun ? "would redact " : "redacted ") << found.size() << (found.size() == 1 ? " match" : " matches")
              << (dryRun ? " (nothing changed: --dry-run)" : "") << Qt::endl;
        m_out.flush();
        return Cli::Ok;
    }

    QTextStream& m_out;
    QTextStream& m_err;
};

// The options that name a room in a source: its id, and the source when a workspace holds that id from several.
QList<QCommandLineOption> roomOptions()
{
    return {
        { QStringLiteral("room"), QStringLiteral("the room's id, or a part of it that one room's id alone holds"), QStringLiteral("ID") },
        { QStringLiteral("source"),
            QStringLiteral("the source the room came from, by path or file name, when a workspace holds that room id "
                           "from several (import -o)"),
            QStringLiteral("PATH") },
    };
}

// The filter a verb that reads a room's events takes (Session::filterOf reads them).
QList<QCommandLineOption> filterOptions()
{
    return {
                { QStringLiteral("type"), QStringLiteral("only this event type (repeatable)"), QStringLiteral("T") },
                { QStringLiteral("kind"),
                    QStringLiteral("only this canonical kind (repeatable): message, reasoning, tool_call, run, state, "
                                   "lifecycle, system, error, custom"),
                    QStringLiteral("K") },
                { QStringLiteral("group"),
                    QStringLiteral("only events of this AI response: a RoomKit correlation id or an AG-UI run id"),
                    QStringLiteral("ID") },
                { QStringLiteral("exclude-type"), QStringLiteral("leave out this type (repeatable; wins over --type)"),
                    QStringLiteral("T") },
                { QStringLiteral("channel"), QStringLiteral("only events from this channel id"), QStringLiteral("ID") },
                { QStringLiteral("channel-type"), QStringLiteral("only events from this channel type"),
                    QStringLiteral("T") },
                { QStringLiteral("participant"), QStringLiteral("only events from this participant"),
                    QStringLiteral("ID") },
                { QStringLiteral("correlation"), QStringLiteral("only events of this AI response"),
                    QStringLiteral("ID") },
                { QStringLiteral("after"), QStringLiteral("only events created after TIME (exclusive)"),
                    QStringLiteral("TIME") },
                { QStringLiteral("before"), QStringLiteral("only events created before TIME (exclusive)"),
                    QStringLiteral("TIME") },
                { QStringLiteral("include-blocked"),
                    QStringLiteral("include rows a hook blocked (left out by default)") },
                { QStringLiteral("query"),
                    QStringLiteral("a filter in the filter bar's language, as in the GUI, e.g. 'type:tool_call_end "
                                   "outcome:failed -channel:sms after:2026-07-17T10:00 blocked:include \"a phrase\"'; "
                                   "its terms add to the other options"),
                    QStringLiteral("FILTER") },
                { QStringLiteral("text"),
                    QStringLiteral("only events whose message text, tool arguments or result hold every word of TEXT "
                                   "(the GUI's search)"),
                    QStringLiteral("TEXT") },
    };
}

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
