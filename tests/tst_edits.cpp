// What reviewers change of what a source said: a message's text, a call's arguments, result and outcome, and
// which end closes which start. Each shows everywhere at once (text, search, cards, counts, filters), undoes and
// redoes exactly, reverts alone, keeps the source's value for Show Original, is journalled with before and
// after, survives a sync and a rotated log, and gives up the text a later redaction removed.

#include "annotationstore.h"
#include "durationtext.h"
#include "editstore.h"
#include "eventfilter.h"
#include "filterquery.h"
#include "journal.h"
#include "jsontext.h"
#include "eventserializer.h"
#include "sources/importer.h"
#include "storeerror.h"
#include "testsupport.h"
#include "workspace.h"

#include <QFile>
#include <QSqlQuery>
#include <QTest>

using namespace TestSupport;

namespace {

qint64 roomOf(Workspace& ws, const QString& nativeId)
{
    const QVector<qint64> rooms = ws.findRooms(nativeId);
    return rooms.isEmpty() ? 0 : rooms.first();
}

qint64 value(Workspace& ws, const QString& sql, const QVariantList& binds = {})
{
    QSqlQuery q = ws.exec(sql, binds);
    return q.next() ? q.value(0).toLongLong() : -1;
}

// The room's calls as the `tools` verb lists them, one line each: what a user compares.
QStringList calls(Workspace& ws, qint64 room)
{
    QStringList out;
    for (const ToolCallRecord& c : ws.toolCalls(room))
        out << QString::fromUtf8(EventSerializer::callJson(c));
    return out;
}

qint64 matching(Workspace& ws, qint64 room, const QString& filter)
{
    const FilterQuery::Result parsed = FilterQuery::parse(filter);
    return ws.countEvents(room, &parsed.filter);
}

bool isEdited(Workspace& ws, qint64 room, qint64 index)
{
    return ws.event(room, index)->flags & EventFlags::Revised;
}

const QString ana = QStringLiteral("ana");

} // namespace

