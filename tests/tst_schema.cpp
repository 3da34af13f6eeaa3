// The workspace's own schema (user_version, application_id, forward migrations) and RoomKit's schema
// versions 1 to 3 as sources.

#include "eventquery.h"
#include "schema.h"
#include "sqlitelibrary.h"
#include "sqlitestatement.h"
#include "sources/importer.h"
#include "storeerror.h"
#include "testsupport.h"
#include "textpacker.h"
#include "workspace.h"

#include <functional>
#include <QDate>
#include <QFile>
#include <QSemaphore>
#include <QThread>
#include <sqlite3.h>
#include <QProcess>
#include <QJsonDocument>
#include <QSqlError>
#include <QRegularExpression>
#include <QSqlQuery>
#include <QTest>
#include <unistd.h>
#include <sys/wait.h>
#include <csignal>
#include <QRandomGenerator>
#include <QElapsedTimer>

using namespace TestSupport;


namespace {

// Every row of every room, blocked ones too, as "room index " and what `fields` says of it: what a test compares of
// two workspaces.
QStringList everyRow(Workspace& ws, const std::function<QString(const EventRecord&)>& fields)
{
    QStringList out;
    EventFilter all;
    all.includeBlocked = true;
    for (const RoomSummary& r : ws.rooms()) {
        for (const EventRecord& e : ws.listEvents(r.id, all, { 100000, 0 }))
            out << QStringLiteral("%1 %2 ").arg(r.nativeId).arg(e.index) + fields(e);
    }
    return out;
}

// A row's words (schema step 26).
QString words(const EventRecord& e)
{
    return QStringList { e.type, EventKinds::name(e.kind), e.role, e.toolName }.join(QLatin1Char(' '));
}

} // namespace

