// The decoder of RoomKit's event JSON: derived columns, search text, outcomes, and what bad rows get.
// Includes a seeded randomized fuzz over mutations of every real row of the fixtures.

#include "eventflags.h"
#include "outcome.h"
#include "roomkitrowdecoder.h"
#include "testsupport.h"
#include "timeutil.h"

#include <cmath>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QTest>
#include <sqlite3.h>

namespace {

RoomKitColumns columnsFor(const QString& type)
{
    RoomKitColumns c;
    c.id = QStringLiteral("col-id");
    c.type = type;
    c.index = 42;
    c.channelId = QStringLiteral("ws-web");
    c.channelType = QStringLiteral("websocket");
    c.participantId = QStringLiteral("u-1");
    c.createdSeconds = 1772366405.5;
    return c;
}

QByteArray eventJson(
    const QJsonObject& content, const QString& type = QStringLiteral("message"), const QJsonObject& extra = {})
{
    QJsonObject e { { QStringLiteral("id"), QStringLiteral("e1") }, { QStringLiteral("room_id"), QStringLiteral("r") },
        { QStringLiteral("type"), type },
        { QStringLiteral("source"),
            QJsonObject { { QStringLiteral("channel_id"), QStringLiteral("ai-support") },
                { QStringLiteral("channel_type"), QStringLiteral("ai") } } },
        { QStringLiteral("content"), content }, { QStringLiteral("status"), QStringLiteral("delivered") },
        { QStringLiteral("index"), 3 }, { QStringLiteral("created_at"), QStringLiteral("2026-03-01T12:00:05.123456Z") },
        { QStringLiteral("metadata"), QJsonObject() } };
    for (auto it = extra.begin(); it != extra.end(); ++it)
        e.insert(it.key(), it.value());
    return QJsonDocument(e).toJson(QJsonDocument::Compact);
}

QVector<QPair<RoomKitColumns, QByteArray>> fixtureRows()
{
    QVector<QPair<RoomKitColumns, QByteArray>> rows;
    for (const char* store : { "roomkit/edge_cases.sqlite", "roomkit/support.sqlite" }) {
        sqlite3* db = nullptr;
        const QString uri
            = QStringLiteral("file:") + TestSupport::dataFile(QLatin1String(store)) + QStringLiteral("?immutable=1");
        sqlite3_open_v2(uri.toUtf8().constData(), &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr);
        sqlite3_stmt* st = nullptr;
        sqlite3_prepare_v2(db,
            "SELECT id, type, idx, source_channel_id, source_channel_type, created_ts, data FROM events", -1, &st,
            nullptr);
        while (sqlite3_step(st) == SQLITE_ROW) {
            RoomKitColumns c;
            c.id = QString::fromUtf8(reinterpret_cast<const char*>(sqlite3_column_text(st, 0)));
            c.type = QString::fromUtf8(reinterpret_cast<const char*>(sqlite3_column_text(st, 1)));
            c.index = sqlite3_column_int64(st, 2);
            c.channelId = QString::fromUtf8(reinterpret_cast<const char*>(sqlite3_column_text(st, 3)));
            c.channelType = QString::fromUtf8(reinterpret_cast<const char*>(sqlite3_column_text(st, 4)));
            c.createdSeconds = sqlite3_column_double(st, 5);
            rows.append({ c,
                QByteArray(reinterpret_cast<const char*>(sqlite3_column_blob(st, 6)), sqlite3_column_bytes(st, 6)) });
        }
        sqlite3_finalize(st);
        sqlite3_close(db);
    }
    return rows;
}

} // namespace

