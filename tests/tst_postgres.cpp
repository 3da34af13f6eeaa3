// RoomKit's and kaboo's PostgreSQL stores, read from a real server (tests/pg/pgcluster.sh) holding the dumps
// their own code wrote: the same rooms, rows, calls and runs as their files give, a database left exactly as
// it was, a role that may only SELECT, and a clear error for each way a connection goes wrong.
// (RoomKit's PostgreSQL facts from its MANIFEST are checked with every other store's in tst_roomkitimport and
// tst_readcontract.)

#include "sources/importer.h"
#include "sources/pgconnection.h"
#include "sources/pgsessions.h"
#include "storeerror.h"
#include "testsupport.h"
#include "workspace.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlError>
#include <QSqlQuery>
#include <QTest>

using namespace TestSupport;

namespace {

#define REQUIRE_SERVER()                                                                                       \
    if (!PgServer::get().unavailable.isEmpty())                                                                \
    QSKIP(qPrintable(QStringLiteral("PostgreSQL: ") + PgServer::get().unavailable))

QByteArray dumpOf(const QString& database)
{
    return PgServer::get().dump({ QStringLiteral("--no-owner"), database });
}

// The message an import of `uri` fails with (empty when it does not fail).
QString importError(const QString& uri, bool* passwordNeeded = nullptr, bool* refused = nullptr)
{
    QTemporaryDir dir;
    Workspace ws(dir.filePath(QStringLiteral("w.sightline")));
    try {
        Importer::import(ws, uri);
    } catch (const PgPasswordNeeded& e) {
        if (passwordNeeded)
            *passwordNeeded = true;
        if (refused)
            *refused = e.refused();
        return e.toString();
    } catch (const StoreError& e) {
        return e.toString();
    }
    return {};
}

// Every room with its counts and cursor, its rows' flags and outcomes, and its calls: what an import derives.
const QString everything = QStringLiteral(
    "SELECT r.native_id, r.event_count, r.tool_calls, r.failed, r.refused, r.unserved, r.synced_seq, "
    "(SELECT group_concat(e.seq || ':' || e.flags || ':' || coalesce(e.outcome, ''), ',') FROM events e "
    "WHERE e.room_id = r.id), (SELECT group_concat(c.start_seq || '-' || c.end_seq || c.outcome, ',') FROM "
    "tool_calls c WHERE c.room_id = r.id) FROM rooms r ORDER BY 1");

} // namespace

