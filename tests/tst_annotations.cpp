// Notes, labels, marks and review statuses in a workspace: written at once with their journal entries, undone
// and redone without losing ids, saved and discarded in one transaction each (a process killed during a save
// leaves the old or the new state), and kept against the source's identity through a sync and a rotated log.

#include "annotationstore.h"
#include "journal.h"
#include "sources/importer.h"
#include "storeerror.h"
#include "testsupport.h"
#include "workspace.h"

#include <csignal>
#include <QFile>
#include <QRandomGenerator>
#include <QSqlQuery>
#include <QTest>
#include <sys/wait.h>
#include <unistd.h>

using namespace TestSupport;

namespace {

qint64 roomOf(Workspace& ws, const QString& nativeId)
{
    const QVector<qint64> rooms = ws.findRooms(nativeId);
    return rooms.isEmpty() ? 0 : rooms.first();
}

int count(Workspace& ws, const QString& sql)
{
    QSqlQuery q = ws.exec(sql);
    return q.next() ? q.value(0).toInt() : -1;
}

} // namespace

class TestAnnotations : public QObject
{
    Q_OBJECT

private slots:
    void notesLabelsMarksAndReviewWithTheirJournal()
    {
        QTemporaryDir dir;
        auto ws = importFixture(dir, QStringLiteral("support.sqlite"));
        const qint64 room = roomOf(*ws, QStringLiteral("sup-duplicate-charge"));
        QVERIFY(room != 0);
        AnnotationStore store(*ws);

        store.addNote(room, 3, QStringLiteral("  customer asked twice  "), QStringLiteral("ana"));
        store.addNote(room, std::nullopt, QStringLiteral("refund approved by finance"), QStringLiteral("ana"));
        store.setMarked(room, 5, true, QStringLiteral("ana"));
        QVERIFY(store.setMarked(room, 5, true, QStringLiteral("ana")).isEmpty()); // already marked
        store.addLabel(room, 3, QStringLiteral("PII"), QStringLiteral("ana"));
        QVERIFY(store.addLabel(room, 3, QStringLiteral("pii"), QStringLiteral("ana")).isEmpty());
        store.addLabel(room, 5, QStringLiteral("bug"), QStringLiteral("ana"));
        store.setReview(room, ReviewStatus::InReview, QStringLiteral("ana"));
        store.setReview(room, ReviewStatus::Done, QStringLiteral("ben"));

        const Annotations all = store.annotations(room);
        // The room's own first (its note and its review), then by index.
        QCOMPARE(all.size(), 6);
        QVERIFY(!all[0].index && !all[1].index);
        QCOMPARE(all[2].index, std::optional<qint64>(3));
        const Annotations notes = store.notes(room);
        QCOMPARE(notes.size(), 2);
        QCOMPARE(notes[1].value, QStringLiteral("customer asked twice")); // trimmed
        QCOMPARE(notes[1].author, QStringLiteral("ana"));
        QVERIFY(!notes[1].saved);
        QCOMPARE(store.review(room)->value, ReviewStatus::Done);
        QCOMPARE(store.review(room)->author, QStringLiteral("ben"));
        QCOMPARE(store.labelColors().keys(), (QStringList { QStringLiteral("bug"), QStringLiteral("pii") }));
        QVERIFY(store.labelColors().value(QStringLiteral("bug")) != store.labelColors().value(QStringLiteral("pii")));

        const JournalEntries journal = Journal(*ws).entries(room);
        QCOMPARE(journal.size(), 7);
        QCOMPARE(journal[0].action, QStringLiteral("note_added"));
        QCOMPARE(journal[0].index, std::optional<qint64>(3));
        QCOMPARE(journal[0].room, QStringLiteral("sup-duplicate-charge"));
        QCOMPARE(journal[0].after, QStringLiteral("customer asked twice"));
        QCOMPARE(journal[6].action, QStringLiteral("review"));
        QCOMPARE(journal[6].before, ReviewStatus::InReview);
        QCOMPARE(journal[6].after, ReviewStatus::Done);
        QCOMPARE(Journal::describe(journal[6]), QStringLiteral("review: in review → done"));
        QCOMPARE(store.unsavedChanges(), 7);

        // Bad requests name what is wrong and change nothing.
        QVERIFY_THROWS_EXCEPTION(StoreError, store.addNote(room, 99999, QStringLiteral("x"), QStringLiteral("ana")));
        QVERIFY_THROWS_EXCEPTION(StoreError, store.addNote(room, 3, QStringLiteral("   "), QStringLiteral("ana")));
        QVERIFY_THROWS_EXCEPTION(StoreError, store.setReview(room, QStringLiteral("finished"), QStringLiteral("ana")));
        QVERIFY_THROWS_EXCEPTION(StoreError, store.addLabel(room, 3, QStringLiteral("two words"), QStringLiteral("a")));
        QCOMPARE(store.unsavedChanges(), 7);
    }

