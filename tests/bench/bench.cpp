// Sightline's benchmark (issue "Scale"): at each size, the time of each piece of work a user waits for, through
// the real code, next to a baseline measured in the same run on the same file (raw SQLite through its C API, or
// the sqlite3 command line), and their ratio. Ratios, not absolute times, are what carry across machines.
//
//   sightline_bench [--events 1000,100000,1000000] [--dir DIR]   (stores generated in DIR are kept for the next run)

#include "cli.h"
#include "detailspane.h"
#include "eventlistmodel.h"
#include "eventlistview.h"
#include "mainwindow.h"
#include "aguiloggenerator.h"
#include "eventmdgenerator.h"
#include "sources/aguireader.h"
#include "sources/craftbotreader.h"
#include "sources/eventmdparser.h"
#include "roomkitstoregenerator.h"
#include "roomlistmodel.h"
#include "roomlistview.h"
#include "sources/importer.h"
#include "sources/pgconnection.h"
#include "testsupport.h"
#include "storeclient.h"
#include "storeerror.h"
#include "timelinedelegate.h"
#include "timelineview.h"
#include "waterfalldock.h"
#include "waterfalllayout.h"
#include "waterfallview.h"
#include "workspace.h"

#include <functional>
#include <optional>
#include <limits>
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QProcess>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTextStream>
#include <QThread>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QKeyEvent>
#include <QTabWidget>
#include <QPainter>
#include <QTimer>
#include <sqlite3.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <execinfo.h>
#include <pthread.h>
#include <thread>

