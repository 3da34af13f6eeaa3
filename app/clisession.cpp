#include "clisession.h"

#include "filterquery.h"
#include "redactionstore.h"
#include "reviewer.h"
#include "settings.h"
#include "roommatch.h"
#include "sources/importer.h"
#include "sources/pgconnection.h"
#include "storeerror.h"
#include "sources/importlock.h"
#include "team/teamstore.h"
#include "team/teamsync.h"
#include "timeutil.h"
#include "workspace.h"

#include <algorithm>
#include <csignal>
#include <memory>
#include <QCommandLineParser>
#include <optional>
#include <QFileInfo>
#include <QSqlQuery>
#include <QThread>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

namespace Cli {

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

QCommandLineOption teamOption()
{
    return { QStringLiteral("team"),
        QStringLiteral("share the review through this team store (postgresql://login@host/db); the workspace stays "
                       "attached to it"),
        QStringLiteral("URI") };
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
                    QStringLiteral("only events of this AI response: a RoomKit correlation id, an AG-UI run id or a CraftBot task id"),
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

int Session::run(const QStringList& args)
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

void Session::parse(QCommandLineParser& parser, const QStringList& args, const QString& verb)
{
    const VerbSpec& verbSpec = spec(verb);
    parser.setApplicationDescription(verbSpec.synopsis);
    if (!verbSpec.positional.isEmpty()) { // demo takes none
        parser.addPositionalArgument(verbSpec.positional,
            verbSpec.positional == QLatin1String("PATH") ? QStringLiteral("a report, or its manifest (REPORT.manifest.json)")
                                                         : sourceHelp());
    }
    parser.addOptions(verbSpec.options);
    // A verb with a --format of its own (export: the report's) reads SOURCE's forced format from
    // --source-format instead.
    m_formatOption = QStringLiteral("format");
    for (const QCommandLineOption& option : verbSpec.options) {
        if (option.names().contains(QLatin1String("format")))
            m_formatOption = QStringLiteral("source-format");
    }
    for (const QCommandLineOption& option : commonOptions()) {
        if ((verbSpec.positional == QLatin1String("PATH") || verbSpec.positional.isEmpty())
            && option.names().contains(QLatin1String("format")))
            continue; // a report, or nothing, is no source: it has no format to force
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
    if (!verbSpec.positional.isEmpty() && verbSpec.positional != QLatin1String("PATH") && parser.isSet(m_formatOption)
        && Importer::parseFormat(parser.value(m_formatOption)) == Importer::Format::Unknown)
        usage(QStringLiteral("unknown format '%1' (roomkit, agui, craftbot, craftbot-sessions, sightline-jsonl, workspace)")
                  .arg(parser.value(m_formatOption)));
    // --team given: the sync that opening an attached workspace makes goes there too (its password, its login), not to
    // the URI the attachment kept without a password.
    if (parser.optionNames().contains(QLatin1String("team")) && PgConnection::isUri(parser.value(QStringLiteral("team"))))
        m_teamGiven = parser.value(QStringLiteral("team"));
}

Importer::Format Session::forcedFormat(const QCommandLineParser& parser)
{
    return Importer::parseFormat(parser.value(m_formatOption));
}

void Session::reportProblems(const ImportReport& report)
{
    for (const QString& problem : report.problems)
        m_err << "warning: " << problem << Qt::endl;
}

Importer::Format Session::formatOf(const QString& path, Importer::Format forced)
{
    const Importer::Format detected = Importer::detect(path);
    if (detected != Importer::Format::Unknown && forced != Importer::Format::Unknown && forced != detected) {
        usage(QStringLiteral("%1 is a %2 source, not %3: leave out --format, or give --format %2")
                  .arg(path, Importer::formatName(detected), Importer::formatName(forced)));
    }
    return detected != Importer::Format::Unknown ? detected : forced;
}

std::optional<QStringList> Session::roomsAsked(const QCommandLineParser& parser)
{
    const QStringList given = parser.optionNames(); // isSet() warns of an option the verb does not define
    if (given.contains(QStringLiteral("all-rooms")) || !given.contains(QStringLiteral("room")))
        return std::nullopt;
    return parser.values(QStringLiteral("room"));
}

std::unique_ptr<Workspace> Session::openSource(
    const QString& path, Importer::Format format, const std::optional<QStringList>& onlyRooms)
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
        return cutWaitingRedactions(std::make_unique<Workspace>(path));
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
    return cutWaitingRedactions(std::move(workspace));
}

std::unique_ptr<Workspace> Session::cutWaitingRedactions(std::unique_ptr<Workspace> ws)
{
    QStringList unapplied;
    if (TeamSync::applyWaiting(*ws, std::nullopt, &unapplied))
        RedactionStore(*ws).forget();
    // What teammates changed, teammates' redactions first among it, before any verb reads the rows (the team verb
    // syncs itself, and says what it sent).
    if (m_syncOnOpen)
        syncAttachedTeam(*ws);
    return ws;
}

qint64 Session::roomId(Workspace& ws, const QString& source, const QCommandLineParser& parser)
{
    return roomId(ws, source, parser, parser.value(QStringLiteral("room")));
}

qint64 Session::roomId(
    Workspace& ws, const QString& source, const QCommandLineParser& parser, const QString& nativeId, const QString& option)
{
    if (nativeId.isEmpty()) {
        // A source of one room (an AG-UI thread's log, an EVENT.md) needs no --room: there is only it to mean.
        const RoomSummaries rooms = ws.rooms();
        if (rooms.size() == 1)
            return rooms.first().id;
        usage(rooms.isEmpty() ? QStringLiteral("--%1 ID is required").arg(option)
                              : QStringLiteral("--%1 ID is required: %2 holds %3 rooms (sightline rooms %2 lists them)")
                                    .arg(option, source, QString::number(rooms.size())));
    }
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
    // (optionNames(): a verb without --source, such as compare, is not warned of it.)
    const QString from = parser.optionNames().contains(QLatin1String("source")) ? parser.value(QStringLiteral("source")) : QString();
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

QString Session::single(const QCommandLineParser& parser)
{
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 1)
        usage(QStringLiteral("expected exactly one SOURCE, got %1").arg(positional.size()));
    return positional.first();
}

std::optional<qint64> Session::indexOption(const QCommandLineParser& parser, const QString& name)
{
    if (!parser.isSet(name))
        return std::nullopt;
    bool ok = false;
    const qint64 value = parser.value(name).toLongLong(&ok);
    if (!ok)
        usage(QStringLiteral("--%1 takes an index, not '%2'").arg(name, parser.value(name)));
    return value;
}

int Session::countOption(const QCommandLineParser& parser, const QString& name, int fallback)
{
    if (!parser.isSet(name))
        return fallback;
    bool ok = false;
    const int value = parser.value(name).toInt(&ok);
    if (!ok || value < 0)
        usage(QStringLiteral("--%1 takes a number of 0 or more, not '%2'").arg(name, parser.value(name)));
    return value;
}

EventFilter Session::filterOf(const QCommandLineParser& parser)
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

Session::Session(QTextStream& out, QTextStream& err)
    : m_out(out)
    , m_err(err)
{
}

Session::~Session() = default;

TeamStore* Session::joinTeam(Workspace& ws, const QCommandLineParser& parser, const QString& meanwhile)
{
    std::optional<QString> given;
    if (parser.isSet(QStringLiteral("team"))) {
        given = parser.value(QStringLiteral("team"));
        if (!PgConnection::isUri(*given))
            usage(QStringLiteral("--team takes a postgresql:// URI of a team store, not '%1'").arg(*given));
    }
    return connectTeam(ws, given, meanwhile);
}

TeamStore* Session::connectTeam(Workspace& ws, const std::optional<QString>& given, const QString& meanwhile)
{
    const std::optional<QString> uri = given ? given : TeamSync::attached(ws);
    if (!uri)
        return nullptr;
    // One connection a run: the one opening the workspace made is the verb's too.
    if (m_team && m_team->origin() == PgConnection::withoutPassword(*uri))
        return m_team.get();
    if (!given && m_teamUnreachable) {
        // Why was said once already, and what happens meanwhile too when it was the same.
        if (!m_said.contains(meanwhile))
            m_err << "sightline: " << meanwhile << Qt::endl;
        m_said.insert(meanwhile);
        return nullptr;
    }
    try {
        m_team = std::make_unique<TeamStore>(*uri);
        // Attached once the store answered as one: a mistyped URI is not remembered.
        TeamSync::attach(ws, *uri, m_team->storeId(), m_team->secret());
        return m_team.get();
    } catch (const PgUnreachable& e) {
        m_teamUnreachable = true;
        if (given) {
            // A URI that does not answer never moves an attachment elsewhere: it may be mistyped.
            const std::optional<QString> before = TeamSync::attached(ws);
            if (before && *before != PgConnection::withoutPassword(*uri)) {
                throw StoreError(e.file(), e.place(),
                    e.message()
                        + QStringLiteral("; the workspace stays attached to %1 and nothing was done (without --team, a "
                                         "verb uses that one)")
                              .arg(*before));
            }
            TeamSync::attach(ws, *uri, {});
        }
        m_err << "sightline: the team store cannot be reached (" << e.toString() << "): " << meanwhile << Qt::endl;
        m_said.insert(meanwhile);
        return nullptr;
    }
}

void Session::syncAttachedTeam(Workspace& ws)
{
    if (!TeamSync::attached(ws))
        return;
    try {
        if (TeamStore* team = connectTeam(ws, m_teamGiven,
                QStringLiteral("working with this workspace's copy of the review (as of its last sync); what is changed now goes up at the next sync")))
            syncTeam(ws, *team);
    } catch (const StoreError& e) {
        // A verb that only reads answers all the same (a password refused, a role taken away): said, not fatal.
        m_team.reset();
        m_teamUnreachable = true;
        const QString meanwhile = QStringLiteral("working with this workspace's copy of the review (as of its last sync); what is changed now goes up at the next sync");
        m_err << "sightline: the team store was not synced (" << e.toString() << "): " << meanwhile << Qt::endl;
        m_said.insert(meanwhile);
    }
}

std::optional<TeamSync::Result> Session::syncTeam(Workspace& ws, TeamStore& team)
{
    try {
        const TeamSync::Result result = TeamSync(ws, team).sync();
        if (result.heldBack > 0) {
            m_err << "sightline: " << result.heldBack << (result.heldBack == 1 ? " change" : " changes")
                  << " made in this workspace stay here: role " << team.login()
                  << " is an auditor of the team and changes nothing there" << Qt::endl;
        }
        // A review this reviewer sent over a teammate's it did not know of: said once a run, until settled.
        for (const TeamConflict& c : team.conflicts()) {
            if (c.mineLogin != team.login())
                continue;
            const QString said = c.isReview()
                ? QStringLiteral("room %1: your review (%2) went up over %3's %4, which this copy did not know of: both are "
                                 "kept until one is chosen (sightline review SOURCE --room %1 --status STATUS)")
                      .arg(c.room, c.mine, c.theirsAuthor, c.theirs)
                : QStringLiteral("room %1, event %2: your edit of its %3 went up over %4's, which this copy did not know "
                                 "of: both are kept until one is chosen in the window (File ▸ Team…)")
                      .arg(c.room)
                      .arg(c.seq.value_or(0))
                      .arg(c.field, c.theirsAuthor);
            if (!m_said.contains(said))
                m_err << "sightline: " << said << Qt::endl;
            m_said.insert(said);
        }
        // Loud at every sync until done: the text is still here.
        for (const QString& problem : result.unapplied) {
            if (!m_said.contains(problem)) // a verb's own sync after the one that opened the workspace
                m_err << "sightline: a teammate's change is not applied here yet (" << problem << ")" << Qt::endl;
            m_said.insert(problem);
        }
        return result;
    } catch (const PgUnreachable& e) {
        m_err << "sightline: the connection to the team store was lost (" << e.toString()
              << "): what was not sent goes at the next sync" << Qt::endl;
        return std::nullopt;
    }
}

QString Session::author(const QCommandLineParser& parser)
{
    QString name = parser.value(QStringLiteral("author")).trimmed();
    if (name.isEmpty())
        name = Settings::author();
    // Working with a team store, the login it knows this reviewer by, rather than the machine's (often the same
    // "root" or "user" on every reviewer's machine).
    if (name.isEmpty() && m_team)
        name = m_team->login();
    if (name.isEmpty())
        name = Reviewer::name();
    if (name.isEmpty())
        usage(QStringLiteral("who is making this change? give --author NAME"));
    return name;
}

QJsonValue Session::indexValue(const std::optional<qint64>& index)
{
    return index ? QJsonValue(*index) : QJsonValue();
}

} // namespace Cli
