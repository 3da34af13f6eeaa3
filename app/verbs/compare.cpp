#include "clisession.h"

#include "comparereport.h"
#include "compare/comparison.h"
#include "filterquery.h"
#include "reviewer.h"
#include "compare/runsteps.h"
#include "compare/runsummary.h"
#include "workspace.h"

#include <algorithm>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <QMap>

namespace Cli {

namespace {

QJsonValue optionalValue(const std::optional<qint64>& v)
{
    return v ? QJsonValue(*v) : QJsonValue();
}

// A step as a line says it: "tool_call issue_refund" or "message assistant \"Let me look…\"".
QString described(const RunStep& s)
{
    // A step a snapshot brought (AG-UI) says so: it may be in one run's snapshot and not in the other's events.
    const QString snapshot = s.fromSnapshot ? QStringLiteral(" (from a snapshot)") : QString();
    if (s.kind == RunStep::Kind::ToolCall)
        return QStringLiteral("tool_call ") + s.tool + snapshot;
    QString text = s.preview.isEmpty() ? QStringLiteral("(no text)") : s.preview;
    if (text.size() > 50)
        text = text.left(49) + QStringLiteral("…");
    return QStringLiteral("message %1 \"%2\"").arg(s.role, text) + snapshot;
}

QString ms(const std::optional<qint64>& v)
{
    return v ? QStringLiteral("%1 ms").arg(*v) : QStringLiteral("–");
}

} // namespace

int Session::compare(const QStringList& args)
{
    QCommandLineParser parser;
    parse(parser, args, QStringLiteral("compare"));
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 2)
        usage(QStringLiteral("compare takes two SOURCEs, A and B (the same one twice for two of its rooms)"));
    const QString sourceA = positional.at(0), sourceB = positional.at(1);
    const QString roomA = parser.value(QStringLiteral("room-a")), roomB = parser.value(QStringLiteral("room-b"));
    const QString reportFormat = parser.value(QStringLiteral("format")).toLower();
    const QString reportPath = parser.value(QStringLiteral("output"));
    if (!reportFormat.isEmpty() && !CompareReport::formats().contains(reportFormat))
        usage(QStringLiteral("--format is md or html (a comparison's report), not '%1'").arg(reportFormat));
    if (reportFormat.isEmpty() != reportPath.isEmpty())
        usage(QStringLiteral("a comparison's report takes both --format md|html and -o PATH"));
    // --query: the same filter on both sides (tool:web_search compares those calls alone); checked before any reading.
    const bool filtered = !parser.value(QStringLiteral("query")).trimmed().isEmpty();
    const EventFilter filter = filterOf(parser);
    const bool same = sourceA == sourceB
        || (QFileInfo::exists(sourceA) && QFileInfo(sourceA).canonicalFilePath() == QFileInfo(sourceB).canonicalFilePath());
    // Each source reads the room asked alone (all its rooms when none is: a source of one room).
    const auto asked = [](const QString& room) {
        return room.isEmpty() ? std::nullopt : std::optional<QStringList>(QStringList { room });
    };
    auto wsA = openSource(sourceA, forcedFormat(parser),
        !same ? asked(roomA)
        : roomA.isEmpty() || roomB.isEmpty() ? std::nullopt
                                             : std::optional<QStringList>(QStringList { roomA, roomB }));
    // Two sources and --room-a alone: B's room is the one of that id there, when there is one (a store against its
    // copy, a run against the same room of another run), as the window picks it.
    const qint64 idA = roomId(*wsA, sourceA, parser, roomA, QStringLiteral("room-a"));
    const QString nameA = wsA->room(idA)->nativeId;
    const bool guessB = !same && roomB.isEmpty() && !roomA.isEmpty();
    std::unique_ptr<Workspace> ownB = same ? nullptr : openSource(sourceB, forcedFormat(parser), asked(guessB ? nameA : roomB));
    // Not there: B is read as a source of one room is (its only room, else a usage error naming --room-b).
    if (guessB && ownB->findRooms(nameA).isEmpty())
        ownB = openSource(sourceB, forcedFormat(parser), std::nullopt);
    Workspace& wsB = same ? *wsA : *ownB;
    // A side whose room is not named is its source's only room (a source of several says which option names it).
    const bool sameRoomInB = guessB && !wsB.findRooms(nameA).isEmpty();
    const qint64 idB = roomId(wsB, sourceB, parser, sameRoomInB ? nameA : roomB, QStringLiteral("room-b"));
    // Both sides at once, B's through a connection of its own.
    const Comparison comparison = Comparison::make(*wsA, idA, wsB.path(), idB, filtered ? &filter : nullptr);
    const RunStepList& a = comparison.a;
    const RunStepList& b = comparison.b;
    const StepPairs& pairs = comparison.pairs;
    // A filter that shows nothing of a run (a tool misspelt) would say "the same" of nothing: of either run, a usage
    // error; of one, said beside what differs.
    const auto shows = [](const RunStepList& steps) {
        return std::any_of(steps.cbegin(), steps.cend(), [](const RunStep& s) { return s.shown; });
    };
    if (filtered && !shows(a) && !shows(b))
        usage(QStringLiteral("--query %1 shows no step of either run (sightline stats and facets list what a room holds)")
                  .arg(parser.value(QStringLiteral("query"))));
    if (filtered && (!shows(a) || !shows(b))) {
        m_err << "note: --query " << parser.value(QStringLiteral("query")) << " shows no step of "
              << (!shows(a) && !shows(b) ? QStringLiteral("either run") : !shows(a) ? QStringLiteral("A") : QStringLiteral("B"))
              << Qt::endl;
    }

