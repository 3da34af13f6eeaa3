// The waterfall's geometry as plain data: lanes for overlapping calls, open-ended and skewed calls, groups and
// their rows, idle gaps collapsed into breaks, and the axis that maps time to work time and back.

#include "waterfalllayout.h"

#include <QTest>

namespace {

using Spans = QVector<std::pair<qint64, qint64>>;

ToolCallRecord call(const QString& group, std::optional<qint64> startUs, std::optional<qint64> endUs, qint64 index,
    std::optional<qint64> recordedMs = std::nullopt)
{
    ToolCallRecord c;
    c.toolName = QStringLiteral("t%1").arg(index);
    c.groupId = group;
    c.startMicros = startUs;
    c.endMicros = endUs;
    c.startIndex = index;
    if (recordedMs) {
        c.durationMs = recordedMs;
        c.durationSource = DurationSource::Recorded;
    }
    return c;
}

} // namespace

class TestWaterfallLayout : public QObject
{
    Q_OBJECT

private slots:
    void lanes_data()
    {
        QTest::addColumn<Spans>("spans"); // in order of start
        QTest::addColumn<QVector<int>>("lanes");
        QTest::newRow("one after another") << Spans { { 0, 10 }, { 20, 30 }, { 40, 50 } } << QVector<int> { 0, 0, 0 };
        QTest::newRow("touching: one ends as the next starts") << Spans { { 0, 10 }, { 10, 20 } } << QVector<int> { 0, 0 };
        QTest::newRow("overlapping") << Spans { { 0, 10 }, { 5, 15 }, { 8, 9 } } << QVector<int> { 0, 1, 2 };
        QTest::newRow("a lane freed is taken again, the first free") << Spans { { 0, 10 }, { 2, 4 }, { 5, 6 }, { 11, 12 } }
                                                                   << QVector<int> { 0, 1, 1, 0 };
        QTest::newRow("parallel calls starting together") << Spans { { 0, 10 }, { 0, 10 }, { 0, 3 } } << QVector<int> { 0, 1, 2 };
        QTest::newRow("zero-length calls at one instant") << Spans { { 5, 5 }, { 5, 5 } } << QVector<int> { 0, 1 };
        QTest::newRow("zero-length then a later one") << Spans { { 5, 5 }, { 6, 6 } } << QVector<int> { 0, 0 };
        QTest::newRow("nested") << Spans { { 0, 100 }, { 10, 20 }, { 30, 40 } } << QVector<int> { 0, 1, 1 };
    }

    void lanes()
    {
        QFETCH(Spans, spans);
        QFETCH(QVector<int>, lanes);
        QCOMPARE(WaterfallLayout::assignLanes(spans), lanes);
    }

