#include "clisession.h"

#include "demo/demostore.h"

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
    m_out << DemoStore::ensureStore() << Qt::endl;
    return Cli::Ok;
}

// What `sightline demo` takes and says (the help, the man page and the verb table read it).
VerbSpec Session::demoSpec()
{
    return VerbSpec { QStringLiteral("demo"), QString(),
        QStringLiteral("Print the path of the demo store, a RoomKit store that Sightline writes itself (the one File ▸ "
                       "Open Demo Workspace opens), writing it first when it is not there yet. Every verb reads it as "
                       "a SOURCE: sightline rooms \"$(sightline demo)\"."),
        {}, QString(), QStringLiteral("print the path of the demo store (written first if need be)"), &Session::demo };
}

} // namespace Cli
