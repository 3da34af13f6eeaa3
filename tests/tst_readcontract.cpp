// RoomKit's read contract (seeds/000, SOURCES.md §1.6): every call the manifest recorded against RoomKit's own
// store API, replayed against the workspace, plus the rules of the newer contract Sightline follows.

#include "storeerror.h"
#include "testsupport.h"
#include "timeutil.h"
#include "workspace.h"

#include <QRegularExpression>
#include <QTest>

using namespace TestSupport;

namespace {

// RoomKit's EventType values that the manifest's "channel_*" and "participant_*" stand for.
const QStringList channelAndParticipantTypes = {
    QStringLiteral("channel_attached"),
    QStringLiteral("channel_detached"),
    QStringLiteral("channel_muted"),
    QStringLiteral("channel_unmuted"),
    QStringLiteral("channel_updated"),
    QStringLiteral("participant_joined"),
    QStringLiteral("participant_left"),
    QStringLiteral("participant_identified"),
    QStringLiteral("participant_updated"),
};

QString argument(const QString& call, const QString& name)
{
    const QRegularExpression re(name + QStringLiteral("=('([^']*)'|[^,)]+)"));
    const QRegularExpressionMatch m = re.match(call);
    if (!m.hasMatch())
        return {};
    return m.captured(2).isNull() ? m.captured(1) : m.captured(2);
}

} // namespace

class TestReadContract : public QObject
{
    Q_OBJECT

    FixtureWorkspaces m_fixtures;

    Workspace& workspace(const QString& store) { return m_fixtures.get(store); }

private slots:
    void manifestCalls_data()
    {
        QTest::addColumn<QString>("store");
        QTest::addColumn<QString>("room");
        QTest::addColumn<QString>("call");
        QTest::addColumn<QJsonValue>("answer");
        for (const QString& store : FixtureWorkspaces::stores()) {
            for (const QJsonValue& r : manifestFile(store).value(QLatin1String("rooms")).toArray()) {
                const QJsonObject room = r.toObject();
                int n = 0;
                for (const QJsonValue& c : room.value(QLatin1String("calls")).toArray()) {
                    const QString call = c.toObject().value(QLatin1String("call")).toString();
                    // Thread summaries are not part of the read contract.
                    if (call.startsWith(QLatin1String("get_thread_summaries")))
                        continue;
                    QTest::addRow(
                        "%s/%s/%d", qPrintable(store), qPrintable(room.value(QLatin1String("room_id")).toString()), n++)
                        << store << room.value(QLatin1String("room_id")).toString() << call
                        << c.toObject().value(QLatin1String("answer"));
                }
            }
        }
    }

