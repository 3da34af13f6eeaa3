// The workspace's big text, packed (TextPacker): what a user reads is the same as unpacked, the file is smaller,
// and a value zstd cannot read is an error naming the workspace, not a crash.

#include "eventserializer.h"
#include "payloadvocabulary.h"
#include "schema.h"
#include "sources/importer.h"
#include "sqlitestatement.h"
#include "storeerror.h"
#include "testsupport.h"
#include "textpacker.h"
#include "workspace.h"
#include "workspacecompactor.h"

#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <csignal>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace TestSupport;

namespace {

// An AG-UI line, and what TextPacker::packPayload made of it when the vocabulary was made (aPayloadPackedEarlierStillReads).
constexpr char EarlierLine[] = "{\"type\":\"TOOL_CALL_ARGS\",\"delta\":\"{\\\"order_id\\\": \\\"A-10482\",\"timestamp\":"
                               "1784362366959,\"toolCallId\":\"call_rT0aXk2\"}";
constexpr char EarlierFrame[] = "032072e50100c4027b5c226f726465725f69645c223a205c22412d3130343832383433363233363639353972543061586b3222"
                                "7d0400392380b4b3f334880cc57956";

// A short random token, as a key or a hash is written: 48 random bytes in base64.
QByteArray randomToken(quint32 seed)
{
    QByteArray bytes(48, Qt::Uninitialized);
    QRandomGenerator random(seed);
    for (char& c : bytes)
        c = char(random.bounded(256));
    return bytes.toBase64();
}

qint64 count(Workspace& ws, const QString& sql)
{
    QSqlQuery q = ws.exec(sql);
    return q.next() ? q.value(0).toLongLong() : -1;
}

// What a reviewer sees of every room, through the workspace's own readers: each row (its text and payload), each
// call (arguments and results), what a search finds, and the cards a filter shows.
QStringList seen(Workspace& ws, const QStringList& words)
{
    QStringList out;
    EventFilter all;
    all.includeBlocked = true;
    PageRequest page;
    page.limit = 1000000;
    for (const RoomSummary& room : ws.rooms()) {
        for (const EventRecord& e : ws.listEvents(room.id, all, page))
            out << QString::fromUtf8(EventSerializer::eventJson(e) + '|' + ws.payload(e.rowId).toBase64());
        for (const ToolCallRecord& c : ws.toolCalls(room.id))
            out << QString::fromUtf8(EventSerializer::callJson(c)) + QLatin1Char('|') + c.arguments + QLatin1Char('|')
                    + c.result + QLatin1Char('|') + ws.callResults(room.id, c).join(QLatin1Char('|'));
        for (const ToolCallRecord& c : ws.toolCallsShown(room.id, all))
            out << c.toolId + QLatin1Char('|') + c.arguments;
        for (const QString& word : words) {
            for (const EventRecord& hit : ws.search(room.id, word, 1000, true))
                out << word + QLatin1Char(':') + QString::number(hit.index);
        }
    }
    return out;
}

// The workspace at `path` with every packed text written back as text: how it was before packing.
void unpackAll(const QString& path)
{
    Workspace ws(path);
    ws.exec(QStringLiteral("UPDATE events SET payload = unpack(payload) WHERE typeof(unpack(payload)) = 'text'"));
    ws.exec(QStringLiteral("UPDATE events SET text = unpack(text)"));
    ws.exec(QStringLiteral("UPDATE tool_calls SET arguments = unpack(arguments), result = unpack(result)"));
    ws.exec(QStringLiteral("UPDATE search_text SET body = unpack(body), arguments = unpack(arguments), "
                           "result = unpack(result)"));
    ws.exec(QStringLiteral("VACUUM"));
}

} // namespace