class TestRoomKitRowDecoder : public QObject
{
    Q_OBJECT
private slots:
    void message()
    {
        const QByteArray data = eventJson(
            { { QStringLiteral("type"), QStringLiteral("text") }, { QStringLiteral("body"), QStringLiteral("héllo") } },
            QStringLiteral("message"),
            { { QStringLiteral("correlation_id"), QStringLiteral("c1") },
                { QStringLiteral("metadata"), QJsonObject { { QStringLiteral("cancelled"), true } } } });
        const DecodedRoomKitEvent d = RoomKitRowDecoder::decode(data, columnsFor(QStringLiteral("message")));
        QVERIFY(d.problem.isEmpty());
        QCOMPARE(d.payload, data);
        QCOMPARE(d.record.nativeId, QStringLiteral("e1")); // the JSON wins over the columns
        QCOMPARE(d.record.type, QStringLiteral("message"));
        QCOMPARE(EventKinds::name(d.record.kind), QStringLiteral("message"));
        QCOMPARE(d.record.channelId, QStringLiteral("ai-support"));
        QCOMPARE(d.record.role, QStringLiteral("assistant"));
        QCOMPARE(d.record.correlationId, QStringLiteral("c1"));
        QCOMPARE(d.record.createdMicros, *TimeUtil::parseIsoToMicros(u"2026-03-01T12:00:05.123456Z"));
        QCOMPARE(d.record.text, QStringLiteral("héllo"));
        QCOMPARE(d.body, QStringLiteral("héllo"));
        QCOMPARE(d.record.flags, int(EventFlags::Cancelled));
    }

