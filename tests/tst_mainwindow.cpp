// The main window, offscreen: open a store, pick a room, see its events and the "showing X of Y" status.

#include "eventlistmodel.h"
#include "eventlistview.h"
#include "mainwindow.h"
#include "roomlistmodel.h"
#include "roomlistview.h"
#include "testsupport.h"

#include <QAction>
#include <QApplication>
#include <QLineEdit>
#include <QMessageBox>
#include <QSignalSpy>
#include <QTest>
#include <QTreeView>

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

private slots:
    void opensAStoreAndShowsARoom()
    {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QSignalSpy shown(&window, &MainWindow::roomsShown);
        window.openPath(copyFixture(m_dir, QStringLiteral("roomkit/edge_cases.sqlite")));
        QVERIFY(shown.wait(10000));
        QCOMPARE(window.roomModel()->rowCount(), 26);
        // The first room is picked and its events are shown, with the count in the status bar.
        QTRY_COMPARE(window.eventModel()->rowCount(), 11);
        QTRY_COMPARE(window.statusText(), QStringLiteral("showing 11 of 11 events"));

        // A room with blocked rows: they are left out by default, and the status says so.
        QVERIFY(selectRoomNamed(window, QStringLiteral("edge-blocked-inbound")));
        QTRY_COMPARE(window.statusText(), QStringLiteral("showing 10 of 13 events"));
        QTRY_COMPARE(window.eventModel()->rowCount(), 10);
        const QModelIndex first = window.eventList()->model()->index(0, EventListModel::TypeColumn);
        QCOMPARE(first.data().toString(), QStringLiteral("channel_attached"));
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
        QTRY_COMPARE(window.statusText(), QStringLiteral("showing 24 of 24 events"));
        QVERIFY(window.summaryText().contains(QLatin1String("Events rolled up for 2026-05-04T12:07:29")));
        QVERIFY(selectRoomNamed(window, QStringLiteral("__main__")));
        QTRY_COMPARE(window.statusText(), QStringLiteral("showing 101 of 101 events"));
        QCOMPARE(window.summaryText(), QString());
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

    void roomFilter()
    {
        MainWindow window;
        window.show();
        QSignalSpy shown(&window, &MainWindow::roomsShown);
        window.openPath(
            copyFixture(m_dir, QStringLiteral("roomkit/edge_cases.sqlite"), QStringLiteral("filter.sqlite")));
        QVERIFY(shown.wait(10000));
        // Ctrl+L goes to the room filter; typing narrows the list by id or title.
        QTest::keyClick(&window, Qt::Key_L, Qt::ControlModifier);
        QTRY_VERIFY(window.roomList()->filterEdit()->hasFocus());
        QTest::keyClicks(window.roomList()->filterEdit(), QStringLiteral("blocked"));
        QTRY_COMPARE(window.roomList()->view()->model()->rowCount(), 3);
        window.roomList()->filterEdit()->clear();
        QTRY_COMPARE(window.roomList()->view()->model()->rowCount(), 26);
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
