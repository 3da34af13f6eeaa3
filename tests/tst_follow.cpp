// Live follow: a writer appends to each kind of source while Sightline syncs it again and again, as the window
// and `events --follow` do. Every event arrives once and in order, a call whose end comes later turns from
// unserved into its outcome, a line or record caught half written is whole in the end, a rotated log is read
// again, and the result equals one import of what the writer left. The writer's file is never written.

#include "sources/importer.h"
#include "sources/sourcestamps.h"
#include "testsupport.h"
#include "workspace.h"

#include <csignal>
#include <QDir>
#include <QFile>
#include <QRandomGenerator>
#include <QTest>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace TestSupport;

namespace {

// Runs `write` in a child process; `sync` is called in this one until the child has exited, then once more.
// Returns how many syncs ran while it wrote.
int whileWriting(const std::function<void()>& write, const std::function<void()>& sync)
{
    const pid_t child = fork();
    if (child == 0) {
        write();
        _exit(0);
    }
    int syncs = 0;
    int status = 0;
    while (waitpid(child, &status, WNOHANG) == 0) {
        sync();
        ++syncs;
        QTest::qWait(5);
    }
    sync();
    return syncs;
}

void pause(int maxMs)
{
    usleep(useconds_t(QRandomGenerator::global()->bounded(0, maxMs)) * 1000);
}

void appendBytes(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    if (!f.open(QIODevice::Append))
        _exit(2);
    f.write(bytes);
    f.close();
}

// The seq of every row of a room, in order.
QVector<qint64> seqs(Workspace& ws, const QString& room)
{
    QVector<qint64> out;
    for (const QString& s : dump(ws,
             QStringLiteral("SELECT e.seq FROM events e JOIN rooms r ON r.id = e.room_id WHERE r.native_id = '%1' "
                            "ORDER BY e.id")
                 .arg(room)))
        out << s.toLongLong();
    return out;
}

QVector<qint64> range(qint64 from, qint64 to)
{
    QVector<qint64> out;
    for (qint64 i = from; i <= to; ++i)
        out << i;
    return out;
}

} // namespace