    void manifestCalls()
    {
        QFETCH(QString, store);
        QFETCH(QString, room);
        QFETCH(QString, call);
        QFETCH(QJsonValue, answer);
        SKIP_UNLESS_SERVED(store);
        Workspace& ws = workspace(store);
        const qint64 id = ws.findRooms(room).value(0);
        QVERIFY(id != 0);
        const QJsonObject facts = manifestRoom(store, room);

        // RoomKit 0.59 served blocked rows in every list; ask for them to compare like with like.
        EventFilter filter;
        filter.includeBlocked = true;
        PageRequest page;
        page.limit = 50;
        if (const QString v = argument(call, QStringLiteral("limit")); !v.isEmpty())
            page.limit = v.toInt();
        if (const QString v = argument(call, QStringLiteral("offset")); !v.isEmpty())
            page.offset = v.toInt();
        if (const QString v = argument(call, QStringLiteral("after_index")); !v.isEmpty())
            page.afterIndex = v.toLongLong();
        if (const QString v = argument(call, QStringLiteral("before_index")); !v.isEmpty())
            page.beforeIndex = v.toLongLong();
        page.newestFirst = call.contains(QLatin1String("newest_first=True"));

        if (call.contains(QLatin1String("event_types=[TOOL_CALL_START, TOOL_CALL_END]")))
            filter.types = { QStringLiteral("tool_call_start"), QStringLiteral("tool_call_end") };
        else if (call.contains(QLatin1String("event_types=[MESSAGE]")))
            filter.types = { QStringLiteral("message") };
        if (call.contains(QLatin1String("exclude_types=[system, channel_*, participant_*]")))
            filter.excludeTypes = QStringList { QStringLiteral("system") } + channelAndParticipantTypes;
        // RoomKit's single-valued fields are lists of one; its correlation id is the AI response, the group.
        for (auto [field, list] : { std::pair { "source_channel_type", &EventFilter::channelTypes },
                 std::pair { "correlation_id", &EventFilter::groups },
                 std::pair { "participant_id", &EventFilter::participants } }) {
            if (const QString v = argument(call, QLatin1String(field)); !v.isEmpty())
                filter.*list = QStringList { v };
        }
        filter.topLevelOnly = call.contains(QLatin1String("top_level_only=True"));
        if (const QString v = argument(call, QStringLiteral("after_time")); !v.isEmpty())
            filter.afterMicros = TimeUtil::parseIsoToMicros(v);
        if (const QString v = argument(call, QStringLiteral("before_time")); !v.isEmpty())
            filter.beforeMicros = TimeUtil::parseIsoToMicros(v);

        if (call.startsWith(QLatin1String("get_event_count("))) {
            QCOMPARE(ws.countEvents(id), answer.toInteger());
            return;
        }
        if (call.startsWith(QLatin1String("sorted(e.index for e in search_events("))) {
            const QString text = call.section(QLatin1Char('\''), 1, 1);
            QCOMPARE(indices(ws.search(id, text, 50, true, true)), toIndices(answer.toArray()));
            return;
        }
        if (call.startsWith(QLatin1String("get_conversation("))) {
            QCOMPARE(indices(ws.conversation(id, page.limit, page.afterIndex)), toIndices(answer.toArray()));
            return;
        }
        QVERIFY2(call.contains(QLatin1String("list_events(")) || call.contains(QLatin1String("get_timeline(")),
            qPrintable(QStringLiteral("a call this test does not read: ") + call));
        const EventRecords events = ws.listEvents(id, filter, page);
        if (call.startsWith(QLatin1String("len("))) {
            QCOMPARE(qint64(events.size()), answer.toInteger());
            // A count with a filter serves exactly what the page would.
            QCOMPARE(ws.countEvents(id, &filter), answer.toInteger());
            return;
        }
        QVector<qint64> expected = toIndices(answer.toArray());
        if (!facts.value(QLatin1String("list_order_indices_ascending")).toBool()) {
            // RoomKit 0.59 listed this back-dated room in insertion order; Sightline always orders by index.
            // Offset windows are cut from the room's indices in index order; other answers just sort.
            if (!page.afterIndex && !page.beforeIndex && filter.groups.isEmpty() && !filter.afterMicros) {
                QVector<qint64> all;
                const QJsonArray range = facts.value(QLatin1String("index_range")).toArray();
                const QVector<qint64> gaps = toIndices(facts.value(QLatin1String("index_gaps")).toArray());
                for (qint64 i = range.at(0).toInteger(); i <= range.at(1).toInteger(); ++i) {
                    if (!gaps.contains(i))
                        all.append(i);
                }
                const qsizetype n = std::min<qsizetype>(page.limit, std::max<qsizetype>(0, all.size() - page.offset));
                expected = page.newestFirst ? all.mid(all.size() - page.offset - n, n) : all.mid(page.offset, n);
            } else {
                std::sort(expected.begin(), expected.end());
            }
        }
        QCOMPARE(indices(events), expected);
    }