class TestSchema : public QObject
{
    Q_OBJECT
private slots:
    void newWorkspace()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("new.sightline"));
        {
            Workspace ws(path);
            QCOMPARE(ws.schemaVersion(), Schema::latestVersion());
            QSqlQuery q = ws.exec(QStringLiteral("PRAGMA application_id"));
            QVERIFY(q.next());
            QCOMPARE(q.value(0).toInt(), Schema::ApplicationId);
            q = ws.exec(QStringLiteral("PRAGMA journal_mode"));
            QVERIFY(q.next());
            QCOMPARE(q.value(0).toString(), QStringLiteral("wal"));
            for (const char* table : { "sources", "rooms", "events", "tool_calls", "events_fts" }) {
                q = ws.exec(
                    QStringLiteral("SELECT count(*) FROM sqlite_master WHERE name = ?"), { QLatin1String(table) });
                QVERIFY(q.next());
                QVERIFY2(q.value(0).toInt() == 1, table);
            }
        }
        QCOMPARE(Importer::detect(path), Importer::Format::Workspace);
    }

    // A workspace left at any older version opens by running the steps it has not seen, keeping its data.
    void migratesFromEachOlderVersion_data()
    {
        QTest::addColumn<int>("from");
        for (int v = 0; v < Schema::latestVersion(); ++v)
            QTest::addRow("v%d", v) << v;
    }

    void migratesFromEachOlderVersion()
    {
        QFETCH(int, from);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("old.sightline"));
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("old"));
            db.setDatabaseName(path);
            QVERIFY(db.open());
            // Step 13 packs with pack(), a function every Workspace connection has.
            TextPacker packer(nativeSqliteHandle(db));
            packer.registerFunctions();
            Schema::migrate(db, path, from);
            if (from == 0)
                QSqlQuery(db).exec(QStringLiteral("PRAGMA application_id = %1").arg(Schema::ApplicationId));
            db.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("old"));
        Workspace ws(path);
        QCOMPARE(ws.schemaVersion(), Schema::latestVersion());
        Importer::import(ws, dataFile(QStringLiteral("roomkit/support.sqlite")));
        QCOMPARE(ws.rooms().size(), 8);
    }

    // A workspace written by schema 1 gets groups, tool arguments and results, and AI responses backfilled
    // from its payloads: the same as a fresh import derives.
    void version1DataIsBackfilled()
    {
        QTemporaryDir dir;
        const QString fresh = dir.filePath(QStringLiteral("fresh.sightline"));
        const QString old = dir.filePath(QStringLiteral("v1.sightline"));
        {
            Workspace ws(fresh);
            Importer::import(ws, dataFile(QStringLiteral("roomkit/edge_cases.sqlite")));
        }
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("v1"));
            db.setDatabaseName(old);
            QVERIFY(db.open());
            Schema::migrate(db, old, 1);
            // Schema 1 kept every payload as it came: the fresh one's packed payloads are copied unpacked.
            TextPacker packer(nativeSqliteHandle(db));
            packer.registerFunctions();
            QSqlQuery q(db);
            QVERIFY(q.exec(QStringLiteral("ATTACH DATABASE '%1' AS fresh").arg(fresh)));
            const char* const copies[] = {
                "INSERT INTO sources SELECT id, system, format, origin, schema_version, first_import_ms, last_sync_ms, "
                "import_notes FROM fresh.sources",
                "INSERT INTO rooms SELECT id, source_id, native_id, title, status, organization_id, created_us, "
                "native_json, "
                "details_json, synced_seq, event_count, blocked_count, tool_calls, failed, refused, unserved, "
                "first_us, "
                "last_us FROM fresh.rooms",
                // Types, kinds and roles as names, as schema 1 kept them (step 26 keeps them as words' codes).
                "INSERT INTO events SELECT id, room_id, seq, native_id, (SELECT name FROM fresh.words WHERE code = type), "
                "(SELECT name FROM fresh.words WHERE code = kind), status, blocked, blocked_by, channel_id, "
                "channel_type, participant_id, correlation_id, parent_id, created_us, (SELECT name FROM fresh.words WHERE "
                "code = role), (SELECT name FROM fresh.words WHERE code = tool_name), tool_id, "
                "outcome, "
                "text, flags, unpack(payload) FROM fresh.events",
                "INSERT INTO tool_calls SELECT id, room_id, tool_name, tool_id, group_id, start_seq, end_seq, "
                "started_us, "
                "ended_us, duration_ms, duration_source, status, outcome, pairing, error FROM fresh.tool_calls",
                // The search index as it was: FTS5's own shadow tables, byte for byte.
                "DELETE FROM events_fts_data",
                "INSERT INTO events_fts_data SELECT * FROM fresh.events_fts_data",
                "DELETE FROM events_fts_idx",
                "INSERT INTO events_fts_idx SELECT * FROM fresh.events_fts_idx",
                "DELETE FROM events_fts_docsize",
                "INSERT INTO events_fts_docsize SELECT * FROM fresh.events_fts_docsize",
            };
            for (const char* sql : copies)
                QVERIFY2(q.exec(QLatin1String(sql)), qPrintable(q.lastError().text()));
            q.exec(QStringLiteral("DETACH DATABASE fresh"));
            q = QSqlQuery();
            db.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("v1"));

        Workspace migrated(old);
        QCOMPARE(migrated.schemaVersion(), Schema::latestVersion());
        Workspace expected(fresh);
        for (const RoomSummary& room : expected.rooms()) {
            const ToolCallRecords want = expected.toolCalls(room.id);
            const ToolCallRecords got = migrated.toolCalls(room.id);
            QCOMPARE(got.size(), want.size());
            for (int i = 0; i < got.size(); ++i) {
                QCOMPARE(QJsonDocument::fromJson(got[i].arguments.toUtf8()),
                    QJsonDocument::fromJson(want[i].arguments.toUtf8()));
                QCOMPARE(got[i].result, want[i].result);
                QCOMPARE(got[i].argumentsValid, want[i].argumentsValid);
                QCOMPARE(got[i].resultIndex, want[i].resultIndex);
            }
            QCOMPARE(migrated.runs(room.id).size(), expected.runs(room.id).size());
            EventFilter all;
            all.includeBlocked = true;
            const EventRecords a = migrated.listEvents(room.id, all, PageRequest { 100000, 0, false, {}, {} });
            const EventRecords b = expected.listEvents(room.id, all, PageRequest { 100000, 0, false, {}, {} });
            QCOMPARE(a.size(), b.size());
            for (int i = 0; i < a.size(); ++i) {
                QCOMPARE(a[i].groupId, b[i].groupId);
                QCOMPARE(a[i].type, b[i].type);
                QCOMPARE(a[i].kind, b[i].kind);
                QCOMPARE(a[i].role, b[i].role);
                QCOMPARE(a[i].toolName, b[i].toolName);
            }
        }
        // The search index came along unchanged.
        // The search index came along (moved by schema step 5 from the contentless index as its tokens, in order):
        // words, phrases and words that only tool arguments or results hold.
        for (const char* words : { "refund", "\"hello from my phone\"", "\"stores open\"", "order_id", "eligible" }) {
            const EventRecords got = migrated.search(0, QLatin1String(words), 1000, true);
            const EventRecords want = expected.search(0, QLatin1String(words), 1000, true);
            QVERIFY2(!want.isEmpty(), words);
            QCOMPARE(indices(got), indices(want));
        }
        migrated.exec(QStringLiteral("INSERT INTO events_fts(events_fts, rank) VALUES ('integrity-check', 1)"));
    }

    // Schema step 11: an EVENT.md's durations, written as "timestamps" before, become whole seconds; a sessions.db's
    // (stamped to the microsecond) stay figures.
    void eventMdDurationsBecomeSeconds()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("w.sightline"));
        {
            Workspace ws(path);
            Importer::import(ws, dataFile(QStringLiteral("craftbot/EVENT.md")));
            Importer::import(ws, dataFile(QStringLiteral("craftbot/sessions.db")));
        }
        // Back to the workspace as schema 10 wrote it (steps 12, 14, 17, 19, 20 and 21 added columns, 22 made two
        // indexes partial, 23 numbered message ids).
        execSql(path, undoStepsFrom22() + QStringLiteral("UPDATE tool_calls SET duration_source = 'timestamps' WHERE duration_source = "
                                     "'seconds'; ALTER TABLE rooms DROP COLUMN file_mark; ALTER TABLE rooms DROP COLUMN counted_through; ALTER TABLE rooms DROP COLUMN unread; DROP INDEX events_room_warned; ALTER TABLE events DROP COLUMN warning; DROP TABLE team; DROP INDEX annotations_team; DROP INDEX journal_team; ALTER TABLE annotations DROP COLUMN team_id; ALTER TABLE journal DROP COLUMN team_id; ALTER TABLE journal DROP COLUMN annotation_id; ALTER TABLE journal DROP COLUMN team_annotation_id; ALTER TABLE journal DROP COLUMN came_down; DROP TABLE team_redactions; ALTER TABLE redactions DROP COLUMN team_id; ALTER TABLE redactions DROP COLUMN team_digest; ALTER TABLE redactions DROP COLUMN came_down; ALTER TABLE journal DROP COLUMN edit_id; ALTER TABLE journal DROP COLUMN replaces_edit_id; DROP INDEX edits_team; ALTER TABLE edits DROP COLUMN team_id; ALTER TABLE edits DROP COLUMN came_down; DROP TABLE team_edits; PRAGMA user_version = 10;"));
        Workspace ws(path);
        QCOMPARE(ws.schemaVersion(), Schema::latestVersion());
        QSqlQuery q = ws.exec(QStringLiteral("SELECT s.format, c.duration_source, count(*) FROM tool_calls c JOIN rooms r "
                                             "ON r.id = c.room_id JOIN sources s ON s.id = r.source_id WHERE "
                                             "c.duration_source IS NOT NULL GROUP BY 1, 2 ORDER BY 1, 2"));
        QStringList got;
        while (q.next())
            got << q.value(0).toString() + QLatin1Char(' ') + q.value(1).toString();
        QCOMPARE(got, QStringList({ QStringLiteral("craftbot.event_md seconds"),
                          QStringLiteral("craftbot.sessions_db timestamps") }));
    }

    // Step 22: the blocked rows and the rows on a channel are alone in their indexes, and every filter answers as
    // before. Blocked rows only and a channel are still sought through them (SQLite, without statistics, would as
    // soon read the whole room's scan index), and an AG-UI thread, which has no channels, adds nothing to either.
    void blockedAndChannelIndexesHoldTheirRowsAlone()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("w.sightline"));
        EventFilter blocked;
        blocked.blockedOnly = true;
        EventFilter shown; // blocked rows hidden: every room's default
        struct Answers
        {
            QList<qint64> blocked, shown, channel;
            bool operator==(const Answers&) const = default;
        };
        qint64 room = 0;
        QString channel;
        const auto answers = [&](Workspace& ws) {
            Answers a;
            for (const EventRecord& e : ws.listEvents(room, blocked, { 1000, 0 }))
                a.blocked << e.index;
            for (const EventRecord& e : ws.listEvents(room, shown, { 1000, 0 }))
                a.shown << e.index;
            EventFilter on;
            on.channels = { channel };
            for (const EventRecord& e : ws.listEvents(room, on, { 1000, 0 }))
                a.channel << e.index;
            return a;
        };
        Answers before;
        {
            Workspace ws(path);
            Importer::import(ws, dataFile(QStringLiteral("roomkit/support.sqlite")));
            Importer::import(ws, dataFile(QStringLiteral("agui/threads/th_985v8nrjgmpy2gn91679.jsonl")));
            QSqlQuery q = ws.exec(QStringLiteral("SELECT room_id, max(channel_id) FROM events WHERE blocked = 1 "
                                                 "GROUP BY room_id ORDER BY count(*) DESC LIMIT 1"));
            QVERIFY(q.next());
            room = q.value(0).toLongLong();
            channel = q.value(1).toString();
            before = answers(ws);
            QVERIFY(!before.blocked.isEmpty() && !before.channel.isEmpty());
            QVERIFY(before.shown.size() > before.blocked.size());
        }
        // Back to schema 21's indexes over the same rows (and 22's message ids).
        execSql(path, undoStepsFrom22() + QStringLiteral("PRAGMA user_version = 21;"));
        Workspace ws(path);
        QCOMPARE(ws.schemaVersion(), Schema::latestVersion());
        QVERIFY(answers(ws) == before);
        const auto count = [&](const QString& sql) {
            QSqlQuery q = ws.exec(sql);
            return q.next() ? q.value(0).toLongLong() : -1;
        };
        QCOMPARE(count(QStringLiteral("SELECT count(*) FROM events INDEXED BY events_room_blocked WHERE blocked = 1")),
            count(QStringLiteral("SELECT count(*) FROM events WHERE blocked = 1")));
        QCOMPARE(count(QStringLiteral("SELECT count(*) FROM events INDEXED BY events_room_channel WHERE channel_id "
                                      "IS NOT NULL")),
            count(QStringLiteral("SELECT count(channel_id) FROM events")));
        QVERIFY(count(QStringLiteral("SELECT count(*) FROM events WHERE channel_id IS NULL")) > 0); // the thread's
        const auto plan = [&](const EventQuery& eq) {
            QSqlQuery q = ws.exec(QStringLiteral("EXPLAIN QUERY PLAN ") + eq.sql, eq.binds);
            QStringList steps;
            while (q.next())
                steps << q.value(3).toString();
            return steps.join(QLatin1Char('\n'));
        };
        EventFilter on;
        on.channels = { channel };
        QVERIFY2(plan(EventQuery::rowIndex(room, blocked)).contains(QLatin1String("events_room_blocked")),
            qPrintable(plan(EventQuery::rowIndex(room, blocked))));
        QVERIFY2(plan(EventQuery::page(room, on, { 200, 0 })).contains(QLatin1String("events_room_channel")),
            qPrintable(plan(EventQuery::page(room, on, { 200, 0 }))));
    }

    // Steps 23 and 24: a message's id and a group's are kept once per room and its rows hold the room's number for
    // each. A workspace written before reads the same ids after its migration, and its rows hold the numbers a new
    // import gives: 1, 2, ... in the order the room's messages and groups first came.
    void messageAndGroupIdsAreKeptOncePerRoom()
    {
        QTemporaryDir dir;
        const QString fresh = dir.filePath(QStringLiteral("fresh.sightline"));
        const QString old = dir.filePath(QStringLiteral("old.sightline"));
        const QStringList threads { dataFile(QStringLiteral("agui/threads/maya.okafor__th_qh7rhj416fnzjz5q3vyw.jsonl")),
            dataFile(QStringLiteral("agui/threads/dev.lindqvist__th_nmhryq4wy0xyvq373sbg.jsonl")) };
        const auto rows = [](Workspace& ws) {
            return everyRow(ws, [](const EventRecord& e) -> QString { return e.messageId + QLatin1Char(' ') + e.groupId; });
        };
        const auto numbers = [](Workspace& ws) {
            QStringList out;
            QSqlQuery q = ws.exec(QStringLiteral("SELECT room_id, seq, message_id, group_id FROM events ORDER BY room_id, seq"));
            while (q.next()) {
                out << QStringLiteral("%1 %2 %3 %4").arg(q.value(0).toString(), q.value(1).toString(),
                           q.value(2).toString(), q.value(3).toString());
            }
            return out;
        };
        QStringList freshRows, freshNumbers;
        {
            Workspace ws(fresh);
            for (const QString& thread : threads)
                Importer::import(ws, thread);
            freshRows = rows(ws);
            freshNumbers = numbers(ws);
            // Each room numbers its own messages and groups from 1.
            for (const auto& [table, column] : { std::pair { "messages", "message_id" }, std::pair { "turns", "group_id" } }) {
                QSqlQuery q = ws.exec(QStringLiteral("SELECT count(*), count(DISTINCT native), min(number), max(number), "
                                                     "(SELECT count(DISTINCT %2) FROM events e WHERE e.room_id = "
                                                     "m.room_id) FROM %1 m GROUP BY room_id")
                                          .arg(QLatin1String(table), QLatin1String(column)));
                int rooms = 0;
                while (q.next()) {
                    ++rooms;
                    QVERIFY2(q.value(0).toInt() > 1, table);
                    QCOMPARE(q.value(1).toInt(), q.value(0).toInt());
                    QCOMPARE(q.value(2).toInt(), 1);
                    QCOMPARE(q.value(3).toInt(), q.value(0).toInt());
                    QCOMPARE(q.value(4).toInt(), q.value(0).toInt());
                }
                QCOMPARE(rooms, 2);
                q = ws.exec(QStringLiteral("SELECT max(length(%1)) FROM events").arg(QLatin1String(column)));
                QVERIFY(q.next());
                QVERIFY(q.value(0).toInt() <= 3);
            }
        }
        QVERIFY(freshRows.filter(QRegularExpression(QStringLiteral(" \\S+ \\S+$"))).size() > 10);
        {
            Workspace ws(old);
            for (const QString& thread : threads)
                Importer::import(ws, thread);
        }
        // As schema 22 kept them: the ids themselves on every row.
        // Step 22 undone too: what a step does not touch is as a workspace of 21 would have it.
        execSql(old, undoStepsFrom22() + QStringLiteral("PRAGMA user_version = 21;"));
        Workspace ws(old);
        QCOMPARE(ws.schemaVersion(), Schema::latestVersion());
        QCOMPARE(rows(ws), freshRows);
        QCOMPARE(numbers(ws), freshNumbers);
        // Read again, the thread changes nothing: the writer finds the room's numbers where the migration put them.
        const ImportReport again = Importer::import(ws, threads.first());
        QVERIFY2(again.problems.isEmpty(), qPrintable(again.problems.join(QLatin1Char('\n'))));
        QCOMPARE(rows(ws), freshRows);
        QCOMPARE(numbers(ws), freshNumbers);
    }

    // Step 26: an event's type, kind, role and tool's name are kept as codes of one table of words. The kinds' codes
    // are fixed (EventKinds::code); each other word is one once however many rows say it. A workspace written before
    // reads the same records after its migration, a filter by type still seeks the type index, and a type no row
    // has finds nothing and excludes nothing.
    void typesKindsAndRolesAreKeptOnceAsWords()
    {
        QTemporaryDir dir;
        const QStringList sources { dataFile(QStringLiteral("roomkit/support.sqlite")),
            dataFile(QStringLiteral("agui/threads/maya.okafor__th_qh7rhj416fnzjz5q3vyw.jsonl")),
            dataFile(QStringLiteral("craftbot/EVENT.md")) };
        const auto records = [](Workspace& ws) { return everyRow(ws, words); };
        const auto one = [](Workspace& ws, const QString& sql) {
            QSqlQuery q = ws.exec(sql);
            return q.next() ? q.value(0).toString() : QStringLiteral("(none)");
        };
        const QString fresh = dir.filePath(QStringLiteral("fresh.sightline"));
        QStringList freshRecords;
        {
            Workspace ws(fresh);
            for (const QString& source : sources)
                Importer::import(ws, source);
            freshRecords = records(ws);
            QVERIFY(freshRecords.size() > 200);
            for (const EventKind kind : { EventKind::Message, EventKind::ToolCall, EventKind::Custom }) {
                QCOMPARE(one(ws, QStringLiteral("SELECT name FROM words WHERE code = '%1'").arg(EventKinds::code(kind))),
                    EventKinds::name(kind));
            }
            // Every row holds codes, each a word of the table; the words not kinds from 16 on.
            QCOMPARE(one(ws, QStringLiteral("SELECT count(*) FROM events WHERE type NOT IN (SELECT code FROM words) OR kind "
                                            "NOT IN (SELECT code FROM words) OR role NOT IN (SELECT code FROM words) OR "
                                            "tool_name NOT IN (SELECT code FROM words)")),
                QStringLiteral("0"));
            // (A type named as a kind is, CraftBot's "error", shares its word.)
            QCOMPARE(one(ws, QStringLiteral("SELECT min(CAST(code AS INTEGER)) FROM words WHERE CAST(code AS INTEGER) > 8")),
                QStringLiteral("16"));
            QVERIFY(one(ws, QStringLiteral("SELECT max(length(type) + length(kind) + coalesce(length(role), 0) + "
                                           "coalesce(length(tool_name), 0)) FROM events")).toInt() <= 8);
            QVERIFY(one(ws, QStringLiteral("SELECT count(tool_name) FROM events")).toInt() > 50);
            QCOMPARE(one(ws, QStringLiteral("SELECT count(*) = count(DISTINCT name) FROM words")), QStringLiteral("1"));
        }
        const QString old = dir.filePath(QStringLiteral("old.sightline"));
        {
            Workspace ws(old);
            for (const QString& source : sources)
                Importer::import(ws, source);
        }
        // An empty role or tool's name (none that an import of this build writes: it writes NULL) becomes no word.
        execSql(old, undoStep26()
                + QStringLiteral("UPDATE events SET role = '', tool_name = '' WHERE id = (SELECT min(id) FROM events WHERE "
                                 "role IS NULL AND tool_name IS NULL); PRAGMA user_version = 25;"));
        QCOMPARE(Schema::fileVersion(old), 25);
        Workspace ws(old);
        QCOMPARE(ws.schemaVersion(), Schema::latestVersion());
        QCOMPARE(records(ws), freshRecords);
        QCOMPARE(one(ws, QStringLiteral("SELECT count(*) FROM events WHERE type GLOB '*[^0-9]*' OR kind GLOB '*[^0-9]*' OR "
                                        "role GLOB '*[^0-9]*' OR tool_name GLOB '*[^0-9]*' OR role = '' OR tool_name = ''")),
            QStringLiteral("0"));
        QCOMPARE(one(ws, QStringLiteral("SELECT count(*) FROM words WHERE name = ''")), QStringLiteral("0"));
        // Read again, a source changes nothing; a thread read for the first time after the migration finds the words
        // where the migration put them: no word twice, and a type the migration numbered keeps its code.
        Importer::import(ws, sources.at(1));
        QCOMPARE(records(ws), freshRecords);
        const QString resultCode = one(ws, QStringLiteral("SELECT code FROM words WHERE name = 'TOOL_CALL_RESULT'"));
        const int wordsBefore = one(ws, QStringLiteral("SELECT count(*) FROM words")).toInt();
        Importer::import(ws, dataFile(QStringLiteral("agui/threads/dev.lindqvist__th_nmhryq4wy0xyvq373sbg.jsonl")));
        QVERIFY(one(ws, QStringLiteral("SELECT count(*) FROM rooms")).toInt() > 10);
        QCOMPARE(one(ws, QStringLiteral("SELECT code FROM words WHERE name = 'TOOL_CALL_RESULT'")), resultCode);
        QCOMPARE(one(ws, QStringLiteral("SELECT count(*) = count(DISTINCT name) FROM words")), QStringLiteral("1"));
        QVERIFY(one(ws, QStringLiteral("SELECT count(*) FROM words")).toInt() >= wordsBefore);
        const qint64 other = ws.findRooms(QStringLiteral("dev.lindqvist__th_nmhryq4wy0xyvq373sbg")).value(0);
        QVERIFY(other > 0);
        EventFilter answers;
        answers.types = { QStringLiteral("TOOL_CALL_RESULT") };
        QVERIFY(!ws.listEvents(other, answers, { 10, 0 }).isEmpty());
        // A filter by type seeks the type index; a type no row has finds nothing, and excluding it excludes nothing.
        const qint64 room = ws.findRooms(QStringLiteral("maya.okafor__th_qh7rhj416fnzjz5q3vyw")).value(0);
        QVERIFY(room > 0);
        EventFilter typed;
        typed.types = { QStringLiteral("TOOL_CALL_RESULT") };
        const EventQuery eq = EventQuery::page(room, typed, { 200, 0 });
        QSqlQuery plan = ws.exec(QStringLiteral("EXPLAIN QUERY PLAN ") + eq.sql, eq.binds);
        QStringList steps;
        while (plan.next())
            steps << plan.value(3).toString();
        QVERIFY2(steps.join(QLatin1Char('\n')).contains(QLatin1String("events_room_type_seq")), qPrintable(steps.join(QLatin1Char('\n'))));
        const EventRecords results = ws.listEvents(room, typed, { 1000, 0 });
        QVERIFY(!results.isEmpty());
        for (const EventRecord& e : results)
            QCOMPARE(e.type, QStringLiteral("TOOL_CALL_RESULT"));
        EventFilter none;
        none.types = { QStringLiteral("NO_SUCH_TYPE") };
        QVERIFY(ws.listEvents(room, none, { 10, 0 }).isEmpty());
        EventFilter notNone;
        notNone.excludeTypes = { QStringLiteral("NO_SUCH_TYPE") };
        EventFilter plain;
        QCOMPARE(ws.listEvents(room, notNone, { 100000, 0 }).size(), ws.listEvents(room, plain, { 100000, 0 }).size());
        EventFilter twoKinds;
        twoKinds.kinds = { QStringLiteral("tool_call"), QStringLiteral("message") };
        twoKinds.excludeTypes = { QStringLiteral("TOOL_CALL_RESULT") };
        const EventRecords kindsShown = ws.listEvents(room, twoKinds, { 100000, 0 });
        QVERIFY(!kindsShown.isEmpty());
        for (const EventRecord& e : kindsShown) {
            QVERIFY(e.kind == EventKind::ToolCall || e.kind == EventKind::Message);
            QVERIFY(e.type != QLatin1String("TOOL_CALL_RESULT"));
        }
        // A search hit on a row without text says its tool's name.
        const qint64 quiet = one(ws, QStringLiteral("SELECT min(e.seq) FROM events e JOIN search_text s ON s.event_id = e.id "
                                                    "WHERE e.room_id = %1 AND e.tool_name = (SELECT code FROM words WHERE "
                                                    "name = 'fetch_url') AND unpack(s.arguments) LIKE '%https%'").arg(room)).toLongLong();
        QVERIFY(quiet > 0);
        ws.exec(QStringLiteral("UPDATE events SET text = NULL WHERE room_id = ? AND seq = ?"), { room, quiet });
        bool found = false;
        for (const SearchHit& hit : ws.searchRooms(QStringLiteral("https"), 100000, true)) {
            if (hit.roomId == room && hit.index == quiet) {
                QCOMPARE(hit.text, QStringLiteral("fetch_url"));
                found = true;
            }
        }
        QVERIFY(found);
        // A tool by its name, and the panes' tools named.
        EventFilter tooled;
        tooled.tools = { QStringLiteral("fetch_url") };
        const EventRecords fetches = ws.listEvents(room, tooled, { 100000, 0 });
        QVERIFY(!fetches.isEmpty());
        for (const EventRecord& e : fetches)
            QCOMPARE(e.toolName, QStringLiteral("fetch_url"));
        const FacetCounts panes = ws.facets(room, {}, 10, 100);
        QVERIFY(panes.count(QStringLiteral("tool"), QStringLiteral("fetch_url")) > 0);
        QCOMPARE(panes.count(QStringLiteral("kind"), QStringLiteral("tool_call")), ws.listEvents(room, [] {
            EventFilter calls;
            calls.kinds = { QStringLiteral("tool_call") };
            return calls;
        }(), { 100000, 0 }).size());
    }

    // An upgrade killed at any moment (SIGKILL, while step 26 rewrites every row of a workspace of schema 25) leaves
    // the workspace as it was, and the next open upgrades it to what an uninterrupted upgrade makes: every step runs in
    // one transaction.
    void anUpgradeKilledAtAnyMomentIsNothingOrWhole()
    {
        QTemporaryDir dir;
        const QString old = dir.filePath(QStringLiteral("old.sightline"));
        {
            Workspace ws(old);
            for (const char* source : { "roomkit/support.sqlite", "craftbot/EVENT.md",
                     "agui/threads/maya.okafor__th_qh7rhj416fnzjz5q3vyw.jsonl" })
                Importer::import(ws, dataFile(QLatin1String(source)));
        }
        execSql(old, undoStep26() + QStringLiteral("PRAGMA user_version = 25;"));
        const auto records = [](Workspace& ws) { return everyRow(ws, words); };
        const QString path = dir.filePath(QStringLiteral("w.sightline"));
        const auto copyOld = [&] {
            for (const char* suffix : { "", "-wal", "-shm" })
                QFile::remove(path + QLatin1String(suffix));
            QVERIFY(QFile::copy(old, path));
        };
        // An upgrade left alone: what every killed one must come to, and how long it takes (the kills fall around it).
        copyOld();
        QStringList whole;
        qint64 upgradeMs = 0;
        {
            QElapsedTimer took;
            took.start();
            Workspace ws(path);
            upgradeMs = took.elapsed();
            QCOMPARE(ws.schemaVersion(), Schema::latestVersion());
            whole = records(ws);
            QVERIFY(whole.size() > 300);
        }
        int killed = 0;
        int leftOld = 0;
        for (int round = 0; round < 10; ++round) {
            copyOld();
            const pid_t child = fork();
            if (child == 0) {
                try { // never back into the test (see importKilledMidway)
                    Workspace ws(path);
                } catch (...) {
                    _exit(1);
                }
                _exit(0);
            }
            // Every other round within the upgrade's own time, the others around it (killed after its commit too).
            const qint64 within = round % 2 == 0 ? upgradeMs + 1 : 3 * upgradeMs + 10;
            QTest::qWait(int(QRandomGenerator::global()->bounded(qint64(0), within)));
            kill(child, SIGKILL);
            int status = 0;
            waitpid(child, &status, 0);
            killed += WIFSIGNALED(status) ? 1 : 0;
            leftOld += Schema::fileVersion(path) == 25 ? 1 : 0;
            Workspace ws(path);
            QCOMPARE(ws.schemaVersion(), Schema::latestVersion());
            QCOMPARE(records(ws), whole);
            QSqlQuery check = ws.exec(QStringLiteral("PRAGMA integrity_check"));
            QVERIFY(check.next());
            QCOMPARE(check.value(0).toString(), QStringLiteral("ok"));
        }
        QVERIFY2(killed > 0, "no upgrade was killed before it was done");
        qInfo("an upgrade alone %lld ms; %d of 10 killed, %d of them before their commit", upgradeMs, killed, leftOld);
    }

    // A row whose room is gone (a workspace edited by hand: the rows of a room go with it otherwise) does not stop
    // steps 23 and 24, whose tables refer to the room: the workspace opens, that row without its ids.
    void aRowWithoutItsRoomDoesNotStopTheMigration()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("w.sightline"));
        {
            Workspace ws(path);
            Importer::import(ws, dataFile(QStringLiteral("agui/threads/maya.okafor__th_qh7rhj416fnzjz5q3vyw.jsonl")));
        }
        execSql(path, undoStepsFrom22()
                + QStringLiteral("PRAGMA foreign_keys = OFF; INSERT INTO events(room_id, seq, type, kind, payload, message_id, "
                                 "group_id) VALUES (999, 1, 'TEXT_MESSAGE_CONTENT', 'message', '{}', 'm-lost', 'run-lost'); "
                                 "PRAGMA user_version = 21;"));
        Workspace ws(path);
        QCOMPARE(ws.schemaVersion(), Schema::latestVersion());
        QSqlQuery q = ws.exec(QStringLiteral("SELECT message_id, group_id FROM events WHERE room_id = 999"));
        QVERIFY(q.next());
        QVERIFY(q.value(0).isNull());
        QVERIFY(q.value(1).isNull());
        q = ws.exec(QStringLiteral("SELECT count(*) FROM messages WHERE native = 'm-lost'"));
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toInt(), 0);
        QVERIFY(ws.rooms().size() == 1 && !ws.listEvents(ws.rooms().first().id, {}, { 10, 0 }).isEmpty());
    }

    // Statements are read as SQLite reads them: a trigger's body with its ';', a '--' and a ';' inside
    // literals, and comments between statements.
    void scriptsRunStatementByStatement()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("script.sqlite"));
        execSql(path, QStringLiteral("SELECT 1"));
        sqlite3* db = nullptr;
        QCOMPARE(sqlite3_open(path.toUtf8().constData(), &db), SQLITE_OK);
        const char* script = R"SQL(
