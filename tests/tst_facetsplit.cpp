// The panes' counts of a big room, made in two halves on two threads on one snapshot (Workspace::facets with a
// SnapshotPartner): the same counts as one thread makes, never two moments of the workspace mixed, and one thread
// whenever the halves could not share a snapshot.
#include "annotationstore.h"
#include "eventflags.h"
#include "filterquery.h"
#include "roomkitstoregenerator.h"
#include "sources/importer.h"
#include "storeerror.h"
#include "testsupport.h"
#include "workspace.h"

#include <atomic>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <thread>

class TestFacetSplit : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_workspace;
    qint64 m_room = 0;
    qint64 m_events = 0;

    static QString describe(const FacetCounts& c)
    {
        QStringList out { QStringLiteral("shown %1 blocked %2 unblocked %3").arg(c.shown).arg(c.blocked).arg(c.unblocked) };
        for (auto it = c.fields.cbegin(); it != c.fields.cend(); ++it) {
            QStringList values;
            for (const FacetValue& v : it.value())
                values << QStringLiteral("%1=%2 (%3)").arg(v.value).arg(v.count).arg(v.group);
            out << it.key() + QStringLiteral(": ") + values.join(QStringLiteral(", ")) + QStringLiteral(" more ")
                    + QString::number(c.more.value(it.key()));
        }
        QStringList bins;
        for (qint64 b : c.histogram)
            bins << QString::number(b);
        out << QStringLiteral("histogram ") + bins.join(QLatin1Char(' '));
        return out.join(QLatin1Char('\n'));
    }

    qint64 redactedCount(Workspace& ws)
    {
        const FacetCounts c = ws.facets(m_room, {}, 8, 1000);
        return c.count(QStringLiteral("is"), QStringLiteral("redacted"));
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        const QString source = m_dir.filePath(QStringLiteral("store.sqlite"));
        RoomKitStoreGenerator::write(source, 30000, 3, 0.9, 17);
        m_workspace = m_dir.filePath(QStringLiteral("split.sightline"));
        Workspace ws(m_workspace);
        Importer::import(ws, source);
        m_room = ws.findRooms(QStringLiteral("room-big")).first();
        m_events = ws.room(m_room)->eventCount;
        QVERIFY(m_events >= Workspace::SplitCountFrom);
        // What reviewers add, on rows of both halves: labels, notes and marks (counted from a table beside the rows).
        AnnotationStore store(ws);
        ws.exec(QStringLiteral("BEGIN"));
        for (qint64 i = 0; i < m_events; i += 97) {
            store.addLabel(m_room, i, i % 2 ? QStringLiteral("pii") : QStringLiteral("bug"), QStringLiteral("test"));
            if (i % 3 == 0)
                store.setMarked(m_room, i, true, QStringLiteral("test"));
        }
        // A channel whose type changes half-way (the panes show a value under the type of the first row holding it,
        // whichever thread counted that row), and a row without a whole index of its own, kept far below the others
        // as RoomKitReader keeps one: the halves still split the room's whole indexes between them.
        ws.exec(QStringLiteral("UPDATE events SET channel_type = CASE WHEN seq < ? THEN 'early' ELSE 'late' END WHERE "
                               "room_id = ? AND channel_id = (SELECT channel_id FROM events WHERE room_id = ? AND "
                               "channel_type = 'websocket' LIMIT 1)"),
            { m_events / 8, m_room, m_room });
        // A call whose start the source lost (its end alone, paired as such, a row of its own), late in the room:
        // the first half reads it.
        QSqlQuery lost = ws.exec(QStringLiteral("SELECT id, end_seq FROM tool_calls WHERE room_id = ? AND end_seq IS NOT "
                                                "NULL AND start_seq IS NOT NULL ORDER BY end_seq DESC LIMIT 1"),
            { m_room });
        QVERIFY(lost.next());
        const qint64 lostCall = lost.value(0).toLongLong(), lostEnd = lost.value(1).toLongLong();
        lost.finish();
        ws.exec(QStringLiteral("UPDATE tool_calls SET start_seq = NULL, pairing = 'end_only' WHERE id = ?"), { lostCall });
        ws.exec(QStringLiteral("UPDATE events SET flags = flags & ~? WHERE room_id = ? AND seq = ?"),
            { int(EventFlags::Folded), m_room, lostEnd });
        ws.exec(QStringLiteral("UPDATE events SET seq = ? + id WHERE room_id = ? AND seq = (SELECT min(seq) FROM events "
                               "WHERE room_id = ? AND kind = (SELECT code FROM words WHERE name = 'message') AND seq % 97 != 0)"),
            { -(qint64(1) << 40), m_room, m_room });
        ws.exec(QStringLiteral("COMMIT"));
    }

    void twoHalvesCountWhatOneThreadCounts_data()
    {
        QTest::addColumn<QString>("query");
        QTest::newRow("none") << QString();
        QTest::newRow("a type") << QStringLiteral("type:tool_call_start");
        QTest::newRow("two fields") << QStringLiteral("type:message outcome:failed");
        QTest::newRow("outcome") << QStringLiteral("outcome:failed");
        QTest::newRow("blocked only") << QStringLiteral("blocked:only");
        QTest::newRow("a label") << QStringLiteral("label:pii");
        QTest::newRow("marked") << QStringLiteral("is:marked");
        QTest::newRow("a word") << QStringLiteral("refund");
        QTest::newRow("not a tool") << QStringLiteral("-tool:search_orders");
    }

    void twoHalvesCountWhatOneThreadCounts()
    {
        QFETCH(QString, query);
        const FilterQuery::Result parsed = FilterQuery::parse(query);
        QVERIFY2(parsed.ok(), qPrintable(parsed.error));
        Workspace ws(m_workspace);
        const FacetCounts two = ws.facets(m_room, parsed.filter, 16, 5);
        QCOMPARE(ws.passThreads(), 2);
        ws.setSplitCountFrom(std::numeric_limits<qint64>::max());
        const FacetCounts one = ws.facets(m_room, parsed.filter, 16, 5);
        QCOMPARE(ws.passThreads(), 1);
        QCOMPARE(describe(two), describe(one));
        // And they count something: the room's rows, labels where the filter keeps them.
        QVERIFY(one.blocked + one.unblocked > 0 || one.shown == 0);
        if (query.isEmpty()) {
            QCOMPARE(one.shown + one.blocked, m_events); // blocked rows are hidden unless asked for
            QVERIFY(one.count(QStringLiteral("label"), QStringLiteral("pii")) > 0);
            QVERIFY(describe(one).contains(QLatin1String("(early)"))); // the changed channel, under its first type
        }
    }

    // The waterfall's calls (and the tool statistics, which read them) in two halves by start: the very calls one
    // thread reads, in the same order, a call that never started among the first.
    void theCallsReadInHalvesAreTheCallsReadAlone_data()
    {
        QTest::addColumn<QString>("query");
        QTest::newRow("none") << QString();
        QTest::newRow("failed") << QStringLiteral("outcome:failed");
        QTest::newRow("a tool") << QStringLiteral("tool:search_orders");
        QTest::newRow("a word") << QStringLiteral("refund");
    }

    void theCallsReadInHalvesAreTheCallsReadAlone()
    {
        QFETCH(QString, query);
        const FilterQuery::Result parsed = FilterQuery::parse(query);
        QVERIFY2(parsed.ok(), qPrintable(parsed.error));
        const auto describeCalls = [](const ToolCallRecords& calls) {
            QStringList out;
            for (const ToolCallRecord& c : calls) {
                out << QStringLiteral("%1 %2 %3-%4 %5 %6 %7 %8")
                           .arg(c.toolName, c.toolId)
                           .arg(c.startIndex.value_or(-1))
                           .arg(c.endIndex.value_or(-1))
                           .arg(c.durationMs.value_or(-1))
                           .arg(int(c.outcome))
                           .arg(c.arguments)
                           .arg(c.resultIndex.value_or(-1));
            }
            return out;
        };
        Workspace ws(m_workspace);
        ws.setSplitCountFrom(100); // split by calls: the room has thousands
        const ToolCallRecords two = ws.toolCallsShown(m_room, parsed.filter, false);
        QCOMPARE(ws.passThreads(), 2);
        ws.setSplitCountFrom(std::numeric_limits<qint64>::max());
        const ToolCallRecords one = ws.toolCallsShown(m_room, parsed.filter, false);
        QCOMPARE(ws.passThreads(), 1);
        QVERIFY(!one.isEmpty());
        QCOMPARE(describeCalls(two), describeCalls(one));
        if (query.isEmpty())
            QVERIFY(!one.constFirst().startIndex); // the call without a start, first
    }

    // Whether a pass is split is decided by the rows it reads: the room's events for its panes, its calls for the
    // waterfall. A big room of a few thousand calls has its calls read on one thread, without the second
    // connection's lock.
    void aBigRoomOfFewCallsReadsItsCallsAlone()
    {
        Workspace ws(m_workspace);
        const qint64 calls = ws.room(m_room)->toolCalls;
        QVERIFY(calls > 100);
        QVERIFY(calls < Workspace::SplitCountFrom);
        ws.facets(m_room, {}, 8, 10);
        QCOMPARE(ws.passThreads(), 2);
        QCOMPARE(ws.toolCallsShown(m_room, {}, false).size(), calls);
        QCOMPARE(ws.passThreads(), 1);
        ws.setSplitCountFrom(calls);
        QCOMPARE(ws.toolCallsShown(m_room, {}, false).size(), calls);
        QCOMPARE(ws.passThreads(), 2);
    }

    // A superseded task (StoreClient cancels it) stops on both halves: the second reader asks the same question as
    // the task's own connection. Here the task is cancelled only once the second reader has asked (until then the
    // own connection, on this thread, reads on), so the pass fails only if the second reader asks.
    void aCancelledPassStopsItsSecondHalf()
    {
        Workspace ws(m_workspace);
        ws.setSplitCountFrom(100);
        std::atomic<int> asked = 0;
        std::atomic<bool> cancelled = true;
        const std::thread::id here = std::this_thread::get_id();
        ws.setCancelled([&] {
            if (std::this_thread::get_id() == here)
                return cancelled.load() && asked > 0;
            ++asked;
            return cancelled.load();
        });
        QVERIFY_THROWS_EXCEPTION(StoreError, ws.facets(m_room, {}, 8, 10));
        QCOMPARE(ws.passThreads(), 2);
        QVERIFY(asked > 0);
        QVERIFY_THROWS_EXCEPTION(StoreError, ws.toolCallsShown(m_room, {}, false));
        QCOMPARE(ws.passThreads(), 2);
        // Asked and not cancelled: the passes answer whole, as one thread counts.
        cancelled = false;
        asked = 0;
        const FacetCounts counts = ws.facets(m_room, {}, 8, 10);
        QCOMPARE(ws.passThreads(), 2);
        QVERIFY(asked > 0);
        QCOMPARE(counts.shown + counts.blocked, m_events);
        const qsizetype calls = ws.toolCallsShown(m_room, {}, false).size();
        QCOMPARE(calls, ws.room(m_room)->toolCalls);
        // No question any more: the handler went with it (one left on the second reader would call an empty
        // function, and throw through SQLite).
        ws.setCancelled({});
        QCOMPARE(ws.toolCallsShown(m_room, {}, false).size(), calls);
        QCOMPARE(ws.passThreads(), 2);
    }

    // A writer flips the redacted flag of one row of each half in one transaction while the panes count: a count made
    // of two moments would see one flag flipped and not the other, an odd number of redacted rows.
    void theHalvesShareOneSnapshot()
    {
        std::atomic<bool> stop = false;
        std::atomic<int> flips = 0;
        const qint64 low = 5, high = m_events - 5;
        std::thread writer([&] {
            Workspace ws(m_workspace);
            while (!stop) {
                ws.exec(QStringLiteral("BEGIN IMMEDIATE"));
                ws.exec(QStringLiteral("UPDATE events SET flags = (flags | ?) - (flags & ?) WHERE room_id = ? AND seq IN (?, ?)"),
                    { int(EventFlags::Redacted), int(EventFlags::Redacted), m_room, low, high });
                ws.exec(QStringLiteral("COMMIT"));
                ++flips;
                std::this_thread::sleep_for(std::chrono::microseconds(200));
            }
        });
        Workspace ws(m_workspace);
        int split = 0, alone = 0;
        for (int i = 0; i < 150 && !QTest::currentTestFailed(); ++i) {
            const qint64 redacted = redactedCount(ws);
            (ws.passThreads() == 2 ? split : alone) += 1;
            QVERIFY2(redacted % 2 == 0, qPrintable(QStringLiteral("count %1 saw %2 redacted rows").arg(i).arg(redacted)));
        }
        stop = true;
        writer.join();
        qInfo("%d counts on two threads, %d alone, %d commits by the writer", split, alone, int(flips));
        QVERIFY(flips > 10);
        QVERIFY(split > 0);
    }

    // Inside a transaction of its own the workspace's connection sees rows nobody else can: counted alone.
    void aTransactionsOwnRowsAreCounted()
    {
        Workspace ws(m_workspace);
        const qint64 before = redactedCount(ws);
        QCOMPARE(ws.passThreads(), 2);
        ws.exec(QStringLiteral("BEGIN"));
        ws.exec(QStringLiteral("UPDATE events SET flags = flags | ? WHERE room_id = ? AND seq IN (?, ?) AND flags & ? = 0"),
            { int(EventFlags::Redacted), m_room, 100, m_events - 100, int(EventFlags::Redacted) });
        QCOMPARE(redactedCount(ws), before + 2);
        QCOMPARE(ws.passThreads(), 1);
        ws.exec(QStringLiteral("ROLLBACK"));
        QCOMPARE(redactedCount(ws), before);
    }

    // A statement of the connection part-way through its rows holds an older snapshot than any gate: counted alone,
    // on that snapshot.
    void aStatementPartWayMeansCountingAlone()
    {
        Workspace ws(m_workspace);
        const FacetCounts before = ws.facets(m_room, {}, 8, 1000);
        QCOMPARE(ws.passThreads(), 2);
        QSqlQuery open = ws.exec(QStringLiteral("SELECT seq FROM events WHERE room_id = ?"), { m_room });
        QVERIFY(open.next());
        {
            Workspace writer(m_workspace);
            writer.exec(QStringLiteral("UPDATE events SET flags = flags | ? WHERE room_id = ? AND seq = ?"),
                { int(EventFlags::Redacted), m_room, m_events - 3 });
        }
        const FacetCounts during = ws.facets(m_room, {}, 8, 1000);
        QCOMPARE(ws.passThreads(), 1);
        QCOMPARE(describe(during), describe(before)); // the open statement's snapshot: the flag came after it
        open.finish();
        const FacetCounts after = ws.facets(m_room, {}, 8, 1000);
        QCOMPARE(ws.passThreads(), 2);
        QCOMPARE(after.count(QStringLiteral("is"), QStringLiteral("redacted")),
            before.count(QStringLiteral("is"), QStringLiteral("redacted")) + 1);
        Workspace(m_workspace).exec(QStringLiteral("UPDATE events SET flags = flags & ~? WHERE room_id = ? AND seq = ?"),
            { int(EventFlags::Redacted), m_room, m_events - 3 });
    }

    // Another connection holding the write lock (an import at work): the count does not wait for it, it counts alone.
    void aBusyWriterMeansCountingAlone()
    {
        Workspace writer(m_workspace);
        Workspace ws(m_workspace);
        const FacetCounts free = ws.facets(m_room, {}, 8, 1000);
        QCOMPARE(ws.passThreads(), 2);
        writer.exec(QStringLiteral("BEGIN IMMEDIATE"));
        const FacetCounts busy = ws.facets(m_room, {}, 8, 1000);
        QCOMPARE(ws.passThreads(), 1);
        writer.exec(QStringLiteral("ROLLBACK"));
        QCOMPARE(describe(busy), describe(free));
    }
};

QTEST_GUILESS_MAIN(TestFacetSplit)
#include "tst_facetsplit.moc"
