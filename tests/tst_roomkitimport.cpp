// Imports RoomKit's own stores and checks every fact RoomKit's store API reported for them (manifest.json).

#include "eventflags.h"
#include "roomkitstoregenerator.h"
#include "sources/importer.h"
#include "sources/importlock.h"
#include "testsupport.h"
#include "timeutil.h"
#include "workspace.h"

#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QProcess>
#include <QRandomGenerator>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QSysInfo>
#include <QTest>
#include <QThread>
#include <sqlite3.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <sys/wait.h>
#include <unistd.h>

using namespace TestSupport;

namespace {

EventRecords everything(Workspace& ws, qint64 room)
{
    EventFilter all;
    all.includeBlocked = true;
    PageRequest page;
    page.limit = 1000000;
    return ws.listEvents(room, all, page);
}

// Everything an import derives, as rows to compare: rooms with their counts and cursor, every call, every row's
// index and flags, every turn, every row's search text and the words the full-text index holds of it.
QMap<QString, QStringList> derived(Workspace& ws)
{
    return {
        { QStringLiteral("search"),
            dump(ws,
                QStringLiteral("SELECT r.native_id, e.seq, unpack(s.body), unpack(s.arguments), unpack(s.result) FROM "
                               "search_text s JOIN events e ON e.id = s.event_id JOIN rooms r ON r.id = e.room_id "
                               "ORDER BY 1, 2")) },
        { QStringLiteral("words"), indexedWords(ws) },
        { QStringLiteral("rooms"),
            dump(ws,
                QStringLiteral("SELECT native_id, event_count, blocked_count, tool_calls, failed, refused, unserved, "
                               "first_us, last_us, synced_seq, participants, channel_types, unread FROM rooms ORDER BY 1")) },
        { QStringLiteral("calls"),
            dump(ws,
                QStringLiteral("SELECT r.native_id, c.tool_name, c.tool_id, c.group_id, c.start_seq, c.end_seq, "
                               "c.outcome, c.pairing, c.duration_ms, c.status, unpack(c.arguments), unpack(c.result), c.result_seq "
                               "FROM tool_calls c JOIN rooms r ON r.id = c.room_id "
                               "ORDER BY r.native_id, c.start_seq, c.end_seq")) },
        { QStringLiteral("events"),
            dump(ws,
                QStringLiteral("SELECT r.native_id, e.seq, e.flags FROM events e JOIN rooms r ON r.id = e.room_id "
                               "ORDER BY 1, 2")) },
        { QStringLiteral("runs"),
            dump(ws,
                QStringLiteral("SELECT r.native_id, u.group_id, u.kind, u.first_seq, u.last_seq, u.started_us, "
                               "u.ended_us FROM runs u JOIN rooms r ON r.id = u.room_id ORDER BY 1, 4, 2")) },
    };
}

// Every event the rooms hold.
qint64 eventsIn(const RoomSummaries& rooms)
{
    qint64 total = 0;
    for (const RoomSummary& r : rooms)
        total += r.eventCount;
    return total;
}

// Compares two workspaces' derived rows, naming the first difference.
void compareDerived(Workspace& got, Workspace& want)
{
    const QMap<QString, QStringList> a = derived(got);
    const QMap<QString, QStringList> b = derived(want);
    for (auto it = b.cbegin(); it != b.cend(); ++it) {
        const QStringList& mine = a.value(it.key());
        QCOMPARE(mine.size(), it.value().size());
        for (int i = 0; i < mine.size(); ++i)
            QVERIFY2(mine.at(i) == it.value().at(i),
                qPrintable(it.key() + QStringLiteral(": ") + mine.at(i) + QStringLiteral(" != ") + it.value().at(i)));
    }
}

QMap<QString, qint64> countsOf(const QJsonObject& object)
{
    QMap<QString, qint64> out;
    for (auto it = object.begin(); it != object.end(); ++it)
        out.insert(it.key(), it.value().toInteger());
    return out;
}

} // namespace

class TestRoomKitImport : public QObject
{
    Q_OBJECT

private:
    FixtureWorkspaces m_fixtures;

    Workspace& workspace(const QString& store) { return m_fixtures.get(store); }

    qint64 roomId(const QString& store, const QString& nativeId)
    {
        const QVector<qint64> ids = workspace(store).findRooms(nativeId);
        return ids.size() == 1 ? ids.first() : 0;
    }

    void checkTools(Workspace& ws, qint64 id, const EventRecords& events, const QJsonObject& facts)
    {
        const QJsonObject tools = facts.value(QLatin1String("tools")).toObject();
        const ToolCallRecords calls = ws.toolCalls(id);
        QJsonArray pairs;
        QVector<qint64> startOnly, endOnly;
        QMap<QString, qint64> byName;
        for (const ToolCallRecord& c : calls) {
            ++byName[c.toolName];
            if (c.startIndex && c.endIndex) {
                pairs.append(QJsonArray { *c.startIndex, *c.endIndex });
                // Both rows carry the same id; parallel calls of one tool pair exactly.
                QCOMPARE(c.pairing, Pairing::Exact);
            } else if (c.startIndex) {
                startOnly.append(*c.startIndex);
                QCOMPARE(c.pairing, Pairing::StartOnly);
                QCOMPARE(Outcomes::name(c.outcome), QStringLiteral("unserved"));
            } else {
                endOnly.append(*c.endIndex);
                QCOMPARE(c.pairing, Pairing::EndOnly);
            }
        }
        QCOMPARE(pairs, tools.value(QLatin1String("pairs_start_end_indices")).toArray());
        QCOMPARE(startOnly, toIndices(tools.value(QLatin1String("start_only")).toArray()));
        QCOMPARE(endOnly, toIndices(tools.value(QLatin1String("end_only")).toArray()));
        QCOMPARE(byName, countsOf(tools.value(QLatin1String("by_tool_name")).toObject()));

        // Each END: its duration and how it ended. RoomKit's "error_payload" is split by the error's text.
        QHash<qint64, const EventRecord*> byIndex;
        for (const EventRecord& e : events)
            byIndex.insert(e.index, &e);
        for (const QJsonValue& v : tools.value(QLatin1String("ends")).toArray()) {
            const QJsonObject end = v.toObject();
            const qint64 index = end.value(QLatin1String("index")).toInteger();
            const auto call = std::find_if(
                calls.begin(), calls.end(), [index](const ToolCallRecord& c) { return c.endIndex == index; });
            QVERIFY2(call != calls.end(), qPrintable(QStringLiteral("no call ends at %1").arg(index)));
            QCOMPARE(call->durationMs, std::optional<qint64>(end.value(QLatin1String("duration_ms")).toInteger()));
            QCOMPARE(call->durationSource, QStringLiteral("recorded"));
            QCOMPARE(call->status, end.value(QLatin1String("status")).toString());
            QString expected = end.value(QLatin1String("outcome")).toString();
            if (expected == QLatin1String("error_payload")) {
                const QByteArray payload = ws.payload(byIndex.value(index)->rowId);
                const QString result = QJsonDocument::fromJson(payload)
                                           .object()
                                           .value(QLatin1String("content"))
                                           .toObject()
                                           .value(QLatin1String("result"))
                                           .toString();
                QVERIFY2(result.contains(QLatin1String("\"error\"")), qPrintable(result));
                expected = result.contains(QLatin1String("Invalid arguments for")) ? QStringLiteral("refused")
                    : result.contains(QLatin1String("Unknown tool"))               ? QStringLiteral("unserved")
                                                                                   : QStringLiteral("failed");
            }
            QCOMPARE(Outcomes::name(call->outcome), expected);
            QCOMPARE(Outcomes::name(byIndex.value(index)->outcome), expected);
        }
    }