    // Bars: recorded durations from the start, else the end's time; a call that never ended runs on to its group's
    // end, marked; an end before its start is an instant, marked; a call without a time is counted, not drawn.
    void bars()
    {
        const ToolCallRecords calls {
            call(QStringLiteral("r1"), 1'000'000, 1'500'000, 1, 120), // recorded 120 ms: ends at 1.12 s
            call(QStringLiteral("r1"), 1'100'000, 1'300'000, 2), // from timestamps
            call(QStringLiteral("r1"), 1'200'000, std::nullopt, 3), // never ended
            call(QStringLiteral("r1"), 1'400'000, 1'350'000, 4), // its end before its start
            call(QStringLiteral("r1"), std::nullopt, std::nullopt, 5), // no time at all
        };
        RunRecord run;
        run.groupId = QStringLiteral("r1");
        run.kind = QStringLiteral("run");
        run.startMicros = 900'000;
        run.endMicros = 2'000'000;
        const WaterfallLayout w = WaterfallLayout::build(calls, { run }, 0);
        QCOMPARE(w.untimed, 1);
        QCOMPARE(w.groups.size(), 1);
        QCOMPARE(w.groups[0].kind, QStringLiteral("run"));
        QCOMPARE(w.groups[0].startUs, 900'000);
        QCOMPARE(w.groups[0].endUs, 2'000'000);
        QCOMPARE(w.firstUs, 900'000);
        QCOMPARE(w.lastUs, 2'000'000);
        QCOMPARE(w.bars.size(), 4);
        auto barOf = [&](qint64 index) { return w.bars[*w.barAt(index)]; };
        QCOMPARE(barOf(1).endUs, 1'120'000);
        QVERIFY(!barOf(1).fromTimestamps);
        QCOMPARE(barOf(2).endUs, 1'300'000);
        QVERIFY(barOf(2).fromTimestamps);
        QVERIFY(barOf(3).openEnded);
        QCOMPARE(barOf(3).endUs, 2'000'000);
        QVERIFY(barOf(4).skewed);
        QCOMPARE(barOf(4).endUs, barOf(4).startUs);
        QVERIFY(!w.barAt(5));
        // The header row, then the lanes: 1 (1.0-1.12), 2 (1.1-1.3) overlaps it, 3 (1.2-2.0) overlaps 2 but not 1,
        // 4 (1.4) overlaps 3 only.
        QCOMPARE(w.groups[0].headerRow, 0);
        QCOMPARE(barOf(1).row, 1);
        QCOMPARE(barOf(2).row, 2);
        QCOMPARE(barOf(3).row, 1);
        QCOMPARE(barOf(4).row, 2);
        QCOMPARE(w.rows, 3);
        for (qsizetype k = 1; k < w.bars.size(); ++k)
            QVERIFY(w.bars[k - 1].row <= w.bars[k].row);
    }

    // Groups in order of time, each a header row and its lanes; calls of no AI response are a group of their own.
    void groupsAndRows()
    {
        const ToolCallRecords calls { call(QStringLiteral("b"), 50, 60, 1), call(QStringLiteral("a"), 10, 20, 2),
            call(QStringLiteral("a"), 15, 25, 3), call(QString(), 70, 80, 4) };
        const WaterfallLayout w = WaterfallLayout::build(calls, {}, 0);
        QCOMPARE(w.groups.size(), 3);
        QCOMPARE(w.groups[0].groupId, QStringLiteral("a"));
        QCOMPARE(w.groups[0].lanes, 2);
        QCOMPARE(w.groups[1].groupId, QStringLiteral("b"));
        QCOMPARE(w.groups[1].headerRow, 3);
        QCOMPARE(w.groups[2].groupId, QString());
        QCOMPARE(w.rows, 7);
        // What a frame draws: rows 0-2 between 12 and 14 µs are calls 2 (10-20) and... 3 starts at 15: not it.
        const QVector<qsizetype> shown = w.visible(0, 2, w.axisOf(12), w.axisOf(14));
        QCOMPARE(shown.size(), 1);
        QCOMPARE(w.calls[w.bars[shown.first()].call].startIndex, 2);
        QCOMPARE(w.visible(3, 6, 0, w.axisLength()).size(), 2);
    }

    // Idle gaps longer than the threshold become breaks a fiftieth of the work wide; time maps to the axis and
    // back, through a break in proportion.
    void gapsCollapse()
    {
        const qint64 hour = 3'600'000'000;
        const ToolCallRecords calls { call(QStringLiteral("r1"), 0, 1'000'000, 1), call(QStringLiteral("r2"), 2 * hour, 2 * hour + 4'000'000, 2),
            call(QStringLiteral("r2"), 2 * hour + 5'000'000, 2 * hour + 5'000'000, 3) };
        const WaterfallLayout w = WaterfallLayout::build(calls, {}, 60'000'000);
        QCOMPARE(w.gaps.size(), 1);
        QCOMPARE(w.gaps[0].fromUs, 1'000'000);
        QCOMPARE(w.gaps[0].toUs, 2 * hour);
        QCOMPARE(w.gapWidthUs, 120'000); // 6 s of work / 50
        QCOMPARE(w.axisOf(0), 0.0);
        QCOMPARE(w.axisOf(1'000'000), 1'000'000.0);
        QCOMPARE(w.axisOf(2 * hour), 1'120'000.0);
        QCOMPARE(w.axisLength(), 6'120'000.0);
        // Inside the break, in proportion: a point halfway through the idle hours is halfway across the break.
        const qint64 halfway = 1'000'000 + (2 * hour - 1'000'000) / 2;
        QCOMPARE(w.axisOf(halfway), 1'060'000.0);
        for (qint64 t : { qint64(0), qint64(700'000), 2 * hour, 2 * hour + 3'000'000, 2 * hour + 5'000'000 })
            QCOMPARE(w.timeOf(w.axisOf(t)), t);
        // Without a threshold nothing collapses: the axis is time itself.
        const WaterfallLayout plain = WaterfallLayout::build(calls, {}, 0);
        QVERIFY(plain.gaps.isEmpty());
        QCOMPARE(plain.axisLength(), double(2 * hour + 5'000'000));
        // A short pause is no gap.
        const WaterfallLayout near = WaterfallLayout::build(
            { call(QStringLiteral("r1"), 0, 10, 1), call(QStringLiteral("r1"), 30'000'000, 30'000'010, 2) }, {}, 60'000'000);
        QVERIFY(near.gaps.isEmpty());
    }

    // Calls of no AI response (CraftBot's main loop) are not one stretch of work: the idle time between them
    // collapses, and one that never ended stays an instant rather than covering the rest of the room.
    void callsOfNoResponse()
    {
        const qint64 hour = 3'600'000'000;
        const WaterfallLayout w = WaterfallLayout::build({ call(QString(), 0, 1'000'000, 1), call(QString(), hour, std::nullopt, 2),
                                                             call(QString(), 2 * hour, 2 * hour + 1'000'000, 3) },
            {}, 60'000'000);
        QCOMPARE(w.gaps.size(), 2);
        const WaterfallLayout::Bar open = w.bars[*w.barAt(2)];
        QVERIFY(open.openEnded);
        QCOMPARE(open.endUs, open.startUs);
    }

    void nothingToDraw()
    {
        const WaterfallLayout w = WaterfallLayout::build({ call(QStringLiteral("r"), std::nullopt, std::nullopt, 1) }, {}, 1);
        QCOMPARE(w.rows, 0);
        QCOMPARE(w.untimed, 1);
        QVERIFY(w.visible(0, 10, 0, 1e12).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestWaterfallLayout)
#include "tst_waterfalllayout.moc"
