// The store client's tasks (StoreClient::run): typed, superseded by kind, stopped by their token and in their SQL,
// and reports on a connection of their own.
#include "canceltoken.h"
#include "storeclient.h"
#include "testsupport.h"
#include "workspace.h"

#include <atomic>
#include <QDir>
#include <QFile>
#include <QMap>
#include <QSemaphore>
#include <QSqlQuery>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

namespace {

// A statement that runs for minutes unless SQLite is told to stop it.
const QString Endless = QStringLiteral(
    "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 4000000000) SELECT count(*) FROM n");

} // namespace

using namespace TestSupport;

class TestStoreClient : public QObject
{
    Q_OBJECT

    void openIn(StoreClient& store, const QTemporaryDir& dir)
    {
        QSignalSpy opened(&store, &StoreClient::workspaceOpened);
        QSignalSpy finished(&store, &StoreClient::importFinished);
        store.open(dir.filePath(QStringLiteral("w.sightline")), { dataFile(QStringLiteral("roomkit/support.sqlite")) });
        QTRY_VERIFY_WITH_TIMEOUT(opened.count() == 1 && finished.count() == 1, 30000);
    }

    // Each thread of this process by its name (Linux: /proc/self/task), with its nice value.
    static QMap<QString, int> threadNiceValues()
    {
        QMap<QString, int> out;
        for (const QString& tid : QDir(QStringLiteral("/proc/self/task")).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
            QFile comm(QStringLiteral("/proc/self/task/%1/comm").arg(tid));
            QFile stat(QStringLiteral("/proc/self/task/%1/stat").arg(tid));
            if (!comm.open(QIODevice::ReadOnly) || !stat.open(QIODevice::ReadOnly))
                continue;
            // After the name in parentheses (which may hold spaces): state is field 3, nice field 19.
            const QByteArray line = stat.readAll();
            const QList<QByteArray> fields = line.mid(line.lastIndexOf(')') + 2).split(' ');
            const int nice = fields.value(19 - 3).toInt();
            out.insert(QString::fromUtf8(comm.readAll().trimmed()), nice);
            if (tid.toLongLong() == QCoreApplication::applicationPid())
                out.insert(QStringLiteral("(main)"), nice); // the process's own thread
        }
        return out;
    }

private slots:
    void kindsSayWhetherTheySupersede()
    {
        for (auto kind : { StoreClient::Kind::ToolStats, StoreClient::Kind::Waterfall, StoreClient::Kind::RedactionPreview,
                 StoreClient::Kind::ReportPreview, StoreClient::Kind::CompareStep })
            QVERIFY(StoreClient::supersedes(kind));
        for (auto kind : { StoreClient::Kind::Report, StoreClient::Kind::WorkspaceCopy, StoreClient::Kind::Compaction,
                 StoreClient::Kind::EditorRead, StoreClient::Kind::Edit, StoreClient::Kind::TeamSync,
                 StoreClient::Kind::Compare }) // two Compare windows: one never stops the other's comparison
            QVERIFY(!StoreClient::supersedes(kind));
        QVERIFY(!StoreClient::describe(StoreClient::Kind::ToolStats).isEmpty());
    }

    // The import yields the cores to the window's threads (a frame waits on Qt's fill threads, which waited behind
    // the import's two threads on two cores): its thread runs at a higher nice value, the threads that answer the
    // window (pages, counts, edits, reports) at the process's own.
    void theImportYieldsToTheWindow()
    {
#ifndef Q_OS_LINUX
        QSKIP("nice values per thread are Linux's");
#endif
        QTemporaryDir dir;
        StoreClient store;
        openIn(store, dir);
        const QMap<QString, int> nice = threadNiceValues();
        QVERIFY2(nice.contains(QStringLiteral("sightline-impor")), qPrintable(nice.keys().join(QLatin1Char(' '))));
        // Relative to the process's own (a test run under `nice` starts higher).
        const int own = nice.value(QStringLiteral("(main)"), -100);
        QVERIFY2(own != -100, qPrintable(nice.keys().join(QLatin1Char(' '))));
        QCOMPARE(nice.value(QStringLiteral("sightline-impor")), std::min(19, own + StoreClient::ImportNice));
        for (const char* name : { "sightline-store", "sightline-count", "sightline-edits", "sightline-repor" })
            QCOMPARE(nice.value(QLatin1String(name), -100), own);
    }

