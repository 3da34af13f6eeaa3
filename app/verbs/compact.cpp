#include "clisession.h"

#include "jsonline.h"
#include "sources/importlock.h"
#include "workspacecompactor.h"
#include "workspace.h"

#include <QCommandLineParser>

namespace Cli {

int Session::compact(const QStringList& args)
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

// What `sightline compact` takes and says (the help, the man page and the verb table read it).
VerbSpec Session::compactSpec()
{
    return VerbSpec { QStringLiteral("compact"), QStringLiteral("SOURCE"),
        QStringLiteral("Make the workspace of SOURCE (or the workspace file itself) as small as its content: the "
                       "text a workspace made before 3 December 2026 keeps as written is packed, as a new import "
                       "packs it, and the file written anew without its free pages. What it shows does not "
                       "change."),
        { { QStringLiteral("json"), QStringLiteral("one JSON object: workspace, bytes_before, bytes_after, rows_packed") } },
        QStringLiteral("SOURCE [--json]"), QStringLiteral("pack an older workspace's text and shrink the file"),
        &Session::compact };
}

} // namespace Cli
