// Imports CraftBot's own event logs and checks them against the ground truth CraftBot's ActionManager run ids
// gave (manifest.json): records and their kinds and lines, tasks and how they ended, every action pair (exact
// where one call of a name ran at a time, flagged ambiguous where several did), what was left unpaired, the
// task each action ran in, a file rotation cut, and sessions.db's streams.

#include "durationtext.h"
#include "eventflags.h"
#include "sources/craftbotaction.h"
#include "sources/craftbotassembler.h"
#include "sources/eventmdparser.h"
#include "sources/craftbotreader.h"
#include "sources/importer.h"
#include "sources/importwriter.h"
#include "sources/pyliteral.h"
#include "storeerror.h"
#include "testsupport.h"
#include "workspace.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QMap>
#include <QRandomGenerator>
#include <QSqlQuery>
#include <QTest>

using namespace TestSupport;

namespace {

QJsonObject manifestFor(const QString& file)
{
    QFile f(dataFile(QStringLiteral("craftbot/manifest.json")));
    f.open(QIODevice::ReadOnly);
    return QJsonDocument::fromJson(f.readAll())
        .object()
        .value(QLatin1String("files"))
        .toObject()
        .value(file)
        .toObject();
}

QByteArray inflate(const QString& name)
{
    QFile f(dataFile(QStringLiteral("craftbot/") + name + QStringLiteral(".qz")));
    f.open(QIODevice::ReadOnly);
    return qUncompress(f.readAll());
}

// A TSV table with a header row, as rows of named fields.
QVector<QMap<QString, QString>> tsv(const QByteArray& content)
{
    QVector<QMap<QString, QString>> rows;
    const QList<QByteArray> lines = content.split('\n');
    const QStringList header = QString::fromUtf8(lines.first()).split(QLatin1Char('\t'));
    for (qsizetype i = 1; i < lines.size(); ++i) {
        if (lines[i].isEmpty())
            continue;
        const QStringList fields = QString::fromUtf8(lines[i]).split(QLatin1Char('\t'));
        QMap<QString, QString> row;
        for (qsizetype k = 0; k < header.size(); ++k)
            row.insert(header[k], fields.value(k));
        rows << row;
    }
    return rows;
}

QString outcomeOf(const QString& manifest)
{
    return manifest == QLatin1String("completed") ? QStringLiteral("served") : manifest;
}

} // namespace

class TestCraftBotImport : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<Workspace> m_ws;

    qint64 room(const QString& id) { return m_ws->findRooms(id).value(0); }

    EventRecords rows(const QString& file)
    {
        EventFilter all;
        all.includeBlocked = true;
        return m_ws->listEvents(room(file), all, PageRequest { 10000000, 0, false, {}, {} });
    }

