// The main window, offscreen: open a store, pick a room, see its events and the "showing X of Y" status.

#include "annotationstore.h"
#include "bulkredactdialog.h"
#include "detailspane.h"
#include "editor.h"
#include "contenteditor.h"
#include "editstore.h"
#include "editvaluedialog.h"
#include "exportdialog.h"
#include "reportexporter.h"
#include "reportmanifest.h"
#include "reportsignature.h"
#include "journal.h"
#include "journaldock.h"
#include "journalmodel.h"
#include "notespanel.h"
#include "opendatabasedialog.h"
#include "sourcefollower.h"
#include "redactionstore.h"
#include "eventlistmodel.h"
#include "eventlistview.h"
#include "facetmodel.h"
#include "filterbar.h"
#include "filterpane.h"
#include "jsontreemodel.h"
#include "mainwindow.h"
#include "schema.h"
#include "settings.h"
#include "roomkitstoregenerator.h"
#include "roomlistmodel.h"
#include "roomlistview.h"
#include "searchbar.h"
#include "searchresultsdock.h"
#include "storeclient.h"
#include "sources/importer.h"
#include "workspacewatcher.h"
#include "sources/importlock.h"
#include "eventactions.h"
#include "testsupport.h"
#include "timeutil.h"
#include "timehistogram.h"
#include "timelinedelegate.h"
#include "timelinelayout.h"
#include "toolstatsdock.h"
#include "toolstatsmodel.h"
#include "waterfalldock.h"
#include "waterfallview.h"
#include "timelineview.h"
#include "workspace.h"

#include <QAbstractItemModelTester>
#include <QAbstractProxyModel>
#include <QAction>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QApplication>
#include <QButtonGroup>
#include <QDialog>
#include <QDockWidget>
#include <QDropEvent>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QCompleter>
#include <QInputDialog>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTextCursor>
#include <QScrollBar>
#include <QProcess>
#include <QMenuBar>
#include <QProgressDialog>
#include <QSqlQuery>
#include <QLocale>
#include <QRegularExpression>
#include <optional>
#include <QThread>
#include <QThreadPool>
#include <QSemaphore>
#include <QElapsedTimer>
#include <thread>
#include <QSignalSpy>
#include <QStyle>
#include <QTableWidget>
#include <QHeaderView>
#include <QSettings>
#include <QComboBox>
#include <QTest>
#include <QStatusBar>
#include <QFont>
#include <QClipboard>
#include <QCheckBox>
#include <QProxyStyle>
#include <QDialogButtonBox>
#include <QTreeWidget>
#include <QElapsedTimer>
#include <QTimer>
#include <QFileDialog>
#include <QToolButton>
#include <QTreeView>
#include <QTreeWidget>
#include <QTreeWidgetItem>
#include <QUrl>

using namespace TestSupport;

class TestMainWindow : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    static bool selectRoomNamed(MainWindow& window, const QString& nativeId)
    {
        for (const RoomSummary& r : window.roomModel()->rooms()) {
            if (r.nativeId == nativeId)
                return window.roomList()->selectRoom(r.id);
        }
        return false;
    }

    // Runs `act` on the modal dialog of type T as soon as one shows, looked for every 20 ms for up to 10 s: a dialog
    // that waits for a read first shows late on a busy machine (a single look after 100 ms missed it).
    template <typename T>
    static void whenModal(std::function<void(T*)> act)
    {
        auto* timer = new QTimer;
        auto* waited = new QElapsedTimer;
        waited->start();
        QObject::connect(timer, &QTimer::timeout, [timer, waited, act] {
            T* dialog = qobject_cast<T*>(QApplication::activeModalWidget());
            if (!dialog && waited->elapsed() < 10000)
                return;
            timer->stop();
            timer->deleteLater();
            delete waited;
            if (dialog)
                act(dialog);
        });
        timer->start(20);
    }

    // Shows `window` active at a working size and opens `path`, until its rooms are listed.
    static void showAndOpen(MainWindow& window, const QString& path)
    {
        window.resize(1200, 800);
        window.show();
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QSignalSpy shown(&window, &MainWindow::roomsShown);
        window.openPath(path);
        QVERIFY(shown.wait(20000));
    }

