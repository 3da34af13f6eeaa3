#include "toolpairer.h"

#include <algorithm>
#include <QMap>
#include <QRandomGenerator>
#include <QSet>
#include <QTest>

namespace {

ToolEvent start(qint64 index, const QString& group, const QString& id, const QString& name = QStringLiteral("lookup"))
{
    ToolEvent e;
    e.index = index;
    e.isStart = true;
    e.correlationId = group;
    e.toolId = id;
    e.toolName = name;
    e.createdMicros = index * 1000000;
    e.contentStatus = QStringLiteral("pending");
    return e;
}

ToolEvent end(qint64 index, const QString& group, const QString& id, const QString& outcome = QStringLiteral("served"),
    std::optional<qint64> duration = 100, const QString& name = QStringLiteral("lookup"))
{
    ToolEvent e = start(index, group, id, name);
    e.isStart = false;
    e.contentStatus = QStringLiteral("completed");
    e.outcome = Outcomes::fromName(outcome);
    e.durationMs = duration;
    return e;
}

// A random room of fewer than `maxRows` tool rows: starts and ends in three turns, ids reused across turns from
// `ids` of them, a fifth of the rows without an id, two tools.
QVector<ToolEvent> randomRoom(QRandomGenerator& random, int maxRows, int ids)
{
    QVector<ToolEvent> events;
    const int rows = random.bounded(1, maxRows);
    for (qint64 i = 0; i < rows; ++i) {
        const QString group = QStringLiteral("g%1").arg(random.bounded(3));
        const QString id = random.bounded(5) == 0 ? QString() : QStringLiteral("call_%1").arg(random.bounded(ids));
        const QString name = QStringLiteral("tool%1").arg(random.bounded(2));
        events << (random.bounded(2) ? start(i, group, id, name)
                                     : end(i, group, id, QStringLiteral("served"), 10, name));
    }
    return events;
}

// "start..end:pairing:outcome" for each call, in order.
QStringList describe(const ToolCallRecords& calls)
{
    QStringList out;
    for (const ToolCallRecord& c : calls) {
        out << QStringLiteral("%1..%2:%3:%4")
                   .arg(c.startIndex ? QString::number(*c.startIndex) : QStringLiteral("-"),
                       c.endIndex ? QString::number(*c.endIndex) : QStringLiteral("-"), Pairings::name(c.pairing), Outcomes::name(c.outcome));
    }
    return out;
}

} // namespace

Q_DECLARE_METATYPE(QVector<ToolEvent>)

class TestToolPairer : public QObject
{
    Q_OBJECT
private slots:
    void pair_data()
    {
        QTest::addColumn<QVector<ToolEvent>>("events");
        QTest::addColumn<QStringList>("expected");
        const QString a = QStringLiteral("corr-a"), b = QStringLiteral("corr-b");

        QTest::newRow("adjacent") << QVector<ToolEvent> { start(1, a, QStringLiteral("t1")),
            end(2, a, QStringLiteral("t1")) }
                                  << QStringList { QStringLiteral("1..2:exact:served") };
        QTest::newRow("parallel, ends in another order")
            << QVector<ToolEvent> { start(1, a, QStringLiteral("t1")), start(2, a, QStringLiteral("t2")),
                   start(3, a, QStringLiteral("t3")), end(4, a, QStringLiteral("t3")), end(5, a, QStringLiteral("t1")),
                   end(6, a, QStringLiteral("t2")) }
            << QStringList { QStringLiteral("1..5:exact:served"), QStringLiteral("2..6:exact:served"),
                   QStringLiteral("3..4:exact:served") };
        QTest::newRow("ids reused across answers")
            << QVector<ToolEvent> { start(1, a, QStringLiteral("call_0")), end(2, a, QStringLiteral("call_0")),
                   start(3, b, QStringLiteral("call_0")), end(4, b, QStringLiteral("call_0")) }
            << QStringList { QStringLiteral("1..2:exact:served"), QStringLiteral("3..4:exact:served") };
        QTest::newRow("id reused, second answer's start still open")
            << QVector<ToolEvent> { start(1, a, QStringLiteral("call_0")), start(2, b, QStringLiteral("call_0")),
                   end(3, b, QStringLiteral("call_0")) }
            << QStringList { QStringLiteral("1..-:start_only:unserved"), QStringLiteral("2..3:exact:served") };
        QTest::newRow("start without end") << QVector<ToolEvent> { start(1, a, QStringLiteral("t1")) }
                                           << QStringList { QStringLiteral("1..-:start_only:unserved") };
        QTest::newRow("end without start, keeps its outcome")
            << QVector<ToolEvent> { end(4, a, QStringLiteral("t9"), QStringLiteral("failed")) }
            << QStringList { QStringLiteral("-..4:end_only:failed") };
        QTest::newRow("correlation lost: id alone")
            << QVector<ToolEvent> { start(1, a, QStringLiteral("t1")), end(2, QString(), QStringLiteral("t1")) }
            << QStringList { QStringLiteral("1..2:id_only:served") };
        QTest::newRow("no ids: by name, oldest first")
            << QVector<ToolEvent> { start(1, a, QString()), start(2, a, QString()), end(3, a, QString()),
                   end(4, a, QString(), QStringLiteral("failed")) }
            << QStringList { QStringLiteral("1..3:name_only:served"), QStringLiteral("2..4:name_only:failed") };
        QTest::newRow("an end pairs once")
            << QVector<ToolEvent> { start(1, a, QStringLiteral("t1")), end(2, a, QStringLiteral("t1")),
                   end(3, a, QStringLiteral("t1"), QStringLiteral("refused")) }
            << QStringList { QStringLiteral("1..2:exact:served"), QStringLiteral("-..3:end_only:refused") };
        QTest::newRow("blocked end") << QVector<ToolEvent> { start(1, a, QStringLiteral("t1")),
            end(2, a, QStringLiteral("t1"), QStringLiteral("blocked")) }
                                     << QStringList { QStringLiteral("1..2:exact:blocked") };
    }

