// Tool statistics (the statistics pane, `sightline stats`): counted in calls, percentiles by nearest rank, against
// the facts RoomKit's and kaboo's own APIs reported for every fixture room, and under a filter the calls whose
// cards the timeline shows.

#include "sources/importer.h"
#include "testsupport.h"
#include "toolstats.h"
#include "workspace.h"
#include "filterquery.h"

#include <QFile>
#include <QJsonDocument>
#include <QTest>

using namespace TestSupport;

namespace {

using Calls = QVector<std::pair<Outcome, std::optional<qint64>>>;

// The figures a reader checks, as one line.
QString describe(const ToolStats& s)
{
    auto figure = [](const std::optional<qint64>& v) { return v ? QString::number(*v) : QStringLiteral("-"); };
    return QStringLiteral("%1 calls: %2 served, %3 failed, %4 refused, %5 blocked, %6 unserved, %7 cancelled; "
                          "p50 %8 p95 %9 max %10 total %11")
        .arg(s.calls)
        .arg(s.served)
        .arg(s.failed)
        .arg(s.refused)
        .arg(s.blocked)
        .arg(s.unserved)
        .arg(s.cancelled)
        .arg(figure(s.p50Ms), figure(s.p95Ms), figure(s.maxMs))
        .arg(s.totalMs);
}

// A room's calls by tool and outcome, blocked rows included, as the statistics count them: tool -> outcome -> calls.
QMap<QString, QMap<QString, qint64>> outcomesByTool(Workspace& ws, qint64 roomId)
{
    EventFilter whole;
    whole.includeBlocked = true;
    QMap<QString, QMap<QString, qint64>> got;
    for (const ToolStats& s : ws.toolStats(roomId, whole)) {
        for (Outcome o : { Outcome::Served, Outcome::Failed, Outcome::Refused, Outcome::Blocked, Outcome::Unserved,
                 Outcome::Cancelled }) {
            if (s.count(o))
                got[s.toolName][Outcomes::name(o)] = s.count(o);
        }
        if (s.timedCalls > s.calls)
            got[s.toolName][QStringLiteral("(more timed calls than calls)")] = s.timedCalls;
    }
    return got;
}

} // namespace

class TestToolStats : public QObject
{
    Q_OBJECT

private slots:
    void nearestRank_data()
    {
        QTest::addColumn<QVector<qint64>>("sorted");
        QTest::addColumn<int>("percent");
        QTest::addColumn<qint64>("expected"); // -1: none
        QTest::newRow("no durations") << QVector<qint64> {} << 50 << qint64(-1);
        QTest::newRow("one call, p50") << QVector<qint64> { 7 } << 50 << qint64(7);
        QTest::newRow("one call, p95") << QVector<qint64> { 7 } << 95 << qint64(7);
        QTest::newRow("two calls, p50 is the first") << QVector<qint64> { 10, 20 } << 50 << qint64(10);
        QTest::newRow("two calls, p95 is the second") << QVector<qint64> { 10, 20 } << 95 << qint64(20);
        QTest::newRow("ten calls, p50") << QVector<qint64> { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 } << 50 << qint64(5);
        QTest::newRow("ten calls, p95") << QVector<qint64> { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 } << 95 << qint64(10);
        QVector<qint64> twenty;
        for (qint64 i = 1; i <= 20; ++i)
            twenty << i * 100;
        QTest::newRow("twenty calls, p95 is the 19th") << twenty << 95 << qint64(1900);
        QTest::newRow("zero-length calls") << QVector<qint64> { 0, 0, 0 } << 95 << qint64(0);
    }

    void nearestRank()
    {
        QFETCH(QVector<qint64>, sorted);
        QFETCH(int, percent);
        QFETCH(qint64, expected);
        QCOMPARE(ToolStats::nearestRank(sorted, percent), expected < 0 ? std::nullopt : std::optional<qint64>(expected));
    }

    // A call without an outcome was never answered; a call without a duration counts, but not in the durations.
    void summedUp()
    {
        const ToolStats s = ToolStats::of(QStringLiteral("lookup"),
            Calls { { Outcome::Served, 30 }, { Outcome::Failed, 10 }, { Outcome::Unserved, std::nullopt },
                { Outcome::None, std::nullopt }, { Outcome::Refused, 2 }, { Outcome::Blocked, std::nullopt },
                { Outcome::Cancelled, 500 }, { Outcome::Served, 20 } });
        QCOMPARE(describe(s),
            QStringLiteral("8 calls: 2 served, 1 failed, 1 refused, 1 blocked, 2 unserved, 1 cancelled; "
                           "p50 20 p95 500 max 500 total 562"));
        QCOMPARE(s.timedCalls, 5);
        QCOMPARE(s.count(Outcome::Unserved), 2);
    }