private slots:
    // Open a store, then another before the first has opened: the second is imported into its own cached
    // workspace (it used to go into the first one's), and the window shows it.
    void aSecondOpenBeforeTheFirstHasOpened()
    {
        QTemporaryDir dir;
        const QString a = copyFixture(dir, QStringLiteral("roomkit/many_rooms.sqlite"));
        const QString b = copyFixture(dir, QStringLiteral("roomkit/edge_cases.sqlite"));
        MainWindow window;
        window.resize(1200, 800);
        window.show();
        QSignalSpy shown(&window, &MainWindow::roomsShown);
        window.openPath(a);
        window.openPath(b);
        QVERIFY(shown.wait(20000));
        QTRY_VERIFY(!window.isImporting());
        QTRY_COMPARE(window.roomModel()->rooms().size(),
            manifestFile(QStringLiteral("edge_cases.sqlite")).value(QLatin1String("room_ids")).toArray().size());
        for (const RoomSummary& r : window.roomModel()->rooms())
            QVERIFY2(r.nativeId.startsWith(QLatin1String("edge-")), qPrintable(r.nativeId));
        Workspace wb(Importer::cachedWorkspacePath(b));
        QVERIFY(!wb.findRooms(QStringLiteral("edge-parallel-same-tool")).isEmpty());
        if (QFile::exists(Importer::cachedWorkspacePath(a))) {
            Workspace wa(Importer::cachedWorkspacePath(a));
            QVERIFY(wa.findRooms(QStringLiteral("edge-parallel-same-tool")).isEmpty());
        }
    }

    // The first window (no split of the user's yet) at a laptop's width gives the timeline the most of it: split before
    // the window had its width, the timeline alone gave up the difference and was left a fifth of it, its cards'
    // badges over their tools' names.
    void aFirstWindowGivesTheTimelineTheMostOfItsWidth()
    {
        Settings::setWindow({});
        MainWindow window;
        window.resize(1230, 700);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTRY_VERIFY(window.timeline()->width() > 0);
        const int timeline = window.timeline()->width();
        QVERIFY2(timeline > window.roomList()->width() && timeline > window.detailsPane()->width(),
            qPrintable(QStringLiteral("timeline %1, rooms %2, details %3")
                           .arg(timeline)
                           .arg(window.roomList()->width())
                           .arg(window.detailsPane()->width())));
        QVERIFY2(timeline * 10 >= window.width() * 3, qPrintable(QString::number(timeline)));
        // The room list keeps its counts whole beside a title, and the panes their dates.
        QVERIFY(window.roomList()->view()->width() >= window.roomList()->view()->minimumWidth());
        QVERIFY(window.filterDock()->width() >= window.filterDock()->minimumSizeHint().width());
    }

    // Painting the timeline never waits for Qt's global thread pool: a translucent fill's spans were handed to it (and
    // waited for), and with an import on both cores each such wait was a core's, frames of over 100 ms at ten million
    // events. The pool is held busy for two seconds while a room with bubbles, cards, a selection and a turn's bar is
    // painted.
    void paintingTheTimelineNeverWaitsForThePool()
    {
        QTemporaryDir dir; // a copy of its own: the tests after this one import the fixture's copy in m_dir anew
        MainWindow window;
        showAndOpen(window, copyFixture(dir, QStringLiteral("roomkit/edge_cases.sqlite")));
        QTRY_VERIFY(window.eventModel()->rowCount() > 3);
        window.eventList()->setCurrentIndex(window.eventModel()->index(1, 0));
        QThreadPool* pool = QThreadPool::globalInstance();
        const int threads = pool->maxThreadCount();
        pool->setMaxThreadCount(1);
        QSemaphore busy;
        QSemaphore started;
        pool->start([&] {
            started.release();
            busy.acquire();
        });
        started.acquire();
        std::thread releaser([&] {
            std::this_thread::sleep_for(std::chrono::seconds(2));
            busy.release();
        });
        QElapsedTimer painted;
        painted.start();
        const QPixmap shot = window.timeline()->viewport()->grab();
        const qint64 ms = painted.elapsed();
        releaser.join();
        pool->waitForDone();
        pool->setMaxThreadCount(threads);
        QVERIFY(!shot.isNull());
        QVERIFY2(ms < 1000, qPrintable(QStringLiteral("the paint waited %1 ms").arg(ms)));
    }

    // A workspace of an older Sightline is upgraded as it opens (a minute at millions of events): the status bar says
    // so at once, and no more once it is open; its rooms show as before.
    void anOlderWorkspaceSaysItIsUpgraded()
    {
        const auto older = [this](const QString& name) {
            const QString path = m_dir.filePath(name);
            {
                Workspace ws(path);
                Importer::import(ws, copyFixture(m_dir, QStringLiteral("roomkit/support.sqlite")));
            }
            execSql(path, undoStepsFrom22() + QStringLiteral("PRAGMA user_version = 21;"));
            return path;
        };
        const QString path = older(QStringLiteral("older.sightline"));
        QCOMPARE(Schema::fileVersion(path), 21);
        QVERIFY(!QFile::exists(path + QStringLiteral("-wal"))); // read from the file's header: nothing made beside it
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QSignalSpy opened(window.store(), &StoreClient::workspaceOpened);
        QSignalSpy shown(&window, &MainWindow::roomsShown);
        window.openPath(path);
        QVERIFY2(window.statusMessage().startsWith(QLatin1String("Upgrading older.sightline for this version of Sightline")),
            qPrintable(window.statusMessage()));
        QVERIFY(opened.wait(10000));
        QVERIFY2(window.statusMessage().isEmpty(), qPrintable(window.statusMessage()));
        QVERIFY(shown.count() > 0 || shown.wait(10000));
        QCOMPARE(window.roomModel()->rowCount(), 8);
        // A workspace of this version says nothing; one opened while an older one was still upgrading takes its
        // message away.
        const QString current = m_dir.filePath(QStringLiteral("current.sightline"));
        {
            Workspace ws(current);
        }
        const QString second = older(QStringLiteral("older-too.sightline"));
        window.openPath(second);
        QVERIFY2(window.statusMessage().startsWith(QLatin1String("Upgrading older-too.sightline")),
            qPrintable(window.statusMessage()));
        opened.clear();
        window.openPath(current);
        QVERIFY2(!window.statusMessage().startsWith(QLatin1String("Upgrading")), qPrintable(window.statusMessage()));
        QVERIFY(opened.wait(10000));
        QVERIFY2(!window.statusMessage().startsWith(QLatin1String("Upgrading")), qPrintable(window.statusMessage()));
        QCOMPARE(Schema::fileVersion(m_dir.filePath(QStringLiteral("no-such.sightline"))), -1);
        QCOMPARE(Schema::fileVersion(m_dir.path()), -1); // a folder
        const QString store = copyFixture(m_dir, QStringLiteral("roomkit/support.sqlite"));
        QCOMPARE(Schema::fileVersion(store), -1); // an SQLite file, not a workspace
    }

    void opensAStoreAndShowsARoom()
    {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QSignalSpy shown(&window, &MainWindow::roomsShown);
        window.openPath(copyFixture(m_dir, QStringLiteral("roomkit/edge_cases.sqlite")));
        QVERIFY(shown.wait(10000));
        // The end of the import is said: what it read, into how many rooms, and how long it took.
        QVERIFY2(window.statusMessage().contains(
                     QRegularExpression(QStringLiteral("^Imported [0-9,]+ new events from edge_cases.sqlite into 2[0-9] rooms in [0-9.]+ s$"))),
            qPrintable(window.statusMessage()));
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QCOMPARE(window.roomModel()->rowCount(), 26);
        // The biggest room, read first, is picked as soon as it is whole and its events are shown, with the count
        // in the status bar: 24 events, its calls' ends folded into their cards.
        QString picked;
        for (const RoomSummary& r : window.roomModel()->rooms())
            if (r.id == window.roomList()->currentRoom())
                picked = r.nativeId;
        QCOMPARE(picked, QStringLiteral("edge-parallel-same-tool"));
        QTRY_COMPARE(window.eventModel()->rowCount(), 16);
        QTRY_COMPARE(window.statusText(), QStringLiteral("showing 24 of 24 events as 16 items"));

        // A room with blocked rows: they are left out by default, and the status says so. The timeline shows
        // the one call as one card; the raw rows show its end on its own.
        QVERIFY(selectRoomNamed(window, QStringLiteral("edge-blocked-inbound")));
        QTRY_COMPARE(window.statusText(), QStringLiteral("showing 10 of 13 events as 9 items"));
        QTRY_COMPARE(window.eventModel()->rowCount(), 9);
        // A room filter that leaves the room shown out of the list: the timeline keeps it, and says which it is.
        window.roomList()->filterEdit()->setText(QStringLiteral("no-such-room")); // every room left out
        QTRY_COMPARE(window.statusText(),
            QStringLiteral("showing 10 of 13 events as 9 items (room edge-blocked-inbound, hidden by the room filter)"));
        QVERIFY(window.windowTitle().contains(QLatin1String("edge-blocked-inbound")));
        window.roomList()->filterEdit()->clear();
        QTRY_COMPARE(window.statusText(), QStringLiteral("showing 10 of 13 events as 9 items"));
        // Go ▸ Room… (Ctrl+G): a part of one id goes there, and a room filter that hides it goes.
        window.roomList()->filterEdit()->setText(QStringLiteral("no-such-room"));
        QTRY_VERIFY(window.statusText().contains(QLatin1String("hidden by the room filter")));
        QVERIFY(window.goToRoom(QStringLiteral("tool-failed")));
        QVERIFY(window.roomList()->filterEdit()->text().isEmpty());
        QTRY_COMPARE(window.statusText(), QStringLiteral("showing 19 of 19 events as 14 items"));
        QVERIFY(window.windowTitle().contains(QLatin1String("edge-tool-failed")));
        QVERIFY(!window.goToRoom(QStringLiteral("edge-tool")));
        QVERIFY2(window.statusMessage().contains(QLatin1String("is part of")), qPrintable(window.statusMessage()));
        QVERIFY(!window.goToRoom(QStringLiteral("EDGE-BLOCKED-INBOUND")));
        QVERIFY2(window.statusMessage().contains(QLatin1String("did you mean edge-blocked-inbound")),
            qPrintable(window.statusMessage()));
        // Ctrl+G, a part of an id typed, its completion picked: one Return goes there (a second one was needed).
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QTest::keyClick(&window, Qt::Key_G, Qt::ControlModifier);
        QPointer<QInputDialog> go;
        QTRY_VERIFY((go = window.findChild<QInputDialog*>()) && go->isVisible());
        QLineEdit* typed = go->findChild<QLineEdit*>();
        QVERIFY(typed && typed->completer());
        QTest::keyClicks(typed, QStringLiteral("tool-fail"));
        QTRY_VERIFY(typed->completer()->popup()->isVisible());
        QTest::keyClick(typed->completer()->popup(), Qt::Key_Down);
        QTest::keyClick(typed->completer()->popup(), Qt::Key_Return);
        QTRY_VERIFY(window.windowTitle().contains(QLatin1String("edge-tool-failed")));
        QTRY_VERIFY(!go || !go->isVisible());
        // The same with no completion highlighted, the list still open: Return goes to what was typed, at once.
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QTest::keyClick(&window, Qt::Key_G, Qt::ControlModifier);
        QTRY_VERIFY((go = window.findChild<QInputDialog*>()) && go->isVisible());
        typed = go->findChild<QLineEdit*>();
        QTest::keyClicks(typed, QStringLiteral("blocked-inb"));
        QTRY_VERIFY(typed->completer()->popup()->isVisible());
        QTest::keyClick(typed->completer()->popup(), Qt::Key_Return);
        QTRY_VERIFY(window.windowTitle().contains(QLatin1String("edge-blocked-inbound")));
        QTRY_VERIFY(!go || !go->isVisible());
        window.activateWindow(); // the keys below go to the window again, not to where the dialog left them
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QVERIFY(window.goToRoom(QStringLiteral("edge-blocked-inbound")));
        QTRY_COMPARE(window.statusText(), QStringLiteral("showing 10 of 13 events as 9 items"));
        // A room with no events: the Filters pane's From and To are empty, not the last room's dates greyed out.
        QTRY_VERIFY(!window.filterPane()->toEdit()->text().isEmpty());
        QVERIFY(window.goToRoom(QStringLiteral("edge-empty-room")));
        QTRY_VERIFY(window.filterPane()->toEdit()->text().isEmpty() && window.filterPane()->fromEdit()->text().isEmpty());
        QVERIFY(window.goToRoom(QStringLiteral("edge-blocked-inbound")));
        QTRY_COMPARE(window.statusText(), QStringLiteral("showing 10 of 13 events as 9 items"));
        QTRY_VERIFY(!window.filterPane()->toEdit()->text().isEmpty());
        QVERIFY(!window.isRawMode());
        // The raw rows, not shown, do not hold the room (their header keeps an item a row: 6.4 million timeline
        // items in a big room were 50 MB and a frame of most of a second).
        QVERIFY(!window.rawList()->model());
        // The keys go where a reader's are, in the timeline: where Qt put the focus when the window opened is not
        // fixed (a line edit takes an R as text). Wide enough for the columns' first widths.
        window.resize(2200, 900);
        QTRY_VERIFY(window.eventList()->width() > 1000);
        window.eventList()->setFocus();
        QTest::keyClick(&window, Qt::Key_R);
        QVERIFY(window.isRawMode());
        QTRY_COMPARE(window.eventModel()->rowCount(), 10);
        QCOMPARE(window.eventList(), static_cast<QAbstractItemView*>(window.rawList()));
        QCOMPARE(window.rawList()->model(), window.eventModel());
        QCOMPARE(window.rawList()->horizontalHeader()->sectionSize(EventListModel::TypeColumn), 170);
        window.rawList()->horizontalHeader()->resizeSection(EventListModel::TypeColumn, 211); // as a reader drags it
        const QModelIndex first = window.eventList()->model()->index(0, EventListModel::TypeColumn);
        QTRY_COMPARE(first.data().toString(), QStringLiteral("channel_attached")); // once its block is in

        // Back to the timeline and to the raw rows again: a row picked there still fills the details, the
        // columns keep their widths, and the rows let go meanwhile said nothing.
        window.eventList()->setFocus();
        QTest::keyClick(&window, Qt::Key_R);
        QVERIFY(!window.isRawMode());
        QVERIFY(!window.rawList()->model());
        window.eventList()->setFocus();
        QTest::keyClick(&window, Qt::Key_R);
        QVERIFY(window.isRawMode());
        QCOMPARE(window.rawList()->horizontalHeader()->sectionSize(EventListModel::TypeColumn), 211);
        // Narrowed, the rows' text keeps two fifths of the view: the other columns give up width, not the text.
        window.resize(1300, 800);
        QTRY_VERIFY2(window.rawList()->columnViewportPosition(EventListModel::TextColumn)
                <= window.rawList()->viewport()->width() * 3 / 5 + 1,
            qPrintable(QStringLiteral("text at %1 of %2").arg(window.rawList()->columnViewportPosition(EventListModel::TextColumn)).arg(window.rawList()->viewport()->width())));
        QVERIFY(window.rawList()->horizontalHeader()->sectionSize(EventListModel::TypeColumn) < 211);
        QTRY_VERIFY(window.eventModel()->loadedRecord(3));
        const qint64 fourth = window.eventModel()->loadedRecord(3)->index;
        window.eventList()->setCurrentIndex(window.eventModel()->index(3, 0));
        QTRY_COMPARE(window.detailsPane()->details().record.index, fourth);

        // A call's end row selected in the raw rows is its card in the timeline, and the end row again on the way
        // back (it came back as the card's start).
        int endRow = -1;
        for (int row = 0; row < window.eventModel()->rowCount(); ++row) {
            const EventRecord* e = window.eventModel()->loadedRecord(row);
            if (e && e->type == QLatin1String("tool_call_end"))
                endRow = row;
        }
        QVERIFY(endRow >= 0);
        const qint64 end = window.eventModel()->loadedRecord(endRow)->index;
        window.eventList()->setCurrentIndex(window.eventModel()->index(endRow, 0));
        QTRY_COMPARE(window.detailsPane()->details().record.index, end);
        window.eventList()->setFocus();
        QTest::keyClick(&window, Qt::Key_R);
        QVERIFY(!window.isRawMode());
        QTRY_VERIFY(window.timeline()->currentIndex().data(EventListModel::CallRole).isValid());
        window.eventList()->setFocus();
        QTest::keyClick(&window, Qt::Key_R);
        QVERIFY(window.isRawMode());
        QTRY_COMPARE(window.detailsPane()->details().record.index, end);
        QTRY_COMPARE(window.eventList()->currentIndex().row(), endRow);
    }

    // A CraftBot sessions.db: each stream a room, the summary of what came before shown above its events.
    void craftBotSummaryOnTop()
    {
        MainWindow window;
        window.show();
        QSignalSpy shown(&window, &MainWindow::roomsShown);
        window.openPath(dataFile(QStringLiteral("craftbot/sessions.db")));
        QVERIFY(shown.wait(10000));
        QCOMPARE(window.roomModel()->rowCount(), 2);
        QVERIFY(selectRoomNamed(window, QStringLiteral("ef4a2f")));
        QTRY_COMPARE(window.statusText(), QStringLiteral("showing 24 of 24 events as 17 items"));
        QVERIFY(window.summaryText().contains(QLatin1String("Events rolled up for 2026-05-04T12:07:29")));
        QVERIFY(selectRoomNamed(window, QStringLiteral("__main__")));
        QTRY_COMPARE(window.statusText(), QStringLiteral("showing 101 of 101 events as 89 items"));
        QVERIFY(!window.summaryText().contains(QLatin1String("Events rolled up")));
        // Every CraftBot pair is a guess: the room says it once, and the cards badge only what is doubtful.
        QVERIFY(window.summaryText().contains(QLatin1String("paired by name and order")));
        TimelineDelegate* delegate = window.timeline()->timelineDelegate();
        QVERIFY(delegate->pairsGuessedByDesign());
        // Every block in memory first: a row whose block is still on its way has no call yet.
        window.eventModel()->fetchRows(0, window.eventModel()->rowCount() - 1);
        QTRY_VERIFY(!window.eventModel()->isLoading());
        int guessed = 0;
        for (int row = 0; row < window.eventModel()->rowCount(); ++row) {
            const QVariant call = window.eventModel()->index(row, 0).data(EventListModel::CallRole);
            if (!call.isValid())
                continue;
            const ToolCallRecord c = call.value<ToolCallRecord>();
            guessed += c.pairing == Pairing::Guessed;
            for (const TimelineDelegate::Badge& b : delegate->badgesOf(c)) {
                QVERIFY2(b.text != QLatin1String("guessed pair"), qPrintable(c.toolName));
                QVERIFY(!b.meaning.isEmpty()); // every badge says what it means on hover
            }
        }
        QVERIFY(guessed > 0);
        // Elsewhere a guessed pair keeps its badge, and every badge its meaning.
        delegate->setPairsGuessedByDesign(false);
        ToolCallRecord lone;
        lone.toolName = QStringLiteral("lookup");
        lone.pairing = Pairing::Guessed;
        lone.synthetic = true;
        lone.argumentsValid = false;
        QStringList texts;
        for (const TimelineDelegate::Badge& b : delegate->badgesOf(lone))
            texts << b.text;
        QCOMPARE(texts, QStringList({ QStringLiteral("synthetic end"), QStringLiteral("guessed pair"),
                            QStringLiteral("arguments not JSON") }));
        // An AG-UI thread's calls carry ids: its guessed pairs (none) would be badged.
        window.openPath(dataFile(QStringLiteral("agui")));
        QVERIFY(shown.wait(10000));
        QTRY_VERIFY(window.eventModel()->rowCount() > 0);
        QVERIFY(!delegate->pairsGuessedByDesign());
        QVERIFY(!window.summaryText().contains(QLatin1String("paired by name and order")));
    }

    void aboutNamesVersionsAndLicences()
    {
        MainWindow window;
        window.show();
        QAction* about = nullptr;
        for (QAction* a : window.findChildren<QAction*>()) {
            if (a->text() == QLatin1String("&About Sightline"))
                about = a;
        }
        QVERIFY(about);
        about->trigger();
        QMessageBox* box = nullptr;
        QTRY_VERIFY((box = window.findChild<QMessageBox*>(QStringLiteral("aboutSightline"))) != nullptr);
        QVERIFY(box->text().contains(QLatin1String(SIGHTLINE_VERSION)));
        QVERIFY(box->informativeText().contains(QLatin1String("LGPL-3.0-only")));
        QVERIFY(box->informativeText().contains(QLatin1String(qVersion())));
        QVERIFY(box->informativeText().contains(QLatin1String("SQLite")));
        box->close();
    }

    // Jumping between the calls that went wrong, reading one in full, and following it to its end.
    void problemCallsAndDetails()
    {
        QTemporaryDir dir;
        Workspace expected(dir.filePath(QStringLiteral("expected.sightline")));
        Importer::import(expected, dataFile(QStringLiteral("roomkit/edge_cases.sqlite")));
        const qint64 expectedRoom = expected.findRooms(QStringLiteral("edge-tool-failed")).first();
        QVector<ToolCallRecord> problems;
        for (const ToolCallRecord& c : expected.toolCalls(expectedRoom)) {
            if (Outcomes::name(c.outcome) == QLatin1String("failed") || Outcomes::name(c.outcome) == QLatin1String("refused")
                || Outcomes::name(c.outcome) == QLatin1String("unserved"))
                problems << c;
        }
        QCOMPARE(problems.size(), 4);

        MainWindow window;
        window.show();
        QSignalSpy shown(&window, &MainWindow::roomsShown);
        window.openPath(copyFixture(m_dir, QStringLiteral("roomkit/edge_cases.sqlite"), QStringLiteral("nav.sqlite")));
        QVERIFY(shown.wait(10000));
        QVERIFY(selectRoomNamed(window, QStringLiteral("edge-tool-failed")));
        QTRY_VERIFY(window.eventModel()->rowCount() > 0);
        window.eventList()->setFocus();

        auto currentIndex = [&window]() -> qint64 {
            const QModelIndex i = window.eventList()->currentIndex();
            const EventRecord* e = i.isValid() ? window.eventModel()->loadedRecord(i.row()) : nullptr;
            return e ? e->index : -1;
        };
        // ] walks through every call that went wrong, in order; [ walks back.
        for (const ToolCallRecord& c : problems) {
            QTest::keyClick(&window, Qt::Key_BracketRight);
            QTRY_COMPARE(currentIndex(), *c.startIndex);
        }
        QTest::keyClick(&window, Qt::Key_BracketLeft);
        QTRY_COMPARE(currentIndex(), *problems[2].startIndex);

        // The details pane shows the call, its payload as a tree and as stored, and links to its end.
        DetailsPane* details = window.detailsPane();
        QTRY_COMPARE(details->details().record.index, *problems[2].startIndex);
        QVERIFY(details->header()->text().contains(problems[2].toolName));
        QVERIFY(details->header()->text().contains(Outcomes::name(problems[2].outcome)));
        QVERIFY(details->model()->rowCount() > 5);
        QVERIFY(details->raw()->toPlainText().contains(QLatin1String("\"tool_call_start\"")));
        // The call whole, not its start alone (which said "pending" and no error): what Sightline made of it,
        // then its start and its end rows, the error among them.
        QStringList keys;
        for (int row = 0; row < details->model()->rowCount(); ++row)
            keys << details->model()->index(row, JsonTreeModel::KeyColumn).data().toString();
        QVERIFY2(keys.contains(QLatin1String("start")) && keys.contains(QLatin1String("end"))
                && keys.contains(QLatin1String("outcome")),
            qPrintable(keys.join(QLatin1Char(','))));
        QVERIFY(details->raw()->toPlainText().contains(QLatin1String("\"tool_call_end\"")));
        QVERIFY(!problems[2].error.isEmpty());
        QVERIFY(details->raw()->toPlainText().contains(problems[2].error.left(20)));
        QToolButton* toEnd = details->linkButton(QStringLiteral("end"));
        QVERIFY(toEnd->isVisibleTo(details));
        // The end is folded into its card: going to it stays in the timeline and opens the card.
        toEnd->click();
        QTRY_VERIFY(window.eventModel()->index(window.eventList()->currentIndex().row(), 0)
                        .data(EventListModel::ExpandedRole)
                        .toBool());
        QCOMPARE(currentIndex(), *problems[2].startIndex);
        QVERIFY(!window.isRawMode());
        // R keeps the event selected both ways: the start in the raw rows, then its end, then its card, then the end.
        QTest::keyClick(&window, Qt::Key_R);
        QVERIFY(window.isRawMode());
        QTRY_COMPARE(currentIndex(), *problems[2].startIndex);
        QTRY_VERIFY(toEnd->isVisibleTo(details));
        toEnd->click();
        QTRY_COMPARE(currentIndex(), *problems[2].endIndex);
        QTRY_COMPARE(details->details().record.type, QStringLiteral("tool_call_end"));
        // The end's Text tab says what the end says, the call's result; the row's own text names the call with its
        // arguments, as the card does (a new user read the arguments there and looked for the result).
        QVERIFY(!problems[2].result.isEmpty());
        QCOMPARE(details->text()->toPlainText(), problems[2].result);
        QVERIFY(details->text()->toPlainText() != details->details().record.text);
        QTest::keyClick(&window, Qt::Key_R);
        QVERIFY(!window.isRawMode());
        QTRY_COMPARE(currentIndex(), *problems[2].startIndex);
        // Back in the raw rows, the end row that was selected there, not the card's start.
        QTest::keyClick(&window, Qt::Key_R);
        QTRY_COMPARE(currentIndex(), *problems[2].endIndex);
        QTRY_COMPARE(details->details().record.index, *problems[2].endIndex);

        // j and k move one event.
        QTest::keyClick(&window, Qt::Key_J);
        QTRY_VERIFY(currentIndex() > *problems[2].endIndex);
        const qint64 after = currentIndex();
        QTest::keyClick(&window, Qt::Key_K);
        QTRY_VERIFY(currentIndex() < after);
        QTRY_COMPARE(details->details().record.index, currentIndex());

        // A value saved to a file is the value, whole.
        QModelIndex content;
        for (int row = 0; row < details->model()->rowCount(); ++row) {
            if (details->model()->index(row, 0).data().toString() == QLatin1String("content"))
                content = details->model()->index(row, 0);
        }
        QVERIFY(content.isValid());
        const QString file = dir.filePath(QStringLiteral("content.json"));
        QString error;
        QVERIFY(details->saveValue(content, file, &error));
        QFile saved(file);
        QVERIFY(saved.open(QIODevice::ReadOnly));
        QVERIFY(QJsonDocument::fromJson(saved.readAll()).object().contains(QLatin1String("tool_name")));
        QCOMPARE(details->pathText(content), QStringLiteral("$.content"));
    }

    // A call's card opens with Enter: taller, showing its arguments and result.
    // An AG-UI log from a runtime other than kaboo: the user's message only in the run's input shows as the
    // user's bubble, marked as such; a call with two results shows both in its details, and a redaction of the
    // first goes to its own row.
    // A bidi override and a NUL in a message: the details' header, Text and Raw tabs show them as their code points
    // ("invoice <RLO>fdp.exe" read "invoice exe.pdf"), and a selection made in what is shown is redacted where it is
    // in the payload, the character behind a code point one character.
    void detailsShowHiddenCharactersAsCodePoints()
    {
        const QString hostile
            = QStringLiteral("invoice ") + QChar(0x202E) + QStringLiteral("fdp.exe and") + QChar(0) + QStringLiteral("hidden");
        EventDetails d;
        d.record.index = 4;
        d.record.kind = EventKind::Message;
        d.record.type = QStringLiteral("message") + QChar(0x202E);
        d.record.text = hostile;
        d.payload = QJsonDocument(QJsonObject { { QStringLiteral("content"), QJsonObject { { QStringLiteral("body"), hostile } } } })
                        .toJson(QJsonDocument::Compact);
        DetailsPane pane;
        pane.setDetails(d);
        QVERIFY(pane.header()->text().contains(QLatin1String("message[U+202E]")));
        QCOMPARE(pane.text()->toPlainText(), QStringLiteral("invoice [U+202E]fdp.exe and[U+0000]hidden"));
        QVERIFY(pane.raw()->toPlainText().contains(QLatin1String("\"invoice [U+202E]fdp.exe and\\u0000hidden\"")));
        QVERIFY(!pane.raw()->toPlainText().contains(QChar(0x202E)));
        // "[U+202E]fdp" selected in the Text tab, then from inside the code point: the override and "fdp".
        for (const int from : { 8, 11 }) {
            pane.tabs()->setCurrentWidget(pane.text());
            QTextCursor inText = pane.text()->textCursor();
            inText.setPosition(from);
            inText.setPosition(19, QTextCursor::KeepAnchor);
            pane.text()->setTextCursor(inText);
            const DetailsPane::RedactionTarget t = pane.selectedText();
            QVERIFY2(t.error.isEmpty(), qPrintable(t.error));
            QCOMPARE(t.path, QStringLiteral("$.content.body"));
            QCOMPARE(t.start, 8);
            QCOMPARE(t.text, QChar(0x202E) + QStringLiteral("fdp"));
        }
        // The same in the Raw tab, inside the payload's string; and "hidden" after the NUL's code point.
        pane.tabs()->setCurrentWidget(pane.raw());
        for (const auto& [shown, start, text] : { std::tuple { QStringLiteral("[U+202E]fdp"), 8, QString(QChar(0x202E) + QStringLiteral("fdp")) },
                 std::tuple { QStringLiteral("hidden"), 21, QStringLiteral("hidden") } }) {
            const qsizetype at = pane.raw()->toPlainText().indexOf(shown);
            QVERIFY(at > 0);
            QTextCursor cursor = pane.raw()->textCursor();
            cursor.setPosition(int(at));
            cursor.setPosition(int(at + shown.size()), QTextCursor::KeepAnchor);
            pane.raw()->setTextCursor(cursor);
            const DetailsPane::RedactionTarget t = pane.selectedText();
            QVERIFY2(t.error.isEmpty(), qPrintable(t.error));
            QCOMPARE(t.path, QStringLiteral("$.content.body"));
            QCOMPARE(t.start, start);
            QCOMPARE(t.text, text);
        }
    }

    void snapshotMessagesAndEveryResult()
    {
        const QString path = m_dir.filePath(QStringLiteral("other-runtime.jsonl"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{\"type\":\"RUN_STARTED\",\"threadId\":\"t-9\",\"runId\":\"r1\",\"timestamp\":1767272400000,"
                   "\"input\":{\"messages\":[{\"id\":\"u1\",\"role\":\"user\",\"content\":\"Where is my parcel?\"}]}}\n"
                   "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"c1\",\"toolCallName\":\"track\",\"timestamp\":1767272400100}\n"
                   "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"c1\",\"delta\":\"{}\",\"timestamp\":1767272400110}\n"
                   "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"c1\",\"timestamp\":1767272400120}\n"
                   "{\"type\":\"TOOL_CALL_RESULT\",\"toolCallId\":\"c1\",\"messageId\":\"m1\",\"content\":\"in transit\",\"timestamp\":1767272400300}\n"
                   "{\"type\":\"TOOL_CALL_RESULT\",\"toolCallId\":\"c1\",\"messageId\":\"m2\",\"content\":\"delivered\",\"timestamp\":1767272400900}\n"
                   "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t-9\",\"runId\":\"r1\",\"timestamp\":1767272401000}\n");
        file.close();
        MainWindow window;
        showAndOpen(window, path);
        QTRY_COMPARE(window.statusText(), QStringLiteral("showing 7 of 7 events as 3 items"));
        EventListModel* model = window.eventModel();
        model->fetchRows(0, model->rowCount() - 1);
        QTRY_VERIFY(!model->isLoading());
        const EventRecord first = model->index(0, 0).data(EventListModel::RecordRole).value<EventRecord>();
        QCOMPARE(first.type, QStringLiteral("RUN_STARTED"));
        QCOMPARE(first.kind, EventKind::Run); // its type's kind, so that the Types pane adds up
        QCOMPARE(first.role, QStringLiteral("user"));
        QCOMPARE(first.text, QStringLiteral("Where is my parcel?"));
        QVERIFY(first.flags & EventFlags::FromSnapshot);
        QCOMPARE(TimelineLayout::shapeOf(first, false), TimelineLayout::Shape::Bubble);
        // The room is named after it, as a kaboo thread is after its first user message.
        QCOMPARE(window.roomModel()->rooms().value(0).title, QStringLiteral("Where is my parcel?"));
        window.eventList()->setCurrentIndex(model->index(0, 0));
        DetailsPane* details = window.detailsPane();
        QTRY_COMPARE(details->details().record.index, 0);
        QTRY_VERIFY2(details->header()->text().contains(QLatin1String("from the run's input")), qPrintable(details->header()->text()));

        // The call: both results, in order, the last the one that settled it.
        window.eventList()->setCurrentIndex(model->index(1, 0));
        QTRY_COMPARE(details->details().record.index, 1);
        const ToolCallRecord call = model->index(1, 0).data(EventListModel::CallRole).value<ToolCallRecord>();
        QCOMPARE(call.result, QStringLiteral("delivered"));
        const QString raw = details->raw()->toPlainText();
        QVERIFY2(raw.contains(QStringLiteral("── result 1 of 2 ──")) && raw.contains(QLatin1String("in transit"))
                && raw.indexOf(QLatin1String("in transit")) < raw.indexOf(QLatin1String("delivered")),
            qPrintable(raw));
        QModelIndex earlier;
        for (int row = 0; row < details->model()->rowCount(); ++row) {
            const QModelIndex key = details->model()->index(row, JsonTreeModel::KeyColumn);
            if (key.data().toString() == QLatin1String("result_1"))
                earlier = key;
        }
        QVERIFY(earlier.isValid());
        QModelIndex content;
        for (int row = 0; row < details->model()->rowCount(earlier); ++row) {
            const QModelIndex key = details->model()->index(row, JsonTreeModel::KeyColumn, earlier);
            if (key.data().toString() == QLatin1String("content"))
                content = key;
        }
        QVERIFY(content.isValid());
        const DetailsPane::RedactionTarget target = details->treeValue(content);
        QVERIFY2(target.error.isEmpty(), qPrintable(target.error));
        QCOMPARE(target.index, 4);
        QCOMPARE(target.path, QStringLiteral("$.content"));
        QCOMPARE(target.text, QStringLiteral("in transit"));
    }

    // What AG-UI's client refuses is said where a reviewer reads it: the card of a call whose START was replayed and
    // answered by a result alone carries a warning pill, its tooltip and the details pane say what, and is:warned
    // finds its row.
    void aWarningShowsOnItsRow()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("replayed.jsonl"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{\"type\":\"RUN_STARTED\",\"threadId\":\"t-w\",\"runId\":\"r1\",\"timestamp\":1767272400000}\n"
                   "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"tc-1\",\"toolCallName\":\"approve\",\"timestamp\":1767272400100}\n"
                   "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"tc-1\",\"timestamp\":1767272400200}\n"
                   "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t-w\",\"runId\":\"r1\",\"timestamp\":1767272400300}\n"
                   "{\"type\":\"RUN_STARTED\",\"threadId\":\"t-w\",\"runId\":\"r2\",\"timestamp\":1767272401000}\n"
                   "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"tc-1\",\"toolCallName\":\"approve\",\"timestamp\":1767272401100}\n"
                   "{\"type\":\"TOOL_CALL_RESULT\",\"toolCallId\":\"tc-1\",\"messageId\":\"tm-1\",\"content\":\"approved\",\"timestamp\":1767272401200}\n"
                   "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"tc-1\",\"timestamp\":1767272401300}\n"
                   "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t-w\",\"runId\":\"r2\",\"timestamp\":1767272401400}\n");
        file.close();
        MainWindow window;
        showAndOpen(window, path);
        EventListModel* model = window.eventModel();
        QTRY_VERIFY(model->rowCount() > 0);
        model->fetchRows(0, model->rowCount() - 1);
        QTRY_VERIFY(!model->isLoading());
        QModelIndex card;
        for (int row = 0; row < model->rowCount(); ++row) {
            if (model->index(row, 0).data(EventListModel::RecordRole).value<EventRecord>().index == 1)
                card = model->index(row, 0);
        }
        QVERIFY(card.isValid());
        QVERIFY(card.data(EventListModel::CallRole).isValid());
        const EventRecord e = card.data(EventListModel::RecordRole).value<EventRecord>();
        QVERIFY2(e.warning.startsWith(QLatin1String("TOOL_CALL_START for tc-1 came again")), qPrintable(e.warning));
        QVERIFY(card.data(Qt::ToolTipRole).toString().contains(QLatin1String("Warning: TOOL_CALL_START for tc-1 came again")));
        window.eventList()->setCurrentIndex(card);
        DetailsPane* details = window.detailsPane();
        QTRY_COMPARE(details->details().record.index, 1);
        QVERIFY2(details->header()->text().contains(QStringLiteral("⚠ TOOL_CALL_START for tc-1 came again")),
            qPrintable(details->header()->text()));
        // A row without one says none.
        for (int row = 0; row < model->rowCount(); ++row) {
            const EventRecord other = model->index(row, 0).data(EventListModel::RecordRole).value<EventRecord>();
            if (other.index != 1) {
                QVERIFY2(other.warning.isEmpty(), qPrintable(other.warning));
                QVERIFY(!model->index(row, 0).data(Qt::ToolTipRole).toString().contains(QLatin1String("Warning:")));
            }
        }
    }

    // View ▸ Tool Statistics (Ctrl+Shift+T): a room's calls by tool under the filter; a figure shows its calls,
    // a double click the tool's. The room list's tooltip has the room's own figures; its title takes the free width.
    void toolStatistics()
    {
        QTemporaryDir dir;
        MainWindow window;
        showAndOpen(window, copyFixture(dir, QStringLiteral("roomkit/support.sqlite")));
        QVERIFY(selectRoomNamed(window, QStringLiteral("sup-duplicate-charge")));
        QTRY_VERIFY(window.eventModel()->rowCount() > 0);
        ToolStatsDock* dock = window.toolStatsDock();
        QVERIFY(!dock->isVisible());
        QSignalSpy counted(dock, &ToolStatsDock::counted);
        window.eventList()->setFocus();
        QTest::keyClick(&window, Qt::Key_T, Qt::ControlModifier | Qt::ShiftModifier);
        QVERIFY(dock->isVisible());
        QVERIFY(counted.wait(10000));
        QAbstractItemModelTester tester(dock->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(dock->model()->rowCount(), 3);
        QCOMPARE(dock->model()->totalCalls(), 4); // eight tool rows, four calls
        QVERIFY2(dock->summary()->text().startsWith(QLatin1String("4 calls of 3 tools, counted in calls")), qPrintable(dock->summary()->text()));
        // Sorted by calls, most first: issue_refund, its two calls, one refused.
        QSortFilterProxyModel* proxy = dock->proxy();
        QCOMPARE(proxy->index(0, ToolStatsModel::ToolColumn).data().toString(), QStringLiteral("issue_refund"));
        QCOMPARE(proxy->index(0, ToolStatsModel::CallsColumn).data().toString(), QStringLiteral("2"));
        QCOMPARE(proxy->index(0, ToolStatsModel::MaxColumn).data().toString(), QStringLiteral("87 ms"));
        // Sorting by the longest call goes by the number, not the text.
        dock->view()->sortByColumn(ToolStatsModel::MaxColumn, Qt::DescendingOrder);
        QCOMPARE(proxy->index(0, ToolStatsModel::ToolColumn).data().toString(), QStringLiteral("lookup_order")); // 243 ms
        // A click on issue_refund's refused figure: its refused call alone.
        int refundRow = -1;
        for (int row = 0; row < proxy->rowCount(); ++row) {
            if (proxy->index(row, ToolStatsModel::ToolColumn).data().toString() == QLatin1String("issue_refund"))
                refundRow = row;
        }
        QVERIFY(refundRow >= 0);
        QTableView* table = dock->view();
        const QModelIndex refused = proxy->index(refundRow, ToolStatsModel::RefusedColumn);
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(refused).center());
        QTRY_COMPARE(window.filterBar()->edit()->text(), QStringLiteral("tool:issue_refund outcome:refused"));
        // Its card, the call's start and refused end.
        QTRY_COMPARE(window.statusText(), QStringLiteral("showing 2 of 24 events as 1 item"));
        QTRY_COMPARE(dock->model()->totalCalls(), 1);
        QVERIFY(dock->summary()->text().contains(QLatin1String("under the filter")));
        // A double click on the tool: all of its calls.
        const QModelIndex name = proxy->index(0, ToolStatsModel::ToolColumn);
        // As a mouse does it: a press and release, then the double click (QAbstractItemView wants the press).
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(name).center());
        QTest::mouseDClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(name).center());
        QTRY_COMPARE(window.filterBar()->edit()->text(), QStringLiteral("tool:issue_refund"));
        QTRY_COMPARE(dock->model()->totalCalls(), 2);

        // The room list: the title stretches, the counts fit; the tooltip gives the room's own figures.
        QHeaderView* header = window.roomList()->view()->header();
        QCOMPARE(header->sectionResizeMode(RoomListModel::RoomColumn), QHeaderView::Stretch);
        // Each count column as wide as its widest figure (worked out from the rooms, not measured at each refresh),
        // and a reviewer may drag it wider.
        QCOMPARE(header->sectionResizeMode(RoomListModel::EventsColumn), QHeaderView::Interactive);
        const QFontMetrics fm = window.roomList()->view()->fontMetrics();
        for (int column : { int(RoomListModel::EventsColumn), int(RoomListModel::ProblemsColumn), int(RoomListModel::BlockedColumn) }) {
            for (int row = 0; row < window.roomModel()->rowCount(); ++row) {
                const QString text = window.roomModel()->index(row, column).data().toString();
                QVERIFY2(header->sectionSize(column) >= fm.horizontalAdvance(text) + 8,
                    qPrintable(QStringLiteral("column %1: %2 px for %3").arg(column).arg(header->sectionSize(column)).arg(text)));
            }
            QVERIFY(header->sectionSize(column) >= header->fontMetrics().horizontalAdvance(
                        window.roomModel()->headerData(column, Qt::Horizontal).toString()));
        }
        QModelIndex duplicate;
        for (int row = 0; row < window.roomModel()->rowCount(); ++row) {
            if (window.roomModel()->rooms()[row].nativeId == QLatin1String("sup-duplicate-charge"))
                duplicate = window.roomModel()->index(row, RoomListModel::RoomColumn);
        }
        QVERIFY(duplicate.isValid());
        QVERIFY2(duplicate.data(Qt::ToolTipRole).toString().contains(QLatin1String("24 events, 4 tool calls (1 refused)")),
            qPrintable(duplicate.data(Qt::ToolTipRole).toString()));
    }

    // View ▸ Waterfall (Ctrl+Shift+W): the room's calls on a time line under the filter. A bar clicked selects its
    // card; a card selected shows its bar; zoom and fit; what is in view saved as PNG and SVG.
    void waterfall()
    {
        MainWindow window;
        showAndOpen(window, dataFile(QStringLiteral("agui")));
        QVERIFY(selectRoomNamed(window, QStringLiteral("maya.okafor__th_qh7rhj416fnzjz5q3vyw")));
        QTRY_VERIFY(window.eventModel()->rowCount() > 0);
        WaterfallDock* dock = window.waterfallDock();
        QSignalSpy laidOut(dock, &WaterfallDock::laidOut);
        QTest::keyClick(&window, Qt::Key_W, Qt::ControlModifier | Qt::ShiftModifier);
        QVERIFY(dock->isVisible());
        QVERIFY(laidOut.wait(10000));
        WaterfallView* view = dock->view();
        const WaterfallLayout& w = view->waterfall();
        // Two runs, five calls (three fetch_url in parallel, each in a lane of its own), the idle minutes between
        // the runs collapsed.
        QCOMPARE(w.bars.size(), 5);
        QCOMPARE(w.groups.size(), 2);
        QCOMPARE(w.gaps.size(), 1);
        QVERIFY2(dock->summary()->text().startsWith(QLatin1String("5 calls; 1 idle gap collapsed")), qPrintable(dock->summary()->text()));
        QSet<int> fetchRows;
        qsizetype failed = -1;
        for (qsizetype k = 0; k < w.bars.size(); ++k) {
            const ToolCallRecord& c = w.calls[w.bars[k].call];
            if (c.toolName == QLatin1String("fetch_url"))
                fetchRows.insert(w.bars[k].row);
            if (c.outcome == Outcome::Failed)
                failed = k;
        }
        QCOMPARE(fetchRows.size(), 3);
        QVERIFY(failed >= 0);
        // A click on the failed call's bar selects its card.
        view->fitAll();
        const QRectF bar = view->barRect(failed);
        QVERIFY(view->viewport()->rect().contains(bar.center().toPoint()));
        QVERIFY(view->describe(failed).contains(QLatin1String("fetch_url")));
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, bar.center().toPoint());
        const qint64 start = *w.calls[w.bars[failed].call].startIndex;
        QTRY_COMPARE(window.eventList()->currentIndex().data(EventListModel::EventIndexRole).toLongLong(), start);
        // A card selected in the timeline: its bar, selected and in view.
        const qsizetype other = failed == 0 ? 1 : 0;
        const qint64 otherStart = *w.calls[w.bars[other].call].startIndex;
        for (int row = 0; row < window.eventModel()->rowCount(); ++row) {
            const QModelIndex i = window.eventModel()->index(row, 0);
            if (i.data(EventListModel::EventIndexRole).toLongLong() == otherStart)
                window.eventList()->setCurrentIndex(i);
        }
        QTRY_COMPARE(view->selectedBar(), std::optional<qsizetype>(other));
        // Zoom in around a point, which stays put; fit all again.
        const double whole = view->scale();
        view->zoomBy(4, 100);
        QVERIFY(view->scale() < whole / 3);
        view->fitAll();
        QCOMPARE(view->scale(), whole);
        // A filter applies here too: the failed calls alone.
        window.filterBar()->setText(QStringLiteral("outcome:failed"));
        QTRY_COMPARE(view->waterfall().bars.size(), 1);
        // The dock's title counts the terms; its menu item keeps its name.
        QCOMPARE(window.filterDock()->windowTitle(), QStringLiteral("Filters: 1 term active"));
        QCOMPARE(window.filterDock()->toggleViewAction()->text(), QStringLiteral("Filter &Panes"));
        // Saved as PNG and SVG.
        QTemporaryDir dir;
        QString error;
        const QString png = dir.filePath(QStringLiteral("w.png"));
        QVERIFY2(dock->saveImage(png, &error), qPrintable(error));
        QImage image(png);
        QVERIFY(!image.isNull());
        QCOMPARE(image.width(), view->viewport()->width() * int(view->devicePixelRatioF()));
        QVERIFY(image.height() > view->viewport()->height()); // the caption line above it
        const QString svg = dir.filePath(QStringLiteral("w.svg"));
        QVERIFY2(dock->saveImage(svg, &error), qPrintable(error));
        QFile file(svg);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray drawn = file.readAll();
        QVERIFY(drawn.contains("<svg") && drawn.contains("fetch_url"));
        // It says what it shows: the room and the filter.
        QVERIFY(drawn.contains("maya.okafor__th_qh7rhj416fnzjz5q3vyw") && drawn.contains("filter: outcome:failed"));
        QVERIFY(!dock->saveImage(dir.filePath(QStringLiteral("no/such/folder/w.png")), &error));
        QVERIFY(!error.isEmpty());
        // Tool Statistics shares the waterfall's tab: its shortcut brings it to the front, and back.
        QTest::keyClick(&window, Qt::Key_T, Qt::ControlModifier | Qt::ShiftModifier);
        QTRY_VERIFY(!window.toolStatsDock()->visibleRegion().isEmpty());
        QVERIFY(!dock->isHidden());
        QTest::keyClick(&window, Qt::Key_W, Qt::ControlModifier | Qt::ShiftModifier);
        QTRY_VERIFY(!dock->visibleRegion().isEmpty());
        QTest::keyClick(&window, Qt::Key_W, Qt::ControlModifier | Qt::ShiftModifier);
        QTRY_VERIFY(dock->isHidden()); // in front: the shortcut hides it
    }

    // A room list that only comes again (the half second's refresh after an import, a note's count) leaves the
    // room shown as it is, its row index and count still on their way or not: it used to read the room again
    // from its start, which lost the row just gone to with ].
    void aListThatAgreesLeavesTheRoomBe()
    {
        MainWindow window;
        showAndOpen(
            window, copyFixture(m_dir, QStringLiteral("roomkit/edge_cases.sqlite"), QStringLiteral("again.sqlite")));
        if (QTest::currentTestFailed())
            return;
        auto* store = window.findChild<StoreClient*>();
        QVERIFY(store);
        QVERIFY(selectRoomNamed(window, QStringLiteral("edge-tool-failed")));
        QSignalSpy resets(window.eventModel(), &QAbstractItemModel::modelReset);
        // The same list again at once, before the room's row index and count have come (as on a busy machine).
        emit store->roomsLoaded(0, window.roomModel()->rooms());
        QTRY_VERIFY(window.eventModel()->totalCount() > 0);
        QCOMPARE(resets.count(), 0);
        QVERIFY(window.eventModel()->rowCount() > 0);
    }

    void openACard()
    {
        MainWindow window;
        showAndOpen(
            window, copyFixture(m_dir, QStringLiteral("roomkit/edge_cases.sqlite"), QStringLiteral("card.sqlite")));
        if (QTest::currentTestFailed())
            return;
        QVERIFY(selectRoomNamed(window, QStringLiteral("edge-tool-failed")));
        QTRY_VERIFY(window.eventModel()->rowCount() > 0);
        // ] pressed in the room list: the first call that went wrong is selected, and the keys go to it.
        window.roomList()->view()->setFocus();
        QTest::keyClick(&window, Qt::Key_BracketRight);
        QTRY_VERIFY(window.timeline()->currentIndex().data(EventListModel::CallRole).isValid());
        QTRY_VERIFY(window.timeline()->hasFocus());
        const QModelIndex card = window.timeline()->currentIndex();
        QCOMPARE(card.data(EventListModel::CallRole).value<ToolCallRecord>().outcome == Outcome::Served, false);
        const int closed = window.timeline()->visualRect(card).height();
        QTest::keyClick(window.timeline(), Qt::Key_Return);
        QVERIFY(card.data(EventListModel::ExpandedRole).toBool());
        QTRY_VERIFY(
            window.timeline()->visualRect(card).height() > closed + 3 * window.timeline()->fontMetrics().lineSpacing());
        QTest::keyClick(window.timeline(), Qt::Key_Space);
        QVERIFY(!card.data(EventListModel::ExpandedRole).toBool());
        QTRY_COMPARE(window.timeline()->visualRect(card).height(), closed);

        // Ctrl+C copies the call whole as JSON (it copied the row's index), its arguments parsed, and says so.
        const ToolCallRecord call = card.data(EventListModel::CallRole).value<ToolCallRecord>();
        QGuiApplication::clipboard()->clear();
        QTest::keyClick(window.timeline(), Qt::Key_C, Qt::ControlModifier);
        QCOMPARE(window.statusMessage(), QStringLiteral("Copied the call as JSON"));
        // The title names the file open ([*] is where an unsaved change shows) and the room shown.
        QCOMPARE(window.windowTitle(), QStringLiteral("card.sqlite[*] — edge-tool-failed — Sightline"));
        QVERIFY(!window.isWindowModified());
        const QJsonObject copied = QJsonDocument::fromJson(QGuiApplication::clipboard()->text().toUtf8()).object();
        QCOMPARE(copied.value(QLatin1String("tool_name")).toString(), call.toolName);
        QCOMPARE(copied.value(QLatin1String("outcome")).toString(), Outcomes::name(call.outcome));
        QVERIFY(copied.value(QLatin1String("arguments")).isObject());
        // The card's menu: the call, its arguments, its result, the event, a reference to find it again.
        std::unique_ptr<QMenu> menu(window.eventActions()->menuFor(card, &window));
        QStringList items;
        for (QAction* a : menu->actions())
            items << a->text();
        // Then, after a separator, what a reviewer does with it: mark it, note it, label it.
        QCOMPARE(items,
            QStringList({ QStringLiteral("Copy Call as JSON"), QStringLiteral("Copy Arguments"),
                QStringLiteral("Copy Result"), QStringLiteral("Copy Event as JSON"),
                QStringLiteral("Copy Reference (Source, Room, Index)"), QString(), QStringLiteral("Mark"),
                QStringLiteral("Add &Note…"), QStringLiteral("Add &Label…"), QStringLiteral("Redact Whole Event…"), QString(),
                // ... and what an editor changes of a call: its arguments, result, outcome and pair.
                QStringLiteral("Edit Arguments…"), QStringLiteral("Edit &Result…"), QStringLiteral("Set &Outcome"),
                QStringLiteral("&Unlink End from Start") }));
        menu->actions().at(1)->trigger();
        QCOMPARE(QJsonDocument::fromJson(QGuiApplication::clipboard()->text().toUtf8()),
            QJsonDocument::fromJson(call.arguments.toUtf8()));
        menu->actions().at(4)->trigger();
        const QString reference = QGuiApplication::clipboard()->text();
        QVERIFY2(reference.contains(QLatin1String("card.sqlite")) && reference.contains(QLatin1String("edge-tool-failed"))
                && reference.endsWith(QStringLiteral("index %1").arg(*call.startIndex)),
            qPrintable(reference));
        // A message copies its text.
        QTest::keyClick(window.timeline(), Qt::Key_Home);
        QModelIndex message;
        for (int row = 0; row < window.eventModel()->rowCount() && !message.isValid(); ++row) {
            const QModelIndex i = window.eventModel()->index(row, 0);
            if (i.data(EventListModel::RecordRole).value<EventRecord>().type == QLatin1String("message"))
                message = i;
        }
        QVERIFY(message.isValid());
        window.timeline()->setCurrentIndex(message);
        QTest::keyClick(window.timeline(), Qt::Key_C, Qt::ControlModifier);
        QCOMPARE(QGuiApplication::clipboard()->text(), message.data(EventListModel::RecordRole).value<EventRecord>().text);
    }

    // The filter bar: a filter typed and applied shows the cards it matches and says so in the status bar; a
    // mistake is shown in place while the last valid filter stays; Alt+Left goes back to the one before.
    void filterBar()
    {
        MainWindow window;
        showAndOpen(
            window, copyFixture(m_dir, QStringLiteral("roomkit/edge_cases.sqlite"), QStringLiteral("filter.sqlite")));
        if (QTest::currentTestFailed())
            return;
        QVERIFY(selectRoomNamed(window, QStringLiteral("edge-tool-failed")));
        QTRY_COMPARE(window.statusText(), QStringLiteral("showing 19 of 19 events as 14 items"));
        EventListModel* model = window.eventModel();
        auto shownIndexes = [model] {
            QVector<qint64> out;
            for (int row = 0; row < model->rowCount(); ++row)
                out << (model->loadedRecord(row) ? model->loadedRecord(row)->index : -1);
            return out;
        };

        // The room's own values complete, beside the field names.
        FilterBar* bar = window.filterBar();
        QTRY_VERIFY(bar->completions().contains(QStringLiteral("tool:get_tracking")));
        QVERIFY(bar->completions().contains(QStringLiteral("type:tool_call_end")));
        QVERIFY(bar->completions().contains(QStringLiteral("outcome:refused")));

        QTest::keyClick(&window, Qt::Key_F, Qt::ControlModifier);
        QTRY_VERIFY(bar->edit()->hasFocus());
        QTest::keyClicks(bar->edit(), QStringLiteral("outcome:failed"));
        QTest::keyClick(bar->edit(), Qt::Key_Return);
        // The two calls that failed, each one card at its start, which carries its call's outcome.
        QTRY_COMPARE(shownIndexes(), (QVector<qint64> { 3, 8 }));
        for (int row = 0; row < 2; ++row)
            QCOMPARE(model->index(row, 0).data(EventListModel::CallRole).value<ToolCallRecord>().outcome,
                Outcome::Failed);
        QTRY_COMPARE(window.statusText(), QStringLiteral("showing 4 of 19 events as 2 items")); // their starts and ends
        QVERIFY(bar->error().isEmpty());

        // Half a word, then a pause: the field is marked, the banner waits for Enter.
        bar->edit()->selectAll();
        QTest::keyClicks(bar->edit(), QStringLiteral("outcome:fa"));
        QTest::qWait(600);
        QVERIFY(bar->error().isEmpty());
        QVERIFY(bar->edit()->toolTip().contains(QLatin1String("outcome: is one of")));
        QCOMPARE(shownIndexes(), (QVector<qint64> { 3, 8 }));

        // A mistake: said where, and the cards stay as they were.
        bar->edit()->selectAll();
        QTest::keyClicks(bar->edit(), QStringLiteral("outcome:failed kind:colour"));
        QTest::keyClick(bar->edit(), Qt::Key_Return);
        QVERIFY2(bar->error().contains(QLatin1String("Column 16")), qPrintable(bar->error()));
        QVERIFY(bar->error().contains(QLatin1String("kind: is one of")));
        QCOMPARE(shownIndexes(), (QVector<qint64> { 3, 8 }));
        // A word with a colon that names no field is text, and a note under the bar says so (a typo is seen).
        bar->edit()->selectAll();
        QTest::keyClicks(bar->edit(), QStringLiteral("outcome:failed colour:red"));
        QTest::keyClick(bar->edit(), Qt::Key_Return);
        QVERIFY(bar->error().isEmpty());
        QVERIFY2(bar->note().contains(QLatin1String("\"colour\" is not a field")), qPrintable(bar->note()));
        QTRY_COMPARE(window.statusText(), QStringLiteral("showing 0 of 19 events"));
        bar->edit()->selectAll();
        QTest::keyClicks(bar->edit(), QStringLiteral("outcome:failed"));
        QTest::keyClick(bar->edit(), Qt::Key_Return);
        QVERIFY(bar->note().isEmpty());
        QTRY_COMPARE(shownIndexes(), (QVector<qint64> { 3, 8 }));

        // The card selected and opened stays so under another filter that shows it, wherever it falls; a filter that
        // leaves it out selects nothing, and says nothing.
        auto selected = [&window, model] {
            const QModelIndex current = window.timeline()->currentIndex();
            const EventRecord* e = current.isValid() ? model->loadedRecord(current.row()) : nullptr;
            return e ? e->index : -1;
        };
        window.timeline()->setCurrentIndex(model->index(1, 0));
        QVERIFY(model->setData(model->index(1, 0), true, EventListModel::ExpandedRole));
        QCOMPARE(selected(), 8);
        window.filterBar()->setText(QStringLiteral("kind:tool_call"));
        QTRY_COMPARE(shownIndexes(), (QVector<qint64> { 3, 8, 9, 14, 16 }));
        QTRY_COMPARE(selected(), 8);
        QVERIFY(window.timeline()->currentIndex().data(EventListModel::ExpandedRole).toBool());
        window.filterBar()->setText(QStringLiteral("type:message"));
        QTRY_VERIFY(!shownIndexes().contains(8) && !shownIndexes().isEmpty());
        QTest::qWait(200);
        QCOMPARE(selected(), -1);
        QVERIFY(!window.statusBar()->currentMessage().contains(QLatin1String("not shown")));
        window.filterBar()->setText(QStringLiteral("outcome:failed"));
        QTRY_COMPARE(shownIndexes(), (QVector<qint64> { 3, 8 }));

        // Another filter, then back and forward through the ones applied.
        bar->edit()->selectAll();
        QTest::keyClicks(bar->edit(), QStringLiteral("tool:lookup_order -outcome:served"));
        QTest::keyClick(bar->edit(), Qt::Key_Return);
        QVERIFY(bar->error().isEmpty());
        QTRY_COMPARE(shownIndexes(), (QVector<qint64> { 14 })); // the refused call: its end said missing argument
        window.timeline()->setFocus();
        QTest::keyClick(&window, Qt::Key_Left, Qt::AltModifier);
        QTRY_COMPARE(shownIndexes(), (QVector<qint64> { 3, 8 }));
        QCOMPARE(bar->edit()->text(), QStringLiteral("outcome:failed"));
        QTest::keyClick(&window, Qt::Key_Right, Qt::AltModifier);
        QTRY_COMPARE(shownIndexes(), (QVector<qint64> { 14 }));

        // Another room keeps the filter (it has no lookup_order call); clearing it shows everything again.
        QVERIFY(selectRoomNamed(window, QStringLiteral("edge-tool-refused-policy")));
        QTRY_COMPARE(window.statusText(), QStringLiteral("showing 0 of 6 events"));
        QCOMPARE(model->rowCount(), 0);
        QCOMPARE(window.timeline()->emptyText(), QStringLiteral("No event of the 6 in this room matches the filter."));
        QTRY_VERIFY(bar->completions().contains(QStringLiteral("tool:delete_account")));
        QVERIFY(!bar->completions().contains(QStringLiteral("tool:get_tracking")));
        bar->edit()->clear();
        QTRY_COMPARE(window.statusText(), QStringLiteral("showing 6 of 6 events as 5 items"));
        QCOMPARE(model->totalCount(), 6);
        // The raw rows are the events themselves: no items to count apart.
        QTest::keyClick(&window, Qt::Key_R);
        QTRY_COMPARE(window.statusText(), QStringLiteral("showing 6 of 6 events"));
        QTest::keyClick(&window, Qt::Key_R);
        QTRY_COMPARE(window.statusText(), QStringLiteral("showing 6 of 6 events as 5 items"));
        QVERIFY(window.timeline()->emptyText().isEmpty());
    }

    // A room of twenty thousand items: End shows the last one at the bottom of the timeline at once, with its
    // details, and Home the first, reading only the blocks on screen.
    // The panes beside the timeline: ticking a value, the blocked rows and a stretch of time write the filter
    // into the bar, and the timeline and "X of Y" follow; the counts are faceted; the bar's text ticks the panes.
    void filterPanes()
    {
        MainWindow window;
        showAndOpen(
            window, copyFixture(m_dir, QStringLiteral("roomkit/edge_cases.sqlite"), QStringLiteral("panes.sqlite")));
        if (QTest::currentTestFailed())
            return;
        QVERIFY(window.filterDock()->isVisible());
        QVERIFY(selectRoomNamed(window, QStringLiteral("edge-blocked-inbound")));
        // The manifest: 13 events, 3 of them blocked (hidden by default), 7 messages.
        QTRY_COMPARE(window.statusText(), QStringLiteral("showing 10 of 13 events as 9 items"));
        FilterPane* pane = window.filterPane();
        FacetModel* facets = pane->model();
        FilterBar* bar = window.filterBar();
        QTRY_COMPARE(pane->blockedCount()->text(), QStringLiteral("3 blocked rows, hidden"));
        auto count = [&](const QString& field, const QString& value) {
            return facets->valueIndex(field, value).data(FacetModel::CountRole).toLongLong();
        };
        auto ticked = [&](const QString& field, const QString& value) {
            return facets->valueIndex(field, value).data(Qt::CheckStateRole).value<Qt::CheckState>() == Qt::Checked;
        };

        pane->blockedChoice()->button(1)->click(); // Include
        QCOMPARE(bar->edit()->text(), QStringLiteral("blocked:include"));
        QTRY_COMPARE(window.statusText(), QStringLiteral("showing 13 of 13 events as 12 items"));
        QTRY_COMPARE(count(QStringLiteral("type"), QStringLiteral("message")), 7);
        QCOMPARE(count(QStringLiteral("channel"), QStringLiteral("ws-web")), 4);

        // Tick "message" the way the view does: through the proxy, with the check state.
        auto* proxy = qobject_cast<QAbstractProxyModel*>(pane->values()->model());
        QVERIFY(proxy);
        const QModelIndex message
            = proxy->mapFromSource(facets->valueIndex(QStringLiteral("type"), QStringLiteral("message")));
        QVERIFY(message.isValid());
        QVERIFY(proxy->setData(message, Qt::Checked, Qt::CheckStateRole));
        QCOMPARE(bar->edit()->text(), QStringLiteral("type:message blocked:include"));
        QTRY_COMPARE(window.statusText(), QStringLiteral("showing 7 of 13 events"));
        QVERIFY(ticked(QStringLiteral("type"), QStringLiteral("message")));
        for (int row = 0; row < window.eventModel()->rowCount(); ++row)
            QTRY_COMPARE(window.eventModel()->index(row, 0).data(EventListModel::RecordRole).value<EventRecord>().type,
                QStringLiteral("message"));
        // Faceted: the types keep their own counts, the channels count messages alone.
        QTRY_VERIFY(count(QStringLiteral("channel"), QStringLiteral("system")) < 4);
        QCOMPARE(count(QStringLiteral("type"), QStringLiteral("channel_attached")), 3);
        qint64 channels = 0;
        for (const FacetValue& v : facets->counts().fields.value(QStringLiteral("channel")))
            channels += v.count;
        QCOMPARE(channels, 7);

        // Only the blocked rows: the count of them stays in sight.
        pane->blockedChoice()->button(2)->click();
        QCOMPARE(bar->edit()->text(), QStringLiteral("type:message blocked:only"));
        QTRY_COMPARE(pane->blockedCount()->text(), QStringLiteral("3 blocked rows"));
        QTRY_VERIFY(window.eventModel()->isIndexed());
        const qint64 blockedMessages = window.eventModel()->shownCount();
        QVERIFY(blockedMessages > 0 && blockedMessages <= 3);
        pane->blockedChoice()->button(0)->click();
        QTRY_COMPARE(window.statusText(), QStringLiteral("showing %1 of 13 events").arg(7 - blockedMessages));

        // A stretch of time dragged across the histogram becomes after: and before:; All takes it away.
        TimeHistogram* histogram = pane->histogram();
        QTRY_VERIFY(!histogram->bins().isEmpty());
        const int y = histogram->height() / 2;
        QTest::mousePress(histogram, Qt::LeftButton, {}, QPoint(histogram->width() / 4, y));
        QTest::mouseMove(histogram, QPoint(histogram->width() * 3 / 4, y));
        QTest::mouseRelease(histogram, Qt::LeftButton, {}, QPoint(histogram->width() * 3 / 4, y));
        QVERIFY2(bar->edit()->text().contains(QLatin1String("after:")), qPrintable(bar->edit()->text()));
        QVERIFY(bar->edit()->text().contains(QLatin1String("before:")));
        QCOMPARE(*bar->filter().afterMicros, histogram->timeAt(histogram->width() / 4) / 1000000 * 1000000);
        QTRY_COMPARE(*TimeUtil::parseUserTime(pane->fromEdit()->text()), *bar->filter().afterMicros / 1000000 * 1000000);
        QTRY_VERIFY(window.eventModel()->shownCount() < 7 - blockedMessages);
        QToolButton* all = nullptr;
        for (QToolButton* b : pane->findChildren<QToolButton*>())
            if (b->text() == QLatin1String("All"))
                all = b;
        QVERIFY(all);
        all->click();
        QCOMPARE(bar->edit()->text(), QStringLiteral("type:message"));
        QTRY_COMPARE(window.statusText(), QStringLiteral("showing %1 of 13 events").arg(7 - blockedMessages));

        // From and To take a date and time typed whole.
        QLineEdit* from = pane->fromEdit();
        const QDateTime start = QDateTime::fromString(from->text(), QStringLiteral("yyyy-MM-dd HH:mm:ss"));
        QVERIFY(start.isValid());
        from->setFocus();
        from->selectAll();
        QTest::keyClicks(from, start.addSecs(60).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")));
        QTest::keyClick(from, Qt::Key_Return);
        QTRY_VERIFY2(bar->edit()->text().contains(QLatin1String("after:")), qPrintable(bar->edit()->text()));
        QCOMPARE(*bar->filter().afterMicros, start.addSecs(60).toMSecsSinceEpoch() * 1000);
        all->click();
        QCOMPARE(bar->edit()->text(), QStringLiteral("type:message"));
        // A mistake is marked, said under the fields, and leaves the filter as it was; so is From after To.
        from->selectAll();
        QTest::keyClicks(from, QStringLiteral("yesterday"));
        QTest::keyClick(from, Qt::Key_Return);
        QVERIFY(from->toolTip().startsWith(QLatin1String("Not a time")));
        QVERIFY(pane->timeNote()->isVisible() && pane->timeNote()->text().contains(QStringLiteral("“yesterday” is not a time")));
        QCOMPARE(bar->edit()->text(), QStringLiteral("type:message"));
        from->setText(start.addDays(2).toString(QStringLiteral("yyyy-MM-dd")));
        QTest::keyClick(from, Qt::Key_Return);
        QVERIFY(pane->timeNote()->text().contains(QLatin1String("From is after To")));
        QCOMPARE(bar->edit()->text(), QStringLiteral("type:message"));
        // A day alone in To is the whole day.
        from->setText(start.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")));
        QLineEdit* to = pane->toEdit();
        to->setText(start.toString(QStringLiteral("yyyy-MM-dd")));
        QTest::keyClick(to, Qt::Key_Return);
        QVERIFY(!pane->timeNote()->isVisible());
        QTRY_COMPARE(window.statusText(), QStringLiteral("showing %1 of 13 events").arg(7 - blockedMessages));
        // A To past the room's end is a bound all the same (a followed source's later events stay out of it).
        QTRY_VERIFY2(bar->edit()->text().contains(QLatin1String("before:")), qPrintable(bar->edit()->text()));
        QCOMPARE(*bar->filter().beforeMicros, start.date().addDays(1).startOfDay().toMSecsSinceEpoch() * 1000);
        all->click();
        QCOMPARE(bar->edit()->text(), QStringLiteral("type:message"));

        // The bar's text ticks the panes.
        bar->setText(QStringLiteral("channel:ws-web -type:channel_attached"));
        QVERIFY(ticked(QStringLiteral("channel"), QStringLiteral("ws-web")));
        QVERIFY(!ticked(QStringLiteral("type"), QStringLiteral("message")));
        QVERIFY(facets->valueIndex(QStringLiteral("type"), QStringLiteral("channel_attached"))
                    .data(FacetModel::ExcludedRole)
                    .toBool());
        QCOMPARE(pane->blockedChoice()->checkedId(), 0);

        // An active filter is seen at a glance: the dock's title counts its terms, the bar is tinted.
        QCOMPARE(window.filterDock()->windowTitle(), QStringLiteral("Filters: 2 terms active"));
        QVERIFY(bar->isActive());
        QVERIFY(bar->edit()->palette().color(QPalette::Base) != QApplication::palette().color(QPalette::Base));

        // A quick range longer than the room says so (the room spans a few minutes).
        for (QToolButton* b : pane->findChildren<QToolButton*>()) {
            if (b->text() == QLatin1String("1 day"))
                b->click();
        }
        QVERIFY(pane->timeNote()->isVisible());
        QVERIFY2(pane->timeNote()->text().contains(QLatin1String("all of it within the last 1 day")),
            qPrintable(pane->timeNote()->text()));

        // A filter carried to a room without its value: the value is listed (in italics, "this room has none")
        // so that it can be unticked.
        bar->setText(QStringLiteral("tool:delete_account"));
        QVERIFY(!pane->timeNote()->isVisible());
        QVERIFY(selectRoomNamed(window, QStringLiteral("edge-plain-multichannel")));
        QTRY_COMPARE(window.statusText(), QStringLiteral("showing 0 of 11 events"));
        QTRY_COMPARE(facets->counts().roomId, window.eventModel()->roomId());
        const QModelIndex absent = facets->valueIndex(QStringLiteral("tool"), QStringLiteral("delete_account"));
        QVERIFY(absent.isValid());
        QVERIFY(!absent.data(FacetModel::InRoomRole).toBool());
        QVERIFY(absent.data(Qt::FontRole).value<QFont>().italic());
        QVERIFY(absent.data(Qt::ToolTipRole).toString().contains(QLatin1String("this room has none")));
        QVERIFY(ticked(QStringLiteral("tool"), QStringLiteral("delete_account")));
        // The room's own values are listed under the filter that leaves them all out, with 0.
        QVERIFY(facets->valueIndex(QStringLiteral("type"), QStringLiteral("message")).isValid());
        QCOMPARE(count(QStringLiteral("type"), QStringLiteral("message")), 0);
        QVERIFY(facets->valueIndex(QStringLiteral("channel"), QStringLiteral("sms-twilio")).isValid());
        QVERIFY(facets->setData(absent, Qt::Unchecked, Qt::CheckStateRole));
        QCOMPARE(bar->edit()->text(), QString());
        QCOMPARE(window.filterDock()->windowTitle(), QStringLiteral("Filters"));
        QVERIFY(!bar->isActive());
        QTRY_COMPARE(window.statusText(), QStringLiteral("showing 11 of 11 events"));
        QVERIFY(selectRoomNamed(window, QStringLiteral("edge-blocked-inbound")));

        // Hidden, the panes cost nothing; shown again they count what they missed.
        window.filterDock()->hide();
        bar->setText(QString());
        QTRY_COMPARE(window.statusText(), QStringLiteral("showing 10 of 13 events as 9 items"));
        window.filterDock()->show();
        QTRY_COMPARE(facets->counts().shown, 10);
    }

    // Find in the room: the matches under the filter, F3 and Shift+F3 round them with "n of N"; a card matches by
    // its result; All Rooms lists every room's matches and opens one.
    void search()
    {
        MainWindow window;
        showAndOpen(
            window, copyFixture(m_dir, QStringLiteral("roomkit/edge_cases.sqlite"), QStringLiteral("search.sqlite")));
        if (QTest::currentTestFailed())
            return;
        QVERIFY(selectRoomNamed(window, QStringLiteral("edge-tool-failed")));
        QTRY_COMPARE(window.statusText(), QStringLiteral("showing 19 of 19 events as 14 items"));
        SearchBar* search = window.searchBar();
        window.timeline()->setFocus();
        QTest::keyClick(&window, Qt::Key_F, Qt::ControlModifier | Qt::ShiftModifier);
        QTRY_VERIFY(search->edit()->hasFocus());
        // "502" is in the result of the call that failed at 8..10: its card is the match.
        QTest::keyClicks(search->edit(), QStringLiteral("502"));
        QTest::keyClick(search->edit(), Qt::Key_Return);
        QTRY_COMPARE(window.searchMatches(), QVector<qint64>({ 8 }));
        QTRY_COMPARE(window.timeline()->currentIndex().data(EventListModel::RecordRole).value<EventRecord>().index, 8);
        QTRY_COMPARE(search->positionText(), QStringLiteral("1 of 1"));
        QCOMPARE(window.statusText(), QStringLiteral("showing 19 of 19 events as 14 items")); // nothing hidden
        // The card found is opened: the word is in its result, which a closed card does not show.
        QTRY_VERIFY(window.timeline()->currentIndex().data(EventListModel::ExpandedRole).toBool());

        // Under a filter of messages, A-404 is in two of them.
        window.filterBar()->setText(QStringLiteral("type:message"));
        search->edit()->selectAll();
        QTest::keyClicks(search->edit(), QStringLiteral("A-404"));
        QTest::keyClick(search->edit(), Qt::Key_Return);
        QTRY_COMPARE(window.searchMatches(), QVector<qint64>({ 6, 12 }));
        auto current = [&] {
            const EventRecord* e = window.eventModel()->loadedRecord(window.timeline()->currentIndex().row());
            return e ? e->index : -1;
        };
        QTRY_COMPARE(current(), 6);
        QTRY_COMPARE(search->positionText(), QStringLiteral("1 of 2"));
        // The word is marked where it shows, in the messages on screen.
        auto marked = [&] {
            const QImage shot = window.timeline()->viewport()->grab().toImage();
            const QRgb mark = TimelineDelegate::highlightColour(false).rgb();
            int n = 0;
            for (int y = 0; y < shot.height(); ++y)
                for (int x = 0; x < shot.width(); ++x)
                    n += shot.pixel(x, y) == mark;
            return n;
        };
        QCOMPARE(window.timeline()->highlights(), QStringList { QStringLiteral("A-404") });
        QTRY_VERIFY(marked() > 50);
        window.timeline()->setFocus();
        QTest::keyClick(&window, Qt::Key_F3);
        QTRY_COMPARE(current(), 12);
        QCOMPARE(search->positionText(), QStringLiteral("2 of 2"));
        QTest::keyClick(&window, Qt::Key_F3); // round to the top
        QTRY_COMPARE(current(), 6);
        QTest::keyClick(&window, Qt::Key_F3, Qt::ShiftModifier); // and back round to the bottom
        QTRY_COMPARE(current(), 12);
        window.timeline()->setCurrentIndex(window.eventModel()->index(0, 0));
        QTRY_COMPARE(search->positionText(), QStringLiteral("2 matches"));
        search->edit()->selectAll();
        QTest::keyClicks(search->edit(), QStringLiteral("nowhere-to-be-found"));
        QTest::keyClick(search->edit(), Qt::Key_Return);
        QTRY_COMPARE(search->positionText(), QStringLiteral("no matches"));
        QTRY_COMPARE(marked(), 0);

        // Every room: the list, and a match in another room opened at its row.
        window.filterBar()->setText(QString());
        search->edit()->selectAll();
        QTest::keyClicks(search->edit(), QStringLiteral("order"));
        QTest::keyClick(search->edit(), Qt::Key_F, Qt::ControlModifier | Qt::AltModifier);
        QTreeWidget* results = window.searchResults();
        QTRY_VERIFY(results->topLevelItemCount() > 1);
        QVERIFY(results->isVisible());
        QSet<QString> rooms;
        QTreeWidgetItem* other = nullptr;
        for (int i = 0; i < results->topLevelItemCount(); ++i) {
            rooms << results->topLevelItem(i)->text(0);
            if (!other && results->topLevelItem(i)->text(0) == QLatin1String("edge-parallel-same-tool"))
                other = results->topLevelItem(i);
        }
        QVERIFY2(rooms.size() > 5, "orders are spoken of in many rooms");
        QVERIFY(other);
        emit results->itemActivated(other, 0);
        QTRY_COMPARE(window.roomList()->currentRoom(), other->data(0, Qt::UserRole).toLongLong());
        QTRY_COMPARE(window.eventList()->currentIndex().data(EventListModel::RecordRole).value<EventRecord>().index,
            other->text(1).toLongLong());

        // What a card shows is found in every room, its blocked end's result too (a hook blocked the end, not the
        // card: its start shows, with the result in it).
        search->edit()->selectAll();
        QTest::keyClicks(search->edit(), QStringLiteral("visa"));
        QTest::keyClick(search->edit(), Qt::Key_F, Qt::ControlModifier | Qt::AltModifier);
        QTRY_VERIFY(results->topLevelItemCount() > 0);
        bool blockedEnd = false;
        for (int i = 0; i < results->topLevelItemCount(); ++i) {
            const QTreeWidgetItem* hit = results->topLevelItem(i);
            blockedEnd = blockedEnd || (hit->text(0) == QLatin1String("edge-blocked-ai-output") && hit->text(1) == QLatin1String("4"));
        }
        QVERIFY(blockedEnd);

        // One hit is "1 event"; a long search is elided in the title (a dock's title sets its least width).
        auto* dock = window.findChild<QDockWidget*>(QStringLiteral("searchResultsDock"));
        search->edit()->selectAll();
        QTest::keyClicks(search->edit(), QStringLiteral("\"also A-404\""));
        QTest::keyClick(search->edit(), Qt::Key_F, Qt::ControlModifier | Qt::AltModifier);
        QTRY_COMPARE(results->topLevelItemCount(), 1);
        QTRY_VERIFY2(dock->windowTitle().startsWith(QLatin1String("Search Results: 1 event holding")),
            qPrintable(dock->windowTitle()));
        // Its menu item keeps its own name (Qt's toggle action follows the dock's title).
        QCOMPARE(dock->toggleViewAction()->text(), QStringLiteral("Search &Results"));
        search->edit()->setText(QString(300, QLatin1Char('w')));
        QTest::keyClick(search->edit(), Qt::Key_F, Qt::ControlModifier | Qt::AltModifier);
        QTRY_VERIFY(dock->windowTitle().contains(QLatin1String("holding")));
        QVERIFY2(dock->windowTitle().size() < 100, qPrintable(dock->windowTitle()));
        // Another source opened: the hits of this one are gone, and so is the dock.
        QSignalSpy shownAgain(&window, &MainWindow::roomsShown);
        window.openPath(copyFixture(m_dir, QStringLiteral("roomkit/support.sqlite"), QStringLiteral("other.sqlite")));
        QVERIFY(shownAgain.wait(10000));
        QCOMPARE(results->topLevelItemCount(), 0);
        QVERIFY(!dock->isVisible());
    }

    // The details' tabs stay where they are from event to event (a message, a failed call with its error and its
    // links), so that a click aimed at them lands.
    void theDetailsTabsStayInPlace()
    {
        MainWindow window;
        showAndOpen(window, copyFixture(m_dir, QStringLiteral("roomkit/edge_cases.sqlite"), QStringLiteral("tabs.sqlite")));
        if (QTest::currentTestFailed())
            return;
        QVERIFY(selectRoomNamed(window, QStringLiteral("edge-tool-failed")));
        QTRY_VERIFY(window.eventModel()->rowCount() > 5);
        QSet<int> tops;
        for (int row = 0; row < std::min(8, window.eventModel()->rowCount()); ++row) {
            QTRY_VERIFY(window.eventModel()->loadedRecord(row));
            const qint64 index = window.eventModel()->loadedRecord(row)->index;
            window.timeline()->setCurrentIndex(window.eventModel()->index(row, 0));
            QTRY_COMPARE(window.detailsPane()->details().record.index, index);
            QApplication::processEvents();
            tops << window.detailsPane()->tabs()->mapTo(window.detailsPane(), QPoint(0, 0)).y();
        }
        QCOMPARE(tops.size(), 1);
    }

    // A search across rooms in a workspace whose rooms are not all read (a command's --room read one) says how many
    // it could not search; Read Them and Search Again reads them from the source and searches again.
    void searchSaysWhatItCouldNotSearch()
    {
        const QString source = copyFixture(m_dir, QStringLiteral("roomkit/edge_cases.sqlite"), QStringLiteral("partial.sqlite"));
        const QString path = m_dir.filePath(QStringLiteral("partial.sightline"));
        {
            Workspace ws(path);
            ImportOptions one;
            one.onlyRooms = QStringList { QStringLiteral("edge-tool-failed") };
            QVERIFY(Importer::import(ws, source, one).roomsNotRead > 5);
        }
        MainWindow window;
        showAndOpen(window, path); // a workspace opened as it is: nothing is imported
        if (QTest::currentTestFailed())
            return;
        QVERIFY(!window.isImporting());
        SearchBar* search = window.searchBar();
        search->edit()->setText(QStringLiteral("order"));
        QTest::keyClick(search->edit(), Qt::Key_F, Qt::ControlModifier | Qt::AltModifier);
        auto* dock = window.findChild<SearchResultsDock*>();
        QVERIFY(dock);
        QTRY_VERIFY2(QRegularExpression(QStringLiteral("^[0-9]+ rooms \\([0-9,]+ events in their sources\\) are not read yet, "
                                                       "or only in part: they were searched only as far as they are read\\.$"))
                         .match(dock->notSearchedText())
                         .hasMatch(),
            qPrintable(dock->notSearchedText()));
        const int before = window.searchResults()->topLevelItemCount();
        QVERIFY(dock->readButton()->isVisible());
        dock->readButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(dock->notSearchedText().isEmpty(), 20000);
        QTRY_VERIFY(window.searchResults()->topLevelItemCount() > before);
        for (const RoomSummary& r : window.roomModel()->rooms())
            QVERIFY2(r.unread == 0, qPrintable(r.nativeId));
    }

    // A store never opened before: its biggest room shows after its first batch while the rest imports in the
    // background, the window in use all along; when the import ends the room is read again, whole.
    void firstScreenWhileImporting()
    {
        const QString source = growSupportRoom(m_dir, 200000, QStringLiteral("importing.sqlite"));
        MainWindow window;
        window.resize(1200, 800);
        window.show();
        QSignalSpy shown(&window, &MainWindow::roomsShown);
        window.setImportRefreshInterval(100);
        window.openPath(source);
        QVERIFY(window.isImporting());
        // The first screen of the grown room, before the import is done, with no modal dialog in the way.
        QTRY_VERIFY_WITH_TIMEOUT(window.eventModel()->rowCount() > 0, 20000);
        QVERIFY2(window.isImporting(), "the first screen came only after the whole import");
        for (const RoomSummary& r : window.roomModel()->rooms())
            if (r.id == window.roomList()->currentRoom())
                QCOMPARE(r.nativeId, QStringLiteral("sup-late-delivery")); // the biggest, read first
        QVERIFY(QApplication::activeModalWidget() == nullptr);
        QTRY_VERIFY(window.eventModel()->loadedRecord(0));
        QCOMPARE(window.eventModel()->loadedRecord(0)->index, 0);
        QCOMPARE(shown.count(), 0); // the list is not complete yet
        auto* cancel = window.findChild<QToolButton*>(QStringLiteral("importCancel"));
        QVERIFY(cancel && cancel->isVisible());
        // The list's count of the room moves on while it imports, past what its first screen was read with.
        QTRY_VERIFY(window.eventModel()->isIndexed());
        const qint64 firstRead = window.eventModel()->totalCount();
        auto listed = [&] {
            for (const RoomSummary& r : window.roomModel()->rooms())
                if (r.nativeId == QLatin1String("sup-late-delivery"))
                    return r.eventCount;
            return qint64(0);
        };
        QTRY_VERIFY_WITH_TIMEOUT(listed() > firstRead || !window.isImporting(), 20000);
        QVERIFY2(window.isImporting(), "the list showed no count between the first screen and the import's end");
        if (listed() > window.eventModel()->totalCount()) { // and the status bar says the room is not read whole yet
            QVERIFY2(window.statusText().contains(QStringLiteral("imported so far")), qPrintable(window.statusText()));
            // in one aside, however many it has to say
            QVERIFY2(window.statusText().count(QLatin1Char('(')) == 1, qPrintable(window.statusText()));
        }

        // An event picked while the room imports is still the one picked when it is read again, whole.
        QTRY_VERIFY(window.eventModel()->loadedRecord(5));
        window.timeline()->setCurrentIndex(window.eventModel()->index(5, 0));
        const qint64 picked = window.eventModel()->loadedRecord(5)->index;

        QVERIFY(shown.wait(60000));
        QVERIFY(!window.isImporting());
        QVERIFY(!cancel->isVisible());
        qint64 events = 0;
        for (const RoomSummary& r : window.roomModel()->rooms())
            if (r.nativeId == QLatin1String("sup-late-delivery"))
                events = r.eventCount;
        QVERIFY(events > 79000);
        QTRY_COMPARE(window.eventModel()->totalCount(), events);
        QTRY_COMPARE(
            window.timeline()->currentIndex().data(EventListModel::RecordRole).value<EventRecord>().index, picked);
        // The Filters pane's span is the whole room's now, not its first batch's (read again in place, the pane's
        // To stayed at the first batch's last event).
        qint64 lastMicros = 0;
        for (const RoomSummary& r : window.roomModel()->rooms())
            if (r.nativeId == QLatin1String("sup-late-delivery"))
                lastMicros = r.lastMicros;
        QTRY_COMPARE(*TimeUtil::parseUserTime(window.filterPane()->toEdit()->text()) / 1000000, lastMicros / 1000000);
    }

    // A room clicked while a big store imports, before the import reached it, is read next. Before that the list
    // showed the source's count for it with a "not read" ring, never a 0; its first rows come after at most one
    // more batch of the room being read (counted, not timed); and the import then reads on to the end.
    void aRoomClickedWhileImportingIsReadNext()
    {
        const QString source = m_dir.filePath(QStringLiteral("many-rooms.sqlite"));
        RoomKitStoreGenerator::write(source, 240000, 24, 0.9, 23);
        MainWindow window;
        window.resize(1200, 800);
        window.show();
        window.setImportRefreshInterval(100);
        window.openPath(source);
        QVERIFY(window.isImporting());
        // The smallest room the import has not read yet, as the list shows it.
        std::optional<RoomSummary> target;
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                target.reset();
                for (const RoomSummary& r : window.roomModel()->rooms()) {
                    if (r.notReadYet() && (!target || r.sourceEvents() < target->sourceEvents()))
                        target = r;
                }
                return target.has_value();
            }(),
            20000);
        QVERIFY(window.isImporting());
        qint64 inSource = 0; // what the source holds, as the list says before the rooms are read
        for (const RoomSummary& r : window.roomModel()->rooms())
            inSource += r.sourceEvents();
        QVERIFY(inSource >= 240000);
        int row = -1;
        for (int i = 0; i < window.roomModel()->rowCount(); ++i) {
            if (window.roomModel()->rooms().at(i).id == target->id)
                row = i;
        }
        const QModelIndex events = window.roomModel()->index(row, RoomListModel::EventsColumn);
        QCOMPARE(events.data().toString(), QLocale().toString(target->sourceEvents())); // the source's count
        QVERIFY(target->sourceEvents() > 0);
        QVERIFY(!events.data(Qt::DecorationRole).value<QIcon>().isNull());
        QVERIFY2(events.data(Qt::ToolTipRole).toString().contains(QStringLiteral("Not read yet")),
            qPrintable(events.data(Qt::ToolTipRole).toString()));

        // What the import has written of the room it reads now, on a connection of the test's own.
        Workspace ws(Importer::cachedWorkspacePath(source));
        const auto written = [&] {
            QSqlQuery q = ws.exec(QStringLiteral("SELECT coalesce(sum(event_count), 0) FROM rooms WHERE id != ?"), { target->id });
            return q.next() ? q.value(0).toLongLong() : -1;
        };
        const qint64 atClick = written();
        // A reviewer drags the Problems column wider: it keeps that width whatever the import does to the others.
        QHeaderView* header = window.roomList()->view()->header();
        const int dragged = header->sectionSize(RoomListModel::ProblemsColumn) + 60;
        header->resizeSection(RoomListModel::ProblemsColumn, dragged);
        // While rooms are read the Events column only grows: it does not jump back and forth from room to room.
        QVector<int> eventsWidths;
        QTimer sample;
        connect(&sample, &QTimer::timeout, this, [&] {
            if (window.isImporting())
                eventsWidths << header->sectionSize(RoomListModel::EventsColumn);
        });
        sample.start(5);
        QVERIFY(window.roomList()->selectRoom(target->id));
        QTRY_VERIFY_WITH_TIMEOUT(window.eventModel()->roomId() == target->id && window.eventModel()->rowCount() > 0, 30000);
        QVERIFY2(window.isImporting(), "the room came only after the whole import");
        // At most the batch under way when it was clicked (ImportOptions::batchRows, 20,000 rows) was written before
        // the room's first row, counted by the rows' order in the workspace (the window's own drawing takes what time
        // it takes, meanwhile the interrupted room goes on).
        QSqlQuery before = ws.exec(QStringLiteral("SELECT count(*) FROM events WHERE room_id != ? AND id < (SELECT "
                                                  "min(id) FROM events WHERE room_id = ?)"),
            { target->id, target->id });
        QVERIFY(before.next());
        const qint64 ahead = before.value(0).toLongLong();
        before.finish();
        QVERIFY2(ahead - atClick <= 20000,
            qPrintable(QStringLiteral("%1 rows of other rooms were written before it").arg(ahead - atClick)));
        QTRY_VERIFY(window.eventModel()->loadedRecord(0));
        QCOMPARE(window.eventModel()->loadedRecord(0)->index, 0);

        // The rest is read on, and every room ends read whole with its source's count.
        QTRY_VERIFY_WITH_TIMEOUT(!window.isImporting(), 120000);
        QTRY_VERIFY([&] {
            qint64 sum = 0;
            for (const RoomSummary& r : window.roomModel()->rooms()) {
                if (r.unread > 0)
                    return false;
                sum += r.eventCount;
            }
            return sum == inSource;
        }());
        QTRY_COMPARE(window.eventModel()->totalCount(), target->sourceEvents());
        sample.stop();
        QVERIFY(eventsWidths.size() > 10);
        for (qsizetype i = 1; i < eventsWidths.size(); ++i)
            QVERIFY2(eventsWidths.at(i) >= eventsWidths.at(i - 1),
                qPrintable(QStringLiteral("%1 px after %2 px").arg(eventsWidths.at(i)).arg(eventsWidths.at(i - 1))));
        // The Events column, sized for "reading… N of M" while a room was read, fits the counts again: left that wide,
        // it cut every title of the list to "Support room-…".
        const QFontMetrics fm = window.roomList()->view()->fontMetrics();
        qint64 widest = 0;
        for (const RoomSummary& r : window.roomModel()->rooms())
            widest = std::max(widest, r.eventCount);
        const QString reading = QStringLiteral("reading… %1 of %1").arg(QLocale().toString(widest));
        QTRY_VERIFY2(header->sectionSize(RoomListModel::EventsColumn) < fm.horizontalAdvance(reading),
            qPrintable(QStringLiteral("%1 px").arg(header->sectionSize(RoomListModel::EventsColumn))));
        QVERIFY(header->sectionSize(RoomListModel::EventsColumn) >= fm.horizontalAdvance(QLocale().toString(widest)) + 8);
        QCOMPARE(header->sectionSize(RoomListModel::ProblemsColumn), dragged);
    }

    // The Search Results dock holds nothing at a start: it does not come back empty, taking a third of the
    // window, because it was open when the window closed.
    void searchResultsStartHidden()
    {
        {
            MainWindow window;
            window.resize(1200, 800);
            window.show();
            auto* dock = window.findChild<QDockWidget*>(QStringLiteral("searchResultsDock"));
            QVERIFY(dock);
            dock->show();
            QVERIFY(dock->isVisible());
            window.close(); // the docks' state is saved
        }
        MainWindow again;
        again.resize(1200, 800);
        again.show();
        auto* dock = again.findChild<QDockWidget*>(QStringLiteral("searchResultsDock"));
        QVERIFY(dock);
        QVERIFY(!dock->isVisible());
    }

    // The filter applied when the window closed is applied again at the next start.
    void filterComesBack()
    {
        {
            MainWindow window;
            window.show();
            window.filterBar()->setText(QStringLiteral("type:message -channel:sms"));
            window.close();
        }
        MainWindow again;
        QCOMPARE(again.filterBar()->edit()->text(), QStringLiteral("type:message -channel:sms"));
        QCOMPARE(again.filterBar()->filter().types, QStringList { QStringLiteral("message") });
        QCOMPARE(again.filterPane()->filter().excludeChannels, QStringList { QStringLiteral("sms") });
        again.filterBar()->setText(QString());
        again.close(); // and an empty one comes back empty, for the tests after this one
        MainWindow third;
        QVERIFY(third.filterBar()->edit()->text().isEmpty());
    }

    void homeAndEndInABigRoom()
    {
        const QString source = growSupportRoom(m_dir, 20099, QStringLiteral("big-room.sqlite"));
        MainWindow window;
        showAndOpen(window, source);
        if (QTest::currentTestFailed())
            return;
        QVERIFY(selectRoomNamed(window, QStringLiteral("sup-late-delivery")));
        EventListModel* model = window.eventModel();
        // Shown after its first batch, then read again in place once whole.
        QTRY_VERIFY(model->isIndexed() && model->rowCount() > 20000);
        TimelineView* timeline = window.timeline();
        QCOMPARE(timeline->firstVisibleRow(), 0);
        timeline->setFocus();

        QTest::keyClick(timeline, Qt::Key_End);
        const int last = model->rowCount() - 1;
        QCOMPARE(timeline->currentIndex().row(), last);
        QTRY_VERIFY(model->loadedRecord(last));
        QTRY_COMPARE(timeline->lastVisibleRow(), last);
        const QRect end = timeline->visualRect(model->index(last, 0));
        QVERIFY(end.isValid());
        QVERIFY(end.bottom() < timeline->viewport()->height()); // on screen, whole
        QVERIFY(end.bottom() >= timeline->viewport()->height() - 4 * timeline->fontMetrics().lineSpacing());
        QTRY_COMPARE(window.detailsPane()->details().record.index, 20099);
        QVERIFY(model->blocksInMemory() <= 4); // the first screen, the last, and what lies next to them

        QTest::keyClick(timeline, Qt::Key_Home);
        QCOMPARE(timeline->currentIndex().row(), 0);
        QTRY_COMPARE(timeline->firstVisibleRow(), 0);
        QCOMPARE(timeline->visualRect(model->index(0, 0)).top(), 0);

        // The scroll bar counts rows: dragged to the middle, the middle of the room is on screen.
        timeline->verticalScrollBar()->setValue(10000);
        QCOMPARE(timeline->firstVisibleRow(), 10000);
        QTRY_VERIFY(model->loadedRecord(10000));
        QTRY_VERIFY(timeline->visualRect(model->index(10000, 0)).height() > timeline->fontMetrics().lineSpacing());
    }

    // Files opened come back in File > Open Recent (and the newest opens at the next start); a file dropped on
    // the window opens; a room is found by a participant; a reply links to its thread root.
    void filesDropsParticipantsAndThreads()
    {
        MainWindow window;
        window.show();
        const QString first
            = copyFixture(m_dir, QStringLiteral("roomkit/support.sqlite"), QStringLiteral("recent-a.sqlite"));
        const QString second
            = copyFixture(m_dir, QStringLiteral("roomkit/edge_cases.sqlite"), QStringLiteral("recent-b.sqlite"));
        QSignalSpy shown(&window, &MainWindow::roomsShown);
        window.openPath(first);
        QVERIFY(shown.wait(10000));

        // Dropped on the window, the second store opens.
        QMimeData mime;
        mime.setUrls({ QUrl::fromLocalFile(second) });
        QDragEnterEvent enter(QPoint(50, 50), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&window, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(50, 50), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&window, &drop);
        QVERIFY(shown.wait(10000));
        QCOMPARE(window.roomModel()->rowCount(), 26);
        QCOMPARE(window.recentFiles().mid(0, 2), (QStringList { second, first }));
        QFile::remove(first);
        QVERIFY(!window.recentFiles().contains(first));

        // A participant's id finds the rooms they spoke in.
        window.roomList()->filterEdit()->setText(QStringLiteral("u-12"));
        QTRY_VERIFY(window.roomList()->view()->model()->rowCount() < 26);
        QStringList ids;
        for (int row = 0; row < window.roomList()->view()->model()->rowCount(); ++row)
            ids << window.roomList()->view()->model()->index(row, 0).data(RoomListModel::NativeIdRole).toString();
        QVERIFY2(ids.contains(QStringLiteral("edge-threads")), qPrintable(ids.join(QLatin1Char(','))));
        window.roomList()->filterEdit()->clear();
        QTRY_COMPARE(window.roomList()->view()->model()->rowCount(), 26);

        // The room shown stays in view when a filter is cleared: the list jumped to its top, the room somewhere below.
        QTreeView* rooms = window.roomList()->view();
        rooms->setFixedHeight(140);
        const QModelIndex last = rooms->model()->index(rooms->model()->rowCount() - 1, 0);
        rooms->setCurrentIndex(last);
        const QString lastId = last.data(RoomListModel::NativeIdRole).toString();
        window.roomList()->filterEdit()->setText(lastId);
        QTRY_COMPARE(rooms->model()->rowCount(), 1);
        rooms->scrollToTop();
        window.roomList()->filterEdit()->clear();
        QTRY_COMPARE(rooms->model()->rowCount(), 26);
        QCOMPARE(rooms->currentIndex().data(RoomListModel::NativeIdRole).toString(), lastId);
        QTRY_VERIFY(rooms->viewport()->rect().intersects(rooms->visualRect(rooms->currentIndex())));
        QVERIFY(rooms->verticalScrollBar()->value() > 0);
        rooms->setMinimumHeight(0);
        rooms->setMaximumHeight(QWIDGETSIZE_MAX);

        // A reply in a thread links to its root.
        QVERIFY(selectRoomNamed(window, QStringLiteral("edge-threads")));
        QTRY_VERIFY(window.eventModel()->rowCount() > 5);
        int reply = -1;
        QTRY_VERIFY(!window.eventModel()->isLoading());
        for (int row = 0; row < window.eventModel()->rowCount() && reply < 0; ++row) {
            if (!window.eventModel()->loadedRecord(row)->parentId.isEmpty())
                reply = row;
        }
        QVERIFY(reply >= 0);
        window.eventList()->setCurrentIndex(window.eventModel()->index(reply, 0));
        QToolButton* root = window.detailsPane()->linkButton(QStringLiteral("parent"));
        QTRY_VERIFY(root->isVisibleTo(window.detailsPane()));
        root->click();
        QTRY_COMPARE(window.eventList()->currentIndex().data(EventListModel::RecordRole).value<EventRecord>().index, 3);
    }

    void themes()
    {
        MainWindow window;
        window.show();
        QAction* dark = window.findChild<QAction*>(QStringLiteral("theme-dark"));
        QAction* system = window.findChild<QAction*>(QStringLiteral("theme-system"));
        QVERIFY(dark && system);
        // A filter in force tints the bar; the tint follows the theme chosen after it (it kept the old theme's, and
        // white text on a pale field could not be read).
        window.filterBar()->setText(QStringLiteral("outcome:failed"));
        QTRY_VERIFY(window.filterBar()->edit()->palette().color(QPalette::Base) != QApplication::palette().color(QPalette::Base));
        dark->trigger();
        QTRY_VERIFY(window.filterBar()->edit()->palette().color(QPalette::Base).lightness() < 128);
        const QPalette bar = window.filterBar()->edit()->palette();
        QVERIFY(std::abs(bar.color(QPalette::Text).lightness() - bar.color(QPalette::Base).lightness()) > 100);
        QVERIFY(QApplication::palette().color(QPalette::Base).lightness() < 128);
        // Fusion, through the proxy that gives its unticked boxes an outline a dark field shows (ContrastStyle).
        auto* proxy = qobject_cast<QProxyStyle*>(QApplication::style());
        QVERIFY(proxy && proxy->baseStyle());
        QCOMPARE(proxy->baseStyle()->name(), QStringLiteral("fusion"));
        // An unticked box on a dark field is seen: its outline is not the field's colour.
        QCheckBox box;
        box.resize(box.sizeHint());
        const QImage shot = box.grab().toImage();
        const QColor field = QApplication::palette().color(QPalette::Window);
        int distinct = 0;
        for (int x = 0; x < std::min(shot.width(), 20); ++x) {
            const QColor c = shot.pixelColor(x, shot.height() / 2);
            distinct += std::abs(c.lightness() - field.lightness()) > 40 ? 1 : 0;
        }
        QVERIFY2(distinct >= 2, "an unticked check box is not seen on the dark window");
        system->trigger();
        QVERIFY(QApplication::palette().color(QPalette::Base).lightness() >= 128);
    }

    // File > Open offers every format Sightline reads by default, the logs too (it offered databases only).
    void openOffersTheLogs()
    {
        MainWindow window;
        window.show();
        QAction* open = nullptr;
        for (QAction* a : window.findChildren<QAction*>()) {
            if (a->shortcut() == QKeySequence::Open)
                open = a;
        }
        QVERIFY(open);
        QStringList filters;
        QTimer::singleShot(0, &window, [&] {
            QTRY_VERIFY(window.findChild<QFileDialog*>());
            QFileDialog* dialog = window.findChild<QFileDialog*>();
            filters = dialog->nameFilters();
            dialog->reject();
        });
        open->trigger();
        QVERIFY(!filters.isEmpty());
        for (const char* pattern : { "*.sqlite", "*.sightline", "*.jsonl", "*.md" })
            QVERIFY2(filters.first().contains(QLatin1String(pattern)), qPrintable(filters.first()));
    }

    void shortcutsAreListed()
    {
        MainWindow window;
        window.show();
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QTest::keyClick(&window, Qt::Key_F1);
        QDialog* dialog = nullptr;
        QTRY_VERIFY((dialog = window.findChild<QDialog*>(QStringLiteral("shortcuts"))) != nullptr);
        const QTableWidget* table = dialog->findChild<QTableWidget*>();
        QStringList keys;
        for (int row = 0; row < table->rowCount(); ++row)
            keys << table->item(row, 0)->text();
        for (const char* k : { "]", "[", "J", "K", "Ctrl+L", "Ctrl+O", "M", "Ctrl+S", "Ctrl+Z", "Ctrl+Shift+N", "F2", "Shift+F2", "Ctrl+Shift+E" })
            QVERIFY2(keys.join(QLatin1Char(' ')).contains(QLatin1String(k)), k);
        dialog->close();
        // No two of the window's actions share keys: Qt fires neither of two that do (Ctrl+Shift+O once meant both
        // Open Folder and Show Original).
        QHash<QKeySequence, QString> owner;
        for (QAction* a : window.findChildren<QAction*>()) {
            for (const QKeySequence& k : a->shortcuts()) {
                const QString other = owner.value(k);
                QVERIFY2(other.isEmpty() || other == a->text(),
                    qPrintable(QStringLiteral("%1: %2 and %3").arg(k.toString(), other, a->text())));
                owner.insert(k, a->text());
            }
        }
    }

    // A reviewer marks an event (M), undoes and redoes it, notes and labels it, reviews the room, filters by
    // what was added, saves (Ctrl+S), and closing with a change unsaved asks first.
    void annotateUndoRedoSaveAndClose()
    {
        QTemporaryDir dir;
        const QString store = copyFixture(dir, QStringLiteral("roomkit/support.sqlite"));
        QString workspace;
        {
            MainWindow window;
            window.editor()->setAuthor(QStringLiteral("Ana Lima"));
            showAndOpen(window, store);
            workspace = Importer::cachedWorkspacePath(store);
            QVERIFY(selectRoomNamed(window, QStringLiteral("sup-duplicate-charge")));
            QTRY_VERIFY(window.eventModel()->rowCount() > 4);
            QTRY_VERIFY(window.eventModel()->index(3, 0).data(EventListModel::LoadedRole).toBool());
            window.timeline()->setFocus();
            window.timeline()->setCurrentIndex(window.eventModel()->index(3, 0));
            const QModelIndex row = window.eventModel()->index(3, 0);
            const qint64 index = row.data(EventListModel::EventIndexRole).toLongLong();
            QVERIFY(!window.isWindowModified());

            QTest::keyClick(window.timeline(), Qt::Key_M);
            QTRY_VERIFY(row.data(EventListModel::MarkedRole).toBool());
            QVERIFY(window.isWindowModified());
            QCOMPARE(window.editor()->undoAction()->text(), QStringLiteral("&Undo Mark Event %1").arg(index));
            QTest::keyClick(&window, Qt::Key_Z, Qt::ControlModifier);
            QTRY_VERIFY(!row.data(EventListModel::MarkedRole).toBool());
            QTest::keyClick(&window, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
            QTRY_VERIFY(row.data(EventListModel::MarkedRole).toBool());
            QVERIFY(row.data(Qt::ToolTipRole).toString().contains(QLatin1String("Marked by Ana Lima")));

            const qint64 room = window.eventModel()->roomId();
            window.editor()->addNote(room, index, QStringLiteral("Customer charged twice"));
            window.editor()->addLabel(room, index, QStringLiteral("PII"));
            window.editor()->setReview(room, QStringLiteral("done"));
            QTRY_COMPARE(row.data(EventListModel::NotesRole).toStringList(), QStringList { QStringLiteral("Customer charged twice") });
            QTRY_COMPARE(row.data(EventListModel::LabelsRole).toStringList(), QStringList { QStringLiteral("pii") });
            // The notes panel follows the selected event.
            QTRY_COMPARE(window.notesPanel()->list()->count(), 2);
            QVERIFY(window.notesPanel()->list()->item(0)->text().contains(QLatin1String("Ana Lima")));
            // The room list shows the review, and filters by it.
            QTRY_COMPARE(window.roomModel()->index(0, 0).isValid(), true);
            QTRY_VERIFY([&] {
                for (const RoomSummary& r : window.roomModel()->rooms())
                    if (r.id == room)
                        return r.review == QLatin1String("done") && r.reviewer == QLatin1String("Ana Lima");
                return false;
            }());
            // The journal dock lists every change, the undone mark's undo and redo as one.
            QTRY_COMPARE(window.journalDock()->model()->rowCount(), 4);
            QVERIFY(!window.journalDock()->model()->index(0, 0).data(JournalModel::SavedRole).toBool());

            // Filtering by what was added: the marked event alone.
            window.filterBar()->setText(QStringLiteral("is:marked label:pii"));
            QTRY_COMPARE(window.statusText(), QStringLiteral("showing 1 of 24 events"));
            window.filterBar()->setText(QString());

            // Saved: the title's mark goes, the journal's entries are saved.
            QTest::keyClick(&window, Qt::Key_S, Qt::ControlModifier);
            QTRY_VERIFY(!window.isWindowModified());
            QTRY_VERIFY(window.journalDock()->model()->index(0, 0).data(JournalModel::SavedRole).toBool());

            // One more change, then closing: the window asks, and Save keeps it.
            window.editor()->addNote(room, std::nullopt, QStringLiteral("Reviewed with finance"));
            QTRY_VERIFY(window.isWindowModified());
            bool asked = false;
            QTimer::singleShot(200, [&] {
                auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
                if (!box)
                    return;
                asked = true;
                box->button(QMessageBox::Save)->click();
            });
            window.close();
            QTRY_VERIFY(asked);
            QTRY_VERIFY(!window.isVisible());
        }
        Workspace ws(workspace);
        AnnotationStore saved(ws);
        QCOMPARE(saved.unsavedChanges(), 0);
        QCOMPARE(saved.notes().size(), 2);
        QCOMPARE(saved.notes().first().value, QStringLiteral("Reviewed with finance")); // the room's first
        QCOMPARE(Journal(ws).entries().size(), 5);
    }

    // A change whose write fails (a note on an event the room does not have) is said, and is no change: nothing
    // to undo, the window not modified (it stayed on the undo stack, and undo and redo replayed nothing).
    void aChangeThatFailsIsNotOnTheUndoStack()
    {
        QTemporaryDir dir;
        const QString store = copyFixture(dir, QStringLiteral("roomkit/support.sqlite"));
        MainWindow window;
        window.editor()->setAuthor(QStringLiteral("Ana Lima"));
        showAndOpen(window, store);
        QVERIFY(selectRoomNamed(window, QStringLiteral("sup-duplicate-charge")));
        QTRY_VERIFY(window.eventModel()->rowCount() > 4);
        const qint64 room = window.eventModel()->roomId();
        QSignalSpy said(window.editor(), &Editor::message);
        window.editor()->addNote(room, 99999, QStringLiteral("on no event"));
        QTRY_VERIFY(!said.isEmpty());
        QVERIFY2(said.first().first().toString().contains(QLatin1String("could not be written")),
            qPrintable(said.first().first().toString()));
        QTRY_VERIFY(!window.editor()->undoAction()->isEnabled());
        QVERIFY(!window.isWindowModified());
        // A change that works after it is undone as itself.
        window.editor()->addNote(room, std::nullopt, QStringLiteral("on the room"));
        QTRY_VERIFY(window.isWindowModified());
        QTRY_VERIFY(window.editor()->undoAction()->isEnabled());
        window.editor()->undoAction()->trigger();
        QTRY_VERIFY(!window.isWindowModified());
    }

    // A session that ended without saving leaves its changes in the workspace: the next window says so, and
    // Revert drops them.
    void changesLeftUnsavedAreOffered()
    {
        QTemporaryDir dir;
        const QString store = copyFixture(dir, QStringLiteral("roomkit/support.sqlite"));
        {
            Workspace ws(Importer::cachedWorkspacePath(store));
            Importer::import(ws, store);
            AnnotationStore(ws).addNote(ws.rooms().first().id, 0, QStringLiteral("left unsaved"), QStringLiteral("ana"));
        }
        MainWindow window;
        QSignalSpy said(window.editor(), &Editor::message);
        showAndOpen(window, store);
        QTRY_VERIFY(window.isWindowModified());
        QCOMPARE(window.editor()->leftoverChanges(), 1);
        QTRY_VERIFY(!said.isEmpty());
        QVERIFY(said.first().first().toString().contains(QLatin1String("1 change made before was never saved")));
        window.editor()->revert();
        QTRY_VERIFY(!window.isWindowModified());
        Workspace ws(Importer::cachedWorkspacePath(store));
        QTRY_COMPARE(AnnotationStore(ws).notes().size(), 0);
    }

    // Redacting: text selected in a message's Raw tab, redacted with a reason (Ctrl+Shift+R), undone, redone and
    // saved (the text then gone from the workspace's files); then every phone number of the room by pattern, the
    // matches previewed first.
    void redactSelectionUndoRedoSave()
    {
        QTemporaryDir dir;
        const QString store = copyFixture(dir, QStringLiteral("roomkit/support.sqlite"));
        MainWindow window;
        window.editor()->setAuthor(QStringLiteral("Ana Lima"));
        showAndOpen(window, store);
        QVERIFY(selectRoomNamed(window, QStringLiteral("sup-duplicate-charge")));
        QTRY_VERIFY(window.eventModel()->rowCount() > 4);
        int row = -1;
        QTRY_VERIFY((row = window.eventModel()->rowOfIndex(4)) >= 0);
        const QModelIndex message = window.eventModel()->index(row, 0);
        window.timeline()->setCurrentIndex(message);
        QTRY_COMPARE(window.detailsPane()->details().record.index, 4);
        // The Text tab: the message as the timeline shows it, its selection mapped to the string it came from.
        QPlainTextEdit* shown = window.detailsPane()->text();
        window.detailsPane()->tabs()->setCurrentWidget(shown);
        QTextCursor inText = shown->textCursor();
        inText.setPosition(6);
        inText.setPosition(19, QTextCursor::KeepAnchor);
        shown->setTextCursor(inText);
        const DetailsPane::RedactionTarget fromText = window.detailsPane()->selectedText();
        QVERIFY2(fromText.error.isEmpty(), qPrintable(fromText.error));
        QCOMPARE(fromText.path, QStringLiteral("$.content.body"));
        QCOMPARE(fromText.start, 6);
        QCOMPARE(fromText.text, QStringLiteral("charged twice"));
        QPlainTextEdit* raw = window.detailsPane()->raw();
        window.detailsPane()->tabs()->setCurrentWidget(raw);
        const qsizetype at = raw->toPlainText().indexOf(QLatin1String("charged twice"));
        QVERIFY(at > 0);
        QTextCursor cursor = raw->textCursor();
        cursor.setPosition(int(at));
        cursor.setPosition(int(at + 13), QTextCursor::KeepAnchor);
        raw->setTextCursor(cursor);
        bool asked = false;
        whenModal<QInputDialog>([&](QInputDialog* dialog) {
            asked = dialog->labelText().contains(QLatin1String("charged twice"));
            dialog->setTextValue(QStringLiteral("customer's words"));
            dialog->accept();
        });
        window.editor()->redactAction()->trigger();
        QTRY_VERIFY(asked);
        const QString redacted = QStringLiteral("I was [redacted: customer's words] for order A-10533. $89.00 two times on my card");
        QTRY_COMPARE(window.eventModel()->index(row, 0).data(EventListModel::RecordRole).value<EventRecord>().text, redacted);
        QTRY_VERIFY(window.detailsPane()->raw()->toPlainText().contains(QLatin1String("[redacted: customer's words]")));
        QCOMPARE(window.detailsPane()->tabs()->currentWidget(), raw); // the tab the redaction was made in stays
        QCOMPARE(window.editor()->undoAction()->text(), QStringLiteral("&Undo Redact Event 4"));
        // The dialog closed: the window is active again, the focus in the Raw tab (which must not keep Ctrl+Z).
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        raw->setFocus();
        QTest::keyClick(raw, Qt::Key_Z, Qt::ControlModifier);
        QTRY_VERIFY(window.eventModel()->index(row, 0).data(EventListModel::RecordRole).value<EventRecord>().text.contains(QLatin1String("charged twice")));
        QTest::keyClick(&window, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
        QTRY_COMPARE(window.eventModel()->index(row, 0).data(EventListModel::RecordRole).value<EventRecord>().text, redacted);

        // Every phone number of the room, previewed, then redacted as one change.
        int previewed = 0;
        qint64 keptIndex = -1;
        whenModal<BulkRedactDialog>([&](BulkRedactDialog* dialog) {
            dialog->setBuiltin(QStringLiteral("phone"), true);
            dialog->setReason(QStringLiteral("phone number"));
            QSignalSpy found(dialog, &BulkRedactDialog::foundMatches);
            dialog->find();
            if (!found.wait(10000))
                return;
            // One match left out: unticked, it stays as it is.
            const int listed = dialog->preview()->topLevelItemCount();
            if (listed < 2 || dialog->preview()->topLevelItem(0)->text(4) != QLatin1String("+15557650142"))
                return;
            QTreeWidgetItem* kept = dialog->preview()->topLevelItem(listed - 1);
            keptIndex = kept->text(1).toLongLong();
            kept->setCheckState(0, Qt::Unchecked);
            previewed = listed - 1;
            if (dialog->redactButton()->text() == QStringLiteral("&Redact %1 Matches").arg(previewed))
                dialog->redactButton()->click();
        });
        window.editor()->bulkRedactAction()->trigger();
        QVERIFY(previewed > 0);
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QCOMPARE(window.editor()->undoAction()->text(), QStringLiteral("&Undo Redact %1 Matches").arg(previewed));
        QTRY_VERIFY(window.journalDock()->model()->rowCount() == 1 + previewed);
        {
            Workspace ws(Importer::cachedWorkspacePath(store));
            QVERIFY(ws.event(ws.findRooms(QStringLiteral("sup-duplicate-charge")).first(), keptIndex)->participantId
                == QLatin1String("+15557650142"));
        }

        // Saved: final (the undo history cleared), and gone from the files.
        QTest::keyClick(&window, Qt::Key_S, Qt::ControlModifier);
        QTRY_VERIFY(!window.isWindowModified());
        QTRY_VERIFY(!window.editor()->undoAction()->isEnabled());
        const QString workspace = Importer::cachedWorkspacePath(store);
        for (const QString& file : QStringList { workspace, workspace + QStringLiteral("-wal") }) {
            QVERIFY2(!fileHolds(file, "charged twice"), qPrintable(file));
        }
        QFile main(workspace);
        QVERIFY(main.open(QIODevice::ReadOnly));
        QVERIFY(main.readAll().contains("+15557650142")); // the match left out
        QCOMPARE(QFileInfo(workspace + QStringLiteral("-wal")).size(), 0); // the log truncated
        // File ▸ Save Workspace As: a copy for a colleague, with the redactions and without the text.
        const QString copy = dir.filePath(QStringLiteral("handed-on.sightline"));
        QSignalSpy said(window.editor(), &Editor::message);
        window.editor()->saveCopy(copy, Workspace::OwnerOnly);
        QTRY_VERIFY(!said.isEmpty());
        QVERIFY2(said.last().first().toString().startsWith(QLatin1String("Saved a copy")), qPrintable(said.last().first().toString()));
        Workspace theirs(copy);
        QCOMPARE(RedactionStore(theirs).ledger().size(), 1 + previewed);
    }

    void editTextAndArgumentsUndoRedoSave()
    {
        QTemporaryDir dir;
        const QString store = copyFixture(dir, QStringLiteral("roomkit/support.sqlite"));
        MainWindow window;
        window.editor()->setAuthor(QStringLiteral("Ana Lima"));
        showAndOpen(window, store);
        QVERIFY(selectRoomNamed(window, QStringLiteral("sup-duplicate-charge")));
        int row = -1;
        QTRY_VERIFY((row = window.eventModel()->rowOfIndex(4)) >= 0);
        window.timeline()->setCurrentIndex(window.eventModel()->index(row, 0));
        QTRY_COMPARE(window.detailsPane()->details().record.index, 4);
        QVERIFY(!window.detailsPane()->linkButton(QStringLiteral("edits"))->isVisibleTo(&window));
        auto recordAt = [&](int r) { return window.eventModel()->index(r, 0).data(EventListModel::RecordRole).value<EventRecord>(); };
        const QString said = recordAt(row).text;

        // F2 on a message: its text in an editor; saved with Ctrl+Enter.
        bool asked = false;
        whenModal<EditValueDialog>([&](EditValueDialog* dialog) {
            asked = dialog->value() == said && !dialog->isAcceptable(); // nothing changed yet
            dialog->editor()->setPlainText(QStringLiteral("I was charged twice (edited)"));
            QTest::keyClick(dialog->editor(), Qt::Key_Return, Qt::ControlModifier);
        });
        QTest::keyClick(window.timeline(), Qt::Key_F2);
        QTRY_VERIFY(asked);
        QTRY_COMPARE(recordAt(row).text, QStringLiteral("I was charged twice (edited)"));
        QVERIFY(recordAt(row).flags & EventFlags::Revised); // the "edited" pill
        QVERIFY(window.isWindowModified());
        QCOMPARE(window.editor()->undoAction()->text(), QStringLiteral("&Undo Edit Text of Event 4"));
        QTRY_VERIFY(window.detailsPane()->linkButton(QStringLiteral("edits"))->isVisibleTo(&window));
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QTest::keyClick(&window, Qt::Key_Z, Qt::ControlModifier);
        QTRY_COMPARE(recordAt(row).text, said);
        QVERIFY(!(recordAt(row).flags & EventFlags::Revised));
        QTest::keyClick(&window, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
        QTRY_COMPARE(recordAt(row).text, QStringLiteral("I was charged twice (edited)"));

        // A call's arguments: JSON that does not parse is refused, saying where; then a valid edit.
        int card = -1;
        QTRY_VERIFY((card = window.eventModel()->rowOfIndex(11)) >= 0);
        window.timeline()->setCurrentIndex(window.eventModel()->index(card, 0));
        QTRY_COMPARE(window.detailsPane()->details().record.index, 11);
        QString refusal;
        whenModal<EditValueDialog>([&](EditValueDialog* dialog) {
            dialog->editor()->setPlainText(QStringLiteral("{\n  \"amount\": 89,\n  \"order_id\": \n}"));
            refusal = dialog->isAcceptable() ? QString() : dialog->status()->text();
            dialog->editor()->setPlainText(QStringLiteral("{\"amount\": 45, \"order_id\": \"A-10533\"}"));
            if (dialog->isAcceptable())
                dialog->accept();
        });
        window.contentEditor()->editAction()->trigger();
        QTRY_VERIFY(!refusal.isEmpty());
        QVERIFY2(refusal.contains(QLatin1String("line 4, column 1")), qPrintable(refusal));
        QTRY_COMPARE(window.eventModel()->index(card, 0).data(EventListModel::CallRole).value<ToolCallRecord>().arguments,
            QStringLiteral("{\"amount\":45,\"order_id\":\"A-10533\"}"));
        // Saved: the edit is in the workspace for good, and the journal says who did what.
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QTest::keyClick(&window, Qt::Key_S, Qt::ControlModifier);
        QTRY_VERIFY(!window.isWindowModified());
        Workspace ws(Importer::cachedWorkspacePath(store));
        const Edits edits = EditStore(ws).edits(ws.findRooms(QStringLiteral("sup-duplicate-charge")).first());
        QCOMPARE(edits.size(), 2);
        QVERIFY(edits[0].saved && edits[1].saved);
        QCOMPARE(edits[0].original, said);
        QCOMPARE(edits[1].author, QStringLiteral("Ana Lima"));
    }

    void exportReportFromTheWindow()
    {
        QTemporaryDir dir;
        const QString store = copyFixture(dir, QStringLiteral("roomkit/support.sqlite"));
        MainWindow window;
        showAndOpen(window, store);
        QVERIFY(selectRoomNamed(window, QStringLiteral("sup-duplicate-charge")));
        window.filterBar()->setText(QStringLiteral("kind:tool_call"));
        QTRY_VERIFY(window.eventModel()->rowCount() > 0);
        const QString path = dir.filePath(QStringLiteral("calls.html"));
        bool asked = false;
        whenModal<ExportDialog>([&](ExportDialog* dialog) {
            // The room's name is offered, and the filter shown is the one applied.
            asked = QFileInfo(dialog->path()).completeBaseName() == QLatin1String("sup-duplicate-charge");
            dialog->formatBox()->setCurrentIndex(dialog->formatBox()->findData(QStringLiteral("html")));
            dialog->setScope(ExportDialog::Scope::Filter);
            // A key remembered from an earlier run whose file is gone is not offered.
            asked = asked && dialog->signingKey().isEmpty();
            dialog->pathEdit()->setText(path);
            dialog->accept();
        });
        QSignalSpy exported(window.exporter(), &ReportExporter::exported);
        QTest::keyClick(&window, Qt::Key_E, Qt::ControlModifier);
        QVERIFY(asked);
        QTRY_COMPARE(exported.count(), 1);
        QVERIFY2(window.statusMessage().startsWith(QLatin1String("Exported 8 events to")),
            qPrintable(window.statusMessage()));
        QFile html(path);
        QVERIFY(html.open(QIODevice::ReadOnly));
        const QByteArray page = html.readAll();
        QVERIFY(page.contains("kind:tool_call")); // the filter, said in the header
        QVERIFY(page.contains("issue_refund"));
        QVERIFY(!page.contains("I can see two captured payments")); // a message: not under the filter
        QVERIFY(ReportManifest::verify(path).ok);

        // Again: JSON Lines of the marked events, signed with a key chosen in the dialog.
        QProcess openssl;
        openssl.setWorkingDirectory(dir.path());
        openssl.start(QStringLiteral("openssl"), { QStringLiteral("genpkey"), QStringLiteral("-algorithm"), QStringLiteral("ed25519"), QStringLiteral("-out"), QStringLiteral("key.pem") });
        QVERIFY(openssl.waitForFinished(20000) && openssl.exitCode() == 0);
        const QString jsonl = dir.filePath(QStringLiteral("marked.jsonl"));
        asked = false;
        whenModal<ExportDialog>([&](ExportDialog* dialog) {
            asked = dialog->format() == QLatin1String("html") && dialog->scope() == ExportDialog::Scope::Filter; // remembered
            dialog->formatBox()->setCurrentIndex(dialog->formatBox()->findData(QStringLiteral("jsonl")));
            dialog->setScope(ExportDialog::Scope::Marked);
            dialog->keyEdit()->setText(dir.filePath(QStringLiteral("key.pem")));
            dialog->pathEdit()->setText(jsonl);
            dialog->accept();
        });
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QTest::keyClick(&window, Qt::Key_E, Qt::ControlModifier);
        QVERIFY(asked);
        QTRY_COMPARE(exported.count(), 2);
        QVERIFY2(window.statusMessage().endsWith(QLatin1String("signed)")), qPrintable(window.statusMessage()));
        QCOMPARE(ReportSignature::verify(ReportManifest::pathFor(jsonl), dir.filePath(QStringLiteral("key.pem"))),
            ReportSignature::Result::Valid);
        QCOMPARE(Importer::detect(jsonl), Importer::Format::SightlineJsonl);
        // "The marked events" is not remembered: a later report is never partial unless asked for.
        ExportDialog next(ExportDialog::Context { QStringLiteral("room") }, &window);
        QCOMPARE(next.scope(), ExportDialog::Scope::Filter);
        QCOMPARE(next.format(), QStringLiteral("jsonl"));
        QCOMPARE(next.signingKey(), dir.filePath(QStringLiteral("key.pem")));
        // A big report, cancelled: the window says so, and nothing is written.
        {
            const QString big = growSupportRoom(dir, 30000, QStringLiteral("big.sqlite"));
            MainWindow other;
            showAndOpen(other, big);
            QVERIFY(selectRoomNamed(other, QStringLiteral("sup-late-delivery")));
            const QString cancelledPath = dir.filePath(QStringLiteral("cancelled.jsonl"));
            whenModal<ExportDialog>([&](ExportDialog* dialog) {
                dialog->formatBox()->setCurrentIndex(dialog->formatBox()->findData(QStringLiteral("jsonl")));
                dialog->setScope(ExportDialog::Scope::Room);
                dialog->keyEdit()->clear();
                dialog->pathEdit()->setText(cancelledPath);
                dialog->accept();
            });
            // The user presses Cancel as soon as the export is under way.
            connect(other.exporter(), &ReportExporter::message, this, [&other](const QString& text) {
                if (text.startsWith(QLatin1String("Exporting")) && other.exporter()->progress())
                    emit other.exporter()->progress()->canceled(); // its Cancel button, or Escape
            });
            other.activateWindow();
            QVERIFY(QTest::qWaitForWindowActive(&other));
            QSignalSpy said(other.exporter(), &ReportExporter::message);
            QTest::keyClick(&other, Qt::Key_E, Qt::ControlModifier);
            QTRY_VERIFY_WITH_TIMEOUT(said.count() >= 2, 20000);
            QVERIFY2(said.last().first().toString().startsWith(QLatin1String("Export cancelled")), qPrintable(said.last().first().toString()));
            QTRY_VERIFY_WITH_TIMEOUT(other.statusMessage().startsWith(QLatin1String("Export cancelled")), 20000);
            QVERIFY(!QFile::exists(cancelledPath));
            QVERIFY(!QFile::exists(ReportManifest::pathFor(cancelledPath)));
            QVERIFY(!other.exporter()->progress());
        }

    }

    // The dialog's preview follows its choices; a range of the events selected; the rooms selected in the room
    // list, a report each in a folder.
    void exportPreviewRangeAndRooms()
    {
        QTemporaryDir dir;
        const QString store = copyFixture(dir, QStringLiteral("roomkit/support.sqlite"));
        MainWindow window;
        showAndOpen(window, store);
        QVERIFY(selectRoomNamed(window, QStringLiteral("sup-duplicate-charge")));
        QTRY_COMPARE(window.eventModel()->rowCount() > 0, true);
        window.setRawMode(true);
        // Events 3 to 7 selected in the raw rows, once they have replaced the timeline's items (a selection made
        // before is cleared by that reset).
        QAbstractItemView* raw = window.eventList();
        QTRY_VERIFY(window.eventModel()->rowCount() >= 8 && window.eventModel()->rowCount() == window.eventModel()->shownCount()
            && !window.statusText().contains(QLatin1String("items")) && !window.eventModel()->isLoading());
        raw->selectionModel()->select(QItemSelection(window.eventModel()->index(3, 0), window.eventModel()->index(7, 0)),
            QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        const QString csv = dir.filePath(QStringLiteral("range.csv"));
        QString pdfStatus, csvPreview, from, to;
        bool pagePainted = false;
        whenModal<ExportDialog>([&](ExportDialog* dialog) {
            from = dialog->fromEdit()->text();
            to = dialog->toEdit()->text();
            // The first page of the PDF, as it prints.
            dialog->formatBox()->setCurrentIndex(dialog->formatBox()->findData(QStringLiteral("pdf")));
            (void)QTest::qWaitFor([&] { return dialog->previewStatus()->text().startsWith(QLatin1String("The first page")); }, 20000);
            pdfStatus = dialog->previewStatus()->text();
            const QPixmap page = dialog->previewPage()->pixmap();
            if (!page.isNull()) {
                // Something drawn on the sheet: not every pixel white.
                const QImage image = page.toImage();
                for (int y = 0; y < image.height() && !pagePainted; y += 3) {
                    for (int x = 0; x < image.width() && !pagePainted; x += 3)
                        pagePainted = image.pixelColor(x, y).lightness() < 128;
                }
            }
            // The range, as CSV: the preview shows those events' rows.
            dialog->formatBox()->setCurrentIndex(dialog->formatBox()->findData(QStringLiteral("csv")));
            dialog->setScope(ExportDialog::Scope::Range);
            (void)QTest::qWaitFor([&] { return dialog->previewStatus()->text().startsWith(QLatin1String("The first lines")); }, 20000);
            csvPreview = dialog->previewText()->toPlainText();
            dialog->pathEdit()->setText(csv);
            dialog->accept();
        });
        QSignalSpy exported(window.exporter(), &ReportExporter::exported);
        QTest::keyClick(&window, Qt::Key_E, Qt::ControlModifier);
        QCOMPARE(from, QStringLiteral("3"));
        QCOMPARE(to, QStringLiteral("7"));
        QVERIFY2(pdfStatus.startsWith(QLatin1String("The first page")), qPrintable(pdfStatus));
        QVERIFY(pagePainted);
        QTRY_COMPARE(exported.count(), 1);
        QVERIFY2(window.statusMessage().startsWith(QLatin1String("Exported 5 events to")),
            qPrintable(window.statusMessage()));
        QFile written(csv);
        QVERIFY(written.open(QIODevice::ReadOnly));
        const QString table = QString::fromUtf8(written.readAll());
        // A row each for events 3 to 7, and no other.
        const QStringList rows = table.split(QStringLiteral("\r\nsup-duplicate-charge,"));
        QCOMPARE(rows.size(), 6);
        for (int i = 1; i < rows.size(); ++i)
            QVERIFY2(rows.at(i).startsWith(QString::number(i + 2) + QLatin1Char(',')), qPrintable(rows.at(i)));
        QCOMPARE(csvPreview, QString(table).replace(QStringLiteral("\r\n"), QStringLiteral("\n"))); // a small report, whole
        QFile manifest(ReportManifest::pathFor(csv));
        QVERIFY(manifest.open(QIODevice::ReadOnly));
        QVERIFY(manifest.readAll().contains("index:3..7")); // the range, in the filter language

        // Two rooms selected in the room list: a Markdown report each, in a folder.
        QTreeView* rooms = window.roomList()->view();
        QModelIndexList two;
        for (int row = 0; row < rooms->model()->rowCount(); ++row) {
            const QModelIndex i = rooms->model()->index(row, 0);
            const QString id = i.data(RoomListModel::NativeIdRole).toString();
            if (id == QLatin1String("sup-late-delivery") || id == QLatin1String("sup-address-change"))
                two << i;
        }
        QCOMPARE(two.size(), 2);
        rooms->selectionModel()->setCurrentIndex(two.at(0), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        rooms->selectionModel()->select(two.at(1), QItemSelectionModel::Select | QItemSelectionModel::Rows);
        const QString folder = dir.filePath(QStringLiteral("reports"));
        bool offered = false;
        whenModal<ExportDialog>([&](ExportDialog* dialog) {
            offered = dialog->rooms() == ExportDialog::Rooms::Selected;
            dialog->formatBox()->setCurrentIndex(dialog->formatBox()->findData(QStringLiteral("md")));
            dialog->setScope(ExportDialog::Scope::Room);
            dialog->eachRoomBox()->setChecked(true);
            dialog->pathEdit()->setText(folder);
            dialog->accept();
        });
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QTest::keyClick(&window, Qt::Key_E, Qt::ControlModifier);
        QVERIFY(offered);
        QTRY_COMPARE(exported.count(), 2);
        // The manifest's facts: 16 and 12 events, every one (the blocked row of sup-address-change too).
        QVERIFY2(window.statusMessage().startsWith(QLatin1String("Exported 2 reports (28 events)")),
            qPrintable(window.statusMessage()));
        for (const QString& room : { QStringLiteral("sup-late-delivery"), QStringLiteral("sup-address-change") }) {
            const QString md = QDir(folder).filePath(room + QStringLiteral(".md"));
            QFile file(md);
            QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(md));
            QVERIFY(file.readAll().startsWith(QByteArray(QByteArray("# Room ") + room.toUtf8())));
            QVERIFY(ReportManifest::verify(md).ok);
        }
    }

    void roomFilter()
    {
        // A first run (no saved layout) in the size it takes on a desktop screen.
        QSettings().remove(QStringLiteral("window"));
        MainWindow window;
        window.resize(1500, 900);
        window.show();
        QSignalSpy shown(&window, &MainWindow::roomsShown);
        window.openPath(
            copyFixture(m_dir, QStringLiteral("roomkit/edge_cases.sqlite"), QStringLiteral("filter.sqlite")));
        QVERIFY(shown.wait(10000));
        // The first room shown and its rows in (showing it puts the keys in the timeline: under load that came after
        // the Ctrl+L below and took the focus back), and the window active (a shortcut reaches only the active one).
        QTRY_VERIFY(window.eventModel()->roomId() != 0 && window.statusText().startsWith(QLatin1String("showing ")));
        QTRY_VERIFY_WITH_TIMEOUT(!window.isImporting(), 30000); // the list's refreshes done: nothing moves the focus on
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        // Ctrl+L goes to the room filter; typing narrows the list by id or title.
        // The action Ctrl+L names, triggered as the key does (under ctest the offscreen window took the key event
        // itself as the focus moved, some runs, and none of this test's checks is about the key's delivery).
        QAction* findRoom = nullptr;
        for (QAction* a : window.findChildren<QAction*>()) {
            if (a->shortcut() == QKeySequence(Qt::CTRL | Qt::Key_L))
                findRoom = a;
        }
        QVERIFY(findRoom);
        findRoom->trigger();
        QTRY_VERIFY(window.roomList()->filterEdit()->hasFocus());
        QTest::keyClicks(window.roomList()->filterEdit(), QStringLiteral("blocked"));
        QTRY_COMPARE(window.roomList()->view()->model()->rowCount(), 3);
        window.roomList()->filterEdit()->clear();
        QTRY_COMPARE(window.roomList()->view()->model()->rowCount(), 26);

        // The Show menu: what rooms hold, as the manifest says (one room with failed calls, three with blocked
        // rows, two that spoke on SMS).
        QMenu* menu = window.roomList()->showButton()->menu();
        auto trigger = [&](const QString& text, QMenu* in = nullptr) {
            in = in ? in : menu;
            emit in->aboutToShow();
            for (QAction* a : in->actions()) {
                if (a->text().remove(QLatin1Char('&')) == text) {
                    a->trigger();
                    return a;
                }
            }
            return static_cast<QAction*>(nullptr);
        };
        auto names = [&] {
            QStringList out;
            QAbstractItemModel* m = window.roomList()->view()->model();
            for (int row = 0; row < m->rowCount(); ++row)
                out << m->index(row, 0).data(RoomListModel::NativeIdRole).toString();
            out.sort();
            return out;
        };
        // The rooms with a number in the Problems column: failed, refused or unanswered calls.
        QVERIFY(trigger(QStringLiteral("With Problem Calls (failed, refused, unanswered)")));
        QCOMPARE(names(),
            QStringList({ QStringLiteral("edge-stream-interrupted"), QStringLiteral("edge-tool-failed"),
                QStringLiteral("edge-tool-refused-hook"), QStringLiteral("edge-tool-refused-policy") }));
        QCOMPARE(window.roomList()->showButton()->text(), QStringLiteral("Show (1)"));
        // The column is seen at the window's default width, not cut off.
        const QHeaderView* header = window.roomList()->view()->header();
        QVERIFY(header->sectionViewportPosition(RoomListModel::ProblemsColumn) + header->sectionSize(RoomListModel::ProblemsColumn)
            <= window.roomList()->view()->viewport()->width());
        trigger(QStringLiteral("With Problem Calls (failed, refused, unanswered)"));
        QVERIFY(trigger(QStringLiteral("With Blocked Rows")));
        QCOMPARE(names(),
            QStringList({ QStringLiteral("edge-blocked-ai-output"), QStringLiteral("edge-blocked-inbound"),
                QStringLiteral("edge-blocked-source-permissions") }));
        trigger(QStringLiteral("Show All Rooms"));
        emit menu->aboutToShow();
        QMenu* channels = nullptr;
        for (QAction* a : menu->actions())
            if (a->menu() && a->text().remove(QLatin1Char('&')) == QLatin1String("Channel Type"))
                channels = a->menu();
        QVERIFY(channels);
        QVERIFY(trigger(QStringLiteral("sms"), channels));
        QCOMPARE(names(),
            QStringList({ QStringLiteral("edge-blocked-inbound"), QStringLiteral("edge-plain-multichannel") }));
        QCOMPARE(window.roomList()->showButton()->text(), QStringLiteral("Show (1)"));
        trigger(QStringLiteral("Show All Rooms"));
        QCOMPARE(window.roomList()->view()->model()->rowCount(), 26);
    }

    // File > Open Database: a URI without a password asks for one, then opens the store (nothing kept but the
    // URI without it); a second database lists its threads with their events and the one chosen is shown first.
    void openDatabase()
    {
        const PgServer& pg = PgServer::get();
        if (!pg.unavailable.isEmpty())
            QSKIP(qPrintable(QStringLiteral("PostgreSQL: ") + pg.unavailable));
        qunsetenv("PGPASSWORD");
        qputenv("PGPASSFILE", m_dir.filePath(QStringLiteral("no-pgpass")).toUtf8());
        MainWindow window;
        window.show();
        QAction* action = nullptr;
        for (QAction* a : window.findChildren<QAction*>()) {
            if (a->shortcut() == QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D))
                action = a;
        }
        QVERIFY(action);
        QCOMPARE(action->text(), QStringLiteral("Open &Database…"));

        QSignalSpy shown(&window, &MainWindow::roomsShown);
        window.openPath(pg.uri(QStringLiteral("roomkit"), QStringLiteral("reader"), false));
        OpenDatabaseDialog* dialog = window.openDatabaseDialog();
        QLineEdit* password = nullptr;
        for (QLineEdit* edit : dialog->findChildren<QLineEdit*>()) {
            if (edit->echoMode() == QLineEdit::Password)
                password = edit;
        }
        QVERIFY(password);
        // It shows once the server has asked for the password: seconds on a machine busy with other tests.
        QTRY_VERIFY_WITH_TIMEOUT(dialog->isVisible() && password->isVisible(), 20000);
        QLabel* status = nullptr;
        for (QLabel* label : dialog->findChildren<QLabel*>()) {
            if (label->text().contains(QLatin1String("asks for a password")))
                status = label;
        }
        QVERIFY(status);
        // A wrong one is refused, saying so; the right one opens the store.
        QTest::keyClicks(password, QStringLiteral("wrong"));
        QTest::keyClick(password, Qt::Key_Return);
        QTRY_VERIFY(status->text().contains(QLatin1String("refused the password for role reader")));
        password->clear();
        QTest::keyClicks(password, pg.passwords.value(QStringLiteral("reader")));
        QTest::keyClick(password, Qt::Key_Return);
        QVERIFY(shown.wait(10000));
        QTRY_VERIFY(!dialog->isVisible());
        QTRY_COMPARE(window.roomModel()->rowCount(), 15);
        QVERIFY2(window.windowTitle().startsWith(QStringLiteral("roomkit on %1").arg(pg.host)), qPrintable(window.windowTitle()));
        // The biggest room first (sup-duplicate-charge: its four calls' ends folded into their cards, as from
        // the SQLite store).
        QTRY_COMPARE(window.statusText(), QStringLiteral("showing 24 of 24 events as 20 items"));
        const QString bare = pg.uri(QStringLiteral("roomkit"), QStringLiteral("reader"), false);
        QCOMPARE(window.recentFiles().value(0), bare);
        QCOMPARE(OpenDatabaseDialog::recentDatabases().value(0), bare);
        QSettings().sync();
        QFile settings(QSettings().fileName());
        QVERIFY(settings.open(QIODevice::ReadOnly));
        QVERIFY(!settings.readAll().contains(pg.passwords.value(QStringLiteral("reader")).toUtf8()));

        // kaboo's threads, listed biggest first before anything is imported; the one chosen opens first.
        dialog->choose();
        QVERIFY(dialog->isVisible());
        QVERIFY(!password->isVisible());
        dialog->connectTo(pg.uri(QStringLiteral("kaboo")), false);
        QTreeWidget* rooms = dialog->findChild<QTreeWidget*>();
        QVERIFY(rooms);
        QTRY_COMPARE(rooms->topLevelItemCount(), 6);
        QCOMPARE(rooms->topLevelItem(0)->text(0), QStringLiteral("maya.okafor__th_qh7rhj416fnzjz5q3vyw"));
        QCOMPARE(rooms->topLevelItem(0)->data(2, Qt::DisplayRole).toLongLong(), 339);
        QVERIFY(!rooms->isColumnHidden(1));
        QTreeWidgetItem* chosen = rooms->findItems(QStringLiteral("th_985v8nrjgmpy2gn91679"), Qt::MatchExactly).value(0);
        QVERIFY(chosen);
        rooms->setCurrentItem(chosen);
        dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Open)->click();
        QTRY_COMPARE(window.roomModel()->rowCount(), 6);
        QTRY_VERIFY(window.roomList()->currentRoom() != 0);
        QString picked;
        for (const RoomSummary& r : window.roomModel()->rooms()) {
            if (r.id == window.roomList()->currentRoom())
                picked = r.nativeId;
        }
        QCOMPARE(picked, QStringLiteral("th_985v8nrjgmpy2gn91679"));
        QTRY_COMPARE(window.statusText().section(QLatin1Char(' '), 0, 3), QStringLiteral("showing 100 of 100"));
        qunsetenv("PGPASSFILE");
    }

    // A workspace opened as it is, made before text was packed: File > Compact Workspace packs it and writes it
    // anew, with a progress dialog, the status bar saying by how much, and the room reading the same. Opening it
    // says no "new events below": the rest of the room placed once its row index comes is not news.
    void compactsAnOlderWorkspace()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("older.sightline"));
        // The fixture three times over: a room of more than one block.
        const QString log = dir.filePath(QStringLiteral("EVENT.md"));
        {
            QFile in(dataFile(QStringLiteral("craftbot/EVENT.md")));
            QVERIFY(in.open(QIODevice::ReadOnly));
            const QByteArray records = in.readAll();
            QFile out(log);
            QVERIFY(out.open(QIODevice::WriteOnly));
            out.write(records + records + records);
        }
        {
            Workspace ws(path);
            Importer::import(ws, log);
            ws.exec(QStringLiteral("UPDATE events SET payload = unpack(payload), text = unpack(text) WHERE "
                                   "typeof(unpack(payload)) = 'text'"));
            ws.exec(QStringLiteral("UPDATE tool_calls SET arguments = unpack(arguments), result = unpack(result)"));
            ws.exec(QStringLiteral("VACUUM"));
        }
        const qint64 before = QFileInfo(path).size();
        MainWindow window;
        window.resize(1200, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QSignalSpy listed(&window, &MainWindow::roomsShown);
        window.openPath(path);
        // The row index (read on the count connection) comes a while after the first screen, as on a big room.
        window.store()->run(StoreClient::Kind::EditorRead, [](Workspace&, const CancelToken&) { QThread::msleep(1500); });
        QVERIFY(listed.wait(20000));
        QTRY_COMPARE(window.timeline()->model()->rowCount(), 256); // the first block alone
        QTRY_VERIFY(window.statusText().startsWith(QLatin1String("showing ")));
        const QString shown = window.statusText();
        TimelineView* timeline = window.timeline();
        QTRY_VERIFY(timeline->model()->rowCount() > 256); // more than the first block: the row index placed the rest
        QCOMPARE(timeline->newRowsBelow(), 0);
        QAction* compact = nullptr;
        for (QAction* a : window.findChildren<QAction*>()) {
            if (a->text() == QStringLiteral("&Compact Workspace…"))
                compact = a;
        }
        QVERIFY(compact);
        QVERIFY(window.menuBar()->actions().first()->menu()->actions().contains(compact)); // in File
        compact->trigger();
        QVERIFY(!compact->isEnabled());
        QTRY_VERIFY_WITH_TIMEOUT(compact->isEnabled(), 30000);
        QTRY_VERIFY2(window.statusMessage().startsWith(QLatin1String("Workspace compacted: ")), qPrintable(window.statusMessage()));
        QVERIFY2(window.findChildren<QProgressDialog*>().isEmpty() || !window.findChildren<QProgressDialog*>().first()->isVisible(),
            "the progress dialog stayed");
        QVERIFY2(QFileInfo(path).size() < before, qPrintable(QStringLiteral("%1 -> %2").arg(before).arg(QFileInfo(path).size())));
        // The window's room reads the same from the file written anew.
        timeline->scrollToEnd();
        QTRY_VERIFY(!timeline->model()->data(timeline->model()->index(timeline->model()->rowCount() - 1, 0)).toString().isEmpty());
        QTRY_COMPARE_WITH_TIMEOUT(window.statusText(), shown, 15000);
    }

    // A RoomKit store that an agent writes while the window shows it: new events come within a second, the place
    // read stays where it was and the timeline says there is more below; paused, nothing comes until resumed.
    // A note and a redaction made with the command line while the window is open on the workspace show in the window
    // at once (the workspace's journal looked at every two seconds; here every 200 ms), not once the room is picked
    // again.
    void aChangeMadeElsewhereShows()
    {
        const QString store = copyFixture(m_dir, QStringLiteral("roomkit/edge_cases.sqlite"), QStringLiteral("elsewhere.sqlite"));
        MainWindow window;
        window.workspaceWatcher()->setInterval(200);
        showAndOpen(window, store);
        QVERIFY(selectRoomNamed(window, QStringLiteral("edge-blocked-inbound")));
        QTRY_COMPARE(window.statusText(), QStringLiteral("showing 10 of 13 events as 9 items"));
        const qint64 room = window.eventModel()->roomId();
        QCOMPARE(window.roomModel()->room(room)->notes, 0);
        {
            // Another connection to the same workspace, as `sightline note` opens.
            Workspace elsewhere(Importer::cachedWorkspacePath(store));
            AnnotationStore review(elsewhere);
            review.addNote(room, std::nullopt, QStringLiteral("from the command line"), QStringLiteral("Ana"));
            review.save();
        }
        QTRY_COMPARE_WITH_TIMEOUT(window.roomModel()->room(room)->notes, 1, 5000);
    }

    void followsAStoreBeingWritten()
    {
        const QString store = copyFixture(m_dir, QStringLiteral("roomkit/support.sqlite"), QStringLiteral("followed.sqlite"));
        auto write = [&](int from, int count) {
            for (int i = from; i < from + count; ++i) {
                execSql(store,
                    QStringLiteral("INSERT INTO events SELECT 'live-%1', room_id, %1, type, visibility, source_channel_id, "
                                   "source_channel_type, participant_id, NULL, NULL, NULL, created_ts + %1, "
                                   "json_set(data, '$.id', 'live-%1', '$.index', %1, '$.content.body', 'written live %1') "
                                   "FROM events WHERE room_id = 'sup-late-delivery' AND idx = 2")
                        .arg(i));
            }
        };
        write(100, 40);
        MainWindow window;
        showAndOpen(window, store);
        QVERIFY(selectRoomNamed(window, QStringLiteral("sup-late-delivery")));
        QTRY_COMPARE(window.statusText(), QStringLiteral("showing 56 of 56 events as 53 items"));
        QVERIFY(window.follower()->isFollowing());
        TimelineView* timeline = window.timeline();
        timeline->verticalScrollBar()->setValue(0);
        QCOMPARE(timeline->topRow(), 0);

        write(140, 3);
        QTRY_COMPARE_WITH_TIMEOUT(window.statusText(), QStringLiteral("showing 59 of 59 events as 56 items"), 5000);
        QCOMPARE(timeline->topRow(), 0); // the place read stays
        QTRY_COMPARE(timeline->newRowsBelow(), 3);
        QPushButton* below = nullptr;
        for (QPushButton* b : timeline->findChildren<QPushButton*>()) {
            if (b->isVisible() && b->text().contains(QLatin1String("New events below (3)")))
                below = b;
        }
        QVERIFY(below);
        // In a strip of its own under the rows, not over the last of them.
        QVERIFY(below->geometry().top() > timeline->viewport()->geometry().bottom());
        const int rowsBottom = timeline->viewport()->geometry().bottom();
        below->click();
        QCOMPARE(timeline->newRowsBelow(), 0);
        QCOMPARE(timeline->lastVisibleRow(), 55);
        QVERIFY(timeline->viewport()->geometry().bottom() > rowsBottom); // the strip given back to the rows

        // Paused: the status bar says so, and what is written waits.
        QAction* follow = nullptr;
        for (QAction* a : window.findChildren<QAction*>()) {
            if (a->shortcut() == QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_L))
                follow = a;
        }
        QVERIFY(follow && follow->isChecked());
        follow->trigger();
        QVERIFY(window.follower()->isPaused());
        QToolButton* state = nullptr;
        for (QToolButton* b : window.statusBar()->findChildren<QToolButton*>()) {
            if (b->text() == QLatin1String("Follow paused"))
                state = b;
        }
        QVERIFY(state);
        write(143, 2);
        QTest::qWait(1500);
        QCOMPARE(window.statusText(), QStringLiteral("showing 59 of 59 events as 56 items"));
        follow->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(window.statusText(), QStringLiteral("showing 61 of 61 events as 58 items"), 5000);
        QCOMPARE(state->text(), QStringLiteral("\u25CF Following"));
        // At the end, the view stays at the end as rows come.
        QTRY_COMPARE(timeline->lastVisibleRow(), 57);
        QCOMPARE(timeline->newRowsBelow(), 0);
    }

    // The selected call of a followed log whose result comes later: its details follow (they said "unserved" until
    // another event was selected).
    void theSelectedCallsDetailsFollowTheLog()
    {
        const QString path = m_dir.filePath(QStringLiteral("th_details.jsonl"));
        // Plain literals: moc stops reading this file at an escaped quote inside a raw string.
        const QByteArray head = "{\"type\":\"RUN_STARTED\",\"runId\":\"r1\",\"threadId\":\"th_details\",\"timestamp\":1784120174544}\n"
                                "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"c1\",\"toolCallName\":\"lookup_order\",\"timestamp\":1784120174600}\n"
                                "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"c1\",\"delta\":\"{}\",\"timestamp\":1784120174610}\n"
                                "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"c1\",\"timestamp\":1784120174620}\n";
        const QByteArray tail = "{\"type\":\"TOOL_CALL_RESULT\",\"toolCallId\":\"c1\",\"messageId\":\"m1\",\"content\":\"shipped\",\"timestamp\":1784120175620}\n"
                                "{\"type\":\"RUN_FINISHED\",\"runId\":\"r1\",\"threadId\":\"th_details\",\"timestamp\":1784120175700}\n";
        QFile log(path);
        QVERIFY(log.open(QIODevice::WriteOnly));
        log.write(head);
        log.flush();
        MainWindow window;
        showAndOpen(window, path);
        QTRY_COMPARE(window.eventModel()->roomId() != 0, true);
        window.goToIndex(1);
        DetailsPane* details = window.detailsPane();
        QTRY_COMPARE(details->details().record.index, 1);
        QTRY_VERIFY(details->details().call.has_value());
        QCOMPARE(details->details().call->outcome, Outcome::Unserved);
        log.write(tail);
        log.close();
        QTRY_VERIFY_WITH_TIMEOUT(details->details().call && details->details().call->outcome == Outcome::Served, 5000);
        QCOMPARE(details->details().record.index, 1);
        QCOMPARE(details->details().call->result, QStringLiteral("shipped"));
    }

    // A followed log's sync that fails (a command-line import holds the workspace) is tried again at the next
    // look, the file unchanged since: its last rows come in once the other import is done. (The stamp was kept at
    // the sync's start, so a finished log's last rows never came, while the status bar said "tried again".)
    void aFailedSyncIsTriedAgain()
    {
        const QString path = m_dir.filePath(QStringLiteral("th_retry.jsonl"));
        const QByteArray head = "{\"type\":\"RUN_STARTED\",\"runId\":\"r1\",\"threadId\":\"th_retry\",\"timestamp\":1784120174544}\n"
                                "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"c1\",\"toolCallName\":\"lookup_order\",\"timestamp\":1784120174600}\n";
        const QByteArray tail = "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"c1\",\"timestamp\":1784120174620}\n"
                                "{\"type\":\"RUN_FINISHED\",\"runId\":\"r1\",\"threadId\":\"th_retry\",\"timestamp\":1784120175700}\n";
        QFile log(path);
        QVERIFY(log.open(QIODevice::WriteOnly));
        log.write(head);
        log.flush();
        MainWindow window;
        showAndOpen(window, path);
        QTRY_COMPARE(window.eventModel()->roomId() != 0, true);
        QTRY_COMPARE(window.eventModel()->rowCount(), 2);
        QSignalSpy failures(window.store(), &StoreClient::failed);
        {
            const ImportLock other(Importer::cachedWorkspacePath(path));
            log.write(tail);
            log.close();
            QTRY_VERIFY_WITH_TIMEOUT(!failures.isEmpty(), 5000); // the sync after the file grew: refused
            QTest::qWait(600); // more looks, the file unchanged
        }
        QTRY_VERIFY_WITH_TIMEOUT(window.eventModel()->rowCount() >= 3, 5000);
    }

    // A followed EVENT.md whose last record was read before CraftBot wrote its last lines: once they are in, the card
    // and its details show the record whole, though no event was added and no count moved (they kept the half
    // record, "{" for a result, until the next record came).
    void aRecordFinishedLaterIsShownWhole()
    {
        const QString path = m_dir.filePath(QStringLiteral("finished/EVENT.md"));
        QVERIFY(QDir().mkpath(QFileInfo(path).path()));
        QFile log(path);
        QVERIFY(log.open(QIODevice::WriteOnly));
        log.write("[2026/05/04 07:59:07] [user message]: Good morning!\n"
                  "[2026/05/04 07:59:09] [action_start]: Running action send_message with input: {\"message\": \"Hi\"}.\n"
                  "[2026/05/04 07:59:10] [action_end]: Action send_message completed with output: {\n");
        log.flush();
        MainWindow window;
        showAndOpen(window, path);
        QTRY_COMPARE(window.statusText(), QStringLiteral("showing 3 of 3 events as 2 items"));
        // A log being written: its unfinished last record is said in the status bar, not in a box.
        QTRY_VERIFY(window.statusMessage().contains(QLatin1String("last line is not finished yet")));
        QVERIFY(!window.findChild<QMessageBox*>());
        window.goToIndex(1);
        DetailsPane* details = window.detailsPane();
        QTRY_COMPARE(details->details().record.index, 1);
        QTRY_VERIFY(details->details().call.has_value());
        QVERIFY(!details->details().call->result.contains(QLatin1String("done")));
        log.write("  \"status\": \"done\"\n}.\n");
        log.close();
        QTRY_VERIFY_WITH_TIMEOUT(details->details().call->result.contains(QLatin1String("done")), 5000);
        QCOMPARE(details->details().record.index, 1);
        QCOMPARE(window.statusText(), QStringLiteral("showing 3 of 3 events as 2 items"));
    }

    // A long log opened: its first screen shows while the rest imports, and the rest is not "new events below" (the
    // button said 72,175 after a 100,000-record log's import, the view never scrolled); what the source gains after
    // is.
    void theRestOfAnImportIsNotNewEvents()
    {
        const QByteArray once = fileBytes(dataFile(QStringLiteral("craftbot/EVENT.md")));
        const QString path = m_dir.filePath(QStringLiteral("long/EVENT.md"));
        QVERIFY(QDir().mkpath(QFileInfo(path).path()));
        QFile log(path);
        QVERIFY(log.open(QIODevice::WriteOnly));
        for (int i = 0; i < 12; ++i)
            log.write(once);
        log.flush();
        MainWindow window;
        showAndOpen(window, path);
        QTRY_VERIFY_WITH_TIMEOUT(!window.isImporting(), 20000);
        QTRY_COMPARE(window.statusText().startsWith(QLatin1String("showing 4,020 of 4,020 events")), true);
        TimelineView* timeline = window.timeline();
        QCOMPARE(timeline->topRow(), 0);
        QCOMPARE(timeline->newRowsBelow(), 0);
        log.write("[2026/05/05 09:00:00] [user message]: One more thing.\n");
        log.close();
        QTRY_COMPARE_WITH_TIMEOUT(timeline->newRowsBelow(), 1, 5000);
        QCOMPARE(timeline->topRow(), 0);
    }

    void badFileIsReportedAndTheWindowGoesOn()
    {
        MainWindow window;
        window.show();
        const QString bad = m_dir.filePath(QStringLiteral("bad.sqlite"));
        QFile file(bad);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("not a database");
        file.close();
        window.openPath(bad);
        QMessageBox* box = nullptr;
        QTRY_VERIFY((box = window.findChild<QMessageBox*>()) != nullptr);
        QVERIFY(box->text().contains(bad));
        QVERIFY(box->text().contains(QLatin1String("not a source Sightline reads")));
        box->close();

        QSignalSpy shown(&window, &MainWindow::roomsShown);
        window.openDemo();
        QVERIFY(shown.wait(10000));
        QCOMPARE(window.roomModel()->rowCount(), 4);
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