    void checkHighlights(const EventRecords& events, const QJsonObject& facts)
    {
        for (const QJsonValue& v : facts.value(QLatin1String("highlights")).toArray()) {
            const QJsonObject h = v.toObject();
            const qint64 index = h.value(QLatin1String("index")).toInteger();
            const auto e = std::find_if(
                events.begin(), events.end(), [index](const EventRecord& r) { return r.index == index; });
            QVERIFY(e != events.end());
            auto orEmpty = [&h](const char* key) { return h.value(QLatin1String(key)).toString(); };
            QCOMPARE(e->nativeId, orEmpty("event_id"));
            QCOMPARE(e->type, orEmpty("type"));
            QCOMPARE(e->status, orEmpty("status"));
            QCOMPARE(e->blockedBy, orEmpty("blocked_by"));
            QCOMPARE(e->channelId, orEmpty("source_channel_id"));
            QCOMPARE(e->channelType, orEmpty("source_channel_type"));
            QCOMPARE(e->participantId, orEmpty("participant_id"));
            QCOMPARE(e->correlationId, orEmpty("correlation_id"));
            QCOMPARE(e->parentId, orEmpty("parent_event_id"));
            QCOMPARE(TimeUtil::formatMicros(e->createdMicros), orEmpty("created_at"));
            if (e->type == QLatin1String("message")) {
                // The manifest writes newlines as "\n", cuts long text with "…", and joins composite parts
                // with " | ": compare what it shows.
                QString expected = orEmpty("text").replace(QLatin1String("\\n"), QLatin1String("\n"));
                const bool cut = expected.endsWith(QChar(0x2026));
                if (cut)
                    expected.chop(1);
                if (expected.contains(QLatin1String(" | ")))
                    QVERIFY2(e->text.startsWith(expected.section(QLatin1String(" | "), 0, 0)), qPrintable(e->text));
                else if (cut)
                    QVERIFY2(e->text.startsWith(expected), qPrintable(e->text));
                else
                    QCOMPARE(e->text, expected);
            }
            const QJsonObject tool = h.value(QLatin1String("tool")).toObject();
            if (!tool.isEmpty()) {
                QCOMPARE(e->toolName, tool.value(QLatin1String("name")).toString());
                QCOMPARE(e->toolId, tool.value(QLatin1String("tool_id")).toString());
            }
        }
    }

private slots:
    // "X of Y" read while an import writes the room, batch after batch: each answer is one snapshot, so X never
    // exceeds Y (the room's count and its rows were read by two statements, each at its own moment).
    void aCountIsOneSnapshotDuringAnImport()
    {
        QTemporaryDir dir;
        const QString source = dir.filePath(QStringLiteral("s.sqlite"));
        RoomKitStoreGenerator::write(source, 30000, 1, 1.0, 3);
        const QString path = dir.filePath(QStringLiteral("w.sightline"));
        { Workspace made(path); }
        std::atomic<bool> done { false };
        QThread* importer = QThread::create([&] {
            Workspace ws(path);
            ImportOptions options;
            options.batchRows = 100;
            Importer::import(ws, source, options);
            done = true;
        });
        importer->start();
        Workspace reader(path);
        EventFilter filter; // blocked rows hidden: never more than every stored row
        int reads = 0;
        while (!done) {
            for (const RoomSummary& r : reader.rooms()) {
                const RowIndex index = reader.indexRows(r.id, filter, 256);
                QVERIFY2(index.shown <= index.total,
                    qPrintable(QString::number(index.shown) + QStringLiteral(" of ") + QString::number(index.total)));
                ++reads;
            }
        }
        importer->wait();
        delete importer;
        QVERIFY(reads > 0);
    }

    void roomList_data()
    {
        QTest::addColumn<QString>("store");
        for (const QString& store : FixtureWorkspaces::stores())
            QTest::newRow(qPrintable(store)) << store;
    }

    void roomList()
    {
        QFETCH(QString, store);
        SKIP_UNLESS_SERVED(store);
        const QJsonObject facts = manifestFile(store);
        Workspace& ws = workspace(store);
        QStringList ids;
        qint64 total = 0;
        for (const RoomSummary& r : ws.rooms()) {
            ids << r.nativeId;
            total += r.eventCount;
            QCOMPARE(r.system, QStringLiteral("roomkit"));
        }
        // Every room, empty ones included, in the order RoomKit's list_rooms gives them.
        QStringList expected;
        for (const QJsonValue& id : facts.value(QLatin1String("room_ids")).toArray())
            expected << id.toString();
        QCOMPARE(ids, expected);
        QCOMPARE(total, facts.value(QLatin1String("total_events")).toInteger());
    }

    void roomFacts_data()
    {
        QTest::addColumn<QString>("store");
        QTest::addColumn<QString>("room");
        for (const QString& store : FixtureWorkspaces::stores()) {
            for (const QJsonValue& id : manifestFile(store).value(QLatin1String("room_ids")).toArray())
                QTest::addRow("%s/%s", qPrintable(store), qPrintable(id.toString())) << store << id.toString();
        }
    }

    void roomFacts()
    {
        QFETCH(QString, store);
        QFETCH(QString, room);
        SKIP_UNLESS_SERVED(store);
        const QJsonObject facts = manifestRoom(store, room);
        QVERIFY(!facts.isEmpty());
        Workspace& ws = workspace(store);
        const qint64 id = roomId(store, room);
        QVERIFY(id != 0);
        const RoomSummary summary = *ws.room(id);
        const EventRecords events = everything(ws, id);

        QCOMPARE(summary.eventCount, facts.value(QLatin1String("event_count")).toInteger());
        QCOMPARE(ws.countEvents(id), summary.eventCount);
        QCOMPARE(qint64(events.size()), summary.eventCount);
        QCOMPARE(
            summary.status, facts.value(QLatin1String("room")).toObject().value(QLatin1String("status")).toString());

        // Counts by type (RoomKit's EventFilter(event_types=[T])), status and source channel.
        QMap<QString, qint64> byType, byStatus, byChannel;
        for (const EventRecord& e : events) {
            ++byType[e.type];
            ++byStatus[e.status];
            ++byChannel[e.channelId];
        }
        QCOMPARE(byType, countsOf(facts.value(QLatin1String("by_type")).toObject()));
        QCOMPARE(byStatus, countsOf(facts.value(QLatin1String("by_status")).toObject()));
        QCOMPARE(byChannel, countsOf(facts.value(QLatin1String("by_source_channel")).toObject()));
        for (auto it = byType.cbegin(); it != byType.cend(); ++it) {
            EventFilter f;
            f.types = { it.key() };
            f.includeBlocked = true;
            QCOMPARE(ws.countEvents(id, &f), it.value());
        }

        // Indices: ascending, with the gaps hard deletes left.
        const QVector<qint64> seen = indices(events);
        QVERIFY(std::is_sorted(seen.begin(), seen.end()));
        const QJsonArray range = facts.value(QLatin1String("index_range")).toArray();
        if (!range.isEmpty() && !seen.isEmpty()) {
            QCOMPARE(seen.first(), range.at(0).toInteger());
            QCOMPARE(seen.last(), range.at(1).toInteger());
            QVector<qint64> gaps;
            for (qint64 i = seen.first(), at = 0; i <= seen.last(); ++i) {
                if (seen.at(at) == i)
                    ++at;
                else
                    gaps.append(i);
            }
            QCOMPARE(gaps, toIndices(facts.value(QLatin1String("index_gaps")).toArray()));
        }

        // Blocked rows: real rows with their index, type and the hook that blocked them.
        QJsonArray blocked;
        for (const EventRecord& e : events) {
            if (e.isBlocked())
                blocked.append(QJsonArray { e.index, e.type, e.blockedBy });
        }
        QJsonArray expectedBlocked;
        for (const QJsonValue& b : facts.value(QLatin1String("blocked")).toArray()) {
            const QJsonObject o = b.toObject();
            expectedBlocked.append(QJsonArray { o.value(QLatin1String("index")), o.value(QLatin1String("type")),
                o.value(QLatin1String("blocked_by")) });
        }
        QCOMPARE(blocked, expectedBlocked);
        QCOMPARE(summary.blockedCount, qint64(expectedBlocked.size()));

        // Rows RoomKit changed after the fact.
        auto flagged = [&events](int flag) {
            QVector<qint64> out;
            for (const EventRecord& e : events) {
                if (e.flags & flag)
                    out.append(e.index);
            }
            return out;
        };
        QCOMPARE(flagged(EventFlags::Edited), toIndices(facts.value(QLatin1String("edited")).toArray()));
        QCOMPARE(flagged(EventFlags::Deleted), toIndices(facts.value(QLatin1String("soft_deleted")).toArray()));
        QCOMPARE(flagged(EventFlags::Cancelled), toIndices(facts.value(QLatin1String("cancelled_messages")).toArray()));
        QCOMPARE(flagged(EventFlags::DeliveryFailed),
            toIndices(facts.value(QLatin1String("with_delivery_results")).toArray()));
        QCOMPARE(flagged(EventFlags::MalformedJson | EventFlags::InvalidUtf8), QVector<qint64>());

        // The room's span in time (microseconds kept), empty rooms have none.
        const QJsonObject span = facts.value(QLatin1String("time_span")).toObject();
        if (summary.eventCount > 0) {
            QCOMPARE(TimeUtil::formatMicros(summary.firstMicros), span.value(QLatin1String("first")).toString());
            QCOMPARE(TimeUtil::formatMicros(summary.lastMicros), span.value(QLatin1String("last")).toString());
        } else {
            QCOMPARE(summary.firstMicros, 0);
        }

        // Room details: bindings and participants.
        const QJsonObject details = ws.roomDetails(id);
        QStringList channels, expectedChannels;
        for (const QJsonValue& b : details.value(QLatin1String("bindings")).toArray())
            channels << b.toObject().value(QLatin1String("channel_id")).toString();
        for (const QJsonValue& b : facts.value(QLatin1String("bindings")).toArray())
            expectedChannels << b.toObject().value(QLatin1String("channel_id")).toString();
        channels.sort();
        expectedChannels.sort();
        QCOMPARE(channels, expectedChannels);
        QStringList participants, expectedParticipants;
        for (const QJsonValue& p : details.value(QLatin1String("participants")).toArray())
            participants << p.toObject().value(QLatin1String("id")).toString();
        for (const QJsonValue& p : facts.value(QLatin1String("participants")).toArray())
            expectedParticipants << p.toObject().value(QLatin1String("id")).toString();
        participants.sort();
        expectedParticipants.sort();
        QCOMPARE(participants, expectedParticipants);

        checkTools(ws, id, events, facts);
        checkHighlights(events, facts);
    }