class TestPostgres : public QObject
{
    Q_OBJECT

private slots:
    void kabooThreadsAsTheirFiles()
    {
        REQUIRE_SERVER();
        const PgServer& pg = PgServer::get();
        QTemporaryDir dir;
        Workspace fromPg(dir.filePath(QStringLiteral("pg.sightline")));
        Workspace fromFiles(dir.filePath(QStringLiteral("files.sightline")));
        const ImportReport report = Importer::import(fromPg, pg.uri(QStringLiteral("kaboo")));
        Importer::import(fromFiles, dataFile(QStringLiteral("agui/threads")));
        QCOMPARE(report.format, QStringLiteral("kaboo.postgres"));
        QVERIFY2(report.problems.isEmpty(), qPrintable(report.problems.join(QLatin1Char('\n'))));

        QFile manifestFile(dataFile(QStringLiteral("agui/manifest.json")));
        QVERIFY(manifestFile.open(QIODevice::ReadOnly));
        const QJsonArray threads = QJsonDocument::fromJson(manifestFile.readAll()).object().value(QLatin1String("threads")).toArray();
        // The threads in listThreads() order (most recently updated first), as kaboo's runner lists them.
        QFile listing(dataFile(QStringLiteral("agui/threads.json")));
        QVERIFY(listing.open(QIODevice::ReadOnly));
        QStringList listed;
        for (const QJsonValue& t : QJsonDocument::fromJson(listing.readAll()).array())
            listed << t.toObject().value(QLatin1String("id")).toString();
        QStringList rooms;
        for (const RoomSummary& r : fromPg.rooms())
            rooms << r.nativeId;
        QCOMPARE(rooms, listed);

        for (const QJsonValue& t : threads) {
            const QJsonObject thread = t.toObject();
            const QString id = thread.value(QLatin1String("threadId")).toString();
            const QJsonObject stored = thread.value(QLatin1String("stored")).toObject();
            const RoomSummary a = *fromPg.room(fromPg.findRooms(id).value(0));
            const RoomSummary b = *fromFiles.room(fromFiles.findRooms(id).value(0));
            QCOMPARE(a.eventCount, thread.value(QLatin1String("eventCount")).toInteger());
            QCOMPARE(a.system, QStringLiteral("agui"));
            QCOMPARE(a.owner, stored.value(QLatin1String("ownerId")).toString());
            QCOMPARE(a.agentId, stored.value(QLatin1String("agentId")).toString());
            for (auto [x, y] : { std::pair { a.title, b.title }, { a.status, b.status }, { a.owner, b.owner },
                     { a.agentId, b.agentId } })
                QCOMPARE(x, y);
            for (auto [x, y] : { std::pair { a.eventCount, b.eventCount }, { a.toolCalls, b.toolCalls },
                     { a.failed, b.failed }, { a.unserved, b.unserved }, { a.createdMicros, b.createdMicros },
                     { a.firstMicros, b.firstMicros }, { a.lastMicros, b.lastMicros } })
                QCOMPARE(x, y);
            // Every row, call and run the same, position for position.
            QCOMPARE(roomByPosition(fromPg, id), roomByPosition(fromFiles, id));
            // Numbered by seq, kaboo's own key: its first and last, and the gaps pruned snapshots and other
            // threads left.
            const QJsonObject seq = thread.value(QLatin1String("seq")).toObject();
            const QStringList range = dump(fromPg,
                QStringLiteral("SELECT min(seq), max(seq), count(*), max(seq) - min(seq) + 1 - count(*) FROM events "
                               "WHERE room_id = %1")
                    .arg(a.id));
            QCOMPARE(range.value(0),
                QStringLiteral("%1|%2|%3|%4")
                    .arg(seq.value(QLatin1String("first")).toInteger())
                    .arg(seq.value(QLatin1String("last")).toInteger())
                    .arg(seq.value(QLatin1String("present")).toInteger())
                    .arg(seq.value(QLatin1String("missingInRange")).toInteger()));
        }
    }

    void aSyncReadsOnlyWhatIsNew()
    {
        REQUIRE_SERVER();
        const PgServer& pg = PgServer::get();
        QTemporaryDir dir;
        Workspace ws(dir.filePath(QStringLiteral("w.sightline")));
        Importer::import(ws, pg.uri(QStringLiteral("roomkit")));
        const QStringList before = dump(ws, QStringLiteral("SELECT count(*) FROM events"));
        const ImportReport again = Importer::import(ws, pg.uri(QStringLiteral("roomkit")));
        QCOMPARE(again.added(), 0);
        QCOMPARE(dump(ws, QStringLiteral("SELECT count(*) FROM events")), before);
        const ImportReport kaboo = Importer::import(ws, pg.uri(QStringLiteral("kaboo")));
        QCOMPARE(kaboo.added(), 1099);
        QCOMPARE(Importer::import(ws, pg.uri(QStringLiteral("kaboo"))).added(), 0);
    }

    // Nothing Sightline does changes the database: pg_dump prints the same before and after it read both
    // stores, and the session refuses a write even if one were sent.
    void theDatabaseIsNeverWritten()
    {
        REQUIRE_SERVER();
        const PgServer& pg = PgServer::get();
        const QByteArray roomkit = dumpOf(QStringLiteral("roomkit"));
        const QByteArray kaboo = dumpOf(QStringLiteral("kaboo"));
        QVERIFY(roomkit.contains("CREATE TABLE public.events"));
        QVERIFY(kaboo.contains("CREATE TABLE public.kaboo_thread_events"));
        {
            QTemporaryDir dir;
            Workspace ws(dir.filePath(QStringLiteral("w.sightline")));
            // As the database's owner, who could write: the session itself must not.
            Importer::import(ws, pg.uri(QStringLiteral("roomkit"), pg.owner));
            Importer::import(ws, pg.uri(QStringLiteral("kaboo"), pg.owner));
            PgConnection session(pg.uri(QStringLiteral("roomkit"), pg.owner));
            try {
                session.select(QStringLiteral("INSERT INTO rooms(id) VALUES ('sightline-was-here')"));
                QFAIL("a write went through");
            } catch (const StoreError& e) {
                QVERIFY2(e.message().contains(QLatin1String("read-only transaction")), qPrintable(e.toString()));
            }
        }
        QCOMPARE(dumpOf(QStringLiteral("roomkit")), roomkit);
        QCOMPARE(dumpOf(QStringLiteral("kaboo")), kaboo);
    }