    void undoRedoSaveAndDiscard()
    {
        QTemporaryDir dir;
        auto ws = importFixture(dir, QStringLiteral("support.sqlite"));
        const qint64 room = roomOf(*ws, QStringLiteral("sup-duplicate-charge"));
        AnnotationStore store(*ws);

        const EditSteps note = store.addNote(room, 2, QStringLiteral("first"), QStringLiteral("ana"));
        const EditSteps review = store.setReview(room, ReviewStatus::InReview, QStringLiteral("ana"));
        store.apply(note, false); // undo
        QCOMPARE(store.notes(room).size(), 0);
        QCOMPARE(Journal(*ws).entries(room).size(), 1);
        store.apply(note, true); // redo: the same row again
        QCOMPARE(store.notes(room).size(), 1);
        QCOMPARE(store.notes(room)[0].id, note[0].id);

        store.save();
        QCOMPARE(store.unsavedChanges(), 0);
        QVERIFY(store.notes(room)[0].saved);
        QVERIFY(Journal(*ws).entries(room)[1].saved);

        // Undone after the save, the review goes back to none; discarding brings the saved state back.
        store.apply(review, false);
        QVERIFY(!store.review(room));
        const EditSteps second = store.addNote(room, 4, QStringLiteral("second"), QStringLiteral("ana"));
        QCOMPARE(store.unsavedChanges(), 2);
        store.discard();
        QCOMPARE(store.unsavedChanges(), 0);
        QCOMPARE(store.review(room)->value, ReviewStatus::InReview);
        QCOMPARE(store.notes(room).size(), 1);
        QCOMPARE(count(*ws, QStringLiteral("SELECT count(*) FROM annotations WHERE id = %1").arg(second[0].id)), 0);

        // A saved removal is gone from the file, not only hidden.
        store.remove(store.notes(room)[0].id, QStringLiteral("ben"));
        store.save();
        QCOMPARE(count(*ws, QStringLiteral("SELECT count(*) FROM annotations WHERE kind = 'note'")), 0);
        QCOMPARE(Journal(*ws).entries(room).last().action, QStringLiteral("note_removed"));
        QCOMPARE(Journal(*ws).entries(room).last().before, QStringLiteral("first"));
    }

    void aSaveKilledAtAnyPointLeavesTheOldOrTheNewState()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("support.sightline"));
        {
            Workspace ws(path);
            Importer::import(ws, dataFile(QStringLiteral("roomkit/support.sqlite")));
        }
        const int notes = 10000;
        for (int round = 0; round < 6; ++round) {
            {
                Workspace ws(path);
                AnnotationStore store(ws);
                store.discard();
                const qint64 room = roomOf(ws, QStringLiteral("sup-duplicate-charge"));
                ws.exec(QStringLiteral("BEGIN"));
                for (int i = 0; i < notes; ++i)
                    store.addNote(room, std::nullopt, QStringLiteral("note %1").arg(i), QStringLiteral("ana"));
                ws.exec(QStringLiteral("COMMIT"));
                ws.exec(QStringLiteral("UPDATE annotations SET saved = 0"));
            }
            const pid_t child = fork();
            if (child == 0) {
                Workspace ws(path);
                AnnotationStore(ws).save();
                _exit(0);
            }
            QTest::qWait(int(QRandomGenerator::global()->bounded(0, 80)));
            kill(child, SIGKILL);
            int status = 0;
            waitpid(child, &status, 0);
            Workspace ws(path);
            const int saved = count(ws, QStringLiteral("SELECT count(*) FROM annotations WHERE saved = 1"));
            QVERIFY2(saved == 0 || saved == count(ws, QStringLiteral("SELECT count(*) FROM annotations")),
                qPrintable(QStringLiteral("round %1: %2 saved of %3").arg(round).arg(saved).arg(notes)));
            QCOMPARE(count(ws, QStringLiteral("PRAGMA integrity_check")), 0); // "ok" reads as 0
        }
    }

    void annotationsSurviveASyncAndARotatedLog()
    {
        QTemporaryDir dir;
        const QString log = dir.filePath(QStringLiteral("EVENT.md"));
        QVERIFY(QFile::copy(dataFile(QStringLiteral("craftbot/EVENT.md")), log));
        QFile::setPermissions(log, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
        Workspace ws(dir.filePath(QStringLiteral("craftbot.sightline")));
        Importer::import(ws, log);
        const qint64 room = ws.rooms().first().id;
        AnnotationStore store(ws);
        const QString flights = ws.event(room, 10)->text;
        QVERIFY(flights.contains(QLatin1String("flights to Oslo")));
        store.addNote(room, 10, QStringLiteral("check the dates"), QStringLiteral("ana"));
        store.setMarked(room, 10, true, QStringLiteral("ana"));
        store.addLabel(room, 1, QStringLiteral("slow"), QStringLiteral("ana"));
        store.save();

        // A sync that finds nothing new keeps everything where it was.
        Importer::import(ws, log);
        QCOMPARE(store.annotations(room).size(), 3);
        QCOMPARE(store.notes(room)[0].index, std::optional<qint64>(10));

        // The log rotated: its first ten records are gone, so every index moved down by ten.
        QVERIFY(rotateLog(log, 10));
        Importer::import(ws, log);
        QCOMPARE(ws.rooms().first().id, room);
        const Annotations after = store.annotations(room);
        QCOMPARE(after.size(), 3);
        QCOMPARE(store.notes(room)[0].index, std::optional<qint64>(0));
        QCOMPARE(ws.event(room, 0)->text, flights);
        QVERIFY(!store.notes(room)[0].detached);
        // The label's event was rotated away: it says so, and marks no other event.
        for (const Annotation& a : after) {
            if (a.kind == Annotation::Kind::Label)
                QVERIFY(a.detached);
        }
    }
};

QTEST_GUILESS_MAIN(TestAnnotations)
#include "tst_annotations.moc"
