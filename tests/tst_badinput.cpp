// Bad input gets a clear error naming the file and the place, the rest still works, and no source is written.

#include "eventflags.h"
#include "sources/importer.h"
#include "storeerror.h"
#include "testsupport.h"
#include "workspace.h"

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTest>
#include <sqlite3.h>

using namespace TestSupport;

class TestBadInput : public QObject
{
    Q_OBJECT

    // Imports `source` expecting failure; returns the error. Then checks the same workspace still imports a
    // good store: one bad file never spoils the rest.
    QString failingImport(const QString& source)
    {
        QTemporaryDir dir;
        Workspace ws(dir.filePath(QStringLiteral("w.sightline")));
        const QByteArray before = QFile::exists(source) ? sha256(source) : QByteArray();
        QString error;
        try {
            Importer::import(ws, source);
        } catch (const StoreError& e) {
            error = e.toString();
        }
        if (!before.isEmpty() && sha256(source) != before)
            error += QStringLiteral(" [SOURCE CHANGED]");
        Importer::import(ws, dataFile(QStringLiteral("roomkit/support.sqlite")));
        if (ws.rooms().size() != 8)
            error += QStringLiteral(" [WORKSPACE SPOILED]");
        return error;
    }

    QString write(const QTemporaryDir& dir, const QString& name, const QByteArray& content)
    {
        const QString path = dir.filePath(name);
        QFile f(path);
        f.open(QIODevice::WriteOnly);
        f.write(content);
        return path;
    }

private slots:
    void unreadableSources_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("expected");
        QTest::newRow("not a database") << "text"
                                        << "not a source Sightline reads";
        QTest::newRow("empty file") << "empty"
                                    << "an empty file";
        QTest::newRow("missing") << "missing"
                                 << "no such file";
        QTest::newRow("folder") << "folder"
                                << "a folder";
        QTest::newRow("truncated") << "truncated"
                                   << "truncated SQLite database";
        QTest::newRow("header only") << "header"
                                     << "truncated SQLite database";
        QTest::newRow("unknown schema version") << "version"
                                                << "unknown RoomKit schema version 9";
        QTest::newRow("another SQLite database") << "other"
                                                 << "not a RoomKit store";
    }

    void unreadableSources()
    {
        QFETCH(QString, kind);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        QString path;
        if (kind == QLatin1String("text")) {
            path = write(dir, QStringLiteral("notes.sqlite"), "I am not a database, just text.\n");
        } else if (kind == QLatin1String("empty")) {
            path = write(dir, QStringLiteral("empty.sqlite"), {});
        } else if (kind == QLatin1String("missing")) {
            path = dir.filePath(QStringLiteral("nowhere.sqlite"));
        } else if (kind == QLatin1String("folder")) {
            path = dir.path();
        } else if (kind == QLatin1String("truncated") || kind == QLatin1String("header")) {
            QFile whole(dataFile(QStringLiteral("roomkit/support.sqlite")));
            whole.open(QIODevice::ReadOnly);
            const QByteArray bytes = whole.readAll();
            path = write(dir, QStringLiteral("cut.sqlite"),
                bytes.left(kind == QLatin1String("header") ? 100 : bytes.size() / 2));
        } else if (kind == QLatin1String("version")) {
            path = copyFixture(dir, QStringLiteral("roomkit/support.sqlite"));
            execSql(path, QStringLiteral("PRAGMA user_version = 9"));
        } else if (kind == QLatin1String("other")) {
            path = dir.filePath(QStringLiteral("other.sqlite"));
            execSql(path, QStringLiteral("CREATE TABLE invoices(id INTEGER PRIMARY KEY, total REAL)"));
        }
        const QString error = failingImport(path);
        QVERIFY2(error.startsWith(path + QLatin1Char(':')), qPrintable(error)); // names the file first
        QVERIFY2(error.contains(expected), qPrintable(error));
        QVERIFY2(!error.contains(QLatin1Char('[')) || kind == QLatin1String("version"), qPrintable(error));
        QVERIFY2(
            !error.contains(QLatin1String("SPOILED")) && !error.contains(QLatin1String("CHANGED")), qPrintable(error));
        if (kind == QLatin1String("truncated"))
            QVERIFY2(error.contains(QLatin1String("byte ")), qPrintable(error)); // where the file ends
    }

    void malformedJsonRowIsKeptAndFlagged()
    {
        QTemporaryDir dir;
        const QString source = copyFixture(dir, QStringLiteral("roomkit/support.sqlite"));
        execSql(source,
            QStringLiteral("UPDATE events SET data = substr(data, 1, 90) "
                           "WHERE room_id = 'sup-duplicate-charge' AND idx = 4"));
        const QByteArray before = sha256(source);
        Workspace ws(dir.filePath(QStringLiteral("w.sightline")));
        const ImportReport report = Importer::import(ws, source);
        QCOMPARE(report.added(), 113); // the rest of the file, and the bad row itself
        QCOMPARE(report.problems.size(), 1);
        const QString problem = report.problems.first();
        QVERIFY2(
            problem.startsWith(source + QStringLiteral(": room sup-duplicate-charge, index 4: malformed JSON at byte")),
            qPrintable(problem));
        QCOMPARE(sha256(source), before);

        const qint64 room = ws.findRooms(QStringLiteral("sup-duplicate-charge")).first();
        EventFilter all;
        all.includeBlocked = true;
        const EventRecords rows = ws.listEvents(room, all, PageRequest { 1, 0, false, 3, {} });
        QCOMPARE(rows.size(), 1);
        QCOMPARE(rows.first().index, 4);
        QVERIFY(rows.first().flags & EventFlags::MalformedJson);
        QVERIFY(!rows.first().type.isEmpty()); // from the store's own type column
        QCOMPARE(ws.payload(rows.first().rowId).size(), 90);
    }

    // Rows whose idx is not a whole number at or above 0 (1e300, -5, 2.5, 'abc'): each named, each kept (the
    // negative one at its index, the others at a stand-in index before the room's first event), none taken for a
    // duplicate, and none the sync cursor: a row added after them is imported by the next sync.
    void oddIndexesAreNamedKeptAndNeverTheCursor()
    {
        QTemporaryDir dir;
        const QString source = copyFixture(dir, QStringLiteral("roomkit/support.sqlite"));
        for (const auto& [id, idx] : { std::pair { "odd-huge", "1e300" }, std::pair { "odd-negative", "-5" },
                 std::pair { "odd-half", "2.5" }, std::pair { "odd-text", "'abc'" } })
            copyRoomKitRow(source, QStringLiteral("sup-duplicate-charge"), 23, QLatin1String(id), QLatin1String(idx));
        Workspace ws(dir.filePath(QStringLiteral("w.sightline")));
        // Another room read alone first (a command's --room): this one is only counted, odd rows and all, and its
        // odd rows are found when it is read.
        ImportOptions another;
        another.onlyRooms = QStringList { QStringLiteral("sup-late-delivery") };
        QVERIFY(Importer::import(ws, source, another).problems.isEmpty());
        const std::optional<RoomSummary> counted = ws.room(ws.findRooms(QStringLiteral("sup-duplicate-charge")).first());
        QVERIFY(counted && counted->notReadYet());
        QCOMPARE(counted->sourceEvents(), 24 + 4);
        const ImportReport report = Importer::import(ws, source);
        const QString said = report.problems.join(QLatin1Char('\n'));
        QCOMPARE(report.problems.size(), 4);
        QVERIFY2(said.contains(QLatin1String("event odd-huge: its idx 1.0e+300 (real) is not a whole number")), qPrintable(said));
        QVERIFY2(said.contains(QLatin1String("event odd-negative: its idx -5 is negative")), qPrintable(said));
        QVERIFY2(said.contains(QLatin1String("event odd-half: its idx 2.5 (real)")), qPrintable(said));
        QVERIFY2(said.contains(QLatin1String("event odd-text: its idx abc (text)")), qPrintable(said));
        const qint64 room = ws.findRooms(QStringLiteral("sup-duplicate-charge")).first();
        QCOMPARE(ws.countEvents(room, nullptr), 24 + 4);
        QVERIFY(ws.event(room, -5).has_value());
        // A row RoomKit adds next: the cursor is the room's highest whole index, so it comes in.
        copyRoomKitRow(source, QStringLiteral("sup-duplicate-charge"), 23, QStringLiteral("next-24"), QStringLiteral("24"));
        const ImportReport next = Importer::import(ws, source);
        QCOMPARE(next.added(), 1);
        QVERIFY(next.problems.isEmpty()); // named once, at the room's first import
        QVERIFY(ws.event(room, 24).has_value());
        QCOMPARE(ws.countEvents(room, nullptr), 24 + 4 + 1);
    }

    // A positive idx that is not whole lies among the whole ones in RoomKit's index, where the read's seeks for odd
    // rows do not look: met there, the room is read again from its start by a pass that finds it. Wherever an import
    // stopped (before that row, or while the room was read again), the next one ends with the clean import's room.
    void aRowNoSeekFindsGivesTheCleanImportWhereverAnImportStopped()
    {
        QTemporaryDir dir;
        const QString source = copyFixture(dir, QStringLiteral("roomkit/support.sqlite"));
        copyRoomKitRow(source, QStringLiteral("sup-duplicate-charge"), 17, QStringLiteral("odd-late"), QStringLiteral("17.5"));
        copyRoomKitRow(source, QStringLiteral("sup-duplicate-charge"), 23, QStringLiteral("odd-huge"), QStringLiteral("1e300"));
        copyRoomKitRow(source, QStringLiteral("sup-duplicate-charge"), 3, QStringLiteral("odd-text"), QStringLiteral("'abc'"));
        const QString room = QStringLiteral("sup-duplicate-charge");
        const QString seqs = QStringLiteral("SELECT e.seq, e.native_id FROM events e JOIN rooms r ON r.id = e.room_id "
                                            "WHERE r.native_id = 'sup-duplicate-charge' ORDER BY e.seq");
        Workspace clean(dir.filePath(QStringLiteral("clean.sightline")));
        const ImportReport once = Importer::import(clean, source);
        // Each odd row named once, though the room was read twice.
        QCOMPARE(once.problems.size(), 3);
        const QStringList expected = roomByPosition(clean, room);
        const QStringList expectedSeqs = dump(clean, seqs);
        QCOMPARE(expectedSeqs.size(), 24 + 3);
        // The three odd rows first, at their stand-in indexes, then the whole ones from 0.
        for (int i = 0; i < 3; ++i)
            QVERIFY2(expectedSeqs.at(i).startsWith(QLatin1String("-10995116")), qPrintable(expectedSeqs.at(i)));
        QVERIFY(expectedSeqs.at(3).startsWith(QLatin1String("0|")));
        for (int stopAfter = 1; stopAfter <= 12; ++stopAfter) {
            Workspace ws(dir.filePath(QStringLiteral("stopped-%1.sightline").arg(stopAfter)));
            ImportOptions stopping;
            stopping.batchRows = 4;
            stopping.firstRoom = room;
            int asked = 0;
            stopping.isCancelled = [&asked, stopAfter] { return ++asked > stopAfter; };
            Importer::import(ws, source, stopping);
            Importer::import(ws, source);
            QCOMPARE(dump(ws, seqs), expectedSeqs);
            QCOMPARE(roomByPosition(ws, room), expected);
        }
    }

    // The same import killed (SIGKILL) at random moments, each run resuming the last, with a room read again from its
    // start by the pass that finds such rows: the workspace ends as the clean import's.
    void aRoomReadAgainIsWholeWhereverAnImportIsKilled()
    {
        QTemporaryDir dir;
        const QString source = growSupportRoom(dir, 400); // sup-late-delivery, read first, to index 400
        copyRoomKitRow(source, QStringLiteral("sup-late-delivery"), 2, QStringLiteral("odd-late"), QStringLiteral("250.5"));
        copyRoomKitRow(source, QStringLiteral("sup-late-delivery"), 2, QStringLiteral("odd-huge"), QStringLiteral("1e300"));
        Workspace clean(dir.filePath(QStringLiteral("clean.sightline")));
        QElapsedTimer timer;
        timer.start();
        Importer::import(clean, source);
        const int cleanMs = std::max<int>(20, int(timer.elapsed()));
        const QString killed = dir.filePath(QStringLiteral("killed.sightline"));
        int landed = 0;
        for (int i = 0; i < 30 && landed < 3; ++i)
            landed += importKilledMidway(killed, source, cleanMs * 2) ? 1 : 0;
        QVERIFY2(landed > 0, "no kill landed inside an import");
        Workspace resumed(killed);
        Importer::import(resumed, source);
        for (const RoomSummary& room : clean.rooms())
            QCOMPARE(roomByPosition(resumed, room.nativeId), roomByPosition(clean, room.nativeId));
        const QString seqs = QStringLiteral("SELECT r.native_id, e.seq, e.native_id FROM events e JOIN rooms r ON r.id = "
                                            "e.room_id ORDER BY 1, 2");
        QCOMPARE(dump(resumed, seqs), dump(clean, seqs));
    }

    // The room list shows the source's figure for a room before it is read: the index's highest idx at first, the
    // count itself once it is taken (on a thread of its own). A store with a gap in a room's indexes tells them apart.
    void aRoomNotReadShowsTheSourcesCountNotItsHighestIndex()
    {
        QTemporaryDir dir;
        const QString source = copyFixture(dir, QStringLiteral("roomkit/support.sqlite"));
        execSql(source, QStringLiteral("DELETE FROM events WHERE room_id = 'sup-duplicate-charge' AND idx IN (5, 6, 7)"));
        Workspace ws(dir.filePath(QStringLiteral("w.sightline")));
        ImportOptions another;
        another.onlyRooms = QStringList { QStringLiteral("sup-late-delivery") };
        QVERIFY(Importer::import(ws, source, another).problems.isEmpty());
        const std::optional<RoomSummary> counted = ws.room(ws.findRooms(QStringLiteral("sup-duplicate-charge")).first());
        QVERIFY(counted && counted->notReadYet());
        QCOMPARE(counted->sourceEvents(), 24 - 3);
        // And once it is read, the same.
        QVERIFY(Importer::import(ws, source).problems.isEmpty());
        QCOMPARE(ws.room(counted->id)->eventCount, 24 - 3);
        QVERIFY(!ws.room(counted->id)->notReadYet());
        // Two rows more, far apart (indexes 30 and 34): a sync that reads another room counts them, not the gap.
        copyRoomKitRow(source, QStringLiteral("sup-duplicate-charge"), 23, QStringLiteral("next-30"), QStringLiteral("30"));
        copyRoomKitRow(source, QStringLiteral("sup-duplicate-charge"), 23, QStringLiteral("next-34"), QStringLiteral("34"));
        QVERIFY(Importer::import(ws, source, another).problems.isEmpty());
        QCOMPARE(ws.room(counted->id)->sourceEvents(), 24 - 3 + 2);
        QCOMPARE(ws.room(counted->id)->unread, 2);
    }

    void invalidUtf8RowIsKeptByteForByte()
    {
        QTemporaryDir dir;
        const QString source = copyFixture(dir, QStringLiteral("roomkit/support.sqlite"));
        // Replace one body's text with bytes that are not UTF-8, keeping the JSON around them.
        execSql(source,
            QStringLiteral(
                "UPDATE events SET data = CAST(replace(CAST(data AS BLOB), CAST('late' AS BLOB), X'6C61C3FF') AS TEXT) "
                "WHERE room_id = 'sup-late-delivery' AND idx = 2"));
        QByteArray original;
        {
            sqlite3* db = nullptr;
            sqlite3_open(source.toUtf8().constData(), &db);
            sqlite3_stmt* st = nullptr;
            sqlite3_prepare_v2(db,
                "SELECT CAST(data AS BLOB) FROM events WHERE room_id = 'sup-late-delivery' AND idx = 2", -1, &st,
                nullptr);
            QCOMPARE(sqlite3_step(st), SQLITE_ROW);
            original = QByteArray(static_cast<const char*>(sqlite3_column_blob(st, 0)), sqlite3_column_bytes(st, 0));
            sqlite3_finalize(st);
            sqlite3_close(db);
        }
        QVERIFY(original.contains("\xc3\xff"));
        Workspace ws(dir.filePath(QStringLiteral("w.sightline")));
        const ImportReport report = Importer::import(ws, source);
        QCOMPARE(report.added(), 113);
        QCOMPARE(report.problems.size(), 1);
        QVERIFY2(report.problems.first().contains(QLatin1String("index 2: invalid UTF-8")),
            qPrintable(report.problems.first()));
        const qint64 room = ws.findRooms(QStringLiteral("sup-late-delivery")).first();
        const EventRecords rows = ws.listEvents(room, {}, PageRequest { 1, 0, false, 1, {} });
        QVERIFY(rows.first().flags & EventFlags::InvalidUtf8);
        QVERIFY(!(rows.first().flags & EventFlags::MalformedJson));
        QCOMPARE(ws.payload(rows.first().rowId), original);
        QCOMPARE(rows.first().type, QStringLiteral("message"));
    }

    void lockedDatabase()
    {
        QTemporaryDir dir;
        const QString source = copyFixture(dir, QStringLiteral("roomkit/support.sqlite"));
        execSql(source, QStringLiteral("PRAGMA journal_mode = DELETE"));
        sqlite3* writer = nullptr;
        QCOMPARE(sqlite3_open(source.toUtf8().constData(), &writer), SQLITE_OK);
        // A writer in the middle of a transaction: an exclusive lock and a hot journal beside the file.
        QCOMPARE(sqlite3_exec(writer, "BEGIN EXCLUSIVE; UPDATE rooms SET status = status;", nullptr, nullptr, nullptr),
            SQLITE_OK);
        QElapsedTimer timer;
        timer.start();
        const QString error = failingImport(source);
        QVERIFY2(error.startsWith(source + QLatin1Char(':')), qPrintable(error));
        QVERIFY2(error.contains(QLatin1String("locked")), qPrintable(error));
        QVERIFY(timer.elapsed() < 30000); // waited a little, never hung
        sqlite3_exec(writer, "ROLLBACK", nullptr, nullptr, nullptr);
        sqlite3_close(writer);
        // Once the writer is done, the same file imports.
        Workspace ws(dir.filePath(QStringLiteral("after.sightline")));
        QCOMPARE(Importer::import(ws, source).added(), 113);
    }

    // The trial's case: a rollback-journal store that another process holds with BEGIN EXCLUSIVE in the middle of
    // a write. Every way in (told apart by its content, and read as a RoomKit store) says it is locked, naming the
    // file; none calls it "not a RoomKit store" (a failed schema query read as a missing table).
    void aStoreLockedByAnotherProcessIsSaidToBeLocked()
    {
        QTemporaryDir dir;
        const QString source = copyFixture(dir, QStringLiteral("roomkit/support.sqlite"));
        execSql(source, QStringLiteral("PRAGMA journal_mode = DELETE"));
        QProcess writer;
        writer.start(QStringLiteral("python3"),
            { QStringLiteral("-c"),
                QStringLiteral("import sqlite3, sys, time\n"
                               "c = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
                               "c.execute('BEGIN EXCLUSIVE')\n"
                               "c.execute('UPDATE rooms SET status = status')\n"
                               "print('held', flush=True)\n"
                               "time.sleep(60)\n"),
                source });
        QVERIFY(writer.waitForReadyRead(20000));
        QCOMPARE(writer.readLine().trimmed(), QByteArray("held"));
        const QString error = failingImport(source);
        QVERIFY2(error.startsWith(source + QLatin1Char(':')) && error.contains(QLatin1String("locked")), qPrintable(error));
        QVERIFY2(!error.contains(QLatin1String("not a RoomKit store")), qPrintable(error));
        Workspace ws(dir.filePath(QStringLiteral("forced.sightline")));
        try {
            Importer::import(ws, source, {}, Importer::Format::RoomKitSqlite);
            QFAIL("a locked store imported");
        } catch (const StoreError& e) {
            QVERIFY2(e.toString().contains(QLatin1String("locked")), qPrintable(e.toString()));
        }
        writer.kill();
        writer.waitForFinished();
        Workspace after(dir.filePath(QStringLiteral("after.sightline")));
        QCOMPARE(Importer::import(after, source).added(), 113);
    }

    // A writer killed in the middle of a write leaves a hot journal beside a rollback-journal store: said as that,
    // with the way out, not as "attempt to write a readonly database"; the store is not written.
    void aHotJournalIsSaidToBeOne()
    {
        QTemporaryDir dir;
        const QString source = copyFixture(dir, QStringLiteral("roomkit/support.sqlite"));
        execSql(source, QStringLiteral("PRAGMA journal_mode = DELETE"));
        QProcess writer;
        writer.start(QStringLiteral("python3"),
            { QStringLiteral("-c"),
                QStringLiteral("import sqlite3, sys, os\n"
                               "c = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
                               "c.execute('PRAGMA cache_size = 1')\n"
                               "c.execute('BEGIN')\n"
                               "c.execute(\"UPDATE events SET data = data || ' '\")\n"
                               "os._exit(9)\n"),
                source });
        QVERIFY(writer.waitForFinished(20000));
        QVERIFY2(QFile::exists(source + QStringLiteral("-journal")), "the writer left no journal");
        const QByteArray before = sha256(source);
        const QString error = failingImport(source);
        QVERIFY2(error.startsWith(source) && error.contains(QLatin1String("stopped in the middle"))
                && error.contains(QLatin1String("-journal")),
            qPrintable(error));
        QCOMPARE(sha256(source), before);
    }

    // A store whose "events" is a view that recurses without end: refused at once, named; reading it hung.
    void aViewForATableIsRefused()
    {
        QTemporaryDir dir;
        const QString source = copyFixture(dir, QStringLiteral("roomkit/support.sqlite"));
        execSql(source, QStringLiteral("ALTER TABLE events RENAME TO events_kept; CREATE VIEW events AS WITH RECURSIVE "
                                       "n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n) SELECT e.* FROM events_kept e, n"));
        QElapsedTimer timer;
        timer.start();
        Workspace ws(dir.filePath(QStringLiteral("w.sightline")));
        try {
            Importer::import(ws, source, {}, Importer::Format::RoomKitSqlite);
            QFAIL("a view was read");
        } catch (const StoreError& e) {
            QVERIFY2(e.toString().contains(QLatin1String("\"events\" is a view")), qPrintable(e.toString()));
        }
        QVERIFY(timer.elapsed() < 30000);
    }

    void roomWithoutItsRow()
    {
        QTemporaryDir dir;
        const QString source = copyFixture(dir, QStringLiteral("roomkit/support.sqlite"));
        execSql(source, QStringLiteral("DELETE FROM rooms WHERE id = 'sup-handoff-es'"));
        Workspace ws(dir.filePath(QStringLiteral("w.sightline")));
        const ImportReport report = Importer::import(ws, source);
        QCOMPARE(report.added(), 113);
        QCOMPARE(ws.rooms().size(), 8);
        QVERIFY(report.problems.join(QLatin1Char('\n'))
                    .contains(QLatin1String("room sup-handoff-es: events without a row")));
    }
};

QTEST_GUILESS_MAIN(TestBadInput)
#include "tst_badinput.moc"
