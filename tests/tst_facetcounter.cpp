// The filter panes' counts, added up row by row from EventQuery::facets' columns (FacetCounter), fed by rows of a real
// SQLite statement as Workspace::facets feeds it.
#include "eventflags.h"
#include "eventquery.h"
#include "facetcounter.h"
#include "sqlitestatement.h"

#include <sqlite3.h>
#include <QTest>

class TestFacetCounter : public QObject
{
    Q_OBJECT

    sqlite3* m_db = nullptr;

    // Rows as EventQuery::facets gives them: type, kind, channel, channel type, participant, tool, outcome, blocked,
    // created, the mask of the filter's parts the row fails, seq, flags. A type, a kind and a tool as the workspace
    // keeps them, their words' codes (schema step 26): these.
    const QHash<QByteArray, QString> m_words { { "0", QStringLiteral("message") }, { "2", QStringLiteral("tool_call") },
        { "16", QStringLiteral("tool_call_start") }, { "17", QStringLiteral("s") }, { "18", QStringLiteral("e") },
        { "19", QStringLiteral("m") }, { "20", QStringLiteral("a") }, { "21", QStringLiteral("c") },
        { "22", QStringLiteral("b") }, { "23", QStringLiteral("search") }, { "24", QStringLiteral("t") } };
    FacetCounts count(const QByteArray& values, FacetCounter& counter, int limit = 1000)
    {
        const QByteArray sql = "SELECT * FROM (VALUES " + values + ")";
        SqliteStatement rows(m_db, sql.constData());
        while (rows.step())
            counter.add(rows.handle());
        return counter.result(limit);
    }

private slots:
    void initTestCase() { QCOMPARE(sqlite3_open(":memory:", &m_db), SQLITE_OK); }
    void cleanupTestCase() { sqlite3_close(m_db); }

    void eachFieldCountsWhatTheRestOfTheFilterLetsThrough()
    {
        FacetCounter counter(7, std::pair<qint64, qint64> { 1000, 3000 }, 2, m_words);
        counter.setCallStart(1, "unserved");
        counter.addAdded(2, FacetCounter::Marked);
        counter.addAdded(2, FacetCounter::Labelled, "pii");
        counter.addAdded(2, FacetCounter::Labelled, "pii"); // one label once, however often it was read
        const QByteArray redacted = QByteArray::number(EventFlags::Redacted);
        const QByteArray failsType = QByteArray::number(1 << EventQuery::TypeBit);
        const FacetCounts c = count("('0', '0', 'ch1', 'websocket', 'p1', NULL, NULL, 0, 1000, 0, 0, 0), "
                                    "('16', '2', 'ch2', 'ai', 'p2', '23', NULL, 0, 2000, "
            + failsType + ", 1, 0), ('0', '0', 'ch1', 'websocket', 'p1', NULL, NULL, 1, 3000, 0, 2, " + redacted + ")",
            counter);
        QCOMPARE(c.roomId, 7);
        QCOMPARE(c.shown, 2); // the rows that fail nothing
        // The type filter's own field counts the row it alone leaves out; the other fields list its values with 0.
        QCOMPARE(c.count(QStringLiteral("type"), QStringLiteral("message")), 2);
        QCOMPARE(c.count(QStringLiteral("type"), QStringLiteral("tool_call_start")), 1);
        QCOMPARE(c.fields.value(QStringLiteral("kind")).size(), 2);
        QCOMPARE(c.count(QStringLiteral("kind"), QStringLiteral("tool_call")), 0);
        QCOMPARE(c.count(QStringLiteral("tool"), QStringLiteral("search")), 0);
        QCOMPARE(c.fields.value(QStringLiteral("tool")).first().value, QStringLiteral("search")); // named, not its code
        // A call's start row carries its call's outcome.
        QCOMPARE(c.fields.value(QStringLiteral("outcome")).size(), 1);
        QCOMPARE(c.fields.value(QStringLiteral("outcome")).first().value, QStringLiteral("unserved"));
        // What a value sits under in the panes.
        QCOMPARE(c.fields.value(QStringLiteral("channel")).first().group, QStringLiteral("websocket"));
        QCOMPARE(c.fields.value(QStringLiteral("type")).first().group, QStringLiteral("message"));
        QCOMPARE(c.blocked, 1);
        QCOMPARE(c.unblocked, 1);
        QCOMPARE(c.histogram, (QVector<qint64> { 1, 1 }));
        QCOMPARE(c.count(QStringLiteral("label"), QStringLiteral("pii")), 1);
        QCOMPARE(c.count(QStringLiteral("is"), QStringLiteral("marked")), 1);
        QCOMPARE(c.count(QStringLiteral("is"), QStringLiteral("labelled")), 1);
        QCOMPARE(c.count(QStringLiteral("is"), QStringLiteral("redacted")), 1);
        QCOMPARE(c.count(QStringLiteral("is"), QStringLiteral("noted")), 0);
    }