namespace {

struct Row
{
    QString work;
    double ms = 0;
    double baselineMs = 0;
    QString baseline;
    QString target;
    qint64 events = -1; // the events of the room it measures, when not the run's size (a room of big values)
};

double timeMs(const std::function<void()>& work)
{
    QElapsedTimer t;
    t.start();
    work();
    return t.nsecsElapsed() / 1e6;
}

// The median of a few runs, for the quick figures.
double medianMs(int runs, const std::function<void()>& work)
{
    QVector<double> times;
    for (int i = 0; i < runs; ++i)
        times << timeMs(work);
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

// Runs the event loop until `done` holds; a figure that never comes stops the benchmark, loudly. It sleeps
// until the next event (a worker's reply wakes it at once) instead of polling: a polling loop took a core from
// the workers it timed, on a machine of two.
void waitFor(const std::function<bool()>& done, qint64 limitMs = 240000)
{
    QElapsedTimer t;
    t.start();
    QTimer tick; // wakes the wait now and then, so that the give-up check runs
    tick.start(50);
    while (!done()) {
        if (t.elapsed() > limitMs) {
            QTextStream(stderr) << "sightline_bench: gave up waiting after " << limitMs / 1000 << " s" << Qt::endl;
            std::exit(1);
        }
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
    }
}

// Raw SQLite: a query stepped to its end through the C API, every column read.
double rawMs(const QString& path, const QByteArray& sql, int runs = 5)
{
    sqlite3* db = nullptr;
    const QByteArray uri = (QStringLiteral("file:") + path + QStringLiteral("?immutable=1")).toUtf8();
    sqlite3_open_v2(uri.constData(), &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr);
    const double ms = medianMs(runs, [&] {
        sqlite3_stmt* st = nullptr;
        sqlite3_prepare_v2(db, sql.constData(), -1, &st, nullptr);
        qint64 bytes = 0;
        while (sqlite3_step(st) == SQLITE_ROW) {
            for (int c = 0; c < sqlite3_column_count(st); ++c)
                bytes += sqlite3_column_bytes(st, c);
        }
        sqlite3_finalize(st);
        Q_UNUSED(bytes);
    });
    sqlite3_close(db);
    return ms;
}

// What any copy into SQLite costs, with nothing derived: the rows' JSON alone inserted into a new file set up as
// a workspace is (WAL, 16 KB pages, synchronous NORMAL), batch by batch as the import commits. The floor under
// the import's ratio: a design that keeps payloads in the workspace pays at least this.
double copyFloorMs(const QString& store, const QString& dir)
{
    const QString path = dir + QStringLiteral("/copy-floor.sqlite");
    for (const char* suffix : { "", "-wal", "-shm" })
        QFile::remove(path + QLatin1String(suffix));
    sqlite3* db = nullptr;
    sqlite3_open(path.toUtf8().constData(), &db);
    auto exec = [db](const QByteArray& sql) {
        if (sqlite3_exec(db, sql.constData(), nullptr, nullptr, nullptr) != SQLITE_OK) {
            QTextStream(stderr) << "sightline_bench: " << sqlite3_errmsg(db) << " in " << sql << Qt::endl;
            std::exit(1);
        }
    };
    exec("PRAGMA page_size = 16384; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; "
         "PRAGMA cache_size = -65536; CREATE TABLE t(id INTEGER PRIMARY KEY, payload NOT NULL)");
    exec("ATTACH '" + store.toUtf8() + "' AS s");
    sqlite3_stmt* st = nullptr;
    sqlite3_prepare_v2(db, "SELECT max(rowid) FROM s.events", -1, &st, nullptr);
    sqlite3_step(st);
    const qint64 last = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    const double ms = timeMs([&] {
        for (qint64 from = 0; from <= last; from += 5000) {
            exec("BEGIN; INSERT INTO t(payload) SELECT data FROM s.events WHERE rowid >= " + QByteArray::number(from)
                + " AND rowid < " + QByteArray::number(from + 5000) + "; COMMIT");
        }
    });
    sqlite3_close(db);
    for (const char* suffix : { "", "-wal", "-shm" })
        QFile::remove(path + QLatin1String(suffix));
    return ms;
}

qint64 residentKb(const char* field = "VmRSS:")
{
    QFile status(QStringLiteral("/proc/self/status"));
    status.open(QIODevice::ReadOnly);
    for (const QByteArray& line : status.readAll().split('\n')) {
        if (line.startsWith(field))
            return line.mid(qstrlen(field)).trimmed().split(' ').first().toLongLong();
    }
    return 0;
}

// The application's reading side, as it runs behind the window: the store worker and the count worker on
// `workspace`, the timeline model, and the real view (only what it shows is read).
struct Viewer
{
    StoreClient client;
    EventListModel model { &client };
    TimelineView view;

    explicit Viewer(const QString& workspace)
    {
        QSignalSpy opened(&client, &StoreClient::workspaceOpened);
        client.open(workspace);
        waitFor([&] { return opened.count() > 0; });
        model.setMode(EventListModel::Mode::Timeline);
        view.setModel(&model);
        view.resize(900, 700);
        view.show();
    }
};

// Opens the workspace as the application does, shows its biggest room and scrolls it end to end; prints the
// resident and the peak memory in KB. Run in a process of its own, so the figure is the viewer's and not the
// importer's that ran before it.
int scrollEndToEnd(const QString& workspace)
{
    qint64 bigRoom = 0;
    {
        Workspace ws(workspace);
        bigRoom = ws.findRooms(QStringLiteral("room-big")).first();
    }
    Viewer viewer(workspace);
    EventListModel& model = viewer.model;
    TimelineView& view = viewer.view;
    model.setRoom(bigRoom);
    waitFor([&] { return model.isIndexed() && !model.isLoading(); });
    for (int row = 0; row < model.rowCount(); row += EventListModel::BlockSize / 2) {
        view.verticalScrollBar()->setValue(row);
        view.viewport()->repaint();
        waitFor([&] { return !model.isLoading(); });
    }
    QTextStream(stdout) << residentKb() << ' ' << residentKb("VmHWM:") << Qt::endl;
    return 0;
}

// Exports a room of WORKSPACE (the biggest unless ROOM is named) as a report in FORMAT to OUT through the CLI, as
// a user would; prints the time in ms and the peak memory in KB. Run in a process of its own, so the peak is the
// export's.
int exportReport(const QString& format, const QString& workspace, const QString& out, const QString& room)
{
    QFile null(QStringLiteral("/dev/null"));
    null.open(QIODevice::WriteOnly);
    QTextStream sink(&null);
    const double ms = timeMs([&] {
        Cli::run({ QStringLiteral("sightline"), QStringLiteral("export"), workspace, QStringLiteral("--room"),
                     room.isEmpty() ? QStringLiteral("room-big") : room, QStringLiteral("--query"), QStringLiteral("blocked:include"),
                     QStringLiteral("--format"), format, QStringLiteral("-o"), out },
            sink, sink);
    });
    QTextStream(stdout) << ms << ' ' << residentKb("VmHWM:") << Qt::endl;
    return QFileInfo(out).size() > 0 ? 0 : 1;
}

// The first open of a source never seen before, in the real window: from the open until the biggest room's first
// screen is in its model, while the rest imports in the background (the window then closes, which stops the
// import after its batch). Its cached workspace is removed before and after.
double firstOpenMs(const QString& source)
{
    const QString cached = Importer::cachedWorkspacePath(source);
    const auto removeCache = [&] {
        for (const char* suffix : { "", "-wal", "-shm" })
            QFile::remove(cached + QLatin1String(suffix));
    };
    removeCache();
    double ms = 0;
    {
        MainWindow window;
        window.resize(1200, 800);
        window.show();
        QElapsedTimer t;
        t.start();
        window.openPath(source);
        waitFor([&] { return window.eventModel()->rowCount() > 0 && window.eventModel()->loadedRecord(0); });
        ms = t.nsecsElapsed() / 1e6;
    }
    removeCache();
    return ms;
}

// The room's first screen is in the window's model.
bool showsFirstScreen(MainWindow& window, qint64 room)
{
    return window.eventModel()->roomId() == room && window.eventModel()->rowCount() > 0
        && window.eventModel()->loadedRecord(0);
}

// The smallest room the window lists as not read yet, once it lists one; none when the import ends first.
std::optional<RoomSummary> smallestUnreadRoom(MainWindow& window)
{
    std::optional<RoomSummary> target;
    waitFor([&] {
        target.reset();
        for (const RoomSummary& r : window.roomModel()->rooms()) {
            if (r.notReadYet() && (!target || r.sourceEvents() < target->sourceEvents()))
                target = r;
        }
        return target.has_value() || !window.isImporting();
    });
    return target;
}

// A room clicked while a new store imports, before the import reached it: from the click to its first screen in
// the window's model (the import stops the room it reads after its batch, reads that one, and then resumes). The
// room is the smallest not read yet, clicked once the biggest room's first screen is in. Returns the time and the
// room, or -1 when the import ended before a room was left to click (a small store).
std::pair<double, QString> roomOnRequestMs(const QString& source)
{
    const QString cached = Importer::cachedWorkspacePath(source);
    const auto removeCache = [&] {
        for (const char* suffix : { "", "-wal", "-shm" })
            QFile::remove(cached + QLatin1String(suffix));
    };
    removeCache();
    std::pair<double, QString> out { -1, QString() };
    {
        MainWindow window;
        window.resize(1200, 800);
        window.show();
        window.setImportRefreshInterval(100);
        window.openPath(source);
        waitFor([&] { return window.eventModel()->rowCount() > 0 && window.eventModel()->loadedRecord(0); });
        const std::optional<RoomSummary> target = smallestUnreadRoom(window);
        if (target && window.isImporting()) {
            QElapsedTimer t;
            t.start();
            window.roomList()->selectRoom(target->id);
            waitFor([&] { return showsFirstScreen(window, target->id); });
            out = { t.nsecsElapsed() / 1e6, target->nativeId };
        }
        window.close();
    }
    removeCache();
    return out;
}

// What the window's thread is doing 40 ms into a frame: a watchdog thread signals it, and the signal's handler takes
// its stack (backtrace(), through the unwinder's tables: the build keeps no frame pointers). Printed with the long
// frame, so that a frame neither a core nor the disk explains says where its time went.
namespace StackSample {
std::atomic<qint64> frameStartNs { 0 }; // when the frame being served began (a steady clock's ns), 0: none
std::atomic<bool> taken { false };
void* frames[48];
int depth = 0;
pthread_t window;

void take(int)
{
    if (!taken.load()) {
        depth = backtrace(frames, 48);
        taken.store(true);
    }
}

qint64 nowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Runs until `stop`: every 5 ms, a frame 40 ms old whose stack is not taken yet is sampled once.
void watch(const std::atomic<bool>& stop)
{
    qint64 sampled = 0;
    while (!stop.load()) {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        const qint64 start = frameStartNs.load();
        if (start != 0 && start != sampled && nowNs() - start > 40000000) {
            sampled = start;
            pthread_kill(window, SIGPROF);
        }
    }
}
} // namespace StackSample

// A store never seen, opened in the window and worked in while the rest is read, as by a user who opens last month's
// store for one customer: the biggest room's first screen; the smallest room not read yet clicked, and its first
// screen; then, until the import ends, the biggest room scrolled a wheel step a frame (a 16 ms timer) with a drag of
// the scroll bar's thumb to another place every two seconds. A frame's time is the interval between two ticks: a
// tick that the window's thread could not serve in time shows as a long one. Prints the first screen in ms, the
// room's in ms, the room, the longest frame in ms, the frames over 50 ms, the frames, the whole read in ms and the
// peak memory in KB. A process of its own, so the peak is the window's with its import.
int backgroundRead(const QString& source, bool screensOnly)
{
    const QString cached = Importer::cachedWorkspacePath(source);
    for (const char* suffix : { "", "-wal", "-shm" })
        QFile::remove(cached + QLatin1String(suffix));
    MainWindow window;
    window.resize(1200, 800);
    window.show();
    QElapsedTimer whole;
    whole.start();
    window.openPath(source);
    waitFor([&] { return window.eventModel()->rowCount() > 0 && window.eventModel()->loadedRecord(0); });
    const double firstMs = whole.nsecsElapsed() / 1e6;
    const qint64 bigRoom = window.eventModel()->roomId();

    const std::optional<RoomSummary> target = smallestUnreadRoom(window);
    if (!target || !window.isImporting()) {
        QTextStream(stderr) << "sightline_bench: the import ended before a room was left to click" << Qt::endl;
        return 1;
    }
    QElapsedTimer t;
    t.start();
    window.roomList()->selectRoom(target->id);
    waitFor([&] { return showsFirstScreen(window, target->id); });
    const double roomMs = t.nsecsElapsed() / 1e6;
    if (screensOnly) { // the two first screens alone: a minute's measure where the whole read takes ten
        QTextStream(stdout) << firstMs << ' ' << roomMs << ' ' << target->nativeId << ' ' << residentKb("VmHWM:")
                            << Qt::endl;
        window.close();
        for (const char* suffix : { "", "-wal", "-shm" })
            QFile::remove(cached + QLatin1String(suffix));
        return 0;
    }

    window.roomList()->selectRoom(bigRoom);
    waitFor([&] { return showsFirstScreen(window, bigRoom); });
    QAbstractItemView* view = window.eventList();
    QScrollBar* bar = view->verticalScrollBar();
    QVector<double> frames;
    QElapsedTimer frame;
    QTimer tick;
    tick.setTimerType(Qt::PreciseTimer);
    tick.setInterval(16);
    quint32 seed = 7;
    // How long the window's thread waited for a core, in nanoseconds (Linux's schedstat: run time, run delay, slices):
    // a long frame the thread spent waiting is the machine's, not the window's work.
    const auto schedstat = [](int field) {
        QFile stat(QStringLiteral("/proc/thread-self/schedstat"));
        return stat.open(QIODevice::ReadOnly) ? stat.readAll().split(' ').value(field).toLongLong() : 0;
    };
    const auto waitedNs = [&schedstat] { return schedstat(1); };
    // And how often it had to read a page back from the disk (its major page faults, /proc/thread-self/stat's twelfth
    // field, after the command's parentheses): a frame stalled on one is the page cache's, which the import's
    // gigabytes churn, not the window's work either.
    const auto majorFaults = [] {
        QFile stat(QStringLiteral("/proc/thread-self/stat"));
        if (!stat.open(QIODevice::ReadOnly))
            return qint64(0);
        const QByteArray line = stat.readAll();
        return line.mid(line.lastIndexOf(')') + 2).split(' ').value(9).toLongLong();
    };
    qint64 faultsBefore = majorFaults();
    const qint64 ranBefore = schedstat(0); // and how long it ran, for what a frame's work is on average
    qint64 ranFrameBefore = ranBefore; // and in each frame: a long frame it did not run through was blocked
    {
        void* warm[4];
        backtrace(warm, 4); // the unwinder loaded now, not in the signal's handler
    }
    StackSample::window = pthread_self();
    struct sigaction sample = {};
    sample.sa_handler = StackSample::take;
    sample.sa_flags = SA_RESTART; // the window's system calls go on after it
    sigaction(SIGPROF, &sample, nullptr);
    std::atomic<bool> stopWatching { false };
    std::thread watchdog(StackSample::watch, std::cref(stopWatching));
    qint64 waitedBefore = waitedNs();
    qint64 waitedInAll = 0; // over the whole read, and how many frames waited more than 16 ms (a frame at 60 Hz)
    int framesThatWaited = 0;
    QObject::connect(&tick, &QTimer::timeout, [&] {
        const qint64 waited = waitedNs();
        const qint64 faults = majorFaults();
        const qint64 ran = schedstat(0);
        if (frame.isValid()) {
            frames << frame.nsecsElapsed() / 1e6;
            if (frames.last() > 50) { // where a long frame falls: the run's time, the room's rows, the import's state
                QTextStream(stderr) << "long frame " << frames.last() << " ms at " << whole.elapsed() << " ms, "
                                    << window.eventModel()->rowCount() << " rows, "
                                    << (window.isImporting() ? "importing" : "done") << ", waiting for a core "
                                    << (waited - waitedBefore) / 1000000 << " ms of it, running "
                                    << (ran - ranFrameBefore) / 1000000 << " ms, " << faults - faultsBefore
                                    << " pages read back from the disk" << Qt::endl;
                if (StackSample::taken.load()) { // its stack 40 ms in
                    QTextStream(stderr) << "  its stack 40 ms in:" << Qt::endl;
                    backtrace_symbols_fd(StackSample::frames, StackSample::depth, STDERR_FILENO);
                }
            }
            waitedInAll += waited - waitedBefore;
            framesThatWaited += waited - waitedBefore > 16000000 ? 1 : 0;
        }
        waitedBefore = waited;
        faultsBefore = faults;
        ranFrameBefore = ran;
        StackSample::taken.store(false);
        StackSample::frameStartNs.store(StackSample::nowNs());
        frame.start();
        if (frames.size() % 125 == 124) {
            seed = seed * 1103515245u + 12345u;
            bar->setValue(int(qint64(seed >> 8) % std::max(1, bar->maximum())));
        } else {
            const int next = bar->value() + bar->singleStep() * 3;
            bar->setValue(next > bar->maximum() ? 0 : next);
        }
        view->viewport()->repaint();
    });
    tick.start();
    waitFor([&] { return !window.isImporting(); }, 3600000);
    tick.stop();
    stopWatching.store(true);
    watchdog.join();
    StackSample::frameStartNs.store(0);
    const double readMs = whole.nsecsElapsed() / 1e6;
    std::sort(frames.begin(), frames.end());
    const auto over = std::count_if(frames.begin(), frames.end(), [](double ms) { return ms > 50; });
    const qint64 ranNs = schedstat(0) - ranBefore;
    QTextStream(stderr) << "the window's thread waited for a core " << waitedInAll / 1000000 << " ms in all, "
                        << framesThatWaited << " frames over 16 ms of it; it ran " << ranNs / 1000000 << " ms, "
                        << (frames.isEmpty() ? 0.0 : ranNs / 1e6 / frames.size()) << " ms a frame" << Qt::endl;
    QTextStream(stdout) << firstMs << ' ' << roomMs << ' ' << target->nativeId << ' '
                        << (frames.isEmpty() ? 0.0 : frames.last()) << ' ' << over << ' ' << frames.size() << ' '
                        << readMs << ' ' << residentKb("VmHWM:") << Qt::endl;
    window.close();
    for (const char* suffix : { "", "-wal", "-shm" })
        QFile::remove(cached + QLatin1String(suffix));
    return 0;
}

// `events SOURCE --room ID --count` on a store never seen: that room alone imported into a new workspace, then
// counted, as the command does.
double oneRoomCountMs(const QString& source, const QString& workspace, const QString& room)
{
    for (const char* suffix : { "", "-wal", "-shm" })
        QFile::remove(workspace + QLatin1String(suffix));
    const double ms = timeMs([&] {
        Workspace ws(workspace);
        ImportOptions options;
        options.onlyRooms = QStringList { room };
        Importer::import(ws, source, options);
        const qint64 id = ws.findRooms(room).value(0);
        if (ws.room(id)->eventCount <= 0) {
            QTextStream(stderr) << "sightline_bench: " << room << " was not read" << Qt::endl;
            std::exit(1);
        }
    });
    for (const char* suffix : { "", "-wal", "-shm" })
        QFile::remove(workspace + QLatin1String(suffix));
    return ms;
}

// Imports SOURCE into a new WORKSPACE; prints the time in ms and the peak memory in KB. Run in a process of its
// own, so the peak is the import's.
int importPeak(const QString& source, const QString& workspace)
{
    for (const char* suffix : { "", "-wal", "-shm" })
        QFile::remove(workspace + QLatin1String(suffix));
    double ms = 0;
    {
        Workspace ws(workspace);
        ms = timeMs([&] { Importer::import(ws, source); });
    }
    QTextStream(stdout) << ms << ' ' << residentKb("VmHWM:") << Qt::endl;
    return 0;
}

// The floor under a log's import: its events' bytes alone (a line of JSON Lines; an EVENT.md record, from its
// "[date time] [kind]:" line up to the next), inserted into a new file set up as a workspace is, batch by batch, as
// copyFloorMs does for a store's rows. `startsEvent(line)` says where an event starts.
double logCopyFloorMs(const QString& log, const QString& dir, const std::function<bool(const QByteArray&)>& startsEvent)
{
    const QString path = dir + QStringLiteral("/copy-floor.sqlite");
    for (const char* suffix : { "", "-wal", "-shm" })
        QFile::remove(path + QLatin1String(suffix));
    sqlite3* db = nullptr;
    sqlite3_open(path.toUtf8().constData(), &db);
    sqlite3_exec(db,
        "PRAGMA page_size = 16384; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; "
        "PRAGMA cache_size = -65536; CREATE TABLE t(id INTEGER PRIMARY KEY, payload NOT NULL)",
        nullptr, nullptr, nullptr);
    sqlite3_stmt* insert = nullptr;
    sqlite3_prepare_v2(db, "INSERT INTO t(payload) VALUES (?)", -1, &insert, nullptr);
    const double ms = timeMs([&] {
        QFile file(log);
        file.open(QIODevice::ReadOnly);
        int inBatch = 0;
        QByteArray event;
        const auto flush = [&] {
            if (event.isEmpty())
                return;
            sqlite3_bind_text(insert, 1, event.constData(), int(event.size()), SQLITE_STATIC);
            sqlite3_step(insert);
            sqlite3_reset(insert);
            event.clear();
            if (++inBatch == 20000) {
                sqlite3_exec(db, "COMMIT; BEGIN", nullptr, nullptr, nullptr);
                inBatch = 0;
            }
        };
        sqlite3_exec(db, "BEGIN", nullptr, nullptr, nullptr);
        while (!file.atEnd()) {
            const QByteArray line = file.readLine();
            if (startsEvent(line))
                flush();
            event += line;
        }
        flush();
        sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr);
    });
    sqlite3_finalize(insert);
    sqlite3_close(db);
    for (const char* suffix : { "", "-wal", "-shm" })
        QFile::remove(path + QLatin1String(suffix));
    return ms;
}

// The schema floor under an import (issue "Rooms on demand"): SQLite's own shell copying the finished `events` and
// `tool_calls` rows of WORKSPACE into the empty tables of a new workspace, with their indexes, at the workspace's
// pragmas. What SQLite itself costs for the rows the import writes; the import's parsing, pairing, full-text index and
// bookkeeping are what it pays on top. The rooms go first, untimed (the rows refer to them).
double schemaFloorMs(const QString& workspace, const QString& dir, const QByteArrayList& without = {})
{
    const QString empty = dir + QStringLiteral("/schema-floor.sightline");
    const auto remove = [&] {
        for (const char* suffix : { "", "-wal", "-shm" })
            QFile::remove(empty + QLatin1String(suffix));
    };
    remove();
    {
        Workspace ws(empty);
    }
    const auto shell = [&](const QByteArray& sql) {
        QProcess sqlite;
        sqlite.start(QStringLiteral("sqlite3"), { QStringLiteral("-bail"), empty });
        sqlite.write("PRAGMA synchronous = NORMAL; PRAGMA secure_delete = ON; PRAGMA foreign_keys = ON;\n"
                     "ATTACH '" + workspace.toUtf8() + "' AS s;\n" + sql + "\n");
        sqlite.closeWriteChannel();
        const double ms = timeMs([&] { sqlite.waitForFinished(-1); });
        if (sqlite.exitCode() != 0 || sqlite.exitStatus() != QProcess::NormalExit) {
            QTextStream(stderr) << "sightline_bench: sqlite3 failed: " << sqlite.readAllStandardError() << Qt::endl;
            std::exit(1);
        }
        return ms;
    };
    QByteArray drops;
    for (const QByteArray& index : without)
        drops += "DROP INDEX " + index + ";";
    shell(drops + "INSERT INTO sources SELECT * FROM s.sources; INSERT INTO rooms SELECT * FROM s.rooms;");
    ::sync();
    const double ms = shell("BEGIN; INSERT INTO events SELECT * FROM s.events; "
                            "INSERT INTO tool_calls SELECT * FROM s.tool_calls; COMMIT;");
    remove();
    return ms;
}

Row schemaFloorRow(const QString& what, double importMs, const QString& workspace, const QString& dir)
{
    return Row { what + QStringLiteral("import against the schema floor"), importMs, schemaFloorMs(workspace, dir),
        QStringLiteral("(schema floor) its events and calls copied by sqlite3 into an empty workspace"),
        QStringLiteral("≤ 1.5 ×") };
}

struct Figure
{
    QString name;
    std::function<void(Workspace&, qint64)> run;
};

// The figures a user waits for in the window that an index of the rows may serve, each run on a room.
QVector<Figure> indexFigures()
{
    EventFilter calls;
    calls.types = { QStringLiteral("tool_call_start") };
    EventFilter channel;
    channel.channels = { QStringLiteral("ws-user") };
    EventFilter blocked;
    blocked.blockedOnly = true;
    EventFilter failed;
    failed.outcomes = { QStringLiteral("failed") };
    EventFilter find;
    find.words = { QStringLiteral("invoice") };
    find.timelineItems = true;
    EventFilter messages;
    messages.kinds = { QStringLiteral("message") };
    return {
        { QStringLiteral("first screen"), [](Workspace& ws, qint64 room) { ws.listEvents(room, {}, { 200, 0 }); } },
        { QStringLiteral("row index"),
            [](Workspace& ws, qint64 room) { ws.indexRows(room, {}, EventListModel::BlockSize); } },
        { QStringLiteral("a block in the middle"),
            [](Workspace& ws, qint64 room) {
                ws.listEvents(room, {}, { 200, 0, false, ws.room(room)->eventCount / 2 });
            } },
        { QStringLiteral("filter by type, first screen"),
            [calls](Workspace& ws, qint64 room) { ws.listEvents(room, calls, { 200, 0 }); } },
        { QStringLiteral("\"X of Y\" under a type filter"), [calls](Workspace& ws, qint64 room) { ws.countEvents(room, &calls); } },
        { QStringLiteral("filter by kind (messages), first screen"),
            [messages](Workspace& ws, qint64 room) { ws.listEvents(room, messages, { 200, 0 }); } },
        { QStringLiteral("filter by a rare type (system), first screen"),
            [](Workspace& ws, qint64 room) {
                EventFilter rare;
                rare.types = { QStringLiteral("system") };
                ws.listEvents(room, rare, { 200, 0 });
            } },
        { QStringLiteral("filter by a type the room lacks, first screen"),
            [](Workspace& ws, qint64 room) {
                EventFilter none;
                none.types = { QStringLiteral("no_such_type") };
                ws.listEvents(room, none, { 200, 0 });
            } },
        { QStringLiteral("filter by a rare channel (system), first screen"),
            [](Workspace& ws, qint64 room) {
                EventFilter rare;
                rare.channels = { QStringLiteral("system") };
                ws.listEvents(room, rare, { 200, 0 });
            } },
        { QStringLiteral("filter by channel, first screen"),
            [channel](Workspace& ws, qint64 room) { ws.listEvents(room, channel, { 200, 0 }); } },
        { QStringLiteral("a time range (its middle hour), first screen"),
            [](Workspace& ws, qint64 room) {
                const RoomSummary r = *ws.room(room);
                EventFilter hour;
                hour.afterMicros = (r.firstMicros + r.lastMicros) / 2;
                hour.beforeMicros = *hour.afterMicros + 3600000000LL;
                ws.listEvents(room, hour, { 200, 0 });
            } },
        { QStringLiteral("the call of a row in the middle (its card)"),
            [](Workspace& ws, qint64 room) {
                const qint64 middle = ws.room(room)->eventCount / 2;
                for (qint64 i = middle; i < middle + 20; ++i) {
                    if (const auto call = ws.toolCallAt(room, i)) {
                        ws.callResults(room, *call);
                        ws.earlierResults(room, *call);
                        return;
                    }
                }
            } },
        { QStringLiteral("filter by channel, row index"),
            [channel](Workspace& ws, qint64 room) { ws.indexRows(room, channel, EventListModel::BlockSize); } },
        { QStringLiteral("blocked rows only, row index"),
            [blocked](Workspace& ws, qint64 room) { ws.indexRows(room, blocked, EventListModel::BlockSize); } },
        { QStringLiteral("failed calls only, row index"),
            [failed](Workspace& ws, qint64 room) { ws.indexRows(room, failed, EventListModel::BlockSize); } },
        { QStringLiteral("facet counts under a type filter"), [calls](Workspace& ws, qint64 room) { ws.facets(room, calls); } },
        { QStringLiteral("search, first 200 hits"),
            [](Workspace& ws, qint64 room) { ws.search(room, QStringLiteral("refund"), 200, false); } },
        { QStringLiteral("find in the room"), [find](Workspace& ws, qint64 room) { ws.listRows(room, find); } },
        { QStringLiteral("waterfall: the room's calls"),
            [](Workspace& ws, qint64 room) { ws.toolCallsShown(room, EventFilter {}, false); } },
        { QStringLiteral("tool statistics"), [](Workspace& ws, qint64 room) { ws.toolStats(room, {}); } },
        { QStringLiteral("next problem call"),
            [](Workspace& ws, qint64 room) { ws.nextProblemCall(room, ws.room(room)->eventCount / 2, true); } },
        { QStringLiteral("the room list"), [](Workspace& ws, qint64) { ws.rooms(); } },
        { QStringLiteral("the filter bar's values of the room (completion)"),
            [](Workspace& ws, qint64 room) { ws.roomValues(room, 200); } },
    };
}

// Each figure's median of three on WORKSPACE's biggest room, in ms; -1: it failed (its query names an index that is
// not there), -2: stopped after a minute.
QVector<double> timeFigures(const QString& path, const QVector<Figure>& figures)
{
    QVector<double> out;
    Workspace ws(path);
    qint64 biggest = 0, most = -1;
    for (const RoomSummary& r : ws.rooms()) {
        if (r.eventCount > most) {
            most = r.eventCount;
            biggest = r.id;
        }
    }
    // A figure is stopped after a minute (SQLite's progress handler interrupts its statement): without
    // tool_calls_room the failed calls' row index ran past eight minutes, and the table's last indexes were
    // never reached.
    struct Limit
    {
        QElapsedTimer clock;
        qint64 ms = 60000;
        bool hit = false;
    } limit;
    sqlite3_progress_handler(
        ws.handle(), 10000,
        [](void* context) {
            auto* l = static_cast<Limit*>(context);
            l->hit = l->hit || l->clock.elapsed() > l->ms;
            return l->hit ? 1 : 0;
        },
        &limit);
    for (const Figure& f : figures) {
        // A query that names an index (INDEXED BY) fails without it: the figure needs it, whatever its time.
        limit.hit = false;
        limit.clock.start();
        try {
            out << medianMs(3, [&] {
                if (!limit.hit)
                    f.run(ws, biggest);
            });
            if (limit.hit)
                out.last() = -2;
        } catch (const StoreError&) {
            out << (limit.hit ? -2 : -1);
        }
    }
    sqlite3_progress_handler(ws.handle(), 0, nullptr, nullptr);
    return out;
}

// Every figure of indexFigures() on WORKSPACE's biggest room, a Markdown row each (`--figures`): the same list on a
// workspace of another schema, run by another build, says what a change of the indexes did to each.
int figuresTable(const QString& workspace)
{
    const QVector<Figure> figures = indexFigures();
    const QVector<double> ms = timeFigures(workspace, figures);
    QTextStream out(stdout);
    out << "| figure | ms |\n|---|---:|\n";
    for (int i = 0; i < figures.size(); ++i) {
        out << "| " << figures[i].name << " | "
            << (ms[i] == -1       ? QStringLiteral("fails: its query names a missing index")
                   : ms[i] == -2 ? QStringLiteral("over a minute (stopped)")
                                 : QString::number(ms[i], 'f', 1))
            << " |\n";
    }
    return 0;
}

// What each index of the rows costs and what it buys (issue "Rooms on demand": every index earns its place). On a
// copy of WORKSPACE without the index, each figure a user waits for in the window is timed on its biggest room, next
// to the same figure with every index; the figure it slows most is the one that needs it. Its bytes are dbstat's;
// its share of the import is what copying the rows with it alone costs over copying them with none, over the import's time (IMPORT_MS). Prints a
// Markdown table. A unique index is a rule, not a speed-up (the import writes ON CONFLICT(room_id, seq)): not
// listed.
int indexTable(const QString& workspace, double importMs)
{
    const QString dir = QFileInfo(workspace).path();
    const QString copy = dir + QStringLiteral("/without-index.sightline");
    const QVector<Figure> figures = indexFigures();
    const auto timeAll = [&](const QString& path) { return timeFigures(path, figures); };
    const QVector<double> with = timeAll(workspace);
    QTextStream out(stdout);
    QTextStream log(stderr);
    out << "| index | size (MB) | its share of the import | the figure that needs it | with it | without it |\n"
           "|---|---:|---:|---|---:|---:|\n";
    QVector<QPair<QByteArray, qint64>> indexes;
    {
        sqlite3* db = nullptr;
        sqlite3_open_v2(workspace.toUtf8().constData(), &db, SQLITE_OPEN_READONLY, nullptr);
        sqlite3_stmt* st = nullptr;
        sqlite3_prepare_v2(db,
            "SELECT m.name, (SELECT sum(pgsize) FROM dbstat WHERE dbstat.name = m.name) FROM sqlite_schema m "
            "WHERE m.type = 'index' AND m.sql IS NOT NULL AND m.tbl_name IN ('events', 'tool_calls') "
            "AND m.sql NOT LIKE 'CREATE UNIQUE%' ORDER BY 2 DESC",
            -1, &st, nullptr);
        while (sqlite3_step(st) == SQLITE_ROW)
            indexes << qMakePair(QByteArray(reinterpret_cast<const char*>(sqlite3_column_text(st, 0))),
                sqlite3_column_int64(st, 1));
        sqlite3_finalize(st);
        sqlite3_close(db);
    }
    // Each index's own cost: the rows copied with that index alone against the rows copied with none (the median of
    // three rounds; one index is a few per cent of a copy, less than a copy's time moves from run to run).
    QByteArrayList names;
    for (const auto& index : std::as_const(indexes))
        names << index.first;
    QVector<double> none;
    QVector<QVector<double>> alone(names.size());
    for (int round = 0; round < 3; ++round) {
        none << schemaFloorMs(workspace, dir, names);
        for (int i = 0; i < names.size(); ++i) {
            QByteArrayList others = names;
            others.removeAt(i);
            alone[i] << schemaFloorMs(workspace, dir, others);
        }
    }
    const auto median = [](QVector<double> v) {
        std::sort(v.begin(), v.end());
        return v[v.size() / 2];
    };
    const double noneMs = median(none);
    int at = -1;
    for (const auto& [name, bytes] : indexes) {
        ++at;
        const double savedMs = median(alone[at]) - noneMs;
        log << "without " << name << " ..." << Qt::endl;
        for (const char* suffix : { "", "-wal", "-shm" })
            QFile::remove(copy + QLatin1String(suffix));
        QFile::copy(workspace, copy);
        sqlite3* db = nullptr;
        sqlite3_open(copy.toUtf8().constData(), &db);
        sqlite3_exec(db, QByteArray("DROP INDEX " + name).constData(), nullptr, nullptr, nullptr);
        sqlite3_close(db);
        const QVector<double> without = timeAll(copy);
        const auto slowdown = [&](int i) { return without[i] < 0 ? 1e9 : without[i] / std::max(0.01, with[i]); };
        int worst = 0;
        for (int i = 1; i < figures.size(); ++i) {
            if (slowdown(i) > slowdown(worst))
                worst = i;
        }
        const bool needed = without[worst] < 0 || (without[worst] > with[worst] * 1.5 && without[worst] - with[worst] > 1);
        out << "| `" << name << "` | " << QString::number(bytes / 1048576.0, 'f', 1) << " | "
            << QString::number(100 * savedMs / importMs, 'f', 1) << " % | "
            << (needed ? figures[worst].name : QStringLiteral("none found (the slowest: ") + figures[worst].name + u')')
            << " | " << QString::number(with[worst], 'f', 1) << " ms | "
            << (without[worst] == -1       ? QStringLiteral("fails: its query names the index")
                       : without[worst] == -2 ? QStringLiteral("over a minute (stopped)")
                                              : QString::number(without[worst], 'f', 1) + QStringLiteral(" ms"))
            << " |\n";
        out.flush();
    }
    for (const char* suffix : { "", "-wal", "-shm" })
        QFile::remove(copy + QLatin1String(suffix));
    return 0;
}

// A log's whole import into a new workspace, in a process of its own (`--import`), against `floorMs`: its time, its
// peak memory and the workspace's size against the log's, each a row under `what`.
QVector<Row> logImportRows(const QString& what, const QString& source, const QString& workspace, double floorMs,
    const QString& floor, QTextStream& log)
{
    ::sync();
    QProcess importer;
    importer.start(QCoreApplication::applicationFilePath(), { QStringLiteral("--import"), source, workspace });
    importer.waitForFinished(-1);
    const QList<QByteArray> figures = importer.readAllStandardOutput().trimmed().split(' ');
    if (importer.exitCode() != 0 || figures.size() != 2) {
        log << "sightline_bench: the import process failed: " << importer.readAllStandardError() << Qt::endl;
        std::exit(1);
    }
    return { Row { what + QStringLiteral(": import into the workspace"), figures[0].toDouble(), floorMs, floor,
                 QStringLiteral("≤ 3 ×") },
        schemaFloorRow(what + QStringLiteral(": "), figures[0].toDouble(), workspace, QFileInfo(workspace).path()),
        Row { what + QStringLiteral(": peak memory of that import (MB)"), figures[1].toLongLong() / 1024.0, 0,
            QStringLiteral("—"), QStringLiteral("≤ 200 MB") },
        Row { what + QStringLiteral(": the workspace on disk (MB)"), QFileInfo(workspace).size() / 1048576.0,
            QFileInfo(source).size() / 1048576.0, QStringLiteral("the log itself"), QStringLiteral("≤ 2 ×") } };
}

// One AG-UI thread of `events` lines (AguiLogGenerator, from the fixture threads): its whole import in a process of
// its own against the floor, its peak memory and its workspace's size, and the first open in the window.
QVector<Row> aguiRows(qint64 events, const QString& dir, QTextStream& log)
{
    const QString source = dir + QStringLiteral("/agui-%1.jsonl").arg(events);
    if (!QFile::exists(source)) {
        log << "generating an AG-UI thread of " << events << " events ... " << Qt::flush;
        const double ms = timeMs([&] { AguiLogGenerator::write(source, events, TestSupport::dataFile(QStringLiteral("agui/threads"))); });
        log << int(ms) << " ms" << Qt::endl;
    }
    const QString workspace = dir + QStringLiteral("/agui-%1.sightline").arg(events);
    QVector<Row> rows = logImportRows(QStringLiteral("AG-UI"), source, workspace,
        logCopyFloorMs(source, dir, [](const QByteArray&) { return true; }),
        QStringLiteral("(floor) its lines alone copied into a new SQLite file"), log);
    const double firstLinesMs = medianMs(3, [&] {
        QFile file(source);
        file.open(QIODevice::ReadOnly);
        for (int i = 0; i < 200 && !file.atEnd(); ++i)
            file.readLine();
    });
    rows << Row { QStringLiteral("AG-UI: first open of the log, first screen (window)"), firstOpenMs(source),
        firstLinesMs, QStringLiteral("its first 200 lines read"), QStringLiteral("≤ 1 s") };

    // Following the log as an agent writes it: a sync after 100 more lines, in the process that synced it before
    // (it reads on from where it stood), against the same sync reading the whole log again.
    const QString longer = dir + QStringLiteral("/agui-%1-longer.jsonl").arg(events);
    if (!QFile::exists(longer))
        AguiLogGenerator::write(longer, events + 200, TestSupport::dataFile(QStringLiteral("agui/threads")));
    QFile more(longer);
    more.open(QIODevice::ReadOnly);
    QList<QByteArray> extra = more.readAll().split('\n');
    extra = extra.mid(events, 200);
    const QString followed = dir + QStringLiteral("/th_bench.jsonl");
    const QString followWorkspace = dir + QStringLiteral("/agui-follow.sightline");
    for (const char* suffix : { "", "-wal", "-shm" })
        QFile::remove(followWorkspace + QLatin1String(suffix));
    QFile::remove(followed);
    QFile::copy(source, followed);
    QFile::setPermissions(followed, QFile::ReadOwner | QFile::WriteOwner);
    const auto append = [&](const QList<QByteArray>& lines) {
        QFile f(followed);
        f.open(QIODevice::Append);
        for (const QByteArray& line : lines)
            f.write(line + '\n');
    };
    double onMs = 0, againMs = 0;
    {
        Workspace ws(followWorkspace);
        Importer::import(ws, followed);
        append(extra.mid(0, 100));
        onMs = timeMs([&] { Importer::import(ws, followed); });
        append(extra.mid(100, 100));
        AguiReader::forgetResumePoints();
        againMs = timeMs([&] { Importer::import(ws, followed); });
    }
    rows << Row { QStringLiteral("AG-UI: follow, a sync of 100 lines appended"), onMs, againMs,
        QStringLiteral("the same sync reading the whole log again"), QStringLiteral("≤ 1 s") };
    for (const char* suffix : { "", "-wal", "-shm" })
        QFile::remove(followWorkspace + QLatin1String(suffix));
    QFile::remove(followed);
    return rows;
}

// One CraftBot EVENT.md of `events` records (EventMdGenerator, from the fixture's): its whole import in a process of
// its own against the floor, its peak memory, its workspace's size and its first open in the window.
QVector<Row> craftbotRows(qint64 events, const QString& dir, QTextStream& log)
{
    const QString source = dir + QStringLiteral("/EVENT-%1.md").arg(events);
    if (!QFile::exists(source)) {
        log << "generating an EVENT.md of " << events << " records ... " << Qt::flush;
        const double ms = timeMs([&] { EventMdGenerator::write(source, events, TestSupport::dataFile(QStringLiteral("craftbot/EVENT.md"))); });
        log << int(ms) << " ms" << Qt::endl;
    }
    const QString workspace = dir + QStringLiteral("/EVENT-%1.sightline").arg(events);
    QVector<Row> rows = logImportRows(QStringLiteral("EVENT.md"), source, workspace,
        logCopyFloorMs(source, dir,
            [](const QByteArray& line) { return line.startsWith('[') && line.size() > 2 && line[1] >= '0' && line[1] <= '9'; }),
        QStringLiteral("(floor) its records alone copied into a new SQLite file"), log);
    const double firstLinesMs = medianMs(3, [&] {
        QFile file(source);
        file.open(QIODevice::ReadOnly);
        for (int i = 0; i < 1200 && !file.atEnd(); ++i)
            file.readLine();
    });
    rows << Row { QStringLiteral("EVENT.md: first open of the log, first screen (window)"), firstOpenMs(source),
        firstLinesMs, QStringLiteral("its first 200 records' lines read"), QStringLiteral("≤ 1 s") };
    for (const char* suffix : { "", "-wal", "-shm" })
        QFile::remove(workspace + QLatin1String(suffix));

    // Following the log as CraftBot writes it: a sync after 100 more records, in the process that synced it before
    // (its shape and count go on from where it stood), against the same sync reading the whole log again.
    const QString more = dir + QStringLiteral("/EVENT-more.md");
    // Records CraftBot writes next: their tasks and sessions after the log's (a repetition holds about 335 records).
    EventMdGenerator::write(more, 200, TestSupport::dataFile(QStringLiteral("craftbot/EVENT.md")), events / 300 + 1);
    QFile moreFile(more);
    moreFile.open(QIODevice::ReadOnly);
    QVector<QByteArray> extra;
    for (const EventMdRecord& r : EventMdParser::parse(moreFile.readAll()).records)
        extra << (r.raw.endsWith('\n') ? r.raw : r.raw + '\n');
    const QString followed = dir + QStringLiteral("/EVENT-followed.md");
    const QString followWorkspace = dir + QStringLiteral("/EVENT-follow.sightline");
    for (const char* suffix : { "", "-wal", "-shm" })
        QFile::remove(followWorkspace + QLatin1String(suffix));
    QFile::remove(followed);
    QFile::copy(source, followed);
    QFile::setPermissions(followed, QFile::ReadOwner | QFile::WriteOwner);
    const auto append = [&](qsizetype from) {
        QFile f(followed);
        f.open(QIODevice::Append);
        for (qsizetype i = from; i < from + 100 && i < extra.size(); ++i)
            f.write(extra[i]);
    };
    double onMs = 0, againMs = 0;
    {
        Workspace ws(followWorkspace);
        Importer::import(ws, followed);
        append(0);
        onMs = timeMs([&] { Importer::import(ws, followed); });
        append(100);
        CraftBotReader::forgetReadPositions();
        againMs = timeMs([&] { Importer::import(ws, followed); });
    }
    rows << Row { QStringLiteral("EVENT.md: follow, a sync of 100 records appended"), onMs, againMs,
        QStringLiteral("the same sync reading the whole log again"), QStringLiteral("≤ 1 s") };
    for (const char* suffix : { "", "-wal", "-shm" })
        QFile::remove(followWorkspace + QLatin1String(suffix));
    QFile::remove(followed);
    QFile::remove(more);
    return rows;
}

// RoomKit's PostgresStore holding the same events, on the test server (tests/pg/pgcluster.sh, named by
// SIGHTLINE_PG_ENV): the first open of the database in the real window, from the open until the biggest room's
// first screen is in its model, against the server's own first 200 rows of that room through QPSQL. The store is
// loaded once per size (database bench_N): the JSON of each SQLite row is copied in and split into the
// PostgresStore's columns by the server.
QVector<Row> postgresRows(const QString& store, qint64 events, QTextStream& log)
{
    const PgServer& pg = PgServer::get();
    if (!pg.unavailable.isEmpty()) {
        log << "PostgreSQL rows skipped: " << pg.unavailable << Qt::endl;
        return {};
    }
    const QString db = QStringLiteral("bench_%1").arg(events);
    if (pg.run(QStringLiteral("psql"), { QStringLiteral("-XAtqd"), QStringLiteral("postgres"), QStringLiteral("-c"),
                   QStringLiteral("SELECT 1 FROM pg_database WHERE datname = '%1'").arg(db) })
            .trimmed()
        != "1") {
        log << "loading " << events << " events into PostgreSQL ... " << Qt::flush;
        const double ms = timeMs([&] {
            pg.exec(QStringLiteral("postgres"), QStringLiteral("CREATE DATABASE %1").arg(db));
            const QStringList connect { QStringLiteral("-Xq"), QStringLiteral("-d"), db };
            QProcess psql;
            pg.start(psql, QStringLiteral("psql"), connect);
            psql.write(pg.dump({ QStringLiteral("--schema-only"), QStringLiteral("--no-owner"), QStringLiteral("roomkit") }));
            psql.closeWriteChannel();
            psql.waitForFinished(-1);
            pg.exec(db, QStringLiteral("CREATE UNLOGGED TABLE staging(data jsonb)"));
            // Each row's JSON, one a line, in CSV with a quote and a delimiter that JSON text never holds.
            pg.start(psql, QStringLiteral("psql"),
                connect
                    + QStringList { QStringLiteral("-c"),
                          QStringLiteral("\\copy staging(data) FROM STDIN WITH (FORMAT csv, QUOTE E'\\x01', "
                                         "DELIMITER E'\\x02')") });
            psql.waitForStarted();
            sqlite3* src = nullptr;
            sqlite3_open_v2((QStringLiteral("file:") + store + QStringLiteral("?immutable=1")).toUtf8().constData(), &src,
                SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr);
            sqlite3_stmt* st = nullptr;
            sqlite3_prepare_v2(src, "SELECT data FROM events", -1, &st, nullptr);
            QByteArray chunk;
            while (sqlite3_step(st) == SQLITE_ROW) {
                chunk.append(static_cast<const char*>(sqlite3_column_blob(st, 0)), sqlite3_column_bytes(st, 0));
                chunk.append('\n');
                if (chunk.size() > (1 << 20)) {
                    psql.write(chunk);
                    psql.waitForBytesWritten(-1);
                    chunk.clear();
                }
            }
            sqlite3_finalize(st);
            sqlite3_close(src);
            psql.write(chunk);
            psql.closeWriteChannel();
            psql.waitForFinished(-1);
            pg.exec(db,
                QStringLiteral(
                    "INSERT INTO rooms(id, status, created_at) SELECT data->>'room_id', 'active', "
                    "min((data->>'created_at')::timestamptz) FROM staging GROUP BY 1; "
                    "INSERT INTO events(id, room_id, type, content, source_channel_id, source_channel_type, "
                    "source_direction, source_participant_id, source_provider, source_extra, status, visibility, "
                    "response_visibility, \"index\", chain_depth, correlation_id, parent_event_id, idempotency_key, "
                    "blocked_by, metadata, channel_data, created_at) SELECT data->>'id', data->>'room_id', "
                    "data->>'type', data->'content', data#>>'{source,channel_id}', data#>>'{source,channel_type}', "
                    "coalesce(data#>>'{source,direction}', 'inbound'), data#>>'{source,participant_id}', "
                    "data#>>'{source,provider}', jsonb_build_object('raw_payload', coalesce(data#>'{source,raw_payload}', "
                    "'{}'), 'external_id', data#>'{source,external_id}', 'provider_message_id', "
                    "data#>'{source,provider_message_id}'), coalesce(data->>'status', 'delivered'), "
                    "coalesce(data->>'visibility', 'all'), data->>'response_visibility', (data->>'index')::int, "
                    "coalesce((data->>'chain_depth')::int, 0), data->>'correlation_id', data->>'parent_event_id', "
                    "data->>'idempotency_key', data->>'blocked_by', coalesce(data->'metadata', '{}'), "
                    "coalesce(data->'channel_data', '{}'), (data->>'created_at')::timestamptz FROM staging; "
                    "DROP TABLE staging; GRANT SELECT ON ALL TABLES IN SCHEMA public TO reader; "
                    "UPDATE rooms r SET event_count = c.n, latest_index = c.last FROM (SELECT room_id, count(*) AS n, "
                    "max(\"index\") AS last FROM events GROUP BY 1) c WHERE r.id = c.room_id"));
            // As a live database is kept by autovacuum: its visibility map set, its statistics known.
            pg.exec(db, QStringLiteral("VACUUM ANALYZE"));
        });
        log << int(ms) << " ms" << Qt::endl;
    }
    const QString uri = pg.uri(db);
    const double firstMs = firstOpenMs(uri);
    PgConnection server(uri);
    const double rawPgMs = medianMs(5, [&] {
        QSqlQuery q = server.select(QStringLiteral("SELECT content::text FROM events WHERE room_id = 'room-big' "
                                                   "ORDER BY \"index\" LIMIT 200"));
        while (q.next()) { }
    });
    return { Row { QStringLiteral("first open of RoomKit's PostgreSQL store, biggest room's first screen (window)"),
        firstMs, rawPgMs, QStringLiteral("its first 200 rows from the server (QPSQL)"), QStringLiteral("≤ 1 s") } };
}

// A fetched web page as a tool gets it: `size` characters of markup and text with no line break, page `seed`.
QString webPage(qsizetype size, int seed)
{
    QString page;
    page.reserve(size + 128);
    while (page.size() < size) {
        page += QStringLiteral("<p class=\"c") + QString::number(seed) + QStringLiteral("\">Lorem ipsum dolor sit amet, "
            "consectetur &amp; adipiscing elit, sed do eiusmod tempor ") + QString::number(page.size()) + QStringLiteral("</p>");
    }
    page.truncate(size);
    return page;
}

// An AG-UI thread `threadId` in `path`, one run: each turn a user's question, a fetch call whose result is
// `results(turn)` (none when empty) and the assistant's answer `answers(turn)`, each message in three lines.
void writeThread(const QString& path, const QString& threadId, int turns, const std::function<QString(int)>& results,
    const std::function<QString(int)>& answers)
{
    QFile f(path);
    f.open(QIODevice::WriteOnly);
    qint64 at = 1784016877000LL;
    auto line = [&](QJsonObject o) {
        o.insert(QStringLiteral("timestamp"), at += 100);
        f.write(QJsonDocument(o).toJson(QJsonDocument::Compact) + '\n');
    };
    auto message = [&](const QString& id, const QString& role, const QString& text) {
        line({ { QStringLiteral("type"), QStringLiteral("TEXT_MESSAGE_START") }, { QStringLiteral("messageId"), id },
            { QStringLiteral("role"), role } });
        line({ { QStringLiteral("type"), QStringLiteral("TEXT_MESSAGE_CONTENT") }, { QStringLiteral("messageId"), id },
            { QStringLiteral("delta"), text } });
        line({ { QStringLiteral("type"), QStringLiteral("TEXT_MESSAGE_END") }, { QStringLiteral("messageId"), id } });
    };
    const QString run = threadId + QStringLiteral("-run");
    line({ { QStringLiteral("type"), QStringLiteral("RUN_STARTED") }, { QStringLiteral("runId"), run },
        { QStringLiteral("threadId"), threadId } });
    for (int t = 0; t < turns; ++t) {
        const QString n = QString::number(t);
        message(QStringLiteral("u") + n, QStringLiteral("user"), QStringLiteral("What does page ") + n + QStringLiteral(" say?"));
        const QString result = results(t);
        if (!result.isEmpty()) {
            const QString call = QStringLiteral("c") + n;
            line({ { QStringLiteral("type"), QStringLiteral("TOOL_CALL_START") }, { QStringLiteral("toolCallId"), call },
                { QStringLiteral("toolCallName"), QStringLiteral("fetch") } });
            line({ { QStringLiteral("type"), QStringLiteral("TOOL_CALL_ARGS") }, { QStringLiteral("toolCallId"), call },
                { QStringLiteral("delta"), QString(QStringLiteral("{\"url\":\"https://example.com/page/") + n + QStringLiteral("\"}")) } });
            line({ { QStringLiteral("type"), QStringLiteral("TOOL_CALL_END") }, { QStringLiteral("toolCallId"), call } });
            line({ { QStringLiteral("type"), QStringLiteral("TOOL_CALL_RESULT") }, { QStringLiteral("toolCallId"), call },
                { QStringLiteral("messageId"), QString(call + QStringLiteral("-result")) }, { QStringLiteral("content"), result } });
        }
        message(QStringLiteral("a") + n, QStringLiteral("assistant"), answers(t));
    }
    line({ { QStringLiteral("type"), QStringLiteral("RUN_FINISHED") }, { QStringLiteral("runId"), run },
        { QStringLiteral("threadId"), threadId } });
}

// A report of ROOM in FORMAT in a process of its own (exportReport): its time in ms and peak memory in MB.
std::pair<double, double> exportFigures(const QString& format, const QString& workspace, const QString& room,
    const QString& out, QTextStream& log)
{
    QProcess exporter;
    exporter.start(QCoreApplication::applicationFilePath(), { QStringLiteral("--export"), format, workspace, out, room });
    exporter.waitForFinished(-1);
    const QList<QByteArray> figures = exporter.readAllStandardOutput().trimmed().split(' ');
    if (exporter.exitCode() != 0 || figures.size() != 2) {
        log << "sightline_bench: the export process failed: " << exporter.readAllStandardError() << Qt::endl;
        std::exit(1);
    }
    return { figures[0].toDouble(), figures[1].toLongLong() / 1024.0 };
}

// Big values (issue "A PDF of a 17-event room takes 3 minutes"): a fetched web page of 2 MB with no line break as
// a tool's result. Its room as a PDF against the JSON Lines report of the same room (whole, in a process of its
// own each); a room of 1,000 events with 100 such results of 1 MB; and in the window, the work a click on the
// big item costs (its card opened, the details pane filled and drawn, its raw row drawn) against the same work on
// a 2 KB value of the same room.
QVector<Row> bigValueRows(const QString& dir, QTextStream& log)
{
    QVector<Row> rows;
    const QString pageLog = dir + QStringLiteral("/th_page.jsonl");
    const QString echoLog = dir + QStringLiteral("/th_echo.jsonl");
    const QString manyLog = dir + QStringLiteral("/th_pages.jsonl");
    const QString page = webPage(2 * 1000 * 1000, 0), small = webPage(2000, 1);
    if (!QFile::exists(manyLog)) {
        log << "generating threads of big values ... " << Qt::flush;
        const double ms = timeMs([&] {
            // Two turns: a call with a 2 KB result, then one with the 2 MB page.
            writeThread(pageLog, QStringLiteral("th_page"), 2, [&](int t) { return t == 0 ? small : page; },
                [](int t) { return QStringLiteral("Page %1 is about lorem ipsum.").arg(t); });
            // The assistant quoting the page whole in its answer, after one of 2 KB: a message as a bubble.
            writeThread(echoLog, QStringLiteral("th_echo"), 2, [](int) { return QString(); },
                [&](int t) { return t == 0 ? small : page; });
            writeThread(manyLog, QStringLiteral("th_pages"), 100, [](int t) { return webPage(1000 * 1000, t); },
                [](int t) { return QStringLiteral("Page %1 is about lorem ipsum.").arg(t); });
        });
        log << int(ms) << " ms" << Qt::endl;
    }
    const QString workspace = dir + QStringLiteral("/bigvalues.sightline");
    for (const char* suffix : { "", "-wal", "-shm" })
        QFile::remove(workspace + QLatin1String(suffix));
    qint64 pageRoom = 0, echoRoom = 0, pageEvents = 0, manyEvents = 0;
    {
        Workspace ws(workspace);
        for (const QString& source : { pageLog, echoLog, manyLog })
            Importer::import(ws, source);
        pageRoom = ws.findRooms(QStringLiteral("th_page")).first();
        echoRoom = ws.findRooms(QStringLiteral("th_echo")).first();
        pageEvents = ws.room(pageRoom)->eventCount;
        manyEvents = ws.room(ws.findRooms(QStringLiteral("th_pages")).first())->eventCount;
    }

    // The reports, each in a process of its own.
    for (const auto& [room, events, target] : { std::tuple { QStringLiteral("th_page"), pageEvents, QStringLiteral("≤ 5 s") },
             std::tuple { QStringLiteral("th_pages"), manyEvents, QStringLiteral("≤ 60 s") } }) {
        const auto [pdfMs, pdfMb] = exportFigures(QStringLiteral("pdf"), workspace, room, dir + QStringLiteral("/") + room + QStringLiteral(".pdf"), log);
        const auto [jsonlMs, jsonlMb] = exportFigures(QStringLiteral("jsonl"), workspace, room, dir + QStringLiteral("/") + room + QStringLiteral(".jsonl"), log);
        Q_UNUSED(jsonlMb);
        const QString what = room == QLatin1String("th_page") ? QStringLiteral("a 2 MB result with no line break")
                                                              : QStringLiteral("100 results of 1 MB");
        rows << Row { QStringLiteral("big values: export a room holding ") + what + QStringLiteral(" as a PDF report"),
            pdfMs, jsonlMs, QStringLiteral("the JSON Lines report of the same room, whole"), target, events };
        rows << Row { QStringLiteral("big values: peak memory of that export (MB)"), pdfMb, 0, QStringLiteral("—"),
            room == QLatin1String("th_page") ? QStringLiteral("≤ 200 MB") : QStringLiteral("≤ 300 MB"), events };
    }

    // The window: the timeline, the details pane and the raw rows, as they are given a 2 MB value.
    Viewer viewer(workspace);
    EventListModel& model = viewer.model;
    TimelineView& view = viewer.view;
    const auto openRoom = [&](EventListModel& m, qint64 room) {
        m.setRoom(room);
        waitFor([&] { return m.isIndexed() && !m.isLoading() && m.rowCount() > 0 && m.loadedRecord(m.rowCount() - 1); });
    };
    // The rows of the 2 KB and the 2 MB item: calls by their result, messages by their text.
    const auto rowsOf = [&](EventListModel& m, bool calls) {
        int smallRow = -1, bigRow = -1;
        for (int row = 0; row < m.rowCount(); ++row) {
            const QModelIndex index = m.index(row, 0);
            const QVariant call = index.data(EventListModel::CallRole);
            const EventRecord e = index.data(EventListModel::RecordRole).value<EventRecord>();
            if (calls && !call.isValid())
                continue;
            if (!calls && (call.isValid() || e.role != QLatin1String("assistant")))
                continue;
            const qsizetype size = calls ? call.value<ToolCallRecord>().result.size() : e.text.size();
            if (size >= page.size())
                bigRow = row;
            else if (size >= small.size())
                smallRow = row;
        }
        if (smallRow < 0 || bigRow < 0) {
            log << "sightline_bench: the big value's item is not in the room" << Qt::endl;
            std::exit(1);
        }
        return std::pair { smallRow, bigRow };
    };
    // A click that opens the item (Enter): its first layout and paint, nothing cached; closed again untimed.
    const auto openMs = [&](int row) {
        const QModelIndex index = model.index(row, 0);
        QVector<double> times;
        for (int i = 0; i < 5; ++i) {
            view.setCurrentIndex(index);
            view.scrollTo(index, QAbstractItemView::PositionAtTop);
            QCoreApplication::processEvents();
            view.timelineDelegate()->forgetOpenLines();
            times << timeMs([&] {
                view.toggleCurrent();
                QCoreApplication::processEvents();
                view.viewport()->repaint();
            });
            view.toggleCurrent();
            QCoreApplication::processEvents();
        }
        std::sort(times.begin(), times.end());
        return times[times.size() / 2];
    };
    const auto add = [&](const QString& work, double ms, double baselineMs, qint64 events) {
        rows << Row { QStringLiteral("big values, window: ") + work, ms, baselineMs,
            QStringLiteral("the same for a 2 KB value"), QStringLiteral("≤ 100 ms"), events };
    };
    openRoom(model, pageRoom);
    const auto [smallCard, bigCard] = rowsOf(model, true);
    add(QStringLiteral("open the card of a 2 MB result (layout and paint)"), openMs(bigCard), openMs(smallCard), pageEvents);

    // The details pane filled with the call whole (start, end, 2 MB result) and drawn, each tab in turn.
    DetailsPane pane;
    pane.resize(520, 760);
    pane.show();
    const auto details = [&](int row) {
        QSignalSpy loaded(&viewer.client, &StoreClient::detailsLoaded);
        viewer.client.loadDetails(pageRoom, model.index(row, 0).data(EventListModel::EventIndexRole).toLongLong());
        waitFor([&] { return loaded.count() > 0; });
        return loaded.first().at(1).value<EventDetails>();
    };
    const EventDetails smallDetails = details(smallCard), bigDetails = details(bigCard);
    const auto fillMs = [&](const EventDetails& d) {
        return medianMs(5, [&] {
            pane.clear();
            pane.setDetails(d);
            for (int tab = 0; tab < pane.tabs()->count(); ++tab) {
                pane.tabs()->setCurrentIndex(tab);
                QCoreApplication::processEvents();
                pane.grab();
            }
        });
    };
    add(QStringLiteral("fill the details of that call and draw its Payload, Raw and Text tabs"), fillMs(bigDetails),
        fillMs(smallDetails), pageEvents);

    // A message quoting the page whole: its bubble opened.
    openRoom(model, echoRoom);
    qint64 echoEvents = 0;
    {
        Workspace ws(workspace);
        echoEvents = ws.room(echoRoom)->eventCount;
    }
    const auto [smallBubble, bigBubble] = rowsOf(model, false);
    add(QStringLiteral("open the bubble of a 2 MB message (layout and paint)"), openMs(bigBubble), openMs(smallBubble), echoEvents);

    // The raw rows (R) scrolled to the call's result row and drawn.
    EventListModel raw(&viewer.client);
    raw.setMode(EventListModel::Mode::Raw);
    EventListView table;
    table.setModel(&raw);
    table.resize(900, 700);
    table.show();
    openRoom(raw, pageRoom);
    const auto resultRow = [&](qsizetype size) {
        for (int row = 0; row < raw.rowCount(); ++row) {
            if (raw.index(row, 0).data(EventListModel::RecordRole).value<EventRecord>().text.size() >= size)
                return row;
        }
        return 0;
    };
    const auto drawRowMs = [&](int row) {
        return medianMs(5, [&] {
            table.scrollTo(raw.index(row, 0), QAbstractItemView::PositionAtTop);
            QCoreApplication::processEvents();
            table.viewport()->repaint();
        });
    };
    add(QStringLiteral("draw the raw rows at a 2 MB result's row"), drawRowMs(resultRow(page.size())),
        drawRowMs(resultRow(small.size())), pageEvents);
    return rows;
}

// Rooms on demand alone, on a store of `rooms` rooms (90 % of the events in room-big): the first screen of a new
// store, a small room clicked while the rest imports, and that room's events counted as `events --room --count`
// counts them on a store never seen.
QVector<Row> roomsOnDemandRows(qint64 events, int rooms, const QString& dir, QTextStream& log)
{
    const QString store = dir + QStringLiteral("/bench-%1-%2-rooms.sqlite").arg(events).arg(rooms);
    if (!QFile::exists(store)) {
        log << "generating " << events << " events in " << rooms << " rooms ... " << Qt::flush;
        const double ms = timeMs([&] { RoomKitStoreGenerator::write(store, events, rooms, 0.9, 1); });
        log << int(ms) << " ms" << Qt::endl;
    }
    // The window in a process of its own (its peak memory is the figure), the baselines after it.
    ::sync();
    QProcess window;
    window.setProcessChannelMode(QProcess::ForwardedErrorChannel); // where each long frame fell, as it falls
    window.start(QCoreApplication::applicationFilePath(), { QStringLiteral("--background-read"), store });
    window.waitForFinished(-1);
    const QList<QByteArray> figures = window.readAllStandardOutput().trimmed().split(' ');
    if (window.exitCode() != 0 || figures.size() != 8) {
        log << "sightline_bench: the window's process failed (its errors above)" << Qt::endl;
        std::exit(1);
    }
    const QString requested = QString::fromUtf8(figures[2]);
    const QByteArray roomRows
        = "SELECT data FROM events WHERE room_id = '" + requested.toUtf8() + "' ORDER BY idx LIMIT 200";
    QVector<Row> rows;
    rows << Row { QStringLiteral("first open of a new store of %1 rooms, biggest room's first screen (window)").arg(rooms),
        figures[0].toDouble(), rawMs(store, "SELECT data FROM events WHERE room_id = 'room-big' ORDER BY idx LIMIT 200"),
        QStringLiteral("its first 200 rows (C API)"), QStringLiteral("≤ 1 s") };
    rows << Row { QStringLiteral("a room clicked while a new store of %1 rooms imports, its first screen (window)").arg(rooms),
        figures[1].toDouble(), rawMs(store, roomRows), QStringLiteral("its first 200 rows (C API)"), QStringLiteral("≤ 1 s") };
    rows << Row { QStringLiteral("the rest read in the background while the biggest room scrolls (window)"),
        figures[6].toDouble(), rawMs(store, "SELECT data FROM events", 1), QStringLiteral("SELECT data FROM events (C API)"),
        QStringLiteral("none: measured") };
    rows << Row { QStringLiteral("longest frame while scrolling during that read (%1 of %2 frames over 50 ms)")
                      .arg(QString::fromUtf8(figures[4]), QString::fromUtf8(figures[5])),
        figures[3].toDouble(), 1000.0 / 60, QStringLiteral("a frame at 60 Hz"), QStringLiteral("≤ 50 ms") };
    rows << Row { QStringLiteral("peak memory of the window during that read (MB)"), figures[7].toLongLong() / 1024.0, 0,
        QStringLiteral("—"), QStringLiteral("≤ 300 MB") };
    rows << Row { QStringLiteral("that room's events counted on the never-seen store (events --room --count)"),
        oneRoomCountMs(store, dir + QStringLiteral("/one-room.sightline"), requested),
        rawMs(store, "SELECT count(*) FROM events WHERE room_id = '" + requested.toUtf8() + "'"),
        QStringLiteral("count(*) of its rows (C API)"), QStringLiteral("≤ 1.5 s") };
    return rows;
}

QVector<Row> run(qint64 events, const QString& dir, QTextStream& log, bool postgresOnly, bool aguiOnly, bool craftbotOnly)
{
    QVector<Row> rows;
    if (aguiOnly)
        return aguiRows(events, dir, log);
    if (craftbotOnly)
        return craftbotRows(events, dir, log);
    const QString store = dir + QStringLiteral("/bench-%1.sqlite").arg(events);
    if (!QFile::exists(store)) {
        log << "generating " << events << " events ... " << Qt::flush;
        const double ms = timeMs([&] { RoomKitStoreGenerator::write(store, events, 20, 0.9, 1); });
        log << int(ms) << " ms" << Qt::endl;
    }
    if (postgresOnly)
        return postgresRows(store, events, log);
    rows += aguiRows(events, dir, log);
    rows += craftbotRows(events, dir, log);
    const QString workspace = dir + QStringLiteral("/bench-%1.sightline").arg(events);
    for (const char* suffix : { "", "-wal", "-shm" })
        QFile::remove(workspace + QLatin1String(suffix));

    // The floor first, then the disk's queue emptied: the import is not timed against the floor's write-back.
    const double floorMs = copyFloorMs(store, dir);
    ::sync();
    // Import: the whole store into a new workspace, against reading every row's JSON raw.
    double importMs = 0;
    {
        Workspace ws(workspace);
        importMs = timeMs([&] { Importer::import(ws, store); });
    }
    rows << Row { QStringLiteral("import into the workspace"), importMs, rawMs(store, "SELECT data FROM events", 3),
        QStringLiteral("SELECT data FROM events (C API)"), QStringLiteral("≤ 8 ×") };
    rows << Row { QStringLiteral("(floor) the rows' JSON alone copied into a new SQLite file"), floorMs,
        rows.last().baselineMs, QStringLiteral("SELECT data FROM events (C API)"),
        QStringLiteral("none: what any copy costs") };
    rows << schemaFloorRow({}, importMs, workspace, dir);

    rows << Row { QStringLiteral("first open of a new store, biggest room's first screen (window)"), firstOpenMs(store),
        rawMs(store, "SELECT data FROM events WHERE room_id = 'room-big' ORDER BY idx LIMIT 200"),
        QStringLiteral("its first 200 rows (C API)"), QStringLiteral("≤ 1 s") };
    // A small room asked for while the rest imports: read next, whatever the import was doing.
    const auto [requestMs, requested] = roomOnRequestMs(store);
    if (requestMs >= 0) {
        const QByteArray roomRows
            = "SELECT data FROM events WHERE room_id = '" + requested.toUtf8() + "' ORDER BY idx LIMIT 200";
        rows << Row { QStringLiteral("a room clicked while a new store imports, its first screen (window)"), requestMs,
            rawMs(store, roomRows), QStringLiteral("its first 200 rows (C API)"), QStringLiteral("≤ 1 s") };
        rows << Row { QStringLiteral("that room's events counted on a never-seen store (events --room --count)"),
            oneRoomCountMs(store, dir + QStringLiteral("/one-room.sightline"), requested),
            rawMs(store, "SELECT count(*) FROM events WHERE room_id = '" + requested.toUtf8() + "'"),
            QStringLiteral("count(*) of its rows (C API)"), QStringLiteral("≤ 1.5 s") };
    }
    rows += postgresRows(store, events, log);

    qint64 bigRoom = 0, roomEvents = 0;
    {
        Workspace ws(workspace);
        bigRoom = ws.findRooms(QStringLiteral("room-big")).first();
        roomEvents = ws.room(bigRoom)->eventCount;
    }
    log << "room-big: " << roomEvents << " events" << Qt::endl;

    // Open the room until the first screen of timeline items is in the model.
    Viewer viewer(workspace);
    EventListModel& model = viewer.model;
    TimelineView& view = viewer.view;
    const QByteArray firstScreen = "SELECT data FROM events WHERE room_id = 'room-big' ORDER BY idx LIMIT 200";
    // Until the first screen's rows are in the model, not only its row count (in a small room the row index can
    // come before the first block). Seven runs, each from idle: the room's row index (a pass over the room on the
    // count worker) is done before the next open is timed, as when a user opens a room. A first screen takes a
    // millisecond or two, about what the scheduling of three threads on two cores varies.
    QVector<double> opens;
    for (int i = 0; i < 7; ++i) {
        model.setRoom(0);
        QElapsedTimer t;
        t.start();
        model.setRoom(bigRoom);
        waitFor([&] { return model.rowCount() > 0 && model.loadedRecord(0); });
        opens << t.nsecsElapsed() / 1e6;
        waitFor([&] { return model.isIndexed(); });
    }
    std::sort(opens.begin(), opens.end());
    const double openMs = opens[3];
    rows << Row { QStringLiteral("open the biggest room, first screen"), openMs, rawMs(store, firstScreen),
        QStringLiteral("its first 200 rows (C API)"), QStringLiteral("≤ 100 ms") };

    // Jump to the last item (End, once the row index is in): the view reads the last block alone.
    waitFor([&] { return model.isIndexed() && !model.isLoading(); });
    const double jumpMs = timeMs([&] {
        const QModelIndex last = model.index(model.rowCount() - 1, 0);
        view.setCurrentIndex(last);
        view.scrollTo(last);
        waitFor([&] { return model.loadedRecord(last.row()) && view.lastVisibleRow() == last.row(); });
    });
    rows << Row { QStringLiteral("jump to the last event"), jumpMs,
        rawMs(store, "SELECT data FROM events WHERE room_id = 'room-big' ORDER BY idx DESC LIMIT 200"),
        QStringLiteral("its last 200 rows (C API)"), QStringLiteral("≤ 100 ms") };
    // The last block is read when the index comes (the scroll bar's range needs the height of the last rows),
    // so End finds it in memory; the middle of the room is a block nobody has read yet.
    const double middleMs = timeMs([&] {
        const QModelIndex middle = model.index(model.rowCount() / 2, 0);
        view.setCurrentIndex(middle);
        view.scrollTo(middle, QAbstractItemView::PositionAtCenter);
        waitFor([&] { return model.loadedRecord(middle.row()) && !model.isLoading(); });
    });
    rows << Row { QStringLiteral("jump to the middle (a block not read yet)"), middleMs,
        rawMs(store,
            "SELECT data FROM events WHERE room_id = 'room-big' AND idx >= (SELECT max(idx) / 2 FROM events "
            "WHERE room_id = 'room-big') ORDER BY idx LIMIT 200"),
        QStringLiteral("200 rows from there (C API)"), QStringLiteral("≤ 100 ms") };

    // Change a filter until its first screen; then the "X of Y" count behind it.
    EventFilter ends;
    ends.types = { QStringLiteral("tool_call_start") }; // the calls: in the timeline an end folds into its card
    QVector<double> firsts, counts;
    for (int i = 0; i < 7; ++i) {
        model.setRoom(0);
        QElapsedTimer t;
        t.start();
        model.setRoom(bigRoom, ends);
        waitFor([&] { return model.rowCount() > 0 && model.loadedRecord(0); });
        firsts << t.nsecsElapsed() / 1e6;
        waitFor([&] { return model.shownCount() >= 0; });
        counts << t.nsecsElapsed() / 1e6;
    }
    std::sort(firsts.begin(), firsts.end());
    std::sort(counts.begin(), counts.end());
    const double filterMs = firsts[3], countMs = counts[3];
    rows << Row { QStringLiteral("change a filter, first screen"), filterMs,
        rawMs(store,
            "SELECT data FROM events WHERE room_id = 'room-big' AND type = 'tool_call_start' ORDER BY idx LIMIT 200"),
        QStringLiteral("the same filter, 200 rows (C API)"), QStringLiteral("≤ 150 ms") };
    rows << Row { QStringLiteral("\"X of Y\" count under that filter"), countMs,
        rawMs(store, "SELECT count(*) FROM events WHERE room_id = 'room-big' AND type = 'tool_call_start'"),
        QStringLiteral("count(*) (C API)"), QStringLiteral("≤ 500 ms") };
    {
        Workspace ws(workspace);
        // Every pane's counts at once, faceted, under the filter above (what the filter panes show).
        const double facetMs = medianMs(3, [&] { ws.facets(bigRoom, ends); });
        const double groupByMs = rawMs(store, "SELECT type, count(*) FROM events WHERE room_id = 'room-big' GROUP BY type");
        rows << Row { QStringLiteral("facet counts (every pane, under that filter)"), facetMs, groupByMs,
            QStringLiteral("GROUP BY type alone (C API)"), QStringLiteral("≤ 500 ms") };
        // The same on one thread, as a room under Workspace::SplitCountFrom events, or any room while another
        // connection writes, is counted: what the two threads buy.
        ws.setSplitCountFrom(std::numeric_limits<qint64>::max());
        const double facetOneMs = medianMs(3, [&] { ws.facets(bigRoom, ends); });
        ws.setSplitCountFrom(Workspace::SplitCountFrom);
        rows << Row { QStringLiteral("facet counts on one thread (a writer at work)"), facetOneMs, groupByMs,
            QStringLiteral("GROUP BY type alone (C API)"), QStringLiteral("—") };
        const double searchMs = medianMs(3, [&] { ws.search(bigRoom, QStringLiteral("refund"), 200, false); });
        rows << Row { QStringLiteral("full-text search, first 200 hits"), searchMs,
            rawMs(store,
                "SELECT event_id FROM events_fts WHERE events_fts MATCH 'refund' AND room_id = 'room-big' LIMIT 200"),
            QStringLiteral("RoomKit's own FTS5 (C API)"), QStringLiteral("≤ 200 ms") };
        // Find in the room (Ctrl+Shift+F): every timeline item holding the word, a card by its end's result too,
        // what F3 steps through.
        EventFilter find;
        find.words = { QStringLiteral("invoice") };
        find.timelineItems = true;
        const double findMs = medianMs(3, [&] { ws.listRows(bigRoom, find); });
        rows << Row { QStringLiteral("find in the room, every timeline item holding a word"), findMs,
            rawMs(store, "SELECT event_id FROM events_fts WHERE events_fts MATCH 'invoice' AND room_id = 'room-big'"),
            QStringLiteral("RoomKit's own FTS5, every hit (C API)"), QStringLiteral("≤ 200 ms") };
    }

    // The waterfall: the room's calls read and laid out in lanes (on the worker), against reading the calls'
    // times alone; then a frame drawn while panning across the middle, against the same number of rectangles
    // painted plainly. The view draws only what is in view.
    {
        Workspace ws(workspace);
        ToolCallRecords calls;
        const double readMs = medianMs(3, [&] { calls = ws.toolCallsShown(bigRoom, EventFilter {}, false); });
        const RunRecords runs = ws.runs(bigRoom);
        WaterfallLayout laid;
        const double layoutMs = medianMs(3, [&] { laid = WaterfallLayout::build(calls, runs, WaterfallDock::GapThresholdUs); });
        const QByteArray callTimes = QStringLiteral("SELECT start_seq, started_us, ended_us, duration_ms, tool_name, "
                                                    "outcome FROM tool_calls WHERE room_id = %1")
                                         .arg(bigRoom)
                                         .toUtf8();
        const double timesMs = rawMs(workspace, callTimes, 3);
        rows << Row { QStringLiteral("waterfall: read the room's %L1 calls (under the filter)").arg(calls.size()), readMs,
            timesMs, QStringLiteral("the calls' times alone (C API)"), QStringLiteral("≤ 10 ×") };
        rows << Row { QStringLiteral("waterfall: lay them out in lanes and breaks"), layoutMs, timesMs,
            QStringLiteral("the calls' times alone (C API)"), QStringLiteral("≤ 5 ×") };
        WaterfallView view;
        view.resize(1400, 500);
        view.show(); // offscreen: its viewport takes its size
        view.setWaterfall(laid);
        // A stretch in the middle of the room where bars are wide enough to read: the middle call, fitted.
        const ToolCallRecord& middle = laid.calls[laid.bars[laid.bars.size() / 2].call];
        view.selectCall(*middle.startIndex);
        view.fitSelection();
        view.zoomBy(1 / 20.0, 700);
        QImage frame(view.viewport()->size(), QImage::Format_ARGB32_Premultiplied);
        QVector<double> frames;
        for (int i = 0; i < 21; ++i) {
            QKeyEvent right(QEvent::KeyPress, Qt::Key_Right, Qt::NoModifier);
            QCoreApplication::sendEvent(&view, &right);
            frames << timeMs([&] {
                QPainter p(&frame);
                view.render(p, frame.size());
            });
        }
        std::sort(frames.begin(), frames.end());
        frame.save(dir + QStringLiteral("/waterfall-%1.png").arg(events)); // what was timed, to look at
        const double plainMs = medianMs(5, [&] {
            QPainter p(&frame);
            p.fillRect(frame.rect(), Qt::white);
            for (int k = 0; k < 500; ++k)
                p.fillRect(QRectF(k * 2.7, (k % 24) * 20.0, 40, 14), Qt::darkGreen);
        });
        rows << Row { QStringLiteral("waterfall: draw a frame while panning (%L1 calls in the room)").arg(laid.bars.size()),
            frames[10], plainMs, QStringLiteral("500 plain rectangles on the same image"), QStringLiteral("≤ 16 ms a frame") };
    }

    // Export the room as JSON Lines: today the CLI's events --json, against sqlite3 -json on the source.
    {
        QFile null(QStringLiteral("/dev/null"));
        null.open(QIODevice::WriteOnly);
        QTextStream out(&null), err(&null);
        const double exportMs = timeMs([&] {
            Cli::run({ QStringLiteral("sightline"), QStringLiteral("events"), workspace, QStringLiteral("--room"),
                         QStringLiteral("room-big"), QStringLiteral("--include-blocked"), QStringLiteral("--json") },
                out, err);
        });
        const double cliMs = timeMs([&] {
            QProcess p;
            p.setStandardOutputFile(QStringLiteral("/dev/null"));
            p.start(QStringLiteral("sqlite3"),
                { QStringLiteral("-json"), store,
                    QStringLiteral("SELECT data FROM events WHERE room_id = 'room-big'") });
            p.waitForFinished(-1);
        });
        rows << Row { QStringLiteral("export the room as JSON Lines (events --json)"), exportMs, cliMs,
            QStringLiteral("sqlite3 -json"), QStringLiteral("≤ 3 ×") };
    }

    // A report of the room, streamed (JSON Lines, lossless; CSV), each in a process of its own: its time against
    // sqlite3 -json on the same rows, and its peak memory.
    for (const QString& format : { QStringLiteral("jsonl"), QStringLiteral("csv") }) {
        QProcess exporter;
        exporter.start(QCoreApplication::applicationFilePath(),
            { QStringLiteral("--export"), format, workspace, dir + QStringLiteral("/bench-%1.%2").arg(events).arg(format) });
        exporter.waitForFinished(-1);
        const QList<QByteArray> figures = exporter.readAllStandardOutput().trimmed().split(' ');
        if (exporter.exitCode() != 0 || figures.size() != 2) {
            log << "sightline_bench: the export process failed: " << exporter.readAllStandardError() << Qt::endl;
            std::exit(1);
        }
        const double cliMs = timeMs([&] {
            QProcess p;
            p.setStandardOutputFile(QStringLiteral("/dev/null"));
            p.start(QStringLiteral("sqlite3"),
                { QStringLiteral("-json"), store, QStringLiteral("SELECT * FROM events WHERE room_id = 'room-big'") });
            p.waitForFinished(-1);
        });
        const QString what = format == QLatin1String("jsonl") ? QStringLiteral("JSON Lines report (export --format jsonl)")
                                                              : QStringLiteral("CSV report (export --format csv)");
        rows << Row { QStringLiteral("export the room as a ") + what, figures[0].toDouble(), cliMs,
            QStringLiteral("sqlite3 -json, every column"), QStringLiteral("≤ 3 ×") };
        rows << Row { QStringLiteral("peak memory of that export (MB)"), figures[1].toLongLong() / 1024.0, 0,
            QStringLiteral("—"), QStringLiteral("≤ 200 MB") };
    }

    // Memory with the room open and scrolled end to end, in a viewer process of its own.
    QProcess scroller;
    scroller.start(QCoreApplication::applicationFilePath(), { QStringLiteral("--scroll"), workspace });
    scroller.waitForFinished(-1);
    const QList<QByteArray> kb = scroller.readAllStandardOutput().trimmed().split(' ');
    if (scroller.exitCode() != 0 || kb.size() != 2) {
        log << "sightline_bench: the viewer process failed: " << scroller.readAllStandardError() << Qt::endl;
        std::exit(1);
    }
    rows << Row { QStringLiteral("resident memory, room scrolled end to end (MB)"), kb[0].toLongLong() / 1024.0, 0,
        QStringLiteral("—"), QStringLiteral("≤ 200 MB") };
    rows << Row { QStringLiteral("peak memory while scrolling it (MB)"), kb[1].toLongLong() / 1024.0, 0,
        QStringLiteral("—"), QStringLiteral("≤ 200 MB") };
    return rows;
}

} // namespace

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    // The window's settings and cached workspaces go to a folder of the run's own, never the user's.
    QTemporaryDir home;
    qputenv("XDG_CACHE_HOME", QFile::encodeName(home.filePath(QStringLiteral("cache"))));
    qputenv("XDG_CONFIG_HOME", QFile::encodeName(home.filePath(QStringLiteral("config"))));
    QApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Sightline's benchmark: figures next to raw SQLite baselines."));
    parser.addHelpOption();
    parser.addOption({ QStringLiteral("events"), QStringLiteral("sizes, comma-separated (default 1000,100000)"),
        QStringLiteral("N,...") });
    parser.addOption({ QStringLiteral("dir"),
        QStringLiteral("where stores are generated and kept (default: a temporary folder)"), QStringLiteral("DIR") });
    parser.addOption({ QStringLiteral("scroll"),
        QStringLiteral("(internal) open WORKSPACE's biggest room, scroll it end to end, print memory in KB"),
        QStringLiteral("WORKSPACE") });
    parser.addOption({ QStringLiteral("export"),
        QStringLiteral("(internal) export WORKSPACE's biggest room in FORMAT to OUT, print ms and peak memory in KB"),
        QStringLiteral("FORMAT") });
    parser.addOption({ QStringLiteral("import"),
        QStringLiteral("(internal) import SOURCE into a new WORKSPACE, print ms and peak memory in KB"),
        QStringLiteral("SOURCE") });
    parser.addOption({ QStringLiteral("indexes"),
        QStringLiteral("what each index of WORKSPACE costs and which figure needs it, against an import of --import-ms"),
        QStringLiteral("WORKSPACE") });
    parser.addOption({ QStringLiteral("figures"),
        QStringLiteral("time every figure an index may serve on WORKSPACE's biggest room (it is migrated first)"),
        QStringLiteral("WORKSPACE") });
    parser.addOption({ QStringLiteral("schema-floor"),
        QStringLiteral("the schema floor of WORKSPACE: its events and calls copied by sqlite3 into an empty workspace "
                       "(ms, the median of three)"),
        QStringLiteral("WORKSPACE") });
    parser.addOption({ QStringLiteral("import-ms"), QStringLiteral("the import's time, for --indexes"), QStringLiteral("MS") });
    parser.addOption({ QStringLiteral("background-read"),
        QStringLiteral("(internal) open SOURCE in the window, click a room, scroll while the rest is read; print figures"),
        QStringLiteral("SOURCE") });
    parser.addOption({ QStringLiteral("screens-only"),
        QStringLiteral("with --background-read: print the first screen and the clicked room's first screen (ms), the "
                       "room, and peak memory in KB, and stop there") });
    parser.addOption({ QStringLiteral("agui-only"), QStringLiteral("only the AG-UI thread's rows") });
    parser.addOption({ QStringLiteral("craftbot-only"), QStringLiteral("only the CraftBot EVENT.md's rows") });
    parser.addOption({ QStringLiteral("big-values-only"),
        QStringLiteral("only the rows of big values (a 2 MB tool result): reports and the window") });
    parser.addOption({ QStringLiteral("rooms-only"),
        QStringLiteral("only the rows of rooms on demand: a new store's first screen, a room clicked while it imports, "
                       "one room counted by the CLI") });
    parser.addOption({ QStringLiteral("rooms"), QStringLiteral("rooms in the generated store (default 20)"), QStringLiteral("N") });
    parser.addOption({ QStringLiteral("postgres-only"),
        QStringLiteral("only the PostgreSQL rows (the test server named by SIGHTLINE_PG_ENV)") });
    parser.process(app);
    if (parser.isSet(QStringLiteral("export")))
        return exportReport(parser.value(QStringLiteral("export")), parser.positionalArguments().value(0),
            parser.positionalArguments().value(1), parser.positionalArguments().value(2));
    if (parser.isSet(QStringLiteral("import")))
        return importPeak(parser.value(QStringLiteral("import")), parser.positionalArguments().value(0));
    if (parser.isSet(QStringLiteral("indexes")))
        return indexTable(parser.value(QStringLiteral("indexes")), parser.value(QStringLiteral("import-ms")).toDouble());
    if (parser.isSet(QStringLiteral("schema-floor"))) {
        const QString workspace = parser.value(QStringLiteral("schema-floor"));
        QVector<double> ms;
        for (int run = 0; run < 3; ++run)
            ms << schemaFloorMs(workspace, QFileInfo(workspace).path());
        std::sort(ms.begin(), ms.end());
        QTextStream(stdout) << ms[1] << Qt::endl;
        return 0;
    }
    if (parser.isSet(QStringLiteral("figures")))
        return figuresTable(parser.value(QStringLiteral("figures")));
    if (parser.isSet(QStringLiteral("background-read")))
        return backgroundRead(parser.value(QStringLiteral("background-read")), parser.isSet(QStringLiteral("screens-only")));
    if (parser.isSet(QStringLiteral("scroll")))
        return scrollEndToEnd(parser.value(QStringLiteral("scroll")));
    QTemporaryDir temp;
    const QString dir = parser.isSet(QStringLiteral("dir")) ? parser.value(QStringLiteral("dir")) : temp.path();
    QDir().mkpath(dir);
    QTextStream out(stdout);
    QTextStream log(stderr);
    QStringList sizes = parser.value(QStringLiteral("events")).split(QLatin1Char(','), Qt::SkipEmptyParts);
    if (sizes.isEmpty())
        sizes = { QStringLiteral("1000"), QStringLiteral("100000") };
    out << "| events | work | Sightline | baseline | ratio | target |\n|---:|---|---:|---|---:|---|\n";
    auto print = [&out](const QString& size, const Row& r) {
        const QString ratio = r.baselineMs > 0 ? QString::number(r.ms / r.baselineMs, 'f', 1) + QStringLiteral(" ×")
                                               : QStringLiteral("—");
        const QString figure = r.work.endsWith(QLatin1String("(MB)"))
            ? QString::number(r.ms, 'f', 0)
            : QString::number(r.ms, 'f', 1) + QStringLiteral(" ms");
        const QString unit = r.work.endsWith(QLatin1String("(MB)")) ? QStringLiteral(" MB, ") : QStringLiteral(" ms, ");
        const QString base = r.baselineMs > 0 ? QString::number(r.baselineMs, 'f', 1) + unit + r.baseline : r.baseline;
        out << "| " << (r.events >= 0 ? QString::number(r.events) : size) << " | " << r.work << " | " << figure << " | "
            << base << " | " << ratio << " | " << r.target << " |\n";
        out.flush();
    };
    const bool bigValuesOnly = parser.isSet(QStringLiteral("big-values-only"));
    const bool postgresOnly = parser.isSet(QStringLiteral("postgres-only")), aguiOnly = parser.isSet(QStringLiteral("agui-only")),
               craftbotOnly = parser.isSet(QStringLiteral("craftbot-only"));
    if (parser.isSet(QStringLiteral("rooms-only"))) {
        const int roomCount = parser.isSet(QStringLiteral("rooms")) ? parser.value(QStringLiteral("rooms")).toInt() : 20;
        for (const QString& size : sizes) {
            for (const Row& r : roomsOnDemandRows(size.toLongLong(), roomCount, dir, log))
                print(size, r);
        }
        return 0;
    }
    if (!bigValuesOnly) {
        for (const QString& size : sizes) {
            for (const Row& r : run(size.toLongLong(), dir, log, postgresOnly, aguiOnly, craftbotOnly))
                print(size, r);
        }
    }
    // Once a run, whatever its sizes: their rooms are of their own.
    if (bigValuesOnly || !(postgresOnly || aguiOnly || craftbotOnly)) {
        for (const Row& r : bigValueRows(dir, log))
            print({}, r);
    }
    return 0;
}
