#include "clisession.h"

#include "demo/demostore.h"
#include "sources/importer.h"
#include "sources/importlock.h"

#include <QFile>

#include <QCommandLineParser>

namespace Cli {

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