class TestTextPacker : public QObject
{
    Q_OBJECT

private slots:
    void valuesComeBackAsTheyWere()
    {
        sqlite3* db = nullptr;
        QCOMPARE(sqlite3_open(":memory:", &db), SQLITE_OK);
        {
            TextPacker packer(db);
            bool packed = true;
            // Short: stored as it is, a frame would not pay.
            QCOMPARE(packer.pack("hello", packed), QByteArray("hello"));
            QVERIFY(!packed);
            // Long and repetitive (a tool result): packed, smaller, and back byte for byte, as text.
            QByteArray result;
            for (int i = 0; i < 200; ++i)
                result += "{\"order_id\":\"A-" + QByteArray::number(10000 + i) + "\",\"status\":\"shipped\"},";
            const QByteArray stored = packer.pack(result, packed);
            QVERIFY(packed);
            QVERIFY2(stored.size() * 5 < result.size(), QByteArray::number(stored.size()).constData());
            bool isText = false;
            QCOMPARE(packer.unpack(stored, &isText), result);
            QVERIFY(isText);
            // A short random token (a key, a hash) does not shrink: kept as it is.
            const QByteArray noise = randomToken(7);
            QCOMPARE(packer.pack(noise, packed), noise);
            QVERIFY(!packed);
            // Bytes that are not UTF-8: always packed, and said to be bytes.
            const QByteArray bytes("\xff\xfe not UTF-8 \xc3", 15);
            QCOMPARE(packer.unpack(packer.packBytes(bytes), &isText), bytes);
            QVERIFY(!isText);
            // Multi-byte text survives whole.
            const QByteArray words = QStringLiteral("Grüße, 東京 🙏 ").repeated(20).toUtf8();
            QCOMPARE(packer.unpack(packer.pack(words, packed)), words);
            QVERIFY(packed);
        }
        sqlite3_close(db);
    }

    // A payload is packed against the formats' own words: a short AG-UI line, which alone would not pack, packs to
    // well under its size; a RoomKit row to well under what it packs to alone. Both come back byte for byte.
    void payloadsPackAgainstTheFormatsWords()
    {
        TextPacker packer(nullptr);
        bool packed = false;
        const QByteArray line = "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"delta\":\" the refund\",\"messageId\":"
                                "\"msg_GpJHePUrYZR8fGBbcHilVc\",\"timestamp\":1784362366959}";
        QVERIFY(line.size() < TextPacker::MinPacked);
        QCOMPARE(packer.pack(line, packed), line); // alone: too short to try
        const QByteArray stored = packer.packPayload(line, packed);
        QVERIFY(packed);
        QCOMPARE(stored.at(0), TextPacker::VocabularyTag);
        QVERIFY2(stored.size() * 10 < line.size() * 6, QByteArray::number(stored.size()).constData());
        bool isText = false;
        QCOMPARE(packer.unpack(stored, &isText), line);
        QVERIFY(isText);
        // A RoomKit row as RoomKit wrote it: a tool call's end.
        QTemporaryDir dir;
        Workspace ws(dir.filePath(QStringLiteral("w.sightline")));
        Importer::import(ws, dataFile(QStringLiteral("roomkit/support.sqlite")));
        QSqlQuery q = ws.exec(QStringLiteral("SELECT CAST(unpack(payload) AS BLOB) FROM events WHERE type = (SELECT code FROM words WHERE name = 'tool_call_end') LIMIT 1"));
        QVERIFY(q.next());
        const QByteArray row = q.value(0).toByteArray();
        QVERIFY(row.size() > 600);
        const QByteArray alone = packer.pack(row, packed);
        QVERIFY(packed);
        const QByteArray against = packer.packPayload(row, packed);
        QVERIFY(packed);
        QVERIFY2(against.size() * 3 < alone.size() * 2, qPrintable(QStringLiteral("%1 / %2").arg(against.size()).arg(alone.size())));
        QCOMPARE(packer.unpack(against), row);
        // Text the formats never write (a random token) does not shrink: kept as it is. So are the shortest.
        const QByteArray noise = randomToken(11);
        QCOMPARE(packer.packPayload(noise, packed), noise);
        QVERIFY(!packed);
        QCOMPARE(packer.packPayload("{}", packed), QByteArray("{}"));
        QVERIFY(!packed);
    }