class TestEdits : public QObject
{
    Q_OBJECT

private slots:
    void aMessagesTextEditedUndoneRedoneAndReverted()
    {
        QTemporaryDir dir;
        auto ws = importFixture(dir, QStringLiteral("support.sqlite"));
        const qint64 room = roomOf(*ws, QStringLiteral("sup-duplicate-charge"));
        AnnotationStore store(*ws);
        const QString said = ws->event(room, 4)->text;
        QVERIFY(said.startsWith(QLatin1String("I was charged twice")));
        const QByteArray payload = ws->payload(ws->event(room, 4)->rowId);

        const EditSteps steps = store.editText(room, 4, QStringLiteral("I was charged twice for order A-10533 (fixed typo)"), ana);
        QCOMPARE(steps.size(), 2);
        QVERIFY(store.editText(room, 4, QStringLiteral("I was charged twice for order A-10533 (fixed typo)"), ana).isEmpty());
        QCOMPARE(ws->event(room, 4)->text, QStringLiteral("I was charged twice for order A-10533 (fixed typo)"));
        QVERIFY(isEdited(*ws, room, 4));
        QCOMPARE(ws->payload(ws->event(room, 4)->rowId), payload); // the source's record stays as it was
        // Search, the filter and the read contract's JSON see the edit.
        QCOMPARE(ws->search(room, QStringLiteral("typo"), 10, true).size(), 1);
        QCOMPARE(ws->search(room, QStringLiteral("card"), 10, true).size(), 0);
        QCOMPARE(matching(*ws, room, QStringLiteral("is:edited")), 1);
        QVERIFY(EventSerializer::eventJson(*ws->event(room, 4)).contains("\"edited\":true"));
        // Show Original: the edit keeps what the source said.
        const Edits edits = EditStore(*ws).edits(room, 4);
        QCOMPARE(edits.size(), 1);
        QCOMPARE(edits[0].original, said);
        QCOMPARE(edits[0].field, Edit::Field::Text);
        QCOMPARE(edits[0].author, ana);
        // The journal: who, what, before and after.
        const JournalEntries journal = Journal(*ws).entries(room);
        QCOMPARE(journal.last().action, QStringLiteral("text_edited"));
        QCOMPARE(journal.last().before, said);
        QCOMPARE(journal.last().after, QStringLiteral("I was charged twice for order A-10533 (fixed typo)"));

        store.apply(steps, false);
        QCOMPARE(ws->event(room, 4)->text, said);
        QVERIFY(!isEdited(*ws, room, 4));
        QCOMPARE(ws->search(room, QStringLiteral("card"), 10, true).size(), 1);
        QCOMPARE(matching(*ws, room, QStringLiteral("is:edited")), 0);
        store.apply(steps, true);
        QCOMPARE(ws->event(room, 4)->text, QStringLiteral("I was charged twice for order A-10533 (fixed typo)"));

        // A second edit, saved; then the first one reverted alone: the second still shows.
        store.editText(room, 4, QStringLiteral("second"), QStringLiteral("ben"));
        store.save();
        const Edits two = EditStore(*ws).edits(room, 4);
        QCOMPARE(two.size(), 2);
        QCOMPARE(two[1].original, said); // every edit keeps the source's text
        store.revertEdit(two[0].id, ana);
        QCOMPARE(ws->event(room, 4)->text, QStringLiteral("second"));
        store.revertEdit(two[1].id, ana);
        QCOMPARE(ws->event(room, 4)->text, said);
        QVERIFY(!isEdited(*ws, room, 4));
        QCOMPARE(Journal(*ws).entries(room).last().action, QStringLiteral("edit_reverted"));
        // Revert dropped: the saved edits are back.
        store.discard();
        QCOMPARE(ws->event(room, 4)->text, QStringLiteral("second"));
        QVERIFY(isEdited(*ws, room, 4));

        // A call is edited by its arguments and result, not its text.
        QVERIFY_THROWS_EXCEPTION(StoreError, store.editText(room, 6, QStringLiteral("x"), ana));
        QVERIFY_THROWS_EXCEPTION(StoreError, store.editText(room, 999, QStringLiteral("x"), ana));
    }

