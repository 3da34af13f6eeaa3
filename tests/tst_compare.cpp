// Comparing two runs: the alignment of their steps (RunAlignment) on steps made here, and `sightline compare` on
// pairs made from the fixtures (a room against itself, against a copy a reviewer changed, against a log with a call
// taken out).
#include "annotationstore.h"
#include "comparemodel.h"
#include "comparewindow.h"
#include "eventlistmodel.h"
#include "mainwindow.h"
#include "roomkitstoregenerator.h"
#include "storeclient.h"
#include "roomlistmodel.h"
#include "roomlistview.h"
#include "compare/runalignment.h"
#include "compare/runsteps.h"
#include "sources/importer.h"
#include "testsupport.h"
#include "workspace.h"

#include <iterator>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QStatusBar>
#include <QProcess>
#include <QTemporaryDir>
#include <QAbstractItemModelTester>
#include <QTableView>
#include <QtTest>

using namespace TestSupport;

namespace {

using Run = TestSupport::CommandRun;

// A call step named `tool` with `arguments` (and a result and outcome), keyed as RunSteps keys them.
RunStep call(const QString& tool, const QString& arguments, const QString& outcome = QStringLiteral("served"),
    const QString& result = QStringLiteral("ok"))
{
    RunStep s;
    s.kind = RunStep::Kind::ToolCall;
    s.tool = tool;
    s.outcome = outcome;
    RunSteps::key(s, arguments.toUtf8(), result.toUtf8());
    return s;
}

RunStep message(const QString& role, const QString& text)
{
    RunStep s;
    s.kind = RunStep::Kind::Message;
    s.role = role;
    s.preview = text;
    RunSteps::key(s, text.toUtf8());
    return s;
}

// An AG-UI log's records without every record of its first call (by its toolCallId, which `dropped` gets).
QByteArray withoutFirstCall(const QList<QByteArray>& records, QString* dropped)
{
    QByteArray kept;
    for (const QByteArray& line : records) {
        if (line.trimmed().isEmpty())
            continue;
        const QJsonObject o = QJsonDocument::fromJson(line).object();
        const QString id = o.value(QLatin1String("toolCallId")).toString();
        if (dropped->isEmpty() && o.value(QLatin1String("type")).toString() == QLatin1String("TOOL_CALL_START"))
            *dropped = id;
        if (!id.isEmpty() && id == *dropped)
            continue;
        kept += line + '\n';
    }
    return kept;
}

// The alignment as letters: "=" same, "~" changed, "-" only in A, "+" only in B.
QString shape(const StepPairs& pairs)
{
    QString out;
    for (const StepPair& p : pairs)
        out += QLatin1Char("=~-+"[int(p.change)]);
    return out;
}

} // namespace

class TestCompare : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    Run run(const QStringList& args)
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_CACHE_HOME"), m_dir.filePath(QStringLiteral("cache")));
        env.remove(QStringLiteral("DISPLAY"));
        return runCommand(QStringLiteral(SIGHTLINE_BINARY), args, env);
    }

    // The support store imported into a workspace of its own, and what `change` then did to it as a reviewer.
    QString workspace(const QString& name, const std::function<void(AnnotationStore&, qint64)>& change = {})
    {
        const QString path = m_dir.filePath(name + QStringLiteral(".sightline"));
        Workspace ws(path);
        Importer::import(ws, dataFile(QStringLiteral("roomkit/support.sqlite")));
        if (change) {
            AnnotationStore store(ws);
            change(store, ws.findRooms(QStringLiteral("sup-duplicate-charge")).value(0));
            store.save();
        }
        return path;
    }

