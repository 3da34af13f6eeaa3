// Redaction: a span of a string in an event's payload replaced in place (the rest of the payload byte for byte,
// still valid JSON), wherever the event's text shows; undone and redone exactly until the save; after the save
// the text is nowhere in the workspace's files, not found by search, and the ledger and journal keep its hash.

#include "annotationstore.h"
#include "eventflags.h"
#include "journal.h"
#include "jsonstrings.h"
#include "redactionpatterns.h"
#include "redactionstore.h"
#include "roomkitstoregenerator.h"
#include "sources/importer.h"
#include "storeerror.h"
#include "testsupport.h"
#include "workspace.h"

#include <QCryptographicHash>
#include <QMessageAuthenticationCode>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QSet>
#include <QSqlQuery>
#include <QTest>

using namespace TestSupport;

namespace {

QString payloadAt(Workspace& ws, qint64 room, qint64 index)
{
    QSqlQuery q = ws.exec(QStringLiteral("SELECT unpack(payload) FROM events WHERE room_id = ? AND seq = ?"), { room, index });
    return q.next() ? q.value(0).toString() : QString();
}

// The AG-UI fixture's message whose deltas cut "test file" in three: its room, index, text and message id.
struct AssembledMessage
{
    qint64 room = 0;
    qint64 index = 0;
    QString text;
    QString id;
};

AssembledMessage assembledMessage(Workspace& ws)
{
    QSqlQuery q = ws.exec(QStringLiteral("SELECT room_id, seq, unpack(text), message_id FROM events WHERE type = (SELECT code FROM words "
                                         "WHERE name = 'TEXT_MESSAGE_START') "
                                         "AND unpack(text) LIKE 'Let me read the test file%'"));
    if (!q.next())
        return {};
    return { q.value(0).toLongLong(), q.value(1).toLongLong(), q.value(2).toString(), q.value(3).toString() };
}

} // namespace

class TestRedaction : public QObject
{
    Q_OBJECT

private slots:
    // A whole event: every string that says something, its ids, types, roles and times left; a card takes its
    // call whole; an assembled message its text in every part; a whole field every string under it.
    void aWholeEventOrField()
    {
        QTemporaryDir dir;
        auto ws = importFixture(dir, QStringLiteral("support.sqlite"));
        const qint64 room = ws->findRooms(QStringLiteral("sup-duplicate-charge")).first();
        AnnotationStore store(*ws);
        const QString said = QStringLiteral("[redacted: whole event]");
        const EventRecord before = *ws->event(room, 4);
        QVERIFY(!store.redactAll(room, 4, QString(), QStringLiteral("whole event"), QStringLiteral("ana")).isEmpty());
        const EventRecord after = *ws->event(room, 4);
        QCOMPARE(after.text, said);
        QCOMPARE(after.type, before.type);
        QCOMPARE(after.participantId, before.participantId); // an id: the timeline still says who
        const QJsonObject payload = QJsonDocument::fromJson(payloadAt(*ws, room, 4).toUtf8()).object();
        QCOMPARE(payload.value(QLatin1String("id")).toString(), before.nativeId);
        QVERIFY(!payloadAt(*ws, room, 4).contains(QLatin1String("A-10533")));
        QVERIFY(!payloadAt(*ws, room, 4).contains(QLatin1String("charged twice")));
        QCOMPARE(ws->search(room, QStringLiteral("charged"), 10, true).size(), 0);

        // A card: the call whole, its arguments (start) and its result (end).
        store.redactAll(room, 11, QString(), QStringLiteral("whole event"), QStringLiteral("ana"));
        const ToolCallRecord call = *ws->toolCallAt(room, 11);
        QVERIFY2(!call.arguments.contains(QLatin1String("A-10533")), qPrintable(call.arguments));
        QVERIFY2(!call.result.contains(QLatin1String("A-10533")), qPrintable(call.result));
        QCOMPARE(call.toolName, QStringLiteral("issue_refund"));
        QVERIFY(ws->event(room, 12)->flags & EventFlags::Redacted);

        // A field: every string under it, and nothing else.
        const QString other = payloadAt(*ws, room, 9);
        QVERIFY(other.contains(QLatin1String("\"arguments\"")));
        store.redactAll(room, 9, QStringLiteral("$.content.arguments"), QStringLiteral("order"), QStringLiteral("ana"));
        const QJsonObject content
            = QJsonDocument::fromJson(payloadAt(*ws, room, 9).toUtf8()).object().value(QLatin1String("content")).toObject();
        QCOMPARE(content.value(QLatin1String("arguments")).toObject().value(QLatin1String("order_id")).toString(),
            QStringLiteral("[redacted: order]"));
        QCOMPARE(content.value(QLatin1String("tool_name")).toString(), QStringLiteral("check_refund_eligibility"));
        // Nothing there to redact: said, nothing changes.
        QVERIFY_THROWS_EXCEPTION(StoreError, store.redactAll(room, 9, QStringLiteral("$.content.nothing"), QStringLiteral("x"), QStringLiteral("ana")));
        // Every string its own redaction in the ledger, undone as one change.
        const int redactions = RedactionStore(*ws).ledger(room).size();
        QVERIFY(redactions >= 4);
        store.discard();
        QCOMPARE(ws->event(room, 4)->text, before.text);
        QCOMPARE(RedactionStore(*ws).ledger(room).size(), 0);
    }

    void stringsAreFoundWhereTheyAre()
    {
        // (No raw string literal: moc does not read them.)
        const QString json = QStringLiteral("{\"a\":\"plain\",\"b\":{\"c d\":[\"x\\\"y\",1,true,null,{\"e\":"
                                            "\"\\u00e9\\ud83d\\ude00\\n\"}]},\"f\":-1.5e3,\"g\":\"\\/\"}");
        const auto tokens = JsonStrings::values(json);
        QVERIFY(tokens);
        QStringList paths, values;
        for (const JsonStrings::Token& t : *tokens) {
            paths << t.path;
            values << t.value;
        }
        QCOMPARE(paths, (QStringList { QStringLiteral("$.a"), QStringLiteral("$.b[\"c d\"][0]"),
                            QStringLiteral("$.b[\"c d\"][4].e"), QStringLiteral("$.g") }));
        QCOMPARE(values, (QStringList { QStringLiteral("plain"), QStringLiteral("x\"y"),
                             QString::fromUtf8("é😀\n"), QStringLiteral("/") }));
        // A selection of the raw text maps to the decoded span, an escape counted whole.
        const qsizetype quote = json.indexOf(QStringLiteral("x\\\"y"));
        const auto picked = JsonStrings::selectionAt(json, quote + 1, quote + 3); // the \"
        QVERIFY(picked);
        QCOMPARE(picked->token.path, QStringLiteral("$.b[\"c d\"][0]"));
        QCOMPARE(picked->start, 1);
        QCOMPARE(picked->length, 1);
        QVERIFY(!JsonStrings::selectionAt(json, 0, 5)); // across a key and a value: no one string
        // Replacing a span keeps everything else as it was written, and the JSON valid.
        const QString out = JsonStrings::replaced(json, (*tokens)[2], 1, 1, QStringLiteral("[redacted: \"x\"]"));
        QVERIFY(out.startsWith(json.left((*tokens)[2].at[1])));
        QVERIFY(out.endsWith(json.mid((*tokens)[2].at[3]))); // half a surrogate pair takes the pair
        QVERIFY(!QJsonDocument::fromJson(out.toUtf8()).isNull());
        QCOMPARE(JsonStrings::valueAt(out, (*tokens)[2].path)->value, QString::fromUtf8("é[redacted: \"x\"]\n"));
        QVERIFY(!JsonStrings::values(QStringLiteral("{\"a\":")));
        QVERIFY(!JsonStrings::values(QStringLiteral("{\"a\":\"\x01\"}")));
        QVERIFY(!JsonStrings::values(QString(100000, QLatin1Char('[')))); // too deep: refused, not a crash
    }

