// The one import loop (Importer::run) through a SourceReader that lives in memory, as a database server's would:
// what every format gets from it without writing it again (rooms biggest first, streamed pairing across syncs,
// a rotated room read again, a cancel that resumes to a clean import's workspace, the origin as the reader names
// it).

#include "eventflags.h"
#include "testsupport.h"
#include "sources/importer.h"
#include "sources/roomfeed.h"
#include "sources/sourcereader.h"
#include "workspace.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QTemporaryDir>
#include <QTest>

using TestSupport::dump;

namespace {

// A room of rows: "m" a message, "s:ID" a tool start, "e:ID" its end, "e:ID:failed" an end that failed.
struct MemoryRoom
{
    QString id;
    QStringList rows;
    QString generation = QStringLiteral("1"); // what replacedSince compares: a new one is a rewritten room
};

class MemoryReader : public SourceReader
{
public:
    QVector<MemoryRoom> rooms_;
    int readsStarted = 0;

    QString origin() const override { return QStringLiteral("memory://test/rooms"); }
    SourceIdentity identity() const override
    {
        return { QStringLiteral("memory"), QStringLiteral("memory.v1"), QStringLiteral("1") };
    }
    QVector<RoomInfo> rooms(const SourceNotes&) override
    {
        QVector<RoomInfo> out;
        for (const MemoryRoom& r : std::as_const(rooms_)) {
            RoomInfo info;
            info.nativeId = r.id;
            info.title = QStringLiteral("Room ") + r.id;
            info.nativeJson = QJsonDocument(QJsonObject { { QStringLiteral("generation"), r.generation } })
                                  .toJson(QJsonDocument::Compact);
            out << info;
        }
        return out;
    }
    bool replacedSince(const RoomInfo& now, const QByteArray& stored) const override
    {
        return QJsonDocument::fromJson(stored).object() != QJsonDocument::fromJson(now.nativeJson).object();
    }
    qint64 rowsAfter(const RoomCursor& cursor) override
    {
        return std::max<qint64>(0, room(cursor.nativeId).rows.size() - 1 - cursor.syncedSeq);
    }
    void read(const RoomCursor& cursor, RoomFeed& feed) override
    {
        ++readsStarted;
        const MemoryRoom& r = room(cursor.nativeId);
        feed.setStreamed();
        qint64 synced = cursor.syncedSeq;
        for (qint64 i = cursor.syncedSeq + 1; i < r.rows.size() && !feed.stopped(); ++i) {
            const QStringList parts = r.rows[i].split(QLatin1Char(':'));
            StoredEvent row;
            row.record.index = i;
            row.record.nativeId = r.id + QLatin1Char('-') + QString::number(i);
            row.record.createdMicros = 1'700'000'000'000'000 + i * 1'000'000;
            row.payload = QJsonDocument(QJsonObject { { QStringLiteral("row"), r.rows[i] } }).toJson(QJsonDocument::Compact);
            if (parts[0] == QLatin1String("m")) {
                row.record.type = QStringLiteral("message");
                row.record.kind = EventKind::Message;
                row.record.text = row.body = QStringLiteral("message %1").arg(i);
            } else {
                ToolEvent t;
                t.index = i;
                t.isStart = parts[0] == QLatin1String("s");
                t.toolId = parts[1];
                t.toolName = QStringLiteral("lookup");
                t.createdMicros = row.record.createdMicros;
                if (!t.isStart && parts.size() > 2)
                    t.outcome = Outcomes::fromName(parts[2]);
                row.record.type = t.isStart ? QStringLiteral("tool_call_start") : QStringLiteral("tool_call_end");
                row.record.kind = EventKind::ToolCall;
                row.record.toolId = t.toolId;
                row.record.toolName = t.toolName;
                row.record.outcome = t.isStart ? Outcome::None : (t.outcome == Outcome::None ? Outcome::Served : t.outcome);
                if (feed.pair(t))
                    row.record.flags |= EventFlags::Folded;
            }
            feed.add(row);
            synced = i;
        }
        feed.setSynced(synced);
    }

private:
    const MemoryRoom& room(const QString& id) const
    {
        for (const MemoryRoom& r : rooms_) {
            if (r.id == id)
                return r;
        }
        static const MemoryRoom none;
        return none;
    }
};

// What an import leaves: rooms with their counts and cursors, every row, every call.
QStringList state(Workspace& ws)
{
    return dump(ws, QStringLiteral("SELECT native_id, title, event_count, tool_calls, failed, unserved, synced_seq FROM rooms ORDER BY 1"))
        + dump(ws, QStringLiteral("SELECT r.native_id, e.seq, (SELECT name FROM words WHERE code = e.type), (SELECT name FROM words WHERE code = e.kind), e.outcome, e.flags FROM events e JOIN rooms r ON r.id = e.room_id ORDER BY 1, 2"))
        + dump(ws, QStringLiteral("SELECT r.native_id, c.tool_id, c.start_seq, c.end_seq, c.outcome, c.pairing, c.duration_ms FROM tool_calls c JOIN rooms r ON r.id = c.room_id ORDER BY 1, 3, 4"));
}

ImportReport importInto(Workspace& ws, MemoryReader& reader, const ImportOptions& options = {})
{
    return Importer::run(ws, reader, QStringLiteral("memory://test/rooms"), options);
}

} // namespace