    void sourceIsNeverWritten()
    {
        for (const QString& store : FixtureWorkspaces::stores()) {
            if (isPostgresFixture(store))
                continue; // a database: tst_postgres compares its dump before and after
            const QString path = dataFile(QStringLiteral("roomkit/") + store);
            const QByteArray before = sha256(path);
            workspace(store);
            QTemporaryDir again;
            importFixture(again, store);
            QCOMPARE(sha256(path), before);
            QVERIFY(!QFile::exists(path + QStringLiteral("-wal")));
            QVERIFY(!QFile::exists(path + QStringLiteral("-shm")));
        }
    }

    void reimportAddsNothing()
    {
        Workspace& ws = workspace(QStringLiteral("support.sqlite"));
        const ImportReport again = Importer::import(ws, dataFile(QStringLiteral("roomkit/support.sqlite")));
        QCOMPARE(again.added(), 0);
        QCOMPARE(again.rooms.size(), 8);
        qint64 total = 0;
        for (const ImportReport::Room& r : again.rooms)
            total += r.total;
        QCOMPARE(total, 113);
    }

    // Following a store RoomKit is still writing: a re-import adds only what is new, and a call whose end
    // arrives later is paired then.
    // An AI response per correlation id, from its first row to its last, however far apart they are: the import
    // holds the responses of the rows read lately and finds older ones in the runs table when their id comes again.
    // Every run is what a GROUP BY over the room's rows makes, once per id, read whole or in small batches, and
    // after a sync that adds a row to the room's very first response.
    void aResponseSpansItsRowsWhereverTheyFall()
    {
        QTemporaryDir dir;
        const QString source = dir.filePath(QStringLiteral("s.sqlite"));
        RoomKitStoreGenerator::write(source, 60000, 1, 1.0, 5);
        const QString expected = QStringLiteral(
            "SELECT (SELECT t.native FROM turns t WHERE t.room_id = events.room_id AND t.number = events.group_id), "
            "min(seq), max(seq), min(created_us), max(created_us) FROM events "
            "WHERE group_id IS NOT NULL GROUP BY group_id ORDER BY 1");
        const QString stored = QStringLiteral("SELECT group_id, first_seq, last_seq, started_us, ended_us FROM runs "
                                              "WHERE kind = 'ai_response' ORDER BY group_id");
        for (const int batchRows : { 20000, 100 }) {
            Workspace ws(dir.filePath(QStringLiteral("w-%1.sightline").arg(batchRows)));
            ImportOptions options;
            options.batchRows = batchRows;
            Importer::import(ws, source, options);
            const QStringList groups = dump(ws, expected);
            QVERIFY2(groups.size() > 8192, qPrintable(QString::number(groups.size()))); // more than the import holds
            QCOMPARE(dump(ws, stored), groups);
        }
        // A row of the room's first response, at its end: that response now spans the whole room, still once.
        execSql(source,
            QStringLiteral(
                "INSERT INTO events(id, room_id, idx, type, visibility, source_channel_id, source_channel_type, "
                "participant_id, correlation_id, parent_event_id, idempotency_key, created_ts, data) "
                "SELECT 'late', room_id, (SELECT max(idx) + 1 FROM events), type, visibility, source_channel_id, "
                "source_channel_type, participant_id, correlation_id, NULL, NULL, "
                "(SELECT max(created_ts) + 1 FROM events), json_set(data, '$.id', 'late', '$.index', "
                "(SELECT max(idx) + 1 FROM events)) "
                "FROM events WHERE correlation_id IS NOT NULL ORDER BY idx LIMIT 1;"));
        Workspace ws(dir.filePath(QStringLiteral("w-100.sightline")));
        QCOMPARE(Importer::import(ws, source).added(), 1);
        const QStringList groups = dump(ws, expected);
        QCOMPARE(dump(ws, stored), groups);
        QSqlQuery first = ws.exec(QStringLiteral(
            "SELECT first_seq, last_seq, (SELECT seq FROM events WHERE native_id = 'late') FROM runs "
            "WHERE group_id = (SELECT t.native FROM events e JOIN turns t ON t.room_id = e.room_id AND t.number = "
            "e.group_id WHERE e.native_id = 'late')"));
        QVERIFY(first.next());
        QVERIFY(first.value(2).toLongLong() >= 60000);
        QCOMPARE(first.value(1).toLongLong(), first.value(2).toLongLong());
        QVERIFY(first.value(0).toLongLong() < 100);
        QVERIFY(!first.next());
    }

    // Rows are written a few hundred at a time by one statement (PendingRows). A row the workspace refuses (here a
    // trigger's, as a full column would) stops that statement: the rest are written, that row is named with its
    // room and index, and every row written has its own search text, as in a clean import. Rows already in the
    // room in the middle of a batch are passed over, and those between them written with their own.
    void everyRowOfABatchIsAccountedFor()
    {
        QTemporaryDir dir;
        const QString source = dir.filePath(QStringLiteral("s.sqlite"));
        RoomKitStoreGenerator::write(source, 3000, 1, 1.0, 11);
        const QString searchable = QStringLiteral(
            "SELECT e.seq, unpack(s.body), unpack(s.arguments), unpack(s.result) FROM events e JOIN search_text s ON "
            "s.event_id = e.id ORDER BY e.seq");
        Workspace clean(dir.filePath(QStringLiteral("clean.sightline")));
        QVERIFY(Importer::import(clean, source).problems.isEmpty());
        const QStringList cleanRows = dump(clean, searchable);
        const QStringList cleanWords = indexedWords(clean);
        QVERIFY(cleanRows.size() > 1000);
        QVERIFY(cleanWords.size() > 1000); // a line for each row the index finds
        const qint64 room = clean.rooms().first().id;
        const qint64 total = clean.room(room)->eventCount;

        const qint64 refused = 1234;
        // The lines of every row but the refused one (its index is the line's `field`th value).
        const auto without = [&](QStringList rows, int field = 0) {
            rows.removeIf([&](const QString& row) { return row.section(QLatin1Char('|'), field, field) == QString::number(refused); });
            return rows;
        };
        QVERIFY(without(cleanRows).size() < cleanRows.size()); // the row refused has search text
        QVERIFY(without(cleanWords, 1).size() < cleanWords.size()); // and words in the index
        Workspace ws(dir.filePath(QStringLiteral("w.sightline")));
        ws.exec(QStringLiteral("CREATE TRIGGER refuse BEFORE INSERT ON events WHEN NEW.seq = %1 BEGIN "
                               "SELECT RAISE(ABORT, 'refused by the test'); END")
                    .arg(refused));
        const ImportReport report = Importer::import(ws, source);
        QCOMPARE(report.problems.size(), 1);
        QVERIFY2(report.problems.first().contains(QStringLiteral(", index %1: not imported: ").arg(refused))
                && report.problems.first().contains(QLatin1String("refused by the test")),
            qPrintable(report.problems.first()));
        QCOMPARE(report.added(), total - 1);
        const qint64 wsRoom = ws.rooms().first().id;
        QCOMPARE(ws.room(wsRoom)->eventCount, total - 1);
        QVERIFY(!ws.event(wsRoom, refused));
        QCOMPARE(dump(ws, searchable), without(cleanRows));
        QCOMPARE(indexedWords(ws), without(cleanWords, 1));

        // Two rows gone from the clean workspace, and the room read again from index 2: those two are written among
        // rows it has, each with its own search text, and the rest passed over (each noted, as before).
        clean.exec(QStringLiteral("DELETE FROM events WHERE room_id = ? AND seq IN (40, 700)"), { room });
        QVERIFY(dump(clean, searchable).size() < cleanRows.size());
        clean.exec(QStringLiteral("UPDATE rooms SET synced_seq = 2 WHERE id = ?"), { room });
        const ImportReport again = Importer::import(clean, source);
        QCOMPARE(again.added(), 2);
        QCOMPARE(clean.room(room)->eventCount, total);
        QCOMPARE(dump(clean, searchable), cleanRows);
        QCOMPARE(indexedWords(clean), cleanWords);
        QVERIFY2(again.problems.first().contains(QLatin1String("was skipped")), qPrintable(again.problems.first()));
    }

