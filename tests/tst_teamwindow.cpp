// Team review in the window, offscreen, against the test server (tests/pg/pgcluster.sh): a window attached to a team
// store through File ▸ Team…, and a teammate (a workspace and a connection of the test's own, as another machine's
// Sightline would be) changing the review. The window's periodic sync is set to ten minutes, so what arrives within
// the tests' deadlines came by the store's notification.
#include "annotationstore.h"
#include "eventlistmodel.h"
#include "mainwindow.h"
#include "queuedock.h"
#include "redactionpatterns.h"
#include "redactionstore.h"
#include "roomlistmodel.h"
#include "roomlistview.h"
#include "sources/importer.h"
#include "sources/pgconnection.h"
#include "team/teamschema.h"
#include "team/teamstore.h"
#include "team/teamsync.h"
#include "teamdialog.h"
#include "teamlink.h"
#include "testsupport.h"
#include "editor.h"
#include "workspace.h"

#include <QAbstractItemView>
#include <QAction>
#include <QFile>
#include <QLineEdit>
#include <QPushButton>
#include <QRandomGenerator>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QtTest>

using namespace TestSupport;

class TestTeamWindow : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_db;

    QString uri(const QString& login) const
    {
        const PgServer& pg = PgServer::get();
        return QStringLiteral("postgresql://%1@%2:%3/%4").arg(login, pg.host).arg(pg.port).arg(m_db);
    }

    static qint64 roomNamed(MainWindow& window, const QString& nativeId)
    {
        for (const RoomSummary& r : window.roomModel()->rooms()) {
            if (r.nativeId == nativeId)
                return r.id;
        }
        return 0;
    }

    static qint64 roomNamed(Workspace& ws, const QString& nativeId)
    {
        for (const RoomSummary& r : ws.rooms()) {
            if (r.nativeId == nativeId)
                return r.id;
        }
        return 0;
    }

    // The text of the row whose index is `index` in the window's model (empty when it is not loaded).
    static QString rowText(MainWindow& window, qint64 index)
    {
        EventListModel* m = window.eventModel();
        for (int row = 0; row < m->rowCount(); ++row) {
            const QModelIndex i = m->index(row, 0);
            if (i.data(EventListModel::EventIndexRole).toLongLong() == index)
                return m->index(row, EventListModel::TextColumn).data(Qt::DisplayRole).toString();
        }
        return {};
    }

    // The window, shown, signed by Ana, with `copy` open; its periodic sync ten minutes apart.
    static void open(MainWindow& window, const QString& copy)
    {
        window.resize(1400, 900);
        window.show();
        window.editor()->setAuthor(QStringLiteral("Ana"));
        window.teamLink()->setRenewInterval(600000);
        QSignalSpy shown(&window, &MainWindow::roomsShown);
        window.openPath(copy);
        QVERIFY(shown.wait(30000));
    }

