// The one rule by which a typed room id names rooms (RoomMatch), for the CLI's --room and the window's Go ▸ Room….

#include "roommatch.h"

#include <QTest>

class TestRoomMatch : public QObject
{
    Q_OBJECT

    static RoomSummaries rooms()
    {
        RoomSummaries out;
        qint64 id = 0;
        for (const char* native : { "room-0041", "room-0410", "room-big", "th_9f2a", "Room-Upper", "room-big" }) {
            RoomSummary r;
            r.id = ++id;
            r.nativeId = QString::fromLatin1(native);
            out << r;
        }
        return out; // the last is room-big again: a second source's room of the same id
    }

private slots:
    void exactIdsFirst()
    {
        QCOMPARE(RoomMatch::find(rooms(), QStringLiteral("room-0041")).ids, QVector<qint64>({ 1 }));
        QCOMPARE(RoomMatch::find(rooms(), QStringLiteral("room-big")).ids, QVector<qint64>({ 3, 6 }));
    }

    void aPartOneIdHolds()
    {
        QCOMPARE(RoomMatch::find(rooms(), QStringLiteral("9f2a")).ids, QVector<qint64>({ 4 }));
        QCOMPARE(RoomMatch::find(rooms(), QStringLiteral("big")).ids, QVector<qint64>({ 3, 6 })); // one id, two rooms
        const RoomMatch several = RoomMatch::find(rooms(), QStringLiteral("041"));
        QVERIFY(several.ids.isEmpty());
        QCOMPARE(several.several, QStringList({ QStringLiteral("room-0041"), QStringLiteral("room-0410") }));
    }

    void anotherCaseIsNamedNeverTaken()
    {
        const RoomMatch upper = RoomMatch::find(rooms(), QStringLiteral("ROOM-0041"));
        QVERIFY(upper.ids.isEmpty());
        QCOMPARE(upper.otherCase, QStringList { QStringLiteral("room-0041") });
        const RoomMatch none = RoomMatch::find(rooms(), QStringLiteral("nowhere"));
        QVERIFY(none.ids.isEmpty() && none.several.isEmpty() && none.otherCase.isEmpty());
        QVERIFY(RoomMatch::find(rooms(), QString()).ids.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestRoomMatch)
#include "tst_roommatch.moc"