    void syncAddsOnlyWhatIsNew()
    {
        QTemporaryDir dir;
        const QString source = copyFixture(dir, QStringLiteral("roomkit/edge_cases.sqlite"));
        Workspace ws(dir.filePath(QStringLiteral("follow.sightline")));
        const ImportReport first = Importer::import(ws, source);
        QCOMPARE(first.added(), 297);
        const qint64 room = ws.findRooms(QStringLiteral("edge-stream-interrupted")).first();
        QCOMPARE(ws.room(room)->unserved, 2);

        // RoomKit appends: the END of the start at index 5, then a message.
        execSql(source,
            QStringLiteral(
                "INSERT INTO events(id, room_id, idx, type, visibility, source_channel_id, source_channel_type, "
                "participant_id, correlation_id, parent_event_id, idempotency_key, created_ts, data) "
                "SELECT 'late-end', room_id, 12, 'tool_call_end', visibility, source_channel_id, source_channel_type, "
                "participant_id, correlation_id, parent_event_id, NULL, created_ts + 600, "
                "json_set(data, '$.id', 'late-end', '$.index', 12, '$.type', 'tool_call_end', "
                "'$.content.status', 'completed', '$.content.result', 'found', '$.content.duration_ms', 1500) "
                "FROM events WHERE room_id = 'edge-stream-interrupted' AND idx = 5;"
                "INSERT INTO events(id, room_id, idx, type, visibility, source_channel_id, source_channel_type, "
                "participant_id, correlation_id, parent_event_id, idempotency_key, created_ts, data) "
                "SELECT 'late-msg', room_id, 13, type, visibility, source_channel_id, source_channel_type, "
                "participant_id, NULL, NULL, NULL, created_ts + 700, json_set(data, '$.id', 'late-msg', '$.index', 13) "
                "FROM events WHERE room_id = 'edge-stream-interrupted' AND idx = 11;"));

        const ImportReport second = Importer::import(ws, source);
        QCOMPARE(second.added(), 2);
        for (const ImportReport::Room& r : second.rooms)
            QCOMPARE(r.added, r.nativeId == QLatin1String("edge-stream-interrupted") ? 2 : 0);
        QCOMPARE(ws.room(room)->eventCount, 14);
        QCOMPARE(ws.room(room)->unserved, 1);
        const ToolCallRecords calls = ws.toolCalls(room);
        const auto late
            = std::find_if(calls.begin(), calls.end(), [](const ToolCallRecord& c) { return c.startIndex == 5; });
        QVERIFY(late != calls.end());
        QCOMPARE(late->endIndex, std::optional<qint64>(12));
        QCOMPARE(late->pairing, Pairing::Exact);
        QCOMPARE(Outcomes::name(late->outcome), QStringLiteral("served"));
        // The late end folds into its card, and the room's AI response stretches to it.
        QVERIFY(ws.event(room, 12)->flags & EventFlags::Folded);
        QSqlQuery span
            = ws.exec(QStringLiteral("SELECT u.last_seq = (SELECT max(e.seq) FROM events e JOIN turns t ON t.room_id = "
                                     "e.room_id AND t.number = e.group_id WHERE e.room_id = ? AND t.native = u.group_id) "
                                     "FROM runs u WHERE u.room_id = ? AND u.group_id = (SELECT t.native FROM events e "
                                     "JOIN turns t ON t.room_id = e.room_id AND t.number = e.group_id WHERE e.room_id = ? "
                                     "AND e.seq = 12)"),
                { room, room, room });
        QVERIFY(span.next());
        QVERIFY(span.value(0).toBool());
        QCOMPARE(Importer::import(ws, source).added(), 0);
    }

    // An agent run again into the same path: a store with the same rooms but other rows. Another file put there (its
    // device and inode differ) and the same file written anew (the row read last has another id now) are each read
    // again from the start, never taken for the old store with nothing new: a failed call there is failed here.
    void aStoreReplacedAtItsPathIsReadAgain()
    {
        QTemporaryDir dir;
        const QString source = copyFixture(dir, QStringLiteral("roomkit/support.sqlite"));
        Workspace ws(dir.filePath(QStringLiteral("replaced.sightline")));
        Importer::import(ws, source);
        const qint64 room = ws.findRooms(QStringLiteral("sup-duplicate-charge")).first();
        const auto outcomeAt = [&](qint64 start) {
            for (const ToolCallRecord& c : ws.toolCalls(room)) {
                if (c.startIndex == start)
                    return Outcomes::name(c.outcome);
            }
            return QString();
        };
        QCOMPARE(outcomeAt(16), QStringLiteral("refused"));
        const qint64 events = ws.room(room)->eventCount;

        // Another file moved over it: the same rooms and ids, the refusal now a failure.
        const QString other = copyFixture(dir, QStringLiteral("roomkit/support.sqlite"), QStringLiteral("other.sqlite"));
        execSql(other, QStringLiteral("UPDATE events SET data = json_set(data, '$.content.status', 'failed', '$.content.result', "
                                      "'{\"error\": \"gateway timeout\"}') WHERE room_id = 'sup-duplicate-charge' AND idx = 17"));
        QVERIFY(QFile::remove(source));
        QVERIFY(QFile::rename(other, source));
        const ImportReport moved = Importer::import(ws, source);
        QVERIFY2(moved.problems.join(QLatin1Char('\n')).contains(QLatin1String("sup-duplicate-charge was rotated or rewritten")),
            qPrintable(moved.problems.join(QLatin1Char('\n'))));
        QCOMPARE(outcomeAt(16), QStringLiteral("failed"));
        QCOMPARE(ws.room(room)->eventCount, events); // read again, not added to
        QCOMPARE(Importer::import(ws, source).added(), 0); // and then it is the store the workspace holds

        // The same file written anew in place (its inode kept): another run's rows, with ids of their own.
        const QString rerun = copyFixture(dir, QStringLiteral("roomkit/support.sqlite"), QStringLiteral("rerun.sqlite"));
        execSql(rerun, QStringLiteral("UPDATE events SET id = id || '-run2', data = json_set(data, '$.id', json_extract(data, '$.id') "
                                      "|| '-run2')"));
        QFile from(rerun);
        QVERIFY(from.open(QIODevice::ReadOnly));
        QFile to(source);
        QVERIFY(to.open(QIODevice::WriteOnly | QIODevice::Truncate)); // the same inode, its bytes replaced
        to.write(from.readAll());
        to.close();
        Importer::import(ws, source);
        QCOMPARE(outcomeAt(16), QStringLiteral("refused"));
        QVERIFY(ws.event(room, 0)->nativeId.endsWith(QLatin1String("-run2")));
        QCOMPARE(ws.room(room)->eventCount, events);
    }

