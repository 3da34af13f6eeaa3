// The filter bar's language: what it reads (valid, invalid, edge cases), that what it writes reads back the
// same, and that the filters it makes count what the RoomKit manifest says, in the raw rows and the timeline.

#include "filterquery.h"
#include "sources/importer.h"
#include "testsupport.h"
#include "workspace.h"

#include <climits>
#include <numeric>
#include <QDateTime>
#include <QRandomGenerator>
#include <QSqlQuery>
#include <QTest>

using namespace TestSupport;

Q_DECLARE_METATYPE(EventFilter)

namespace {

qint64 micros(const char* iso)
{
    return QDateTime::fromString(QLatin1String(iso), Qt::ISODate).toMSecsSinceEpoch() * 1000;
}

} // namespace

class TestFilterQuery : public QObject
{
    Q_OBJECT

    FixtureWorkspaces m_fixtures;

    // Rows of the list (timeline items when `timeline`) and events shown under `query`.
    std::pair<qint64, qint64> counts(Workspace& ws, qint64 room, const QString& query, bool timeline)
    {
        const FilterQuery::Result r = FilterQuery::parse(query);
        if (!r.ok())
            qFatal("%s: %s", qPrintable(query), qPrintable(r.error));
        EventFilter f = r.filter;
        f.timelineItems = timeline;
        const RowIndex index = ws.indexRows(room, f, 4);
        // What the index counts is what a page serves, block by block from its anchors.
        PageRequest all;
        all.limit = 100000;
        const EventRecords rows = ws.listEvents(room, f, all);
        if (qint64(rows.size()) != index.rows)
            qFatal("%s: the index counts %lld rows, a page serves %lld", qPrintable(query), index.rows,
                qint64(rows.size()));
        for (int b = 0; b < index.anchors.size(); ++b) {
            const qint64 first = rows.at(b * index.blockSize).index;
            if (first != index.anchors.at(b))
                qFatal("%s: block %d starts at %lld, not %lld", qPrintable(query), b, first, index.anchors.at(b));
        }
        if (!timeline && index.shown != index.rows)
            qFatal("%s: raw rows are the events shown", qPrintable(query));
        return { index.rows, index.shown };
    }

private slots:
    void parses_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<EventFilter>("expected");
        auto with = [](auto set) {
            EventFilter f;
            set(f);
            return f;
        };
        QTest::newRow("empty") << QString() << EventFilter();
        QTest::newRow("spaces only") << QStringLiteral("   ") << EventFilter();
        QTest::newRow("type") << QStringLiteral("type:tool_call_end")
                              << with([](EventFilter& f) { f.types = { QStringLiteral("tool_call_end") }; });
        QTest::newRow("a field twice is either")
            << QStringLiteral("type:message  type:tool_call_start") << with([](EventFilter& f) {
                   f.types = { QStringLiteral("message"), QStringLiteral("tool_call_start") };
               });
        QTest::newRow("not a channel") << QStringLiteral("-channel:sms")
                                       << with([](EventFilter& f) { f.excludeChannels = { QStringLiteral("sms") }; });
        QTest::newRow("quoted value") << QStringLiteral("tool:\"web search\"")
                                      << with([](EventFilter& f) { f.tools = { QStringLiteral("web search") }; });
        QTest::newRow("escaped quote") << QStringLiteral("tool:\"say \\\"hi\\\"\"")
                                       << with([](EventFilter& f) { f.tools = { QStringLiteral("say \"hi\"") }; });
        QTest::newRow("outcome, blocked only")
            << QStringLiteral("outcome:failed blocked:only") << with([](EventFilter& f) {
                   f.outcomes = { QStringLiteral("failed") };
                   f.includeBlocked = f.blockedOnly = true;
               });
        QTest::newRow("blocked include") << QStringLiteral("blocked:include")
                                         << with([](EventFilter& f) { f.includeBlocked = true; });
        QTest::newRow("blocked hide") << QStringLiteral("blocked:hide") << EventFilter();
        QTest::newRow("after, UTC") << QStringLiteral("after:2026-07-17T10:00Z")
                                    << with([](EventFilter& f) { f.afterMicros = micros("2026-07-17T10:00:00Z"); });
        QTest::newRow("before, offset, ms")
            << QStringLiteral("before:2026-07-17T12:00:01.250+02:00")
            << with([](EventFilter& f) { f.beforeMicros = micros("2026-07-17T10:00:01Z") + 250000; });
        QTest::newRow("after, local") << QStringLiteral("after:2026-07-17T10:00") << with([](EventFilter& f) {
            f.afterMicros = QDateTime(QDate(2026, 7, 17), QTime(10, 0)).toMSecsSinceEpoch() * 1000;
        });
        QTest::newRow("a date alone") << QStringLiteral("before:2026-07-18") << with([](EventFilter& f) {
            f.beforeMicros = QDate(2026, 7, 18).startOfDay().toMSecsSinceEpoch() * 1000;
        });
        QTest::newRow("words and phrases")
            << QStringLiteral("refund \"exact phrase\" -spam text:late") << with([](EventFilter& f) {
                   f.words = { QStringLiteral("refund"), QStringLiteral("exact phrase"), QStringLiteral("late") };
                   f.excludeWords = { QStringLiteral("spam") };
               });
        QTest::newRow("aliases, any case")
            << QStringLiteral("FROM:u-4 ctype:sms Kind:tool_call correlation:c-1") << with([](EventFilter& f) {
                   f.participants = { QStringLiteral("u-4") };
                   f.channelTypes = { QStringLiteral("sms") };
                   f.kinds = { QStringLiteral("tool_call") };
                   f.groups = { QStringLiteral("c-1") };
               });
        // One rule for every field: the same field twice is either value; negated, none of them.
        QTest::newRow("two groups are either")
            << QStringLiteral("group:a correlation:b -group:c") << with([](EventFilter& f) {
                   f.groups = { QStringLiteral("a"), QStringLiteral("b") };
                   f.excludeGroups = { QStringLiteral("c") };
               });
        QTest::newRow("two afters: either, so the earlier")
            << QStringLiteral("after:2026-07-18T00:00Z after:2026-07-17T10:00Z")
            << with([](EventFilter& f) { f.afterMicros = micros("2026-07-17T10:00:00Z"); });
        QTest::newRow("two befores: either, so the later")
            << QStringLiteral("before:2026-07-17T10:00Z before:2026-07-18T00:00Z")
            << with([](EventFilter& f) { f.beforeMicros = micros("2026-07-18T00:00:00Z"); });
        QTest::newRow("not after: up to and with it")
            << QStringLiteral("-after:2026-07-17T10:00Z")
            << with([](EventFilter& f) { f.beforeMicros = micros("2026-07-17T10:00:00Z") + 1; });
        QTest::newRow("not before: from it on")
            << QStringLiteral("-before:2026-07-17T10:00Z after:2026-07-17T09:00Z")
            << with([](EventFilter& f) { f.afterMicros = micros("2026-07-17T10:00:00Z") - 1; });
        QTest::newRow("blocked twice: either")
            << QStringLiteral("blocked:only blocked:hide") << with([](EventFilter& f) { f.includeBlocked = true; });
        QTest::newRow("not blocked:hide is only") << QStringLiteral("-blocked:hide")
                                                  << with([](EventFilter& f) { f.includeBlocked = f.blockedOnly = true; });
        QTest::newRow("not blocked:only is hide") << QStringLiteral("-blocked:only") << EventFilter();
        QTest::newRow("the same value twice is once")
            << QStringLiteral("tool:a tool:a") << with([](EventFilter& f) { f.tools = { QStringLiteral("a") }; });
        // A word with a colon whose first part is no field is text: a URL, a time of day.
        QTest::newRow("a URL is text") << QStringLiteral("https://example.com/a type:message")
                                       << with([](EventFilter& f) {
                                              f.words = { QStringLiteral("https://example.com/a") };
                                              f.types = { QStringLiteral("message") };
                                          });
        QTest::newRow("not a URL") << QStringLiteral("-ftp://x")
                                   << with([](EventFilter& f) { f.excludeWords = { QStringLiteral("ftp://x") }; });
        // A call's pairing and duration.
        QTest::newRow("pairing") << QStringLiteral("pairing:guessed -pairing:exact") << with([](EventFilter& f) {
            f.pairings = { QStringLiteral("guessed") };
            f.excludePairings = { QStringLiteral("exact") };
        });
        // What reviewers added.
        QTest::newRow("annotations") << QStringLiteral("label:pii -label:bug note:\"call back\" is:marked -is:noted")
                                     << with([](EventFilter& f) {
                                            f.labels = { QStringLiteral("pii") };
                                            f.excludeLabels = { QStringLiteral("bug") };
                                            f.notes = { QStringLiteral("call back") };
                                            f.states = { QStringLiteral("marked") };
                                            f.excludeStates = { QStringLiteral("noted") };
                                        });
        QTest::newRow("longer than") << QStringLiteral("duration:>5000")
                                     << with([](EventFilter& f) { f.durations = { NumberRange { 5001, LLONG_MAX } }; });
        QTest::newRow("at most, or a span, or exactly")
            << QStringLiteral("duration:<=100 duration:200..800 duration:42") << with([](EventFilter& f) {
                   f.durations = { NumberRange { 0, 100 }, NumberRange { 200, 800 }, NumberRange { 42, 42 } };
               });
        QTest::newRow("not shorter than") << QStringLiteral("-duration:<250")
                                          << with([](EventFilter& f) { f.excludeDurations = { NumberRange { 0, 249 } }; });
        QTest::newRow("an index range, and not one")
            << QStringLiteral("index:100..250 -index:120") << with([](EventFilter& f) {
                   f.indexes = { NumberRange { 100, 250 } };
                   f.excludeIndexes = { NumberRange { 120, 120 } };
               });
        QTest::newRow("from an index on") << QStringLiteral("index:>=1000")
                                          << with([](EventFilter& f) { f.indexes = { NumberRange { 1000, LLONG_MAX } }; });
        QTest::newRow("a lone dash is a word")
            << QStringLiteral("-") << with([](EventFilter& f) { f.words = { QStringLiteral("-") }; });
        QTest::newRow("unicode") << QStringLiteral("participant:Zoë \"naïve café\"") << with([](EventFilter& f) {
            f.participants = { QStringLiteral("Zoë") };
            f.words = { QStringLiteral("naïve café") };
        });
        QTest::newRow("the issue's example") << QStringLiteral(
            "type:tool_call_end tool:web_search outcome:failed -channel:sms after:2026-07-17T10:00Z "
            "blocked:only \"exact phrase\"") << with([](EventFilter& f) {
            f.types = { QStringLiteral("tool_call_end") };
            f.tools = { QStringLiteral("web_search") };
            f.outcomes = { QStringLiteral("failed") };
            f.excludeChannels = { QStringLiteral("sms") };
            f.afterMicros = micros("2026-07-17T10:00:00Z");
            f.includeBlocked = f.blockedOnly = true;
            f.words = { QStringLiteral("exact phrase") };
        });
    }

    void parses()
    {
        QFETCH(QString, text);
        QFETCH(EventFilter, expected);
        const FilterQuery::Result r = FilterQuery::parse(text);
        QVERIFY2(r.ok(), qPrintable(r.error));
        QVERIFY(r.filter == expected);
        // What the bar writes for it reads back the same.
        const QString written = FilterQuery::format(r.filter);
        const FilterQuery::Result again = FilterQuery::parse(written);
        QVERIFY2(again.ok(), qPrintable(written + QStringLiteral(": ") + again.error));
        QVERIFY2(again.filter == expected, qPrintable(written));
    }

    void rejects_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("position");
        QTest::addColumn<QString>("says");
        QTest::newRow("no value") << QStringLiteral("type:") << 0 << QStringLiteral("needs a value");
        QTest::newRow("not an outcome") << QStringLiteral("outcome:broken") << 0 << QStringLiteral("served, failed");
        QTest::newRow("not a blocked mode")
            << QStringLiteral("blocked:yes") << 0 << QStringLiteral("hide, include, only");
        QTest::newRow("open quote") << QStringLiteral("x tool:\"web") << 2 << QStringLiteral("quote is not closed");
        QTest::newRow("open phrase") << QStringLiteral("\"late parcel") << 0 << QStringLiteral("quote is not closed");
        QTest::newRow("not a time") << QStringLiteral("x after:tomorrow") << 2 << QStringLiteral("2026-07-17T10:00");
        QTest::newRow("no row left") << QStringLiteral("blocked:only -blocked:only") << 13
                                     << QStringLiteral("leaves no row");
        QTest::newRow("an empty range, negated") << QStringLiteral("-before:2026-02-01 -after:2026-01-01") << 0
                                                 << QStringLiteral("nothing can match");
        QTest::newRow("empty range") << QStringLiteral("after:2026-02-01 before:2026-01-01") << 0
                                     << QStringLiteral("nothing can match");
        QTest::newRow("empty phrase") << QStringLiteral("a \"\"") << 2 << QStringLiteral("empty phrase");
        QTest::newRow("not a pairing") << QStringLiteral("pairing:maybe") << 0 << QStringLiteral("exact, id_only");
        QTest::newRow("not a state") << QStringLiteral("is:starred") << 0 << QStringLiteral("marked, noted, labelled");
        QTest::newRow("not a duration") << QStringLiteral("x duration:long") << 2 << QStringLiteral(">5000");
        QTest::newRow("a span backwards") << QStringLiteral("duration:800..200") << 0 << QStringLiteral("milliseconds");
        QTest::newRow("less than nothing") << QStringLiteral("duration:<0") << 0 << QStringLiteral("milliseconds");
        QTest::newRow("not an index") << QStringLiteral("index:first") << 0 << QStringLiteral("100..250");
        QTest::newRow("an index range backwards") << QStringLiteral("kind:message index:9..3") << 13 << QStringLiteral("event indexes");
    }

    void rejects()
    {
        QFETCH(QString, text);
        QFETCH(int, position);
        QFETCH(QString, says);
        const FilterQuery::Result r = FilterQuery::parse(text);
        QVERIFY(!r.ok());
        QCOMPARE(r.position, position);
        QVERIFY(r.length > 0);
        QVERIFY2(r.error.contains(says), qPrintable(r.error));
        QVERIFY(r.filter == EventFilter());
    }

    // A word taken for text that looks like a field says so, naming the fields (a typo is not silently a search).
    void aWordThatLooksLikeAFieldIsNoted()
    {
        const FilterQuery::Result typo = FilterQuery::parse(QStringLiteral("type:message colour:red"));
        QVERIFY(typo.ok());
        QCOMPARE(typo.filter.words, QStringList { QStringLiteral("colour:red") });
        QVERIFY2(typo.note.contains(QStringLiteral("\"colour\" is not a field")), qPrintable(typo.note));
        QVERIFY(typo.note.contains(QStringLiteral("outcome")));
        QVERIFY(FilterQuery::parse(QStringLiteral("type:message red")).note.isEmpty());
    }

    // Random text never crashes the parser, an error always points into the text, and whatever parses writes
    // back to text that parses to the same filter.
    void fuzz()
    {
        const quint32 seed = qEnvironmentVariableIsSet("SIGHTLINE_FUZZ_SEED")
            ? quint32(qEnvironmentVariableIntValue("SIGHTLINE_FUZZ_SEED"))
            : 20261130u;
        QRandomGenerator random(seed);
        const QStringList pieces { QStringLiteral("type:"), QStringLiteral("-"), QStringLiteral("\""),
            QStringLiteral(" "), QStringLiteral("outcome:failed"), QStringLiteral("after:2026-07-17T10:00"),
            QStringLiteral("before:2026-07-18"), QStringLiteral("blocked:"), QStringLiteral("only"),
            QStringLiteral("\\"), QStringLiteral(":"), QStringLiteral("tool:"), QStringLiteral("é"),
            QStringLiteral("x"), QStringLiteral("channel:sms"), QStringLiteral("\t"), QStringLiteral("text:") };
        int parsed = 0;
        for (int round = 0; round < 20000; ++round) {
            QString text;
            const int n = int(random.bounded(8));
            for (int i = 0; i < n; ++i)
                text += pieces.at(int(random.bounded(pieces.size())));
            const FilterQuery::Result r = FilterQuery::parse(text);
            if (!r.ok()) {
                QVERIFY2(r.position >= 0 && r.position <= text.size(), qPrintable(text));
                continue;
            }
            ++parsed;
            const FilterQuery::Result again = FilterQuery::parse(FilterQuery::format(r.filter));
            QVERIFY2(again.ok() && again.filter == r.filter,
                qPrintable(QStringLiteral("seed %1: %2 -> %3").arg(seed).arg(text, FilterQuery::format(r.filter))));
        }
        QVERIFY(parsed > 1000);
    }

    // Against RoomKit's own counts: by type and by channel in the raw rows, and in the timeline a card for every
    // call by its tool and by its outcome (which its folded end carries).
    void countsMatchTheManifest_data()
    {
        QTest::addColumn<QString>("room");
        for (const QJsonValue& id :
            manifestFile(QStringLiteral("edge_cases.sqlite")).value(QLatin1String("room_ids")).toArray())
            QTest::newRow(qPrintable(id.toString())) << id.toString();
    }

    void countsMatchTheManifest()
    {
        QFETCH(QString, room);
        const QJsonObject facts = manifestRoom(QStringLiteral("edge_cases.sqlite"), room);
        Workspace& ws = m_fixtures.get(QStringLiteral("edge_cases.sqlite"));
        const qint64 id = ws.findRooms(room).first();
        const qint64 events = facts.value(QLatin1String("event_count")).toInteger();
        const QJsonObject byType = facts.value(QLatin1String("by_type")).toObject();
        for (auto it = byType.begin(); it != byType.end(); ++it) {
            QCOMPARE(counts(ws, id, QStringLiteral("type:%1 blocked:include").arg(it.key()), false).first,
                it.value().toInteger());
            QCOMPARE(counts(ws, id, QStringLiteral("-type:%1 blocked:include").arg(it.key()), false).first,
                events - it.value().toInteger());
        }
        const QJsonObject byChannel = facts.value(QLatin1String("by_source_channel")).toObject();
        for (auto it = byChannel.begin(); it != byChannel.end(); ++it) {
            QCOMPARE(counts(ws, id, QStringLiteral("channel:%1 blocked:include").arg(it.key()), false).first,
                it.value().toInteger());
            QCOMPARE(counts(ws, id, QStringLiteral("-channel:%1 blocked:include").arg(it.key()), false).first,
                events - it.value().toInteger());
        }
        const qint64 blocked = facts.value(QLatin1String("blocked")).toArray().size();
        QCOMPARE(counts(ws, id, QStringLiteral("blocked:only"), false).first, blocked);
        QCOMPARE(counts(ws, id, QString(), false).first, events - blocked);

        const QJsonObject tools = facts.value(QLatin1String("tools")).toObject();
        const QJsonObject byTool = tools.value(QLatin1String("by_tool_name")).toObject();
        for (auto it = byTool.begin(); it != byTool.end(); ++it) {
            // One card per call in the timeline, the start and end rows of each in the raw rows.
            const auto [cards, shown] = counts(ws, id, QStringLiteral("tool:%1 blocked:include").arg(it.key()), true);
            QCOMPARE(cards, it.value().toInteger());
            QCOMPARE(shown, counts(ws, id, QStringLiteral("tool:%1 blocked:include").arg(it.key()), false).first);
        }
        const QJsonObject outcomes = tools.value(QLatin1String("derived_outcome")).toObject();
        if (outcomes.contains(QLatin1String("error_payload")))
            return; // RoomKit's error payloads split three ways by their text (tst_roomkitimport)
        for (auto it = outcomes.begin(); it != outcomes.end(); ++it) {
            const QString query = QStringLiteral("outcome:%1 blocked:include").arg(it.key());
            // A card per call in the timeline; in the raw rows each row of those calls (an outcome is the call's, as
            // a tool's name is), the events the timeline's cards stand for.
            const auto [cards, shown] = counts(ws, id, query, true);
            QCOMPARE(cards, it.value().toInteger());
            QCOMPARE(counts(ws, id, query, false).first, shown);
            QVERIFY(shown >= cards);
        }
        const qint64 ends = tools.value(QLatin1String("tool_call_end_rows")).toInteger();
        QCOMPARE(counts(ws, id, QStringLiteral("type:tool_call_end blocked:include"), true).first, ends);
    }

    // The panes' counts, faceted: a field's counts stay what the manifest says under a filter on that field,
    // and the other fields count only what the filter lets through.
    void facetsMatchTheManifest_data() { countsMatchTheManifest_data(); }

    void facetsMatchTheManifest()
    {
        QFETCH(QString, room);
        const QJsonObject facts = manifestRoom(QStringLiteral("edge_cases.sqlite"), room);
        Workspace& ws = m_fixtures.get(QStringLiteral("edge_cases.sqlite"));
        const qint64 id = ws.findRooms(room).first();
        const qint64 events = facts.value(QLatin1String("event_count")).toInteger();
        const qint64 blocked = facts.value(QLatin1String("blocked")).toArray().size();
        const QJsonObject byType = facts.value(QLatin1String("by_type")).toObject();
        const QJsonObject byChannel = facts.value(QLatin1String("by_source_channel")).toObject();
        auto facets = [&](const QString& query) { return ws.facets(id, FilterQuery::parse(query).filter, 10); };
        auto sum = [](const QVector<FacetValue>& values) {
            qint64 n = 0;
            for (const FacetValue& v : values)
                n += v.count;
            return n;
        };

        const FacetCounts all = facets(QStringLiteral("blocked:include"));
        QCOMPARE(all.shown, events);
        QCOMPARE(all.blocked, blocked);
        QCOMPARE(all.unblocked, events - blocked);
        QCOMPARE(all.fields.value(QStringLiteral("type")).size(), byType.size());
        for (auto it = byType.begin(); it != byType.end(); ++it)
            QCOMPARE(all.count(QStringLiteral("type"), it.key()), it.value().toInteger());
        for (auto it = byChannel.begin(); it != byChannel.end(); ++it) {
            if (!it.key().isEmpty())
                QCOMPARE(all.count(QStringLiteral("channel"), it.key()), it.value().toInteger());
        }
        QCOMPARE(sum(all.fields.value(QStringLiteral("kind"))), events); // every row has a kind
        QCOMPARE(std::accumulate(all.histogram.cbegin(), all.histogram.cend(), qint64(0)), events);

        // Hidden blocked rows are still counted in their own pane.
        const FacetCounts hidden = facets(QString());
        QCOMPARE(hidden.blocked, blocked);
        QCOMPARE(hidden.shown, events - blocked);

        for (auto it = byType.begin(); it != byType.end(); ++it) {
            const QString query = QStringLiteral("type:%1 blocked:include").arg(it.key());
            const FacetCounts one = facets(query);
            QCOMPARE(one.shown, it.value().toInteger());
            QCOMPARE(one.shown, counts(ws, id, query, false).first); // the "X of Y" of the same filter
            // The types pane still offers every type with its count; the others count this type's rows.
            for (auto t = byType.begin(); t != byType.end(); ++t)
                QCOMPARE(one.count(QStringLiteral("type"), t.key()), t.value().toInteger());
            QSqlQuery typed = ws.exec(QStringLiteral("SELECT count(*) FROM events WHERE room_id = ? AND type = (SELECT code FROM words WHERE name = ?) "
                                                     "AND channel_type IS NOT NULL"),
                { id, it.key() });
            QVERIFY(typed.next());
            QCOMPARE(sum(one.fields.value(QStringLiteral("channel_type"))), typed.value(0).toLongLong());
            QCOMPARE(std::accumulate(one.histogram.cbegin(), one.histogram.cend(), qint64(0)), one.shown);
            // Kind is a field of its own: the type filter narrows its counts to the type's kind (kind and type
            // shared one mask, so the kinds pane ignored a type filter).
            QCOMPARE(sum(one.fields.value(QStringLiteral("kind"))), one.shown);
            const QVector<FacetValue> kinds = one.fields.value(QStringLiteral("kind"));
            QCOMPARE(std::count_if(kinds.cbegin(), kinds.cend(), [](const FacetValue& v) { return v.count > 0; }), 1);
            // The room's other kinds are listed still, with 0: the panes show what the room holds.
            QCOMPARE(kinds.size(), all.fields.value(QStringLiteral("kind")).size());
        }
        // And a kind filter narrows the type counts to its types, its own counts unchanged.
        for (const FacetValue& kind : all.fields.value(QStringLiteral("kind"))) {
            const FacetCounts one = facets(QStringLiteral("kind:%1 blocked:include").arg(kind.value));
            QCOMPARE(one.shown, kind.count);
            QCOMPARE(sum(one.fields.value(QStringLiteral("type"))), kind.count);
            QCOMPARE(sum(one.fields.value(QStringLiteral("kind"))), events);
        }
    }

    // What the filter bar offers to complete for a room: its types, channels and tools, as RoomKit counts them.
    void roomValuesMatchTheManifest_data() { countsMatchTheManifest_data(); }

    void roomValuesMatchTheManifest()
    {
        QFETCH(QString, room);
        const QJsonObject facts = manifestRoom(QStringLiteral("edge_cases.sqlite"), room);
        Workspace& ws = m_fixtures.get(QStringLiteral("edge_cases.sqlite"));
        const QMap<QString, QStringList> values = ws.roomValues(ws.findRooms(room).first());
        auto keys = [](const QJsonValue& object) {
            QStringList out = object.toObject().keys();
            out.removeAll(QString());
            return out;
        };
        QCOMPARE(values.value(QStringLiteral("type")), keys(facts.value(QLatin1String("by_type"))));
        QCOMPARE(values.value(QStringLiteral("channel")), keys(facts.value(QLatin1String("by_source_channel"))));
        QCOMPARE(values.value(QStringLiteral("tool")),
            keys(facts.value(QLatin1String("tools")).toObject().value(QLatin1String("by_tool_name"))));
    }

    // Words search message text, arguments and results: a card matches by its result, which only its end row
    // holds; in the raw rows that end row is the match.
    // A time bound that holds every event changes nothing, whatever it is combined with, in the raw rows and the
    // timeline (a time bound with any other filter emptied the timeline).
    void aTimeBoundWithOtherFiltersChangesNothingWhenItHoldsEverything()
    {
        Workspace& ws = m_fixtures.get(QStringLiteral("support.sqlite"));
        for (const RoomSummary& room : ws.rooms()) {
            for (const QString& other : { QString(), QStringLiteral("channel:ai-support"), QStringLiteral("type:message"),
                     QStringLiteral("kind:tool_call"), QStringLiteral("outcome:served"), QStringLiteral("-channel:system") }) {
                for (bool timeline : { false, true }) {
                    const auto plain = counts(ws, room.id, other, timeline);
                    for (const QString& bound : { QStringLiteral("after:2020-01-01"), QStringLiteral("before:2099-01-01"),
                             QStringLiteral("after:2020-01-01 before:2099-01-01") }) {
                        const QString query = QString(other + QLatin1Char(' ') + bound).trimmed();
                        QVERIFY2(counts(ws, room.id, query, timeline) == plain,
                            qPrintable(room.nativeId + QStringLiteral(": ") + query
                                + (timeline ? QStringLiteral(" (timeline)") : QString())));
                    }
                }
            }
        }
    }

    void wordsFindCards()
    {
        Workspace& ws = m_fixtures.get(QStringLiteral("edge_cases.sqlite"));
        const qint64 id = ws.findRooms(QStringLiteral("edge-tool-failed")).first();
        auto indexes = [&](const QString& query, bool timeline) {
            EventFilter f = FilterQuery::parse(query).filter;
            f.timelineItems = timeline;
            PageRequest all;
            all.limit = 1000;
            return indices(ws.listEvents(id, f, all));
        };
        QCOMPARE(indexes(QStringLiteral("502"), true), QVector<qint64>({ 8 }));
        QCOMPARE(indexes(QStringLiteral("502"), false), QVector<qint64>({ 10 }));
        QCOMPARE(indexes(QStringLiteral("\"timed out\""), true), QVector<qint64>({ 3 }));
        QCOMPARE(indexes(QStringLiteral("\"out timed\""), true), QVector<qint64>());
        QCOMPARE(indexes(QStringLiteral("A-404 type:message"), false), QVector<qint64>({ 6, 12 }));
        QCOMPARE(indexes(QStringLiteral("A-404 -delivered type:message"), false), QVector<qint64>({ 6 }));
        QCOMPARE(counts(ws, id, QStringLiteral("502"), true).second, 1); // the end row is the event shown
        // Leaving an outcome out leaves out the cards of calls that ended so, and every row of those calls: an
        // outcome is its call's, on each of its rows (the raw rows showed the served call's start, 9).
        QCOMPARE(indexes(QStringLiteral("tool:lookup_order -outcome:served"), true), QVector<qint64>({ 14 }));
        QCOMPARE(indexes(QStringLiteral("tool:lookup_order -outcome:served"), false), QVector<qint64>({ 14, 15 }));
    }

    // A blocked call's card says who blocked it, and blocked:only shows it in the timeline (its start is not a
    // blocked row, so the card was hidden while "X of Y" counted its end).
    void aBlockedCardIsABlockedItem()
    {
        Workspace& ws = m_fixtures.get(QStringLiteral("edge_cases.sqlite"));
        const qint64 id = ws.findRooms(QStringLiteral("edge-blocked-ai-output")).first();
        EventFilter only = FilterQuery::parse(QStringLiteral("blocked:only")).filter;
        only.timelineItems = true;
        PageRequest all;
        all.limit = 1000;
        // The card (at its start, 3) and the blocked message (5).
        QCOMPARE(indices(ws.listEvents(id, only, all)), QVector<qint64>({ 3, 5 }));
        const RowIndex index = ws.indexRows(id, only, 4);
        QCOMPARE(index.rows, 2);
        QCOMPARE(index.shown, 2); // the events shown: the blocked rows, the call's end and the message
        const std::optional<ToolCallRecord> call = ws.toolCallAt(id, 3);
        QVERIFY(call);
        QCOMPARE(Outcomes::name(call->outcome), QStringLiteral("blocked"));
        QCOMPARE(call->blockedBy, QStringLiteral("pii_guard"));
    }

    // correlation:ID shows every row of that turn, in every source system: a RoomKit turn is read only within
    // its AI response's span (group_id has no index), so a row outside it would go missing.
    void aTurnShowsAllItsRows_data()
    {
        QTest::addColumn<QString>("source");
        for (const QString& store : FixtureWorkspaces::stores())
            QTest::newRow(qPrintable(store)) << QStringLiteral("roomkit/") + store;
        QTest::newRow("agui") << QStringLiteral("agui");
        QTest::newRow("craftbot EVENT.md") << QStringLiteral("craftbot/EVENT.md"); // tasks: not all of a group's rows
    }

    void aTurnShowsAllItsRows()
    {
        QFETCH(QString, source);
        SKIP_UNLESS_SERVED(source);
        QTemporaryDir dir;
        Workspace ws(dir.filePath(QStringLiteral("turns.sightline")));
        Importer::import(ws,
            source.startsWith(QLatin1String("roomkit/")) ? fixtureSource(source.mid(8)) : dataFile(source));
        QSqlQuery groups = ws.exec(QStringLiteral("SELECT e.room_id, t.native, count(*) FROM events e JOIN turns t ON "
                                                  "t.room_id = e.room_id AND t.number = e.group_id GROUP BY e.room_id, "
                                                  "e.group_id"));
        int turns = 0;
        EventFilter everything;
        everything.includeBlocked = true;
        while (groups.next()) {
            EventFilter f = FilterQuery::parse(
                QStringLiteral("correlation:\"%1\" blocked:include").arg(groups.value(1).toString()))
                                .filter;
            QCOMPARE(f.groups, QStringList { groups.value(1).toString() });
            PageRequest all;
            all.limit = 100000;
            const EventRecords rows = ws.listEvents(groups.value(0).toLongLong(), f, all);
            QCOMPARE(qint64(rows.size()), groups.value(2).toLongLong());
            for (const EventRecord& r : rows)
                QCOMPARE(r.groupId, f.groups.first());
            // And leaving the turn out leaves every other row of the room, those of no turn included.
            EventFilter others = FilterQuery::parse(
                QStringLiteral("-correlation:\"%1\" blocked:include").arg(groups.value(1).toString()))
                                     .filter;
            QCOMPARE(others.excludeGroups, f.groups);
            const EventRecords rest = ws.listEvents(groups.value(0).toLongLong(), others, all);
            QCOMPARE(qint64(rest.size() + rows.size()), ws.countEvents(groups.value(0).toLongLong(), &everything));
            for (const EventRecord& r : rest)
                QVERIFY(r.groupId != f.groups.first());
            ++turns;
        }
        QVERIFY2(turns > 0, qPrintable(source + QStringLiteral(" has no turns")));
    }
};

QTEST_GUILESS_MAIN(TestFilterQuery)
#include "tst_filterquery.moc"