    // The tests' check that a redacted word is gone from a file (TestSupport::fileHolds) sees it inside a packed
    // value, where a plain search of the bytes does not: a payload against the vocabulary, and a text packed alone.
    void aWordInsideAPackedValueIsFoundInTheFile()
    {
        TextPacker packer(nullptr);
        const QByteArray word = "zoe.quist@example.org";
        QByteArray body;
        for (int i = 0; i < 12; ++i)
            body += "the customer wrote on ticket " + QByteArray::number(4711 + i * 37) + " about a refund; ";
        const QByteArray line = "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"delta\":\"" + body + word + body
            + "\",\"messageId\":\"msg_GpJHePUrYZR8fGBbcHilVc\",\"timestamp\":1784362366959}";
        bool packed = false;
        const QByteArray payload = packer.packPayload(line, packed);
        QVERIFY(packed);
        const QByteArray text = packer.pack(body + word + body, packed);
        QVERIFY(packed);
        QTemporaryDir dir;
        QRandomGenerator random(5);
        for (const QByteArray& value : { payload, text }) {
            QByteArray around(3000, Qt::Uninitialized);
            for (char& c : around)
                c = char(random.bounded(256));
            const QString path = dir.filePath(QStringLiteral("page"));
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(around.left(1500) + value + around.mid(1500));
            f.close();
            QVERIFY2(!fileBytes(path).contains(word), "the word is plain in the frame: this test proves nothing");
            QVERIFY(fileHolds(path, word));
            QVERIFY(!fileHolds(path, "bo.lind@example.org"));
        }
    }

    // The vocabulary is part of the file format: a payload packed by an earlier build reads the same in this one.
    // Its bytes are pinned whole (a frame uses only the stretches it matched: zstd finds them by their distance
    // from the vocabulary's end, so one format's frame would not see a change in another's part), and a frame of
    // each format made when it was made still reads.
    void aPayloadPackedEarlierStillReads()
    {
        const QByteArrayView vocabulary = payloadVocabulary();
        QCOMPARE(vocabulary.size(), 6304);
        QCOMPARE(QCryptographicHash::hash(vocabulary, QCryptographicHash::Sha256).toHex(),
            QByteArray("ae7d524a7608257546f170db63cc5ef983354504d6f05dd7f2f97cf3b336d074"));
        TextPacker packer(nullptr);
        const QByteArray earlier = QByteArray::fromHex(EarlierFrame);
        QCOMPARE(earlier.at(0), TextPacker::VocabularyTag);
        QCOMPARE(packer.unpack(earlier), QByteArray(EarlierLine));
        // A CraftBot action record (its multi-line output) and a RoomKit message row (680 bytes): their length and
        // SHA-256 as they were packed.
        const struct
        {
            const char* frame;
            qsizetype size;
            const char* sha256;
        } formats[] {
            { "03209a450200f0352f30342030373a35393a3161666972655f61745f64656c6179223a20300c00ee7504f85f47d8f43a154cef3c"
              "48ab83a149b080af3a07e4ef6470b993e00da72f58398aee0102",
                154, "49f3ec67f68318ab277e842a45f0b4e17721d8151f8b15a518c96339524a810b" },
            { "0360a801ed0400a284101680276e00548d81b7347519d4e6bef4962c1f0ccc280c3bc8e01c340b664904fcc44f038bc00ae8a8"
              "2658fb9d10ac3530a85593358bd7f49fe6d4ebb9914ac8bc011b002848f9f30182051d0080874eb83169d81e9e134e88c86930"
              "3ae8e0434e0cf5700e14d5b990990f5114126228934300d12081c0cb88f83084aa381c46e218801b4e524785167808076c09c8"
              "b6872fe0ea2c7eef2c0301",
                680, "a6ecdf0ee3249b4ae3b1c2cfa5a82e74f5a3e78426322f2ece12b4a33605d399" },
        };
        for (const auto& f : formats) {
            const QByteArray text = packer.unpack(QByteArray::fromHex(f.frame));
            QCOMPARE(text.size(), f.size);
            QCOMPARE(QCryptographicHash::hash(text, QCryptographicHash::Sha256).toHex(), QByteArray(f.sha256));
        }
    }

