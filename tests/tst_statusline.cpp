// What the status bar says of the room shown and what an empty timeline says instead (StatusLine): every case of
// the window's, from plain facts. The window's own tests read the same texts off a real window.

#include "statusline.h"

#include <QTest>

class TestStatusLine : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates)); }

    void noRoomAndCounting()
    {
        StatusLine::Facts none;
        QCOMPARE(StatusLine::of(none).status, QStringLiteral("No room selected"));
        QCOMPARE(StatusLine::of(none).empty, QStringLiteral("Pick a room to see its events."));
        StatusLine::Facts counting;
        counting.roomId = 3;
        QCOMPARE(StatusLine::of(counting).status, QStringLiteral("Counting…"));
        QVERIFY(StatusLine::of(counting).empty.isEmpty());
    }

    // The timeline folds a call's rows into one card: the items are said when they are not the events, and only
    // once the row index is in; the raw rows are events.
    void itemsAreSaidWhenTheyAreNotTheEvents()
    {
        StatusLine::Facts f;
        f.roomId = 1;
        f.shown = 24;
        f.total = 24;
        f.items = 16;
        f.indexed = true;
        QCOMPARE(StatusLine::of(f).status, QStringLiteral("showing 24 of 24 events as 16 items"));
        QVERIFY(StatusLine::of(f).empty.isEmpty());
        f.items = 1;
        QCOMPARE(StatusLine::of(f).status, QStringLiteral("showing 24 of 24 events as 1 item"));
        f.indexed = false;
        QCOMPARE(StatusLine::of(f).status, QStringLiteral("showing 24 of 24 events"));
        f.indexed = true;
        f.timeline = false;
        QCOMPARE(StatusLine::of(f).status, QStringLiteral("showing 24 of 24 events"));
        f.timeline = true;
        f.items = 24;
        f.shown = 24;
        f.total = 1234567;
        QCOMPARE(StatusLine::of(f).status, QStringLiteral("showing 24 of 1,234,567 events"));
    }

    void anEmptyTimelineSaysWhy()
    {
        StatusLine::Facts f;
        f.roomId = 1;
        f.shown = 0;
        f.total = 0;
        QCOMPARE(StatusLine::of(f).empty, QStringLiteral("This room has no events."));
        f.total = 13;
        QCOMPARE(StatusLine::of(f).status, QStringLiteral("showing 0 of 13 events"));
        QCOMPARE(StatusLine::of(f).empty, QStringLiteral("No event of the 13 in this room matches the filter."));
    }

    // What the count does not say yet, in one pair of parentheses; never a false "no events".
    void whatIsNotReadYetIsSaid()
    {
        RoomSummary room;
        room.id = 41;
        room.unread = 1011;
        StatusLine::Facts f;
        f.roomId = 41;
        f.shown = 0;
        f.total = 0;
        f.room = &room;
        f.importing = true;
        QCOMPARE(StatusLine::of(f).status,
            QStringLiteral("showing 0 of 0 events (reading this room: 1,011 events in the source)"));
        QCOMPARE(StatusLine::of(f).empty, QStringLiteral("Reading this room from its source (1,011 events)…"));
        f.importing = false;
        QCOMPARE(StatusLine::of(f).status, QStringLiteral("showing 0 of 0 events (not read yet: 1,011 events in the source)"));
        QCOMPARE(StatusLine::of(f).empty,
            QStringLiteral("This room is not read yet: its source holds 1,011 events. Open the source (File ▸ Open "
                           "Recent) to read it."));

        // Read in part: what was read is shown, the rest said.
        room.eventCount = 500;
        room.unread = 511;
        f.shown = 500;
        f.total = 500;
        f.items = 500;
        QCOMPARE(StatusLine::of(f).status,
            QStringLiteral("showing 500 of 500 events (1,011 events in the source: read in part, open the source to "
                           "read the rest)"));
        QVERIFY(StatusLine::of(f).empty.isEmpty());
        // Being read on, the list's count ahead of the rows shown: both in one pair of parentheses.
        f.importing = true;
        room.eventCount = 700;
        room.unread = 311;
        QCOMPARE(StatusLine::of(f).status,
            QStringLiteral("showing 500 of 500 events (700 imported so far; reading on: 1,011 events in the source)"));
    }

    // A room the room list's filter hides, still shown: named, so that its events do not pass for another room's.
    void aRoomHiddenByTheRoomFilterIsNamed()
    {
        RoomSummary room;
        room.id = 41;
        room.nativeId = QStringLiteral("room-0417");
        room.eventCount = 15;
        StatusLine::Facts f;
        f.roomId = 41;
        f.shown = 15;
        f.total = 15;
        f.items = 15;
        f.room = &room;
        QCOMPARE(StatusLine::of(f).status, QStringLiteral("showing 15 of 15 events"));
        f.hiddenByRoomFilter = true;
        QCOMPARE(StatusLine::of(f).status,
            QStringLiteral("showing 15 of 15 events (room room-0417, hidden by the room filter)"));
    }
};

QTEST_GUILESS_MAIN(TestStatusLine)
#include "tst_statusline.moc"