class TestFollow : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    // The one cadence of the window and `events --follow`: a file synced at the look after it changed, a database
    // asked once every fourth look, and a source whose sync failed due again at the next look though it did not move.
    void oneCadenceForEveryFollower()
    {
        QTemporaryDir dir;
        const QString log = dir.filePath(QStringLiteral("thread.jsonl"));
        QFile file(log);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{}\n");
        file.flush();
        const QString database = QStringLiteral("postgresql://reader@127.0.0.1:5/roomkit");
        SourceStamps stamps;
        stamps.reset({ log, database });
        QCOMPARE(SourceStamps::LookMs * SourceStamps::DatabaseLooks, 1000);
        for (int look = 1; look < SourceStamps::DatabaseLooks; ++look)
            QCOMPARE(stamps.look(), QStringList());
        QCOMPARE(stamps.look(), QStringList { database });
        stamps.synced();
        file.write("{\"type\":\"RUN_STARTED\"}\n");
        file.flush();
        QCOMPARE(stamps.look(), QStringList { log });
        stamps.failed();
        QCOMPARE(stamps.look(), QStringList { log }); // tried again, unchanged since
        stamps.synced();
        QCOMPARE(stamps.look(), QStringList()); // the seventh: the file as it was synced
        QCOMPARE(stamps.look(), QStringList { database }); // the eighth
        stamps.synced();
        QCOMPARE(stamps.look(), QStringList());
    }

    // RoomKit writing its SQLite store (WAL) while Sightline reads it: messages, and a tool call whose end is
    // written a while after its start.
    void aRoomKitStoreBeingWritten()
    {
        const QString store = copyFixture(m_dir, QStringLiteral("roomkit/support.sqlite"), QStringLiteral("live.sqlite"));
        Workspace ws(m_dir.filePath(QStringLiteral("live.sightline")));
        Importer::import(ws, store);
        const int rows = 60;
        QByteArray written;
        bool sawOpen = false;
        const int syncs = whileWriting(
            [&] {
                sqlite3* db = nullptr;
                sqlite3_open(store.toUtf8().constData(), &db);
                sqlite3_busy_timeout(db, 5000);
                // Copies of the room's own rows with new ids and indexes: a message, or a call's start (index
                // 100 + 20) whose end (100 + 40) comes twenty rows later.
                const char* sql = "INSERT INTO events SELECT 'live-' || ?1, room_id, ?1, type, visibility, "
                                  "source_channel_id, source_channel_type, participant_id, ?3, parent_event_id, NULL, "
                                  "created_ts + ?1, json_set(data, '$.id', 'live-' || ?1, '$.index', ?1, "
                                  "'$.correlation_id', ?3, '$.content.tool_id', 'toolu_live') "
                                  "FROM events WHERE room_id = 'sup-late-delivery' AND idx = ?2";
                sqlite3_stmt* st = nullptr;
                sqlite3_prepare_v2(db, sql, -1, &st, nullptr);
                for (int i = 100; i < 100 + rows; ++i) {
                    const int from = i == 120 ? 4 : i == 140 ? 5 : 2;
                    sqlite3_bind_int(st, 1, i);
                    sqlite3_bind_int(st, 2, from);
                    sqlite3_bind_text(st, 3, from == 2 ? "live-message" : "live-turn", -1, SQLITE_STATIC);
                    if (sqlite3_step(st) != SQLITE_DONE)
                        _exit(3);
                    sqlite3_reset(st);
                    pause(8);
                }
                sqlite3_finalize(st);
                sqlite3_close(db); // the last connection: the WAL is checkpointed and removed
            },
            [&] {
                Importer::import(ws, store);
                const QStringList call = dump(ws,
                    QStringLiteral("SELECT c.pairing FROM tool_calls c JOIN rooms r ON r.id = c.room_id "
                                   "WHERE r.native_id = 'sup-late-delivery' AND c.start_seq = 120"));
                sawOpen = sawOpen || call == QStringList { QStringLiteral("start_only") };
            });
        QVERIFY2(syncs > 5, qPrintable(QString::number(syncs)));
        written = sha256(store);
        // Once each, in order, and the call answered in place.
        QCOMPARE(seqs(ws, QStringLiteral("sup-late-delivery")), range(0, 15) + range(100, 100 + rows - 1));
        QVERIFY2(sawOpen, "no sync saw the call before its end");
        QCOMPARE(dump(ws,
                     QStringLiteral("SELECT c.pairing, c.outcome, c.end_seq FROM tool_calls c JOIN rooms r ON "
                                    "r.id = c.room_id WHERE r.native_id = 'sup-late-delivery' AND c.start_seq = 120")),
            QStringList { QStringLiteral("exact|served|140") });
        // As one import of the file the writer left, and the file as the writer left it.
        Workspace clean(m_dir.filePath(QStringLiteral("clean.sightline")));
        Importer::import(clean, store);
        QCOMPARE(roomByPosition(ws, QStringLiteral("sup-late-delivery")),
            roomByPosition(clean, QStringLiteral("sup-late-delivery")));
        QCOMPARE(sha256(store), written);
    }

    // A sync reads only the new rows for the room's participants and channel types (rooms.counted_through): one who
    // first speaks in them goes at the end of the list, as a whole count puts them.
    void aRoomsParticipantsGrowWithItsRows()
    {
        QTemporaryDir dir;
        const QString store = copyFixture(dir, QStringLiteral("roomkit/support.sqlite"), QStringLiteral("grow.sqlite"));
        Workspace ws(dir.filePath(QStringLiteral("grow.sightline")));
        Importer::import(ws, store);
        const QString room = QStringLiteral("sup-late-delivery");
        const auto figures = [&](Workspace& w) {
            return dump(w,
                QStringLiteral("SELECT participants, channel_types, counted_through FROM rooms WHERE native_id = '%1'")
                    .arg(room));
        };
        const QStringList before = figures(ws);
        QCOMPARE(before.value(0).section(QLatin1Char('|'), 2), QStringLiteral("15")); // its last index
        QVERIFY2(!before.value(0).contains(QLatin1String("live-visitor")), qPrintable(before.value(0)));
        // Two rows of a new participant on a new channel, and one of a participant the room knows.
        execSql(store,
            QStringLiteral("INSERT INTO events SELECT 'live-' || i.n, room_id, i.n, type, visibility, 'sms-1', i.kind, "
                           "i.who, NULL, NULL, NULL, created_ts + i.n, json_set(data, '$.id', 'live-' || i.n, '$.index', "
                           "i.n, '$.source.channel_id', 'sms-1', '$.source.channel_type', i.kind, '$.source.participant_id', "
                           "i.who) FROM events, (SELECT 100 AS n, 'live-visitor' AS who, 'sms' AS kind UNION ALL SELECT 101, "
                           "'cust-maya-r', 'websocket' UNION ALL SELECT 102, 'live-visitor', 'sms') AS i WHERE room_id = "
                           "'%1' AND idx = 2")
                .arg(room));
        Importer::import(ws, store);
        const QStringList after = figures(ws);
        const QStringList was = before.value(0).split(QLatin1Char('|'));
        QCOMPARE(after,
            QStringList { was[0] + QStringLiteral(",live-visitor|") + was[1] + QStringLiteral(",sms|102") });
        // The same as one import of the store, figures and rows.
        Workspace clean(dir.filePath(QStringLiteral("clean.sightline")));
        Importer::import(clean, store);
        QCOMPARE(figures(ws), figures(clean));
        QCOMPARE(roomByPosition(ws, room), roomByPosition(clean, room));
    }

    // kaboo writing a thread's JSON Lines log, a line at a time and sometimes half a line, and a second thread's
    // file appearing in the folder.
    void anAguiFolderBeingWritten()
    {
        QTemporaryDir dir;
        const QString folder = dir.filePath(QStringLiteral("threads"));
        QDir().mkpath(folder);
        QFile source(dataFile(QStringLiteral("agui/threads/maya.okafor__th_2kpkvbvvwfrtqgtevffs.jsonl")));
        QVERIFY(source.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = source.readAll().trimmed().split('\n');
        QFile other(dataFile(QStringLiteral("agui/threads/sam.ng__th_kdrxq2s9agjmbhs5ge5c.jsonl")));
        QVERIFY(other.open(QIODevice::ReadOnly));
        const QByteArray second = other.readAll();
        const QString log = folder + QStringLiteral("/maya.okafor__th_2kpkvbvvwfrtqgtevffs.jsonl");
        appendBytes(log, lines.mid(0, 10).join('\n') + '\n');
        Workspace ws(dir.filePath(QStringLiteral("w.sightline")));
        Importer::import(ws, folder);
        const int syncs = whileWriting(
            [&] {
                for (qsizetype i = 10; i < lines.size(); ++i) {
                    const QByteArray line = lines[i] + '\n';
                    if (i % 7 == 0) { // half a line, then the rest: a reader may come in between
                        appendBytes(log, line.left(line.size() / 2));
                        pause(15);
                        appendBytes(log, line.mid(line.size() / 2));
                    } else {
                        appendBytes(log, line);
                    }
                    if (i == 60)
                        appendBytes(folder + QStringLiteral("/sam.ng__th_kdrxq2s9agjmbhs5ge5c.jsonl"), second);
                    pause(4);
                }
            },
            [&] { Importer::import(ws, folder); });
        QVERIFY2(syncs > 5, qPrintable(QString::number(syncs)));
        QCOMPARE(ws.rooms().size(), 2);
        QCOMPARE(seqs(ws, QStringLiteral("maya.okafor__th_2kpkvbvvwfrtqgtevffs")), range(0, lines.size() - 1));
        QCOMPARE(dump(ws, QStringLiteral("SELECT count(*) FROM events WHERE flags & 1")), QStringList { QStringLiteral("0") });
        Workspace clean(dir.filePath(QStringLiteral("clean.sightline")));
        Importer::import(clean, folder);
        for (const QString& room :
            { QStringLiteral("maya.okafor__th_2kpkvbvvwfrtqgtevffs"), QStringLiteral("sam.ng__th_kdrxq2s9agjmbhs5ge5c") })
            QCOMPARE(roomByPosition(ws, room), roomByPosition(clean, room));
    }

    // CraftBot appending to its EVENT.md, records sometimes caught half written, and rotating it (the oldest
    // third of its lines dropped in place) half way.
    void anEventMdBeingWrittenAndRotated()
    {
        QTemporaryDir dir;
        QFile source(dataFile(QStringLiteral("craftbot/EVENT.md")));
        QVERIFY(source.open(QIODevice::ReadOnly));
        const QByteArray all = source.readAll();
        // Split into records at their time stamps.
        QList<QByteArray> records;
        qsizetype at = 0;
        while (at < all.size()) {
            qsizetype next = all.indexOf("\n[20", at + 1);
            next = next < 0 ? all.size() : next + 1;
            records << all.mid(at, next - at);
            at = next;
        }
        QVERIFY(records.size() > 40);
        const QString log = dir.filePath(QStringLiteral("EVENT.md"));
        appendBytes(log, records.mid(0, 5).join());
        Workspace ws(dir.filePath(QStringLiteral("w.sightline")));
        Importer::import(ws, log);
        whileWriting(
            [&] {
                for (qsizetype i = 5; i < records.size(); ++i) {
                    if (i % 5 == 0) {
                        appendBytes(log, records[i].left(records[i].size() / 2));
                        pause(15);
                        appendBytes(log, records[i].mid(records[i].size() / 2));
                    } else {
                        appendBytes(log, records[i]);
                    }
                    if (i == records.size() / 2 && !rotateLog(log, int(i / 3)))
                        _exit(4);
                    pause(4);
                }
            },
            [&] { Importer::import(ws, log); });
        Workspace clean(dir.filePath(QStringLiteral("clean.sightline")));
        Importer::import(clean, log);
        QCOMPARE(roomByPosition(ws, QStringLiteral("EVENT.md")), roomByPosition(clean, QStringLiteral("EVENT.md")));
        const QVector<qint64> indexes = seqs(ws, QStringLiteral("EVENT.md"));
        QCOMPARE(indexes, range(0, indexes.size() - 1));
    }

    // RoomKit's PostgresStore and kaboo's PostgresThreadStore gaining a room and a thread, a few rows at a
    // time, synced after each: in the end each equals the room or thread it was copied from.
    void postgresStoresBeingWritten()
    {
        const PgServer& pg = PgServer::get();
        if (!pg.unavailable.isEmpty())
            QSKIP(qPrintable(QStringLiteral("PostgreSQL: ") + pg.unavailable));
        QTemporaryDir dir;
        Workspace ws(dir.filePath(QStringLiteral("w.sightline")));
        const QString roomkit = pg.uri(QStringLiteral("roomkit_live"));
        const QString kaboo = pg.uri(QStringLiteral("kaboo_live"));
        pg.exec(QStringLiteral("roomkit_live"),
            QStringLiteral("DELETE FROM events WHERE room_id = 'live-room'; DELETE FROM rooms WHERE id = 'live-room'; "
                           "INSERT INTO rooms SELECT 'live-room', organization_id, status, event_count, latest_index, "
                           "delivered_index, metadata, timers, agent_response_policy, created_at + interval '1 day', "
                           "updated_at, closed_at FROM rooms WHERE id = 'sup-late-delivery'"));
        pg.exec(QStringLiteral("kaboo_live"), QStringLiteral("DELETE FROM kaboo_thread_events WHERE thread_id = 'live-thread'"));
        Importer::import(ws, roomkit);
        Importer::import(ws, kaboo);
        QCOMPARE(seqs(ws, QStringLiteral("live-room")), QVector<qint64>());
        // Four rows of the room at a time, and a sync after each batch.
        for (int from = 0; from < 16; from += 4) {
            pg.exec(QStringLiteral("roomkit_live"),
                QStringLiteral("INSERT INTO events SELECT id || '-live', 'live-room', type, content, source_channel_id, "
                               "source_channel_type, source_direction, source_participant_id, source_provider, "
                               "source_extra, status, visibility, addressed_to, response_visibility, \"index\", "
                               "chain_depth, correlation_id, parent_event_id, idempotency_key, blocked_by, metadata, "
                               "channel_data, created_at FROM events WHERE room_id = 'sup-late-delivery' AND "
                               "\"index\" BETWEEN %1 AND %2")
                    .arg(from)
                    .arg(from + 3));
            Importer::import(ws, roomkit);
            QCOMPARE(seqs(ws, QStringLiteral("live-room")), range(0, from + 3));
        }
        QCOMPARE(roomByPosition(ws, QStringLiteral("live-room")), roomByPosition(ws, QStringLiteral("sup-late-delivery")));
        // A thread's events copied twenty at a time, in seq order, with new seqs after every other thread's: each
        // sync reads only the events after the last seq it read, and the thread assembles across the syncs as in
        // one read.
        const QString copied = QStringLiteral("th_985v8nrjgmpy2gn91679");
        for (int part = 0; part < 5; ++part) {
            pg.exec(QStringLiteral("kaboo_live"),
                QStringLiteral("INSERT INTO kaboo_thread_events(thread_id, event) SELECT 'live-thread', event FROM "
                               "(SELECT event, seq, row_number() OVER (ORDER BY seq) - 1 AS n FROM kaboo_thread_events "
                               "WHERE thread_id = '%1') t WHERE n BETWEEN %2 AND %3 ORDER BY seq")
                    .arg(copied)
                    .arg(part * 20)
                    .arg(part * 20 + 19));
            const ImportReport report = Importer::import(ws, kaboo);
            QCOMPARE(report.added(), 20);
            QCOMPARE(seqs(ws, QStringLiteral("live-thread")).size(), (part + 1) * 20);
        }
        QCOMPARE(roomByPosition(ws, QStringLiteral("live-thread")), roomByPosition(ws, copied));
    }
};

QTEST_GUILESS_MAIN(TestFollow)
#include "tst_follow.moc"
