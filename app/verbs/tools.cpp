#include "clisession.h"

#include "eventserializer.h"
#include "jsonline.h"
#include "workspace.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>

namespace Cli {

int Session::tools(const QStringList& args)
{
    QCommandLineParser parser;
    parse(parser, args, QStringLiteral("tools"));
    const QString source = single(parser);
    auto ws = openSource(source, forcedFormat(parser), roomsAsked(parser));
    const qint64 room = roomId(*ws, source, parser);
    const bool json = parser.isSet(QStringLiteral("json"));
    const QMap<qint64, Workspace::Warned> warned = ws->warnedRows(room); // none in most rooms
    for (const ToolCallRecord& c : ws->toolCalls(room)) {
        const QStringList warnings = Workspace::callWarnings(warned, c);
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
            // What the source's protocol says is wrong on the call's rows (AG-UI: a START repeated without an END).
            if (!warnings.isEmpty())
                more.addJson("warnings", QJsonDocument(QJsonArray::fromStringList(warnings)).toJson(QJsonDocument::Compact));
            m_out << o << ',' << more.text().mid(1) << '\n';
        } else {
            m_out << EventSerializer::callText(c);
            // Last, as the events' lines end with theirs.
            if (!warnings.isEmpty())
                m_out << "  (warning: " << warnings.join(QStringLiteral("; ")) << ')';
            m_out << '\n';
        }
    }
    m_out.flush();
    return Cli::Ok;
}

// What `sightline tools` takes and says (the help, the man page and the verb table read it).
VerbSpec Session::toolsSpec()
{
    return VerbSpec { QStringLiteral("tools"), QStringLiteral("SOURCE"),
        QStringLiteral("List a room's tool calls, each start paired with its end."),
        { { QStringLiteral("room"), QStringLiteral("the room's id, or a part of it that one room's id alone holds"), QStringLiteral("ID") },
            { QStringLiteral("source"),
                QStringLiteral("the source the room came from, by path or file name, when a workspace holds that "
                               "room id from several (import -o)"),
                QStringLiteral("PATH") },
            { QStringLiteral("json"), QStringLiteral("one JSON object per line") } },
        QStringLiteral("SOURCE --room ID [--json]"), QStringLiteral("list a room's tool calls, start paired with end"),
        &Session::tools };
}

} // namespace Cli