    void passwordsFromTheStandardPlaces()
    {
        REQUIRE_SERVER();
        const PgServer& pg = PgServer::get();
        const QString bare = pg.uri(QStringLiteral("roomkit"), QStringLiteral("reader"), false);
        QTemporaryDir dir;
        qputenv("PGPASSFILE", dir.filePath(QStringLiteral("none")).toUtf8());
        bool needed = false, refused = true;
        const QString error = importError(bare, &needed, &refused);
        QVERIFY2(needed && !refused, qPrintable(error));
        QVERIFY2(error.contains(QLatin1String("asks for the password of role reader")), qPrintable(error));
        QVERIFY2(error.contains(QLatin1String("PGPASSWORD")), qPrintable(error));

        // PGPASSWORD, as psql takes it.
        qputenv("PGPASSWORD", pg.passwords.value(QStringLiteral("reader")).toUtf8());
        QCOMPARE(importError(bare), QString());
        qunsetenv("PGPASSWORD");

        // A password file (~/.pgpass, here named by PGPASSFILE), owner-only as libpq requires.
        const QString passfile = dir.filePath(QStringLiteral("pgpass"));
        QFile f(passfile);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QStringLiteral("%1:%2:*:reader:%3\n").arg(pg.host).arg(pg.port).arg(pg.passwords.value(QStringLiteral("reader"))).toUtf8());
        f.close();
        f.setPermissions(QFile::ReadOwner | QFile::WriteOwner);
        qputenv("PGPASSFILE", passfile.toUtf8());
        QCOMPARE(importError(bare), QString());
        qunsetenv("PGPASSFILE");
    }

    // libpq takes the role and its password as ?user= and ?password= too: honoured, and the password never
    // stored (sources.origin), shown in an error, or used to key the cache.
    void theUserAndPasswordInTheQueryAreHonouredAndNeverKept()
    {
        REQUIRE_SERVER();
        const PgServer& pg = PgServer::get();
        const QString secret = pg.passwords.value(QStringLiteral("reader"));
        const QString uri = QStringLiteral("postgresql://%1:%2/roomkit?user=reader&password=%3")
                                .arg(pg.host, QString::number(pg.port), QString::fromLatin1(QUrl::toPercentEncoding(secret)));
        QTemporaryDir dir;
        {
            Workspace ws(dir.filePath(QStringLiteral("w.sightline")));
            Importer::import(ws, uri);
            QVERIFY(!ws.rooms().isEmpty());
            QSqlQuery origin = ws.exec(QStringLiteral("SELECT origin FROM sources"));
            QVERIFY(origin.next());
            QCOMPARE(origin.value(0).toString(),
                QStringLiteral("postgresql://%1:%2/roomkit?user=reader").arg(pg.host).arg(pg.port));
        }
        QCOMPARE(Importer::cachedWorkspacePath(uri),
            Importer::cachedWorkspacePath(QStringLiteral("postgresql://%1:%2/roomkit?user=reader&password=other").arg(pg.host).arg(pg.port)));
        // A wrong one is refused for that role, and not repeated in the message.
        const QString error = importError(
            QStringLiteral("postgresql://%1:%2/roomkit?user=reader&password=not-the-password").arg(pg.host).arg(pg.port));
        QVERIFY2(error.contains(QLatin1String("the server refused the password for role reader")), qPrintable(error));
        QVERIFY2(!error.contains(QLatin1String("not-the-password")), qPrintable(error));
        QCOMPARE(PgConnection::withoutPassword(QStringLiteral("postgresql://u:p@h/db?password=x&sslmode=require&sslpassword=y")),
            QStringLiteral("postgresql://u@h/db?sslmode=require"));
        QCOMPARE(PgConnection::withoutPassword(QStringLiteral("postgresql://h/db?password=x")), QStringLiteral("postgresql://h/db"));
    }

    void clearErrors_data()
    {
        QTest::addColumn<QString>("uri");
        QTest::addColumn<QString>("says");
        QTest::addColumn<bool>("passwordNeeded");
        const PgServer& pg = PgServer::get();
        QTest::newRow("a wrong password")
            << QStringLiteral("postgresql://reader:not-the-password@%1:%2/roomkit").arg(pg.host).arg(pg.port)
            << QStringLiteral("the server refused the password for role reader") << true;
        // A port nothing listens on: the one below the test server's range.
        QTest::newRow("no server") << QStringLiteral("postgresql://reader:x@127.0.0.1:55431/roomkit")
                                   << QStringLiteral("no PostgreSQL server answers at 127.0.0.1:55431 (connection refused)")
                                   << false;
        QTest::newRow("a database of neither store")
            << pg.uri(QStringLiteral("neither"))
            << QStringLiteral("database \"neither\" holds no store Sightline reads: neither RoomKit's (tables rooms "
                              "and events) nor kaboo-runtime's (kaboo_threads and kaboo_thread_events)")
            << false;
        QTest::newRow("a role without SELECT")
            << pg.uri(QStringLiteral("roomkit"), QStringLiteral("outsider"))
            << QStringLiteral("role outsider may not read table rooms: grant it SELECT") << false;
        QTest::newRow("a role without SELECT on kaboo")
            << pg.uri(QStringLiteral("kaboo"), QStringLiteral("outsider"))
            << QStringLiteral("role outsider may not read table kaboo_threads") << false;
        QTest::newRow("no such database") << pg.uri(QStringLiteral("roomkit_old"))
                                          << QStringLiteral("database \"roomkit_old\" does not exist") << false;
        QTest::newRow("not a URI") << QStringLiteral("postgresql://[bad") << QStringLiteral("not a PostgreSQL URI")
                                   << false;
    }

    void clearErrors()
    {
        REQUIRE_SERVER();
        QFETCH(QString, uri);
        QFETCH(QString, says);
        QFETCH(bool, passwordNeeded);
        bool needed = false;
        const QString error = importError(uri, &needed);
        QVERIFY2(error.contains(says), qPrintable(error));
        QCOMPARE(needed, passwordNeeded);
        // Named without its password, wherever the message goes.
        QVERIFY2(!error.contains(QLatin1String("not-the-password")) && !error.contains(QLatin1String("secret")),
            qPrintable(error));
        QVERIFY2(error.startsWith(QLatin1String("postgresql://")), qPrintable(error));
    }

    // The server goes away in the middle of an import (here: the session is ended by an administrator after
    // the first room is in): the rooms read so far stay, the error says so, and the next sync ends where a
    // clean import does.
    void aConnectionLostMidImport()
    {
        REQUIRE_SERVER();
        const PgServer& pg = PgServer::get();
        QTemporaryDir dir;
        Workspace ws(dir.filePath(QStringLiteral("w.sightline")));
        // A name of this test's own: other tests import from the same server at the same time, and their
        // sessions must not be ended by this one.
        const QString uri = pg.uri(QStringLiteral("roomkit")) + QStringLiteral("?application_name=sightline-lost");
        ImportOptions options;
        int ready = 0;
        options.roomReady = [&](qint64) {
            if (++ready == 1)
                pg.exec(QStringLiteral("postgres"),
                    QStringLiteral("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE "
                                   "application_name = 'sightline-lost' AND usename = 'reader'"));
        };
        try {
            Importer::import(ws, uri, options);
            QFAIL("the import went on without its connection");
        } catch (const StoreError& e) {
            QVERIFY2(e.message().contains(QLatin1String("connection to the server was lost")), qPrintable(e.toString()));
            QVERIFY2(e.message().contains(QLatin1String("the next sync goes on from there")), qPrintable(e.toString()));
        }
        const qint64 kept = dump(ws, QStringLiteral("SELECT count(*) FROM events")).value(0).toLongLong();
        QVERIFY(kept > 0);
        QVERIFY(kept < 203);
        // The next sync: every room whole, as one clean import gives.
        Importer::import(ws, uri);
        QTemporaryDir cleanDir;
        Workspace clean(cleanDir.filePath(QStringLiteral("clean.sightline")));
        Importer::import(clean, uri);
        QCOMPARE(dump(ws, everything), dump(clean, everything));
    }

    // An import from either store killed with SIGKILL at a random moment (batches of 16 rows: many commits to land
    // after), then run again: the workspace is the one a clean import makes.
    void aKilledImportResumesToTheSame()
    {
        REQUIRE_SERVER();
        const PgServer& pg = PgServer::get();
        for (const QString& database : { QStringLiteral("roomkit"), QStringLiteral("kaboo") }) {
            QTemporaryDir dir;
            Workspace clean(dir.filePath(QStringLiteral("clean.sightline")));
            Importer::import(clean, pg.uri(database));
            // A kill that came after the import ended shortens the next wait: at least three land inside one.
            int killed = 0;
            int maxWait = 300;
            for (int round = 0; round < 40 && killed < 3; ++round) {
                const QString path = dir.filePath(QStringLiteral("killed-%1.sightline").arg(round));
                if (importKilledMidway(path, pg.uri(database), maxWait))
                    ++killed;
                else
                    maxWait = std::max(5, maxWait / 2);
                Workspace ws(path);
                Importer::import(ws, pg.uri(database));
                QCOMPARE(dump(ws, everything), dump(clean, everything));
            }
            QVERIFY2(killed >= 3, qPrintable(database));
        }
    }

    // Rooms on request from the server too: a room asked for while another is read is read next, the other
    // resumes after it (every room of both stores asked for in turn, after each batch of 16 rows), and a room asked
    // for alone is read alone; either way the workspace ends as one clean import's.
    void roomsOnRequestFromTheServer()
    {
        REQUIRE_SERVER();
        const PgServer& pg = PgServer::get();
        for (const QString& database : { QStringLiteral("roomkit"), QStringLiteral("kaboo") }) {
            QTemporaryDir dir;
            Workspace clean(dir.filePath(QStringLiteral("clean.sightline")));
            Importer::import(clean, pg.uri(database));
            const RoomSummaries rooms = clean.rooms();
            QVERIFY(rooms.size() >= 2);

            Workspace ws(dir.filePath(QStringLiteral("asked.sightline")));
            ImportOptions options;
            options.batchRows = 16;
            QStringList ids;
            for (const RoomSummary& r : rooms)
                ids << r.nativeId;
            RoomClicks clicks;
            clickRoomsInTurn(options, ws, ids, clicks);
            const ImportReport report = Importer::import(ws, pg.uri(database), options);
            QVERIFY2(clicks.started.size() > rooms.size(), qPrintable(clicks.started.join(QLatin1Char(' ')))); // some read in turns
            QCOMPARE(report.rooms.size(), rooms.size());
            QCOMPARE(dump(ws, everything), dump(clean, everything));

            Workspace one(dir.filePath(QStringLiteral("one.sightline")));
            ImportOptions alone;
            alone.onlyRooms = QStringList { rooms.last().nativeId };
            const ImportReport first = Importer::import(one, pg.uri(database), alone);
            QCOMPARE(first.rooms.size(), 1);
            qint64 others = 0; // the other rooms with events: each listed with the server's count, none read
            for (const RoomSummary& r : rooms)
                others += r.nativeId != rooms.last().nativeId && r.eventCount > 0 ? 1 : 0;
            QCOMPARE(first.roomsNotRead, others);
            // Each with the count the server gives (kaboo's events, which a thread's assembly may make fewer rows of).
            const Importer::SourceSurvey survey = Importer::survey(pg.uri(database));
            for (const RoomSummary& r : one.rooms()) {
                const auto want = std::find_if(
                    rooms.cbegin(), rooms.cend(), [&](const RoomSummary& c) { return c.nativeId == r.nativeId; });
                if (r.nativeId != rooms.last().nativeId && want->eventCount > 0) {
                    QVERIFY2(r.notReadYet(), qPrintable(r.nativeId));
                    qint64 listed = -1;
                    for (int i = 0; i < survey.rooms.size(); ++i) {
                        if (survey.rooms.at(i).nativeId == r.nativeId)
                            listed = survey.events.at(i);
                    }
                    QCOMPARE(r.sourceEvents(), listed);
                }
            }
            Importer::import(one, pg.uri(database));
            QCOMPARE(dump(one, everything), dump(clean, everything));
        }
    }

    // A followed database is synced every second on one server session (PgSessions), not a new connection each
    // time: the server's own list of sessions shows the same one sync after sync. One the server dropped (an
    // administrator's pg_terminate_backend, a restart) is replaced at the next sync without an error, and the
    // session is gone from the server once the follow ends.
    void aFollowedDatabaseKeepsOneSession()
    {
        REQUIRE_SERVER();
        const PgServer& pg = PgServer::get();
        // Its own application name: other tests read the same server at the same time.
        const QString uri = pg.uri(QStringLiteral("roomkit")) + QStringLiteral("?application_name=sightline-kept");
        const auto sessions = [&] {
            return QString::fromUtf8(pg.run(QStringLiteral("psql"),
                                           { QStringLiteral("-XAt"), QStringLiteral("-d"), QStringLiteral("postgres"),
                                               QStringLiteral("-c"),
                                               QStringLiteral("SELECT pid FROM pg_stat_activity WHERE application_name "
                                                              "= 'sightline-kept' ORDER BY pid") }))
                .split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        };
        QTemporaryDir dir;
        Workspace ws(dir.filePath(QStringLiteral("w.sightline")));
        PgSessions kept;
        ImportOptions options;
        options.pgSessions = &kept;
        Importer::import(ws, uri, options);
        const QStringList first = sessions();
        QCOMPARE(first.size(), 1);
        for (int sync = 0; sync < 3; ++sync) {
            QCOMPARE(Importer::import(ws, uri, options).added(), 0);
            QCOMPARE(sessions(), first);
        }
        // Without a PgSessions, each import's own connection, closed after it.
        Importer::import(ws, uri);
        QCOMPARE(sessions(), first);

        pg.exec(QStringLiteral("postgres"),
            QStringLiteral("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = "
                           "'sightline-kept'"));
        QTRY_VERIFY(sessions().isEmpty());
        QCOMPARE(Importer::import(ws, uri, options).added(), 0); // no "connection lost"
        const QStringList second = sessions();
        QCOMPARE(second.size(), 1);
        QVERIFY(second != first);
        QCOMPARE(kept.size(), 1);
        kept.closeAll();
        QTRY_VERIFY(sessions().isEmpty());
    }

    // The workspace of a database is cached by its URI without the password, and named by the database.
    void theCacheIsKeyedWithoutThePassword()
    {
        const QString a = Importer::cachedWorkspacePath(QStringLiteral("postgresql://reader:one@db.example.com:5432/roomkit"));
        const QString b = Importer::cachedWorkspacePath(QStringLiteral("postgresql://reader:two@db.example.com:5432/roomkit"));
        const QString c = Importer::cachedWorkspacePath(QStringLiteral("postgresql://reader@db.example.com:5433/roomkit"));
        QCOMPARE(a, b);
        QVERIFY(a != c);
        QVERIFY2(a.contains(QLatin1String("roomkit-on-db.example.com-")), qPrintable(a));
        QVERIFY(!a.contains(QLatin1String("one")));
        QCOMPARE(Importer::displayName(QStringLiteral("postgresql://reader:one@db.example.com/roomkit?sslmode=require")),
            QStringLiteral("roomkit on db.example.com"));
        QCOMPARE(PgConnection::withoutPassword(QStringLiteral("postgresql://reader:one@db.example.com/roomkit?sslmode=require")),
            QStringLiteral("postgresql://reader@db.example.com/roomkit?sslmode=require"));
        QCOMPARE(Importer::detect(QStringLiteral("postgres://h/db")), Importer::Format::Postgres);
    }
};

QTEST_GUILESS_MAIN(TestPostgres)
#include "tst_postgres.moc"
