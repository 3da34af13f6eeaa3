#include "clisession.h"

#include "workspace.h"

#include <QCommandLineParser>
#include <QJsonObject>

namespace Cli {

int Session::facets(const QStringList& args)
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

// What `sightline facets` takes and says (the help, the man page and the verb table read it).
VerbSpec Session::facetsSpec()
{
    return VerbSpec { QStringLiteral("facets"), QStringLiteral("SOURCE"),
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
        QStringLiteral("count a room's events by type, channel, participant, tool, outcome"), &Session::facets };
}

} // namespace Cli