class TestImportLoop : public QObject
{
    Q_OBJECT

private slots:
    void roomsBiggestFirstWithTheirCallsPaired()
    {
        QTemporaryDir dir;
        Workspace ws(dir.filePath(QStringLiteral("w.sightline")));
        MemoryReader reader;
        reader.rooms_ = { { QStringLiteral("small"), { QStringLiteral("m"), QStringLiteral("s:a"), QStringLiteral("e:a") } },
            { QStringLiteral("big"),
                { QStringLiteral("m"), QStringLiteral("s:a"), QStringLiteral("s:b"), QStringLiteral("e:b:failed"),
                    QStringLiteral("e:a"), QStringLiteral("s:c"), QStringLiteral("m") } } };
        const ImportReport report = importInto(ws, reader);
        QCOMPARE(report.format, QStringLiteral("memory.v1"));
        QCOMPARE(report.rooms.size(), 2);
        QCOMPARE(report.rooms[0].nativeId, QStringLiteral("big")); // the one a reader waits for
        QCOMPARE(report.rooms[0].added, 7);
        QCOMPARE(report.rooms[1].added, 3);
        QSqlQuery source = ws.exec(QStringLiteral("SELECT system, format, origin, schema_version FROM sources"));
        QVERIFY(source.next());
        QCOMPARE(source.value(0).toString(), QStringLiteral("memory"));
        QCOMPARE(source.value(2).toString(), QStringLiteral("memory://test/rooms")); // as the reader names it
        const QStringList calls = dump(ws, QStringLiteral("SELECT r.native_id, c.tool_id, c.start_seq, c.end_seq, c.outcome, c.pairing, c.duration_ms FROM tool_calls c JOIN rooms r ON r.id = c.room_id ORDER BY 1, 3"));
        QCOMPARE(calls,
            QStringList({ QStringLiteral("big|a|1|4|served|exact|3000"), QStringLiteral("big|b|2|3|failed|exact|1000"),
                QStringLiteral("big|c|5||unserved|start_only|"), QStringLiteral("small|a|1|2|served|exact|1000") }));
        // The ends that closed a start show inside its card.
        QCOMPARE(dump(ws, QStringLiteral("SELECT seq FROM events WHERE flags & %1 ORDER BY room_id, seq").arg(int(EventFlags::Folded))).size(), 3);
        QCOMPARE(dump(ws, QStringLiteral("SELECT event_count, tool_calls, failed, unserved FROM rooms WHERE native_id = 'big'")),
            QStringList({ QStringLiteral("7|3|1|1") }));
    }