private slots:
    void alignment_data()
    {
        QTest::addColumn<RunStepList>("a");
        QTest::addColumn<RunStepList>("b");
        QTest::addColumn<QString>("shape");
        const RunStep hi = message(QStringLiteral("user"), QStringLiteral("hi"));
        const RunStep look = call(QStringLiteral("lookup"), QStringLiteral(R"({"id": 1, "full": true})"));
        const RunStep refund = call(QStringLiteral("refund"), QStringLiteral(R"({"id": 1})"));
        const RunStep bye = message(QStringLiteral("assistant"), QStringLiteral("bye"));
        QTest::newRow("the same") << RunStepList { hi, look, refund, bye } << RunStepList { hi, look, refund, bye } << "====";
        // Spacing and key order are the source's: the same arguments.
        QTest::newRow("JSON written otherwise")
            << RunStepList { look } << RunStepList { call(QStringLiteral("lookup"), QStringLiteral(R"({ "full":true,"id":1 })")) }
            << "=";
        QTest::newRow("arguments changed")
            << RunStepList { hi, look, refund, bye }
            << RunStepList { hi, look, call(QStringLiteral("refund"), QStringLiteral(R"({"id": 2})")), bye } << "==~=";
        QTest::newRow("outcome changed")
            << RunStepList { hi, refund } << RunStepList { hi, call(QStringLiteral("refund"), QStringLiteral(R"({"id": 1})"), QStringLiteral("failed")) }
            << "=~";
        QTest::newRow("a call taken out") << RunStepList { hi, look, refund, bye } << RunStepList { hi, refund, bye } << "=-==";
        QTest::newRow("a call put in") << RunStepList { hi, refund, bye } << RunStepList { hi, look, refund, bye } << "=+==";
        // Reordered: one stays, the other is taken out where it was and put in where it is now, as diff says it.
        QTest::newRow("calls reordered") << RunStepList { hi, look, refund, bye } << RunStepList { hi, refund, look, bye } << "=-=+=";
        QTest::newRow("a message reworded")
            << RunStepList { hi, bye } << RunStepList { hi, message(QStringLiteral("assistant"), QStringLiteral("goodbye")) } << "=~";
        // The same call three times, once more in B: three same and one put in, not a tangle.
        QTest::newRow("a repeated call") << RunStepList { look, look, look, bye } << RunStepList { look, look, look, look, bye }
                                         << "===+=";
        QTest::newRow("nothing against something") << RunStepList {} << RunStepList { hi, bye } << "++";
    }

    void alignment()
    {
        QFETCH(RunStepList, a);
        QFETCH(RunStepList, b);
        QFETCH(QString, shape);
        const StepPairs pairs = RunAlignment::align(a, b);
        QCOMPARE(::shape(pairs), shape);
        for (const StepPair& p : pairs) {
            if (p.change == StepPair::Change::Changed)
                QVERIFY(!p.fields.isEmpty());
        }
    }

    void fieldsSayWhatChanged()
    {
        const RunStep refund = call(QStringLiteral("refund"), QStringLiteral(R"({"id": 1})"));
        StepPairs p = RunAlignment::align({ refund }, { call(QStringLiteral("refund"), QStringLiteral(R"({"id": 2})")) });
        QCOMPARE(p.first().fields, QStringList { QStringLiteral("arguments") });
        p = RunAlignment::align({ refund }, { call(QStringLiteral("refund"), QStringLiteral(R"({"id": 1})"), QStringLiteral("failed"), QStringLiteral("error")) });
        QCOMPARE(p.first().fields, (QStringList { QStringLiteral("result"), QStringLiteral("outcome") }));
    }

    // Two runs of 100,000 calls each, the second with one call's arguments changed, one taken out and one put in: one
    // of each, wherever they are (no stretch without an anchor is left to a table of n × m).
    void bigRunsAlign()
    {
        RunStepList a, b;
        for (int i = 0; i < 100000; ++i) {
            const RunStep s = call(QStringLiteral("tool_%1").arg(i % 50), QStringLiteral(R"({"n": %1})").arg(i));
            a.append(s);
            if (i == 30000)
                continue; // taken out
            b.append(i == 60000 ? call(s.tool, QStringLiteral(R"({"n": -1})")) : s);
            if (i == 90000)
                b.append(call(QStringLiteral("extra"), QStringLiteral("{}")));
        }
        const StepPairs pairs = RunAlignment::align(a, b);
        int counts[4] = { 0, 0, 0, 0 };
        for (const StepPair& p : pairs)
            ++counts[int(p.change)];
        QCOMPARE(counts[0], 99998);
        QCOMPARE(counts[1], 1);
        QCOMPARE(counts[2], 1);
        QCOMPARE(counts[3], 1);
    }

    // A room against itself, at two paths: every step the same, exit 0; a copy in which a reviewer changed one call's
    // arguments and another's outcome: those two changed, exit 1, the summary saying the outcome moved.
    void compareCommand()
    {
        const QString a = workspace(QStringLiteral("a"));
        const QString same = workspace(QStringLiteral("same"));
        Run r = run({ QStringLiteral("compare"), a, same, QStringLiteral("--room-a"), QStringLiteral("sup-duplicate-charge"),
            QStringLiteral("--room-b"), QStringLiteral("sup-duplicate-charge"), QStringLiteral("--json") });
        QCOMPARE(r.code, 0);
        QList<QJsonObject> lines = r.lines();
        QVERIFY(lines.size() > 5);
        for (qsizetype i = 0; i + 1 < lines.size(); ++i)
            QCOMPARE(lines.at(i).value(QLatin1String("change")).toString(), QStringLiteral("same"));
        QCOMPARE(lines.last().value(QLatin1String("summary")).toObject().value(QLatin1String("changed")).toInt(), 0);

        const QString b = workspace(QStringLiteral("b"), [](AnnotationStore& store, qint64 room) {
            store.editCall(room, 6, Edit::Field::Arguments, QStringLiteral(R"({"order_id":"A-99999"})"), QStringLiteral("Ana"));
            store.setOutcome(room, 16, QStringLiteral("failed"), QStringLiteral("Ana"));
        });
        r = run({ QStringLiteral("compare"), a, b, QStringLiteral("--room-a"), QStringLiteral("sup-duplicate-charge"),
            QStringLiteral("--room-b"), QStringLiteral("sup-duplicate-charge"), QStringLiteral("--json") });
        QCOMPARE(r.code, 1);
        lines = r.lines();
        QStringList changed;
        for (const QJsonObject& o : lines) {
            if (o.value(QLatin1String("change")).toString() == QLatin1String("changed")) {
                changed << QStringLiteral("%1 %2 %3").arg(o.value(QLatin1String("a_seq")).toInt()).arg(o.value(QLatin1String("tool")).toString(),
                    o.value(QLatin1String("fields")).toVariant().toStringList().join(QLatin1Char(',')));
            }
        }
        QCOMPARE(changed, (QStringList { QStringLiteral("6 lookup_order arguments"), QStringLiteral("16 issue_refund outcome") }));
        const QJsonObject summary = lines.last().value(QLatin1String("summary")).toObject();
        QCOMPARE(summary.value(QLatin1String("changed")).toInt(), 2);
        const QJsonObject moved = summary.value(QLatin1String("outcomes_changed")).toArray().first().toObject();
        QCOMPARE(moved.value(QLatin1String("a")).toString() + QStringLiteral(" → ") + moved.value(QLatin1String("b")).toString(),
            QStringLiteral("refused → failed"));
        // A filter applies to both sides: the refunds alone, one of them changed.
        r = run({ QStringLiteral("compare"), a, b, QStringLiteral("--room-a"), QStringLiteral("duplicate"), QStringLiteral("--room-b"),
            QStringLiteral("duplicate"), QStringLiteral("--query"), QStringLiteral("tool:issue_refund"), QStringLiteral("--json") });
        QCOMPARE(r.code, 1);
        const QJsonObject refunds = r.lines().last().value(QLatin1String("summary")).toObject();
        QCOMPARE(refunds.value(QLatin1String("steps_a")).toInt(), 2);
        QCOMPARE(refunds.value(QLatin1String("steps_b")).toInt(), 2);
        QCOMPARE(refunds.value(QLatin1String("changed")).toInt(), 1);
        // A filter selects pairs, not each side apart: the refund refused in A and failed in B is one changed pair
        // under outcome:failed (B's side matches), not a call only in B.
        r = run({ QStringLiteral("compare"), a, b, QStringLiteral("--room-a"), QStringLiteral("duplicate"), QStringLiteral("--room-b"),
            QStringLiteral("duplicate"), QStringLiteral("--query"), QStringLiteral("outcome:failed"), QStringLiteral("--json") });
        QCOMPARE(r.code, 1);
        lines = r.lines();
        QCOMPARE(lines.size(), 2);
        QCOMPARE(lines.first().value(QLatin1String("change")).toString(), QStringLiteral("changed"));
        QCOMPARE(lines.first().value(QLatin1String("a_seq")).toInt(), 16);
        QCOMPARE(lines.first().value(QLatin1String("fields")).toVariant().toStringList(), QStringList { QStringLiteral("outcome") });
        QCOMPARE(lines.last().value(QLatin1String("summary")).toObject().value(QLatin1String("only_b")).toInt(), 0);
        QCOMPARE(run({ QStringLiteral("compare"), a, b, QStringLiteral("--query"), QStringLiteral("outcome:nonsense") }).code, 2);
        // A filter that leaves nothing is said, not passed off as two runs the same.
        r = run({ QStringLiteral("compare"), a, b, QStringLiteral("--room-a"), QStringLiteral("duplicate"), QStringLiteral("--room-b"),
            QStringLiteral("duplicate"), QStringLiteral("--query"), QStringLiteral("tool:nosuch") });
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(QLatin1String("shows no step of either run")), qPrintable(r.err));
        // --room-a alone: B's room is the one of the same id there (a store against its copy).
        r = run({ QStringLiteral("compare"), a, b, QStringLiteral("--room-a"), QStringLiteral("duplicate") });
        QCOMPARE(r.code, 1);
        QVERIFY2(r.out.contains(QLatin1String("~ changed  tool_call issue_refund [outcome]  A 16  B 16")), qPrintable(r.out + r.err));
        QVERIFY2(r.out.contains(QStringLiteral("outcomes: issue_refund refused → failed (A 16, B 16)")), qPrintable(r.out));
        // B of several rooms without that one: the option it needs, by its name.
        const QString edge = dataFile(QStringLiteral("roomkit/edge_cases.sqlite"));
        r = run({ QStringLiteral("compare"), a, edge, QStringLiteral("--room-a"), QStringLiteral("duplicate") });
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(QLatin1String("--room-b ID is required")), qPrintable(r.err));
        // Any trouble is 2, as diff's, never taken for "they differ" (1): a source that is not there, a room that is not.
        QCOMPARE(run({ QStringLiteral("compare"), a, m_dir.filePath(QStringLiteral("missing.sqlite")) }).code, 2);
        r = run({ QStringLiteral("compare"), a, b, QStringLiteral("--room-a"), QStringLiteral("sup-nosuch") });
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(QLatin1String("no room 'sup-nosuch'")), qPrintable(r.err));
        // Written as a report with its manifest, which verify checks, and which sees a change made to it since.
        for (const QString& format : { QStringLiteral("md"), QStringLiteral("html") }) {
            const QString report = m_dir.filePath(QStringLiteral("comparison.") + format);
            r = run({ QStringLiteral("compare"), a, b, QStringLiteral("--room-a"), QStringLiteral("duplicate"), QStringLiteral("--room-b"),
                QStringLiteral("duplicate"), QStringLiteral("--format"), format, QStringLiteral("-o"), report });
            QCOMPARE(r.code, 1);
            QVERIFY2(r.err.contains(QStringLiteral("manifest %1.manifest.json").arg(report)), qPrintable(r.err));
            QFile written(report);
            QVERIFY(written.open(QIODevice::ReadOnly));
            const QString body = QString::fromUtf8(written.readAll());
            written.close();
            QVERIFY2(body.contains(QStringLiteral("outcome: refused → failed")), qPrintable(body.left(2000)));
            // The arguments key by key (quotes escaped as each format writes them).
            QVERIFY2(body.contains(QLatin1String("arguments ~ order_id:")) && body.contains(QLatin1String("A-99999")), qPrintable(format));
            QCOMPARE(written.permissions() & (QFileDevice::ReadGroup | QFileDevice::ReadOther), QFileDevice::Permissions());
            // The manifest counts what the report lists: aligned steps, named so.
            QFile manifest(report + QStringLiteral(".manifest.json"));
            QVERIFY(manifest.open(QIODevice::ReadOnly));
            const QJsonObject m = QJsonDocument::fromJson(manifest.readAll()).object();
            QVERIFY2(m.value(QLatin1String("steps")).toInt() > 5 && !m.contains(QLatin1String("events")), qPrintable(format));
            QCOMPARE(m.value(QLatin1String("steps_sha256")).toString().size(), 64);
            QCOMPARE(run({ QStringLiteral("verify"), report }).code, 0);
            QVERIFY(written.open(QIODevice::Append));
            written.write("\n");
            written.close();
            const Run tampered = run({ QStringLiteral("verify"), report });
            QCOMPARE(tampered.code, 1);
            QVERIFY(tampered.out.contains(QLatin1String("changed: ")));
        }
        QCOMPARE(run({ QStringLiteral("compare"), a, b, QStringLiteral("--format"), QStringLiteral("pdf"), QStringLiteral("-o"),
                     m_dir.filePath(QStringLiteral("x.pdf")) })
                     .code,
            2);
        // Said as text too, a line a step.
        r = run({ QStringLiteral("compare"), a, b, QStringLiteral("--room-a"), QStringLiteral("duplicate"), QStringLiteral("--room-b"),
            QStringLiteral("duplicate") });
        QCOMPARE(r.code, 1);
        QVERIFY2(r.out.contains(QLatin1String("~ changed  tool_call issue_refund [outcome]  A 16  B 16")), qPrintable(r.out));
        QVERIFY(r.out.contains(QLatin1String("0 only in A, 0 only in B")));
    }

    // The model over a comparison: rows as the alignment's, coloured by change, differences stepped through.
    void model()
    {
        CompareModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const RunStep hi = message(QStringLiteral("user"), QStringLiteral("hi"));
        const RunStep look = call(QStringLiteral("lookup"), QStringLiteral(R"({"id": 1})"));
        const RunStepList a { hi, look, call(QStringLiteral("refund"), QStringLiteral(R"({"id": 1})")) };
        const RunStepList b { hi, call(QStringLiteral("lookup"), QStringLiteral(R"({"id": 2})")), message(QStringLiteral("assistant"), QStringLiteral("done")) };
        model.setComparison(a, b, RunAlignment::align(a, b));
        QCOMPARE(model.rowCount(), 4);
        QCOMPARE(model.columnCount(), 3);
        QCOMPARE(model.index(1, CompareModel::ChangeColumn).data().toString(), QStringLiteral("~ arguments"));
        QVERIFY(model.index(1, 0).data(Qt::BackgroundRole).isValid());
        QVERIFY(!model.index(0, 0).data(Qt::BackgroundRole).isValid());
        QCOMPARE(model.nextDifference(-1, true), 1);
        QCOMPARE(model.nextDifference(1, true), 2);
        QCOMPARE(model.nextDifference(3, true), -1);
        QCOMPARE(model.nextDifference(2, false), 1);
        QVERIFY(model.summary().startsWith(QLatin1String("1 same, 1 changed, 1 only in A, 1 only in B")));
        QCOMPARE(model.perTool(), QStringList { QStringLiteral("refund 1 → 0 calls, median – → – ms") });
        QCOMPARE(CompareModel::jsonDiff(QStringLiteral(R"({"id":1,"keep":true})"), QStringLiteral(R"({"id":2,"new":"x"})")),
            (QStringList { QStringLiteral("~ id: 1 → 2"), QStringLiteral("- keep: true"), QStringLiteral("+ new: \"x\"") }));
        // A change deep inside says where it is, not the whole value around it.
        QCOMPARE(CompareModel::jsonDiff(QStringLiteral(R"({"q":{"series":[1,2,3],"unit":"ms"}})"),
                     QStringLiteral(R"({"q":{"series":[1,5,3,4],"unit":"ms"}})")),
            (QStringList { QStringLiteral("~ q.series[1]: 2 → 5"), QStringLiteral("+ q.series[3]: 4") }));
        QCOMPARE(CompareModel::jsonDiff(QStringLiteral("[{\"a\":1}]"), QStringLiteral("[{\"a\":1},{\"b\":2}]")),
            QStringList { QStringLiteral("+ [1]: {\"b\":2}") });
        QCOMPARE(CompareModel::jsonDiff(QStringLiteral("ok"), QStringLiteral("error: timeout")),
            QStringList { QStringLiteral("~ ok → error: timeout") });
        model.setComparison({}, {}, {});
        QCOMPARE(model.rowCount(), 0);
    }

    // File ▸ Compare With… in the window: the room shown against the same room of another source (a reviewer's
    // edited copy); the first difference selected, its arguments key by key; n to the next, its outcome.
    void compareWindow()
    {
        const QString a = workspace(QStringLiteral("win-a"));
        const QString b = workspace(QStringLiteral("win-b"), [](AnnotationStore& store, qint64 room) {
            store.editCall(room, 6, Edit::Field::Arguments, QStringLiteral(R"({"order_id":"A-99999"})"), QStringLiteral("Ana"));
            store.setOutcome(room, 16, QStringLiteral("failed"), QStringLiteral("Ana"));
        });
        MainWindow window;
        window.resize(1200, 800);
        window.show();
        QSignalSpy shown(&window, &MainWindow::roomsShown);
        window.openPath(a);
        QVERIFY(shown.wait(30000));
        qint64 room = 0;
        for (const RoomSummary& r : window.roomModel()->rooms()) {
            if (r.nativeId == QLatin1String("sup-duplicate-charge"))
                room = r.id;
        }
        QVERIFY(window.roomList()->selectRoom(room));
        QTRY_COMPARE(window.eventModel()->roomId(), room);
        CompareWindow* compare = window.compareWith(b);
        QVERIFY(compare);
        QAbstractItemModelTester tester(compare->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QTRY_VERIFY2_WITH_TIMEOUT(compare->summaryText().contains(QLatin1String("2 changed")), qPrintable(compare->summaryText()), 20000);
        QVERIFY2(compare->summaryText().contains(QStringLiteral("issue_refund refused → failed")), qPrintable(compare->summaryText()));
        // The first difference, selected on open.
        QCOMPARE(compare->model()->stepA(compare->view()->currentIndex().row())->index, 6);
        // Its arguments key by key, read when it is shown.
        QTRY_VERIFY2(compare->detailsText().contains(QStringLiteral("~ order_id: \"A-10533\" → \"A-99999\"")), qPrintable(compare->detailsText()));
        compare->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(compare));
        QTest::keyClick(compare->view(), Qt::Key_N);
        QCOMPARE(compare->model()->stepA(compare->view()->currentIndex().row())->index, 16);
        QVERIFY2(compare->detailsText().contains(QStringLiteral("Outcome: refused → failed")), qPrintable(compare->detailsText()));
        QTRY_VERIFY2(compare->detailsText().contains(QStringLiteral("Result: the same.")), qPrintable(compare->detailsText()));
        QVERIFY(!compare->goToDifference(true)); // that was the last, and the window says so
        QVERIFY2(compare->summaryText().endsWith(QStringLiteral(" — no difference after this one")), qPrintable(compare->summaryText()));
        // A's step double-clicked: the main window shows that event.
        const QModelIndex cell = compare->model()->index(compare->view()->currentIndex().row(), CompareModel::AColumn);
        QSignalSpy asked(compare, &CompareWindow::goToEvent);
        // (A press first: the view pairs a double-click with the index pressed, as a real one has it.)
        QTest::mouseClick(compare->view()->viewport(), Qt::LeftButton, {}, compare->view()->visualRect(cell).center());
        QTest::mouseDClick(compare->view()->viewport(), Qt::LeftButton, {}, compare->view()->visualRect(cell).center());
        QCOMPARE(asked.size(), 1);
        QCOMPARE(asked.first().at(1).toLongLong(), 16);
        QTRY_COMPARE(window.eventList()->currentIndex().data(EventListModel::EventIndexRole).toLongLong(), 16);
        QTest::keyClick(compare->view(), Qt::Key_P);
        QCOMPARE(compare->model()->stepA(compare->view()->currentIndex().row())->index, 6);
        compare->close();
        // Another room of this source, by a part of its name that it alone holds (a store may hold thousands).
        QString other;
        for (const RoomSummary& r : window.roomModel()->rooms()) {
            if (r.id != room && other.isEmpty())
                other = r.nativeId;
        }
        QString part;
        for (int n = 4; n <= other.size() && part.isEmpty(); ++n) {
            for (int at = 0; at + n <= other.size() && part.isEmpty(); ++at) {
                const QString candidate = other.mid(at, n);
                int holders = 0;
                for (const RoomSummary& r : window.roomModel()->rooms())
                    holders += r.id != room && r.nativeId.contains(candidate) ? 1 : 0;
                if (holders == 1)
                    part = candidate;
            }
        }
        QVERIFY2(!part.isEmpty(), qPrintable(other));
        CompareWindow* byPart = window.compareWith(part);
        QVERIFY(byPart);
        QTRY_VERIFY2_WITH_TIMEOUT(byPart->isComplete(), qPrintable(byPart->summaryText()), 20000);
        QVERIFY2(byPart->roomsOfB().contains(other), qPrintable(byPart->roomsOfB().join(QLatin1Char(' '))));
        byPart->close();
        // A part several rooms hold, or none: nothing compared, and the status bar says why.
        QVERIFY(!window.compareWith(QStringLiteral("sup-")));
        QVERIFY2(window.statusBar()->currentMessage().contains(QStringLiteral("“sup-” is part of")),
            qPrintable(window.statusBar()->currentMessage()));
        QVERIFY(!window.compareWith(QStringLiteral("no-room-is-called-this")));
        QVERIFY2(window.statusBar()->currentMessage().contains(QStringLiteral("No room “no-room-is-called-this”")),
            qPrintable(window.statusBar()->currentMessage()));
    }

    // A big room against itself in a Compare window: its first steps shown at once (at most 200, aligned by themselves),
    // then the whole; the whole exported from the window as a report whose manifest verify accepts.
    void compareWindowShowsTheFirstStepsThenTheWhole()
    {
        const QString store = m_dir.filePath(QStringLiteral("big.sqlite"));
        RoomKitStoreGenerator::write(store, 6000, 2, 0.9, 5);
        const QString path = m_dir.filePath(QStringLiteral("big.sightline"));
        {
            Workspace ws(path);
            Importer::import(ws, store);
        }
        qint64 room = 0;
        {
            Workspace ws(path);
            room = ws.findRooms(QStringLiteral("room-big")).value(0);
        }
        QVERIFY(room != 0);
        StoreClient client;
        QSignalSpy opened(&client, &StoreClient::workspaceOpened);
        client.open(path);
        QTRY_VERIFY_WITH_TIMEOUT(opened.count() == 1, 20000);
        CompareWindow window(QStringLiteral("big.sqlite, room room-big"), QStringLiteral("big.sqlite"));
        QAbstractItemModelTester tester(window.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVector<int> rowsAtReset;
        QStringList summaryAtReset;
        connect(window.model(), &QAbstractItemModel::modelReset, &window, [&] {
            rowsAtReset << window.model()->rowCount();
            summaryAtReset << window.summaryText();
        });
        window.show();
        window.compare(&client, room, room);
        QTRY_VERIFY_WITH_TIMEOUT(window.isComplete(), 30000);
        QCOMPARE(rowsAtReset.size(), 2);
        QVERIFY2(rowsAtReset.first() > 0 && rowsAtReset.first() <= 200, qPrintable(QString::number(rowsAtReset.first())));
        QVERIFY2(rowsAtReset.last() > 1000, qPrintable(QString::number(rowsAtReset.last())));
        QVERIFY2(window.summaryText().endsWith(QStringLiteral(" — the runs are the same, step for step")), qPrintable(window.summaryText()));
        // Exported from the window, as the command line writes it.
        const QString report = m_dir.filePath(QStringLiteral("window-compare.md"));
        QSignalSpy exported(&window, &CompareWindow::exported);
        window.exportTo(QStringLiteral("md"), report);
        QTRY_COMPARE_WITH_TIMEOUT(exported.size(), 1, 30000);
        QCOMPARE(exported.first().at(1).toString(), QString());
        QFile written(report);
        QVERIFY(written.open(QIODevice::ReadOnly));
        QVERIFY(written.readAll().contains("# Comparison of two runs"));
        QCOMPARE(run({ QStringLiteral("verify"), report }).code, 0);
        // The window's own filter compares again under it: the calls alone; a filter that does not parse is said.
        const int whole = rowsAtReset.last();
        QVERIFY(!window.setFilterText(QStringLiteral("outcome:nonsense")));
        QVERIFY(window.isComplete());
        // Said where the eye is, with what the rows still are.
        QVERIFY2(window.summaryText().startsWith(QLatin1String("The filter was not applied: ")), qPrintable(window.summaryText()));
        QVERIFY2(window.summaryText().endsWith(QLatin1String("still those of every step.")), qPrintable(window.summaryText()));
        QVERIFY(window.setFilterText(QStringLiteral("kind:tool_call")));
        QTRY_VERIFY_WITH_TIMEOUT(window.isComplete(), 30000);
        QVERIFY2(window.model()->rowCount() > 100 && window.model()->rowCount() < whole, qPrintable(QStringLiteral("%1 of %2: %3").arg(window.model()->rowCount()).arg(whole).arg(window.summaryText())));
        for (int row = 0; row < window.model()->rowCount(); ++row)
            QCOMPARE(window.model()->stepA(row)->kind, RunStep::Kind::ToolCall);
        QVERIFY2(window.summaryText().endsWith(QStringLiteral(" — the runs are the same under this filter, step for step")),
            qPrintable(window.summaryText()));
        // Typed in the field and Return: compared again, and the keys go to the table (n is the next difference, not
        // a letter typed into the filter).
        auto* field = window.findChild<QLineEdit*>();
        QVERIFY(field);
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        field->setFocus();
        field->setText(QString());
        QTest::keyClick(field, Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(window.isComplete(), 30000);
        QCOMPARE(window.model()->rowCount(), whole);
        QVERIFY(window.view()->hasFocus());
        // B's room, any of its source's: the other room chosen, compared again against A's.
        QCOMPARE(window.roomsOfB().size(), 2);
        const QString other = window.roomsOfB().at(window.roomsOfB().at(0) == QLatin1String("room-big") ? 1 : 0);
        QVERIFY(window.setRoomB(other));
        QTRY_VERIFY_WITH_TIMEOUT(window.isComplete(), 30000);
        QVERIFY2(window.summaryText().contains(QLatin1String(" only in A")) && !window.summaryText().contains(QLatin1String("same, step for step")),
            qPrintable(window.summaryText()));
        QVERIFY(window.setRoomB(QStringLiteral("room-big")));
        QTRY_VERIFY_WITH_TIMEOUT(window.isComplete(), 30000);
        QVERIFY(window.summaryText().endsWith(QStringLiteral(" — the runs are the same, step for step")));
        // Typed: a part of a name that one room holds, and Return, chooses it (a source may hold thousands of rooms).
        auto* box = window.findChild<QComboBox*>();
        QVERIFY(box && box->isEditable() && box->isVisible());
        box->lineEdit()->setFocus();
        box->lineEdit()->setText(other.right(3));
        QTest::keyClick(box->lineEdit(), Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(window.isComplete() && window.summaryText().contains(QLatin1String(" only in A")), 30000);
        QCOMPARE(box->currentText(), other);
        // The window and the report name the room compared now (they named the first one).
        QVERIFY2(window.windowTitle().contains(QStringLiteral("big.sqlite, room ") + other), qPrintable(window.windowTitle()));
        const QString otherReport = m_dir.filePath(QStringLiteral("window-compare-other.md"));
        window.exportTo(QStringLiteral("md"), otherReport);
        QTRY_COMPARE_WITH_TIMEOUT(exported.size(), 2, 30000);
        QFile otherWritten(otherReport);
        QVERIFY(otherWritten.open(QIODevice::ReadOnly));
        const QByteArray otherText = otherWritten.readAll();
        QVERIFY2(otherText.contains(QStringLiteral("big.sqlite, room %1").arg(other).toUtf8()), otherText.left(400).constData());
        QVERIFY(!otherText.contains("big.sqlite, room room-big, room"));
        // A name no room holds: B stays, the box shows it again, and the status line says so.
        box->lineEdit()->setText(QStringLiteral("no-such-room"));
        QTest::keyClick(box->lineEdit(), Qt::Key_Return);
        QCOMPARE(box->currentText(), other);
        QVERIFY(window.findChildren<QLabel*>().size() > 0);
        bool said = false;
        for (const QLabel* label : window.findChildren<QLabel*>())
            said = said || label->text().contains(QStringLiteral("No room “no-such-room” in B"));
        QVERIFY(said);
        // A part both rooms hold: which one is not guessed.
        box->lineEdit()->setText(QStringLiteral("room"));
        QTest::keyClick(box->lineEdit(), Qt::Key_Return);
        QCOMPARE(box->currentText(), other);
        // Typed into and left without Return: the box shows B's room again, not what was typed.
        box->lineEdit()->setFocus();
        QTest::keyClicks(box->lineEdit(), QStringLiteral("zz"));
        QVERIFY(box->currentText() != other);
        window.view()->setFocus();
        QTRY_COMPARE(box->currentText(), other);
        QVERIFY(window.setRoomB(QStringLiteral("room-big")));
        QTRY_VERIFY_WITH_TIMEOUT(window.isComplete() && window.summaryText().contains(QLatin1String("same, step for step")), 30000);
        // One that cannot be written says why, in the window.
        window.exportTo(QStringLiteral("md"), m_dir.filePath(QStringLiteral("no/such/folder/x.md")));
        QTRY_COMPARE_WITH_TIMEOUT(exported.size(), 3, 30000);
        QVERIFY(!exported.last().at(1).toString().isEmpty());
    }

    // One conversation written by two systems: an AG-UI thread and a CraftBot EVENT.md (their own spacing, their own
    // way of giving a result): the same, step for step; the CraftBot log with another result: that call changed.
    void anAguiThreadAgainstACraftBotLog()
    {
        const QString dir = m_dir.filePath(QStringLiteral("across"));
        QDir().mkpath(dir + QStringLiteral("/ag"));
        QDir().mkpath(dir + QStringLiteral("/cb"));
        QDir().mkpath(dir + QStringLiteral("/cb2"));
        const qint64 t = 1777881547000;
        QStringList thread;
        // A record of key, value, key, value… (UTF-8), stamped `at`.
        const auto record = [&](std::initializer_list<const char*> fields, qint64 at) {
            QJsonObject o;
            for (auto it = fields.begin(); it != fields.end() && std::next(it) != fields.end(); it += 2)
                o.insert(QString::fromUtf8(*it), QString::fromUtf8(*std::next(it)));
            o.insert(QStringLiteral("timestamp"), at);
            thread << QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
        };
        record({ "type", "RUN_STARTED", "threadId", "th_weather", "runId", "run_1" }, t);
        record({ "type", "TEXT_MESSAGE_START", "messageId", "m1", "role", "user" }, t);
        record({ "type", "TEXT_MESSAGE_CONTENT", "messageId", "m1", "delta", "What's the weather in Oslo?" }, t);
        record({ "type", "TEXT_MESSAGE_END", "messageId", "m1" }, t);
        record({ "type", "TOOL_CALL_START", "toolCallId", "c1", "toolCallName", "get_weather" }, t + 1000);
        record({ "type", "TOOL_CALL_ARGS", "toolCallId", "c1", "delta", "{\"city\": \"Oslo\"}" }, t + 1000);
        record({ "type", "TOOL_CALL_END", "toolCallId", "c1" }, t + 1000);
        record({ "type", "TOOL_CALL_RESULT", "toolCallId", "c1", "messageId", "r1", "content", "{\"temp_c\": 4}" }, t + 2000);
        record({ "type", "TEXT_MESSAGE_START", "messageId", "m2", "role", "assistant" }, t + 3000);
        record({ "type", "TEXT_MESSAGE_CONTENT", "messageId", "m2", "delta", "It is 4 °C in Oslo." }, t + 3000);
        record({ "type", "TEXT_MESSAGE_END", "messageId", "m2" }, t + 3000);
        record({ "type", "RUN_FINISHED", "threadId", "th_weather", "runId", "run_1" }, t + 3000);
        const auto write = [](const QString& path, const QString& text) {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(text.toUtf8());
        };
        const QString ag = dir + QStringLiteral("/ag/th_weather.jsonl");
        write(ag, thread.join(QLatin1Char('\n')) + QLatin1Char('\n'));
        const QString log = QStringLiteral("[2026/05/04 07:59:07] [user message]: What's the weather in Oslo?\n"
                                           "[2026/05/04 07:59:08] [action_start]: Running action get_weather with input: {\n"
                                           "  \"city\": \"Oslo\"\n}.\n"
                                           "[2026/05/04 07:59:09] [action_end]: Action get_weather completed with output: {\n"
                                           "  \"temp_c\": %1\n}.\n"
                                           "[2026/05/04 07:59:10] [agent message to platform: CraftBot Interface]: It is 4 °C in Oslo.\n");
        write(dir + QStringLiteral("/cb/EVENT.md"), log.arg(4));
        write(dir + QStringLiteral("/cb2/EVENT.md"), log.arg(9));
        Run r = run({ QStringLiteral("compare"), ag, dir + QStringLiteral("/cb/EVENT.md"), QStringLiteral("--json") });
        QCOMPARE(r.code, 0);
        QStringList kinds;
        for (const QJsonObject& o : r.lines()) {
            if (!o.contains(QLatin1String("summary")))
                kinds << o.value(QLatin1String("kind")).toString() + QLatin1Char(' ') + o.value(QLatin1String("change")).toString();
        }
        QCOMPARE(kinds, (QStringList { QStringLiteral("message same"), QStringLiteral("tool_call same"), QStringLiteral("message same") }));
        r = run({ QStringLiteral("compare"), ag, dir + QStringLiteral("/cb2/EVENT.md"), QStringLiteral("--json") });
        QCOMPARE(r.code, 1);
        QCOMPARE(r.lines().at(1).value(QLatin1String("fields")).toVariant().toStringList(), QStringList { QStringLiteral("result") });
    }

    // An AG-UI thread against a copy with one call taken out (its start, arguments, end and result): that call is
    // only in A; against itself, the same.
    void aCallTakenOutOfAThread()
    {
        const QString thread = dataFile(QStringLiteral("agui/threads/dev.lindqvist__th_nmhryq4wy0xyvq373sbg.jsonl"));
        QFile in(thread);
        QVERIFY(in.open(QIODevice::ReadOnly));
        const QList<QByteArray> records = in.readAll().split('\n');
        QString dropped;
        const QByteArray kept = withoutFirstCall(records, &dropped);
        QVERIFY(!dropped.isEmpty());
        QDir().mkpath(m_dir.filePath(QStringLiteral("b")));
        const QString copy = m_dir.filePath(QStringLiteral("b/dev.lindqvist__th_nmhryq4wy0xyvq373sbg.jsonl"));
        QFile out(copy);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(kept);
        out.close();
        Run r = run({ QStringLiteral("compare"), thread, thread, QStringLiteral("--room-a"), QStringLiteral("nmhryq4wy0xyvq373sbg"),
            QStringLiteral("--room-b"), QStringLiteral("nmhryq4wy0xyvq373sbg") });
        QCOMPARE(r.code, 0);
        // A log of one room against itself needs no room named.
        r = run({ QStringLiteral("compare"), thread, thread });
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains(QLatin1String(" 0 changed, 0 only in A, 0 only in B")), qPrintable(r.out + r.err));
        r = run({ QStringLiteral("compare"), thread, copy });
        QCOMPARE(r.code, 1);
        // The call alone in A says what it was asked, so that it is told from the tool's other calls.
        QVERIFY2(r.out.contains(QRegularExpression(QStringLiteral("- only A   tool_call \\S+  A \\d+  \\d+ ms → –  \\{\""))), qPrintable(r.out));
        r = run({ QStringLiteral("compare"), thread, copy, QStringLiteral("--json") });
        QCOMPARE(r.code, 1);
        const QJsonObject summary = r.lines().last().value(QLatin1String("summary")).toObject();
        QCOMPARE(summary.value(QLatin1String("only_a")).toInt(), 1);
        QCOMPARE(summary.value(QLatin1String("only_b")).toInt(), 0);
        QCOMPARE(summary.value(QLatin1String("changed")).toInt(), 0);
        // The same thread with its second call's records moved before its first's: calls reordered, said as diff says
        // a moved line, one only in A and one only in B, the rest the same.
        QStringList starts;
        for (const QByteArray& line : records) {
            const QJsonObject o = QJsonDocument::fromJson(line).object();
            if (o.value(QLatin1String("type")).toString() == QLatin1String("TOOL_CALL_START"))
                starts << o.value(QLatin1String("toolCallId")).toString();
        }
        QVERIFY(starts.size() >= 2);
        QList<QByteArray> first, moved, rest;
        bool seenFirst = false;
        for (const QByteArray& line : records) {
            if (line.trimmed().isEmpty())
                continue;
            const QString id = QJsonDocument::fromJson(line).object().value(QLatin1String("toolCallId")).toString();
            seenFirst = seenFirst || id == starts.at(0);
            (id == starts.at(1) ? moved : seenFirst ? rest : first) << line;
        }
        QDir().mkpath(m_dir.filePath(QStringLiteral("c")));
        const QString reordered = m_dir.filePath(QStringLiteral("c/dev.lindqvist__th_nmhryq4wy0xyvq373sbg.jsonl"));
        QFile swap(reordered);
        QVERIFY(swap.open(QIODevice::WriteOnly));
        for (const QList<QByteArray>& part : { first, moved, rest }) {
            for (const QByteArray& line : part)
                swap.write(line + '\n');
        }
        swap.close();
        r = run({ QStringLiteral("compare"), thread, reordered, QStringLiteral("--json") });
        QCOMPARE(r.code, 1);
        const QJsonObject order = r.lines().last().value(QLatin1String("summary")).toObject();
        QCOMPARE(order.value(QLatin1String("only_a")).toInt(), 1);
        QCOMPARE(order.value(QLatin1String("only_b")).toInt(), 1);
        QCOMPARE(order.value(QLatin1String("changed")).toInt(), 0);
        QCOMPARE(order.value(QLatin1String("same")).toInt(), order.value(QLatin1String("steps_a")).toInt() - 1);
        // A usage error is 2, as diff's.
        QCOMPARE(run({ QStringLiteral("compare"), thread }).code, 2);
    }

    // A message a hook blocked is left out, as every verb leaves it out (a customer's card number in it showed in
    // clear), unless the filter asks for blocked rows.
    void blockedMessagesAreLeftOut()
    {
        const QString edge = dataFile(QStringLiteral("roomkit/edge_cases.sqlite"));
        const QStringList both { QStringLiteral("compare"), edge, edge, QStringLiteral("--room-a"), QStringLiteral("edge-blocked-inbound"),
            QStringLiteral("--room-b"), QStringLiteral("edge-blocked-inbound"), QStringLiteral("--json") };
        const Run plain = run(both);
        const Run all = run(both + QStringList { QStringLiteral("--query"), QStringLiteral("blocked:include") });
        QVERIFY2(plain.code == 0 && all.code == 0 && !plain.lines().isEmpty() && !all.lines().isEmpty(), qPrintable(plain.err + all.err));
        const QJsonObject hidden = plain.lines().last().value(QLatin1String("summary")).toObject();
        const QJsonObject shown = all.lines().last().value(QLatin1String("summary")).toObject();
        QVERIFY2(shown.value(QLatin1String("steps_a")).toInt() > hidden.value(QLatin1String("steps_a")).toInt(),
            qPrintable(QStringLiteral("%1 / %2").arg(shown.value(QLatin1String("steps_a")).toInt()).arg(hidden.value(QLatin1String("steps_a")).toInt())));
        QCOMPARE(hidden.value(QLatin1String("same")).toInt(), hidden.value(QLatin1String("steps_a")).toInt());
    }

    // A thread whose first call's records are taken out but whose MESSAGES_SNAPSHOT still holds it: the snapshot brings
    // it back in B, where the snapshot is; the line says so (only in A, and only in B from a snapshot).
    void aCallASnapshotBroughtSaysSo()
    {
        const QString thread = dataFile(QStringLiteral("agui/threads/sam.ng__th_z0ty1x96ffscr9je4q57.jsonl"));
        QFile in(thread);
        QVERIFY(in.open(QIODevice::ReadOnly));
        QString dropped;
        const QByteArray kept = withoutFirstCall(in.readAll().split('\n'), &dropped);
        QVERIFY(kept.contains("MESSAGES_SNAPSHOT") && kept.contains(dropped.toUtf8())); // the snapshot still names it
        QDir().mkpath(m_dir.filePath(QStringLiteral("snap")));
        const QString copy = m_dir.filePath(QStringLiteral("snap/sam.ng__th_z0ty1x96ffscr9je4q57.jsonl"));
        QFile out(copy);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(kept);
        out.close();
        const Run r = run({ QStringLiteral("compare"), thread, copy });
        QCOMPARE(r.code, 1);
        QVERIFY2(r.out.contains(QLatin1String("- only A   tool_call query_metrics  A 13")), qPrintable(r.out));
        QVERIFY2(r.out.contains(QLatin1String("+ only B   tool_call query_metrics (from a snapshot)  B 164")), qPrintable(r.out));
        QVERIFY2(r.out.contains(QLatin1String("1 only in A, 1 only in B")), qPrintable(r.out));
        // Counted apart in the per-tool figures, and said in JSON too.
        QVERIFY2(r.out.contains(QStringLiteral("query_metrics: 2 → 2 (1 from a snapshot) calls")), qPrintable(r.out));
        const Run json = run({ QStringLiteral("compare"), thread, copy, QStringLiteral("--json") });
        bool flagged = false;
        for (const QJsonObject& o : json.lines()) {
            if (o.value(QLatin1String("change")).toString() == QLatin1String("only_b"))
                flagged = o.value(QLatin1String("from_snapshot_b")).toBool() && !o.value(QLatin1String("from_snapshot_a")).toBool();
        }
        QVERIFY(flagged);
    }
};

QTEST_MAIN(TestCompare)
#include "tst_compare.moc"