    const bool json = parser.isSet(QStringLiteral("json"));
    const RunSummary summary = RunSummary::of(a, b, pairs);
    for (const StepPair& p : pairs) {
        const RunStep* x = p.a ? &a.at(*p.a) : nullptr;
        const RunStep* y = p.b ? &b.at(*p.b) : nullptr;
        const RunStep& s = x ? *x : *y;
        if (json) {
            m_out << line({ { QStringLiteral("a_seq"), x ? QJsonValue(x->index) : QJsonValue() },
                         { QStringLiteral("b_seq"), y ? QJsonValue(y->index) : QJsonValue() },
                         { QStringLiteral("kind"), s.kindName() },
                         { QStringLiteral("tool"), s.kind == RunStep::Kind::ToolCall ? QJsonValue(s.tool) : QJsonValue() },
                         { QStringLiteral("change"), StepPair::changeName(p.change) },
                         { QStringLiteral("fields"), QJsonArray::fromStringList(p.fields) },
                         { QStringLiteral("duration_a_ms"), x ? optionalValue(x->durationMs) : QJsonValue() },
                         { QStringLiteral("duration_b_ms"), y ? optionalValue(y->durationMs) : QJsonValue() },
                         // A step an AG-UI snapshot (or a run's input) brought, not the run's own events.
                         { QStringLiteral("from_snapshot_a"), x && x->fromSnapshot },
                         { QStringLiteral("from_snapshot_b"), y && y->fromSnapshot } })
                  << '\n';
            continue;
        }
        static const char* marks[] = { "  same   ", "~ changed", "- only A ", "+ only B " };
        m_out << marks[int(p.change)] << "  " << described(s)
              << (p.fields.isEmpty() ? QString() : QStringLiteral(" [%1]").arg(p.fields.join(QStringLiteral(", "))))
              << (x ? QStringLiteral("  A %1").arg(x->index) : QString())
              << (y ? QStringLiteral("  B %1").arg(y->index) : QString());
        if (s.kind == RunStep::Kind::ToolCall && (x || y))
            m_out << "  " << (x ? ms(x->durationMs) : QStringLiteral("–")) << " → " << (y ? ms(y->durationMs) : QStringLiteral("–"));
        if (p.fields.contains(QLatin1String("outcome")))
            m_out << "  " << x->outcome << " → " << y->outcome;
        // A call in one run alone: which one, by what it was asked (two calls of a tool are told apart so).
        if (s.kind == RunStep::Kind::ToolCall && !(x && y)) {
            QString asked = RunSteps::text(x ? *wsA : wsB, x ? idA : idB, s).arguments;
            if (asked.size() > 70)
                asked = asked.left(69) + QStringLiteral("…");
            m_out << "  " << asked;
        }
        m_out << '\n';
    }
    const bool differ = summary.differ();
    QJsonObject perTool;
    for (auto it = summary.tools.cbegin(); it != summary.tools.cend(); ++it) {
        perTool.insert(it.key(), QJsonObject { { QStringLiteral("calls_a"), it->callsA }, { QStringLiteral("calls_b"), it->callsB },
                                     { QStringLiteral("median_ms_a"), optionalValue(it->medianMsA) },
                                     { QStringLiteral("median_ms_b"), optionalValue(it->medianMsB) } });
    }
    QJsonArray outcomes;
    for (const RunSummary::OutcomeChange& o : summary.outcomes) {
        outcomes.append(QJsonObject { { QStringLiteral("tool"), o.tool }, { QStringLiteral("a_seq"), o.indexA },
            { QStringLiteral("b_seq"), o.indexB }, { QStringLiteral("a"), o.a }, { QStringLiteral("b"), o.b } });
    }
    const int sameSteps = summary.count(StepPair::Change::Same), changed = summary.count(StepPair::Change::Changed),
              onlyA = summary.count(StepPair::Change::OnlyA), onlyB = summary.count(StepPair::Change::OnlyB);
    if (json) {
        m_out << line({ { QStringLiteral("summary"),
                          QJsonObject { { QStringLiteral("steps_a"), a.size() }, { QStringLiteral("steps_b"), b.size() },
                              { QStringLiteral("same"), sameSteps }, { QStringLiteral("changed"), changed },
                              { QStringLiteral("only_a"), onlyA }, { QStringLiteral("only_b"), onlyB },
                              { QStringLiteral("outcomes_changed"), outcomes }, { QStringLiteral("total_ms_a"), summary.totalMsA },
                              { QStringLiteral("total_ms_b"), summary.totalMsB }, { QStringLiteral("per_tool"), perTool } } } })
              << Qt::endl;
    } else {
        const auto steps = [](qsizetype n) { return QStringLiteral("%1 %2").arg(n).arg(n == 1 ? QStringLiteral("step") : QStringLiteral("steps")); };
        m_out << "A: " << steps(a.size()) << ", B: " << steps(b.size()) << ": " << sameSteps << " same, " << changed
              << " changed, " << onlyA << " only in A, " << onlyB << " only in B; calls took " << RunSummary::spoken(summary.totalMsA)
              << " in A, " << RunSummary::spoken(summary.totalMsB) << " in B"
              << (filtered ? QStringLiteral(" (the steps --query %1 keeps)").arg(parser.value(QStringLiteral("query"))) : QString())
              << Qt::endl;
        if (!summary.outcomes.isEmpty()) {
            QStringList moved;
            for (const RunSummary::OutcomeChange& o : summary.outcomes)
                moved << QStringLiteral("%1 %2 → %3 (A %4, B %5)").arg(o.tool, o.a, o.b).arg(o.indexA).arg(o.indexB);
            m_out << "outcomes: " << moved.join(QStringLiteral(", ")) << '\n';
        }
        for (auto it = summary.tools.cbegin(); it != summary.tools.cend(); ++it) {
            if (it->moved()) {
                const auto snapshot = [](int n) { return n > 0 ? QStringLiteral(" (%1 from a snapshot)").arg(n) : QString(); };
                m_out << "  " << it.key() << ": " << it->callsA << snapshot(it->snapshotA) << " → " << it->callsB
                      << snapshot(it->snapshotB) << " calls, median " << ms(it->medianMsA) << " → " << ms(it->medianMsB) << '\n';
            }
        }
        m_out.flush();
    }
    if (!reportFormat.isEmpty()) {
        CompareReport::Input input;
        input.titleA = QStringLiteral("%1, room %2").arg(sourceA, wsA->room(idA)->nativeId);
        input.titleB = QStringLiteral("%1, room %2").arg(sourceB, wsB.room(idB)->nativeId);
        input.roomA = wsA->room(idA)->nativeId;
        input.roomB = wsB.room(idB)->nativeId;
        input.filter = filtered ? FilterQuery::format(filter) : QString();
        input.author = parser.value(QStringLiteral("author")).trimmed().isEmpty() ? Reviewer::name()
                                                                                 : parser.value(QStringLiteral("author")).trimmed();
        input.version = QStringLiteral(SIGHTLINE_VERSION);
        input.a = a;
        input.b = b;
        input.pairs = pairs;
        input.textOf = [&, idA, idB](const RunStep& step, bool sideB) {
            return sideB ? RunSteps::text(wsB, idB, step) : RunSteps::text(*wsA, idA, step);
        };
        const CompareReport::Result written = CompareReport::write(input, reportFormat, reportPath, parser.value(QStringLiteral("sign")));
        m_err << "wrote the comparison to " << reportPath << "; manifest " << written.manifest
              << (written.signature.isEmpty() ? QString() : QStringLiteral(", signed: ") + written.signature) << Qt::endl;
    }
    // As diff: 0 the same, 1 they differ (2: a usage error).
    return differ ? Cli::Error : Cli::Ok;
}