    void aCallsArgumentsResultAndOutcome()
    {
        QTemporaryDir dir;
        auto ws = importFixture(dir, QStringLiteral("support.sqlite"));
        const qint64 room = roomOf(*ws, QStringLiteral("sup-duplicate-charge"));
        AnnotationStore store(*ws);
        const QStringList before = calls(*ws, room);
        const qint64 refused = ws->room(room)->refused;
        QCOMPARE(refused, 1);

        // JSON that does not parse is refused, saying where.
        try {
            store.editCall(room, 11, Edit::Field::Arguments, QStringLiteral("{\n  \"amount\": 89,\n  \"order_id\": }"), ana);
            QFAIL("invalid JSON was taken");
        } catch (const StoreError& e) {
            QVERIFY2(e.toString().contains(QLatin1String("line 3, column")), qPrintable(e.toString()));
            QVERIFY(e.toString().contains(QLatin1String("event 11, arguments")));
        }
        QCOMPARE(calls(*ws, room), before);

        // Arguments, edited from the end row too: the card's call changes, kept compact as importers keep it.
        const EditSteps args = store.editCall(
            room, 12, Edit::Field::Arguments, QStringLiteral("{ \"amount\": 8.9, \"order_id\": \"A-10533\" }"), ana);
        QCOMPARE(ws->toolCallAt(room, 11)->arguments, QStringLiteral("{\"amount\":8.9,\"order_id\":\"A-10533\"}"));
        QCOMPARE(ws->toolCallAt(room, 11)->argumentsValid, std::optional<bool>(true));
        QVERIFY(isEdited(*ws, room, 11));
        QCOMPARE(EditStore(*ws).edits(room, 11).first().index, 11); // kept at the card
        QCOMPARE(ws->search(room, QStringLiteral("8.9"), 10, true).size(), 1);
        // The rows' own text, which lists and verbs print ("issue_refund({...})"), says it too.
        QVERIFY2(ws->event(room, 11)->text.contains(QLatin1String("\"amount\":8.9")), qPrintable(ws->event(room, 11)->text));
        QVERIFY(ws->event(room, 12)->text.contains(QLatin1String("\"amount\":8.9")));
        // A result that is a string is kept as its text.
        store.editCall(room, 11, Edit::Field::Result, QStringLiteral("\"refund issued\""), ana);
        QCOMPARE(ws->toolCallAt(room, 11)->result, QStringLiteral("refund issued"));

        // The outcome: the card, the room's counts and the outcome filter follow.
        const qint64 failedBefore = matching(*ws, room, QStringLiteral("outcome:failed"));
        const EditSteps outcome = store.setOutcome(room, 16, QStringLiteral("failed"), ana);
        QCOMPARE(Outcomes::name(ws->toolCallAt(room, 16)->outcome), QStringLiteral("failed"));
        QCOMPARE(ws->room(room)->refused, 0);
        QCOMPARE(ws->room(room)->failed, 1);
        QCOMPARE(matching(*ws, room, QStringLiteral("outcome:failed")), failedBefore + 2); // its start and end
        QCOMPARE(matching(*ws, room, QStringLiteral("outcome:refused")), 0);
        // Edited, and failed: one filter meets both on each row of the call (its start and end), as on its card.
        QCOMPARE(matching(*ws, room, QStringLiteral("is:edited outcome:failed")), 2);
        QVERIFY(isEdited(*ws, room, 17));
        QVERIFY_THROWS_EXCEPTION(StoreError, store.setOutcome(room, 16, QStringLiteral("exploded"), ana));
        QVERIFY_THROWS_EXCEPTION(StoreError, store.setOutcome(room, 4, QStringLiteral("failed"), ana)); // a message

        // Undone, newest first: everything as the source said, to the byte.
        store.apply(outcome, false);
        QCOMPARE(ws->room(room)->refused, 1);
        QCOMPARE(matching(*ws, room, QStringLiteral("outcome:refused")), 2); // the call's start and end again
        store.discard();
        QCOMPARE(calls(*ws, room), before);
        QVERIFY(!isEdited(*ws, room, 11));
        QVERIFY(!isEdited(*ws, room, 17));
        QVERIFY(!ws->event(room, 11)->text.contains(QLatin1String("8.9")));
        QCOMPARE(matching(*ws, room, QStringLiteral("is:edited")), 0);
        QCOMPARE(ws->search(room, QStringLiteral("8.9"), 10, true).size(), 0);
        QCOMPARE(args.size(), 2);
    }