    // The statistics of one room asked, then of another: the first stops in its statement (it would run for minutes)
    // and is never answered; the second is.
    void aNewerTaskOfItsKindStopsTheOneUnderWay()
    {
        QTemporaryDir dir;
        StoreClient store;
        openIn(store, dir);
        std::atomic_bool started = false;
        bool firstDone = false, firstFailed = false, secondDone = false;
        QObject context;
        store.run(
            StoreClient::Kind::ToolStats,
            [&started](Workspace& ws, const CancelToken&) {
                started = true;
                ws.exec(Endless);
            },
            &context, [&] { firstDone = true; }, [&](const QString&) { firstFailed = true; });
        QTRY_VERIFY_WITH_TIMEOUT(started.load(), 10000);
        bool sawCancelled = false;
        store.run(
            StoreClient::Kind::ToolStats, [](Workspace& ws, const CancelToken&) { ws.exec(QStringLiteral("SELECT 1")); },
            &context, [&] { secondDone = true; }, {});
        // Another kind is never stopped by it: the waterfall asked meanwhile is answered too.
        bool waterfallDone = false;
        store.run(
            StoreClient::Kind::Waterfall, [&sawCancelled](Workspace&, const CancelToken& token) { sawCancelled = token.isCancelled(); },
            &context, [&] { waterfallDone = true; }, {});
        QTRY_VERIFY_WITH_TIMEOUT(secondDone && waterfallDone, 20000);
        QVERIFY(!sawCancelled);
        QTest::qWait(100);
        QVERIFY(!firstDone);
        QVERIFY(!firstFailed);
    }

    // A task that is not superseded by its kind (two reports) runs to its end, each answered.
    void reportsAreNeverSuperseded()
    {
        QTemporaryDir dir;
        StoreClient store;
        openIn(store, dir);
        int done = 0;
        QObject context;
        for (int i = 0; i < 2; ++i) {
            store.run(
                StoreClient::Kind::Report,
                [](Workspace& ws, const CancelToken& token) {
                    QThread::msleep(200);
                    QVERIFY(!token.isCancelled());
                    ws.exec(QStringLiteral("SELECT count(*) FROM events"));
                },
                &context, [&] { ++done; }, {});
        }
        QTRY_COMPARE_WITH_TIMEOUT(done, 2, 10000);
    }

    // An export under way holds its own connection: the panes' counts are answered meanwhile (they waited behind it).
    void aReportDoesNotHoldUpTheCounts()
    {
        QTemporaryDir dir;
        StoreClient store;
        openIn(store, dir);
        QSemaphore release;
        std::atomic_bool started = false;
        bool reportDone = false;
        QObject context;
        store.run(
            StoreClient::Kind::Report,
            [&](Workspace&, const CancelToken&) {
                started = true;
                release.acquire();
            },
            &context, [&] { reportDone = true; }, {});
        QTRY_VERIFY_WITH_TIMEOUT(started.load(), 10000);
        QSignalSpy rooms(&store, &StoreClient::roomsLoaded);
        QSignalSpy facets(&store, &StoreClient::facetsLoaded);
        store.loadRooms();
        QTRY_VERIFY_WITH_TIMEOUT(rooms.count() == 1, 10000);
        const qint64 room = rooms.first().at(1).value<RoomSummaries>().first().id;
        store.loadFacets(room, {});
        bool statsDone = false;
        store.run(StoreClient::Kind::ToolStats, [room](Workspace& ws, const CancelToken&) { ws.toolStats(room, {}); },
            &context, [&] { statsDone = true; }, {});
        QTRY_VERIFY_WITH_TIMEOUT(facets.count() == 1 && statsDone, 10000);
        QVERIFY(!reportDone);
        release.release();
        QTRY_VERIFY_WITH_TIMEOUT(reportDone, 10000);
    }

    // Another workspace opened: the task under way is answered as stopped at once, its token is cancelled, its
    // statement stops, and its connection serves the new workspace.
    void openingAnotherWorkspaceStopsATaskUnderWay()
    {
        QTemporaryDir dir;
        QTemporaryDir other;
        StoreClient store;
        openIn(store, dir);
        std::atomic_bool started = false;
        std::atomic_bool cancelledSeen = false;
        QString why;
        QObject context;
        store.run(
            StoreClient::Kind::EditorRead,
            [&](Workspace& ws, const CancelToken& token) {
                started = true;
                try {
                    ws.exec(Endless);
                } catch (...) {
                    cancelledSeen = token.isCancelled();
                    throw;
                }
            },
            &context, {}, [&](const QString& w) { why = w; });
        QTRY_VERIFY_WITH_TIMEOUT(started.load(), 10000);
        openIn(store, other);
        QVERIFY2(why.contains(QLatin1String("another source was opened")), qPrintable(why));
        bool done = false;
        store.run(StoreClient::Kind::ToolStats, [](Workspace& ws, const CancelToken&) { ws.exec(QStringLiteral("SELECT 1")); },
            &context, [&] { done = true; }, {});
        QTRY_VERIFY_WITH_TIMEOUT(done, 20000);
        QVERIFY(cancelledSeen.load());
    }
};

QTEST_GUILESS_MAIN(TestStoreClient)
#include "tst_storeclient.moc"