    void aSyncClosesTheCallsTheLastOneLeftOpen()
    {
        QTemporaryDir dir;
        Workspace ws(dir.filePath(QStringLiteral("w.sightline")));
        MemoryReader reader;
        reader.rooms_ = { { QStringLiteral("r"), { QStringLiteral("m"), QStringLiteral("s:a"), QStringLiteral("s:b") } } };
        importInto(ws, reader);
        QCOMPARE(dump(ws, QStringLiteral("SELECT count(*) FROM tool_calls WHERE pairing = 'start_only'")), QStringList({ QStringLiteral("2") }));
        reader.rooms_[0].rows << QStringLiteral("e:b") << QStringLiteral("m") << QStringLiteral("e:a:failed");
        const ImportReport sync = importInto(ws, reader);
        QCOMPARE(sync.rooms.value(0).added, 3);

        // One import of the whole room gives the same workspace.
        QTemporaryDir other;
        Workspace clean(other.filePath(QStringLiteral("w.sightline")));
        importInto(clean, reader);
        QCOMPARE(state(ws), state(clean));
        QCOMPARE(dump(ws, QStringLiteral("SELECT tool_id, start_seq, end_seq, outcome FROM tool_calls ORDER BY start_seq")),
            QStringList({ QStringLiteral("a|1|5|failed"), QStringLiteral("b|2|3|served") }));
    }

    void aRoomRewrittenSinceIsReadAgainFromTheStart()
    {
        QTemporaryDir dir;
        Workspace ws(dir.filePath(QStringLiteral("w.sightline")));
        MemoryReader reader;
        reader.rooms_ = { { QStringLiteral("r"), { QStringLiteral("m"), QStringLiteral("s:a"), QStringLiteral("e:a") } } };
        importInto(ws, reader);
        reader.rooms_[0].rows = { QStringLiteral("s:z"), QStringLiteral("m") };
        reader.rooms_[0].generation = QStringLiteral("2");
        const ImportReport again = importInto(ws, reader);
        QVERIFY2(again.problems.join(QLatin1Char('\n')).contains(QLatin1String("room r was rotated or rewritten")),
            qPrintable(again.problems.join(QLatin1Char('\n'))));
        QTemporaryDir other;
        Workspace clean(other.filePath(QStringLiteral("w.sightline")));
        importInto(clean, reader);
        QCOMPARE(state(ws), state(clean));
        QCOMPARE(dump(ws, QStringLiteral("SELECT event_count, tool_calls, unserved FROM rooms")), QStringList({ QStringLiteral("2|1|1") }));
    }

    void aCancelledImportResumesToACleanOnesWorkspace()
    {
        MemoryReader reader;
        MemoryRoom big { QStringLiteral("big"), {} };
        for (int i = 0; i < 5000; ++i) {
            const QString id = QString::number(i / 4);
            big.rows << (i % 4 == 0 ? QStringLiteral("m") : i % 4 == 1 ? QStringLiteral("s:") + id
                    : i % 4 == 2 && i % 7 ? QStringLiteral("e:") + id : QStringLiteral("m"));
        }
        reader.rooms_ = { big, { QStringLiteral("other"), { QStringLiteral("s:x"), QStringLiteral("e:x") } } };

        QTemporaryDir dir;
        Workspace ws(dir.filePath(QStringLiteral("w.sightline")));
        ImportOptions options;
        options.batchRows = 700;
        int batches = 0;
        options.progress = [&batches](qint64, qint64) { ++batches; };
        options.isCancelled = [&batches] { return batches >= 3; };
        const ImportReport cancelled = importInto(ws, reader, options);
        QVERIFY(cancelled.cancelled);
        QCOMPARE(reader.readsStarted, 1); // the next room was not begun
        const qint64 stored = dump(ws, QStringLiteral("SELECT count(*) FROM events")).value(0).toLongLong();
        QVERIFY2(stored > 0 && stored < 5000, qPrintable(QString::number(stored)));

        options.isCancelled = {};
        const ImportReport resumed = importInto(ws, reader, options);
        QVERIFY(!resumed.cancelled);
        QCOMPARE(resumed.rooms.value(0).added + stored, qint64(5000));

        QTemporaryDir other;
        Workspace clean(other.filePath(QStringLiteral("w.sightline")));
        importInto(clean, reader);
        QCOMPARE(state(ws), state(clean));
    }
};

QTEST_GUILESS_MAIN(TestImportLoop)
#include "tst_importloop.moc"