    void readOnlyFileInReadOnlyFolder()
    {
        QTemporaryDir dir;
        const QString folder = dir.filePath(QStringLiteral("ro"));
        QDir().mkpath(folder);
        const QString source = folder + QStringLiteral("/support.sqlite");
        QVERIFY(QFile::copy(dataFile(QStringLiteral("roomkit/support.sqlite")), source));
        QFile::setPermissions(source, QFile::ReadOwner | QFile::ReadGroup | QFile::ReadOther);
        QFile::setPermissions(folder, QFile::ReadOwner | QFile::ExeOwner);
        Workspace ws(dir.filePath(QStringLiteral("ro.sightline")));
        QCOMPARE(Importer::import(ws, source).added(), 113);
        QVERIFY(!QFile::exists(source + QStringLiteral("-shm")));
        QFile::setPermissions(folder, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    }

    // RoomKit keeps its store open in WAL mode while it runs; rows still in the -wal file are read too.
    void whileRoomKitHoldsItOpen()
    {
        QTemporaryDir dir;
        const QString source = copyFixture(dir, QStringLiteral("roomkit/support.sqlite"));
        sqlite3* writer = nullptr;
        QCOMPARE(sqlite3_open(source.toUtf8().constData(), &writer), SQLITE_OK);
        QCOMPARE(sqlite3_exec(writer,
                     "PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0;"
                     "INSERT INTO events SELECT 'in-wal', room_id, idx + 1, type, visibility, source_channel_id,"
                     " source_channel_type, participant_id, NULL, NULL, NULL, created_ts + 1,"
                     " json_set(data, '$.id', 'in-wal', '$.index', idx + 1) FROM events"
                     " WHERE room_id = 'sup-late-delivery' AND idx = (SELECT max(idx) FROM events"
                     " WHERE room_id = 'sup-late-delivery');",
                     nullptr, nullptr, nullptr),
            SQLITE_OK);
        QVERIFY(QFile::exists(source + QStringLiteral("-wal")));
        Workspace ws(dir.filePath(QStringLiteral("live.sightline")));
        const ImportReport report = Importer::import(ws, source);
        QCOMPARE(report.added(), 114);
        const qint64 room = ws.findRooms(QStringLiteral("sup-late-delivery")).first();
        const EventRecords tail = ws.listEvents(room, {}, PageRequest { 1, 0, true, {}, {} });
        QCOMPARE(tail.size(), 1);
        QCOMPARE(tail.first().nativeId, QStringLiteral("in-wal"));
        sqlite3_close(writer);
    }

    // A store with no writer when the import starts is read with immutable=1 (no side files); a writer that
    // starts while the import runs is then read under SQLite's locks, so its rows are not missed.
    void aWriterThatStartsMidImportIsSeen()
    {
        QTemporaryDir dir;
        const QString source = copyFixture(dir, QStringLiteral("roomkit/support.sqlite"));
        QVERIFY(!QFile::exists(source + QStringLiteral("-wal")));
        Workspace ws(dir.filePath(QStringLiteral("w.sightline")));
        const QString late = QStringLiteral("sup-handoff-es");
        sqlite3* writer = nullptr;
        ImportOptions options;
        options.roomReady = [&](qint64 roomId) {
            if (writer || ws.findRooms(late).value(0) == roomId)
                return;
            // The first room is in; RoomKit starts and appends to a room not read yet, keeping its -wal.
            QCOMPARE(sqlite3_open(source.toUtf8().constData(), &writer), SQLITE_OK);
            QCOMPARE(sqlite3_exec(writer,
                         "PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0;"
                         "INSERT INTO events SELECT 'late-row', room_id, idx + 1, type, visibility, source_channel_id,"
                         " source_channel_type, participant_id, NULL, NULL, NULL, created_ts + 1,"
                         " json_set(data, '$.id', 'late-row', '$.index', idx + 1) FROM events"
                         " WHERE room_id = 'sup-handoff-es' AND idx = (SELECT max(idx) FROM events"
                         " WHERE room_id = 'sup-handoff-es');",
                         nullptr, nullptr, nullptr),
                SQLITE_OK);
        };
        Importer::import(ws, source, options);
        QVERIFY(writer);
        const qint64 room = ws.findRooms(late).first();
        const EventRecords tail = ws.listEvents(room, {}, PageRequest { 1, 0, true, {}, {} });
        QCOMPARE(tail.size(), 1);
        QCOMPARE(tail.first().nativeId, QStringLiteral("late-row"));
        QCOMPARE(ws.room(room)->eventCount,
            manifestRoom(QStringLiteral("support.sqlite"), late).value(QLatin1String("event_count")).toInteger() + 1);
        sqlite3_close(writer);
    }

    // A big room is made whole after its first batch (counted, its calls so far paired) so that a reader can
    // show it while the rest imports; in the end the workspace is the same as one imported in a single batch.
    void firstBatchIsWholeAndTheEndIsTheSame()
    {
        QTemporaryDir dir;
        const QString source = growSupportRoom(dir, 1500, QStringLiteral("grown.sqlite"));
        const QString calls = QStringLiteral(
            "SELECT r.native_id, c.tool_name, c.tool_id, c.start_seq, c.end_seq, c.outcome, c.pairing, c.duration_ms "
            "FROM tool_calls c JOIN rooms r ON r.id = c.room_id ORDER BY r.native_id, c.start_seq, c.end_seq");
        const QString events = QStringLiteral(
            "SELECT r.native_id, e.seq, e.flags FROM events e JOIN rooms r ON r.id = e.room_id ORDER BY 1, 2");
        const QString rooms = QStringLiteral("SELECT native_id, event_count, blocked_count, tool_calls, failed, "
                                             "refused, unserved, first_us, last_us, synced_seq FROM rooms ORDER BY 1");

        Workspace whole(dir.filePath(QStringLiteral("whole.sightline")));
        ImportOptions once;
        once.batchRows = 1000000;
        Importer::import(whole, source, once);

        Workspace batched(dir.filePath(QStringLiteral("batched.sightline")));
        ImportOptions small;
        small.batchRows = 100;
        QVector<qint64> ready;
        small.roomReady = [&](qint64 roomId) {
            if (!ready.isEmpty() && ready.last() == roomId)
                return; // the same room finished after its checkpoint
            ready << roomId;
            // Whole as far as it goes: the count is the rows committed, and every end read with its start is in
            // its card.
            QSqlQuery q = batched.exec(QStringLiteral("SELECT event_count, (SELECT count(*) FROM events WHERE "
                                                      "room_id = rooms.id) FROM rooms WHERE id = ?"),
                { roomId });
            QVERIFY(q.next());
            QCOMPARE(q.value(0).toLongLong(), q.value(1).toLongLong());
            QSqlQuery open = batched.exec(
                QStringLiteral("SELECT count(*) FROM tool_calls c JOIN events e ON e.room_id = c.room_id AND e.seq = "
                               "c.end_seq WHERE c.room_id = ? AND c.start_seq IS NOT NULL AND (e.flags & ?) = 0"),
                { roomId, int(EventFlags::Folded) });
            QVERIFY(open.next());
            QCOMPARE(open.value(0).toLongLong(), 0);
        };
        int checks = 0;
        small.progress = [&](qint64, qint64) {
            // After every batch, each room's count is its rows committed so far.
            QSqlQuery q = batched.exec(QStringLiteral("SELECT count(*) FROM rooms WHERE event_count != (SELECT "
                                                      "count(*) FROM events WHERE room_id = rooms.id)"));
            QVERIFY(q.next());
            QCOMPARE(q.value(0).toLongLong(), 0);
            ++checks;
        };
        Importer::import(batched, source, small);
        QVERIFY(checks > 10);
        // The grown room went first (the biggest), ready after its first batch.
        QVERIFY(!ready.isEmpty());
        QCOMPARE(ready.first(), batched.findRooms(QStringLiteral("sup-late-delivery")).first());

        QCOMPARE(dump(batched, calls), dump(whole, calls));
        QCOMPARE(dump(batched, events), dump(whole, events));
        QCOMPARE(dump(batched, rooms), dump(whole, rooms));
        const QString runs = QStringLiteral("SELECT r.native_id, u.group_id, u.kind, u.first_seq, u.last_seq, "
                                            "u.started_us, u.ended_us FROM runs u JOIN rooms r ON r.id = u.room_id "
                                            "ORDER BY 1, 4");
        QCOMPARE(dump(batched, runs), dump(whole, runs));
        // The responses are what a GROUP BY over the rows says.
        QCOMPARE(dump(batched, runs),
            dump(batched,
                QStringLiteral("SELECT r.native_id, t.native, 'ai_response', min(e.seq), max(e.seq), "
                               "min(e.created_us), max(e.created_us) FROM events e JOIN rooms r ON r.id = e.room_id "
                               "JOIN turns t ON t.room_id = e.room_id AND t.number = e.group_id "
                               "GROUP BY e.room_id, e.group_id ORDER BY 1, 4")));
    }

    // What a kill leaves: the workspace as it is on disk after any commit of an import. Each such state, copied
    // and imported again, ends exactly as one clean import does: every call (open ones included), turn, flag
    // and count.
    void resumingAfterAnyCommitEqualsAClean()
    {
        QTemporaryDir dir;
        const QString source = dir.filePath(QStringLiteral("generated.sqlite"));
        RoomKitStoreGenerator::write(source, 6000, 4, 0.8, 7);
        const QString cleanPath = dir.filePath(QStringLiteral("clean.sightline"));
        Workspace clean(cleanPath);
        Importer::import(clean, source);
        QSqlQuery open = clean.exec(QStringLiteral("SELECT count(*) FROM tool_calls WHERE pairing = 'start_only'"));
        QVERIFY(open.next());
        QVERIFY2(open.value(0).toInt() > 10, "the store has calls never answered"); // what a kill used to lose

        const QString batchedPath = dir.filePath(QStringLiteral("batched.sightline"));
        QStringList snapshots;
        {
            Workspace batched(batchedPath);
            ImportOptions options;
            options.batchRows = 250;
            options.progress = [&](qint64, qint64) {
                // Called right after a commit: the files are what a process killed now leaves behind.
                const QString copy = dir.filePath(QStringLiteral("killed-%1.sightline").arg(snapshots.size()));
                QVERIFY(QFile::copy(batchedPath, copy));
                if (QFile::exists(batchedPath + QStringLiteral("-wal")))
                    QVERIFY(QFile::copy(batchedPath + QStringLiteral("-wal"), copy + QStringLiteral("-wal")));
                snapshots << copy;
            };
            Importer::import(batched, source, options);
        }
        QVERIFY(snapshots.size() > 20);
        for (const QString& snapshot : snapshots) {
            Workspace resumed(snapshot);
            Importer::import(resumed, source);
            compareDerived(resumed, clean);
            if (QTest::currentTestFailed())
                QFAIL(qPrintable(QStringLiteral("resuming %1 differs").arg(QFileInfo(snapshot).fileName())));
        }
    }

    // The room a user asks for while a store imports is read next: the room being read stops after its batch, the
    // asked one is read, and the interrupted one resumes after it; a second request while the first is read is
    // followed the same way. The workspace ends as one clean import's, every room in the report once.
    void aRoomAskedForIsReadNext()
    {
        QTemporaryDir dir;
        const QString source = dir.filePath(QStringLiteral("generated.sqlite"));
        RoomKitStoreGenerator::write(source, 30000, 6, 0.7, 13);
        Workspace clean(dir.filePath(QStringLiteral("clean.sightline")));
        Importer::import(clean, source);
        RoomSummaries rooms = clean.rooms();
        std::sort(rooms.begin(), rooms.end(),
            [](const RoomSummary& a, const RoomSummary& b) { return a.eventCount > b.eventCount; });
        const QString biggest = rooms.first().nativeId;
        const QString smallest = rooms.last().nativeId; // the last the biggest-first order would reach
        const QString second = rooms.at(rooms.size() - 2).nativeId;
        QVERIFY(rooms.last().eventCount > 1000); // more than a first batch: it is interrupted in its turn

        Workspace ws(dir.filePath(QStringLiteral("asked.sightline")));
        ImportOptions options;
        options.batchRows = 500;
        qint64 wanted = 0;
        QStringList started;
        qint64 biggestAtRequest = -1;
        qint64 biggestWhenServed = -1;
        int commits = 0;
        const auto idOf = [&](const QString& nativeId) { return ws.findRooms(nativeId).value(0); };
        const auto eventsOf = [&](const QString& nativeId) {
            QSqlQuery q = ws.exec(QStringLiteral("SELECT event_count FROM rooms WHERE native_id = ?"), { nativeId });
            return q.next() ? q.value(0).toLongLong() : -1;
        };
        options.wantedRoom = [&] { return wanted; };
        options.progress = [&](qint64, qint64) {
            // The user clicks the smallest room while the biggest is being read.
            if (++commits == 4) {
                wanted = idOf(smallest);
                biggestAtRequest = eventsOf(biggest);
            }
        };
        options.roomStarted = [&](qint64 roomId) {
            const QString room = ws.room(roomId)->nativeId;
            if (room == smallest && biggestWhenServed < 0) {
                biggestWhenServed = eventsOf(biggest);
                // And then another room, while the first one asked is read.
                wanted = idOf(second);
            }
            started << room;
        };
        const ImportReport report = Importer::import(ws, source, options);
        QVERIFY(started.size() >= 5);
        QCOMPARE(started.mid(0, 5), QStringList({ biggest, smallest, second, smallest, biggest }));
        // Served at the next batch: the biggest room had at most one batch more written after the click.
        QVERIFY(biggestAtRequest > 0);
        QVERIFY2(biggestWhenServed - biggestAtRequest <= options.batchRows,
            qPrintable(QStringLiteral("%1 rows after the request").arg(biggestWhenServed - biggestAtRequest)));
        QCOMPARE(started.count(biggest), 2);
        QCOMPARE(report.rooms.size(), rooms.size()); // each room once, however many turns it was read in
        QCOMPARE(report.added(), eventsIn(rooms));
        QCOMPARE(report.roomsNotRead, 0);
        compareDerived(ws, clean);
    }

    // A room asked for alone (a command's --room on a store never seen) is read alone: every other room is listed
    // with its source's count and "not read yet", and a later whole import ends as one clean import does.
    void aRoomAskedForAloneIsReadAlone()
    {
        QTemporaryDir dir;
        const QString source = dir.filePath(QStringLiteral("generated.sqlite"));
        RoomKitStoreGenerator::write(source, 20000, 5, 0.8, 17);
        Workspace clean(dir.filePath(QStringLiteral("clean.sightline")));
        Importer::import(clean, source);
        const RoomSummaries rooms = clean.rooms();
        const RoomSummary asked = rooms.at(3);

        // From the command line, as a user types it, with a cache of its own.
        const QString cache = dir.filePath(QStringLiteral("cache"));
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_CACHE_HOME"), cache);
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(SIGHTLINE_BINARY),
            { QStringLiteral("events"), source, QStringLiteral("--room"), asked.nativeId, QStringLiteral("--count") });
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QCOMPARE(p.readAllStandardOutput().trimmed(), QByteArray::number(asked.eventCount));

        qputenv("XDG_CACHE_HOME", cache.toUtf8());
        const QString cached = Importer::cachedWorkspacePath(source);
        qunsetenv("XDG_CACHE_HOME");
        QVERIFY(QFile::exists(cached));
        {
            Workspace ws(cached);
            const RoomSummaries listed = ws.rooms();
            QCOMPARE(listed.size(), rooms.size());
            for (const RoomSummary& r : listed) {
                const auto want = std::find_if(rooms.cbegin(), rooms.cend(),
                    [&](const RoomSummary& c) { return c.nativeId == r.nativeId; });
                QVERIFY(want != rooms.cend());
                if (r.nativeId == asked.nativeId) {
                    QCOMPARE(r.eventCount, asked.eventCount);
                    QCOMPARE(r.unread, 0);
                    QCOMPARE(r.toolCalls, asked.toolCalls);
                } else {
                    QVERIFY(r.notReadYet());
                    QCOMPARE(r.eventCount, 0);
                    QCOMPARE(r.sourceEvents(), want->eventCount); // the source's count, never 0
                }
            }
        }
        // `rooms` lists them all at once, with the source's counts and whether each is read.
        QProcess list;
        list.setProcessEnvironment(env);
        list.start(QStringLiteral(SIGHTLINE_BINARY), { QStringLiteral("rooms"), source, QStringLiteral("--json") });
        QVERIFY(list.waitForFinished(60000));
        QCOMPARE(list.exitCode(), 0);
        int lines = 0;
        for (const QByteArray& line : list.readAllStandardOutput().split('\n')) {
            if (line.isEmpty())
                continue;
            ++lines;
            const QJsonObject o = QJsonDocument::fromJson(line).object();
            const QString id = o.value(QLatin1String("id")).toString();
            const auto want = std::find_if(
                rooms.cbegin(), rooms.cend(), [&](const RoomSummary& c) { return c.nativeId == id; });
            QVERIFY2(want != rooms.cend(), line.constData());
            QCOMPARE(o.value(QLatin1String("source_events")).toInteger(), want->eventCount);
            QCOMPARE(o.value(QLatin1String("read")).toString(),
                id == asked.nativeId ? QStringLiteral("whole") : QStringLiteral("no"));
            if (id != asked.nativeId) { // not known before it is read: null, not 0
                QVERIFY(o.value(QLatin1String("tool_calls")).isNull());
                QVERIFY(o.value(QLatin1String("event_count")).isNull());
            }
        }
        QCOMPARE(lines, rooms.size());

        // A later whole import reads the rest: the workspace of one clean import.
        Workspace ws(cached);
        const ImportReport rest = Importer::import(ws, source);
        QCOMPARE(rest.added(), eventsIn(rooms) - asked.eventCount);
        compareDerived(ws, clean);
    }