    void aValuePackedAheadIsTheSameAndOnlyForItsValue()
    {
        // An import packs its payloads on the reading thread, with a packer of that thread's own: what the writer
        // stores must be what its own packer would have made, and it must use it only for the value it was made from.
        TextPacker reading(nullptr);
        sqlite3* db = nullptr;
        QCOMPARE(sqlite3_open(":memory:", &db), SQLITE_OK);
        {
            TextPacker writing(db);
            QByteArray result;
            for (int i = 0; i < 100; ++i)
                result += "{\"ticket\":" + QByteArray::number(i) + ",\"state\":\"open\"}";
            const QByteArray bytes("\xff\xfe not UTF-8 \xc3", 15);
            for (const auto& [value, asBytes] : { std::pair { result, false }, std::pair { QByteArray("short"), false },
                     std::pair { bytes, true } }) {
                const PackedValue ahead = reading.prepare(value, asBytes);
                bool packed = false;
                const QByteArray own = asBytes ? writing.packBytes(value) : writing.packPayload(value, packed);
                QCOMPARE(ahead.stored, own);
                QCOMPARE(ahead.packed, asBytes || packed);
                QVERIFY(ahead.isFor(value, asBytes));
                QVERIFY(!ahead.isFor(value, !asBytes)); // made as text, not bytes, or the other way
                QVERIFY(!ahead.isFor(QByteArray(value.constData(), value.size()), asBytes)); // an equal copy: not it
                QByteArray changed = value;
                changed.append('x'); // the value changed on the way: the prepared one is not for it
                QVERIFY(!ahead.isFor(changed, asBytes));
            }
            QVERIFY(!PackedValue().isFor(QByteArray(), false)); // nothing prepared
        }
        sqlite3_close(db);
    }