    // The newer contract: blocked rows are left out unless asked for, before the page is cut.
    void blockedRowsLeftOutBeforeThePageIsCut()
    {
        Workspace& ws = workspace(QStringLiteral("edge_cases.sqlite"));
        const qint64 id = ws.findRooms(QStringLiteral("edge-blocked-inbound")).value(0);
        const qint64 total = ws.countEvents(id);
        QCOMPARE(total, 13);
        EventFilter received;
        QCOMPARE(ws.countEvents(id, &received), total - 3);
        EventFilter withBlocked;
        withBlocked.includeBlocked = true;
        QCOMPARE(ws.countEvents(id, &withBlocked), total);

        PageRequest page;
        page.limit = 10;
        const EventRecords first = ws.listEvents(id, received, page);
        QCOMPARE(first.size(), 10); // full, though blocked rows sat among the first ten
        for (const EventRecord& e : first)
            QVERIFY(!e.isBlocked());
        page.newestFirst = true;
        page.limit = 3;
        const EventRecords tail = ws.listEvents(id, received, page);
        QCOMPARE(tail.size(), 3);
        QVERIFY(tail.first().index < tail.last().index); // ascending: page[-1] is the newest
        // The conversation read returns blocked messages too.
        bool sawBlocked = false;
        for (const EventRecord& e : ws.conversation(id, 100))
            sawBlocked = sawBlocked || e.isBlocked();
        QVERIFY(sawBlocked);
    }

    void windowsAreAscending()
    {
        Workspace& ws = workspace(QStringLiteral("many_rooms.sqlite"));
        EventFilter all;
        all.includeBlocked = true;
        for (const RoomSummary& room : ws.rooms()) {
            const QVector<qint64> every
                = indices(ws.listEvents(room.id, all, PageRequest { 100000, 0, false, {}, {} }));
            if (every.size() < 9)
                continue;
            // The four rows just before the cursor, oldest first, whatever gaps the room has.
            PageRequest page;
            page.limit = 4;
            page.beforeIndex = every.at(8);
            QCOMPARE(indices(ws.listEvents(room.id, all, page)), every.mid(4, 4));
            page = PageRequest();
            page.limit = 4;
            page.afterIndex = every.at(2);
            QCOMPARE(indices(ws.listEvents(room.id, all, page)), every.mid(3, 4));
        }
    }

    // The timeline shows one item per call (at its start) and leaves out the rows folded into it.
    void timelineItems()
    {
        Workspace& ws = workspace(QStringLiteral("edge_cases.sqlite"));
        for (const QString& name :
            { QStringLiteral("edge-parallel-same-tool"), QStringLiteral("edge-stream-interrupted") }) {
            const qint64 id = ws.findRooms(name).first();
            EventFilter items;
            items.includeBlocked = true;
            items.timelineItems = true;
            const EventRecords shown = ws.listEvents(id, items, PageRequest { 100000, 0, false, {}, {} });
            const ToolCallRecords calls = ws.toolCalls(id);
            const qint64 paired = std::count_if(
                calls.begin(), calls.end(), [](const ToolCallRecord& c) { return c.startIndex && c.endIndex; });
            QCOMPARE(qint64(shown.size()), ws.countEvents(id) - paired);
            for (const EventRecord& e : shown)
                QVERIFY(e.type != QLatin1String("tool_call_end") || !calls.isEmpty());
            for (const ToolCallRecord& c : calls) {
                if (c.startIndex)
                    QVERIFY(std::any_of(
                        shown.begin(), shown.end(), [&](const EventRecord& e) { return e.index == *c.startIndex; }));
            }
        }
    }

    void forbiddenRequests()
    {
        Workspace& ws = workspace(QStringLiteral("support.sqlite"));
        const qint64 id = ws.rooms().first().id;
        PageRequest both;
        both.afterIndex = 1;
        both.beforeIndex = 5;
        QVERIFY_THROWS_EXCEPTION(StoreError, ws.listEvents(id, {}, both));
        PageRequest newestWithCursor;
        newestWithCursor.newestFirst = true;
        newestWithCursor.afterIndex = 2;
        QVERIFY_THROWS_EXCEPTION(StoreError, ws.listEvents(id, {}, newestWithCursor));
        PageRequest negative;
        negative.limit = -1;
        QVERIFY_THROWS_EXCEPTION(StoreError, ws.listEvents(id, {}, negative));
    }
};

QTEST_GUILESS_MAIN(TestReadContract)
#include "tst_readcontract.moc"
