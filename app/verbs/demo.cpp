#include "clisession.h"

#include "demo/demostore.h"
#include "sources/importer.h"
#include "sources/importlock.h"

#include <QFile>
#include <QSqlDatabase>
#include <QSqlQuery>

#include <QCommandLineParser>

namespace Cli {

namespace {

// Whether another connection (a window, a command) has the workspace open: SQLite leaves WAL mode only when no other
// connection has the file open, so a journal mode that cannot be changed says one does. Nothing else is changed: the file
// is about to go when it is not open elsewhere.
bool openElsewhere(const QString& path)
{
    const QString name = QStringLiteral("sightline-demo-fresh");
    bool open = false;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(path);
        if (db.open()) {
            QSqlQuery mode(db);
            // Refused ("database is locked") or left as it was: open elsewhere.
            open = !mode.exec(QStringLiteral("PRAGMA journal_mode=DELETE")) || !mode.next()
                || mode.value(0).toString().compare(QLatin1String("delete"), Qt::CaseInsensitive) != 0;
            mode.finish();
            db.close();
        } else {
            open = true; // it cannot be looked at: not taken away
        }
    }
    QSqlDatabase::removeDatabase(name);
    return open;
}

} // namespace

int Session::demo(const QStringList& args)
{
    QCommandLineParser parser;
    parse(parser, args, QStringLiteral("demo"));
    if (!parser.positionalArguments().isEmpty())
        usage(QStringLiteral("demo takes no SOURCE: it prints where the demo store is"));
    // The same store File ▸ Open Demo Workspace opens, written first when this version has not written it yet: so
    // that every example of the documentation runs on a machine with nothing else (sightline rooms "$(sightline demo)").
    const QString store = DemoStore::ensureStore();
    if (parser.isSet(QStringLiteral("fresh"))) {
        // The demo as it was first read: the review made on it (notes, statuses, redactions) is in its cached
        // workspace, dropped here; the store itself was never written.
        const QString workspace = Importer::cachedWorkspacePath(store);
        const ImportLock lock(workspace); // not while an import (a window following it) holds it
        if (QFile::exists(workspace) && openElsewhere(workspace)) {
            // A window open on it would go on with a file no longer there: what it saved after would be lost.
            throw Failure { Cli::Error,
                QStringLiteral("%1: the demo's workspace is open in a window or another command; close it first, then "
                               "run sightline demo --fresh again")
                    .arg(workspace) };
        }
        for (const QString& suffix : { QString(), QStringLiteral("-wal"), QStringLiteral("-shm") })
            QFile::remove(workspace + suffix);
    }
    m_out << store << Qt::endl;
    return Cli::Ok;
}

// What `sightline demo` takes and says (the help, the man page and the verb table read it).
VerbSpec Session::demoSpec()
{
    return VerbSpec { QStringLiteral("demo"), QString(),
        QStringLiteral("Print the path of the demo store, a RoomKit store that Sightline writes itself (the one File ▸ "
                       "Open Demo Workspace opens), writing it first when it is not there yet. Every verb reads it as "
                       "a SOURCE: sightline rooms \"$(sightline demo)\"."),
        { { QStringLiteral("fresh"),
            QStringLiteral("drop the review made on the demo (its cached workspace), so that it reads as new; close a "
                           "window open on it first") } },
        QStringLiteral("[--fresh]"), QStringLiteral("print the path of the demo store (written first if need be)"), &Session::demo };
}

} // namespace Cli