    void sqlFunctionsReadBothKinds()
    {
        QTemporaryDir dir;
        Workspace ws(dir.filePath(QStringLiteral("w.sightline")));
        const QString text = QStringLiteral("the refund of order A-10482 was issued twice; ").repeated(10);
        QSqlQuery q = ws.exec(QStringLiteral("SELECT typeof(pack(?)), unpack(pack(?)) = ?, unpack(?) = ?, "
                                             "unpack(NULL) IS NULL, typeof(pack('short')), length(pack(?)) < length(?), "
                                             "unpack(packpayload(?)) = ?, typeof(packpayload(?))"),
            { text, text, text, text, text, text, text, QString::fromLatin1(EarlierLine), QString::fromLatin1(EarlierLine),
                QString::fromLatin1(EarlierLine) });
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toString(), QStringLiteral("blob"));
        QVERIFY(q.value(1).toBool());
        QVERIFY(q.value(2).toBool());
        QVERIFY(q.value(3).toBool());
        QCOMPARE(q.value(4).toString(), QStringLiteral("text"));
        QVERIFY(q.value(5).toBool());
        QVERIFY(q.value(6).toBool());
        QCOMPARE(q.value(7).toString(), QStringLiteral("blob"));
    }

    // A BLOB that is not one of ours, or one cut short: a clear error naming the workspace, never a crash or a text.
    void aDamagedValueIsAnErrorNamingTheFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("damaged.sightline"));
        Workspace ws(path);
        Importer::import(ws, dataFile(QStringLiteral("craftbot/EVENT.md")));
        QSqlQuery row = ws.exec(QStringLiteral("SELECT id, payload FROM events WHERE typeof(payload) = 'blob' LIMIT 1"));
        QVERIFY(row.next());
        const qint64 id = row.value(0).toLongLong();
        const QByteArray packed = row.value(1).toByteArray();
        row.finish();
        const QByteArrayList damaged { packed.left(packed.size() / 2), QByteArray("\x07garbage"), QByteArray("\x01"),
            QByteArray(1, TextPacker::TextTag) + QByteArray(40, '\0'), QByteArray(1, TextPacker::VocabularyTag) + QByteArray(40, '\0'),
            QByteArray(1, TextPacker::VocabularyTag) + QByteArray::fromHex(EarlierFrame).mid(1, 6) };
        for (const QByteArray& bad : damaged) {
            QVERIFY_THROWS_EXCEPTION(StoreError, ws.packer().unpack(bad));
            ws.exec(QStringLiteral("UPDATE events SET payload = ? WHERE id = ?"), { bad, id });
            try {
                ws.payload(id);
                QFAIL("a damaged payload was read");
            } catch (const StoreError& e) {
                QVERIFY2(e.toString().contains(path), qPrintable(e.toString()));
                QVERIFY2(e.toString().contains(QLatin1String("a packed value cannot be read")), qPrintable(e.toString()));
            }
        }
        // The rest of the room still reads.
        ws.exec(QStringLiteral("UPDATE events SET payload = ? WHERE id = ?"), { packed, id });
        QVERIFY(!ws.payload(id).isEmpty());
    }

    // Packed or not, a reviewer sees the same rows, calls, payloads and search hits; packed, the file is smaller.
    void aPackedWorkspaceReadsAsAnUnpackedOne_data()
    {
        QTest::addColumn<QString>("source");
        QTest::addColumn<QStringList>("words");
        QTest::newRow("roomkit") << QStringLiteral("roomkit/support.sqlite")
                                 << QStringList { QStringLiteral("refund"), QStringLiteral("charged") };
        QTest::newRow("craftbot") << QStringLiteral("craftbot/EVENT.md")
                                  << QStringList { QStringLiteral("calendar"), QStringLiteral("error") };
        QTest::newRow("agui") << QStringLiteral("agui")
                              << QStringList { QStringLiteral("incidents"), QStringLiteral("refunds") };
    }

    void aPackedWorkspaceReadsAsAnUnpackedOne()
    {
        QFETCH(QString, source);
        QFETCH(QStringList, words);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("packed.sightline"));
        const QString plain = dir.filePath(QStringLiteral("plain.sightline"));
        QStringList packedView;
        {
            Workspace ws(path);
            Importer::import(ws, dataFile(source));
            QVERIFY(count(ws, QStringLiteral("SELECT count(*) FROM events WHERE typeof(payload) = 'blob'")) > 0);
            QVERIFY(count(ws, QStringLiteral("SELECT count(*) FROM search_text WHERE typeof(body) = 'blob' OR "
                                             "typeof(arguments) = 'blob' OR typeof(result) = 'blob'")) > 0);
            ws.exec(QStringLiteral("VACUUM"));
            packedView = seen(ws, words);
        }
        QVERIFY(packedView.size() > 50);
        QVERIFY(QFile::copy(path, plain));
        unpackAll(plain);
        Workspace ws(plain);
        QCOMPARE(count(ws, QStringLiteral("SELECT count(*) FROM events WHERE typeof(payload) = 'blob' AND "
                                          "typeof(unpack(payload)) = 'text'")),
            0);
        const QStringList plainView = seen(ws, words);
        QCOMPARE(plainView.size(), packedView.size());
        for (int i = 0; i < plainView.size(); ++i)
            QCOMPARE(packedView.at(i), plainView.at(i));
        QVERIFY2(QFileInfo(path).size() < QFileInfo(plain).size(),
            qPrintable(QStringLiteral("%1 >= %2").arg(QFileInfo(path).size()).arg(QFileInfo(plain).size())));
    }

    // A workspace whose text was written before it was packed (schema 12 and older, as unpackAll makes it) is
    // compacted: packed as a new import packs, written anew smaller, and a reviewer sees the same; a compaction
    // stopped after its first batch leaves it reading the same too. The full-text index still finds every word.
    void compactingAnOlderWorkspace_data() { aPackedWorkspaceReadsAsAnUnpackedOne_data(); }
    void compactingAnOlderWorkspace()
    {
        QFETCH(QString, source);
        QFETCH(QStringList, words);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("old.sightline"));
        {
            Workspace ws(path);
            Importer::import(ws, dataFile(source));
        }
        unpackAll(path);
        QStringList before;
        qint64 packedBefore = 0;
        {
            Workspace ws(path);
            before = seen(ws, words);
            packedBefore = count(ws, QStringLiteral("SELECT count(*) FROM events WHERE typeof(payload) = 'blob'"));
        }
        const qint64 sizeBefore = QFileInfo(path).size();
        // Stopped after one batch of a few rows: the rest as it was, and nothing vacuumed.
        {
            Workspace ws(path);
            WorkspaceCompactor compactor(ws);
            int batches = 0;
            const WorkspaceCompactor::Result stopped = compactor.run([&](qint64, qint64) { return ++batches < 1; });
            QVERIFY(stopped.stopped);
            QCOMPARE(batches, 1);
            QCOMPARE(seen(ws, words), before);
        }
        Workspace ws(path);
        qint64 lastDone = 0;
        qint64 lastTotal = 0;
        const WorkspaceCompactor::Result done = WorkspaceCompactor(ws).run([&](qint64 at, qint64 total) {
            lastDone = at;
            lastTotal = total;
            return true;
        });
        QVERIFY(!done.stopped);
        QVERIFY(done.packed > 0);
        QCOMPARE(lastDone, lastTotal);
        QVERIFY2(done.bytesAfter < done.bytesBefore,
            qPrintable(QStringLiteral("%1 -> %2").arg(done.bytesBefore).arg(done.bytesAfter)));
        QCOMPARE(done.bytesAfter, QFileInfo(path).size()); // the log emptied into the file
        QVERIFY(QFileInfo(path).size() < sizeBefore);
        QVERIFY(count(ws, QStringLiteral("SELECT count(*) FROM events WHERE typeof(payload) = 'blob'")) > packedBefore);
        QVERIFY(count(ws, QStringLiteral("SELECT count(*) FROM search_text WHERE typeof(body) = 'blob' OR "
                                         "typeof(arguments) = 'blob' OR typeof(result) = 'blob'")) > 0);
        QCOMPARE(seen(ws, words), before);
        ws.exec(QStringLiteral("INSERT INTO events_fts(events_fts, rank) VALUES ('integrity-check', 1)"));
        // The trigger that keeps the index in step with a row's text is back: an edit still reaches the index.
        QCOMPARE(count(ws, QStringLiteral("SELECT count(*) FROM sqlite_schema WHERE name = 'search_text_updated'")), 1);
        // Compacting again finds nothing more to pack.
        QCOMPARE(WorkspaceCompactor(ws).run().packed, 0);
    }

    // A workspace whose payloads were packed alone, before there was a vocabulary (schema 24 and older): compaction
    // packs them against it, the file shrinks, and a reviewer sees the same rows, calls and hits.
    void compactingRepacksPayloadsPackedAlone()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("alone.sightline"));
        const QStringList words { QStringLiteral("refund"), QStringLiteral("charged") };
        const QString alone = QStringLiteral("SELECT count(*) FROM events WHERE typeof(payload) = 'blob' AND substr(payload, 1, 1) = x'01'");
        const QString against = QStringLiteral("SELECT count(*) FROM events WHERE typeof(payload) = 'blob' AND substr(payload, 1, 1) = x'03'");
        QStringList before;
        {
            Workspace ws(path);
            Importer::import(ws, dataFile(QStringLiteral("roomkit/support.sqlite")));
            QVERIFY(count(ws, against) > 0);
            // As the last schema's import packed them: each of 256 bytes and more alone, the shorter as text.
            ws.exec(QStringLiteral("UPDATE events SET payload = pack(CAST(unpack(payload) AS TEXT)) WHERE typeof(payload) = 'blob' "
                                   "AND substr(payload, 1, 1) = x'03'"));
            QCOMPARE(count(ws, against), 0);
            QVERIFY(count(ws, alone) > 0);
            ws.exec(QStringLiteral("VACUUM"));
            before = seen(ws, words);
        }
        const qint64 sizeBefore = QFileInfo(path).size();
        Workspace ws(path);
        const WorkspaceCompactor::Result done = WorkspaceCompactor(ws).run();
        QVERIFY(done.packed > 0);
        QCOMPARE(count(ws, alone), 0);
        QVERIFY(count(ws, against) > 0);
        QVERIFY2(QFileInfo(path).size() < sizeBefore, qPrintable(QStringLiteral("%1 -> %2").arg(sizeBefore).arg(QFileInfo(path).size())));
        QCOMPARE(seen(ws, words), before);
        QCOMPARE(WorkspaceCompactor(ws).run().packed, 0);
    }

    // A compaction killed at any moment (SIGKILL: in a batch, with search_text's trigger set aside, or in VACUUM)
    // leaves a workspace that reads the same, whose index still follows edits (the trigger is there), and that a
    // compaction run again finishes.
    void aKilledCompactionReadsTheSame()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("old.sightline"));
        const QStringList words { QStringLiteral("calendar"), QStringLiteral("error") };
        {
            Workspace ws(path);
            Importer::import(ws, dataFile(QStringLiteral("craftbot/EVENT.md")));
        }
        QStringList before;
        for (int round = 0; round < 8; ++round) {
            unpackAll(path);
            if (round == 0) {
                Workspace ws(path);
                before = seen(ws, words);
            }
            const pid_t child = fork();
            if (child == 0) {
                Workspace ws(path);
                WorkspaceCompactor(ws).run();
                _exit(0);
            }
            QTest::qWait(int(QRandomGenerator::global()->bounded(0, 60)));
            kill(child, SIGKILL);
            int status = 0;
            waitpid(child, &status, 0);
            Workspace ws(path);
            QCOMPARE(count(ws, QStringLiteral("PRAGMA integrity_check")), 0); // "ok" reads as 0
            QCOMPARE(count(ws, QStringLiteral("SELECT count(*) FROM sqlite_schema WHERE name = 'search_text_updated'")), 1);
            QCOMPARE(seen(ws, words), before);
            WorkspaceCompactor(ws).run();
            QCOMPARE(seen(ws, words), before);
            ws.exec(QStringLiteral("INSERT INTO events_fts(events_fts, rank) VALUES ('integrity-check', 1)"));
        }
    }

    // A workspace of schema 12 kept a payload that is not UTF-8 as a plain BLOB: upgraded, it is packed, and reads
    // back byte for byte.
    void anOlderWorkspacesBytesArePacked()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("old.sightline"));
        const QByteArray bytes("{\"body\":\"caf\xe9 \xff\"}", 17);
        qint64 id = 0;
        {
            Workspace ws(path);
            Importer::import(ws, dataFile(QStringLiteral("roomkit/support.sqlite")));
            QSqlQuery q = ws.exec(QStringLiteral("SELECT min(id) FROM events"));
            QVERIFY(q.next());
            id = q.value(0).toLongLong();
            q.finish();
            ws.exec(QStringLiteral("UPDATE events SET payload = CAST(? AS BLOB) WHERE id = ?"), { bytes, id });
            // Back to schema 12 (steps 14, 17, 19, 20 and 21 added columns; 22 to 24 changed indexes and ids).
            for (const char* later : { "DROP TABLE team_edits", "DROP INDEX edits_team", "ALTER TABLE edits DROP COLUMN team_id",
                     "ALTER TABLE edits DROP COLUMN came_down", "ALTER TABLE journal DROP COLUMN edit_id", "ALTER TABLE journal DROP COLUMN replaces_edit_id",
                     "DROP TABLE team", "DROP INDEX annotations_team", "DROP INDEX journal_team",
                     "ALTER TABLE annotations DROP COLUMN team_id", "ALTER TABLE journal DROP COLUMN team_id",
                     "ALTER TABLE journal DROP COLUMN annotation_id", "ALTER TABLE journal DROP COLUMN team_annotation_id",
                     "ALTER TABLE journal DROP COLUMN came_down", "DROP TABLE team_redactions",
                     "ALTER TABLE redactions DROP COLUMN team_id", "ALTER TABLE redactions DROP COLUMN team_digest",
                     "ALTER TABLE redactions DROP COLUMN came_down" })
                ws.exec(QString::fromLatin1(later));
            ws.exec(QStringLiteral("ALTER TABLE rooms DROP COLUMN counted_through"));
            ws.exec(QStringLiteral("ALTER TABLE rooms DROP COLUMN unread"));
            ws.exec(QStringLiteral("DROP INDEX events_room_warned"));
            ws.exec(QStringLiteral("ALTER TABLE events DROP COLUMN warning"));
            for (const QString& statement : undoStepsFrom22().split(QStringLiteral("; "), Qt::SkipEmptyParts))
                ws.exec(statement);
            ws.exec(QStringLiteral("PRAGMA user_version = 12"));
        }
        Workspace ws(path);
        QCOMPARE(ws.schemaVersion(), Schema::latestVersion());
        QSqlQuery q = ws.exec(QStringLiteral("SELECT payload FROM events WHERE id = ?"), { id });
        QVERIFY(q.next());
        QVERIFY(q.value(0).toByteArray() != bytes);
        q.finish();
        QCOMPARE(ws.payload(id), bytes);
    }
};

QTEST_GUILESS_MAIN(TestTextPacker)
#include "tst_textpacker.moc"