    // An import killed (SIGKILL) while the user switches from room to room, and run again, ends as one clean
    // import does: a room interrupted for another resumes from its cursor like any killed import.
    void killedWhileSwitchingRoomsResumesToTheSame()
    {
        QTemporaryDir dir;
        const QString source = dir.filePath(QStringLiteral("generated.sqlite"));
        RoomKitStoreGenerator::write(source, 12000, 6, 0.6, 19);
        Workspace clean(dir.filePath(QStringLiteral("clean.sightline")));
        Importer::import(clean, source);
        QStringList ids;
        for (const RoomSummary& r : clean.rooms())
            ids << r.nativeId;
        const qint64 cleanTotal = eventsIn(clean.rooms());
        QRandomGenerator random(20261205);
        int killedMidway = 0;
        for (int round = 0; round < 6; ++round) {
            const QString path = dir.filePath(QStringLiteral("switched-%1.sightline").arg(round));
            const quint32 seed = random.generate();
            const pid_t child = fork();
            if (child == 0) {
                try {
                    Workspace ws(path);
                    QRandomGenerator rooms(seed);
                    qint64 wanted = 0;
                    ImportOptions options;
                    options.batchRows = 64;
                    options.wantedRoom = [&] { return wanted; };
                    // A click on another room every few batches.
                    options.progress = [&](qint64, qint64) {
                        if (rooms.bounded(4) == 0)
                            wanted = ws.findRooms(ids.at(int(rooms.bounded(ids.size())))).value(0);
                    };
                    Importer::import(ws, source, options);
                } catch (...) {
                    _exit(1);
                }
                _exit(0);
            }
            QTest::qWait(int(random.bounded(50, 1500)));
            ::kill(child, SIGKILL);
            int status = 0;
            ::waitpid(child, &status, 0);
            if (!WIFSIGNALED(status))
                continue;
            Workspace resumed(path);
            QSqlQuery q = resumed.exec(QStringLiteral("SELECT coalesce(sum(event_count), 0) FROM rooms"));
            if (q.next() && q.value(0).toLongLong() < cleanTotal)
                ++killedMidway;
            q.finish();
            // What a killed import leaves says what it holds: each room's rows, blocked rows and calls by outcome
            // (they were the first batch's until the room was read to its end).
            const QStringList figures = dump(resumed,
                QStringLiteral("SELECT r.native_id, r.event_count, r.blocked_count, r.tool_calls, r.failed, r.refused, "
                               "r.unserved FROM rooms r ORDER BY 1"));
            const QStringList counted = dump(resumed,
                QStringLiteral("SELECT r.native_id, (SELECT count(*) FROM events e WHERE e.room_id = r.id), (SELECT "
                               "count(*) FROM events e WHERE e.room_id = r.id AND e.blocked = 1), (SELECT count(*) FROM "
                               "tool_calls c WHERE c.room_id = r.id), (SELECT count(*) FROM tool_calls c WHERE c.room_id "
                               "= r.id AND c.outcome = 'failed'), (SELECT count(*) FROM tool_calls c WHERE c.room_id = "
                               "r.id AND c.outcome = 'refused'), (SELECT count(*) FROM tool_calls c WHERE c.room_id = "
                               "r.id AND c.outcome = 'unserved') FROM rooms r ORDER BY 1"));
            QCOMPARE(figures, counted);
            Importer::import(resumed, source);
            compareDerived(resumed, clean);
            if (QTest::currentTestFailed())
                QFAIL(qPrintable(QStringLiteral("round %1 differs").arg(round)));
        }
        QVERIFY2(killedMidway > 0, "no kill landed before the import's end");
    }

