// The comparison benchmark (issue 38): two runs of N tool calls each (the second with a call's arguments changed, a
// call taken out and one put in every thousand) aligned by RunAlignment, against a baseline measured in the same run:
// sorting the same number of 64-bit keys. Reports the time, the ratio, the changes found and the process's peak
// memory. Nothing in it is a timed test; ctest runs it small to keep it working.
//
//   sightline_compare_bench --calls 100000
#include "compare/comparison.h"
#include "compare/runalignment.h"
#include "compare/runsteps.h"
#include "roomkitstoregenerator.h"
#include "sources/importer.h"
#include "workspace.h"

#include <algorithm>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QSqlQuery>
#include <QElapsedTimer>
#include <QFile>
#include <QHashFunctions>
#include <QTextStream>
#include <random>
#include <vector>

namespace {

RunStep call(const QString& tool, const QString& arguments)
{
    RunStep s;
    s.tool = tool;
    s.outcome = QStringLiteral("served");
    s.durationMs = 100;
    RunSteps::key(s, arguments.toUtf8(), "ok");
    return s;
}

// The process's peak resident memory (VmHWM), in MB.
double peakMb()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return 0;
    for (const QByteArray& line : status.readAll().split('\n')) {
        if (line.startsWith("VmHWM:"))
            return line.mid(6).trimmed().split(' ').first().toDouble() / 1024.0;
    }
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    parser.addOption({ QStringLiteral("calls"), QStringLiteral("calls in each run (default 100000)"), QStringLiteral("N"),
        QStringLiteral("100000") });
    parser.addOption({ QStringLiteral("events"),
        QStringLiteral("also read the steps of a generated store's biggest room of this many events (RoomKit), twice as "
                       "a comparison does, and compare it with itself"),
        QStringLiteral("N") });
    parser.addOption({ QStringLiteral("dir"), QStringLiteral("where the generated store and workspace go (kept)"), QStringLiteral("DIR"),
        QStringLiteral("/tmp") });
    parser.process(app);
    const int n = std::max(10, parser.value(QStringLiteral("calls")).toInt());
    if (parser.isSet(QStringLiteral("events"))) {
        // Reading a room's steps from a workspace, as compare and the window do, against SELECT-ing its rows.
        const qint64 events = parser.value(QStringLiteral("events")).toLongLong();
        const QString store = QDir(parser.value(QStringLiteral("dir"))).filePath(QStringLiteral("compare-%1.sqlite").arg(events));
        if (!QFileInfo::exists(store))
            RoomKitStoreGenerator::write(store, events, 20, 0.9, 42);
        Workspace ws(store + QStringLiteral(".sightline"));
        if (ws.rooms().isEmpty() || ws.findRooms(QStringLiteral("room-big")).isEmpty())
            Importer::import(ws, store);
        const qint64 room = ws.findRooms(QStringLiteral("room-big")).first();
        QElapsedTimer t;
        t.start();
        qint64 rows = 0;
        QSqlQuery q = ws.exec(QStringLiteral("SELECT seq, text FROM events WHERE room_id = ?"), { room });
        while (q.next())
            ++rows;
        q.finish();
        const double baselineMs = double(t.nsecsElapsed()) / 1e6;
        t.restart();
        // The first screen, as the Compare window shows it before the whole: each room's first 200 steps.
        const Comparison first = Comparison::make(ws, room, ws.path(), room, nullptr, 200);
        const double firstMs = double(t.nsecsElapsed()) / 1e6;
        t.restart();
        // As compare reads them: both sides at once, the second through a connection of its own; then aligned.
        const Comparison c = Comparison::make(ws, room, ws.path(), room);
        const double wholeMs = double(t.nsecsElapsed()) / 1e6;
        const RunStepList& a = c.a;
        const StepPairs& pairs = c.pairs;
        int calls = 0;
        for (const RunStep& s : a)
            calls += s.kind == RunStep::Kind::ToolCall;
        QTextStream(stdout) << "| " << events << " events (" << calls << " calls, " << a.size() - calls
                            << " messages) | read both sides' steps (at once) and align them; first screen (" << first.pairs.size()
                            << " steps) | " << QString::number(wholeMs, 'f', 0) << " ms; first screen " << QString::number(firstMs, 'f', 0)
                            << " ms | " << QString::number(baselineMs, 'f', 0) << " ms, SELECT seq, text of its " << rows
                            << " rows (once) | " << QString::number(wholeMs / std::max(0.001, baselineMs), 'f', 1) << " × | "
                            << QString::number(peakMb(), 'f', 0) << " MB | " << pairs.size() << " steps, all same |" << Qt::endl;
        return 0;
    }
    RunStepList a, b;
    a.reserve(n);
    b.reserve(n);
    int expectedChanged = 0, expectedOnlyA = 0, expectedOnlyB = 0;
    for (int i = 0; i < n; ++i) {
        const RunStep s = call(QStringLiteral("tool_%1").arg(i % 50), QStringLiteral(R"({"n": %1, "q": "x"})").arg(i));
        a.append(s);
        if (i % 1000 == 300) {
            ++expectedOnlyA;
            continue;
        }
        if (i % 1000 == 600) {
            ++expectedChanged;
            b.append(call(s.tool, QStringLiteral(R"({"n": -1})")));
        } else {
            b.append(s);
        }
        if (i % 1000 == 900) {
            ++expectedOnlyB;
            b.append(call(QStringLiteral("extra"), QStringLiteral(R"({"i": %1})").arg(i)));
        }
    }
    // The baseline: sorting as many keys (what any alignment must at least touch).
    std::vector<quint64> keys;
    for (const RunStep& s : a)
        keys.push_back(s.strong);
    for (const RunStep& s : b)
        keys.push_back(s.strong);
    QElapsedTimer t;
    t.start();
    std::sort(keys.begin(), keys.end());
    const double baselineMs = double(t.nsecsElapsed()) / 1e6;
    t.restart();
    const StepPairs pairs = RunAlignment::align(a, b);
    const double alignMs = double(t.nsecsElapsed()) / 1e6;
    int counts[4] = { 0, 0, 0, 0 };
    for (const StepPair& p : pairs)
        ++counts[int(p.change)];
    QTextStream(stdout) << "| calls each | work | Sightline | baseline | ratio | peak memory | found |\n"
                        << "|---:|---|---:|---|---:|---:|---|\n"
                        << "| " << n << " | align two runs (RunAlignment) | " << QString::number(alignMs, 'f', 1) << " ms | "
                        << QString::number(baselineMs, 'f', 1) << " ms, std::sort of their " << keys.size() << " keys | "
                        << QString::number(alignMs / std::max(0.001, baselineMs), 'f', 1) << " × | "
                        << QString::number(peakMb(), 'f', 0) << " MB | " << counts[1] << " changed, " << counts[2]
                        << " only A, " << counts[3] << " only B |" << Qt::endl;
    // Wrong answers fail the run: the figures are only worth having for a right alignment.
    if (counts[1] != expectedChanged || counts[2] != expectedOnlyA || counts[3] != expectedOnlyB) {
        QTextStream(stderr) << "sightline_compare_bench: expected " << expectedChanged << " changed, " << expectedOnlyA
                            << " only A, " << expectedOnlyB << " only B" << Qt::endl;
        return 1;
    }
    return 0;
}