    // Every string of every payload of the RoomKit fixtures, cut at random spans: valid JSON after, every other
    // value unchanged, and the one cut holding the placeholder where the span was.
    void replacingKeepsEverythingElse()
    {
        QTemporaryDir dir;
        auto ws = importFixture(dir, QStringLiteral("support.sqlite"));
        QRandomGenerator random(20261201);
        QSqlQuery q = ws->exec(QStringLiteral("SELECT unpack(payload) FROM events WHERE typeof(unpack(payload)) = 'text'"));
        int checked = 0;
        while (q.next()) {
            const QString json = q.value(0).toString();
            const auto tokens = JsonStrings::values(json);
            QVERIFY2(tokens, qPrintable(json.left(200)));
            for (qsizetype k = 0; k < tokens->size(); ++k) {
                const JsonStrings::Token& t = tokens->at(k);
                if (t.value.isEmpty())
                    continue;
                qsizetype start = random.bounded(qint64(t.value.size()));
                qsizetype length = 1 + random.bounded(qint64(t.value.size() - start));
                const QString out = JsonStrings::replaced(json, t, start, length, QStringLiteral("[redacted: r]"));
                QJsonParseError error;
                QJsonDocument::fromJson(out.toUtf8(), &error);
                QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(out.left(300)));
                const auto after = JsonStrings::values(out);
                QVERIFY(after && after->size() == tokens->size());
                for (qsizetype m = 0; m < after->size(); ++m) {
                    QCOMPARE(after->at(m).path, tokens->at(m).path);
                    if (m != k)
                        QCOMPARE(after->at(m).value, tokens->at(m).value);
                }
                // A span that cuts an emoji in half takes all of it.
                if (start > 0 && t.value[start].isLowSurrogate()) {
                    --start;
                    ++length;
                }
                if (start + length < t.value.size() && t.value[start + length].isLowSurrogate())
                    ++length;
                QCOMPARE(after->at(k).value, QString(t.value).replace(start, length, QStringLiteral("[redacted: r]")));
                ++checked;
            }
        }
        QVERIFY(checked > 1000);
    }

    void aRedactionShowsEverywhereAndUndoesExactly()
    {
        QTemporaryDir dir;
        auto ws = importFixture(dir, QStringLiteral("support.sqlite"));
        const qint64 room = ws->findRooms(QStringLiteral("sup-duplicate-charge")).first();
        AnnotationStore store(*ws);
        const QString message = payloadAt(*ws, room, 4);
        const QString call = payloadAt(*ws, room, 6);

        const EditSteps steps = store.redact(room, 4, QStringLiteral("$.content.body"), 6, 13,
            QStringLiteral("customer's words"), QStringLiteral("ana"));
        const QString redacted = payloadAt(*ws, room, 4);
        QCOMPARE(JsonStrings::valueAt(redacted, QStringLiteral("$.content.body"))->value,
            QStringLiteral("I was [redacted: customer's words] for order A-10533. $89.00 two times on my card"));
        QVERIFY(!QJsonDocument::fromJson(redacted.toUtf8()).isNull());
        QVERIFY(!redacted.contains(QLatin1String("charged twice")));
        QVERIFY(!ws->event(room, 4)->text.contains(QLatin1String("charged twice")));
        QVERIFY(ws->event(room, 4)->text.contains(QLatin1String("[redacted: customer's words]")));
        QVERIFY(ws->event(room, 4)->flags & EventFlags::Redacted);
        EventFilter isRedacted;
        isRedacted.states = { QStringLiteral("redacted") };
        PageRequest all;
        all.limit = 1000;
        QCOMPARE(indices(ws->listEvents(room, isRedacted, all)), (QVector<qint64> { 4 }));
        // Search no longer finds the event by the words removed, nor by the placeholder's (its reason's words are not
        // what was said: is:redacted finds it); the words around the cut still find it.
        QVERIFY(ws->search(room, QStringLiteral("charged"), 100, true).isEmpty());
        QVERIFY(ws->search(room, QStringLiteral("redacted"), 100, true).isEmpty());
        QVERIFY(ws->search(room, QStringLiteral("customer's"), 100, true).isEmpty());
        QCOMPARE(indices(ws->search(room, QStringLiteral("A-10533"), 100, true)).contains(4), true);

        // A tool call's argument: the card's arguments, and every copy of it in the call's rows (its end row repeats
        // the arguments, its result may hold the same value), each a redaction of its own in the ledger.
        const ToolCallRecord before = *ws->toolCallAt(room, 6);
        const EditSteps callSteps = store.redact(room, 6, QStringLiteral("$.content.arguments.order_id"), 0, 7,
            QStringLiteral("order number"), QStringLiteral("ana"));
        const ToolCallRecord lookup = *ws->toolCallAt(room, 6);
        QVERIFY2(!lookup.arguments.contains(QLatin1String("A-10533")), qPrintable(lookup.arguments));
        QVERIFY(lookup.arguments.contains(QLatin1String("[redacted: order number]")));
        QVERIFY(!lookup.result.contains(QLatin1String("A-10533")));
        QVERIFY(before.endIndex && *before.endIndex != 6);
        for (const std::optional<qint64>& at : { before.startIndex, before.endIndex, before.resultIndex }) {
            if (at)
                QVERIFY2(!payloadAt(*ws, room, *at).contains(QLatin1String("A-10533")), qPrintable(payloadAt(*ws, room, *at)));
        }

        // The ledger and the journal: where, why, who, the hash, never the text.
        const Redactions ledger = RedactionStore(*ws).ledger(room);
        QVERIFY(ledger.size() >= 3); // the message's words, the call's argument, its copy in the end row
        QCOMPARE(callSteps.size(), 2 * (ledger.size() - 1)); // each with its journal entry
        QVERIFY(std::any_of(ledger.cbegin(), ledger.cend(), [&](const Redaction& r) { return r.index == *before.endIndex; }));
        QCOMPARE(ledger[0].path, QStringLiteral("$.content.body"));
        QCOMPARE(ledger[0].start, 6);
        QCOMPARE(ledger[0].length, 13);
        // Keyed by the workspace's secret: a plain SHA-256 of a short text (a phone number) would let anyone with
        // the ledger find it by hashing every candidate.
        const QByteArray key = ws->secret(false);
        QCOMPARE(key.size(), 32);
        QCOMPARE(ledger[0].digest,
            QString::fromLatin1(QMessageAuthenticationCode::hash("charged twice", key, QCryptographicHash::Sha256).toHex()));
        const QString plain = QString::fromLatin1(QCryptographicHash::hash("charged twice", QCryptographicHash::Sha256).toHex());
        const JournalEntries journal = Journal(*ws).entries(room);
        QCOMPARE(journal[0].action, QStringLiteral("redacted"));
        QVERIFY(journal[0].before.contains(ledger[0].digest));
        QVERIFY(!journal[0].before.contains(plain));
        QVERIFY(!journal[0].before.contains(QLatin1String("charged")));

        // Undone newest first, byte for byte; redone the same.
        const QString end = payloadAt(*ws, room, *before.endIndex);
        store.apply(callSteps, false);
        QCOMPARE(payloadAt(*ws, room, 6), call);
        QVERIFY(payloadAt(*ws, room, *before.endIndex).contains(QLatin1String("A-10533")));
        QVERIFY(ws->toolCallAt(room, 6)->arguments.contains(QLatin1String("A-10533")));
        QCOMPARE(ws->toolCallAt(room, 6)->result, before.result);
        store.apply(callSteps, true);
        QCOMPARE(payloadAt(*ws, room, *before.endIndex), end);
        store.apply(callSteps, false);
        store.apply(steps, false);
        QCOMPARE(payloadAt(*ws, room, 4), message);
        QCOMPARE(ws->search(room, QStringLiteral("charged"), 100, true).size(), 1);
        QVERIFY(!(ws->event(room, 4)->flags & EventFlags::Redacted));
        store.apply(steps, true);
        QCOMPARE(payloadAt(*ws, room, 4), redacted);
        // Revert drops it.
        store.discard();
        QCOMPARE(payloadAt(*ws, room, 4), message);
        QCOMPARE(RedactionStore(*ws).ledger().size(), 0);

        // Mistakes change nothing.
        QVERIFY_THROWS_EXCEPTION(StoreError, store.redact(room, 4, QStringLiteral("$.content.nothing"), 0, 1, QStringLiteral("r"), QStringLiteral("a")));
        QVERIFY_THROWS_EXCEPTION(StoreError, store.redact(room, 4, QStringLiteral("$.content.body"), 60, 50, QStringLiteral("r"), QStringLiteral("a")));
        QVERIFY_THROWS_EXCEPTION(StoreError, store.redact(room, 4, QStringLiteral("$.content.body"), 0, 3, QStringLiteral(" "), QStringLiteral("a")));
        QCOMPARE(payloadAt(*ws, room, 4), message);
    }

    // Gone means gone: after the save the text is in neither the workspace file nor its log, and the saved
    // redaction cannot be undone.
    // The built-in patterns on a corpus of what they must find and what they must leave.
    void builtinPatterns_data()
    {
        QTest::addColumn<QString>("pattern");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("found"); // the match, or empty: none
        auto row = [](const char* name, const char* pattern, const char* text, const char* found) {
            QTest::newRow(name) << QString::fromLatin1(pattern) << QString::fromUtf8(text) << QString::fromUtf8(found);
        };
        row("email", "email", "write to ana.lima+billing@example.co.uk today", "ana.lima+billing@example.co.uk");
        row("email in json", "email", "{\"to\":\"bo@x.io\"}", "bo@x.io");
        row("not an email: no domain", "email", "ana@localhost", "");
        row("not an email: a handle", "email", "ping @ana please", "");
        row("phone e164", "phone", "call +15557650142 now", "+15557650142");
        row("phone spaced", "phone", "my number is +44 20 7946 0958.", "+44 20 7946 0958");
        row("phone national", "phone", "ring (555) 765-0142", "(555) 765-0142");
        row("not a phone: order", "phone", "order A-10533 and A-10490", "");
        row("not a phone: a date and time", "phone", "at 2026-03-02 13:06:38 UTC", "");
        row("not a phone: an amount", "phone", "$89.00 twice", "");
        row("not a phone: a hex id", "phone", "id 62eec6fae93c45ebb6cf2b7cce245b0e", "");
        row("card visa", "card", "card 4111 1111 1111 1111 exp", "4111 1111 1111 1111");
        row("card dashes", "card", "5500-0000-0000-0004", "5500-0000-0000-0004");
        row("card amex", "card", "378282246310005", "378282246310005");
        row("not a card: Luhn fails", "card", "4111 1111 1111 1112", "");
        row("not a card: too short", "card", "4111 1111 11", "");
        row("not a card: a timestamp in microseconds", "card", "1772456798817395", "");
        row("not a card: digits inside an id", "card", "id 1fdab472270940658808ba3c", "");
        row("not a phone: digits inside an id", "phone", "toolu_015557650142abc", "");
        row("bearer", "secret", "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc", "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc");
        row("openai key", "secret", "key sk-proj-AbCdEfGhIjKlMnOpQrStUv123", "sk-proj-AbCdEfGhIjKlMnOpQrStUv123");
        row("aws", "secret", "AKIAIOSFODNN7EXAMPLE in the log", "AKIAIOSFODNN7EXAMPLE");
        row("github", "secret", "ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789", "ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789");
        row("password", "secret", "password=hunter2hunter2", "password=hunter2hunter2");
        row("not a secret: the word token", "secret", "the tokenizer splits tokens", "");
        row("not a secret: a short bearer", "secret", "Bearer of bad news", "");
    }

    void builtinPatterns()
    {
        QFETCH(QString, pattern);
        QFETCH(QString, text);
        QFETCH(QString, found);
        QString error;
        const auto patterns = RedactionPatterns::builtin({ pattern }, &error);
        QVERIFY2(!patterns.isEmpty(), qPrintable(error));
        const auto matches = RedactionPatterns::find(text, patterns);
        if (found.isEmpty()) {
            QVERIFY2(matches.isEmpty(), qPrintable(matches.isEmpty() ? QString() : text.mid(matches[0].start, matches[0].length)));
        } else {
            QCOMPARE(matches.size(), 1);
            QCOMPARE(text.mid(matches[0].start, matches[0].length), found);
            QCOMPARE(matches[0].pattern, pattern);
        }
    }

    void patternMistakes()
    {
        QString error;
        QVERIFY(RedactionPatterns::builtin({ QStringLiteral("iban") }, &error).isEmpty());
        QVERIFY(error.contains(QLatin1String("email, phone, card, secret")));
        QVERIFY(RedactionPatterns::custom(QStringLiteral("a(b"), &error).isEmpty());
        QVERIFY(error.contains(QLatin1String("column")));
        QVERIFY(RedactionPatterns::custom(QStringLiteral("x*"), &error).isEmpty());
        QVERIFY(error.contains(QLatin1String("empty")));
    }

    // Bulk: every phone number of a room found (the preview), then redacted in one change, undone in one.
    void bulkRedaction()
    {
        QTemporaryDir dir;
        auto ws = importFixture(dir, QStringLiteral("support.sqlite"));
        const qint64 room = ws->findRooms(QStringLiteral("sup-duplicate-charge")).first();
        RedactionStore redactions(*ws);
        QString error;
        const RedactionMatches found = redactions.find(room, RedactionPatterns::builtin({ QStringLiteral("phone") }, &error));
        QVERIFY(!found.isEmpty());
        for (const RedactionMatch& m : found) {
            QCOMPARE(m.text, QStringLiteral("+15557650142"));
            QCOMPARE(m.pattern, QStringLiteral("phone"));
        }
        QSqlQuery before = ws->exec(QStringLiteral("SELECT count(*) FROM events WHERE room_id = ? AND unpack(payload) LIKE '%+15557650142%'"), { room });
        before.next();
        QVERIFY(before.value(0).toInt() > 0);
        before.finish();
        AnnotationStore store(*ws);
        const EditSteps steps = store.redactMatches(found, QStringLiteral("phone number"), QStringLiteral("ana"));
        QCOMPARE(steps.size(), 2 * found.size());
        QSqlQuery after = ws->exec(QStringLiteral("SELECT count(*) FROM events WHERE room_id = ? AND (unpack(payload) LIKE '%+15557650142%' "
                                                  "OR unpack(text) LIKE '%+15557650142%' OR participant_id = '+15557650142')"), { room });
        after.next();
        QCOMPARE(after.value(0).toInt(), 0);
        after.finish();
        for (const QString& payload : { payloadAt(*ws, room, 4), payloadAt(*ws, room, 0) })
            QVERIFY(!QJsonDocument::fromJson(payload.toUtf8()).isNull());
        QVERIFY(redactions.find(room, RedactionPatterns::builtin({ QStringLiteral("phone") }, &error)).isEmpty());
        store.apply(steps, false);
        QCOMPARE(redactions.find(room, RedactionPatterns::builtin({ QStringLiteral("phone") }, &error)).size(), found.size());
        store.apply(steps, true);
        store.save();

        // A sync writes the room as the source describes it again (its participants, its bindings): the number
        // is redacted there again, and nowhere in the file.
        Importer::import(*ws, dataFile(QStringLiteral("roomkit/support.sqlite")));
        QSqlQuery rooms = ws->exec(QStringLiteral("SELECT count(*) FROM rooms WHERE id = ? AND (native_json LIKE '%15557650142%' "
                                                  "OR details_json LIKE '%15557650142%' OR participants LIKE '%15557650142%')"), { room });
        rooms.next();
        QCOMPARE(rooms.value(0).toInt(), 0);
        rooms.finish();
        // Still JSON: the room's details read as they did.
        QVERIFY(!ws->roomDetails(room).value(QLatin1String("room")).toObject().isEmpty());
        QVERIFY(ws->roomDetails(room).size() > 1);
        QSqlQuery other = ws->exec(QStringLiteral("SELECT count(*) FROM events WHERE unpack(payload) LIKE '%+15557650142%'"));
        other.next();
        QCOMPARE(other.value(0).toInt(), 0); // only this room had the number
        other.finish();
        QVERIFY(!fileHolds(ws->path(), "+15557650142"));
    }

    // Gone means gone while an import runs too: the rows a rotated log gives again are redacted in the transaction
    // that writes them, so an import killed at any moment (SIGKILL: a power cut, the OOM killer) leaves no row,
    // search entry or committed page holding the text, and the next import ends as a clean one does.
    void anImportKilledNeverLeavesTheRedactedText()
    {
        QTemporaryDir dir;
        const QString log = dir.filePath(QStringLiteral("EVENT.md"));
        QVERIFY(QFile::copy(dataFile(QStringLiteral("craftbot/EVENT.md")), log));
        QFile::setPermissions(log, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
        const QString path = dir.filePath(QStringLiteral("craftbot.sightline"));
        const QString secret = QStringLiteral("flights to Oslo");
        {
            Workspace ws(path);
            Importer::import(ws, log);
            const qint64 room = ws.rooms().first().id;
            QString error;
            const RedactionMatches found = RedactionStore(ws).find(room, RedactionPatterns::custom(secret, &error));
            QCOMPARE(found.size(), 4);
            AnnotationStore store(ws);
            store.redactMatches(found, QStringLiteral("travel plans"), QStringLiteral("ana"));
            store.save();
        }
        // Rotated: its first ten records gone, so every row is read again, each at an index ten lower.
        QVERIFY(rotateLog(log, 10));
        auto holds = [&](Workspace& ws) {
            QSqlQuery q = ws.exec(QStringLiteral("SELECT (SELECT count(*) FROM events WHERE instr(unpack(payload), ?) OR instr(unpack(text), ?)) + "
                                                 "(SELECT count(*) FROM search_text WHERE instr(unpack(body), ?)) + (SELECT count(*) "
                                                 "FROM rooms WHERE instr(coalesce(title, ''), ?)) + (SELECT count(*) FROM "
                                                 "tool_calls WHERE instr(coalesce(unpack(arguments), ''), ?) OR instr(coalesce(unpack(result), ''), ?))"),
                { secret, secret, secret, secret, secret, secret });
            return q.next() ? q.value(0).toInt() : -1;
        };
        int killedMidway = 0;
        for (int round = 0; round < 12; ++round) {
            const bool wasKilled = importKilledMidway(path, log, 60);
            killedMidway += wasKilled ? 1 : 0;
            Workspace ws(path);
            if (holds(ws) != 0) {
                QSqlQuery c = ws.exec(QStringLiteral("SELECT start_seq, end_seq, result_seq, pairing, unpack(arguments), unpack(result) FROM tool_calls WHERE instr(coalesce(unpack(arguments), ''), ?) OR instr(coalesce(unpack(result), ''), ?)"), { secret, secret });
                QString what;
                while (c.next())
                    what += QStringLiteral("[%1 %2 %3 %4 %5 | %6] ").arg(c.value(0).toString(), c.value(1).toString(), c.value(2).toString(), c.value(3).toString(), c.value(4).toString().left(300), c.value(5).toString().left(300));
                QSqlQuery r = ws.exec(QStringLiteral("SELECT seq, path, start, length FROM redactions"));
                while (r.next())
                    what += QStringLiteral("{%1 %2 %3 %4} ").arg(r.value(0).toString(), r.value(1).toString(), r.value(2).toString(), r.value(3).toString());
                QFAIL(qPrintable(QStringLiteral("round %1 (%2): %3").arg(round).arg(wasKilled ? QStringLiteral("killed") : QStringLiteral("done")).arg(what)));
            }
            const QByteArray bytes = fileBytes(path);
            if (bytes.contains(secret.toUtf8())) {
                QStringList where;
                for (qsizetype at = bytes.indexOf(secret.toUtf8()); at >= 0; at = bytes.indexOf(secret.toUtf8(), at + 1)) {
                    QSqlQuery page = ws.exec(QStringLiteral("SELECT name FROM dbstat WHERE pageno = ?"), { at / 16384 + 1 });
                    where << QString::number(at / 16384 + 1) + QLatin1Char(':') + (page.next() ? page.value(0).toString() : QStringLiteral("free"));
                }
                QSqlQuery fl = ws.exec(QStringLiteral("PRAGMA freelist_count"));
                fl.next();
                QFAIL(qPrintable(QStringLiteral("round %1 (%2): %3; free pages %4").arg(round).arg(wasKilled ? QStringLiteral("killed") : QStringLiteral("done")).arg(where.join(QLatin1Char(' '))).arg(fl.value(0).toInt())));
            }
            QVERIFY2(!fileHolds(path, secret.toUtf8()), qPrintable(QStringLiteral("round %1: packed in the file").arg(round)));
        }
        QVERIFY(killedMidway > 0);
        // Whole again: the four redactions where their events are now, and the file written anew by this import
        // if a killed one redacted rows again and could not (the mark it left is gone).
        Workspace ws(path);
        Importer::import(ws, log);
        QCOMPARE(holds(ws), 0);
        QSqlQuery pending = ws.exec(QStringLiteral("SELECT count(*) FROM pending"));
        QVERIFY(pending.next());
        QCOMPARE(pending.value(0).toInt(), 0);
        pending.finish();
        const qint64 room = ws.rooms().first().id;
        QVERIFY(payloadAt(ws, room, 0).contains(QLatin1String("Find me [redacted: travel plans] for 12-15 May")));
        for (const EventRecord& hit : ws.search(room, QStringLiteral("Oslo"), 100, true))
            QVERIFY2(!hit.text.contains(secret), qPrintable(hit.text));
    }

    // A redacted text never comes back from the source: a sync changes nothing, and a rotated log read again is
    // redacted again (at the event's new index) before the import says the room is whole. A CraftBot record is
    // not JSON: its text is cut as it is.
    void redactionsSurviveASyncAndARotatedLog()
    {
        QTemporaryDir dir;
        const QString log = dir.filePath(QStringLiteral("EVENT.md"));
        QVERIFY(QFile::copy(dataFile(QStringLiteral("craftbot/EVENT.md")), log));
        QFile::setPermissions(log, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
        const QString path = dir.filePath(QStringLiteral("craftbot.sightline"));
        const QByteArray secret = "flights to Oslo";
        {
            Workspace ws(path);
            Importer::import(ws, log);
            const qint64 room = ws.rooms().first().id;
            const QString text = payloadAt(ws, room, 10);
            const qsizetype at = text.indexOf(QLatin1String(secret));
            QVERIFY(at > 0);
            AnnotationStore store(ws);
            // One record's span by hand, and the three records that quote it by pattern.
            store.redact(room, 10, QString(), at, secret.size(), QStringLiteral("travel plans"), QStringLiteral("ana"));
            QString error;
            const RedactionMatches quoted
                = RedactionStore(ws).find(room, RedactionPatterns::custom(QStringLiteral("flights to Oslo"), &error));
            QCOMPARE(quoted.size(), 3);
            store.redactMatches(quoted, QStringLiteral("travel plans"), QStringLiteral("ana"));
            store.save();
            QVERIFY(payloadAt(ws, room, 10).contains(QLatin1String("Find me [redacted: travel plans] for 12-15 May")));
            Importer::import(ws, log); // a sync: nothing new
            QVERIFY(!payloadAt(ws, room, 10).contains(QLatin1String(secret)));
            // Read again and compared, a redacted row keeps its redacted text and search text: the source's were
            // written over them (the payload stayed redacted, so nothing redacted them again).
            QVERIFY(!ws.event(room, 10)->text.contains(QLatin1String(secret)));
            QSqlQuery kept = ws.exec(QStringLiteral("SELECT (SELECT count(*) FROM events WHERE instr(unpack(text), ?)) + (SELECT "
                                                    "count(*) FROM search_text WHERE instr(unpack(body), ?))"),
                { QString::fromLatin1(secret), QString::fromLatin1(secret) });
            QVERIFY(kept.next());
            QCOMPARE(kept.value(0).toInt(), 0);
            kept.finish();

            // Rotated: the first ten records are gone, every index moved down by ten.
            QVERIFY(rotateLog(log, 10));
            Importer::import(ws, log);
            QVERIFY(payloadAt(ws, room, 0).contains(QLatin1String("Find me [redacted: travel plans] for 12-15 May")));
            QVERIFY(!ws.event(room, 0)->text.contains(QLatin1String(secret)));
            for (const EventRecord& hit : ws.search(room, QStringLiteral("Oslo"), 100, true))
                QVERIFY2(!hit.text.contains(QLatin1String(secret)), qPrintable(hit.text));
            QVector<qint64> indexes;
            for (const Redaction& r : RedactionStore(ws).ledger(room))
                indexes << r.index;
            std::sort(indexes.begin(), indexes.end());
            QCOMPARE(indexes, (QVector<qint64> { 0, 1, 3, 5 }));
            QSqlQuery q = ws.exec(QStringLiteral("SELECT count(*) FROM events WHERE unpack(payload) LIKE '%flights to Oslo%' OR unpack(text) LIKE '%flights to Oslo%'"));
            q.next();
            QCOMPARE(q.value(0).toInt(), 0);
        }
        QVERIFY(!fileHolds(path, secret));
        QVERIFY(!fileHolds(path + QStringLiteral("-wal"), secret));
    }

    // Save Workspace As: a copy a colleague opens with every note and redaction, and without the text.
    void aCopyKeepsEditsAndNotTheText()
    {
        QTemporaryDir dir;
        auto ws = importFixture(dir, QStringLiteral("support.sqlite"));
        const qint64 room = ws->findRooms(QStringLiteral("sup-duplicate-charge")).first();
        AnnotationStore store(*ws);
        store.addNote(room, 4, QStringLiteral("sensitive"), QStringLiteral("ana"));
        store.redact(room, 4, QStringLiteral("$.content.body"), 6, 13, QStringLiteral("customer's words"), QStringLiteral("ana"));
        store.save();
        const QString copy = dir.filePath(QStringLiteral("for-a-colleague.sightline"));
        QFile old(copy);
        QVERIFY(old.open(QIODevice::WriteOnly));
        old.write("an older file");
        old.close();
        ws->saveCopy(copy);
        const QFileDevice::Permissions mode = QFile::permissions(copy);
        QVERIFY(mode & QFileDevice::ReadOwner);
        QVERIFY(!(mode & (QFileDevice::ReadGroup | QFileDevice::ReadOther | QFileDevice::WriteGroup | QFileDevice::WriteOther)));
        QVERIFY(!QFile::exists(copy + QStringLiteral(".partial")));
        QVERIFY(!fileHolds(copy, "charged twice"));
        // Without the secret: its digests cannot be checked against guesses, and the key is nowhere in the file.
        QVERIFY(!fileBytes(copy).contains(ws->secret(false)));
        Workspace theirs(copy);
        QVERIFY(theirs.secret(false).isEmpty());
        QCOMPARE(AnnotationStore(theirs).notes().size(), 1);
        QCOMPARE(RedactionStore(theirs).ledger().size(), 1);
        QVERIFY(theirs.event(room, 4)->text.contains(QLatin1String("[redacted: customer's words]")));
        // Annotations made under another secret are left where they are by an import into the copy.
        Importer::import(theirs, dataFile(QStringLiteral("roomkit/support.sqlite")));
        QCOMPARE(AnnotationStore(theirs).notes().first().index, std::optional<qint64>(4));
        QVERIFY(!AnnotationStore(theirs).notes().first().detached);
        QVERIFY_THROWS_EXCEPTION(StoreError, ws->saveCopy(ws->path()));
        QVERIFY_THROWS_EXCEPTION(StoreError, ws->saveCopy(dir.filePath(QStringLiteral("no/such/folder/x.sightline"))));
    }

    // An AG-UI message is assembled from deltas that cut words anywhere: a span of its text is redacted in every
    // delta that holds a part of it, and in the text the timeline shows, cut at that span alone.
    void anAssembledMessageIsRedactedInItsParts()
    {
        QTemporaryDir dir;
        Workspace ws(dir.filePath(QStringLiteral("agui.sightline")));
        Importer::import(ws, dataFile(QStringLiteral("agui")));
        const AssembledMessage m = assembledMessage(ws);
        QVERIFY(m.room != 0);
        const qint64 room = m.room, index = m.index;
        const QString text = m.text, message = m.id;
        const qsizetype at = text.indexOf(QLatin1String("test file"));
        AnnotationStore store(ws);
        const EditSteps steps = store.redactMessage(room, index, at, 9, QStringLiteral("file name"), QStringLiteral("ana"));
        QVERIFY(steps.size() >= 2 * 3); // three deltas hold parts of it, and the message's text
        QCOMPARE(ws.event(room, index)->text, QString(text).replace(at, 9, QStringLiteral("[redacted: file name]")));
        QString joined;
        QSqlQuery parts = ws.exec(QStringLiteral("SELECT unpack(payload) FROM events WHERE room_id = ? AND message_id = ? AND seq != ? ORDER BY seq"),
            { room, message, index });
        while (parts.next()) {
            const auto delta = JsonStrings::valueAt(parts.value(0).toString(), QStringLiteral("$.delta"));
            if (!delta)
                continue; // its end
            joined += delta->value;
            QVERIFY(!QJsonDocument::fromJson(parts.value(0).toString().toUtf8()).isNull());
        }
        parts.finish();
        QVERIFY2(!joined.contains(QLatin1String("test file")) && !joined.contains(QLatin1String("st fi")), qPrintable(joined.left(120)));
        QVERIFY(joined.startsWith(QLatin1String("Let me read the [redacted: file name]")));
        // A sync writes the message's text again from its source: redacted again at once; undo gives every part
        // and the text back; saved, a sync keeps it redacted.
        Importer::import(ws, dataFile(QStringLiteral("agui")));
        QVERIFY(ws.event(room, index)->text.contains(QLatin1String("[redacted: file name]")));
        store.apply(steps, false);
        QCOMPARE(ws.event(room, index)->text, text);
        store.apply(steps, true);
        store.save();
        Importer::import(ws, dataFile(QStringLiteral("agui")));
        QCOMPARE(ws.event(room, index)->text, QString(text).replace(at, 9, QStringLiteral("[redacted: file name]")));
        QSqlQuery leak = ws.exec(QStringLiteral("SELECT count(*) FROM events e JOIN search_text s ON s.event_id = e.id WHERE "
                                                "e.room_id = ? AND (unpack(e.text) LIKE '%test file%' OR unpack(s.body) LIKE '%test file%')"), { room });
        leak.next();
        QCOMPARE(leak.value(0).toInt(), 0);
        leak.finish();
    }

    void assembledMessageMistakes()
    {
        QTemporaryDir dir;
        Workspace ws(dir.filePath(QStringLiteral("agui.sightline")));
        Importer::import(ws, dataFile(QStringLiteral("agui")));
        const AssembledMessage m = assembledMessage(ws);
        QVERIFY(m.room != 0);
        const qint64 room = m.room, index = m.index;
        const QString text = m.text;
        AnnotationStore store(ws);
        // Not a message, and a span out of it: said, nothing changed.
        QVERIFY_THROWS_EXCEPTION(StoreError, store.redactMessage(room, 0, 0, 1, QStringLiteral("r"), QStringLiteral("a")));
        QVERIFY_THROWS_EXCEPTION(StoreError, store.redactMessage(room, index, 0, 100000, QStringLiteral("r"), QStringLiteral("a")));
        QCOMPARE(ws.event(room, index)->text, text);
    }

    // A delta redacted alone in its raw row (R in the window), and the same thread's log rewritten so that it is
    // read again from its start: the message's text and the call's arguments, which are assembled from the deltas
    // (the start rows' text, the call, the search text and index), hold the text neither before nor after.
    void aRedactedDeltaStaysRedactedWhereverItIsAssembled()
    {
        QTemporaryDir dir;
        const QString thread = dir.filePath(QStringLiteral("th_pii.jsonl"));
        QVERIFY(QFile::copy(dataFile(QStringLiteral("agui-pii/th_pii.jsonl")), thread));
        QFile::setPermissions(thread, QFile::ReadOwner | QFile::WriteOwner);
        const QString path = dir.filePath(QStringLiteral("w.sightline"));
        Workspace ws(path);
        Importer::import(ws, thread);
        const qint64 room = ws.findRooms(QStringLiteral("th_pii")).first();
        AnnotationStore store(ws);
        QCOMPARE(JsonStrings::valueAt(payloadAt(ws, room, 2), QStringLiteral("$.delta"))->value.mid(9, 21),
            QStringLiteral("ana.perez@example.com"));
        store.redact(room, 2, QStringLiteral("$.delta"), 9, 21, QStringLiteral("pii"), QStringLiteral("ana"));
        store.redact(room, 8, QStringLiteral("$.delta"), 0, 19, QStringLiteral("pii"), QStringLiteral("ana"));
        store.save();
        auto nothingLeft = [&](const char* when) {
            QVERIFY2(!ws.event(room, 1)->text.contains(QLatin1String("ana.perez")), when);
            QVERIFY2(ws.event(room, 1)->text.startsWith(QLatin1String("Write to [redacted: pii] today")), when);
            QVERIFY2(!ws.event(room, 6)->text.contains(QLatin1String("bo.lind")), qPrintable(ws.event(room, 6)->text));
            QCOMPARE(ws.toolCalls(room).first().arguments, QStringLiteral("{\"to\":\"[redacted: pii]\",\"n\":1}"));
            QSqlQuery q = ws.exec(QStringLiteral("SELECT count(*) FROM search_text s JOIN events e ON e.id = s.event_id WHERE "
                                                 "e.room_id = ? AND (unpack(s.body) LIKE '%perez%' OR unpack(s.arguments) LIKE "
                                                 "'%lind%')"),
                { room });
            QVERIFY(q.next());
            QCOMPARE(q.value(0).toInt(), 0);
            q.finish();
            QSqlQuery fts = ws.exec(QStringLiteral("SELECT count(*) FROM events_fts WHERE events_fts MATCH 'perez OR lind'"));
            QVERIFY(fts.next());
            QCOMPARE(fts.value(0).toInt(), 0);
            fts.finish();
            for (const QString& file : QStringList { path, path + QStringLiteral("-wal"), path + QStringLiteral("-shm") }) {
                QVERIFY2(!fileHolds(file, "ana.perez") && !fileHolds(file, "bo.lind"), qPrintable(file + QLatin1Char(' ') + QLatin1String(when)));
            }
        };
        nothingLeft("after the redaction");
        // The log rewritten with one byte of another line changed: read again from its start.
        QByteArray log = fileBytes(thread);
        log.replace("1784016877000", "1784016877001");
        {
            QFile f(thread);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(log);
        }
        Importer::import(ws, thread);
        nothingLeft("after the log was read again");
    }

    // A delta of a reasoning message redacted, inside a reasoning phase whose START shows in that message: read
    // again, the message's own row shows the redacted text, and the phase's START keeps none of it.
    void aRedactedReasoningDeltaIsMetInItsMessageNotItsPhase()
    {
        QTemporaryDir dir;
        const QString thread = dir.filePath(QStringLiteral("th_think.jsonl"));
        const QByteArray log = "{\"type\":\"RUN_STARTED\",\"runId\":\"r1\",\"threadId\":\"th_think\",\"timestamp\":1784016877000}\n"
                               "{\"type\":\"REASONING_START\",\"messageId\":\"phase_1\",\"timestamp\":1784016877100}\n"
                               "{\"type\":\"REASONING_MESSAGE_START\",\"messageId\":\"rs_1\",\"role\":\"reasoning\",\"timestamp\":1784016877200}\n"
                               "{\"type\":\"REASONING_MESSAGE_CONTENT\",\"messageId\":\"rs_1\",\"delta\":\"Mail ana.perez@example.com\",\"timestamp\":1784016877300}\n"
                               "{\"type\":\"REASONING_MESSAGE_CONTENT\",\"messageId\":\"rs_1\",\"delta\":\" about the refund.\",\"timestamp\":1784016877400}\n"
                               "{\"type\":\"REASONING_MESSAGE_END\",\"messageId\":\"rs_1\",\"timestamp\":1784016877500}\n"
                               "{\"type\":\"REASONING_END\",\"messageId\":\"phase_1\",\"timestamp\":1784016877600}\n"
                               "{\"type\":\"RUN_FINISHED\",\"runId\":\"r1\",\"threadId\":\"th_think\",\"timestamp\":1784016878000}\n";
        auto write = [&](const QByteArray& bytes) {
            QFile f(thread);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(bytes);
        };
        write(log);
        const QString path = dir.filePath(QStringLiteral("w.sightline"));
        Workspace ws(path);
        Importer::import(ws, thread);
        const qint64 room = ws.findRooms(QStringLiteral("th_think")).first();
        QVERIFY(ws.event(room, 1)->flags & EventFlags::Folded); // the phase's START, in the message at 2
        QCOMPARE(ws.event(room, 2)->text, QStringLiteral("Mail ana.perez@example.com about the refund."));
        AnnotationStore store(ws);
        store.redact(room, 3, QStringLiteral("$.delta"), 5, 21, QStringLiteral("pii"), QStringLiteral("ana"));
        store.save();
        QCOMPARE(ws.event(room, 2)->text, QStringLiteral("Mail [redacted: pii] about the refund."));
        // Read again from its start (one byte of the first line changed).
        QByteArray again = log;
        again.replace("1784016877000", "1784016877001");
        write(again);
        Importer::import(ws, thread);
        QCOMPARE(ws.event(room, 2)->text, QStringLiteral("Mail [redacted: pii] about the refund."));
        QVERIFY2(ws.event(room, 1)->text.isEmpty(), qPrintable(ws.event(room, 1)->text));
        QVERIFY(!(ws.event(room, 1)->flags & EventFlags::Redacted));
        QSqlQuery q = ws.exec(QStringLiteral("SELECT count(*) FROM events_fts WHERE events_fts MATCH 'perez'"));
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toInt(), 0);
    }

    // A bulk redaction over a store of a few thousand events (rows rewritten longer and shorter, pages laid out
    // anew): saved, no byte of the workspace, its log or its shared memory holds any of the texts, and neither
    // does the full-text index's vocabulary. (secure_delete alone left a copy in the unused middle of a live page.)
    void noByteOfABulkRedactionIsLeftInTheFiles()
    {
        QTemporaryDir dir;
        const QString source = dir.filePath(QStringLiteral("store.sqlite"));
        // Seed 5: a store whose redaction left such a copy before VACUUM was run after it (seeds 1-4 did not).
        RoomKitStoreGenerator::write(source, 3000, 3, 0.5, 5);
        const QString path = dir.filePath(QStringLiteral("w.sightline"));
        Workspace ws(path);
        Importer::import(ws, source);
        QString error;
        const auto patterns = RedactionPatterns::custom(QStringLiteral("(order|pedido|issued on) \\d+"), &error);
        QVERIFY2(!patterns.isEmpty(), qPrintable(error));
        const RedactionMatches found = RedactionStore(ws).find(0, patterns);
        QVERIFY(found.size() > 100);
        QSet<QByteArray> texts;
        for (const RedactionMatch& m : found)
            texts.insert(m.text.toUtf8());
        AnnotationStore(ws).redactMatchesAndSave(found, QStringLiteral("order number"), QStringLiteral("ana"));
        QCOMPARE(AnnotationStore(ws).unsavedChanges(), 0);
        QCOMPARE(RedactionStore(ws).find(0, patterns).size(), 0);
        for (const QString& file : QStringList { path, path + QStringLiteral("-wal"), path + QStringLiteral("-shm") }) {
            const QByteArray bytes = fileBytes(file);
            for (const QByteArray& text : std::as_const(texts))
                QVERIFY2(!bytes.contains(text), qPrintable(file + QStringLiteral(": ") + QString::fromUtf8(text)));
        }
        QSqlQuery undo = ws.exec(QStringLiteral("SELECT count(*) FROM redaction_undo"));
        QVERIFY(undo.next());
        QCOMPARE(undo.value(0).toInt(), 0);
    }

    // A message a reviewer edited to hold a card number the source never had: a pattern finds it in the text the
    // row shows, and its redaction reaches the edit (as made and as journaled) too.
    void aPatternFindsWhatAReviewerWrote()
    {
        QTemporaryDir dir;
        auto ws = importFixture(dir, QStringLiteral("support.sqlite"));
        const qint64 room = ws->findRooms(QStringLiteral("sup-duplicate-charge")).first();
        AnnotationStore store(*ws);
        store.editText(room, 4, QStringLiteral("My card 4111 1111 1111 1111 was charged twice"), QStringLiteral("ana"));
        QString error;
        const auto card = RedactionPatterns::builtin({ QStringLiteral("card") }, &error);
        const RedactionMatches found = RedactionStore(*ws).find(room, card);
        QCOMPARE(found.size(), 1);
        QCOMPARE(found.first().path, QStringLiteral("@text"));
        QCOMPARE(found.first().index, 4);
        store.redactMatchesAndSave(found, QStringLiteral("card"), QStringLiteral("ana"));
        QCOMPARE(ws->event(room, 4)->text, QStringLiteral("My card [redacted: card] was charged twice"));
        QSqlQuery left = ws->exec(QStringLiteral("SELECT (SELECT count(*) FROM edits WHERE value LIKE '%4111%' OR original LIKE '%4111%'), "
                                                 "(SELECT count(*) FROM journal WHERE before LIKE '%4111%' OR after LIKE '%4111%')"));
        QVERIFY(left.next());
        QCOMPARE(left.value(0).toInt(), 0);
        QCOMPARE(left.value(1).toInt(), 0);
        left.finish();
        QCOMPARE(RedactionStore(*ws).find(room, card).size(), 0);
    }

    // The thread's log rewritten with its lines moved (one more line at its top) and the redacted line itself
    // changed elsewhere (its timestamp): the redaction is found again by what it removed, at its new index. A line
    // changed where the redaction cut it cannot be matched: the import says so, naming the redaction.
    void aRedactionFollowsItsTextThroughARewrittenLog()
    {
        QTemporaryDir dir;
        const QString thread = dir.filePath(QStringLiteral("th_pii.jsonl"));
        QVERIFY(QFile::copy(dataFile(QStringLiteral("agui-pii/th_pii.jsonl")), thread));
        QFile::setPermissions(thread, QFile::ReadOwner | QFile::WriteOwner);
        Workspace ws(dir.filePath(QStringLiteral("w.sightline")));
        Importer::import(ws, thread);
        const qint64 room = ws.findRooms(QStringLiteral("th_pii")).first();
        AnnotationStore store(ws);
        store.redact(room, 2, QStringLiteral("$.delta"), 9, 21, QStringLiteral("pii"), QStringLiteral("ana"));
        store.save();
        auto rewrite = [&](const QByteArray& from, const QByteArray& to, bool prepend) {
            QByteArray log = fileBytes(thread);
            log.replace(from, to);
            if (prepend)
                log.prepend("{\"type\":\"CUSTOM\",\"name\":\"note\",\"value\":1,\"timestamp\":1784016876000}\n");
            QFile f(thread);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(log);
        };
        rewrite("\"messageId\":\"msg_1\",\"timestamp\":1784016878366", "\"messageId\":\"msg_1\",\"timestamp\":1784016878367", true);
        const ImportReport moved = Importer::import(ws, thread);
        QCOMPARE(ws.event(room, 3)->type, QStringLiteral("TEXT_MESSAGE_CONTENT"));
        QVERIFY2(ws.event(room, 3)->text.startsWith(QLatin1String("Write to [redacted: pii]")), qPrintable(ws.event(room, 3)->text));
        QVERIFY2(ws.event(room, 2)->text.startsWith(QLatin1String("Write to [redacted: pii]")), qPrintable(ws.event(room, 2)->text));
        QCOMPARE(RedactionStore(ws).ledger(room).first().index, 3);
        QVERIFY2(!moved.problems.join(QLatin1Char('\n')).contains(QLatin1String("not found again")), qPrintable(moved.problems.join(QLatin1Char('\n'))));
        // The words before the address changed: the span no longer holds it. Said.
        rewrite("\"delta\":\"Write to ana.perez", "\"delta\":\"Please write to ana.perez", false);
        const ImportReport lost = Importer::import(ws, thread);
        QVERIFY2(lost.problems.join(QLatin1Char('\n')).contains(QLatin1String("was not found again after the log was read again")),
            qPrintable(lost.problems.join(QLatin1Char('\n'))));
    }

    void savedTextIsGoneFromTheFiles()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("gone.sightline"));
        const QByteArray secret = "charged twice";
        {
            Workspace ws(path);
            Importer::import(ws, dataFile(QStringLiteral("roomkit/support.sqlite")));
            QVERIFY(fileHolds(path, secret) || fileHolds(path + QStringLiteral("-wal"), secret));
            const qint64 room = ws.findRooms(QStringLiteral("sup-duplicate-charge")).first();
            AnnotationStore store(ws);
            const EditSteps steps = store.redact(room, 4, QStringLiteral("$.content.body"), 6, 13,
                QStringLiteral("customer's words"), QStringLiteral("ana"));
            store.save();
            QCOMPARE(store.unsavedChanges(), 0);
            QVERIFY(!fileHolds(path, secret));
            QCOMPARE(fileBytes(path + QStringLiteral("-wal")).size(), 0);
            QVERIFY_THROWS_EXCEPTION(StoreError, store.apply(steps, false));
            QVERIFY(ws.event(room, 4)->text.contains(QLatin1String("[redacted: customer's words]")));
            QVERIFY(RedactionStore(ws).ledger().first().saved);
        }
        QVERIFY(!fileHolds(path, secret));
        QVERIFY(!fileHolds(path + QStringLiteral("-wal"), secret));
    }
};

QTEST_GUILESS_MAIN(TestRedaction)
#include "tst_redaction.moc"
