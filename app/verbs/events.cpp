#include "clisession.h"

#include "eventserializer.h"
#include "sources/importer.h"
#include "sources/sourcestamps.h"
#include "sources/pgconnection.h"
#include "sources/pgsessions.h"
#include "storeerror.h"
#include "sources/importlock.h"
#include "workspace.h"

#include <algorithm>
#include <atomic>
#include <csignal>
#include <climits>
#include <QCommandLineParser>
#include <optional>
#include <QFileInfo>
#include <QSqlQuery>
#include <QThread>

namespace Cli {

int Session::events(const QStringList& args)
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

bool Session::endsWithLineBreak(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly) || f.size() == 0)
        return true;
    f.seek(f.size() - 1);
    return f.read(1) == "\n";
}

qint64 Session::lastIndex(Workspace& ws, qint64 room)
{
    QSqlQuery q = ws.exec(QStringLiteral("SELECT coalesce(max(seq), -1) FROM events WHERE room_id = ?"), { room });
    return q.next() ? q.value(0).toLongLong() : -1;
}

void Session::followSource(Workspace& ws, const QString& source, Importer::Format format,
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
    // The window's rule for what is due and when (SourceStamps): a sync that failed is tried again.
    SourceStamps stamps;
    stamps.reset({ source });
    while (!stop.load()) {
        for (int slept = 0; slept < SourceStamps::LookMs && !stop.load(); slept += 50)
            QThread::msleep(50);
        if (stop.load() || stamps.look().isEmpty())
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

// What `sightline events` takes and says (the help, the man page and the verb table read it).
VerbSpec Session::eventsSpec()
{
    return VerbSpec { QStringLiteral("events"), QStringLiteral("SOURCE"),
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
        &Session::events };
}

} // namespace Cli
