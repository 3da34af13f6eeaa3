#include "clisession.h"

#include "sources/importer.h"
#include "sources/pgconnection.h"
#include "storeerror.h"
#include "workspace.h"

#include <algorithm>
#include <atomic>
#include <csignal>
#include <memory>
#include <QCommandLineParser>

namespace Cli {

int Session::import(const QStringList& args)
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

// What `sightline import` takes and says (the help, the man page and the verb table read it).
VerbSpec Session::importSpec()
{
    return VerbSpec { QStringLiteral("import"), QStringLiteral("SOURCE..."),
        QStringLiteral("Import sources into a workspace, or sync what is new since the last import."),
        { { QStringList { QStringLiteral("o"), QStringLiteral("output") },
            QStringLiteral("the workspace to import into (default: each source's cached workspace)"),
            QStringLiteral("WORKSPACE") } },
        QStringLiteral("SOURCE... [-o WORKSPACE]"), QStringLiteral("import (or sync what is new) into a workspace"),
        &Session::import };
}

} // namespace Cli
