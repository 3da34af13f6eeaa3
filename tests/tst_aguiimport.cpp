// Imports kaboo-runtime's own AG-UI thread logs and checks every fact kaboo's store API reported (manifest.json):
// events by type, runs, tool calls with their assembled arguments, results and outcomes, synthetic closers,
// user messages, and assembled text and reasoning messages. Then syncing a growing log, and bad input.

#include "aguiloggenerator.h"
#include "eventflags.h"
#include "eventkind.h"
#include "outcome.h"
#include "sources/aguiassembler.h"
#include "sources/aguilogparser.h"
#include "sources/aguireader.h"
#include "sources/importer.h"
#include "storeerror.h"
#include "testsupport.h"
#include "workspace.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QSqlQuery>
#include <QMap>
#include <QRandomGenerator>
#include <QSet>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QTest>

using namespace TestSupport;

namespace {

QJsonArray manifestThreads()
{
    QFile file(dataFile(QStringLiteral("agui/manifest.json")));
    file.open(QIODevice::ReadOnly);
    return QJsonDocument::fromJson(file.readAll()).object().value(QLatin1String("threads")).toArray();
}

QJsonObject manifestThread(const QString& id)
{
    for (const QJsonValue& t : manifestThreads()) {
        if (t.toObject().value(QLatin1String("threadId")).toString() == id)
            return t.toObject();
    }
    return {};
}

EventRecords everything(Workspace& ws, qint64 room)
{
    EventFilter all;
    all.includeBlocked = true;
    return ws.listEvents(room, all, PageRequest { 1000000, 0, false, {}, {} });
}

void writeAll(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    f.open(QIODevice::WriteOnly);
    f.write(bytes);
}

// The outcome a result's status in the manifest stands for.
QString outcomeOf(const QString& status)
{
    if (status == QLatin1String("ok"))
        return QStringLiteral("served");
    if (status.startsWith(QLatin1String("stopped")))
        return QStringLiteral("cancelled");
    return QStringLiteral("failed");
}

// Everything an import wrote of the rooms: rows with their derived columns and search text, calls, runs and counts.
QStringList workspaceState(Workspace& ws)
{
    return dump(ws, QStringLiteral("SELECT r.native_id, e.seq, (SELECT name FROM words WHERE code = e.type), "
                                   "(SELECT name FROM words WHERE code = e.kind), (SELECT name FROM words WHERE code = e.role), e.flags, (SELECT native FROM messages m "
                                   "WHERE m.room_id = e.room_id AND m.number = e.message_id), e.tool_id, "
                                   "(SELECT name FROM words WHERE code = e.tool_name), e.outcome, (SELECT native FROM turns t WHERE t.room_id = e.room_id AND t.number = "
                                   "e.group_id), unpack(e.text), unpack(s.body), unpack(s.arguments), unpack(s.result) "
                                   "FROM events e JOIN rooms r ON r.id = e.room_id "
                                   "LEFT JOIN search_text s ON s.event_id = e.id ORDER BY r.native_id, e.seq"))
        + dump(ws, QStringLiteral("SELECT r.native_id, c.tool_id, c.tool_name, c.group_id, c.start_seq, c.end_seq, "
                                  "c.result_seq, c.outcome, c.status, c.pairing, unpack(c.arguments), unpack(c.result), c.error, "
                                  "c.duration_ms, c.synthetic FROM tool_calls c JOIN rooms r ON r.id = c.room_id "
                                  "ORDER BY r.native_id, c.start_seq, c.end_seq, c.result_seq, c.tool_id"))
        + dump(ws, QStringLiteral("SELECT r.native_id, u.group_id, u.first_seq, u.last_seq, u.outcome, u.detail, "
                                  "u.synthetic, u.usage_json FROM runs u JOIN rooms r ON r.id = u.room_id "
                                  "ORDER BY r.native_id, u.first_seq, u.group_id"))
        + dump(ws, QStringLiteral("SELECT native_id, title, status, event_count, tool_calls, failed, unserved "
                                  "FROM rooms ORDER BY native_id"))
        // The ids kept once per room, with the numbers the rows hold (schema steps 23 and 24).
        + dump(ws, QStringLiteral("SELECT r.native_id, 'message', m.number, m.native FROM messages m JOIN rooms r ON "
                                  "r.id = m.room_id UNION ALL SELECT r.native_id, 'turn', t.number, t.native FROM turns t "
                                  "JOIN rooms r ON r.id = t.room_id ORDER BY 1, 2, 3"))
        + indexedWords(ws); // what the full-text index holds of each row
}

// An assembly as lines of text, for a comparison that names what differs.
QStringList described(const AguiAssembly& a)
{
    QStringList out;
    for (const StoredEvent& row : a.rows) {
        const EventRecord& r = row.record;
        out << QStringLiteral("row %1 %2 %3 %4 %5 flags=%6 msg=%7 tool=%8/%9 out=%10 group=%11 text=%12 body=%13 "
                              "args=%14 result=%15")
                   .arg(r.index)
                   .arg(r.type, EventKinds::name(r.kind), r.role)
                   .arg(r.createdMicros)
                   .arg(r.flags)
                   .arg(r.messageId, r.toolId, r.toolName, Outcomes::name(r.outcome), r.groupId, r.text, row.body,
                       row.arguments, row.result);
    }
    for (const ToolCallRecord& c : a.calls) {
        out << QStringLiteral("call %1 %2 %3 %4 %5 %6 %7 %8 %9 %10 %11")
                   .arg(c.toolId, c.toolName, c.groupId)
                   .arg(c.startIndex.value_or(-1))
                   .arg(c.endIndex.value_or(-1))
                   .arg(c.resultIndex.value_or(-1))
                   .arg(Outcomes::name(c.outcome), c.status, c.arguments, c.result)
                   .arg(c.synthetic);
    }
    for (const RunRecord& r : a.runs)
        out << QStringLiteral("run %1 %2 %3 %4").arg(r.groupId).arg(r.firstIndex.value_or(-1)).arg(r.lastIndex.value_or(-1)).arg(r.outcome);
    for (const auto& p : a.problems)
        out << QStringLiteral("problem %1 %2").arg(p.first).arg(p.second);
    out << QStringLiteral("title %1 status %2").arg(a.firstUserText, a.lastRunOutcome);
    return out;
}

} // namespace

class TestAguiImport : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<Workspace> m_ws;

    qint64 room(const QString& id) { return m_ws->findRooms(id).value(0); }