private slots:
    // An EVENT.md is read more than once by an import (its head when opened, then its records): one rotated in
    // between is not written into the room matched with the file before, and the import says so. The next sync
    // reads what the file holds then.
    // What an action's value says of its call and its task, whichever parser read it: simdjson an object or array,
    // Qt's parser or PyLiteral the rest (a scalar, a Python literal, JSON simdjson refuses).
    void actionValues_data()
    {
        QTest::addColumn<QString>("message");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<bool>("json");
        QTest::addColumn<int>("outcome");
        QTest::addColumn<QString>("error");
        QTest::addColumn<QString>("session");
        const int served = int(Outcome::Served), failed = int(Outcome::Failed), cancelled = int(Outcome::Cancelled);
        const auto end = [](const char* value) { return QStringLiteral("Action send_message completed with output: %1.").arg(QString::fromUtf8(value)); };
        QTest::newRow("served") << end(R"({"status": "success", "message": "sent"})") << true << true << served << QString() << QString();
        QTest::newRow("status failed") << end(R"({"status": "failed", "message": "no route"})") << true << true << failed << QStringLiteral("no route") << QString();
        QTest::newRow("error string") << end(R"({"error": "timeout", "message": "m"})") << true << true << failed << QStringLiteral("timeout") << QString();
        QTest::newRow("error object") << end(R"({"error": {"code": 7, "why": "x"}})") << true << true << failed << QStringLiteral(R"({"code":7,"why":"x"})") << QString();
        QTest::newRow("error zero") << end(R"({"error": 0})") << true << true << failed << QStringLiteral("0") << QString();
        QTest::newRow("error null") << end(R"({"error": null, "status": "ok"})") << true << true << served << QString() << QString();
        QTest::newRow("error false") << end(R"({"error": false})") << true << true << served << QString() << QString();
        QTest::newRow("error empty") << end(R"({"error": ""})") << true << true << served << QString() << QString();
        QTest::newRow("failed, error null") << end(R"({"status": "error", "error": null, "message": "m"})") << true << true << failed << QString() << QString();
        QTest::newRow("cancelled") << end(R"({"error_code": "cancelled", "error": "stop"})") << true << true << cancelled << QStringLiteral("stop") << QString();
        QTest::newRow("a key twice: the last") << end(R"({"status": "failed", "status": "ok"})") << true << true << served << QString() << QString();
        QTest::newRow("an array") << end(R"([{"error": "x"}])") << true << true << served << QString() << QString();
        QTest::newRow("a JSON string") << end(R"("done")") << true << false << served << QString() << QString();
        QTest::newRow("a Python dict") << end("{'status': 'failed', 'message': 'no'}") << true << false << failed << QStringLiteral("no") << QString();
        QTest::newRow("not closed") << end(R"({"status": "failed")") << false << false << served << QString() << QString();
        QTest::newRow("escaped keys") << QStringLiteral(R"(Running action send_message with input: {"_session_id": "s-\u00e9\n1", "text": "hi"}.)")
                                      << true << true << served << QString() << QStringLiteral("s-\u00e9\n1");
    }

    void actionValues()
    {
        QFETCH(QString, message);
        QFETCH(bool, valid);
        QFETCH(bool, json);
        QFETCH(int, outcome);
        QFETCH(QString, error);
        QFETCH(QString, session);
        const bool start = message.startsWith(QLatin1String("Running"));
        const CraftBotAction a = CraftBotAction::parse(start ? QStringLiteral("action_start") : QStringLiteral("action_end"), message);
        QCOMPARE(a.part, start ? CraftBotAction::Part::Start : CraftBotAction::Part::End);
        QCOMPARE(a.name, QStringLiteral("send_message"));
        QCOMPARE(a.valid, valid);
        QCOMPARE(a.json, json);
        QCOMPARE(int(a.outcome), outcome);
        QCOMPARE(a.error, error);
        QCOMPARE(a.sessionId, session);
    }

    void aLogRotatedWhileItIsReadIsNotMixedIn()
    {
        const QByteArray log = fileBytes(dataFile(QStringLiteral("craftbot/EVENT.md")));
        QVERIFY(!log.isEmpty());
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("EVENT.md"));
        const auto write = [&](const QByteArray& bytes) {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(bytes);
        };
        write(log);
        Workspace ws(dir.filePath(QStringLiteral("w.sightline")));
        CraftBotReader reader(path);
        const qsizetype second = log.indexOf("\n[20", log.indexOf("\n[20") + 1);
        QVERIFY(second > 0);
        write(log.mid(second + 1)); // rotated: the file now starts at what was its second record
        const ImportReport report = Importer::run(ws, reader, path, ImportOptions());
        QVERIFY2(report.problems.join(QLatin1Char('\n')).contains(QLatin1String("rotated while it was read")),
            qPrintable(report.problems.join(QLatin1Char('\n'))));
        QCOMPARE(dump(ws, QStringLiteral("SELECT count(*) FROM events")), QStringList { QStringLiteral("0") });
        Importer::import(ws, path);
        Workspace once(dir.filePath(QStringLiteral("once.sightline")));
        Importer::import(once, path);
        // The room's rows and ids as one import of the rotated log makes them: its ids numbered anew, not on from
        // those of the log before the rotation.
        const QString rows = QStringLiteral("SELECT seq, (SELECT name FROM words WHERE code = type), group_id, (SELECT t.native FROM turns t WHERE t.room_id = "
                                            "events.room_id AND t.number = events.group_id), tool_id, flags, unpack(text) "
                                            "FROM events ORDER BY seq");
        QCOMPARE(dump(ws, rows), dump(once, rows));
        QCOMPARE(dump(ws, QStringLiteral("SELECT number, native FROM turns ORDER BY number")),
            dump(once, QStringLiteral("SELECT number, native FROM turns ORDER BY number")));
    }

    // A log is read a megabyte at a time: a record as long as several of those (an agent's long answer), and records
    // cut anywhere by the reads, come out as the bytes of the file, numbered line for line, and counted alike by the
    // line scan that sizes an import. The room holds every one of them. (Issue #13: EVENT.md in bounded memory.)
    void aLogLongerThanItsReadsIsSplitAsOne()
    {
        const QByteArray fixture = fileBytes(dataFile(QStringLiteral("craftbot/EVENT.md")));
        QVERIFY(!fixture.isEmpty());
        const qsizetype headerEnd = fixture.indexOf("\n[20");
        QVERIFY(headerEnd > 0);
        const QByteArray records = fixture.mid(headerEnd + 1);
        QByteArray longAnswer = "[2026/05/04 08:00:00] [agent message to platform: CraftBot TUI]: ";
        for (int line = 0; longAnswer.size() < 2600000; ++line)
            longAnswer += "line " + QByteArray::number(line) + " of a long answer, cut by no read\n";
        QByteArray log = fixture;
        for (int k = 0; k < 30; ++k)
            log += k == 12 ? longAnswer : records;
        QVERIFY(log.size() > 4 * 1024 * 1024);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("EVENT.md"));
        QFile out(path);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(log);
        out.close();

        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QByteArray joined;
        qint64 recordCount = 0;
        qint64 nextLine = -1;
        bool longOneWhole = false;
        QString header;
        QVERIFY(EventMdParser::forEachRecord(
            file,
            [&](EventMdRecord&& r, qint64 offset) {
                if (log.mid(offset, r.raw.size()) != r.raw || (nextLine >= 0 && r.firstLine != nextLine))
                    return false;
                nextLine = r.lastLine + 1;
                joined += r.raw;
                longOneWhole = longOneWhole || r.raw == longAnswer;
                ++recordCount;
                return true;
            },
            &header));
        QCOMPARE(header.toUtf8() + joined, log);
        QVERIFY(longOneWhole);
        QCOMPARE(nextLine - 1, qint64(log.count('\n')));
        file.seek(0);
        QCOMPARE(EventMdParser::countRecords(file), recordCount);
        Workspace ws(dir.filePath(QStringLiteral("w.sightline")));
        Importer::import(ws, path);
        QCOMPARE(dump(ws, QStringLiteral("SELECT count(*) FROM events")), QStringList { QString::number(recordCount) });
    }

    void initTestCase()
    {
        // The rotated log, inflated beside the others (the source files are read, never written).
        QFile rotated(m_dir.filePath(QStringLiteral("EVENT_rotated.md")));
        QVERIFY(rotated.open(QIODevice::WriteOnly));
        rotated.write(inflate(QStringLiteral("EVENT_rotated.md")));
        rotated.close();
        m_ws = std::make_unique<Workspace>(m_dir.filePath(QStringLiteral("craftbot.sightline")));
        for (const QString& name :
            { QStringLiteral("EVENT.md"), QStringLiteral("EVENT_old.md"), QStringLiteral("EVENT_UNPROCESSED.md") }) {
            const QString path = dataFile(QStringLiteral("craftbot/") + name);
            QCOMPARE(Importer::detect(path), Importer::Format::CraftBotEventMd);
            Importer::import(*m_ws, path);
        }
        QCOMPARE(Importer::detect(rotated.fileName()), Importer::Format::CraftBotEventMd);
        const ImportReport report = Importer::import(*m_ws, rotated.fileName());
        QVERIFY(report.problems.join(QLatin1Char('\n'))
                    .contains(QLatin1String("EVENT_rotated.md line 1: the file starts inside a record")));
    }

    void records_data()
    {
        QTest::addColumn<QString>("file");
        for (const char* f : { "EVENT.md", "EVENT_old.md", "EVENT_UNPROCESSED.md", "EVENT_rotated.md" })
            QTest::newRow(f) << QString::fromLatin1(f);
    }

    void records()
    {
        QFETCH(QString, file);
        const QJsonObject facts = manifestFor(file);
        const EventRecords events = rows(file);
        const bool cut = file == QLatin1String("EVENT_rotated.md");
        // Every record, and for a file rotation cut, the remains of the record it cut first, flagged.
        QCOMPARE(qint64(events.size()), facts.value(QLatin1String("records")).toInteger() + (cut ? 1 : 0));
        if (cut) {
            QVERIFY(events.first().flags & EventFlags::Partial);
            QCOMPARE(events.first().sourceLine, 1);
            QCOMPARE(events.first().type, QStringLiteral("(cut by rotation)"));
            QCOMPARE(events[1].sourceLine,
                facts.value(QLatin1String("non_record_lines_before_first_record")).toInteger() + 1);
        }
        QMap<QString, qint64> kinds;
        int multiLine = 0;
        for (const EventRecord& e : events) {
            if (e.flags & EventFlags::Partial)
                continue;
            ++kinds[e.type];
            if (m_ws->payload(e.rowId).count('\n') > 1)
                ++multiLine;
        }
        QMap<QString, qint64> expected;
        const QJsonObject k = facts.value(QLatin1String("kinds")).toObject();
        for (auto it = k.begin(); it != k.end(); ++it)
            expected.insert(it.key(), it.value().toInteger());
        QCOMPARE(kinds, expected);
        QCOMPARE(multiLine, facts.value(QLatin1String("multi_line_records")).toInt());

        // Each record's first line and kind; the task of each action and of each task_start/task_end.
        QVector<QMap<QString, QString>> index;
        if (cut) {
            index = tsv(inflate(QStringLiteral("EVENT_rotated.records.tsv")));
        } else {
            for (const QJsonValue& v : facts.value(QLatin1String("records_index")).toArray()) {
                const QJsonArray a = v.toArray();
                index << QMap<QString, QString> { { QStringLiteral("first_line"), QString::number(a[0].toInteger()) },
                    { QStringLiteral("kind"), a[2].toString() }, { QStringLiteral("task_id"), a[3].toString() } };
            }
        }
        QCOMPARE(qint64(index.size()), facts.value(QLatin1String("records")).toInteger());
        // Where the log names the task, the record must be placed in it: an action whose _session_id is the
        // task's id, a task_start or task_end record (a task known by name only, where the file never gives
        // its id, is "task:NAME").
        QHash<QString, QString> taskNames;
        for (const QJsonValue& t : facts.value(QLatin1String("tasks")).toArray())
            taskNames.insert(t.toObject().value(QLatin1String("task_id")).toString(),
                t.toObject().value(QLatin1String("name")).toString());
        int attributed = 0, agree = 0;
        for (qsizetype i = 0; i < index.size(); ++i) {
            const EventRecord& e = events[i + (cut ? 1 : 0)];
            QCOMPARE(e.sourceLine, index[i].value(QStringLiteral("first_line")).toLongLong());
            QCOMPARE(e.type, index[i].value(QStringLiteral("kind")));
            const QString task = index[i].value(QStringLiteral("task_id"));
            const QByteArray payload = m_ws->payload(e.rowId);
            const bool named = !task.isEmpty()
                && (payload.contains(QByteArray("\"_session_id\": \"" + task.toUtf8() + '"'))
                    || payload.contains(QByteArray("'_session_id': '" + task.toUtf8() + '\'')));
            const bool guessedEnd = e.type == QLatin1String("task_end") && (e.flags & EventFlags::Ambiguous);
            if ((e.type == QLatin1String("task_start") || e.type == QLatin1String("task_end") || named)
                && !guessedEnd) {
                QVERIFY2(e.groupId == task || e.groupId == QStringLiteral("task:") + taskNames.value(task),
                    qPrintable(QStringLiteral("line %1 %2: task %3, read as %4")
                                   .arg(e.sourceLine)
                                   .arg(e.type, task, e.groupId)));
            } else {
                ++attributed;
                agree += e.groupId == task || (!task.isEmpty() && e.groupId == QStringLiteral("task:") + taskNames.value(task));
            }
        }
        // The other records carry no task id at all: context places them (after a task ends, the conversation again;
        // the message that asked for a task, logged again in it; a task_start's end in the task it made, a task_end's
        // in the conversation). Two tasks running at once interleave their records: those are the few it misses.
        qInfo("%s: %d of %d records without a task id of their own placed in CraftBot's stream (%.1f%%)",
            qPrintable(file), agree, attributed, attributed ? 100.0 * agree / attributed : 100.0);
        QVERIFY2(agree >= 0.9 * attributed, qPrintable(QStringLiteral("%1 of %2").arg(agree).arg(attributed)));
    }

    void tasks_data() { records_data(); }

    void tasks()
    {
        QFETCH(QString, file);
        const QJsonObject facts = manifestFor(file);
        const EventRecords events = rows(file);
        const RunRecords runs = m_ws->runs(room(file));
        const QJsonArray expected = facts.value(QLatin1String("tasks")).toArray();
        QCOMPARE(runs.size(), expected.size());
        for (const QJsonValue& v : expected) {
            const QJsonObject t = v.toObject();
            const QString name = t.value(QLatin1String("name")).toString();
            const qint64 startLine = t.value(QLatin1String("start_line")).toInteger();
            const bool startCut = t.value(QLatin1String("start_line")).isNull(); // its task_start is not in the file
            const auto run = std::find_if(runs.begin(), runs.end(), [&](const RunRecord& r) {
                if (startCut)
                    return r.groupId == t.value(QLatin1String("task_id")).toString();
                return r.name == name && r.firstIndex && events[*r.firstIndex].sourceLine == startLine;
            });
            QVERIFY2(run != runs.end(), qPrintable(name));
            QCOMPARE(run->kind, QStringLiteral("task"));
            if (!t.value(QLatin1String("task_id")).toString().isEmpty()
                && file != QLatin1String("EVENT_UNPROCESSED.md"))
                QCOMPARE(run->groupId, t.value(QLatin1String("task_id")).toString());
            const QJsonValue end = t.value(QLatin1String("end_line"));
            if (end.isDouble()) {
                QVERIFY(run->lastIndex);
                const EventRecord& ours = events[*run->lastIndex];
                if (ours.sourceLine != end.toInteger()) {
                    // Tasks that ended together: both records are flagged, and the guess is one of them.
                    const auto theirs = std::find_if(events.begin(), events.end(),
                        [&](const EventRecord& e) { return e.sourceLine == end.toInteger(); });
                    QVERIFY2(ours.flags & EventFlags::Ambiguous, qPrintable(name));
                    QVERIFY(theirs->flags & EventFlags::Ambiguous);
                    QCOMPARE(theirs->text, ours.text);
                } else {
                    QCOMPARE(ours.sourceLine, end.toInteger());
                }
                QCOMPARE(run->outcome, t.value(QLatin1String("status")).toString());
            } else {
                QCOMPARE(run->lastIndex, std::nullopt);
                QCOMPARE(run->outcome, QStringLiteral("running"));
            }
        }
    }

    void pairs_data()
    {
        QTest::addColumn<QString>("file");
        for (const char* f : { "EVENT.md", "EVENT_old.md", "EVENT_rotated.md" })
            QTest::newRow(f) << QString::fromLatin1(f);
    }

    void pairs()
    {
        QFETCH(QString, file);
        const QJsonObject facts = manifestFor(file);
        const EventRecords events = rows(file);
        const ToolCallRecords calls = m_ws->toolCalls(room(file));
        QHash<qint64, const ToolCallRecord*> byStartLine, byEndLine;
        for (const ToolCallRecord& c : calls) {
            if (c.startIndex)
                byStartLine.insert(events[*c.startIndex].sourceLine, &c);
            if (c.endIndex)
                byEndLine.insert(events[*c.endIndex].sourceLine, &c);
        }
        QVector<QMap<QString, QString>> pairs;
        if (file == QLatin1String("EVENT_rotated.md")) {
            pairs = tsv(inflate(QStringLiteral("EVENT_rotated.pairs.tsv")));
        } else {
            for (const QJsonValue& v : facts.value(QLatin1String("pairs")).toArray()) {
                const QJsonObject p = v.toObject();
                pairs << QMap<QString, QString> { { QStringLiteral("action"),
                                                      p.value(QLatin1String("name")).toString() },
                    { QStringLiteral("start_line"), QString::number(p.value(QLatin1String("start_line")).toInteger()) },
                    { QStringLiteral("end_line"), QString::number(p.value(QLatin1String("end_line")).toInteger()) },
                    { QStringLiteral("outcome"), p.value(QLatin1String("outcome")).toString() },
                    { QStringLiteral("task_id"), p.value(QLatin1String("task_id")).toString() },
                    { QStringLiteral("ambiguous"),
                        p.value(QLatin1String("ambiguous")).toBool() ? QStringLiteral("1") : QStringLiteral("0") } };
            }
        }
        // For the rotated file the manifest gives the count, not the list.
        const qint64 count = facts.contains(QLatin1String("pairs_count"))
            ? facts.value(QLatin1String("pairs_count")).toInteger()
            : facts.value(QLatin1String("pairs")).toArray().size();
        QCOMPARE(qint64(pairs.size()), count);

        int ambiguousGroups = facts.value(QLatin1String("ambiguous_groups")).toArray().size();
        int exact = 0, flagged = 0;
        for (const auto& p : pairs) {
            const qint64 start = p.value(QStringLiteral("start_line")).toLongLong();
            const qint64 end = p.value(QStringLiteral("end_line")).toLongLong();
            const ToolCallRecord* c = byStartLine.value(start);
            QVERIFY2(c, qPrintable(QStringLiteral("no call starts at line %1").arg(start)));
            QCOMPARE(c->toolName, p.value(QStringLiteral("action")));
            QCOMPARE(Pairings::name(c->pairing), QStringLiteral("guessed")); // never presented as certain
            QVERIFY(c->endIndex);
            const bool ambiguous = p.value(QStringLiteral("ambiguous")) == QLatin1String("1");
            QCOMPARE(c->ambiguous, ambiguous);
            QCOMPARE(bool(events[*c->startIndex].flags & EventFlags::Ambiguous), ambiguous);
            QVERIFY(events[*c->startIndex].flags & EventFlags::Guessed);
            if (!ambiguous) {
                // One call of that name at a time: name and order pair it exactly as CraftBot ran it.
                QCOMPARE(events[*c->endIndex].sourceLine, end);
                QCOMPARE(Outcomes::name(c->outcome), outcomeOf(p.value(QStringLiteral("outcome"))));
                ++exact;
            } else {
                // Which of the overlapping calls an end closes is not in the file: the pair is flagged, and its
                // end is one of its name's.
                ++flagged;
                QVERIFY(events[*c->endIndex].flags & EventFlags::Ambiguous);
                QCOMPARE(events[*c->endIndex].toolName, c->toolName);
                QVERIFY(*c->endIndex > *c->startIndex);
            }
        }
        QVERIFY(exact > 0);
        QVERIFY(flagged >= 2 * std::min(ambiguousGroups, 1));

        for (const QJsonValue& v : facts.value(QLatin1String("unpaired_starts")).toArray()) {
            const ToolCallRecord* c = byStartLine.value(v.toObject().value(QLatin1String("start_line")).toInteger());
            QVERIFY(c);
            QCOMPARE(Pairings::name(c->pairing), QStringLiteral("start_only"));
            QCOMPARE(Outcomes::name(c->outcome), QStringLiteral("unserved"));
            QCOMPARE(c->status, QStringLiteral("running"));
        }
        // An end whose start rotation dropped is end_only, unless calls of its name were running when it came:
        // then which one it closes cannot be told from the file, and its pairing says so.
        for (const QJsonValue& v : facts.value(QLatin1String("unpaired_ends")).toArray()) {
            const ToolCallRecord* c = byEndLine.value(v.toObject().value(QLatin1String("end_line")).toInteger());
            QVERIFY2(c, QJsonDocument(v.toObject()).toJson().constData());
            QVERIFY2(c->pairing == Pairing::EndOnly || c->ambiguous, qPrintable(Pairings::name(c->pairing)));
        }
    }

    // "Specific records a viewer must get right" (MANIFEST.md).
    void specificRecords()
    {
        const EventRecords events = rows(QStringLiteral("EVENT.md"));
        auto at = [&events](qint64 line) {
            return *std::find_if(
                events.begin(), events.end(), [line](const EventRecord& e) { return e.sourceLine == line; });
        };
        QCOMPARE(at(14).text, QStringLiteral("thanks 🙏"));
        QCOMPARE(at(14).channelId, QStringLiteral("Telegram"));
        QCOMPARE(EventKinds::name(at(14).kind), QStringLiteral("message"));
        QCOMPARE(Outcomes::name(at(1141).outcome), QStringLiteral("cancelled")); // "completed with output" that says cancelled
        QCOMPARE(Outcomes::name(at(424).outcome), QStringLiteral("failed"));
        const EventRecord error = at(1079);
        QCOMPARE(error.type, QStringLiteral("error"));
        QCOMPARE(EventKinds::name(error.kind), QStringLiteral("error"));
        QVERIFY(
            error.text.startsWith(QLatin1String("[REACT] JSONDecodeError: Expecting value: line 1 column 1 (char 0)")));
        QVERIFY(error.text.endsWith(QLatin1Char('\n'))); // the message itself ends with a newline
        QCOMPARE(m_ws->payload(error.rowId).count('\n'), 17);
        QVERIFY(std::none_of(events.begin(), events.end(),
            [](const EventRecord& e) { return e.sourceLine > 1079 && e.sourceLine <= 1095; }));
        const EventRecords old = rows(QStringLiteral("EVENT_old.md"));
        const auto oldCancel
            = std::find_if(old.begin(), old.end(), [](const EventRecord& e) { return e.sourceLine == 297; });
        QCOMPARE(Outcomes::name(oldCancel->outcome), QStringLiteral("cancelled")); // from a Python repr
    }

    void sessionsDb()
    {
        const QString path = dataFile(QStringLiteral("craftbot/sessions.db"));
        QCOMPARE(Importer::detect(path), Importer::Format::CraftBotSessions);
        const QByteArray before = sha256(path);
        QTemporaryDir dir;
        Workspace ws(dir.filePath(QStringLiteral("s.sightline")));
        const ImportReport report = Importer::import(ws, path);
        QCOMPARE(sha256(path), before);
        QCOMPARE(report.rooms.size(), 2);
        const auto task = ws.room(ws.findRooms(QStringLiteral("ef4a2f")).first());
        QCOMPARE(task->eventCount, 24);
        QCOMPARE(task->title, QStringLiteral("Find flights Lisbon → Oslo (deep dive)"));
        QCOMPARE(task->status, QStringLiteral("running"));
        const auto main = ws.room(ws.findRooms(QStringLiteral("__main__")).first());
        QCOMPARE(main->eventCount, 101);
        // The conversation's task_start actions end in each task's own stream, which CraftBot deleted once the task
        // ended; the "Started task" after each says it ran. None is unserved; the task's killed web_fetch is.
        QCOMPARE(main->unserved, 0);
        QCOMPARE(task->unserved, 1);
        int started = 0;
        for (const ToolCallRecord& c : ws.toolCalls(main->id)) {
            if (c.toolName != QLatin1String("task_start"))
                continue;
            ++started;
            QCOMPARE(c.pairing, Pairing::StartOnly);
            QCOMPARE(c.outcome, Outcome::Served);
            QCOMPARE(c.status, QStringLiteral("completed"));
        }
        QCOMPARE(started, 9);
        // sessions.db stamps to the microsecond: its durations are figures.
        int timed = 0;
        for (const ToolCallRecord& c : ws.toolCalls(task->id)) {
            if (!c.durationMs)
                continue;
            ++timed;
            QCOMPARE(c.durationSource, DurationSource::Timestamps);
            QCOMPARE(DurationText::full(c), QStringLiteral("%1 ms (from timestamps)").arg(*c.durationMs));
        }
        QVERIFY(timed > 0);
        QSqlQuery q = ws.exec(QStringLiteral("SELECT summary FROM rooms WHERE native_id = 'ef4a2f'"));
        QVERIFY(q.next());
        QVERIFY(
            q.value(0).toString().startsWith(QLatin1String("Events rolled up for 2026-05-04T12:07:29.561855+00:00")));
        QCOMPARE(q.value(0).toString().size(), 332);
        // Severity is only known here: agent reasoning is DEBUG.
        EventFilter reasoning;
        reasoning.kinds = { QStringLiteral("reasoning") };
        const EventRecords thoughts = ws.listEvents(task->id, reasoning, {});
        QVERIFY(!thoughts.isEmpty());
        for (const EventRecord& e : thoughts)
            QCOMPARE(e.status, QStringLiteral("DEBUG"));
        QCOMPARE(Importer::import(ws, path).added(), 0);
    }

    // A log CraftBot keeps writing: the sync adds what is new and pairs an end with its earlier start; after
    // rotation the room is read again from what the file now holds.
    void followAndRotate()
    {
        QTemporaryDir dir;
        const QByteArray whole = QFile(dataFile(QStringLiteral("craftbot/EVENT.md"))).exists()
            ? [] { QFile f(dataFile(QStringLiteral("craftbot/EVENT.md"))); f.open(QIODevice::ReadOnly); return f.readAll(); }()
            : QByteArray();
        const QList<QByteArray> lines = whole.split('\n');
        const QString path = dir.filePath(QStringLiteral("EVENT.md"));
        auto write = [&path](const QByteArray& bytes) {
            QFile f(path);
            f.open(QIODevice::WriteOnly);
            f.write(bytes);
        };
        write(lines.mid(0, 139).join('\n') + '\n'); // both parallel web_search calls started, none ended
        Workspace ws(dir.filePath(QStringLiteral("follow.sightline")));
        const qint64 first = Importer::import(ws, path).added();
        write(whole);
        QCOMPARE(first + Importer::import(ws, path).added(), 335);
        const qint64 id = ws.rooms().first().id;
        const ToolCallRecords followed = ws.toolCalls(id);
        const ToolCallRecords direct = m_ws->toolCalls(room(QStringLiteral("EVENT.md")));
        QCOMPARE(followed.size(), direct.size());
        for (int i = 0; i < followed.size(); ++i) {
            QCOMPARE(followed[i].endIndex, direct[i].endIndex);
            QCOMPARE(followed[i].ambiguous, direct[i].ambiguous);
        }
        QCOMPARE(ws.search(id, QStringLiteral("Nordlys"), 50, false).size(),
            m_ws->search(room(QStringLiteral("EVENT.md")), QStringLiteral("Nordlys"), 50, false).size());

        // CraftBot's rotation: keep the newest two thirds of the lines.
        write(lines.mid(lines.size() / 3).join('\n'));
        const ImportReport rotated = Importer::import(ws, path);
        QVERIFY(rotated.problems.join(QLatin1Char('\n')).contains(QLatin1String("rotated or rewritten")));
        const EventRecords now = ws.listEvents(id, {}, PageRequest { 100000, 0, false, {}, {} });
        QVERIFY(now.first().flags & EventFlags::Partial || now.first().sourceLine == 1);
        QCOMPARE(ws.room(id)->eventCount,
            qint64(EventMdParser::parse(lines.mid(lines.size() / 3).join('\n')).records.size()));
        // The search index holds what the file holds now: nothing stale, nothing twice.
        QTemporaryDir fresh;
        Workspace again(fresh.filePath(QStringLiteral("fresh.sightline")));
        Importer::import(again, path);
        for (const char* word : { "Nordlys", "Oslo", "invoice" })
            QCOMPARE(ws.search(id, QLatin1String(word), 1000, false).size(),
                again.search(again.rooms().first().id, QLatin1String(word), 1000, false).size());
    }

    // Everything a sync makes of one log: rows, calls, tasks and the room's counts.
    static QStringList roomState(Workspace& ws)
    {
        return dump(ws, QStringLiteral("SELECT seq, (SELECT name FROM words WHERE code = type), (SELECT name FROM words WHERE code = kind), "
                                       "(SELECT name FROM words WHERE code = role), flags, (SELECT t.native FROM turns t WHERE t.room_id = "
                                       "events.room_id AND t.number = events.group_id), tool_id, (SELECT name FROM words "
                                       "WHERE code = tool_name), outcome, "
                                       "source_line, unpack(text), length(unpack(payload)) FROM events ORDER BY seq"))
            + dump(ws, QStringLiteral("SELECT tool_id, start_seq, end_seq, outcome, pairing, ambiguous, unpack(arguments), "
                                      "unpack(result) FROM tool_calls ORDER BY start_seq, end_seq"))
            + dump(ws, QStringLiteral("SELECT group_id, name, first_seq, last_seq, outcome FROM runs ORDER BY first_seq"))
            + dump(ws, QStringLiteral("SELECT event_count, tool_calls, failed, unserved FROM rooms"));
    }

    // sessions.db's streams on request: the stream wanted changes after every batch of 8 rows (each stream
    // interrupted in its shape pass or its rows, and read on later); the workspace ends as one clean import's.
    void sessionsOnRequest()
    {
        const QString path = dataFile(QStringLiteral("craftbot/sessions.db"));
        QTemporaryDir dir;
        const auto state = [](Workspace& ws) {
            return dump(ws, QStringLiteral("SELECT r.native_id, e.seq, (SELECT name FROM words WHERE code = e.type), (SELECT name FROM words WHERE code = e.kind), "
                                           "e.flags, e.tool_id, e.outcome, "
                                           "unpack(e.text) FROM events e JOIN rooms r ON r.id = e.room_id ORDER BY 1, 2"))
                + dump(ws, QStringLiteral("SELECT r.native_id, c.tool_id, c.start_seq, c.end_seq, c.outcome, c.pairing, "
                                          "unpack(c.result) FROM tool_calls c JOIN rooms r ON r.id = c.room_id ORDER BY 1, 3, 4"))
                + dump(ws, QStringLiteral("SELECT native_id, event_count, tool_calls, failed, unserved, unread FROM rooms "
                                          "ORDER BY 1"));
        };
        Workspace clean(dir.filePath(QStringLiteral("clean.sightline")));
        Importer::import(clean, path);
        const RoomSummaries streams = clean.rooms();
        QVERIFY(streams.size() >= 2);
        Workspace ws(dir.filePath(QStringLiteral("asked.sightline")));
        ImportOptions options;
        options.batchRows = 8;
        QStringList ids;
        for (const RoomSummary& r : streams)
            ids << r.nativeId;
        RoomClicks clicks;
        clickRoomsInTurn(options, ws, ids, clicks);
        const ImportReport report = Importer::import(ws, path, options);
        QVERIFY2(clicks.started.size() > streams.size(), qPrintable(clicks.started.join(QLatin1Char(' '))));
        QCOMPARE(report.rooms.size(), streams.size());
        QCOMPARE(state(ws), state(clean));
    }

    // A log cut back to its own first records (its first record the same, so not taken for a rotated log) loses the
    // rows past the cut, in this process and in the next; grown again, it is as one import makes it.
    void aLogCutBackLosesWhatWasCut()
    {
        const QByteArray whole = fileBytes(dataFile(QStringLiteral("craftbot/EVENT.md")));
        const QList<QByteArray> lines = whole.split('\n');
        const QByteArray start = lines.mid(0, 308).join('\n') + '\n';
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("EVENT.md"));
        const auto write = [&path](const QByteArray& bytes) {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(bytes);
        };
        const auto fresh = [&dir, &path](const char* name) {
            Workspace once(dir.filePath(QLatin1String(name)));
            Importer::import(once, path);
            return roomState(once);
        };
        Workspace ws(dir.filePath(QStringLiteral("w.sightline")));
        for (const bool forget : { false, true }) {
            write(whole);
            Importer::import(ws, path);
            QCOMPARE(ws.rooms().first().eventCount, 335);
            write(start);
            if (forget)
                CraftBotReader::forgetReadPositions(); // as another process would find it
            const ImportReport cut = Importer::import(ws, path);
            QVERIFY(cut.problems.join(QLatin1Char('\n')).contains(QLatin1String("rotated or rewritten")));
            QCOMPARE(ws.rooms().first().eventCount, EventMdParser::parse(start).records.size());
            QCOMPARE(roomState(ws), fresh(forget ? "cut2.sightline" : "cut1.sightline"));
            // Nothing of what was cut is found.
            QVERIFY(ws.search(0, QStringLiteral("bagagem"), 10, false).isEmpty());
        }
        // Caught at the moment CraftBot's rotation truncated it (empty: no content to tell its format by): read as the
        // log it was, and nothing of it left (tst_follow's rotating writer failed about once in 80 runs on this).
        write(QByteArray());
        Importer::import(ws, path);
        QCOMPARE(ws.rooms().first().eventCount, 0);
        write(whole);
        const ImportReport grown = Importer::import(ws, path);
        QCOMPARE(roomState(ws), fresh("whole.sightline"));
        QVERIFY(!ws.search(0, QStringLiteral("bagagem"), 10, false).isEmpty());
    }

    // A log CraftBot keeps writing, synced as it grows (cut inside records and inside lines) in one process: each
    // sync parses only from the start of the record the last one ended on, and the room ends as one import makes
    // it. Forgotten positions, or a file rewritten rather than grown, are parsed whole again.
    void aGrowingLogIsParsedOnlyWhereItIsNew()
    {
        const QByteArray whole = fileBytes(dataFile(QStringLiteral("craftbot/EVENT.md")));
        QVERIFY(!whole.isEmpty());
        for (const bool forget : { false, true }) {
            QTemporaryDir dir;
            const QString path = dir.filePath(QStringLiteral("EVENT.md"));
            Workspace ws(dir.filePath(QStringLiteral("w.sightline")));
            const int before = CraftBotReader::resumedReads();
            const int rowsBefore = CraftBotReader::rowsResumed();
            int syncs = 0;
            for (qsizetype cut = 1500; cut < whole.size(); cut += 2711) {
                QFile f(path);
                QVERIFY(f.open(QIODevice::WriteOnly));
                f.write(whole.left(cut));
                f.close();
                if (forget)
                    CraftBotReader::forgetReadPositions();
                // The progress counts what is new, counted on from where the last read stood (a followed log is
                // not scanned whole to size it), and a pass over the whole log (its shape, when the read could not
                // go on from where the last one stood) as much again as its records. It starts from what earlier
                // reads took in (the rows the workspace holds), and ends where it was going.
                qint64 synced = -1;
                qint64 held = 0;
                if (QSqlQuery q = ws.exec(QStringLiteral("SELECT synced_seq, event_count FROM rooms")); q.next()) {
                    synced = q.value(0).toLongLong();
                    held = q.value(1).toLongLong();
                }
                qint64 done = -1;
                qint64 total = -1;
                ImportOptions options;
                options.progress = [&](qint64 now, qint64 all) {
                    QVERIFY2(now >= done && now <= all, qPrintable(QStringLiteral("%1 after %2 of %3").arg(now).arg(done).arg(all)));
                    done = now;
                    total = all;
                };
                const int resumedBefore = CraftBotReader::resumedReads();
                Importer::import(ws, path, options);
                const qint64 records = EventMdParser::parse(whole.left(cut)).records.size();
                const bool resumed = CraftBotReader::resumedReads() > resumedBefore;
                QCOMPARE(total, held + records - 1 - synced + (resumed ? 0 : records));
                QCOMPARE(done, total);
                ++syncs;
            }
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(whole);
            f.close();
            if (forget)
                CraftBotReader::forgetReadPositions();
            Importer::import(ws, path);
            QCOMPARE(CraftBotReader::resumedReads() - before, forget ? 0 : syncs);
            // And the rows are made from the first one the new records changed, most syncs (the others from the
            // start: a task named late changes rows far back).
            const int rowsResumed = CraftBotReader::rowsResumed() - rowsBefore;
            QVERIFY2(forget ? rowsResumed == 0 : rowsResumed > syncs / 2, qPrintable(QString::number(rowsResumed)));
            Workspace once(dir.filePath(QStringLiteral("once.sightline")));
            Importer::import(once, path);
            QCOMPARE(roomState(ws), roomState(once));
        }
    }

    // A long log's first pass (its shape, before the rows past the first thousand) moves the progress and hears a
    // cancel: it sat at its start for the 15 s a million records take, and a cancel waited for the pass to end. The
    // first thousand rows stay; the next import ends as one import makes it.
    void aCancelIsHeardWhileALongLogIsShaped()
    {
        const QByteArray once = fileBytes(dataFile(QStringLiteral("craftbot/EVENT.md")));
        QByteArray content;
        for (int i = 0; i < 40; ++i)
            content += once;
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("EVENT.md"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(content);
        f.close();
        const qint64 records = EventMdParser::parse(content).records.size();
        QVERIFY(records > 10000);
        Workspace ws(dir.filePath(QStringLiteral("w.sightline")));
        ImportOptions options;
        QList<qint64> done;
        qint64 total = 0;
        options.progress = [&](qint64 now, qint64 all) {
            done << now;
            total = all;
        };
        // Cancelled once the pass has said it read its first part.
        options.isCancelled = [&] { return !done.isEmpty() && done.last() > ImportWriter::FirstBatchRows; };
        const ImportReport cancelled = Importer::import(ws, path, options);
        QVERIFY(cancelled.cancelled);
        QCOMPARE(total, 2 * records); // the shape as much work as the rows
        QCOMPARE(done.first(), qint64(ImportWriter::FirstBatchRows));
        QVERIFY2(done.last() < ImportWriter::FirstBatchRows + records, "the pass went on to its end");
        QCOMPARE(ws.rooms().first().eventCount, qint64(ImportWriter::FirstBatchRows));

        QVERIFY(!Importer::import(ws, path).cancelled);
        Workspace fresh(dir.filePath(QStringLiteral("fresh.sightline")));
        Importer::import(fresh, path);
        QCOMPARE(roomState(ws), roomState(fresh));
    }

    // A long log never imported before shows its first thousand records (with their calls and tasks) before the rest
    // is assembled; the room then ends as the whole log assembled at once makes it. (Issue #13: the first screen
    // while the rest imports.)
    void aLongLogShowsItsFirstRecordsFirst()
    {
        const QByteArray once = fileBytes(dataFile(QStringLiteral("craftbot/EVENT.md")));
        QVERIFY(!once.isEmpty());
        QByteArray content;
        for (int i = 0; i < 31; ++i) // 50,840 lines
            content += once;
        QVERIFY(content.count('\n') >= 50000);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("EVENT.md"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(content);
        f.close();
        const QVector<EventMdRecord> records = EventMdParser::parse(content).records;
        QVERIFY(records.size() > 2 * ImportWriter::FirstBatchRows);
        Workspace ws(dir.filePath(QStringLiteral("w.sightline")));
        ImportOptions options;
        QList<qint64> shown;
        qint64 callsShown = -1;
        options.roomReady = [&](qint64 roomId) {
            shown << ws.room(roomId)->eventCount;
            if (callsShown < 0)
                callsShown = ws.toolCalls(roomId).size();
        };
        Importer::import(ws, path, options);
        QVERIFY(shown.size() >= 2);
        QCOMPARE(shown.first(), qint64(ImportWriter::FirstBatchRows));
        QCOMPARE(callsShown, qint64(CraftBotAssembler::assemble(records.mid(0, ImportWriter::FirstBatchRows)).calls.size()));
        QCOMPARE(shown.last(), qint64(records.size()));

        const CraftBotAssembly whole = CraftBotAssembler::assemble(records);
        const qint64 roomId = ws.rooms().first().id;
        const EventRecords rows = ws.listEvents(roomId, EventFilter { .includeBlocked = true }, PageRequest { 100000, 0, false, {}, {} });
        QCOMPARE(rows.size(), whole.rows.size());
        for (qsizetype i = 0; i < rows.size(); ++i) {
            const EventRecord& a = rows[i];
            const EventRecord& b = whole.rows[i].record;
            QCOMPARE(a.index, b.index);
            QCOMPARE(a.flags, b.flags);
            QCOMPARE(a.groupId, b.groupId);
            QCOMPARE(a.toolId, b.toolId);
            QCOMPARE(a.outcome, b.outcome);
        }
        const ToolCallRecords calls = ws.toolCalls(roomId);
        QCOMPARE(calls.size(), whole.calls.size());
        QCOMPARE(ws.runs(roomId).size(), whole.runs.size());
    }

    // A long EVENT.md (its first thousand records written ahead of the rest) imported with kills (SIGKILL) at random
    // moments and run again ends as one clean import does.
    void aKilledImportResumesToTheSame()
    {
        const QByteArray once = fileBytes(dataFile(QStringLiteral("craftbot/EVENT.md")));
        QVERIFY(!once.isEmpty());
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("EVENT.md"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        for (int i = 0; i < 8; ++i)
            f.write(once);
        f.close();
        Workspace clean(dir.filePath(QStringLiteral("clean.sightline")));
        QElapsedTimer timer;
        timer.start();
        Importer::import(clean, path);
        const int cleanMs = std::max<int>(20, int(timer.elapsed()));
        const QString killed = dir.filePath(QStringLiteral("killed.sightline"));
        int landed = 0;
        for (int i = 0; i < 30 && landed < 3; ++i)
            landed += importKilledMidway(killed, path, cleanMs * 2) ? 1 : 0;
        QVERIFY2(landed > 0, "no kill landed inside an import");
        Workspace resumed(killed);
        Importer::import(resumed, path);
        QCOMPARE(roomState(resumed), roomState(clean));
    }

    void badRecords()
    {
        QTemporaryDir dir;
        QByteArray log
            = "[2026/05/04 07:59:07] [user message]: hello\n"
              "[2026/05/04 07:59:10] [action_start]: Running action web_search with input: {\n"
              "  \"query\": \"never closed\"\n" // no closing line: the next record starts
              "[2026/05/04 07:59:11] [a kind: with colons]: kept as custom\n"
              "[2026/05/04 07:59:12] [user message]: bytes \xff\xfe here\n"
              "[2026/05/04 07:59:13] [action_end]: Action web_search completed with output: {'status': 'ok'}.\n"
              "[2026/05/04 07:59:14] [action_end]: Action read_file completed with output: {\"status\": \"ok\"}.\n";
        const QString path = dir.filePath(QStringLiteral("EVENT.md"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(log);
        f.close();
        Workspace ws(dir.filePath(QStringLiteral("w.sightline")));
        const ImportReport report = Importer::import(ws, path);
        QCOMPARE(report.added(), 6);
        const QString problems = report.problems.join(QLatin1Char('\n'));
        QVERIFY2(problems.contains(path + QStringLiteral(": EVENT.md line 2: the input of web_search never closes")),
            qPrintable(problems));
        QVERIFY2(problems.contains(QStringLiteral("EVENT.md line 5: invalid UTF-8")), qPrintable(problems));
        const EventRecords events = ws.listEvents(ws.rooms().first().id, {}, {});
        QCOMPARE(events[2].type, QStringLiteral("a kind: with colons"));
        QCOMPARE(EventKinds::name(events[2].kind), QStringLiteral("custom"));
        QVERIFY(events[3].flags & EventFlags::InvalidUtf8);
        const ToolCallRecords calls = ws.toolCalls(ws.rooms().first().id);
        QCOMPARE(calls.size(), 2);
        QCOMPARE(calls[0].pairing, Pairing::Guessed);
        QCOMPARE(calls[1].pairing, Pairing::EndOnly);
    }

    // A task that ended with one of its calls still open (the agent stopped in it): that call never finished, and
    // the next task's call of the same name is paired with its own start, not with the dead one (which made every
    // later call of the name a pair across tasks and days, and ambiguous).
    void aTaskThatEndedClosesNothingMore()
    {
        auto task = [](const QByteArray& name, const QByteArray& id, const QByteArray& hour, bool fetchEnds) {
            QByteArray out = "[2026/05/04 " + hour + ":00:00] [action_start]: Running action task_start with input: {\n"
                             "  \"task_name\": \"" + name + "\",\n  \"_session_id\": \"c" + id + "\"\n}.\n"
                             "[2026/05/04 " + hour + ":00:00] [task_start]: Created task: '" + name + "'\n"
                             "[2026/05/04 " + hour + ":00:01] [action_end]: Action task_start completed with output: {\n"
                             "  \"status\": \"success\",\n  \"task_id\": \"" + id + "\"\n}.\n"
                             "[2026/05/04 " + hour + ":00:05] [action_start]: Running action web_fetch with input: {\n"
                             "  \"url\": \"https://example.org/" + id + "\",\n  \"_session_id\": \"" + id + "\"\n}.\n";
            if (fetchEnds)
                out += "[2026/05/04 " + hour + ":00:07] [action_end]: Action web_fetch completed with output: {\n"
                       "  \"status\": \"success\"\n}.\n";
            out += "[2026/05/04 " + hour + ":01:00] [action_start]: Running action task_end with input: {\n"
                   "  \"status\": \"abort\",\n  \"_session_id\": \"" + id + "\"\n}.\n"
                   "[2026/05/04 " + hour + ":01:00] [task_end]: Task ended with status 'cancelled'. Stopped.\n"
                   "[2026/05/04 " + hour + ":01:01] [action_end]: Action task_end completed with output: {\n"
                   "  \"status\": \"success\"\n}.\n";
            return out;
        };
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("EVENT.md"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(task("Stopped in a fetch", "aaa", "08", false) + task("Fetch it", "bbb", "09", true));
        f.close();
        Workspace ws(dir.filePath(QStringLiteral("w.sightline")));
        const ImportReport report = Importer::import(ws, path);
        QVERIFY2(report.problems.isEmpty(), qPrintable(report.problems.join(QLatin1Char('\n'))));
        const qint64 room = ws.rooms().first().id;
        QList<ToolCallRecord> fetches;
        for (const ToolCallRecord& c : ws.toolCalls(room)) {
            if (c.toolName == QLatin1String("web_fetch"))
                fetches << c;
        }
        QCOMPARE(fetches.size(), 2);
        QCOMPARE(fetches[0].groupId, QStringLiteral("aaa"));
        QCOMPARE(fetches[0].pairing, Pairing::StartOnly);
        QCOMPARE(fetches[0].outcome, Outcome::Unserved);
        QCOMPARE(fetches[1].groupId, QStringLiteral("bbb"));
        QCOMPARE(fetches[1].pairing, Pairing::Guessed);
        QVERIFY(!fetches[1].ambiguous);
        QCOMPARE(*fetches[1].startIndex + 1, *fetches[1].endIndex);
        QCOMPARE(*fetches[1].durationMs, 2000);
        // Both lines are stamped to the second: the call took between one and three seconds, and says so.
        QCOMPARE(fetches[1].durationSource, DurationSource::Seconds);
        QCOMPARE(DurationText::full(fetches[1]), QStringLiteral("2 s ± 1 s (timestamps to the second)"));
        QCOMPARE(DurationText::brief(fetches[1]), QStringLiteral("≈ 2 s"));
        // The fixture's first reply was sent within its second: not "0 ms".
        const ToolCallRecord reply = m_ws->toolCalls(this->room(QStringLiteral("EVENT.md"))).first();
        QCOMPARE(reply.toolName, QStringLiteral("send_message"));
        QCOMPARE(*reply.durationMs, 0);
        QCOMPARE(DurationText::brief(reply), QStringLiteral("< 1 s"));
        QCOMPARE(DurationText::full(reply), QStringLiteral("under 1 s (timestamps to the second)"));
        QCOMPARE(ws.room(room)->unserved, 1);
    }

    // A tool whose name holds "%1": its tool id is group, name and record number, each as it is (chained arg()
    // calls put the record's number into the name and left "%3" at the end: "bbb:fetch7:%3").
    void aToolNameWithPercentSignsKeepsItsToolId()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("EVENT.md"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("[2026/05/04 09:00:00] [action_start]: Running action task_start with input: {\n"
                "  \"task_name\": \"Fetch it\",\n  \"_session_id\": \"cbbb\"\n}.\n"
                "[2026/05/04 09:00:00] [task_start]: Created task: 'Fetch it'\n"
                "[2026/05/04 09:00:01] [action_end]: Action task_start completed with output: {\n"
                "  \"status\": \"success\",\n  \"task_id\": \"bbb\"\n}.\n"
                "[2026/05/04 09:00:05] [action_start]: Running action fetch%1 with input: {\n"
                "  \"url\": \"https://example.org/\",\n  \"_session_id\": \"bbb\"\n}.\n"
                "[2026/05/04 09:00:07] [action_end]: Action fetch%1 completed with output: {\n"
                "  \"status\": \"success\"\n}.\n");
        f.close();
        Workspace ws(dir.filePath(QStringLiteral("w.sightline")));
        Importer::import(ws, path);
        const qint64 room = ws.rooms().first().id;
        QStringList ids;
        for (const ToolCallRecord& c : ws.toolCalls(room)) {
            if (c.toolName == QLatin1String("fetch%1"))
                ids << c.toolId;
        }
        QCOMPARE(ids.size(), 1);
        QCOMPARE(ids.first().section(QLatin1Char(':'), 1, 1), QStringLiteral("fetch%1"));
        bool number = false;
        ids.first().section(QLatin1Char(':'), 2).toInt(&number);
        QVERIFY2(number, qPrintable(ids.first()));
    }

    void pythonLiterals_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("json"); // empty: not a literal
        QTest::newRow("dict") << "{'a': 1, 'b': [True, False, None], 'c': 'x'}"
                              << "{\"a\":1,\"b\":[true,false,null],\"c\":\"x\"}";
        QTest::newRow("double quotes, apostrophe") << "{'message': \"You're welcome! 😊\"}"
                                                   << "{\"message\":\"You're welcome! 😊\"}";
        QTest::newRow("escapes") << "'a\\nb\\t\\'q\\' \\\\ \\x41\\u00e9'"
                                 << "\"a\\nb\\t'q' \\\\ Aé\"";
        QTest::newRow("tuple and float") << "(1, -2.5, 3e2)"
                                         << "[1,-2.5,300]";
        QTest::newRow("trailing comma") << "[1, 2, ]"
                                        << "[1,2]";
        QTest::newRow("nested") << "{'x': {'y': [{'z': ()}]}}"
                                << "{\"x\":{\"y\":[{\"z\":[]}]}}";
        QTest::newRow("unclosed") << "{'a': 1"
                                  << "";
        QTest::newRow("unclosed string") << "'abc"
                                         << "";
        QTest::newRow("junk after") << "{} x"
                                    << "";
        QTest::newRow("bare word") << "Nothing"
                                   << "";
    }

    void pythonLiterals()
    {
        QFETCH(QString, text);
        QFETCH(QString, json);
        const auto value = PyLiteral::toJson(text);
        QCOMPARE(value.has_value(), !json.isEmpty());
        if (value) {
            const QJsonDocument want = QJsonDocument::fromJson(QByteArray("[") + json.toUtf8() + "]");
            QCOMPARE(QJsonArray { *value }, want.array());
        }
    }

    // Mutations of real records: parser and assembler never crash, keep every byte, and number records in order.
    void fuzzParserAndAssembler()
    {
        QFile f(dataFile(QStringLiteral("craftbot/EVENT_old.md")));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QFile newer(dataFile(QStringLiteral("craftbot/EVENT.md")));
        QVERIFY(newer.open(QIODevice::ReadOnly));
        const QByteArray source = f.readAll() + newer.readAll();
        const quint32 seed = qEnvironmentVariableIsSet("SIGHTLINE_FUZZ_SEED")
            ? quint32(qEnvironmentVariableIntValue("SIGHTLINE_FUZZ_SEED"))
            : 30u;
        qInfo("fuzz seed %u", seed);
        QRandomGenerator random(seed);
        for (int round = 0; round < 300; ++round) {
            const int from = random.bounded(int(source.size()));
            QByteArray chunk = source.mid(from, random.bounded(20000));
            for (int m = random.bounded(8); m > 0 && !chunk.isEmpty(); --m) {
                const int at = random.bounded(int(chunk.size()));
                switch (random.bounded(4)) {
                case 0:
                    chunk.remove(at, random.bounded(200));
                    break;
                case 1:
                    chunk[at] = char(random.bounded(256));
                    break;
                case 2:
                    chunk.insert(
                        at, "\n[2026/03/16 18:21:03] [action_end]: Action send_message completed with output: {'a");
                    break;
                case 3:
                    chunk.insert(at, chunk.mid(random.bounded(int(chunk.size())), 300));
                    break;
                }
            }
            const EventMdFile parsed = EventMdParser::parse(chunk);
            QByteArray joined = parsed.header.toUtf8();
            for (const EventMdRecord& r : parsed.records)
                joined += r.raw;
            if (parsed.header.isEmpty()) // no header: every byte is in a record
                QCOMPARE(joined, chunk);
            const CraftBotAssembly a = CraftBotAssembler::assemble(parsed.records);
            QCOMPARE(a.rows.size(), parsed.records.size());
            for (const ToolCallRecord& c : a.calls)
                QVERIFY(c.startIndex || c.endIndex);
        }
    }
};

QTEST_GUILESS_MAIN(TestCraftBotImport)
#include "tst_craftbotimport.moc"