-- a comment; with a semicolon
CREATE TABLE notes(id INTEGER PRIMARY KEY, text TEXT); /* a block comment; too */
CREATE TABLE log(text TEXT);
CREATE TRIGGER notes_logged AFTER INSERT ON notes BEGIN
  INSERT INTO log VALUES ('added; ' || new.text);
  INSERT INTO log VALUES ('-- not a comment');
END;
INSERT INTO notes(text) VALUES ('one -- two; three');
)SQL";
        Schema::runScript(db, script, path, 7);
        sqlite3_stmt* st = nullptr;
        QCOMPARE(sqlite3_prepare_v2(db, "SELECT group_concat(text, '|') FROM (SELECT text FROM log ORDER BY rowid)",
                     -1, &st, nullptr),
            SQLITE_OK);
        QCOMPARE(sqlite3_step(st), SQLITE_ROW);
        QCOMPARE(QString::fromUtf8(reinterpret_cast<const char*>(sqlite3_column_text(st, 0))),
            QStringLiteral("added; one -- two; three|-- not a comment"));
        sqlite3_finalize(st);
        // A failing statement names the file and the step.
        try {
            Schema::runScript(db, "CREATE TABLE log(x);", path, 7);
            QFAIL("a failing statement was not reported");
        } catch (const StoreError& e) {
            QVERIFY2(e.toString().startsWith(path + QStringLiteral(": schema step 7:")), qPrintable(e.toString()));
        }
        sqlite3_close(db);
    }

    // Several connections (two Sightlines, or a window and a CLI import) opening one new workspace at once:
    // one migrates it under the write lock, the others wait and find it done.
    void concurrentOpensMigrateOnce()
    {
        for (int round = 0; round < 5; ++round) {
            QTemporaryDir dir;
            const QString path = dir.filePath(QStringLiteral("shared.sightline"));
            QStringList errors(4);
            QList<QThread*> threads;
            QSemaphore start;
            for (int i = 0; i < 4; ++i) {
                threads << QThread::create([&, i] {
                    start.acquire();
                    try {
                        Workspace ws(path);
                        if (ws.schemaVersion() != Schema::latestVersion())
                            errors[i] = QStringLiteral("version %1").arg(ws.schemaVersion());
                    } catch (const StoreError& e) {
                        errors[i] = e.toString();
                    }
                });
                threads.last()->start();
            }
            start.release(4);
            for (QThread* t : threads) {
                QVERIFY(t->wait(60000));
                delete t;
            }
            for (const QString& error : errors)
                QVERIFY2(error.isEmpty(), qPrintable(error));
            Workspace ws(path);
            Importer::import(ws, dataFile(QStringLiteral("roomkit/edge_cases.sqlite")));
            QCOMPARE(ws.rooms().size(), manifestFile(QStringLiteral("edge_cases.sqlite")).value(QLatin1String("room_ids")).toArray().size());
        }
    }

    // Query values keep their type: NULL, real numbers and bytes were all bound as integers.
    // A window keeps a workspace open on several connections and opens it again for each sync; a command run on
    // the same workspace meanwhile, when it closes, must not take itself for the last user and delete the log
    // under the window (opening the file outside SQLite dropped this process's locks on it: "disk I/O error").
    void anotherProcessClosingLeavesTheLog()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("shared.sightline"));
        Workspace window(path);
        // Rows of its own tables (one holding a table Sightline did not make is refused: refuseForeignObjects).
        window.exec(QStringLiteral("INSERT INTO labels(name, color) VALUES ('one', '#000000')"));
        { Workspace sync(path); } // as each sync opens it
        QVERIFY(QFile::exists(path + QStringLiteral("-wal")));
        // Another process (SQLite's own shell, as a command would) opens it, reads, and closes.
        QProcess other;
        other.start(QStringLiteral("sqlite3"), { path, QStringLiteral("SELECT count(*) FROM labels;") });
        QVERIFY(other.waitForFinished(10000));
        QCOMPARE(other.readAllStandardOutput().trimmed(), QByteArray("1"));
        QVERIFY(QFile::exists(path + QStringLiteral("-wal")));
        QVERIFY(QFile::exists(path + QStringLiteral("-shm")));
        window.exec(QStringLiteral("INSERT INTO labels(name, color) VALUES ('two', '#000000')"));
        QSqlQuery q = window.exec(QStringLiteral("SELECT count(*) FROM labels"));
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toInt(), 2);
    }

    // A workspace handed over with a trigger that keeps a copy of every payload a redaction rewrites (or a view,
    // a table, or one of Sightline's own triggers changed): refused, naming the object, before anything runs on it.
    void aWorkspaceWithForeignObjectsIsRefused_data()
    {
        QTest::addColumn<QString>("sql");
        QTest::addColumn<QString>("named");
        QTest::newRow("a trigger keeping old payloads")
            << QStringLiteral("CREATE TABLE kept(p); CREATE TRIGGER keep AFTER UPDATE OF payload ON events BEGIN "
                              "INSERT INTO kept VALUES (old.payload); END;")
            << QStringLiteral("table kept");
        QTest::newRow("a trigger alone")
            << QStringLiteral("CREATE TRIGGER keep AFTER UPDATE ON rooms BEGIN SELECT 1; END;") << QStringLiteral("trigger keep");
        QTest::newRow("a view") << QStringLiteral("CREATE VIEW v AS SELECT payload FROM events") << QStringLiteral("view v");
        QTest::newRow("one of its own triggers changed")
            << QStringLiteral("DROP TRIGGER search_text_deleted; CREATE TRIGGER search_text_deleted AFTER DELETE ON "
                              "search_text BEGIN SELECT 1; END;")
            << QStringLiteral("trigger search_text_deleted");
    }

    void aWorkspaceWithForeignObjectsIsRefused()
    {
        QFETCH(QString, sql);
        QFETCH(QString, named);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("handed.sightline"));
        {
            Workspace ws(path);
            Importer::import(ws, dataFile(QStringLiteral("roomkit/support.sqlite")));
        }
        execSql(path, sql);
        try {
            Workspace ws(path);
            QFAIL("a workspace with a foreign object opened");
        } catch (const StoreError& e) {
            QVERIFY2(e.toString().startsWith(path) && e.message().contains(named), qPrintable(e.toString()));
        }
    }

    // A value SQLite refuses to bind (over its length limit) is an error naming the value, not a NULL or the last
    // row's value written without a word; and a rollback in a catch never replaces the error being handled.
    void aValueThatCannotBeBoundIsAnError()
    {
        sqlite3* db = nullptr;
        QCOMPARE(sqlite3_open(":memory:", &db), SQLITE_OK);
        sqlite3_exec(db, "CREATE TABLE t(v TEXT NOT NULL)", nullptr, nullptr, nullptr);
        sqlite3_limit(db, SQLITE_LIMIT_LENGTH, 100);
        {
            SqliteStatement insert(db, "INSERT INTO t(v) VALUES (?)");
            insert.bind(1, QStringLiteral("short"));
            insert.step();
            insert.reset();
            try {
                insert.bind(1, QString(QStringLiteral("x")).repeated(1000));
                QFAIL("a value over the limit was bound");
            } catch (const StoreError& e) {
                QVERIFY2(e.message().contains(QLatin1String("cannot bind value 1")), qPrintable(e.message()));
            }
        }
        sqlite3_close(db);

        QTemporaryDir dir;
        Workspace ws(dir.filePath(QStringLiteral("w.sightline")));
        ws.exec(QStringLiteral("BEGIN"));
        ws.exec(QStringLiteral("COMMIT")); // the transaction is gone: a ROLLBACK now fails
        try {
            try {
                throw StoreError(ws.path(), {}, QStringLiteral("the real error"));
            } catch (...) {
                ws.rollbackQuietly("ROLLBACK");
                throw;
            }
        } catch (const StoreError& e) {
            QCOMPARE(e.message(), QStringLiteral("the real error"));
        }
    }

    void boundValuesKeepTheirType()
    {
        QTemporaryDir dir;
        Workspace ws(dir.filePath(QStringLiteral("binds.sightline")));
        SqliteStatement q(ws.handle(), "SELECT typeof(?1), typeof(?2), typeof(?3), typeof(?4), typeof(?5), typeof(?6), "
                                       "?2, hex(?3), ?4, ?6");
        q.bindAll({ QVariant(), 1.5, QByteArray("\x00\xff", 2), QStringLiteral("text"), qint64(1) << 40, true });
        QVERIFY(q.step());
        QCOMPARE(q.text(0), QStringLiteral("null"));
        QCOMPARE(q.text(1), QStringLiteral("real"));
        QCOMPARE(q.text(2), QStringLiteral("blob"));
        QCOMPARE(q.text(3), QStringLiteral("text"));
        QCOMPARE(q.text(4), QStringLiteral("integer"));
        QCOMPARE(q.text(5), QStringLiteral("integer"));
        QCOMPARE(q.real(6), 1.5);
        QCOMPARE(q.text(7), QStringLiteral("00FF"));
        QCOMPARE(q.text(8), QStringLiteral("text"));
        QCOMPARE(q.int64(9), 1);
        SqliteStatement other(ws.handle(), "SELECT ?");
        QVERIFY_THROWS_EXCEPTION(StoreError, other.bindAll({ QVariant(QDate(2026, 12, 1)) }));
    }

    // The SQLite behind Qt's driver is the one Sightline calls on its handles; a difference is refused with a
    // message that says what to install.
    void theDriverRunsTheLinkedSqlite()
    {
        QVERIFY2(SqliteLibrary::check().isEmpty(), qPrintable(SqliteLibrary::check()));
        const QString linked = QString::fromLatin1(sqlite3_libversion());
        const QString source = QString::fromLatin1(sqlite3_sourceid());
        QVERIFY(SqliteLibrary::compare(linked, source, linked, source).isEmpty());
        const QString differs = SqliteLibrary::compare(QStringLiteral("3.46.0"), QStringLiteral("2024-05-23"), linked, source);
        QVERIFY(differs.contains(QLatin1String("3.46.0")) && differs.contains(linked));
        QVERIFY(differs.contains(QLatin1String("libqt6sql6-sqlite")));
    }

    void reopenKeepsEverything()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("keep.sightline"));
        RoomSummaries before;
        {
            Workspace ws(path);
            Importer::import(ws, dataFile(QStringLiteral("roomkit/edge_cases.sqlite")));
            before = ws.rooms();
        }
        Workspace again(path);
        const RoomSummaries after = again.rooms();
        QCOMPARE(after.size(), before.size());
        for (int i = 0; i < after.size(); ++i) {
            QCOMPARE(after[i].nativeId, before[i].nativeId);
            QCOMPARE(after[i].eventCount, before[i].eventCount);
            QCOMPARE(after[i].toolCalls, before[i].toolCalls);
        }
    }

    void newerWorkspaceIsRefusedUntouched()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("future.sightline"));
        {
            Workspace ws(path);
        }
        execSql(path, QStringLiteral("PRAGMA user_version = %1").arg(Schema::latestVersion() + 1));
        const QByteArray before = sha256(path);
        try {
            Workspace ws(path);
            QFAIL("a workspace from a newer Sightline was opened");
        } catch (const StoreError& e) {
            QVERIFY2(e.toString().contains(path), qPrintable(e.toString()));
            QVERIFY2(e.message().contains(QLatin1String("newer Sightline")), qPrintable(e.message()));
        }
        QCOMPARE(sha256(path), before);
    }

    void otherFilesAreNotWorkspaces_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("expected");
        QTest::newRow("text") << QByteArray("hello, not a database\n") << "not a SQLite database";
        QTest::newRow("another app's database") << QByteArray() << "another application's database";
    }

    void otherFilesAreNotWorkspaces()
    {
        QFETCH(QByteArray, content);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("other.db"));
        if (content.isEmpty()) {
            execSql(path, QStringLiteral("CREATE TABLE notes(x)"));
        } else {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(content);
        }
        const QByteArray before = sha256(path);
        QVERIFY_THROWS_EXCEPTION(StoreError, Workspace { path });
        try {
            Workspace ws(path);
        } catch (const StoreError& e) {
            QVERIFY2(e.toString().startsWith(path), qPrintable(e.toString()));
            QVERIFY2(e.message().contains(expected), qPrintable(e.message()));
        }
        QCOMPARE(sha256(path), before);
    }

    // RoomKit's own migrations: v1 -> v2 added the unique (room_id, idx) index, v2 -> v3 gave
    // identity_addresses an organization_id. Older stores are made from a v3 copy by undoing those steps.
    void roomKitSchemaVersions_data()
    {
        QTest::addColumn<int>("version");
        QTest::newRow("v1") << 1;
        QTest::newRow("v2") << 2;
        QTest::newRow("v3") << 3;
    }

    void roomKitSchemaVersions()
    {
        QFETCH(int, version);
        QTemporaryDir dir;
        const QString source = copyFixture(dir, QStringLiteral("roomkit/edge_cases.sqlite"));
        if (version <= 2) {
            execSql(source,
                QStringLiteral("DROP TABLE identity_addresses;"
                               "CREATE TABLE identity_addresses(channel_type TEXT NOT NULL, address TEXT NOT NULL, "
                               "identity_id TEXT NOT NULL, PRIMARY KEY(channel_type, address));"
                               "PRAGMA user_version = 2;"));
        }
        if (version == 1)
            execSql(source, QStringLiteral("DROP INDEX idx_events_room_idx; PRAGMA user_version = 1;"));
        Workspace ws(dir.filePath(QStringLiteral("w.sightline")));
        const ImportReport report = Importer::import(ws, source);
        QCOMPARE(report.format, QStringLiteral("roomkit.sqlite.v%1").arg(version));
        QCOMPARE(report.added(), 297);
        QVERIFY(report.problems.isEmpty());
        const qint64 room = ws.findRooms(QStringLiteral("edge-parallel-same-tool")).first();
        QCOMPARE(ws.toolCalls(room).size(), 8);
    }

    // Without v2's unique index a v1 store can hold two rows with one index: the first is kept, the second
    // is reported with its place, and the rest imports.
    void duplicateIndexInAV1Store()
    {
        QTemporaryDir dir;
        const QString source = copyFixture(dir, QStringLiteral("roomkit/support.sqlite"));
        execSql(source,
            QStringLiteral(
                "DROP INDEX idx_events_room_idx; PRAGMA user_version = 1;"
                "INSERT INTO events SELECT 'dup-row', room_id, idx, type, visibility, source_channel_id, "
                "source_channel_type,"
                " participant_id, correlation_id, parent_event_id, NULL, created_ts, json_set(data, '$.id', 'dup-row')"
                " FROM events WHERE room_id = 'sup-late-delivery' AND idx = 3;"));
        Workspace ws(dir.filePath(QStringLiteral("w.sightline")));
        const ImportReport report = Importer::import(ws, source);
        QCOMPARE(report.added(), 113);
        QCOMPARE(report.problems.size(), 1);
        QVERIFY2(report.problems.first().contains(source), qPrintable(report.problems.first()));
        QVERIFY2(report.problems.first().contains(QLatin1String("room sup-late-delivery, index 3")),
            qPrintable(report.problems.first()));
    }
};

QTEST_GUILESS_MAIN(TestSchema)
#include "tst_schema.moc"