    void jsonThatDoesNotParseSaysWhere_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("said"); // nothing: it is JSON
        QTest::newRow("object") << QStringLiteral("{\"a\": [1, 2]}") << QString();
        QTest::newRow("string") << QStringLiteral("\"refund issued\"") << QString();
        QTest::newRow("number") << QStringLiteral(" 42 ") << QString();
        QTest::newRow("empty") << QStringLiteral("  ") << QStringLiteral("empty");
        QTest::newRow("unquoted") << QStringLiteral("refund issued") << QStringLiteral("line 1, column 1: a value is missing or wrong here");
        QTest::newRow("no colon") << QStringLiteral("{\n \"a\" 1}") << QStringLiteral("line 2, column 6: a : is missing after the name");
        QTest::newRow("open string") << QStringLiteral("{\"a\": \"b}") << QStringLiteral("the string is not closed");
        QTest::newRow("two values") << QStringLiteral("1 2") << QStringLiteral("a , is missing between two values");
        QTest::newRow("two values, comma") << QStringLiteral("1, 2") << QStringLiteral("more than one value");
    }

    void jsonThatDoesNotParseSaysWhere()
    {
        QFETCH(QString, text);
        QFETCH(QString, said);
        const std::optional<QString> problem = JsonText::whereNotJson(text);
        if (said.isEmpty()) {
            QVERIFY2(!problem, qPrintable(problem.value_or(QString())));
            return;
        }
        QVERIFY(problem);
        QVERIFY2(problem->contains(said), qPrintable(*problem));
    }

    void pairsUnlinkedAndLinkedAgain()
    {
        QTemporaryDir dir;
        const QString log = dir.filePath(QStringLiteral("EVENT.md"));
        QVERIFY(QFile::copy(dataFile(QStringLiteral("craftbot/EVENT.md")), log));
        Workspace ws(dir.filePath(QStringLiteral("craftbot.sightline")));
        Importer::import(ws, log);
        const qint64 room = ws.rooms().first().id;
        AnnotationStore store(ws);
        const QStringList before = calls(ws, room);
        QCOMPARE(ws.room(room)->toolCalls, 93);
        QCOMPARE(ws.room(room)->unserved, 1);
        // CraftBot guessed these two web searches by name and order, and they overlap: 29..31 and 30..32.
        QCOMPARE(ws.toolCallAt(room, 29)->endIndex, std::optional<qint64>(31));
        QVERIFY(ws.toolCallAt(room, 29)->ambiguous);
        QVERIFY(ws.event(room, 31)->flags & EventFlags::Folded);

        // The reviewer decides the other way round.
        store.unlink(room, 29, ana);
        QCOMPARE(ws.room(room)->toolCalls, 94);
        QCOMPARE(ws.room(room)->unserved, 2);
        QCOMPARE(ws.toolCallAt(room, 29)->pairing, Pairing::StartOnly);
        QCOMPARE(ws.toolCallAt(room, 31)->pairing, Pairing::EndOnly);
        QVERIFY(!(ws.event(room, 31)->flags & EventFlags::Folded)); // a card of its own now
        QVERIFY(!(ws.event(room, 31)->flags & EventFlags::Guessed));
        QCOMPARE(matching(ws, room, QStringLiteral("pairing:end_only")), 1);
        store.unlink(room, 30, ana);
        // Only a lone start and a lone end link; never an end before its start, or two different tools.
        QVERIFY_THROWS_EXCEPTION(StoreError, store.link(room, 29, 38, ana));
        QVERIFY_THROWS_EXCEPTION(StoreError, store.link(room, 32, 29, ana));
        QVERIFY_THROWS_EXCEPTION(StoreError, store.link(room, 23, 32, ana));
        QVERIFY_THROWS_EXCEPTION(StoreError, store.unlink(room, 29, ana)); // nothing pairs it now
        store.link(room, 29, 32, ana);
        store.link(room, 30, 31, ana);
        QCOMPARE(ws.room(room)->toolCalls, 93);
        QCOMPARE(ws.room(room)->unserved, 1);
        const ToolCallRecord swapped = *ws.toolCallAt(room, 29);
        QCOMPARE(swapped.endIndex, std::optional<qint64>(32));
        QCOMPARE(swapped.pairing, Pairing::Manual);
        QVERIFY(!swapped.ambiguous);
        // The duration follows: the time between the start and the end it now has.
        QCOMPARE(swapped.durationMs,
            std::optional<qint64>((ws.event(room, 32)->createdMicros - ws.event(room, 29)->createdMicros) / 1000));
        // Timed as the log's other calls are: an EVENT.md is stamped to the second, so "N s ± 1 s", not milliseconds
        // as if measured.
        QCOMPARE(swapped.durationSource, DurationSource::Seconds);
        QVERIFY2(DurationText::full(swapped).contains(QStringLiteral("± 1 s")), qPrintable(DurationText::full(swapped)));
        QVERIFY(ws.event(room, 32)->flags & EventFlags::Folded);
        QCOMPARE(matching(ws, room, QStringLiteral("pairing:manual")), 4); // the two calls' starts and ends
        QVERIFY(isEdited(ws, room, 29) && isEdited(ws, room, 32));
        QCOMPARE(Journal(ws).entries(room).last().action, QStringLiteral("linked"));
        QCOMPARE(Journal(ws).entries(room).last().after, QStringLiteral("start 30, end 31"));

        // The first unlink cannot be reverted alone while a later change holds its calls.
        QVERIFY_THROWS_EXCEPTION(StoreError, store.revertEdit(EditStore(ws).edits(room, 29).first().id, ana));
        // Every change undone, newest first: the calls exactly as CraftBot paired them.
        store.discard();
        QCOMPARE(calls(ws, room), before);
        QVERIFY(ws.event(room, 31)->flags & EventFlags::Folded);
        QVERIFY(ws.event(room, 31)->flags & EventFlags::Ambiguous);
        QVERIFY(!isEdited(ws, room, 29));
    }

    void editsSurviveASyncAndARotatedLog()
    {
        QTemporaryDir dir;
        const QString log = dir.filePath(QStringLiteral("EVENT.md"));
        QVERIFY(QFile::copy(dataFile(QStringLiteral("craftbot/EVENT.md")), log));
        QFile::setPermissions(log, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
        Workspace ws(dir.filePath(QStringLiteral("craftbot.sightline")));
        Importer::import(ws, log);
        const qint64 room = ws.rooms().first().id;
        AnnotationStore store(ws);
        QVERIFY(ws.event(room, 10)->text.contains(QLatin1String("flights to Oslo")));
        store.editText(room, 10, QStringLiteral("flights to Bergen, please"), ana);
        store.setOutcome(room, 80, QStringLiteral("served"), ana);
        store.unlink(room, 29, ana);
        store.save();
        const QStringList edited = calls(ws, room);

        // A sync that finds nothing new keeps every edit.
        Importer::import(ws, log);
        QCOMPARE(ws.event(room, 10)->text, QStringLiteral("flights to Bergen, please"));
        QCOMPARE(calls(ws, room), edited);

        // The log rotated: its first ten records are gone, every index moved down by ten and every row was read
        // again from the source. The edits are found again by their events' payloads.
        QVERIFY(rotateLog(log, 10));
        Importer::import(ws, log);
        QCOMPARE(ws.rooms().first().id, room);
        QCOMPARE(ws.event(room, 0)->text, QStringLiteral("flights to Bergen, please"));
        QVERIFY(isEdited(ws, room, 0));
        QCOMPARE(Outcomes::name(ws.toolCallAt(room, 70)->outcome), QStringLiteral("served"));
        QCOMPARE(ws.room(room)->failed, 0);
        QCOMPARE(ws.toolCallAt(room, 19)->pairing, Pairing::StartOnly);
        QCOMPARE(ws.toolCallAt(room, 21)->pairing, Pairing::EndOnly);
        const Edits kept = EditStore(ws).edits(room);
        QCOMPARE(kept.size(), 3);
        QCOMPARE(kept[0].index, 0);
        QCOMPARE(kept[2].index, 19);
        QCOMPARE(kept[2].otherIndex, std::optional<qint64>(21));
    }

    // An import killed at any moment (SIGKILL) and run again ends as one clean import does: the same rows, calls,
    // counts and edits, on a rotated log that every row of is read again.
    void anImportKilledThenRunAgainKeepsTheEdits()
    {
        QTemporaryDir dir;
        auto prepare = [&](const QString& name) {
            const QString log = dir.filePath(name + QStringLiteral(".md"));
            QFile::copy(dataFile(QStringLiteral("craftbot/EVENT.md")), log);
            QFile::setPermissions(log, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
            const QString path = dir.filePath(name + QStringLiteral(".sightline"));
            Workspace ws(path);
            Importer::import(ws, log);
            const qint64 room = ws.rooms().first().id;
            AnnotationStore store(ws);
            store.editText(room, 10, QStringLiteral("flights to Bergen, please"), ana);
            store.setOutcome(room, 80, QStringLiteral("served"), ana);
            store.unlink(room, 29, ana);
            store.save();
            rotateLog(log, 10);
            return std::pair(log, path);
        };
        // What a whole room says: its rows (flags included), its calls and its counts.
        auto state = [](const QString& path) {
            Workspace ws(path);
            const RoomSummary room = ws.rooms().first();
            QStringList out { QStringLiteral("%1 %2 %3 %4").arg(room.eventCount).arg(room.toolCalls).arg(room.failed).arg(room.unserved) };
            EventFilter all;
            all.includeBlocked = true;
            PageRequest page;
            page.limit = 1000000;
            for (const EventRecord& e : ws.listEvents(room.id, all, page))
                out << QString::fromUtf8(EventSerializer::eventJson(e));
            out += calls(ws, room.id);
            return out;
        };
        const auto [cleanLog, cleanPath] = prepare(QStringLiteral("clean"));
        {
            Workspace ws(cleanPath);
            Importer::import(ws, cleanLog);
        }
        const QStringList clean = state(cleanPath);
        QVERIFY(clean.join(QLatin1Char('\n')).contains(QLatin1String("flights to Bergen, please")));
        const auto [log, path] = prepare(QStringLiteral("killed"));
        // Each round from the workspace as the edits left it, the rotated log not read yet.
        const QString pristine = path + QStringLiteral(".pristine");
        QVERIFY(QFile::copy(path, pristine));
        int killed = 0;
        for (int round = 0; round < 10; ++round) {
            for (const char* suffix : { "", "-wal", "-shm" })
                QFile::remove(path + QLatin1String(suffix));
            QVERIFY(QFile::copy(pristine, path));
            killed += importKilledMidway(path, log, 40) ? 1 : 0;
            {
                Workspace ws(path);
                Importer::import(ws, log); // run again, to its end
            }
            QCOMPARE(state(path), clean);
        }
        QVERIFY(killed > 0);
    }

    void aRedactionTakesTheTextOutOfEditsToo()
    {
        QTemporaryDir dir;
        auto ws = importFixture(dir, QStringLiteral("support.sqlite"));
        const qint64 room = roomOf(*ws, QStringLiteral("sup-duplicate-charge"));
        AnnotationStore store(*ws);
        const QString secret = QStringLiteral("zoe.quist@example.org");
        const QString text = QStringLiteral("Please write to ") + secret + QStringLiteral(" about it");
        store.editText(room, 5, text, ana);
        store.save();
        // The edited text is what the row shows: its span is redacted there, and in the edit and its journal.
        store.redact(room, 5, QStringLiteral("@text"), text.indexOf(secret), secret.size(), QStringLiteral("personal data"), ana);
        QCOMPARE(ws->event(room, 5)->text, QStringLiteral("Please write to [redacted: personal data] about it"));
        QVERIFY(EditStore(*ws).edits(room, 5).first().value.contains(QLatin1String("[redacted: personal data]")));
        QCOMPARE(value(*ws, QStringLiteral("SELECT count(*) FROM edits WHERE value LIKE '%zoe.quist%' OR original LIKE "
                                           "'%zoe.quist%'")),
            0);
        QCOMPARE(value(*ws, QStringLiteral("SELECT count(*) FROM journal WHERE after LIKE '%zoe.quist%'")), 0);
        store.save();
        // Gone from the files: the workspace and its log.
        for (const QString& file : QStringList { ws->path(), ws->path() + QStringLiteral("-wal") }) {
            QVERIFY2(!fileHolds(file, secret.toUtf8()), qPrintable(file));
        }
        // Reverting the edit shows the source's text again; the redacted span does not come back.
        store.revertEdit(EditStore(*ws).edits(room, 5).first().id, ana);
        QVERIFY(ws->event(room, 5)->text.startsWith(QLatin1String("I'm sorry about the double charge")));
        QVERIFY(!isEdited(*ws, room, 5));
    }
};

QTEST_GUILESS_MAIN(TestEdits)
#include "tst_edits.moc"