    // The same with a real kill: `sightline import` killed with SIGKILL at random moments, again and again, then
    // run to its end, gives the workspace one clean import gives.
    void killedImportsResumeToTheSame()
    {
        QTemporaryDir dir;
        const QString source = dir.filePath(QStringLiteral("generated.sqlite"));
        RoomKitStoreGenerator::write(source, 60000, 5, 0.9, 11);
        const QString cleanPath = dir.filePath(QStringLiteral("clean.sightline"));
        auto runImport = [&](const QString& workspace, int killAfterMs) {
            QProcess p;
            p.start(QStringLiteral(SIGHTLINE_BINARY), { QStringLiteral("import"), source, QStringLiteral("-o"), workspace });
            if (!p.waitForStarted())
                return -1;
            if (killAfterMs >= 0 && !p.waitForFinished(killAfterMs)) {
                p.kill(); // SIGKILL: no handler runs, the transaction in flight is simply lost
                p.waitForFinished();
                return 1;
            }
            p.waitForFinished(120000);
            return 0;
        };
        QElapsedTimer timer;
        timer.start();
        QCOMPARE(runImport(cleanPath, -1), 0);
        const int cleanMs = int(timer.elapsed());
        auto eventsIn = [](const QString& path) {
            Workspace ws(path);
            QSqlQuery q = ws.exec(QStringLiteral("SELECT coalesce(sum(event_count), 0) FROM rooms"));
            return q.next() ? q.value(0).toLongLong() : -1;
        };
        const qint64 total = eventsIn(cleanPath);
        QRandomGenerator random(20261201);
        const QString killedPath = dir.filePath(QStringLiteral("killed.sightline"));
        int killedMidway = 0;
        for (int round = 0; round < 4; ++round) {
            runImport(killedPath, int(cleanMs * (0.1 + 0.6 * random.generateDouble())));
            if (QFile::exists(killedPath) && eventsIn(killedPath) < total)
                ++killedMidway;
        }
        QVERIFY2(killedMidway > 0, "no kill landed before the import's end");
        QCOMPARE(runImport(killedPath, -1), 0);
        {
            Workspace clean(cleanPath);
            Workspace resumed(killedPath);
            compareDerived(resumed, clean);
        }

        // The store replaced at its path by another run's (the same rooms, other events): the sync that reads it again
        // from the start, killed at random moments, then run to its end, is the clean import of the new store.
        const QString other = dir.filePath(QStringLiteral("rerun.sqlite"));
        RoomKitStoreGenerator::write(other, 60000, 5, 0.9, 29);
        QVERIFY(QFile::remove(source));
        QVERIFY(QFile::rename(other, source));
        const QString cleanAgain = dir.filePath(QStringLiteral("clean-again.sightline"));
        QCOMPARE(runImport(cleanAgain, -1), 0);
        for (int round = 0; round < 3; ++round)
            runImport(killedPath, int(cleanMs * (0.1 + 0.6 * random.generateDouble())));
        QCOMPARE(runImport(killedPath, -1), 0);
        Workspace clean(cleanAgain);
        Workspace resumed(killedPath);
        compareDerived(resumed, clean);
    }