    // Every room of RoomKit's stores: each tool's calls, how they ended and how long they took, as RoomKit's API
    // reported them (its pairs, its start-only rows, each end's duration_ms and derived outcome).
    void roomKitRooms_data()
    {
        QTest::addColumn<QString>("store");
        QTest::addColumn<QString>("room");
        for (const QString& store : { QStringLiteral("support.sqlite"), QStringLiteral("edge_cases.sqlite") }) {
            for (const QJsonValue& r : manifestFile(store).value(QLatin1String("rooms")).toArray()) {
                const QString id = r.toObject().value(QLatin1String("room_id")).toString();
                QTest::newRow(qPrintable(store + QLatin1Char('/') + id)) << store << id;
            }
        }
    }

    void roomKitRooms()
    {
        QFETCH(QString, store);
        QFETCH(QString, room);
        Workspace& ws = m_fixtures.get(store);
        const qint64 id = ws.findRooms(room).value(0);
        QVERIFY(id);
        EventFilter whole;
        whole.includeBlocked = true;
        const ToolStatsList stats = ws.toolStats(id, whole);
        const QJsonObject tools = manifestRoom(store, room).value(QLatin1String("tools")).toObject();

        struct Expected
        {
            Calls calls;
            qint64 errorPayloads = 0; // RoomKit's error_payload: failed, refused or unserved by the error's text
        };
        QMap<QString, Expected> want;
        for (const QJsonValue& v : tools.value(QLatin1String("ends")).toArray()) {
            const QJsonObject end = v.toObject();
            const QString outcome = end.value(QLatin1String("outcome")).toString();
            Expected& e = want[end.value(QLatin1String("tool")).toString()];
            const bool errorPayload = outcome == QLatin1String("error_payload");
            e.errorPayloads += errorPayload ? 1 : 0;
            e.calls.append({ errorPayload ? Outcome::Failed : Outcomes::fromName(outcome),
                end.value(QLatin1String("duration_ms")).toInteger() });
        }
        const EventRecords events = ws.listEvents(id, whole, PageRequest { .limit = 100000 });
        for (const QJsonValue& v : tools.value(QLatin1String("start_only")).toArray()) {
            const auto start = std::find_if(events.begin(), events.end(), [&](const EventRecord& e) { return e.index == v.toInteger(); });
            QVERIFY(start != events.end());
            want[start->toolName].calls.append({ Outcome::Unserved, std::nullopt });
        }
        QCOMPARE(stats.size(), want.size());
        for (const ToolStats& got : stats) {
            QVERIFY2(want.contains(got.toolName), qPrintable(got.toolName));
            const Expected& e = want.value(got.toolName);
            ToolStats expected = ToolStats::of(got.toolName, e.calls);
            // An error_payload (counted as failed above) is one of failed, refused or unserved: tst_roomkitimport
            // checks which, by its text. Here their sum.
            QCOMPARE(got.failed + got.refused + got.unserved, expected.failed + expected.refused + expected.unserved);
            if (e.errorPayloads > 0) {
                expected.failed = got.failed;
                expected.refused = got.refused;
                expected.unserved = got.unserved;
            }
            QCOMPARE(describe(got), describe(expected));
        }
        // Most calls first.
        for (qsizetype i = 1; i < stats.size(); ++i)
            QVERIFY(stats[i - 1].calls >= stats[i].calls);
    }

    // kaboo's threads: each tool's calls and outcomes as kaboo's API reported them (a call answered only by a
    // tool message in readMessages is served).
    void aguiThreads()
    {
        QTemporaryDir dir;
        Workspace ws(dir.filePath(QStringLiteral("agui.sightline")));
        Importer::import(ws, dataFile(QStringLiteral("agui")));
        QFile file(dataFile(QStringLiteral("agui/manifest.json")));
        QVERIFY(file.open(QIODevice::ReadOnly));
        int threads = 0;
        for (const QJsonValue& t : QJsonDocument::fromJson(file.readAll()).object().value(QLatin1String("threads")).toArray()) {
            const QJsonObject facts = t.toObject();
            const qint64 id = ws.findRooms(facts.value(QLatin1String("threadId")).toString()).value(0);
            QVERIFY(id);
            QSet<QString> answeredByMessage;
            for (const QJsonValue& m : facts.value(QLatin1String("readMessages")).toObject().value(QLatin1String("list")).toArray())
                answeredByMessage.insert(m.toObject().value(QLatin1String("toolCallId")).toString());
            QMap<QString, QMap<QString, qint64>> want; // tool -> outcome -> calls
            for (const QJsonValue& c : facts.value(QLatin1String("toolCalls")).toArray()) {
                const QJsonObject call = c.toObject();
                const QJsonArray results = call.value(QLatin1String("results")).toArray();
                const QString status = results.isEmpty() ? QString() : results.last().toObject().value(QLatin1String("status")).toString();
                // As tst_aguiimport reads a result's status: ok, stopped (by the user) or an error.
                const QString outcome = status == QLatin1String("ok") ? QStringLiteral("served")
                    : status.startsWith(QLatin1String("stopped"))     ? QStringLiteral("cancelled")
                    : !status.isEmpty()                             ? QStringLiteral("failed")
                    : answeredByMessage.contains(call.value(QLatin1String("toolCallId")).toString()) ? QStringLiteral("served")
                                                                                                     : QStringLiteral("unserved");
                ++want[call.value(QLatin1String("name")).toString()][outcome];
            }
            QCOMPARE(outcomesByTool(ws, id), want);
            ++threads;
        }
        QCOMPARE(threads, 6);
    }