private slots:
    void initTestCase()
    {
        const PgServer& pg = PgServer::get();
        if (!pg.unavailable.isEmpty())
            QSKIP(qPrintable(QStringLiteral("PostgreSQL: ") + pg.unavailable));
        m_db = QStringLiteral("teamgui_%1").arg(QRandomGenerator::global()->bounded(1u << 30));
        pg.exec(QStringLiteral("postgres"), QStringLiteral("CREATE DATABASE %1").arg(m_db));
        {
            PgConnection owner(pg.uri(m_db, pg.owner), nullptr, PgConnection::Access::ReadWrite);
            TeamSchema::init(owner);
        }
        // Logins of this test's own (roles are the cluster's, and other tests make theirs at the same time).
        QFile pass(m_dir.filePath(QStringLiteral("pgpass")));
        QVERIFY(pass.open(QIODevice::WriteOnly));
        for (const char* login : { "gui_ana", "gui_ben", "gui_lead" }) {
            pg.exec(QStringLiteral("postgres"),
                QStringLiteral("DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '%1') THEN CREATE ROLE %1 "
                               "LOGIN; END IF; END $$; ALTER ROLE %1 PASSWORD '%1-secret'")
                    .arg(QLatin1String(login)));
            pass.write(QStringLiteral("%1:%2:%3:%4:%4-secret\n").arg(pg.host).arg(pg.port).arg(m_db, QLatin1String(login)).toUtf8());
        }
        pass.close();
        pass.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner); // libpq reads no other
        qputenv("PGPASSFILE", pass.fileName().toUtf8());
        pg.exec(m_db, QStringLiteral("GRANT sightline_reviewer TO gui_ana, gui_ben; GRANT sightline_admin TO gui_lead"));
    }

    // Ana's window attached through File ▸ Team…; Ben, on another machine, changes the review: his review status,
    // his note and his being in the room show in her window in place (her selection kept), her saved change reaches
    // him, and his redaction takes the text out of the rows she is looking at.
    void teammatesChangesShowInPlace()
    {
        const QString anaCopy = copyFixture(m_dir, QStringLiteral("roomkit/support.sqlite"), QStringLiteral("ana.sqlite"));
        const QString benCopy = copyFixture(m_dir, QStringLiteral("roomkit/support.sqlite"), QStringLiteral("ben.sqlite"));
        MainWindow window;
        open(window, anaCopy);
        const QString roomName = QStringLiteral("sup-duplicate-charge");
        const qint64 room = roomNamed(window, roomName);
        QVERIFY(room != 0);
        QVERIFY(window.roomList()->selectRoom(room));
        QTRY_VERIFY(window.eventModel()->roomId() == room && window.eventModel()->rowCount() > 5);

        // A queue's key with no team store yet: the dock shows and says how to get one.
        window.queueDock()->nextAction()->trigger();
        QVERIFY(!window.queueDock()->isHidden());
        QVERIFY2(window.statusMessage().contains(QLatin1String("attach this workspace to one with File")), qPrintable(window.statusMessage()));
        QVERIFY(window.queueDock()->heldText().startsWith(QLatin1String("Attach the workspace to a team store")));
        // Attach through the dialog, as a reviewer would.
        TeamDialog* dialog = window.teamDialog();
        dialog->show();
        QVERIFY(dialog->statusText().contains(QLatin1String("no team store")));
        dialog->uriEdit()->setText(uri(QStringLiteral("gui_ana")));
        QVERIFY(dialog->attachButton()->isEnabled());
        dialog->attachButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(window.teamLink()->status().connected, 15000);
        QVERIFY2(dialog->statusText().contains(QLatin1String("as <b>gui_ana</b> (reviewer)")), qPrintable(dialog->statusText()));
        QVERIFY(window.teamText().startsWith(QLatin1String("Team: gui_ana (reviewer)")));

        // Ben's copy, at its own path, attached too.
        Workspace ben(m_dir.filePath(QStringLiteral("ben.sightline")));
        Importer::import(ben, benCopy);
        TeamStore benTeam(uri(QStringLiteral("gui_ben")));
        TeamSync::attach(ben, uri(QStringLiteral("gui_ben")), benTeam.storeId(), benTeam.secret());
        const qint64 benRoom = roomNamed(ben, roomName);

        // A row selected in Ana's window stays selected while Ben's changes come in.
        QAbstractItemView* view = window.eventList();
        view->setCurrentIndex(window.eventModel()->index(3, 0));
        const qint64 selected = view->currentIndex().data(EventListModel::EventIndexRole).toLongLong();

        // Ben is in the room: Ana's status bar says so.
        benTeam.here(TeamSync::client(ben), std::pair(QStringLiteral("roomkit"), roomName), QStringLiteral("Ben"));
        QTRY_VERIFY_WITH_TIMEOUT(window.teamText().startsWith(QLatin1String("Ben (gui_ben) is reviewing this room")), 10000);

        // His review status and note, saved and synced, show in her window.
        {
            AnnotationStore store(ben);
            store.saveOnly(store.setReview(benRoom, ReviewStatus::Done, QStringLiteral("Ben")));
            store.saveOnly(store.addNote(benRoom, std::nullopt, QStringLiteral("customer refunded twice, checked"), QStringLiteral("Ben")));
        }
        TeamSync(ben, benTeam).sync();
        QTRY_VERIFY_WITH_TIMEOUT(window.roomModel()->room(room) && window.roomModel()->room(room)->review == ReviewStatus::Done, 10000);
        QTRY_VERIFY(window.roomModel()->room(room)->notes == 1);
        QCOMPARE(window.eventModel()->roomId(), room);
        QCOMPARE(view->currentIndex().data(EventListModel::EventIndexRole).toLongLong(), selected);

        // Ana's own change goes up when she saves it.
        const qint64 other = roomNamed(window, QStringLiteral("sup-late-delivery"));
        window.editor()->setReview(other, ReviewStatus::InReview);
        QTRY_VERIFY(window.editor()->isModified());
        QSignalSpy saved(window.editor(), &Editor::modifiedChanged);
        window.editor()->saveAction()->trigger();
        QTRY_VERIFY(!window.editor()->isModified());
        QTRY_VERIFY_WITH_TIMEOUT(benTeam.changesSince(0).journal.size() >= 3, 10000);
        TeamSync(ben, benTeam).sync();
        const std::optional<Annotation> benSees = AnnotationStore(ben).review(roomNamed(ben, QStringLiteral("sup-late-delivery")));
        QVERIFY(benSees && benSees->value == ReviewStatus::InReview && benSees->author == QLatin1String("Ana"));

        // Ben redacts an order number in the first message: it leaves the rows in Ana's window.
        const QString secret = QStringLiteral("A-10533");
        qint64 messageIndex = -1;
        for (int row = 0; row < window.eventModel()->rowCount() && messageIndex < 0; ++row) {
            if (window.eventModel()->index(row, EventListModel::TextColumn).data(Qt::DisplayRole).toString().contains(secret))
                messageIndex = window.eventModel()->index(row, 0).data(EventListModel::EventIndexRole).toLongLong();
        }
        QVERIFY(messageIndex >= 0);
        {
            QString error;
            const RedactionMatches found
                = RedactionStore(ben).find(benRoom, RedactionPatterns::custom(QRegularExpression::escape(secret), &error));
            QVERIFY(!found.isEmpty());
            AnnotationStore(ben).redactMatchesAndSave(found, QStringLiteral("order number"), QStringLiteral("Ben"));
        }
        TeamSync(ben, benTeam).sync();
        QTRY_VERIFY_WITH_TIMEOUT(!rowText(window, messageIndex).isEmpty() && !rowText(window, messageIndex).contains(secret), 10000);
        QVERIFY(rowText(window, messageIndex).contains(QLatin1String("[redacted: order number]")));
        QCOMPARE(view->currentIndex().data(EventListModel::EventIndexRole).toLongLong(), selected);

        // Ben leaves: the status bar no longer names him.
        benTeam.here(TeamSync::client(ben), std::nullopt, QStringLiteral("Ben"));
        QTRY_VERIFY_WITH_TIMEOUT(!window.teamText().contains(QLatin1String("reviewing")), 10000);
    }

    // The Queues dock: the lead's queue, its progress; Next Room shows the room handed out and sets it in review,
    // Done sets it done, saves it and finishes it in the store.
    void queueDockHandsOutRooms()
    {
        const QString copy = copyFixture(m_dir, QStringLiteral("roomkit/support.sqlite"), QStringLiteral("ana-q.sqlite"));
        {
            TeamStore lead(uri(QStringLiteral("gui_lead")));
            TeamQueue q;
            q.name = QStringLiteral("refunds");
            q.instructions = QStringLiteral("Check each refund");
            lead.createQueue(q, { { QStringLiteral("roomkit"), QStringLiteral("sup-address-change") },
                                    { QStringLiteral("roomkit"), QStringLiteral("sup-warranty-claim") } });
        }
        MainWindow window;
        open(window, copy);
        window.teamLink()->attach(uri(QStringLiteral("gui_ana")));
        QTRY_VERIFY_WITH_TIMEOUT(window.teamLink()->status().connected, 15000);

        // Next Room (Ctrl+Alt+N) with the dock not shown yet: it shows, reads the queues and takes a room.
        QueueDock* dock = window.queueDock();
        QVERIFY(dock->isHidden());
        // By its keys, with another room selected: the room taken is the one selected, alone (the shortcut's Ctrl
        // once added it to the selection).
        QVERIFY(window.roomList()->selectRoom(roomNamed(window, QStringLiteral("sup-late-delivery"))));
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QTest::keyClick(&window, Qt::Key_N, Qt::ControlModifier | Qt::AltModifier);
        QTRY_VERIFY_WITH_TIMEOUT(dock->heldText().startsWith(QLatin1String("Yours: sup-address-change (queue \"refunds\")")), 10000);
        QVERIFY(!dock->isHidden());
        const qint64 room = roomNamed(window, QStringLiteral("sup-address-change"));
        QTRY_COMPARE(window.eventModel()->roomId(), room);
        QCOMPARE(window.roomList()->selectedRooms(), QVector<qint64> { room });
        QTRY_COMPARE(window.roomModel()->room(room)->review, ReviewStatus::InReview);
        QTRY_VERIFY(dock->list()->topLevelItemCount() == 1 && dock->list()->topLevelItem(0)->text(2) == QLatin1String("1"));
        QVERIFY(dock->list()->topLevelItem(0)->toolTip(0).contains(QLatin1String("Check each refund")));

        dock->doneAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(!window.editor()->isModified() && window.roomModel()->room(room)->review == ReviewStatus::Done, 10000);
        TeamStore lead(uri(QStringLiteral("gui_lead")));
        QTRY_VERIFY_WITH_TIMEOUT(lead.queueRooms(QStringLiteral("refunds")).first().state == TeamQueueRoom::State::Done, 10000);
        QCOMPARE(lead.queueRooms(QStringLiteral("refunds")).first().author, QStringLiteral("Ana"));
        QTRY_VERIFY(dock->list()->topLevelItem(0)->text(1) == QLatin1String("1")); // done
        QVERIFY(dock->heldText().startsWith(QLatin1String("Next Room (Ctrl+Alt+N) takes the next room")));

        // Two review statuses set each not knowing the other: the status bar and File ▸ Team… say so, and the
        // reviewer keeps one with a click.
        const QString other = QStringLiteral("sup-warranty-claim");
        TeamStore ben(uri(QStringLiteral("gui_ben")));
        ben.setReview(QStringLiteral("roomkit"), other, ReviewStatus::Unreviewed, ReviewStatus::Done, QStringLiteral("Ben"), 1000, QStringLiteral("t:1"));
        lead.setReview(QStringLiteral("roomkit"), other, ReviewStatus::Unreviewed, ReviewStatus::InReview, QStringLiteral("Lead"), 2000, QStringLiteral("t:2"));
        QTRY_VERIFY_WITH_TIMEOUT(window.teamText().contains(QLatin1String("1 conflict to settle")), 10000);
        TeamDialog* dialog = window.teamDialog();
        dialog->show();
        QCOMPARE(dialog->settleButtons().size(), 2);
        QCOMPARE(dialog->settleButtons().first()->text(), QStringLiteral("Keep done (Ben)"));
        QCOMPARE(dialog->settleButtons().last()->text(), QStringLiteral("Keep in review (Lead)"));
        QTRY_COMPARE(window.roomModel()->room(roomNamed(window, other))->review, ReviewStatus::InReview); // the later
        dialog->settleButtons().first()->click();
        QTRY_VERIFY_WITH_TIMEOUT(ben.conflicts().isEmpty(), 10000);
        QTRY_COMPARE(window.roomModel()->room(roomNamed(window, other))->review, ReviewStatus::Done);
        QTRY_VERIFY(dialog->settleButtons().isEmpty() && !window.teamText().contains(QLatin1String("conflict")));

        // Two edits of one message's text, the lead's not knowing Ben's: Keep Ben's makes his show in the window.
        qint64 message = -1;
        {
            Workspace probe(m_dir.filePath(QStringLiteral("probe.sightline")));
            Importer::import(probe, copyFixture(m_dir, QStringLiteral("roomkit/support.sqlite"), QStringLiteral("probe.sqlite")));
            QSqlQuery q = probe.exec(QStringLiteral("SELECT e.seq FROM events e JOIN rooms r ON r.id = e.room_id WHERE "
                                                    "r.native_id = ? AND e.kind = (SELECT code FROM words WHERE name = 'message') ORDER BY e.seq LIMIT 1"),
                { other });
            QVERIFY(q.next());
            message = q.value(0).toLongLong();
        }
        TeamEdit edit;
        edit.system = QStringLiteral("roomkit");
        edit.room = other;
        edit.seq = message;
        edit.field = QStringLiteral("text");
        edit.value = QStringLiteral("as Ben read it");
        edit.author = QStringLiteral("Ben");
        edit.atMs = 3000;
        ben.edit(edit, QStringLiteral("text_edited"), edit.value, QStringLiteral("t:3"));
        edit.value = QStringLiteral("as the lead read it");
        edit.author = QStringLiteral("Lead");
        edit.atMs = 4000;
        lead.edit(edit, QStringLiteral("text_edited"), edit.value, QStringLiteral("t:4"));
        QTRY_VERIFY_WITH_TIMEOUT(dialog->settleButtons().size() == 2, 10000);
        QCOMPARE(dialog->settleButtons().first()->text(), QStringLiteral("Keep Ben's"));
        dialog->settleButtons().first()->click();
        QTRY_VERIFY_WITH_TIMEOUT(ben.conflicts().isEmpty(), 10000);
        window.roomList()->selectRoom(roomNamed(window, other));
        QTRY_VERIFY_WITH_TIMEOUT(rowText(window, message).contains(QLatin1String("as Ben read it")), 10000);
    }
};

QTEST_MAIN(TestTeamWindow)
#include "tst_teamwindow.moc"
