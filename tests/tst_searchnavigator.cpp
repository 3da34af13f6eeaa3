// Find in the room's steps (SearchNavigator): F3 and Shift+F3 from any row, wrapping at the ends and saying so,
// and where a new search starts. The window's tests step through a real room the same way.

#include "searchnavigator.h"

#include <QTest>

class TestSearchNavigator : public QObject
{
    Q_OBJECT

private slots:
    void noMatches()
    {
        SearchNavigator n;
        QVERIFY(!n.step(5, true));
        QVERIFY(!n.step(5, false));
        QVERIFY(!n.firstFrom(0));
        QCOMPARE(n.position(5), -1);
    }

    void stepsAndWraps_data()
    {
        QTest::addColumn<qint64>("current");
        QTest::addColumn<bool>("forward");
        QTest::addColumn<qint64>("target");
        QTest::addColumn<int>("wrap");
        const int none = int(SearchNavigator::Wrap::None), top = int(SearchNavigator::Wrap::FromTop),
                  bottom = int(SearchNavigator::Wrap::FromBottom);
        // Matches at 3, 10 and 42.
        QTest::newRow("no row yet, forward: the first") << qint64(-1) << true << qint64(3) << none;
        QTest::newRow("no row yet, back: the last") << qint64(-1) << false << qint64(42) << none;
        QTest::newRow("before the first") << qint64(0) << true << qint64(3) << none;
        QTest::newRow("on a match, forward") << qint64(3) << true << qint64(10) << none;
        QTest::newRow("between, forward") << qint64(11) << true << qint64(42) << none;
        QTest::newRow("between, back") << qint64(11) << false << qint64(10) << none;
        QTest::newRow("on a match, back") << qint64(10) << false << qint64(3) << none;
        QTest::newRow("on the last, forward: round from the top") << qint64(42) << true << qint64(3) << top;
        QTest::newRow("after the last, forward") << qint64(50) << true << qint64(3) << top;
        QTest::newRow("on the first, back: round from the bottom") << qint64(3) << false << qint64(42) << bottom;
        QTest::newRow("before the first, back") << qint64(0) << false << qint64(42) << bottom;
    }

    void stepsAndWraps()
    {
        QFETCH(qint64, current);
        QFETCH(bool, forward);
        QFETCH(qint64, target);
        QFETCH(int, wrap);
        SearchNavigator n;
        n.setMatches({ 3, 10, 42 });
        const std::optional<SearchNavigator::Step> step = n.step(current, forward);
        QVERIFY(step);
        QCOMPARE(step->target, target);
        QCOMPARE(int(step->wrap), wrap);
    }

    void positionAndFirst()
    {
        SearchNavigator n;
        n.setMatches({ 3, 10, 42 });
        QCOMPARE(n.position(3), 0);
        QCOMPARE(n.position(42), 2);
        QCOMPARE(n.position(11), -1); // not a match: "n of N" shows none
        // A new search starts at the reader's row, else the first match.
        QCOMPARE(*n.firstFrom(-1), qint64(3));
        QCOMPARE(*n.firstFrom(10), qint64(10));
        QCOMPARE(*n.firstFrom(11), qint64(42));
        QCOMPARE(*n.firstFrom(43), qint64(3));
        n.clear();
        QVERIFY(n.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestSearchNavigator)
#include "tst_searchnavigator.moc"
