#include "timeutil.h"

#include <QTest>

class TestTimeUtil : public QObject
{
    Q_OBJECT
private slots:
    void parse_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qint64>("micros");
        QTest::addColumn<bool>("valid");
        const qint64 base = 1772366405LL * 1000000; // 2026-03-01T12:00:05Z
        QTest::newRow("roomkit µs Z") << "2026-03-01T12:00:05.123456Z" << base + 123456 << true;
        QTest::newRow("whole seconds") << "2026-03-01T12:00:05Z" << base << true;
        QTest::newRow("millis") << "2026-03-01T12:00:05.5Z" << base + 500000 << true;
        QTest::newRow("nanos cut to µs") << "2026-03-01T12:00:05.123456789Z" << base + 123456 << true;
        QTest::newRow("python offset") << "2026-03-01T12:00:05.000001+00:00" << base + 1 << true;
        QTest::newRow("east offset") << "2026-03-01T14:00:05+02:00" << base << true;
        QTest::newRow("west offset, no colon") << "2026-03-01T07:00:05-0500" << base << true;
        QTest::newRow("space separator") << "2026-03-01 12:00:05Z" << base << true;
        QTest::newRow("no offset is UTC") << "2026-03-01T12:00:05" << base << true;
        QTest::newRow("minutes only") << "2026-03-01T12:00" << base - 5000000 << true;
        QTest::newRow("epoch") << "1970-01-01T00:00:00Z" << qint64(0) << true;
        QTest::newRow("empty") << "" << qint64(0) << false;
        QTest::newRow("date only") << "2026-03-01" << qint64(0) << false;
        QTest::newRow("bad month") << "2026-13-01T00:00:00Z" << qint64(0) << false;
        QTest::newRow("bad day") << "2026-02-30T00:00:00Z" << qint64(0) << false;
        QTest::newRow("trailing junk") << "2026-03-01T12:00:05Zjunk" << qint64(0) << false;
        QTest::newRow("empty fraction") << "2026-03-01T12:00:05.Z" << qint64(0) << false;
        QTest::newRow("arabic digits") << "٢٠٢٦-03-01T12:00:05Z" << qint64(0) << false;
    }

    void parse()
    {
        QFETCH(QString, text);
        QFETCH(qint64, micros);
        QFETCH(bool, valid);
        const auto parsed = TimeUtil::parseIsoToMicros(text);
        QCOMPARE(parsed.has_value(), valid);
        if (valid)
            QCOMPARE(*parsed, micros);
    }

    void roundTrip_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("µs") << "2026-03-01T12:00:05.123456Z";
        QTest::newRow("leading zeros in fraction") << "2026-03-01T12:00:05.000042Z";
        QTest::newRow("whole") << "2026-03-01T12:00:05Z";
        QTest::newRow("before 1970") << "1969-12-31T23:59:59.999999Z";
    }

    void roundTrip()
    {
        QFETCH(QString, text);
        QCOMPARE(TimeUtil::formatMicros(*TimeUtil::parseIsoToMicros(text)), text);
    }

    // What people type: the filter bar and the command line read it alike. Without a zone, local time.
    void userTime_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("same"); // the same instant written with its zone, or "" when invalid
        const QString offset = QDateTime(QDate(2026, 3, 1), QTime(12, 0), Qt::LocalTime).toString(Qt::ISODate).mid(19);
        const QString zone = offset.isEmpty() ? QStringLiteral("Z") : offset;
        QTest::newRow("date") << "2026-03-01" << QStringLiteral("2026-03-01T00:00:00") + zone;
        QTest::newRow("minutes") << "2026-03-01T12:00" << QStringLiteral("2026-03-01T12:00:00") + zone;
        QTest::newRow("µs") << "2026-03-01T12:00:05.000042" << QStringLiteral("2026-03-01T12:00:05.000042") + zone;
        QTest::newRow("Z kept") << "2026-03-01T12:00:05Z" << "2026-03-01T12:00:05Z";
        QTest::newRow("offset kept") << "2026-03-01T14:00:05+02:00" << "2026-03-01T12:00:05Z";
        QTest::newRow("not a date") << "yesterday" << "";
        QTest::newRow("bad day") << "2026-02-30" << "";
        QTest::newRow("date and junk") << "2026-03-01junk" << "";
    }

    void userTime()
    {
        QFETCH(QString, text);
        QFETCH(QString, same);
        const auto parsed = TimeUtil::parseUserTime(text);
        QCOMPARE(parsed.has_value(), !same.isEmpty());
        if (!parsed)
            return;
        QCOMPARE(*parsed, *TimeUtil::parseIsoToMicros(same));
        // Written back, it reads back the same, to the microsecond.
        for (const qint64 delta : { qint64(0), qint64(1), qint64(999), qint64(1000), qint64(-1) })
            QCOMPARE(*TimeUtil::parseUserTime(TimeUtil::formatUserTime(*parsed + delta)), *parsed + delta);
    }

    // A time before now, as a queue's filter says "the last week": the clock's now, read before and after.
    void timeBeforeNow()
    {
        const qint64 before = QDateTime::currentMSecsSinceEpoch() * 1000;
        const auto week = TimeUtil::parseUserTime(u"-7d");
        const auto hours = TimeUtil::parseUserTime(u" -12h ");
        const qint64 after = QDateTime::currentMSecsSinceEpoch() * 1000;
        QVERIFY(week && hours);
        QVERIFY(*week >= before - 7 * 86400000000LL && *week <= after - 7 * 86400000000LL);
        QVERIFY(*hours >= before - 12 * 3600000000LL && *hours <= after - 12 * 3600000000LL);
        QVERIFY(*TimeUtil::parseUserTime(u"-30m") > *TimeUtil::parseUserTime(u"-1h"));
        QVERIFY(*TimeUtil::parseUserTime(u"-1w") < *TimeUtil::parseUserTime(u"-6d"));
        for (const QString& bad : { QStringLiteral("-7"), QStringLiteral("-d"), QStringLiteral("-7y"), QStringLiteral("--7d"),
                 QStringLiteral("-+7d"), QStringLiteral("-7.5d"), QStringLiteral("-99999999999d") })
            QVERIFY2(!TimeUtil::parseUserTime(bad), qPrintable(bad));
    }

    void secondsToMicros()
    {
        // RoomKit's created_ts REAL keeps only about 7 digits after the point at this magnitude: rounding,
        // not truncation, gives back the microseconds.
        QCOMPARE(TimeUtil::secondsToMicros(1772366405.123456), 1772366405123456LL);
    }
};

QTEST_GUILESS_MAIN(TestTimeUtil)
#include "tst_timeutil.moc"