    // Each call's start carries its call's outcome, found by its index whether the rows come in order or not; a row
    // of another kind at a start's index, or a start no call is known for, carries none.
    void aStartCarriesItsCallsOutcome()
    {
        FacetCounter counter(1, std::nullopt, 10, m_words);
        counter.setCallStart(2, "failed");
        counter.setCallStart(5, "served");
        counter.setCallStart(9, "failed");
        counter.setCallStart(9, "served"); // a second call at the same start: the first's outcome stays
        const FacetCounts c = count("('17', '2', NULL, NULL, NULL, '24', NULL, 0, NULL, 0, 9, 0), "
                                    "('17', '2', NULL, NULL, NULL, '24', NULL, 0, NULL, 0, 2, 0), "
                                    "('18', '2', NULL, NULL, NULL, '24', 'failed', 0, NULL, 0, 3, 0), "
                                    "('17', '2', NULL, NULL, NULL, '24', NULL, 0, NULL, 0, 5, 0), "
                                    "('17', '2', NULL, NULL, NULL, '24', NULL, 0, NULL, 0, 7, 0), "
                                    "('19', '0', NULL, NULL, NULL, NULL, NULL, 0, NULL, 0, 9, 0)",
            counter);
        QCOMPARE(c.count(QStringLiteral("outcome"), QStringLiteral("failed")), 3); // 9, 2 and the end at 3
        QCOMPARE(c.count(QStringLiteral("outcome"), QStringLiteral("served")), 1);
        QCOMPARE(c.fields.value(QStringLiteral("outcome")).size(), 2);
        QCOMPARE(c.count(QStringLiteral("tool"), QStringLiteral("t")), 5);
    }

    void valuesPastTheLimitAreSummed()
    {
        FacetCounter counter(1, std::nullopt, 10, m_words);
        // Most rows first, then by name, not by code ("21" is c, "22" b).
        const FacetCounts c = count("('20', '0', NULL, NULL, NULL, NULL, NULL, 0, NULL, 0, 0, 0), "
                                    "('20', '0', NULL, NULL, NULL, NULL, NULL, 0, NULL, 0, 1, 0), "
                                    "('21', '0', NULL, NULL, NULL, NULL, NULL, 0, NULL, 0, 2, 0), "
                                    "('22', '0', NULL, NULL, NULL, NULL, NULL, 0, NULL, 0, 3, 0)",
            counter, 2);
        const QVector<FacetValue> types = c.fields.value(QStringLiteral("type"));
        QCOMPARE(types.size(), 2);
        QCOMPARE(types.at(0).value, QStringLiteral("a")); // most rows first, then by value
        QCOMPARE(types.at(1).value, QStringLiteral("b"));
        QCOMPARE(c.more.value(QStringLiteral("type")), 1);
        QVERIFY(c.histogram.isEmpty()); // a room without a time has no histogram
        QCOMPARE(c.fields.value(QStringLiteral("channel")).size(), 0);
    }
};

QTEST_GUILESS_MAIN(TestFacetCounter)
#include "tst_facetcounter.moc"
