// The life of the room shown between room lists (RoomSession): when a list that comes says its rows moved, so that
// MainWindow reads it again in place, and when it leaves it be.
#include "roomsession.h"
#include "storeclient.h"

#include <QTest>

namespace {

RoomSummary room(qint64 id, qint64 events, qint64 calls = 0, qint64 failed = 0)
{
    RoomSummary r;
    r.id = id;
    r.nativeId = QStringLiteral("r%1").arg(id);
    r.eventCount = events;
    r.toolCalls = calls;
    r.failed = failed;
    r.firstMicros = events > 0 ? 1000 : 0;
    r.lastMicros = events > 0 ? 1000 + events : 0;
    return r;
}

} // namespace

class TestRoomSession : public QObject
{
    Q_OBJECT

private slots:
    void aListThatAgreesLeavesTheRoomBe()
    {
        RoomSession s(&m_store);
        const RoomSummary shown = room(1, 10);
        s.show(1, {}, &shown);
        QCOMPARE(s.roomId(), 1);
        // The half second's refresh after an import: the same figures, even while the row index is on its way.
        QVERIFY(!s.moved({ room(1, 10), room(2, 5) }, 1, false, -1));
        QVERIFY(!s.moved({ room(1, 10) }, 1, false, 10));
    }

    void moreRowsASettledCallOrAnotherSpanReadItAgain()
    {
        RoomSession s(&m_store);
        const RoomSummary shown = room(1, 10, 2, 0);
        s.show(1, {}, &shown);
        QVERIFY(s.moved({ room(1, 11, 2, 0) }, 1, false, 10)); // a row more
        QVERIFY(!s.moved({ room(1, 11, 2, 0) }, 1, false, 11)); // compared with the list it was read with since
        QVERIFY(s.moved({ room(1, 11, 2, 1) }, 1, false, 11)); // a call settled as failed
        RoomSummary moved = room(1, 11, 2, 1);
        moved.firstMicros = 5;
        QVERIFY(s.moved({ moved }, 1, false, 11)); // a rotated log read again from its start
        // Another room's figures move nothing of it.
        QVERIFY(!s.moved({ moved, room(2, 99) }, 1, false, 11));
    }

    void whileAnImportRunsOnlyABatchMadeWholeReadsItAgain()
    {
        RoomSession s(&m_store);
        const RoomSummary shown = room(1, 1000);
        s.show(1, {}, &shown);
        QVERIFY(!s.moved({ room(1, 2000) }, 1, true, 1000)); // the import's two-second list
        s.madeWhole(2); // another room's batch
        QVERIFY(!s.moved({ room(1, 3000) }, 1, true, 1000));
        s.madeWhole(1);
        QVERIFY(s.moved({ room(1, 4000) }, 1, true, 1000));
        QVERIFY(!s.moved({ room(1, 5000) }, 1, true, 4000)); // made whole once, read again once
    }

    void rowsRewrittenInPlaceReadItAgainWithTheSameFigures()
    {
        RoomSession s(&m_store);
        const RoomSummary shown = room(1, 10);
        s.show(1, {}, &shown);
        s.rewritten(2);
        QVERIFY(!s.moved({ room(1, 10) }, 1, false, 10));
        s.rewritten(1);
        QVERIFY(s.moved({ room(1, 10) }, 1, false, 10));
        QVERIFY(!s.moved({ room(1, 10) }, 1, false, 10)); // once
    }

    void aRoomShownBeforeTheListHadItIsReadAgainByTheNextList()
    {
        RoomSession s(&m_store);
        s.show(3, {}, nullptr); // chosen before the list came (a room named when the source was opened)
        QVERIFY(s.moved({ room(3, 40) }, 3, false, 40));
        QVERIFY(!s.moved({ room(3, 40) }, 3, false, 40)); // and then compared with that list
        // A list without the room shown says nothing of it.
        s.show(4, {}, nullptr);
        QVERIFY(!s.moved({ room(3, 41) }, 4, false, -1));
    }

    void aRoomTheSessionDidNotShowIsComparedByTheViewsCount()
    {
        RoomSession s(&m_store);
        const RoomSummary shown = room(1, 10);
        s.show(1, {}, &shown);
        // The list's current room is another (selected while the list reloaded): the view's count decides.
        QVERIFY(!s.moved({ room(2, 40) }, 2, false, 40));
        QCOMPARE(s.roomId(), 2);
        RoomSession t(&m_store);
        t.show(1, {}, &shown);
        QVERIFY(t.moved({ room(2, 41) }, 2, false, 40));
    }

private:
    StoreClient m_store; // no workspace: the rule is what is tested here; tst_mainwindow reads rooms again for real
};

QTEST_GUILESS_MAIN(TestRoomSession)
#include "tst_roomsession.moc"