private slots:
    void initTestCase()
    {
        QCOMPARE(Importer::detect(dataFile(QStringLiteral("agui"))), Importer::Format::AguiJsonl);
        m_ws = std::make_unique<Workspace>(m_dir.filePath(QStringLiteral("agui.sightline")));
        const ImportReport report = Importer::import(*m_ws, dataFile(QStringLiteral("agui")));
        QCOMPARE(report.format, QStringLiteral("agui.jsonl"));
        QCOMPARE(report.added(), 1099);
    }

    void threadList()
    {
        QFile listing(dataFile(QStringLiteral("agui/threads.json")));
        QVERIFY(listing.open(QIODevice::ReadOnly));
        const QJsonArray threads = QJsonDocument::fromJson(listing.readAll()).array();
        QCOMPARE(m_ws->rooms().size(), threads.size());
        for (const QJsonValue& v : threads) {
            const QJsonObject t = v.toObject();
            const auto summary = m_ws->room(room(t.value(QLatin1String("id")).toString()));
            QVERIFY(summary);
            QCOMPARE(summary->system, QStringLiteral("agui"));
            QCOMPARE(summary->owner, t.value(QLatin1String("ownerId")).toString());
            QCOMPARE(summary->agentId, t.value(QLatin1String("agentId")).toString());
            QCOMPARE(
                summary->eventCount, manifestThread(summary->nativeId).value(QLatin1String("eventCount")).toInteger());
        }
    }

    void threadFacts_data()
    {
        QTest::addColumn<QString>("thread");
        for (const QJsonValue& t : manifestThreads()) {
            const QString id = t.toObject().value(QLatin1String("threadId")).toString();
            QTest::newRow(qPrintable(id)) << id;
        }
    }

    void threadFacts()
    {
        QFETCH(QString, thread);
        const QJsonObject facts = manifestThread(thread);
        const qint64 id = room(thread);
        QVERIFY(id);
        const EventRecords events = everything(*m_ws, id);
        QCOMPARE(qint64(events.size()), facts.value(QLatin1String("eventCount")).toInteger());
        for (int i = 0; i < events.size(); ++i)
            QCOMPARE(events[i].index, qint64(i)); // the position in readEvents' order

        QMap<QString, qint64> byType;
        for (const EventRecord& e : events) {
            ++byType[e.type];
            QCOMPARE(e.flags & (EventFlags::MalformedJson | EventFlags::InvalidUtf8), 0);
        }
        QMap<QString, qint64> expectedTypes;
        const QJsonObject counts = facts.value(QLatin1String("countsByType")).toObject();
        for (auto it = counts.begin(); it != counts.end(); ++it)
            expectedTypes.insert(it.key(), it.value().toInteger());
        QCOMPARE(byType, expectedTypes);

        // Synthetic closers: exactly the events kaboo made up, never the agent's own.
        QVector<qint64> synthetic, expectedSynthetic;
        for (const EventRecord& e : events) {
            if (e.isSynthetic())
                synthetic << e.index;
        }
        for (const QJsonValue& s : facts.value(QLatin1String("syntheticEvents")).toArray())
            expectedSynthetic << s.toObject().value(QLatin1String("index")).toInteger();
        QCOMPARE(synthetic, expectedSynthetic);

        // kaboo places every message by its stream or its message_meta: none is shown again from a snapshot.
        for (const EventRecord& e : events)
            QVERIFY2(!(e.flags & EventFlags::FromSnapshot), qPrintable(QString::number(e.index)));

        checkRuns(id, facts);
        checkTools(id, events, facts);
        checkMessages(events, facts);

        // The conversation (`events --conversation`): the user's messages kaboo noted and the assistant's text
        // messages, once each, in order, not their deltas.
        QVector<qint64> conversation, expected;
        for (const EventRecord& e : m_ws->conversation(id, 100000))
            conversation << e.index;
        for (const char* key : { "messageMeta", "textMessages" }) {
            for (const QJsonValue& v : facts.value(QLatin1String(key)).toArray()) {
                const QJsonObject o = v.toObject();
                const QString messageId = o.value(QLatin1String("messageId")).toString();
                const auto first = std::find_if(events.begin(), events.end(), [&](const EventRecord& e) {
                    return e.messageId == messageId && !(e.flags & EventFlags::Folded) && e.kind == EventKind::Message;
                });
                QVERIFY2(first != events.end(), qPrintable(messageId));
                expected << first->index;
            }
        }
        std::sort(expected.begin(), expected.end());
        QCOMPARE(conversation, expected);
    }

    void checkRuns(qint64 id, const QJsonObject& facts)
    {
        const RunRecords runs = m_ws->runs(id);
        const QJsonArray expected = facts.value(QLatin1String("runs")).toArray();
        QCOMPARE(runs.size(), expected.size());
        for (int i = 0; i < runs.size(); ++i) {
            const QJsonObject want = expected[i].toObject();
            const RunRecord& run = runs[i];
            QCOMPARE(run.kind, QStringLiteral("run"));
            QCOMPARE(run.firstIndex, std::optional<qint64>(want.value(QLatin1String("firstIndex")).toInteger()));
            QCOMPARE(run.lastIndex, std::optional<qint64>(want.value(QLatin1String("lastIndex")).toInteger()));
            if (want.value(QLatin1String("runId")).isString())
                QCOMPARE(run.groupId, want.value(QLatin1String("runId")).toString());
            const QString outcome = want.value(QLatin1String("outcome")).toString();
            if (outcome.startsWith(QLatin1String("RUN_ERROR"))) {
                QCOMPARE(run.outcome, QStringLiteral("error"));
                const QString code = outcome.section(QLatin1String("code="), 1).section(QLatin1Char(' '), 0, 0);
                QVERIFY2(run.detail.startsWith(code + QStringLiteral(": ")), qPrintable(run.detail));
                QCOMPARE(run.synthetic, outcome.contains(QLatin1String("synthesized by kaboo")));
            } else if (outcome.contains(QLatin1String("synthesized by kaboo after stop"))) {
                QCOMPARE(run.outcome, QStringLiteral("stopped"));
                QVERIFY(run.synthetic);
            } else if (outcome.contains(QLatin1String("outcome=interrupt"))) {
                QCOMPARE(run.outcome, QStringLiteral("interrupt"));
                QVERIFY(run.interruptsJson.contains(QLatin1String("confirmation_required")));
            } else {
                QCOMPARE(outcome, QStringLiteral("RUN_FINISHED success"));
                QCOMPARE(run.outcome, QStringLiteral("success"));
                QVERIFY(!run.synthetic);
            }
        }
    }

    void checkTools(qint64 id, const EventRecords& events, const QJsonObject& facts)
    {
        const ToolCallRecords calls = m_ws->toolCalls(id);
        const QJsonArray expected = facts.value(QLatin1String("toolCalls")).toArray();
        QCOMPARE(calls.size(), expected.size());
        for (const QJsonValue& v : expected) {
            const QJsonObject want = v.toObject();
            const QString toolCallId = want.value(QLatin1String("toolCallId")).toString();
            const auto c = std::find_if(
                calls.begin(), calls.end(), [&](const ToolCallRecord& r) { return r.toolId == toolCallId; });
            QVERIFY2(c != calls.end(), qPrintable(toolCallId));
            QCOMPARE(c->toolName, want.value(QLatin1String("name")).toString());
            QCOMPARE(c->startIndex, std::optional<qint64>(want.value(QLatin1String("startIndex")).toInteger()));
            QCOMPARE(events[*c->startIndex].type,
                want.value(QLatin1String("form")).toString() == QLatin1String("CHUNK")
                    ? QStringLiteral("TOOL_CALL_CHUNK")
                    : QStringLiteral("TOOL_CALL_START"));
            const QJsonValue end = want.value(QLatin1String("endIndex"));
            QCOMPARE(c->endIndex, end.isDouble() ? std::optional<qint64>(end.toInteger()) : std::nullopt);
            if (c->endIndex)
                QCOMPARE(events[*c->endIndex].isSynthetic(), want.value(QLatin1String("endSynthetic")).toBool());
            // The arguments, joined from their fragments in order, and whether they parse.
            QCOMPARE(c->arguments, want.value(QLatin1String("args")).toString());
            QCOMPARE(c->argumentsValid, std::optional<bool>(want.value(QLatin1String("argsIsJson")).toBool()));
            const QJsonArray results = want.value(QLatin1String("results")).toArray();
            // A call no TOOL_CALL_RESULT answered may have been answered by a tool message the client sent in a
            // later run's input (a human's approval): kaboo's readMessages lists it, and the log holds it only in
            // a MESSAGES_SNAPSHOT. The call's result is that message.
            QJsonObject answer;
            for (const QJsonValue& m : facts.value(QLatin1String("readMessages")).toObject().value(QLatin1String("list")).toArray()) {
                if (m.toObject().value(QLatin1String("toolCallId")).toString() == toolCallId)
                    answer = m.toObject();
            }
            if (results.isEmpty() && !answer.isEmpty()) {
                QVERIFY(c->resultIndex);
                QVERIFY(events[*c->resultIndex].type == QLatin1String("MESSAGES_SNAPSHOT")
                    || events[*c->resultIndex].type == QLatin1String("RUN_STARTED"));
                QVERIFY(!(events[*c->resultIndex].flags & EventFlags::Folded)); // it shows what else it brought
                QCOMPARE(qint64(c->result.toUcs4().size()), answer.value(QLatin1String("contentChars")).toInteger());
                QVERIFY(c->result.startsWith(answer.value(QLatin1String("preview")).toString()));
                QCOMPARE(c->pairing, Pairing::Exact);
                QVERIFY(c->outcome != Outcome::Unserved);
            } else if (results.isEmpty()) {
                QCOMPARE(c->resultIndex, std::nullopt);
                QCOMPARE(Outcomes::name(c->outcome), QStringLiteral("unserved"));
            } else {
                const QJsonObject result = results.first().toObject();
                QCOMPARE(c->resultIndex, std::optional<qint64>(result.value(QLatin1String("index")).toInteger()));
                QCOMPARE(events[*c->resultIndex].isSynthetic(), result.value(QLatin1String("synthetic")).toBool());
                QCOMPARE(Outcomes::name(c->outcome), outcomeOf(result.value(QLatin1String("status")).toString()));
                QCOMPARE(qint64(c->result.toUcs4().size()), result.value(QLatin1String("contentChars")).toInteger());
                QCOMPARE(c->pairing, Pairing::Exact);
            }
        }
        // The room's counts follow the calls.
        const RoomSummary summary = *m_ws->room(id);
        QCOMPARE(summary.toolCalls, qint64(calls.size()));
        QCOMPARE(summary.failed, std::count_if(calls.begin(), calls.end(), [](const ToolCallRecord& c) {
            return Outcomes::name(c.outcome) == QLatin1String("failed");
        }));
        QCOMPARE(summary.unserved, std::count_if(calls.begin(), calls.end(), [](const ToolCallRecord& c) {
            return Outcomes::name(c.outcome) == QLatin1String("unserved");
        }));
    }

    void checkMessages(const EventRecords& events, const QJsonObject& facts)
    {
        // kaboo.message_meta: a user message, its id and time.
        for (const QJsonValue& v : facts.value(QLatin1String("messageMeta")).toArray()) {
            const EventRecord& e = events[v.toObject().value(QLatin1String("index")).toInteger()];
            QCOMPARE(e.type, QStringLiteral("CUSTOM"));
            QCOMPARE(EventKinds::name(e.kind), QStringLiteral("message"));
            QCOMPARE(e.role, QStringLiteral("user"));
            QCOMPARE(e.messageId, v.toObject().value(QLatin1String("messageId")).toString());
        }
        // Text messages: assembled on the row that starts them, deltas counted.
        auto check = [&](const QJsonObject& want, bool reasoning) {
            const QString id = want.value(QLatin1String("messageId")).toString();
            qint64 deltas = 0;
            const EventRecord* first = nullptr;
            for (const EventRecord& e : events) {
                if (e.messageId != id || e.type.startsWith(QLatin1String("TOOL_CALL"))
                    || e.type == QLatin1String("CUSTOM"))
                    continue;
                if (!first && !(e.flags & EventFlags::Folded)) // the row that shows it (a reasoning phase's START
                    first = &e; // comes before it, under its id)
                if (e.type.endsWith(QLatin1String("_CONTENT")) || e.type.endsWith(QLatin1String("_CHUNK")))
                    ++deltas;
            }
            QVERIFY2(first, qPrintable(id));
            QCOMPARE(first->kind, reasoning ? EventKind::Reasoning : EventKind::Message);
            // The manifest counts characters (code points), not UTF-16 units: flags and emoji are one each.
            QCOMPARE(qint64(first->text.toUcs4().size()), want.value(QLatin1String("chars")).toInteger());
            QCOMPARE(deltas, want.value(QLatin1String("deltas")).toInteger());
            if (want.contains(QLatin1String("startIndex")))
                QCOMPARE(first->index, want.value(QLatin1String("startIndex")).toInteger());
            if (want.contains(QLatin1String("role")))
                QCOMPARE(first->role, want.value(QLatin1String("role")).toString());
        };
        for (const QJsonValue& v : facts.value(QLatin1String("textMessages")).toArray())
            check(v.toObject(), false);
        for (const QJsonValue& v : facts.value(QLatin1String("reasoningMessages")).toArray())
            check(v.toObject(), true);
    }

    // In the timeline each message shows once, at the row that starts it, and each call once, at its start:
    // every row folded away belongs to an item that shows.
    void timelineItems()
    {
        for (const RoomSummary& room : m_ws->rooms()) {
            const EventRecords all = everything(*m_ws, room.id);
            EventFilter items;
            items.includeBlocked = true;
            items.timelineItems = true;
            const EventRecords shown = m_ws->listEvents(room.id, items, PageRequest { 100000, 0, false, {}, {} });
            QSet<qint64> shownAt;
            for (const EventRecord& e : shown)
                shownAt.insert(e.index);
            QVERIFY(shown.size() < all.size());
            const ToolCallRecords calls = m_ws->toolCalls(room.id);
            for (const EventRecord& e : all) {
                if (!(e.flags & EventFlags::Folded))
                    continue;
                if (EventKinds::name(e.kind) == QLatin1String("tool_call")) {
                    const auto c = std::find_if(
                        calls.begin(), calls.end(), [&](const ToolCallRecord& c) { return c.toolId == e.toolId; });
                    QVERIFY(c != calls.end() && c->startIndex && shownAt.contains(*c->startIndex));
                } else if (!e.messageId.isEmpty() && !e.type.endsWith(QLatin1String("_START"))
                    && !e.type.endsWith(QLatin1String("_END"))) {
                    QVERIFY2(std::any_of(shown.begin(), shown.end(),
                                 [&](const EventRecord& s) { return s.messageId == e.messageId; }),
                        qPrintable(e.messageId));
                }
            }
        }
    }

    // In the timeline a message matches a filter by a row folded into it, as a card does by its end: a filter
    // on the deltas' type shows each message that has deltas, once, at its start.
    void messagesMatchByTheirDeltas()
    {
        for (const RoomSummary& room : m_ws->rooms()) {
            EventFilter f;
            f.types = { QStringLiteral("TEXT_MESSAGE_CONTENT") };
            f.timelineItems = true;
            const EventRecords shown = m_ws->listEvents(room.id, f, PageRequest { 100000, 0, false, {}, {} });
            QSet<QString> messages;
            for (const EventRecord& e : everything(*m_ws, room.id)) {
                if (e.type == QLatin1String("TEXT_MESSAGE_CONTENT") && !e.isBlocked())
                    messages.insert(e.messageId);
            }
            QSet<QString> shownMessages;
            for (const EventRecord& e : shown) {
                QVERIFY2(!(e.flags & EventFlags::Folded), qPrintable(e.type));
                shownMessages.insert(e.messageId);
            }
            QCOMPARE(shown.size(), messages.size());
            QCOMPARE(shownMessages, messages);
            const RowIndex index = m_ws->indexRows(room.id, f, 16);
            QCOMPARE(index.rows, qint64(messages.size())); // the items
            f.timelineItems = false;
            QCOMPARE(index.shown, m_ws->countEvents(room.id, &f)); // the rows shown
        }
    }

    void searchFindsAssembledText()
    {
        // Words split across deltas are found once the message is assembled.
        const qint64 id = room(QStringLiteral("dev.lindqvist__th_nmhryq4wy0xyvq373sbg"));
        const EventRecords hits = m_ws->search(id, QStringLiteral("refund tests pass"), 10, false);
        QCOMPARE(hits.size(), 1);
        QCOMPARE(hits.first().type, QStringLiteral("TEXT_MESSAGE_START"));
        // Tool arguments and results are searchable too.
        QCOMPARE(m_ws->search(id, QStringLiteral("idempotency_key"), 50, false).isEmpty(), false);
    }

    void singleFileAndSourceUntouched()
    {
        const QString file = dataFile(QStringLiteral("agui/threads/th_985v8nrjgmpy2gn91679.jsonl"));
        const QByteArray before = sha256(file);
        QCOMPARE(Importer::detect(file), Importer::Format::AguiJsonl);
        QTemporaryDir dir;
        Workspace ws(dir.filePath(QStringLiteral("one.sightline")));
        QCOMPARE(Importer::import(ws, file).added(), 100);
        QCOMPARE(ws.rooms().size(), 1);
        QCOMPARE(ws.rooms().first().nativeId, QStringLiteral("th_985v8nrjgmpy2gn91679"));
        QCOMPARE(ws.rooms().first().agentId, QStringLiteral("legacy_bridge")); // threads.json one folder up
        QCOMPARE(sha256(file), before);
        QCOMPARE(Importer::import(ws, file).added(), 0);
    }

    // A message id and a call id with "%2" in them, each started a second time while the first was open: the
    // second message keeps the id it was given with its index after it (chained arg() calls made it "m2@2").
    void idsWithPercentSignsStayAsTheyAre()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("th_pct.jsonl"));
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"type\":\"RUN_STARTED\",\"runId\":\"r1\",\"threadId\":\"th_pct\",\"timestamp\":1784016877000}\n"
                "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m%2\",\"role\":\"assistant\",\"timestamp\":1784016877100}\n"
                "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m%2\",\"role\":\"assistant\",\"timestamp\":1784016877200}\n"
                "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"c%2\",\"toolCallName\":\"t\",\"timestamp\":1784016877300}\n"
                "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"c%2\",\"toolCallName\":\"t\",\"timestamp\":1784016877400}\n"
                "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"n%1\",\"role\":\"assistant\",\"timestamp\":1784016877500}\n"
                "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"n%1\",\"role\":\"assistant\",\"timestamp\":1784016877600}\n");
        f.close();
        Workspace ws(dir.filePath(QStringLiteral("pct.sightline")));
        Importer::import(ws, file);
        const qint64 room = ws.rooms().first().id;
        QCOMPARE(ws.event(room, 2)->messageId, QStringLiteral("m%2@2"));
        QCOMPARE(ws.event(room, 6)->messageId, QStringLiteral("n%1@6")); // chained: "n6@%2"
        for (const ToolCallRecord& c : ws.toolCalls(room))
            QCOMPARE(c.toolId, QStringLiteral("c%2")); // both calls, each its own, with the id the agent gave
        QCOMPARE(ws.toolCalls(room).size(), 2);
    }

    // A log kaboo is still writing: the first import stops mid-message and mid-arguments; the sync adds the
    // rest, and everything derived ends as a whole import makes it.
    void syncAGrowingLog()
    {
        QTemporaryDir dir;
        const QString name = QStringLiteral("maya.okafor__th_qh7rhj416fnzjz5q3vyw.jsonl");
        const QByteArray whole = fileBytes(dataFile(QStringLiteral("agui/threads/") + name));
        const QList<QByteArray> lines = whole.split('\n');
        const QString path = dir.filePath(name);
        writeAll(path, lines.mid(0, 100).join('\n') + '\n'); // inside the parallel fetch_url calls' arguments
        Workspace ws(dir.filePath(QStringLiteral("follow.sightline")));
        QCOMPARE(Importer::import(ws, path).added(), 100);
        writeAll(path, whole);
        QCOMPARE(Importer::import(ws, path).added(), 239);
        QCOMPARE(Importer::import(ws, path).added(), 0);

        const qint64 followed = ws.rooms().first().id;
        const qint64 whole_ = room(QStringLiteral("maya.okafor__th_qh7rhj416fnzjz5q3vyw"));
        const ToolCallRecords a = ws.toolCalls(followed), b = m_ws->toolCalls(whole_);
        QCOMPARE(a.size(), b.size());
        for (int i = 0; i < a.size(); ++i) {
            QCOMPARE(a[i].arguments, b[i].arguments);
            QCOMPARE(a[i].outcome, b[i].outcome);
            QCOMPARE(a[i].resultIndex, b[i].resultIndex);
        }
        const EventRecords x = everything(ws, followed), y = everything(*m_ws, whole_);
        QCOMPARE(x.size(), y.size());
        for (int i = 0; i < x.size(); ++i)
            QCOMPARE(x[i].text, y[i].text);
        QCOMPARE(ws.search(followed, QStringLiteral("portpc"), 20, false).size(),
            m_ws->search(whole_, QStringLiteral("portpc"), 20, false).size());
        QCOMPARE(ws.runs(followed).size(), 2);
    }

    // A long thread never imported shows its first screen before the rest is read (issue #13: the log was assembled
    // whole before anything was written): the room is committed, counted and listed after its first batch, and
    // ends with every line.
    void aLongThreadShowsItsFirstScreenFirst()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("th_long.jsonl"));
        AguiLogGenerator::write(path, 50000, dataFile(QStringLiteral("agui/threads")));
        const qint64 lines = fileBytes(path).count('\n');
        QVERIFY(lines >= 50000);
        Workspace ws(dir.filePath(QStringLiteral("w.sightline")));
        ImportOptions options;
        QList<qint64> shown;
        qint64 firstScreen = -1;
        options.roomReady = [&](qint64 roomId) {
            shown << ws.room(roomId)->eventCount;
            if (firstScreen < 0) // what the window's first screen reads: the room's first 200 rows
                firstScreen = ws.listEvents(roomId, {}, PageRequest { 200, 0, false, {}, {} }).size();
        };
        Importer::import(ws, path, options);
        QVERIFY(shown.size() >= 2);
        QVERIFY2(shown.first() > 0 && shown.first() < lines / 4, qPrintable(QString::number(shown.first())));
        QCOMPARE(firstScreen, 200);
        QCOMPARE(ws.rooms().size(), 1);
        QCOMPARE(ws.rooms().first().eventCount, lines);
        QCOMPARE(shown.last(), lines);
    }

    // The answer to a call that arrives in a later sync (a tool message in a MESSAGES_SNAPSHOT, after a human's
    // approval): the call read at the first sync as unserved is served after the second, as in one import.
    void aSnapshotAnswerInALaterSync()
    {
        QTemporaryDir dir;
        const QString name = QStringLiteral("maya.okafor__th_2kpkvbvvwfrtqgtevffs.jsonl");
        const QByteArray whole = fileBytes(dataFile(QStringLiteral("agui/threads/") + name));
        const QList<QByteArray> lines = whole.split('\n');
        const QString path = dir.filePath(name);
        writeAll(path, lines.mid(0, 140).join('\n') + '\n'); // the snapshot (line 151) not written yet
        Workspace ws(dir.filePath(QStringLiteral("follow.sightline")));
        Importer::import(ws, path);
        writeAll(path, whole);
        Importer::import(ws, path);
        const ToolCallRecords a = ws.toolCalls(ws.rooms().first().id);
        const ToolCallRecords b = m_ws->toolCalls(room(QStringLiteral("maya.okafor__th_2kpkvbvvwfrtqgtevffs")));
        QCOMPARE(a.size(), b.size());
        for (int i = 0; i < a.size(); ++i) {
            QCOMPARE(a[i].toolId, b[i].toolId);
            QCOMPARE(a[i].outcome, b[i].outcome);
            QCOMPARE(a[i].resultIndex, b[i].resultIndex);
            QCOMPARE(a[i].result, b[i].result);
        }
        QCOMPARE(ws.rooms().first().unserved, m_ws->room(room(QStringLiteral("maya.okafor__th_2kpkvbvvwfrtqgtevffs")))->unserved);
    }

    // An import of the logs killed (SIGKILL) at random moments and run again ends as one clean import does: rows,
    // their flags and texts, calls, runs and the rooms' counts. The killed imports hold a window of 7 rows: rows
    // are written as they are read, brought back and rewritten, calls written with each commit, when a kill lands.
    void aKilledImportResumesToTheSame()
    {
        QTemporaryDir dir;
        const QString source = dataFile(QStringLiteral("agui"));
        const auto state = workspaceState;
        Workspace clean(dir.filePath(QStringLiteral("clean.sightline")));
        QElapsedTimer timer;
        timer.start();
        Importer::import(clean, source);
        const int cleanMs = std::max<int>(20, int(timer.elapsed()));
        const QStringList want = state(clean);
        const QString killed = dir.filePath(QStringLiteral("killed.sightline"));
        // Kills until some landed inside an import (one that lands after its end proves nothing).
        int landed = 0;
        for (int i = 0; i < 30 && landed < 3; ++i) {
            if (importKilledMidway(killed, source, cleanMs * 2, 7))
                ++landed;
        }
        QVERIFY2(landed > 0, "no kill landed inside an import");
        Workspace resumed(killed);
        Importer::import(resumed, source);
        QCOMPARE(state(resumed), want);
    }

    // Threads on request: a folder of logs read while the room wanted changes after every batch of 16 rows (each
    // thread interrupted mid-way and read on later, from the start of its file) ends as one clean import does; and
    // one thread asked for alone is read alone, the others listed with their lines to read.
    void threadsOnRequest()
    {
        QTemporaryDir dir;
        const QString source = dataFile(QStringLiteral("agui"));
        const auto state = workspaceState;
        Workspace clean(dir.filePath(QStringLiteral("clean.sightline")));
        Importer::import(clean, source);
        const RoomSummaries threads = clean.rooms();
        QVERIFY(threads.size() >= 3);
        Workspace ws(dir.filePath(QStringLiteral("asked.sightline")));
        ImportOptions options;
        options.batchRows = 16;
        options.assemblyWindow = 7;
        QStringList ids;
        for (const RoomSummary& r : threads)
            ids << r.nativeId;
        RoomClicks clicks;
        clickRoomsInTurn(options, ws, ids, clicks);
        const ImportReport report = Importer::import(ws, source, options);
        QVERIFY2(clicks.started.size() > threads.size(), qPrintable(clicks.started.join(QLatin1Char(' '))));
        QCOMPARE(report.rooms.size(), threads.size());
        QCOMPARE(report.roomsNotRead, 0);
        QCOMPARE(state(ws), state(clean));

        Workspace one(dir.filePath(QStringLiteral("one.sightline")));
        ImportOptions alone;
        alone.onlyRooms = QStringList { threads.at(1).nativeId };
        Importer::import(one, source, alone);
        for (const RoomSummary& r : one.rooms()) {
            if (r.nativeId == threads.at(1).nativeId)
                QCOMPARE(r.eventCount, threads.at(1).eventCount);
            else
                QVERIFY2(r.notReadYet() && r.sourceEvents() > 0, qPrintable(r.nativeId));
        }
        Importer::import(one, source);
        QCOMPARE(state(one), state(clean));
    }

    // A message still streaming at a sync is searchable by what it holds so far; when a later sync reads the
    // rest, the index forgets the words it had (a cut word, "ord") and learns the whole text. The index was
    // contentless and took a row once, for good.
    // A thread of a runtime that keeps no notes of its own and sends no snapshot: its title is the first user message
    // that streamed whole (it had none).
    void aStreamedUserMessageNamesTheThread()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("th_plain.jsonl"));
        writeAll(path, R"({"type":"RUN_STARTED","runId":"run_1","threadId":"th_plain","timestamp":1784120174544}
{"type":"TEXT_MESSAGE_START","messageId":"u_1","role":"user","timestamp":1784120174600}
{"type":"TEXT_MESSAGE_CONTENT","messageId":"u_1","delta":"Fetch the refund ","timestamp":1784120174610}
{"type":"TEXT_MESSAGE_CONTENT","messageId":"u_1","delta":"policy page","timestamp":1784120174611}
{"type":"TEXT_MESSAGE_END","messageId":"u_1","timestamp":1784120174620}
{"type":"TEXT_MESSAGE_START","messageId":"m_1","role":"assistant","timestamp":1784120174630}
{"type":"TEXT_MESSAGE_CONTENT","messageId":"m_1","delta":"Here it is.","timestamp":1784120174640}
{"type":"TEXT_MESSAGE_END","messageId":"m_1","timestamp":1784120174650}
{"type":"RUN_FINISHED","runId":"run_1","threadId":"th_plain","timestamp":1784120174700}
)");
        Workspace ws(dir.filePath(QStringLiteral("w.sightline")));
        Importer::import(ws, path);
        QCOMPARE(ws.rooms().first().title, QStringLiteral("Fetch the refund policy page"));
    }

    void aStreamingMessageIsIndexedAgainWhenItGrows()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("th_streaming.jsonl"));
        const QByteArray head = R"({"type":"RUN_STARTED","runId":"run_1","threadId":"th_streaming","timestamp":1784120174544}
{"type":"TEXT_MESSAGE_START","messageId":"m_1","role":"assistant","timestamp":1784120174600}
{"type":"TEXT_MESSAGE_CONTENT","messageId":"m_1","delta":"Your refund for ord","timestamp":1784120174610}
)";
        const QByteArray tail = R"({"type":"TEXT_MESSAGE_CONTENT","messageId":"m_1","delta":"er 42 was declined","timestamp":1784120174620}
{"type":"TEXT_MESSAGE_END","messageId":"m_1","timestamp":1784120174630}
{"type":"RUN_FINISHED","runId":"run_1","threadId":"th_streaming","timestamp":1784120174700}
)";
        writeAll(path, head);
        Workspace ws(dir.filePath(QStringLiteral("w.sightline")));
        Importer::import(ws, path);
        const qint64 roomId = ws.rooms().first().id;
        auto found = [&](const char* word) { return ws.search(roomId, QLatin1String(word), 20, true).size(); };
        QCOMPARE(found("refund"), 1);
        QCOMPARE(found("ord"), 1);
        QCOMPARE(found("declined"), 0);
        writeAll(path, head + tail);
        Importer::import(ws, path);
        QCOMPARE(found("refund"), 1);
        QCOMPARE(found("declined"), 1);
        QCOMPARE(found("order"), 1);
        QCOMPARE(found("ord"), 0);
        QCOMPARE(ws.search(roomId, QStringLiteral("\"refund for order\""), 20, true).size(), 1);
        // The index and its text agree row for row.
        ws.exec(QStringLiteral("INSERT INTO events_fts(events_fts, rank) VALUES ('integrity-check', 1)"));
        // A room's rows deleted take their words with them.
        ws.exec(QStringLiteral("DELETE FROM events WHERE room_id = ?"), { roomId });
        QSqlQuery left = ws.exec(QStringLiteral("SELECT count(*) FROM events_fts WHERE events_fts MATCH 'refund'"));
        QVERIFY(left.next());
        QCOMPARE(left.value(0).toInt(), 0);
        ws.exec(QStringLiteral("INSERT INTO events_fts(events_fts, rank) VALUES ('integrity-check', 1)"));
    }

    // A folder named with or without its trailing slash, or through "..", is one source with one cached
    // workspace (it had two: the name came from the path as typed).
    void aFolderHasOneCache()
    {
        QTemporaryDir dir;
        QVERIFY(QDir().mkpath(dir.filePath(QStringLiteral("threads"))));
        const QString plain = dir.filePath(QStringLiteral("threads"));
        const QString cached = Importer::cachedWorkspacePath(plain);
        QVERIFY(QFileInfo(cached).fileName().startsWith(QLatin1String("threads-")));
        for (const QString& same : { QString(plain + QLatin1Char('/')), dir.filePath(QStringLiteral("threads/../threads/")),
                 dir.filePath(QStringLiteral("./threads")) })
            QCOMPARE(Importer::cachedWorkspacePath(same), cached);
    }

    // A dump of kaboo_thread_events: one {thread_id, event} object a line, threads interleaved.
    void wrappedLinesOfSeveralThreads()
    {
        QTemporaryDir dir;
        QByteArray dump;
        const QList<QByteArray> a
            = fileBytes(dataFile(QStringLiteral("agui/threads/sam.ng__th_kdrxq2s9agjmbhs5ge5c.jsonl"))).split('\n');
        const QList<QByteArray> b
            = fileBytes(dataFile(QStringLiteral("agui/threads/th_985v8nrjgmpy2gn91679.jsonl"))).split('\n');
        for (int i = 0; i < std::max(a.size(), b.size()); ++i) {
            if (i < a.size() && !a[i].isEmpty())
                dump += "{\"thread_id\":\"A\",\"event\":" + a[i] + "}\n";
            if (i < b.size() && !b[i].isEmpty())
                dump += "{\"threadId\":\"B\",\"event\":" + b[i] + "}\n";
        }
        const QString path = dir.filePath(QStringLiteral("dump.jsonl"));
        writeAll(path, dump);
        QCOMPARE(Importer::detect(path), Importer::Format::AguiJsonl);
        Workspace ws(dir.filePath(QStringLiteral("w.sightline")));
        const ImportReport report = Importer::import(ws, path);
        QCOMPARE(report.rooms.size(), 2);
        QCOMPARE(ws.room(ws.findRooms(QStringLiteral("A")).first())->eventCount, 37);
        QCOMPARE(ws.room(ws.findRooms(QStringLiteral("B")).first())->eventCount, 100);
        QCOMPARE(ws.toolCalls(ws.findRooms(QStringLiteral("B")).first()).size(), 2);
    }

    void badLines()
    {
        QTemporaryDir dir;
        QList<QByteArray> lines
            = fileBytes(dataFile(QStringLiteral("agui/threads/th_985v8nrjgmpy2gn91679.jsonl"))).split('\n');
        lines.removeAll(QByteArray());
        QList<QByteArray> bad = lines;
        bad.insert(3, "this is not JSON"); // line 4
        bad.insert(5, "{\"type\":\"SOMETHING_NEW\",\"payload\":1,\"timestamp\":1784120174600}"); // line 6
        bad.insert(
            7, "{\"type\":\"TOOL_CALL_START\",\"toolCallName\":\"no_id\",\"timestamp\":1784120174601}"); // line 8
        bad.insert(9,
            "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"dup\",\"toolCallName\":\"x\",\"timestamp\":1}"); // line 10
        bad.insert(10,
            "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"dup\",\"toolCallName\":\"x\",\"timestamp\":2}"); // line 11
        bad.insert(12,
            QByteArray("{\"type\":\"CUSTOM\",\"name\":\"big\",\"value\":\"") + QByteArray(10 * 1024 * 1024, 'x')
                + "\"}"); // line 13
        bad.insert(
            14, QByteArray("{\"type\":\"CUSTOM\",\"name\":\"bytes\",\"value\":\"ab") + "\xff\xfe" + "cd\"}"); // line 15
        bad.append("{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m\",\"del"); // cut short, no newline
        const QString path = dir.filePath(QStringLiteral("bad.jsonl"));
        writeAll(path, bad.join('\n'));

        Workspace ws(dir.filePath(QStringLiteral("w.sightline")));
        const ImportReport report = Importer::import(ws, path);
        QCOMPARE(report.added(), lines.size() + 8); // every line kept, the bad ones too
        const QString problems = report.problems.join(QLatin1Char('\n'));
        auto expect = [&](const QString& text) {
            QVERIFY2(problems.contains(path + QStringLiteral(": bad.jsonl line ") + text), qPrintable(problems));
        };
        expect(QStringLiteral("4: not JSON"));
        expect(QStringLiteral("6: unknown event type SOMETHING_NEW (kept as custom)"));
        expect(QStringLiteral("8: a tool call without a toolCallId"));
        expect(QStringLiteral("11: a second tool call with toolCallId dup"));
        expect(QStringLiteral("15: invalid UTF-8"));
        expect(QStringLiteral("%1: an unfinished last line").arg(bad.size()));

        const qint64 id = ws.rooms().first().id;
        const EventRecords events = everything(ws, id);
        QVERIFY(events[3].flags & EventFlags::MalformedJson);
        QCOMPARE(EventKinds::name(events[5].kind), QStringLiteral("custom"));
        QCOMPARE(events[5].type, QStringLiteral("SOMETHING_NEW"));
        QVERIFY(events[14].flags & EventFlags::InvalidUtf8);
        QCOMPARE(ws.payload(events[14].rowId), bad[14]);
        QCOMPARE(ws.payload(events[12].rowId).size(), bad[12].size());
        QVERIFY(events.last().flags & EventFlags::MalformedJson);
        // The real calls are still whole.
        int real = 0;
        for (const ToolCallRecord& c : ws.toolCalls(id))
            real += c.toolName == QLatin1String("lookup_order") || c.toolName == QLatin1String("redirect_delivery");
        QCOMPARE(real, 2);
    }

    void emptyFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("empty.jsonl"));
        writeAll(path, {});
        Workspace ws(dir.filePath(QStringLiteral("w.sightline")));
        try {
            Importer::import(ws, path);
            QFAIL("an empty file was imported");
        } catch (const StoreError& e) {
            QVERIFY2(e.toString().startsWith(path + QStringLiteral(": an empty file")), qPrintable(e.toString()));
        }
        // Forced, it is an empty thread, said so.
        const ImportReport report = Importer::import(ws, path, {}, Importer::Format::AguiJsonl);
        QCOMPARE(report.added(), 0);
        QVERIFY(report.problems.join(QLatin1Char('\n')).contains(QLatin1String("an empty file")));
    }

    // Mutated lines of every fixture thread: the assembler never crashes, keeps every line, and keeps the
    // bytes of each as they were.
    void fuzzAssembler()
    {
        QVector<QByteArray> pool;
        for (const QFileInfo& f :
            QDir(dataFile(QStringLiteral("agui/threads"))).entryInfoList({ QStringLiteral("*.jsonl") })) {
            for (const QByteArray& line : fileBytes(f.filePath()).split('\n')) {
                if (!line.isEmpty())
                    pool << line;
            }
        }
        const quint32 seed = qEnvironmentVariableIsSet("SIGHTLINE_FUZZ_SEED")
            ? quint32(qEnvironmentVariableIntValue("SIGHTLINE_FUZZ_SEED"))
            : 1130u;
        qInfo("fuzz seed %u", seed);
        QRandomGenerator random(seed);
        for (int round = 0; round < 300; ++round) {
            QByteArray log;
            const int count = 1 + random.bounded(120);
            const int start = random.bounded(int(pool.size()));
            for (int i = 0; i < count; ++i) {
                QByteArray line = pool[(start + i) % pool.size()];
                if (random.bounded(4) == 0) {
                    const int at = random.bounded(int(line.size()));
                    switch (random.bounded(4)) {
                    case 0:
                        line.truncate(at);
                        break;
                    case 1:
                        line[at] = char(random.bounded(256));
                        break;
                    case 2:
                        line.remove(at, random.bounded(30));
                        break;
                    case 3:
                        line.insert(at, pool[random.bounded(int(pool.size()))].left(random.bounded(60)));
                        break;
                    }
                }
                if (random.bounded(10) == 0)
                    line = pool[random.bounded(int(pool.size()))]; // out of order: an end before its start, ...
                log += line + '\n';
            }
            const QVector<AguiLine> lines = AguiLogParser::parse(log);
            const AguiAssembly a = AguiAssembler::assemble(lines);
            QCOMPARE(a.rows.size(), lines.size());
            for (int i = 0; i < lines.size(); ++i) {
                QCOMPARE(a.rows[i].payload, lines[i].raw);
                QCOMPARE(a.rows[i].record.index, qint64(i));
            }
            for (const ToolCallRecord& c : a.calls)
                QVERIFY(c.startIndex || c.endIndex || c.resultIndex);
            // Whatever the window, the same assembly: rows that left early and came back for a change included.
            const qsizetype window = 1 + random.bounded(8);
            const QStringList whole = described(a), windowed = described(AguiAssembler::assemble(lines, {}, window));
            for (qsizetype k = 0; k < std::min(whole.size(), windowed.size()); ++k)
                QCOMPARE(windowed[k], whole[k]);
            QCOMPARE(windowed.size(), whole.size());
        }
    }

    // Every fixture thread assembled with a window of one row (each row written as soon as it is read, and brought
    // back for every later change), of a few rows, and whole: the same workspace, row for row.
    void anyWindowGivesTheSameWorkspace()
    {
        const QStringList want = workspaceState(*m_ws);
        for (int window : { 1, 3, 50 }) {
            QTemporaryDir dir;
            Workspace ws(dir.filePath(QStringLiteral("w.sightline")));
            ImportOptions options;
            options.assemblyWindow = window;
            options.batchRows = 7; // commits inside the window, with the calls settled so far
            Importer::import(ws, dataFile(QStringLiteral("agui")), options);
            const QStringList got = workspaceState(ws);
            for (qsizetype k = 0; k < std::min(got.size(), want.size()); ++k)
                QCOMPARE(got[k], want[k]);
            QCOMPARE(got.size(), want.size());
        }
    }

    // An import cancelled after its first batches keeps the calls and runs of the rows it stored, and no call of a
    // row it did not; the next import goes on from there and ends as one clean import does.
    void aCancelledImportKeepsItsCallsAndResumes()
    {
        QTemporaryDir dir;
        Workspace ws(dir.filePath(QStringLiteral("w.sightline")));
        ImportOptions options;
        options.batchRows = 40;
        options.assemblyWindow = 25;
        int batches = 0;
        options.progress = [&](qint64, qint64) { ++batches; };
        options.isCancelled = [&] { return batches >= 3; };
        Importer::import(ws, dataFile(QStringLiteral("agui")), options);
        QSqlQuery stored = ws.exec(QStringLiteral("SELECT count(*) FROM events"));
        QVERIFY(stored.next());
        QVERIFY2(stored.value(0).toInt() > 0 && stored.value(0).toInt() < 1099, qPrintable(stored.value(0).toString()));
        QSqlQuery calls = ws.exec(QStringLiteral("SELECT count(*) FROM tool_calls"));
        QVERIFY(calls.next());
        QVERIFY(calls.value(0).toInt() > 0);
        for (const char* column : { "start_seq", "end_seq", "result_seq" }) {
            QSqlQuery orphans = ws.exec(QStringLiteral("SELECT count(*) FROM tool_calls c WHERE c.%1 IS NOT NULL AND NOT "
                                                       "EXISTS (SELECT 1 FROM events e WHERE e.room_id = c.room_id AND "
                                                       "e.seq = c.%1)")
                                            .arg(QLatin1String(column)));
            QVERIFY(orphans.next());
            QCOMPARE(orphans.value(0).toInt(), 0);
        }
        Importer::import(ws, dataFile(QStringLiteral("agui")));
        QCOMPARE(workspaceState(ws), workspaceState(*m_ws));
    }

    // A log synced in many small steps, with a window of one row: each sync reads the log again, compares the rows
    // it holds and adds the rest, and the room ends as one import of the whole log makes it.
    void syncInStepsWithAWindowOfOne_data()
    {
        QTest::addColumn<bool>("readWhole");
        QTest::newRow("each sync reads on from the last") << false;
        QTest::newRow("each sync reads the log again") << true;
    }
    void syncInStepsWithAWindowOfOne()
    {
        QFETCH(bool, readWhole);
        QTemporaryDir dir;
        const QString name = QStringLiteral("dev.lindqvist__th_nmhryq4wy0xyvq373sbg.jsonl");
        const QByteArray whole = fileBytes(dataFile(QStringLiteral("agui/threads/") + name));
        const QString path = dir.filePath(name);
        Workspace ws(dir.filePath(QStringLiteral("w.sightline")));
        ImportOptions options;
        options.assemblyWindow = 1;
        const int resumedBefore = AguiReader::resumedSyncs();
        int syncs = 0;
        for (qsizetype cut = 997; cut < whole.size(); cut += 4099) {
            if (readWhole)
                AguiReader::forgetResumePoints();
            writeAll(path, whole.left(cut)); // cut inside a line: the last row is renewed by the next sync
            Importer::import(ws, path, options);
            ++syncs;
        }
        writeAll(path, whole);
        if (readWhole)
            AguiReader::forgetResumePoints();
        Importer::import(ws, path, options);
        QCOMPARE(AguiReader::resumedSyncs() - resumedBefore, readWhole ? 0 : syncs);
        Workspace once(dir.filePath(QStringLiteral("once.sightline")));
        Importer::import(once, path);
        QCOMPARE(workspaceState(ws), workspaceState(once));
    }

    // A warning a later line says of an earlier row (a START replayed and answered by a result alone is said on the
    // call's card) reaches that row when the line comes in a later sync, whether the sync reads on or reads again,
    // and a row the next lines make right loses its warning: the rows' warnings are those of one clean import.
    void warningsFoundInALaterSync_data() { syncInStepsWithAWindowOfOne_data(); }
    void warningsFoundInALaterSync()
    {
        QFETCH(bool, readWhole);
        const QList<QByteArray> lines {
            R"({"type":"RUN_STARTED","threadId":"t","runId":"r1"})",
            R"({"type":"TOOL_CALL_START","toolCallId":"tc-1","toolCallName":"approve"})",
            R"({"type":"TOOL_CALL_END","toolCallId":"tc-1"})",
            R"({"type":"RUN_FINISHED","threadId":"t","runId":"r1"})",
            R"({"type":"RUN_STARTED","threadId":"t","runId":"r2"})",
            R"({"type":"TOOL_CALL_START","toolCallId":"tc-1","toolCallName":"approve"})",
            R"({"type":"TOOL_CALL_RESULT","toolCallId":"tc-1","messageId":"tm-1","content":"approved"})",
            R"({"type":"STEP_FINISHED","stepName":"never"})",
            R"({"type":"RUN_FINISHED","threadId":"t","runId":"r2"})",
        };
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("t.jsonl"));
        Workspace ws(dir.filePath(QStringLiteral("w.sightline")));
        ImportOptions options;
        options.assemblyWindow = 1;
        for (qsizetype n = 1; n <= lines.size(); ++n) {
            if (readWhole)
                AguiReader::forgetResumePoints();
            writeAll(path, lines.mid(0, n).join('\n') + '\n');
            Importer::import(ws, path, options);
        }
        Workspace once(dir.filePath(QStringLiteral("once.sightline")));
        Importer::import(once, path);
        const auto warnings = [](Workspace& w) {
            QStringList out;
            QSqlQuery q = w.exec(QStringLiteral("SELECT seq, warning FROM events WHERE warning IS NOT NULL ORDER BY seq"));
            while (q.next())
                out << q.value(0).toString() + QStringLiteral(": ") + q.value(1).toString();
            return out;
        };
        QCOMPARE(warnings(ws), warnings(once));
        QCOMPARE(warnings(once).size(), 3);
        QVERIFY(warnings(once).first().startsWith(QLatin1String("1: TOOL_CALL_START for tc-1 came again")));
    }

    // What the end of a log made of an earlier row is made again at the next sync's end: a message a run's input
    // brought (never streamed so far) is shown at the run's row after the first sync, and not once the log streams
    // it, whether the second sync reads on from the first or reads the log again.
    void theLogsEndIsMadeAgainAtTheNextSync()
    {
        const QByteArray head = R"({"type":"RUN_STARTED","runId":"r1","threadId":"t","input":{"messages":[{"id":"m1","role":"assistant","content":"Looking it up"},{"id":"m2","role":"assistant","toolCalls":[{"id":"c1","type":"function","function":{"name":"lookup","arguments":"{}"}}]}]}}
{"type":"TEXT_MESSAGE_START","messageId":"x","role":"assistant"}
{"type":"TEXT_MESSAGE_CONTENT","messageId":"x","delta":"hi"}
)";
        const QByteArray tail = R"({"type":"TEXT_MESSAGE_END","messageId":"x"}
{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}
{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"Looking it up"}
{"type":"TEXT_MESSAGE_END","messageId":"m1"}
{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"lookup","parentMessageId":"m2"}
{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{}"}
{"type":"TOOL_CALL_END","toolCallId":"c1"}
{"type":"RUN_FINISHED","runId":"r1","threadId":"t"}
)";
        for (const bool readWhole : { false, true }) {
            QTemporaryDir dir;
            const QString path = dir.filePath(QStringLiteral("t.jsonl"));
            Workspace ws(dir.filePath(QStringLiteral("w.sightline")));
            ImportOptions options;
            options.assemblyWindow = 1;
            writeAll(path, head);
            Importer::import(ws, path, options);
            const qint64 room = ws.rooms().first().id;
            QCOMPARE(everything(ws, room).first().text, QStringLiteral("assistant: Looking it up\n\nassistant: lookup({})"));
            QCOMPARE(ws.toolCalls(room).size(), 1); // the call only the input brought, at the run's row
            writeAll(path, head + tail);
            if (readWhole)
                AguiReader::forgetResumePoints();
            Importer::import(ws, path, options);
            QCOMPARE(everything(ws, room).first().text, QStringLiteral("run r1 started"));
            QCOMPARE(ws.toolCalls(room).size(), 1); // streamed now: the one call, at its START
            QCOMPARE(*ws.toolCalls(room).first().startIndex, 7);
            Workspace once(dir.filePath(QStringLiteral("once.sightline")));
            Importer::import(once, path);
            QCOMPARE(workspaceState(ws), workspaceState(once));
        }
    }

    // A followed folder of threads where one grew: the sync reads, counts and writes that thread alone (the others
    // are as their last read left them), and the workspace ends as one import of the folder makes it.
    void aFolderSyncReadsOnlyTheThreadThatGrew()
    {
        QTemporaryDir dir;
        const QString folder = dir.filePath(QStringLiteral("threads"));
        QVERIFY(QDir().mkpath(folder));
        const QFileInfoList files = QDir(dataFile(QStringLiteral("agui/threads"))).entryInfoList({ QStringLiteral("*.jsonl") });
        QCOMPARE(files.size(), 6);
        const QString grown = folder + QLatin1Char('/') + files.first().fileName();
        QByteArray whole;
        for (const QFileInfo& f : files) {
            if (f.fileName() == files.first().fileName()) {
                whole = fileBytes(f.filePath());
                writeAll(grown, whole.left(whole.indexOf('\n', whole.size() / 2) + 1));
            } else {
                QVERIFY(QFile::copy(f.filePath(), folder + QLatin1Char('/') + f.fileName()));
            }
        }
        Workspace ws(dir.filePath(QStringLiteral("w.sightline")));
        QCOMPARE(Importer::import(ws, folder).rooms.size(), 6);
        QCOMPARE(Importer::import(ws, folder).rooms.size(), 0); // nothing changed: nothing read
        writeAll(grown, whole);
        const ImportReport report = Importer::import(ws, folder);
        QCOMPARE(report.rooms.size(), 1);
        QVERIFY(report.added() > 0);
        Workspace once(dir.filePath(QStringLiteral("once.sightline")));
        Importer::import(once, folder);
        QCOMPARE(workspaceState(ws), workspaceState(once));
    }

    // A followed log read on from where the last sync stood, every line of it new since: a sync reads only what
    // was appended (the position kept per file). A log rewritten rather than appended to, or a room another
    // process synced since, is read again from its start. Each way, the room ends as one import makes it.
    void aFollowedLogIsReadOnFromWhereItStood()
    {
        QTemporaryDir dir;
        const QString name = QStringLiteral("maya.okafor__th_2kpkvbvvwfrtqgtevffs.jsonl");
        const QByteArray whole = fileBytes(dataFile(QStringLiteral("agui/threads/") + name));
        const QList<QByteArray> lines = whole.split('\n');
        const QString path = dir.filePath(name);
        Workspace ws(dir.filePath(QStringLiteral("w.sightline")));
        ImportOptions options;
        options.assemblyWindow = 5;
        const int before = AguiReader::resumedSyncs();
        QFile log(path);
        QVERIFY(log.open(QIODevice::WriteOnly));
        for (qsizetype i = 0; i < lines.size(); ++i) {
            log.write(lines[i] + (i + 1 < lines.size() ? "\n" : ""));
            log.flush();
            if (i % 17 == 0)
                Importer::import(ws, path, options);
        }
        log.close();
        Importer::import(ws, path, options);
        QVERIFY2(AguiReader::resumedSyncs() - before >= int(lines.size() / 17), "syncs read the log again");
        Workspace once(dir.filePath(QStringLiteral("once.sightline")));
        Importer::import(once, path);
        QCOMPARE(workspaceState(ws), workspaceState(once));

        // Rewritten with the same length: the bytes before where the last sync stood are not the same any more.
        QByteArray changed = whole;
        changed.replace("Berlin", "Bergen");
        QCOMPARE(changed.size(), whole.size());
        QVERIFY(changed != whole);
        writeAll(path, changed);
        const int resumed = AguiReader::resumedSyncs();
        Importer::import(ws, path, options);
        QCOMPARE(AguiReader::resumedSyncs(), resumed);
        Workspace changedOnce(dir.filePath(QStringLiteral("changed.sightline")));
        Importer::import(changedOnce, path);
        QCOMPARE(workspaceState(ws), workspaceState(changedOnce));
    }

    // A log cut back to its own first lines loses the rows past the cut, whether this process read it before or
    // another did (the workspace keeps the log's size and the hash of its end); grown again, it is as one import.
    void aLogCutBackLosesWhatWasCut()
    {
        QTemporaryDir dir;
        const QString name = QStringLiteral("dev.lindqvist__th_nmhryq4wy0xyvq373sbg.jsonl");
        const QByteArray whole = fileBytes(dataFile(QStringLiteral("agui/threads/") + name));
        const QByteArray start = whole.split('\n').mid(0, 40).join('\n') + '\n';
        const QString path = dir.filePath(name);
        const auto once = [&dir, &path](const QString& file) {
            Workspace ws(dir.filePath(file));
            Importer::import(ws, path);
            return workspaceState(ws);
        };
        Workspace ws(dir.filePath(QStringLiteral("w.sightline")));
        for (const bool forget : { false, true }) {
            writeAll(path, whole);
            Importer::import(ws, path);
            QCOMPARE(ws.rooms().first().eventCount, 281);
            writeAll(path, start);
            if (forget)
                AguiReader::forgetResumePoints(); // as another process finds it
            const ImportReport cut = Importer::import(ws, path);
            QVERIFY(cut.problems.join(QLatin1Char('\n')).contains(QLatin1String("rotated or rewritten")));
            QCOMPARE(ws.rooms().first().eventCount, 40);
            QCOMPARE(workspaceState(ws), once(QStringLiteral("cut%1.sightline").arg(forget)));
        }
        writeAll(path, whole);
        const ImportReport grown = Importer::import(ws, path);
        QVERIFY(!grown.problems.join(QLatin1Char('\n')).contains(QLatin1String("rotated")));
        QCOMPARE(workspaceState(ws), once(QStringLiteral("whole.sightline")));
    }

    // Timestamps no time can be (a difference of two of them overflowed, undefined behaviour): the rows have no
    // time, are flagged, the problem names the line, and no duration is made from them.
    void timestampsOutOfRange()
    {
        const QByteArray log = R"({"type":"RUN_STARTED","runId":"run_1","threadId":"th_1","timestamp":1784120174544}
{"type":"TOOL_CALL_START","toolCallId":"call_1","toolCallName":"lookup_order","timestamp":-9.1e15}
{"type":"TOOL_CALL_ARGS","toolCallId":"call_1","delta":"{}","timestamp":1784120174600}
{"type":"TOOL_CALL_END","toolCallId":"call_1","timestamp":1e300}
{"type":"TOOL_CALL_RESULT","toolCallId":"call_1","messageId":"m_1","content":"ok","timestamp":9.1e15}
{"type":"RUN_FINISHED","runId":"run_1","threadId":"th_1","timestamp":1784120174700}
)";
        const QVector<AguiLine> lines = AguiLogParser::parse(log);
        const AguiAssembly a = AguiAssembler::assemble(lines);
        QCOMPARE(a.rows.size(), 6);
        for (int i : { 1, 3, 4 }) {
            QCOMPARE(a.rows[i].record.createdMicros, 0);
            QVERIFY(a.rows[i].record.flags & EventFlags::OutOfRange);
        }
        QCOMPARE(a.rows[2].record.createdMicros, 1784120174600000);
        QVERIFY(!(a.rows[2].record.flags & EventFlags::OutOfRange));
        int named = 0;
        for (const auto& p : a.problems)
            named += p.second.contains(QLatin1String("out of range")) ? 1 : 0;
        QCOMPARE(named, 3);
        QCOMPARE(a.calls.size(), 1);
        QVERIFY(!a.calls.first().durationMs);
    }
};

QTEST_GUILESS_MAIN(TestAguiImport)
#include "tst_aguiimport.moc"