    void contentText_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("body");
        QTest::newRow("media caption") << QByteArray(
            R"({"type":"media","url":"uploads/a.png","caption":"the receipt"})")
                                       << "the receipt"
                                       << "the receipt";
        QTest::newRow("media filename") << QByteArray(R"({"type":"media","url":"uploads/a.pdf","filename":"a.pdf"})")
                                        << "a.pdf"
                                        << "";
        QTest::newRow("location") << QByteArray(R"({"type":"location","latitude":48.85,"longitude":2.35})")
                                  << "48.85, 2.35"
                                  << "";
        QTest::newRow("audio transcript")
            << QByteArray(R"({"type":"audio","url":"u","transcript":"hello there"})") << "hello there"
            << "";
        QTest::newRow("composite") << QByteArray(
            R"({"type":"composite","parts":[{"type":"text","body":"one"},{"type":"media","url":"u","caption":"two"}]})")
                                   << "one\ntwo"
                                   << "one";
        QTest::newRow("edit") << QByteArray(
            R"({"type":"edit","target_event_id":"abc","new_content":{"type":"text","body":"fixed"}})")
                              << "edit of abc: fixed"
                              << "";
        QTest::newRow("delete") << QByteArray(R"({"type":"delete","target_event_id":"abc","reason":"spam"})")
                                << "delete of abc (spam)"
                                << "";
        QTest::newRow("rich") << QByteArray(R"({"type":"rich","body":"<b>hi</b>","plain_text":"hi"})") << "<b>hi</b>"
                              << "<b>hi</b>";
    }

    void contentText()
    {
        QFETCH(QByteArray, content);
        QFETCH(QString, text);
        QFETCH(QString, body);
        const DecodedRoomKitEvent d = RoomKitRowDecoder::decode(
            eventJson(QJsonDocument::fromJson(content).object()), columnsFor(QStringLiteral("message")));
        QCOMPARE(d.record.text, text);
        QCOMPARE(d.body, body);
    }

    void toolEnd()
    {
        const QByteArray data = eventJson(
            { { QStringLiteral("type"), QStringLiteral("tool_call") },
                { QStringLiteral("tool_name"), QStringLiteral("issue_refund") },
                { QStringLiteral("tool_id"), QStringLiteral("toolu_1") },
                { QStringLiteral("arguments"), QJsonObject { { QStringLiteral("order_id"), QStringLiteral("A-1") } } },
                { QStringLiteral("result"),
                    QStringLiteral("{\"error\": \"Tool 'issue_refund' denied by pre-execution hook.\"}") },
                { QStringLiteral("status"), QStringLiteral("completed") }, { QStringLiteral("duration_ms"), 4 } },
            QStringLiteral("tool_call_end"));
        const DecodedRoomKitEvent d = RoomKitRowDecoder::decode(data, columnsFor(QStringLiteral("tool_call_end")));
        QCOMPARE(EventKinds::name(d.record.kind), QStringLiteral("tool_call"));
        QCOMPARE(d.record.toolName, QStringLiteral("issue_refund"));
        QCOMPARE(d.record.toolId, QStringLiteral("toolu_1"));
        QCOMPARE(Outcomes::name(d.record.outcome), QStringLiteral("refused"));
        QCOMPARE(d.arguments, QStringLiteral("{\"order_id\":\"A-1\"}"));
        QCOMPARE(d.record.text, QStringLiteral("issue_refund({\"order_id\":\"A-1\"})"));
        QCOMPARE(d.durationMs, std::optional<qint64>(4));
        QCOMPARE(d.error, QStringLiteral("Tool 'issue_refund' denied by pre-execution hook."));
        QVERIFY(d.body.isEmpty()); // RoomKit's own search does not index tool rows
    }

    void outcome_data()
    {
        QTest::addColumn<QString>("rowStatus");
        QTest::addColumn<QString>("contentStatus");
        QTest::addColumn<QString>("stored");
        QTest::addColumn<QString>("result");
        QTest::addColumn<QString>("outcome");
        QTest::newRow("served") << "delivered"
                                << "completed"
                                << ""
                                << "{\"ok\": true}"
                                << "served";
        QTest::newRow("plain text result") << "delivered"
                                           << "completed"
                                           << ""
                                           << "Found 5 results"
                                           << "served";
        QTest::newRow("newer RoomKit's own outcome wins") << "delivered"
                                                          << "completed"
                                                          << "cancelled"
                                                          << ""
                                                          << "cancelled";
        QTest::newRow("unknown stored outcome ignored") << "delivered"
                                                        << "failed"
                                                        << "exploded"
                                                        << ""
                                                        << "failed";
        QTest::newRow("blocked row") << "blocked"
                                     << "completed"
                                     << ""
                                     << "{\"card\": 1}"
                                     << "blocked";
        QTest::newRow("failed status") << "delivered"
                                       << "failed"
                                       << ""
                                       << "Error executing tool 'x': boom"
                                       << "failed";
        QTest::newRow("hook") << "delivered"
                              << "completed"
                              << ""
                              << "{\"error\": \"Tool 'x' denied by pre-execution hook.\"}"
                              << "refused";
        QTest::newRow("policy") << "delivered"
                                << "completed"
                                << ""
                                << "{\"error\": \"Tool 'x' is not permitted by the agent's tool policy.\"}"
                                << "refused";
        QTest::newRow("skill gate") << "delivered"
                                    << "completed"
                                    << ""
                                    << "{\"error\": \"Tool 'x' is gated by a skill.\"}"
                                    << "refused";
        QTest::newRow("not available")
            << "delivered"
            << "completed"
            << ""
            << "{\"error\": \"Tool 'x' exists but is not available to this agent (blocked by the tool policy).\"}"
            << "refused";
        QTest::newRow("invalid arguments") << "delivered"
                                           << "completed"
                                           << ""
                                           << "{\"error\": \"Invalid arguments for 'x': missing 'id'\"}"
                                           << "refused";
        QTest::newRow("unknown tool") << "delivered"
                                      << "completed"
                                      << ""
                                      << "{\"error\": \"Unknown tool 'x': it is not declared\"}"
                                      << "unserved";
        QTest::newRow("other error") << "delivered"
                                     << "completed"
                                     << ""
                                     << "{\"error\": \"rate limited\"}"
                                     << "failed";
        QTest::newRow("error null") << "delivered"
                                    << "completed"
                                    << ""
                                    << "{\"error\": null, \"rows\": 3}"
                                    << "served";
    }

    void outcome()
    {
        QFETCH(QString, rowStatus);
        QFETCH(QString, contentStatus);
        QFETCH(QString, stored);
        QFETCH(QString, result);
        QFETCH(QString, outcome);
        QCOMPARE(Outcomes::name(Outcomes::forRoomKitEnd(rowStatus, contentStatus, stored, QJsonValue(result))), outcome);
    }

    void malformedJsonKeepsTheRow()
    {
        const QByteArray data = eventJson(
            { { QStringLiteral("type"), QStringLiteral("text") }, { QStringLiteral("body"), QStringLiteral("cut") } })
                                    .left(60);
        const DecodedRoomKitEvent d = RoomKitRowDecoder::decode(data, columnsFor(QStringLiteral("message")));
        QVERIFY(d.record.flags & EventFlags::MalformedJson);
        QVERIFY2(d.problem.contains(QLatin1String("malformed JSON at byte")), qPrintable(d.problem));
        QCOMPARE(d.payload, data);
        // What the store's own columns say is still shown.
        QCOMPARE(d.record.nativeId, QStringLiteral("col-id"));
        QCOMPARE(d.record.type, QStringLiteral("message"));
        QCOMPARE(d.record.index, 42);
        QCOMPARE(d.record.channelId, QStringLiteral("ws-web"));
        QCOMPARE(EventKinds::name(d.record.kind), QStringLiteral("message"));
        QCOMPARE(d.record.createdMicros, 1772366405500000LL);

        const DecodedRoomKitEvent array = RoomKitRowDecoder::decode("[1,2]", columnsFor(QStringLiteral("system")));
        QVERIFY(array.record.flags & EventFlags::MalformedJson);
        QVERIFY(array.problem.contains(QLatin1String("not an object")));
    }

    void invalidUtf8IsKeptByteForByte()
    {
        QByteArray data = eventJson({ { QStringLiteral("type"), QStringLiteral("text") },
            { QStringLiteral("body"), QStringLiteral("abcXdef") } });
        data.replace("abcXdef",
            "abc\xff\xfe"
            "def");
        const DecodedRoomKitEvent d = RoomKitRowDecoder::decode(data, columnsFor(QStringLiteral("message")));
        QVERIFY(d.record.flags & EventFlags::InvalidUtf8);
        QVERIFY(!(d.record.flags & EventFlags::MalformedJson));
        QVERIFY(d.problem.contains(QLatin1String("invalid UTF-8")));
        QCOMPARE(d.payload, data);
        QVERIFY(d.record.text.startsWith(QLatin1String("abc")));
        QVERIFY(d.record.text.endsWith(QLatin1String("def")));
        QCOMPARE(d.record.channelId, QStringLiteral("ai-support"));
    }

    // Numbers no time or duration can be (what three minutes of fuzzing found: a duration_ms of 1.3e32 was
    // converted to an integer, undefined behaviour): left out, the row flagged, and the problem named.
    void numbersOutOfRange_data()
    {
        QTest::addColumn<double>("duration");
        QTest::addColumn<double>("createdSeconds");
        QTest::addColumn<bool>("durationKept");
        QTest::addColumn<bool>("timeKept");
        QTest::newRow("duration 1.3e32") << 1.3e32 << 1773136912.0 << false << true;
        QTest::newRow("duration -1e300") << -1e300 << 1773136912.0 << false << true;
        QTest::newRow("time 1e300") << 4.0 << 1e300 << true << false;
        QTest::newRow("time -1e20") << 4.0 << -1e20 << true << false;
        QTest::newRow("time NaN") << 4.0 << std::nan("") << true << false;
        QTest::newRow("both in range") << 4.0 << 1773136912.0 << true << true;
    }

    void numbersOutOfRange()
    {
        QFETCH(double, duration);
        QFETCH(double, createdSeconds);
        QFETCH(bool, durationKept);
        QFETCH(bool, timeKept);
        const QByteArray data = eventJson({ { QStringLiteral("type"), QStringLiteral("tool_call") },
                                              { QStringLiteral("tool_name"), QStringLiteral("lookup_order") },
                                              { QStringLiteral("tool_id"), QStringLiteral("toolu_1") },
                                              { QStringLiteral("status"), QStringLiteral("completed") },
                                              { QStringLiteral("duration_ms"), duration } },
            QStringLiteral("tool_call_end"), { { QStringLiteral("created_at"), QJsonValue() } });
        RoomKitColumns columns = columnsFor(QStringLiteral("tool_call_end"));
        columns.createdSeconds = createdSeconds;
        const DecodedRoomKitEvent d = RoomKitRowDecoder::decode(data, columns);
        QCOMPARE(d.durationMs.has_value(), durationKept);
        if (durationKept)
            QCOMPARE(*d.durationMs, qint64(duration));
        QCOMPARE(d.record.createdMicros != 0, timeKept);
        QCOMPARE(bool(d.record.flags & EventFlags::OutOfRange), !(durationKept && timeKept));
        QCOMPARE(d.problem.isEmpty(), durationKept && timeKept);
        if (!durationKept)
            QVERIFY2(d.problem.contains(QLatin1String("duration_ms")), qPrintable(d.problem));
        if (!timeKept)
            QVERIFY2(d.problem.contains(QLatin1String("created_ts")), qPrintable(d.problem));
    }

    // Mutations of every real row: the decoder never crashes, never changes the payload, and flags exactly
    // the rows it could not read. The seed is printed so a failure can be replayed.
    void fuzzMutatedRows()
    {
        const auto rows = fixtureRows();
        QVERIFY(rows.size() > 400);
        const quint32 seed = qEnvironmentVariableIsSet("SIGHTLINE_FUZZ_SEED")
            ? quint32(qEnvironmentVariableIntValue("SIGHTLINE_FUZZ_SEED"))
            : 20261130u;
        qInfo("fuzz seed %u", seed);
        QRandomGenerator random(seed);
        int malformed = 0;
        for (int i = 0; i < 100000; ++i) {
            const auto& [columns, original] = rows.at(random.bounded(int(rows.size())));
            QByteArray data = original;
            const int mutations = 1 + random.bounded(3);
            for (int m = 0; m < mutations && !data.isEmpty(); ++m) {
                const int at = random.bounded(int(data.size()));
                switch (random.bounded(6)) {
                case 0:
                    data.truncate(at);
                    break;
                case 1:
                    data[at] = char(random.bounded(256));
                    break;
                case 2:
                    data.insert(at, QByteArray(1 + random.bounded(4), char(random.bounded(256))));
                    break;
                case 3:
                    data.insert(at, data.mid(random.bounded(int(data.size())), random.bounded(40)));
                    break;
                case 4:
                    data.remove(at, random.bounded(20));
                    break;
                case 5:
                    data.replace(
                        at, 1, QByteArrayLiteral("{\"type\":\"tool_call\",\"result\":{\"error\":[]},\"parts\":[{}]}"));
                    break;
                }
            }
            const DecodedRoomKitEvent d = RoomKitRowDecoder::decode(data, columns);
            QCOMPARE(d.payload, data);
            const bool parses = QJsonDocument::fromJson(data).isObject();
            if (!parses) {
                ++malformed;
                QVERIFY(d.record.flags & (EventFlags::MalformedJson | EventFlags::InvalidUtf8));
            }
            QCOMPARE(d.problem.isEmpty(),
                (d.record.flags & (EventFlags::MalformedJson | EventFlags::InvalidUtf8 | EventFlags::OutOfRange)) == 0);
            QCOMPARE(d.record.index, columns.index);
        }
        QVERIFY(malformed > 1000); // the mutations did reach the error paths
    }
};

QTEST_GUILESS_MAIN(TestRoomKitRowDecoder)
#include "tst_roomkitrowdecoder.moc"