    // A workspace holds copies of customer conversations: the cache folders are their owner's alone, and a
    // workspace with its -wal and -shm files is readable by its owner only (they were readable by all).
    void workspacesAreTheirOwnersAlone()
    {
        QTemporaryDir dir;
        const QString source = copyFixture(dir, QStringLiteral("roomkit/support.sqlite"));
        const QString cached = Importer::cachedWorkspacePath(source);
        const auto ownerOnlyDir = QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner;
        const auto owner = QFileDevice::ReadOwner | QFileDevice::WriteOwner;
        auto mode = [](const QString& path) {
            // Owner, group and other bits, as `ls -l` shows them (the user bits repeat the owner's).
            return QFile::permissions(path) & QFileDevice::Permissions(0x7077);
        };
        const QString cache = QFileInfo(QFileInfo(cached).path()).path();
        QCOMPARE(mode(QFileInfo(cached).path()), ownerOnlyDir);
        QCOMPARE(mode(cache), ownerOnlyDir);
        {
            Workspace ws(cached);
            Importer::import(ws, source);
            for (const char* suffix : { "", "-wal", "-shm" }) {
                QVERIFY2(QFile::exists(cached + QLatin1String(suffix)), suffix);
                QCOMPARE(mode(cached + QLatin1String(suffix)), owner);
            }
        }
        // One an older Sightline left readable by all is closed to others when it is used next.
        QVERIFY(QFile::setPermissions(cached, owner | QFileDevice::ReadGroup | QFileDevice::ReadOther));
        QCOMPARE(Importer::cachedWorkspacePath(source), cached);
        QCOMPARE(mode(cached), owner);

        // Written elsewhere (import -o), a workspace is no more open than its sources.
        const QString shared = copyFixture(dir, QStringLiteral("roomkit/edge_cases.sqlite"));
        QVERIFY(QFile::setPermissions(source, owner | QFileDevice::ReadGroup));
        QVERIFY(QFile::setPermissions(shared, owner | QFileDevice::ReadGroup | QFileDevice::ReadOther));
        QCOMPARE(Importer::workspaceMode({ source, shared }), owner | QFileDevice::ReadGroup);
        QCOMPARE(Importer::workspaceMode({ shared }), owner | QFileDevice::ReadGroup | QFileDevice::ReadOther);
        QVERIFY(QFile::setPermissions(shared, owner));
        QCOMPARE(Importer::workspaceMode({ source, shared }), owner);
        QProcess p;
        const QString out = dir.filePath(QStringLiteral("team.sightline"));
        QVERIFY(QFile::setPermissions(shared, owner | QFileDevice::ReadGroup));
        p.start(QStringLiteral(SIGHTLINE_BINARY), { QStringLiteral("import"), source, shared, QStringLiteral("-o"), out });
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QCOMPARE(mode(out), owner | QFileDevice::ReadGroup);
    }

    // Two imports into one workspace at once (two windows, a window and a script): one imports, the other says
    // who holds the workspace; neither fails in the middle of making it, and the workspace is a clean import's.
    // A process killed between making the import's lock file and writing its name in it leaves a lock that names
    // nobody: it must not hold the workspace for ever (a kill test once found every later import refused, "process
    // 0"). A fresh one is given a moment to name its owner first.
    void aLockThatNamesNobody()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("w.sightline"));
        Workspace ws(path);
        QFile lock(ImportLock::lockPath(path));
        QVERIFY(lock.open(QIODevice::WriteOnly));
        lock.close();
        QVERIFY(lock.open(QIODevice::ReadWrite));
        QVERIFY(lock.setFileTime(QDateTime::currentDateTime().addSecs(-5), QFileDevice::FileModificationTime));
        lock.close();
        const ImportReport report = Importer::import(ws, dataFile(QStringLiteral("roomkit/support.sqlite")));
        QCOMPARE(report.added(), 113);
    }

    // The import lock is the kernel's, so it dies with its process. A process killed while it takes or leaves the
    // lock, at any moment, never leaves the workspace refused: CI once found every import refused for half a
    // minute after a kill test ("another Sightline (process N) is importing", N long dead), QLockFile having been
    // killed inside its own stale-lock removal. A live holder is named.
    void aLockDiesWithItsProcess()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("w.sightline"));
        {
            const ImportLock held(path);
            try {
                const ImportLock second(path);
                QFAIL("a second import took a lock that is held");
            } catch (const WorkspaceBusy& e) {
                const QString message = e.toString();
                QVERIFY2(message.startsWith(path + QStringLiteral(": another Sightline (process %1 on ").arg(QCoreApplication::applicationPid())),
                    qPrintable(message));
            }
        }
        QVERIFY(!QFile::exists(ImportLock::lockPath(path)));
        // What the kill in CI left: the lock of a dead process, and QLockFile's own lock for removing it, empty.
        const pid_t dead = fork();
        if (dead == 0)
            _exit(0);
        ::waitpid(dead, nullptr, 0);
        QFile stale(ImportLock::lockPath(path));
        QVERIFY(stale.open(QIODevice::WriteOnly));
        stale.write(QByteArray::number(qint64(dead)) + "\ntst_roomkitimport\n" + QSysInfo::machineHostName().toUtf8() + "\n");
        stale.close();
        QFile removing(ImportLock::lockPath(path) + QStringLiteral(".rmlock"));
        QVERIFY(removing.open(QIODevice::WriteOnly));
        removing.close();
        try {
            const ImportLock lock(path);
        } catch (const StoreError& e) {
            QFAIL(qPrintable(e.toString()));
        }
        for (int round = 0; round < 300; ++round) {
            const pid_t child = fork();
            if (child == 0) {
                for (;;) {
                    try {
                        const ImportLock lock(path);
                    } catch (...) {
                    }
                }
            }
            ::usleep(useconds_t(QRandomGenerator::global()->bounded(0, 3000)));
            ::kill(child, SIGKILL);
            ::waitpid(child, nullptr, 0);
            try {
                const ImportLock lock(path);
            } catch (const StoreError& e) {
                QFAIL(qPrintable(QStringLiteral("round %1: %2").arg(round).arg(e.toString())));
            }
        }
    }

    void twoImportsAtOnce()
    {
        QTemporaryDir dir;
        const QString source = dir.filePath(QStringLiteral("generated.sqlite"));
        RoomKitStoreGenerator::write(source, 20000, 3, 0.8, 5);
        for (int round = 0; round < 3; ++round) {
            const QString shared = dir.filePath(QStringLiteral("shared-%1.sightline").arg(round));
            QProcess first;
            QProcess second;
            for (QProcess* p : { &first, &second })
                p->start(QStringLiteral(SIGHTLINE_BINARY), { QStringLiteral("import"), source, QStringLiteral("-o"), shared });
            int succeeded = 0;
            for (QProcess* p : { &first, &second }) {
                QVERIFY(p->waitForFinished(120000));
                const QString err = QString::fromUtf8(p->readAllStandardError());
                if (p->exitCode() == 0) {
                    ++succeeded;
                    continue;
                }
                QCOMPARE(p->exitCode(), 1);
                QVERIFY2(err.contains(QLatin1String("another Sightline")) && err.contains(shared), qPrintable(err));
            }
            QVERIFY(succeeded >= 1);
            Workspace clean(dir.filePath(QStringLiteral("clean-%1.sightline").arg(round)));
            Importer::import(clean, source);
            Workspace ws(shared);
            compareDerived(ws, clean);
            if (QTest::currentTestFailed())
                return;
        }
    }

    void cancelKeepsWhatWasCommitted()
    {
        QTemporaryDir dir;
        Workspace ws(dir.filePath(QStringLiteral("cancel.sightline")));
        std::atomic<bool> cancel { false };
        ImportOptions options;
        options.batchRows = 50;
        options.isCancelled = [&cancel] { return cancel.load(); };
        int progressCalls = 0;
        options.progress = [&](qint64 done, qint64 total) {
            ++progressCalls;
            QCOMPARE(total, 732);
            QVERIFY(done <= total);
            if (done >= 100)
                cancel.store(true);
        };
        const QString source = dataFile(QStringLiteral("roomkit/many_rooms.sqlite"));
        const ImportReport partial = Importer::import(ws, source, options);
        QVERIFY(partial.cancelled);
        QVERIFY(partial.added() >= 100);
        QVERIFY(partial.added() < 732);
        QVERIFY(progressCalls >= 2);
        // The next import resumes where the cancelled one stopped, and ends with every row; its progress goes on
        // from there too.
        ImportOptions resumed;
        std::optional<std::pair<qint64, qint64>> firstProgress;
        resumed.progress = [&](qint64 done, qint64 total) {
            if (!firstProgress)
                firstProgress = { done, total };
        };
        const ImportReport rest = Importer::import(ws, source, resumed);
        QVERIFY(firstProgress);
        QCOMPARE(firstProgress->second, 732);
        QVERIFY2(firstProgress->first >= partial.added(), qPrintable(QString::number(firstProgress->first)));
        QVERIFY(!rest.cancelled);
        QCOMPARE(partial.added() + rest.added(), 732);
        qint64 total = 0;
        for (const RoomSummary& r : ws.rooms())
            total += r.eventCount;
        QCOMPARE(total, 732);
    }
};

QTEST_GUILESS_MAIN(TestRoomKitImport)
#include "tst_roomkitimport.moc"