    // CraftBot's logs: each action's calls and how they ended, as CraftBot's ActionManager recorded them. Where
    // several calls of one name overlapped, which end closes which start is a guess; a tool's figures are not.
    void craftBotLogs_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("EVENT.md") << QStringLiteral("EVENT.md");
        QTest::newRow("EVENT_old.md") << QStringLiteral("EVENT_old.md");
        QTest::newRow("EVENT_UNPROCESSED.md") << QStringLiteral("EVENT_UNPROCESSED.md");
    }

    void craftBotLogs()
    {
        QFETCH(QString, file);
        QTemporaryDir dir;
        Workspace ws(dir.filePath(QStringLiteral("craftbot.sightline")));
        Importer::import(ws, dataFile(QStringLiteral("craftbot/") + file));
        const qint64 id = ws.findRooms(file).value(0);
        QVERIFY(id);
        QFile manifest(dataFile(QStringLiteral("craftbot/manifest.json")));
        QVERIFY(manifest.open(QIODevice::ReadOnly));
        const QJsonObject facts
            = QJsonDocument::fromJson(manifest.readAll()).object().value(QLatin1String("files")).toObject().value(file).toObject();
        QMap<QString, QMap<QString, qint64>> want; // tool -> outcome -> calls
        for (const QJsonValue& v : facts.value(QLatin1String("pairs")).toArray()) {
            const QJsonObject pair = v.toObject();
            const QString outcome = pair.value(QLatin1String("outcome")).toString();
            ++want[pair.value(QLatin1String("name")).toString()][outcome == QLatin1String("completed") ? QStringLiteral("served") : outcome];
        }
        for (const QJsonValue& v : facts.value(QLatin1String("unpaired_starts")).toArray())
            ++want[v.toObject().value(QLatin1String("name")).toString()][QStringLiteral("unserved")];
        QCOMPARE(facts.value(QLatin1String("unpaired_ends")).toArray().size(), 0);
        QCOMPARE(outcomesByTool(ws, id), want);
    }

    // Under a filter the figures are the timeline's: a tool's calls are the cards it shows of that tool.
    void underAFilterTheTimelinesCards_data()
    {
        QTest::addColumn<QString>("query");
        QTest::newRow("none") << QString();
        QTest::newRow("failed") << QStringLiteral("outcome:failed");
        QTest::newRow("not served") << QStringLiteral("-outcome:served");
        QTest::newRow("one tool") << QStringLiteral("tool:lookup_order");
        QTest::newRow("blocked included") << QStringLiteral("blocked:include");
        QTest::newRow("blocked only") << QStringLiteral("blocked:only");
        QTest::newRow("long calls") << QStringLiteral("duration:>100");
        QTest::newRow("words") << QStringLiteral("refund");
    }

    void underAFilterTheTimelinesCards()
    {
        QFETCH(QString, query);
        const FilterQuery::Result parsed = FilterQuery::parse(query);
        QVERIFY(parsed.ok());
        for (const QString& store : { QStringLiteral("support.sqlite"), QStringLiteral("edge_cases.sqlite") }) {
            Workspace& ws = m_fixtures.get(store);
            for (const RoomSummary& room : ws.rooms()) {
                EventFilter cards = parsed.filter;
                cards.timelineItems = true;
                QMap<QString, qint64> want;
                for (const EventRecord& e : ws.listEvents(room.id, cards, PageRequest { .limit = 100000 })) {
                    if (e.kind == EventKind::ToolCall)
                        ++want[e.toolName];
                }
                QMap<QString, qint64> got;
                for (const ToolStats& s : ws.toolStats(room.id, parsed.filter))
                    got[s.toolName] = s.calls;
                QVERIFY2(got == want, qPrintable(room.nativeId + QStringLiteral(" | ") + query));
                // The waterfall's lighter read: the same calls, with their times and outcomes.
                auto key = [](const ToolCallRecord& c) {
                    return QStringLiteral("%1|%2|%3|%4|%5|%6")
                        .arg(c.toolId, c.toolName, Outcomes::name(c.outcome))
                        .arg(c.startIndex.value_or(-1))
                        .arg(c.startMicros.value_or(-1))
                        .arg(c.durationMs.value_or(-1));
                };
                QStringList whole, light;
                for (const ToolCallRecord& c : ws.toolCallsShown(room.id, parsed.filter))
                    whole << key(c);
                for (const ToolCallRecord& c : ws.toolCallsShown(room.id, parsed.filter, false))
                    light << key(c);
                whole.sort();
                light.sort();
                QVERIFY2(whole == light, qPrintable(room.nativeId + QStringLiteral(" | ") + query));
            }
        }
    }

private:
    FixtureWorkspaces m_fixtures;
};

QTEST_GUILESS_MAIN(TestToolStats)
#include "tst_toolstats.moc"