    void pair()
    {
        QFETCH(QVector<ToolEvent>, events);
        QFETCH(QStringList, expected);
        QCOMPARE(describe(ToolPairer::pair(events)), expected);
    }

    void duration()
    {
        const QString g = QStringLiteral("g");
        ToolCallRecords calls = ToolPairer::pair(
            { start(1, g, QStringLiteral("r")), end(3, g, QStringLiteral("r"), QStringLiteral("served"), 250) });
        QCOMPARE(calls.first().durationMs, std::optional<qint64>(250));
        QCOMPARE(calls.first().durationSource, QStringLiteral("recorded"));
        // Without duration_ms the timestamps give it, and say so.
        calls = ToolPairer::pair({ start(1, g, QStringLiteral("t")),
            end(3, g, QStringLiteral("t"), QStringLiteral("served"), std::nullopt) });
        QCOMPARE(calls.first().durationMs, std::optional<qint64>(2000));
        QCOMPARE(calls.first().durationSource, QStringLiteral("timestamps"));
        calls = ToolPairer::pair({ start(1, g, QStringLiteral("u")) });
        QCOMPARE(calls.first().durationMs, std::nullopt);
        QCOMPARE(calls.first().status, QStringLiteral("pending"));
    }

    // As an import uses it: rows one by one, settled calls taken at arbitrary cuts (batches), the open ones at
    // the end. Whatever the cuts, the calls are those of the whole at once, and an end says it closed a start
    // exactly when its call has both. Random rooms: reused ids across turns, ends without starts, starts without
    // ends, calls without ids.
    void streamedEqualsWhole()
    {
        QRandomGenerator random(20261130);
        for (int room = 0; room < 200; ++room) {
            const QVector<ToolEvent> events = randomRoom(random, 60, 3);
            ToolPairer pairer;
            ToolCallRecords streamed;
            QSet<qint64> closingEnds;
            for (const ToolEvent& e : events) {
                if (pairer.add(e))
                    closingEnds.insert(e.index);
                if (random.bounded(4) == 0)
                    streamed += pairer.takeSettled();
            }
            streamed += pairer.takeSettled();
            streamed += pairer.openCalls();
            std::stable_sort(streamed.begin(), streamed.end(), [](const ToolCallRecord& a, const ToolCallRecord& b) {
                return (a.startIndex ? *a.startIndex : *a.endIndex) < (b.startIndex ? *b.startIndex : *b.endIndex);
            });
            const ToolCallRecords whole = ToolPairer::pair(events);
            QCOMPARE(describe(streamed), describe(whole));
            QSet<qint64> paired;
            for (const ToolCallRecord& c : whole) {
                if (c.startIndex && c.endIndex)
                    paired.insert(*c.endIndex);
            }
            QCOMPARE(closingEnds, paired);
        }
    }

    // What an import keeps in its table at each commit: the calls settled so far, plus the starts opened since
    // the last commit, minus the open rows a later end closed. At every cut that is exactly what pairing the rows
    // read so far at once gives: a process killed after any commit leaves the calls of the rows it committed.
    void tableAtEveryCommitEqualsWhole()
    {
        QRandomGenerator random(20261201);
        for (int room = 0; room < 200; ++room) {
            const QVector<ToolEvent> events = randomRoom(random, 80, 4);
            ToolPairer pairer;
            QMap<qint64, ToolCallRecord> table; // by first index, as the workspace's table holds them
            auto commit = [&] {
                for (const ToolCallRecord& c : pairer.takeSettled()) {
                    if (c.startIndex)
                        table.remove(*c.startIndex); // its open row goes
                    table.insert(c.startIndex ? *c.startIndex : *c.endIndex, c);
                }
                for (const ToolCallRecord& c : pairer.takeOpened())
                    table.insert(*c.startIndex, c);
            };
            for (int i = 0; i < events.size(); ++i) {
                pairer.add(events.at(i));
                if (random.bounded(4) == 0 || i == events.size() - 1) {
                    commit();
                    QCOMPARE(describe(table.values()), describe(ToolPairer::pair(events.mid(0, i + 1))));
                }
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestToolPairer)
#include "tst_toolpairer.moc"