// What `sightline compare` takes and says (the help, the man page and the verb table read it).
VerbSpec Session::compareSpec()
{
    return VerbSpec { QStringLiteral("compare"), QStringLiteral("A B"),
        QStringLiteral("Compare two runs, step by step: the tool calls (by name and arguments) and messages of a room of "
                       "A and a room of B, of any formats, aligned as a diff aligns lines. Each step is same, changed "
                       "(with the fields that differ: arguments, result, outcome, text), only in A or only in B; then a "
                       "summary. Exit 0 when the runs are the same, 1 when they differ, 2 on any trouble (a usage "
                       "error, a source that cannot be read, a room not there), as diff."),
        { { QStringLiteral("room-a"), QStringLiteral("the room of A (needed when A holds several)"), QStringLiteral("ID") },
            { QStringLiteral("room-b"), QStringLiteral("the room of B (default: the room of A's id, when B holds one)"),
                QStringLiteral("ID") },
            { QStringLiteral("query"), QStringLiteral("keep the pairs of steps either of which this filter shows (tool:web_search; outcome:failed keeps a call "
                               "that failed in one run only, beside the other's)"),
                QStringLiteral("FILTER") },
            { QStringLiteral("json"), QStringLiteral("one JSON object per step, then {\"summary\": ...}") },
            { QStringLiteral("format"), QStringLiteral("also write the comparison as a report: md or html (with -o)"), QStringLiteral("FORMAT") },
            { { QStringLiteral("o"), QStringLiteral("output") }, QStringLiteral("where the report goes (its manifest beside it)"),
                QStringLiteral("PATH") },
            { QStringLiteral("sign"), QStringLiteral("sign the report's manifest with this Ed25519 private key (PEM)"), QStringLiteral("KEY") },
            { QStringLiteral("author"), QStringLiteral("who made the report (default: your name, or the login name)"), QStringLiteral("NAME") } },
        QStringLiteral("A B [--room-a ID] [--room-b ID] [--query FILTER] [--json] [--format md|html -o PATH [--sign KEY]]"), QStringLiteral("compare two runs step by step"),
        &Session::compare };
}

} // namespace Cli
