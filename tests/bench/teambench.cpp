// The team benchmark (issue 37): N reviewer processes on one machine, each with a login, a workspace and a copy of the
// support store of its own, each making R changes a second for S seconds through the real code (AnnotationStore, then
// TeamSync's push: one transaction a change) while it takes its teammates' changes as the store announces them
// (LISTEN, then TeamSync's pull). It reports how long a change took to reach the other workspaces (propagation: from
// when it was made to when another reviewer's pull committed it), p50 and p95, checks that no change is lost (the
// store and every workspace hold all of them at the end), and what the server spent: its processes' CPU time per
// second and its transactions per second (each read is one too).
//
//   sightline_team_bench --reviewers 20 --rate 10 --seconds 60     (reads the test server: SIGHTLINE_PG_ENV)
//
// Nothing in it is a timed test: ctest runs it small to keep it working, and it fails only on a lost change.
#include "annotationstore.h"
#include "sources/importer.h"
#include "sources/pgconnection.h"
#include "team/teamschema.h"
#include "team/teamstore.h"
#include "team/teamsync.h"
#include "testsupport.h"
#include "workspace.h"

#include <algorithm>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRandomGenerator>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTextStream>
#include <QThread>
#include <QTimer>
#include <unistd.h>

using namespace TestSupport;

namespace {

// One reviewer: `changes` notes at `rate` a second from `startMs` on, each saved and sent at once; teammates' changes
// pulled as they are announced. Prints one JSON object: what it sent, the propagation of every teammate's change it
// took (ms), and how many team entries its workspace holds at the end.
int reviewer(const QString& uri, const QString& dir, int rate, int seconds, qint64 startMs, int expected)
{
    Workspace ws(dir + QStringLiteral("/review.sightline"));
    Importer::import(ws, dir + QStringLiteral("/support.sqlite"));
    TeamStore team(uri);
    TeamSync::attach(ws, uri, team.storeId(), team.secret());
    const QString login = team.login();
    QVector<qint64> rooms;
    for (const RoomSummary& r : ws.rooms())
        rooms << r.id;

    QJsonArray latencies;
    int sent = 0;
    bool pulling = false, again = false;
    auto pull = [&] {
        if (pulling) {
            again = true;
            return;
        }
        pulling = true;
        do {
            again = false;
            QSqlQuery c = ws.exec(QStringLiteral("SELECT cursor FROM team"));
            const qint64 before = c.next() ? c.value(0).toLongLong() : 0;
            c.finish();
            TeamSync(ws, team).pull();
            const qint64 now = QDateTime::currentMSecsSinceEpoch();
            // Each teammate's entry this pull brought: made at at_ms on this machine's clock.
            QSqlQuery q = ws.exec(QStringLiteral("SELECT at_ms FROM journal WHERE came_down = 1 AND team_id > ?"), { before });
            while (q.next())
                latencies.append(now - q.value(0).toLongLong());
        } while (again);
        pulling = false;
    };
    // The notifications of one burst (a reader gets them together) make one pull, as the window's sync does.
    bool pullAsked = false;
    team.listen(qApp, [&] {
        if (pullAsked)
            return;
        pullAsked = true;
        QTimer::singleShot(0, qApp, [&] {
            pullAsked = false;
            pull();
        });
    });

    const int total = rate * seconds;
    QTimer tick;
    tick.setTimerType(Qt::PreciseTimer);
    QElapsedTimer clock;
    qint64 lastSentMs = 0; // when the last change was made, from the start: the rate kept, or not
    auto change = [&] {
        // The number due by now, so a slow change is caught up rather than the rate lowered.
        const qint64 due = std::min<qint64>(total, clock.elapsed() * rate / 1000 + 1);
        while (sent < due) {
            lastSentMs = clock.elapsed();
            AnnotationStore store(ws);
            const qint64 room = rooms.at(sent % rooms.size());
            store.saveOnly(store.addNote(room, std::nullopt,
                QStringLiteral("%1 change %2").arg(login).arg(sent), login));
            TeamSync(ws, team).push();
            ++sent;
        }
        if (sent >= total)
            tick.stop();
    };
    QObject::connect(&tick, &QTimer::timeout, qApp, change);
    const qint64 wait = startMs - QDateTime::currentMSecsSinceEpoch();
    if (wait > 0)
        QThread::msleep(quint64(wait));
    clock.start();
    tick.start(1000 / rate);
    // Then until the store holds every change of the team (the others may still be making theirs), and one pull
    // after that: what this workspace lacks then is lost. Ten minutes at most.
    QTimer done;
    QElapsedTimer sinceEnd;
    QObject::connect(&done, &QTimer::timeout, qApp, [&] {
        if (sent < total)
            return;
        if (!sinceEnd.isValid())
            sinceEnd.start();
        if (team.journalSize() >= expected || sinceEnd.elapsed() > 600000) {
            pull();
            qApp->quit();
        }
    });
    done.start(200);
    qApp->exec();
    QSqlQuery q = ws.exec(QStringLiteral("SELECT count(*) FROM journal WHERE team_id > 0 AND action = 'note_added'"));
    const int held = q.next() ? q.value(0).toInt() : 0;
    QTextStream(stdout) << QJsonDocument(QJsonObject { { QStringLiteral("login"), login }, { QStringLiteral("sent"), sent },
                                             { QStringLiteral("held"), held }, { QStringLiteral("sending_ms"), lastSentMs },
                                             { QStringLiteral("latencies"), latencies } })
                               .toJson(QJsonDocument::Compact)
                        << '\n';
    return 0;
}

// The CPU time (s) the server's processes have used so far: every process named postgres.
double serverCpuSeconds()
{
    double ticks = 0;
    const long hz = sysconf(_SC_CLK_TCK);
    for (const QString& pid : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
        if (!pid.front().isDigit())
            continue;
        QFile comm(QStringLiteral("/proc/%1/comm").arg(pid));
        if (!comm.open(QIODevice::ReadOnly) || comm.readAll().trimmed() != "postgres")
            continue;
        QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
        if (!stat.open(QIODevice::ReadOnly))
            continue;
        const QByteArray line = stat.readAll();
        // After the command's closing parenthesis: state is field 3, utime 14 and stime 15.
        const QList<QByteArray> f = line.mid(line.lastIndexOf(')') + 2).split(' ');
        if (f.size() > 12)
            ticks += f.at(11).toDouble() + f.at(12).toDouble();
    }
    return ticks / double(hz);
}

double percentile(QVector<qint64> values, double p)
{
    if (values.isEmpty())
        return 0;
    std::sort(values.begin(), values.end());
    const qsizetype at = std::min<qsizetype>(values.size() - 1, qsizetype(p * double(values.size())));
    return double(values.at(at));
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Team review under load: reviewers as processes, one team store"));
    parser.addHelpOption();
    parser.addOption({ QStringLiteral("reviewers"), QStringLiteral("reviewer processes (default 20)"), QStringLiteral("N"), QStringLiteral("20") });
    parser.addOption({ QStringLiteral("rate"), QStringLiteral("changes a second each (default 10)"), QStringLiteral("R"), QStringLiteral("10") });
    parser.addOption({ QStringLiteral("seconds"), QStringLiteral("for how long (default 60)"), QStringLiteral("S"), QStringLiteral("60") });
    // A reviewer's own run (the parent starts them).
    parser.addOption({ QStringLiteral("reviewer"), QStringLiteral("run as one reviewer of the store at URI"), QStringLiteral("URI") });
    parser.addOption({ QStringLiteral("dir"), QStringLiteral("the reviewer's folder"), QStringLiteral("DIR") });
    parser.addOption({ QStringLiteral("start"), QStringLiteral("when to begin (ms since the epoch)"), QStringLiteral("MS") });
    parser.addOption({ QStringLiteral("expected"), QStringLiteral("the team's changes in all"), QStringLiteral("N") });
    parser.process(app);
    const int rate = std::max(1, parser.value(QStringLiteral("rate")).toInt());
    const int seconds = std::max(1, parser.value(QStringLiteral("seconds")).toInt());
    try {
        if (parser.isSet(QStringLiteral("reviewer"))) {
            return reviewer(parser.value(QStringLiteral("reviewer")), parser.value(QStringLiteral("dir")), rate, seconds,
                parser.value(QStringLiteral("start")).toLongLong(), parser.value(QStringLiteral("expected")).toInt());
        }
        const int reviewers = std::max(2, parser.value(QStringLiteral("reviewers")).toInt());
        const PgServer& pg = PgServer::get();
        if (!pg.unavailable.isEmpty()) {
            QTextStream(stderr) << "sightline_team_bench: " << pg.unavailable << Qt::endl;
            return 1;
        }
        const QString db = QStringLiteral("teambench_%1").arg(QRandomGenerator::global()->bounded(1u << 30));
        pg.exec(QStringLiteral("postgres"), QStringLiteral("CREATE DATABASE %1").arg(db));
        {
            PgConnection owner(pg.uri(db, pg.owner), nullptr, PgConnection::Access::ReadWrite);
            TeamSchema::init(owner);
        }
        QTemporaryDir dir;
        QStringList logins;
        for (int i = 1; i <= reviewers; ++i) {
            const QString login = QStringLiteral("bench_r%1").arg(i, 2, 10, QLatin1Char('0'));
            pg.exec(QStringLiteral("postgres"),
                QStringLiteral("DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '%1') THEN CREATE ROLE %1 "
                               "LOGIN; END IF; END $$; ALTER ROLE %1 PASSWORD '%1-pw'")
                    .arg(login));
            pg.exec(db, QStringLiteral("GRANT sightline_reviewer TO %1").arg(login));
            logins << login;
        }
        const int expected = reviewers * rate * seconds;
        // Every reviewer starts at the same moment, once all have read their copies.
        const qint64 start = QDateTime::currentMSecsSinceEpoch() + 3000 + 150 * reviewers;
        std::vector<std::unique_ptr<QProcess>> processes;
        for (const QString& login : logins) {
            const QString home = dir.filePath(login);
            QDir().mkpath(home);
            QFile::copy(dataFile(QStringLiteral("roomkit/support.sqlite")), home + QStringLiteral("/support.sqlite"));
            auto p = std::make_unique<QProcess>();
            p->setProcessChannelMode(QProcess::ForwardedErrorChannel);
            p->start(QCoreApplication::applicationFilePath(),
                { QStringLiteral("--reviewer"),
                    QStringLiteral("postgresql://%1:%1-pw@%2:%3/%4").arg(login, pg.host).arg(pg.port).arg(db),
                    QStringLiteral("--dir"), home, QStringLiteral("--rate"), QString::number(rate), QStringLiteral("--seconds"),
                    QString::number(seconds), QStringLiteral("--start"), QString::number(start), QStringLiteral("--expected"),
                    QString::number(expected) });
            processes.push_back(std::move(p));
        }
        const qint64 wait = start - QDateTime::currentMSecsSinceEpoch();
        if (wait > 0)
            QThread::msleep(quint64(wait));
        const double cpuBefore = serverCpuSeconds();
        const qint64 commitsBefore = QString::fromUtf8(pg.run(QStringLiteral("psql"),
                                                           { QStringLiteral("-X"), QStringLiteral("-At"), QStringLiteral("-d"), db,
                                                               QStringLiteral("-c"),
                                                               QStringLiteral("SELECT xact_commit FROM pg_stat_database WHERE "
                                                                              "datname = current_database()") }))
                                         .trimmed()
                                         .toLongLong();
        QElapsedTimer wall;
        wall.start();
        // Sampled at the end of the changes: what the server spent while they were made.
        QThread::msleep(quint64(seconds) * 1000);
        const double cpu = serverCpuSeconds() - cpuBefore;
        const double elapsed = double(wall.elapsed()) / 1000.0;
        const qint64 commits = QString::fromUtf8(pg.run(QStringLiteral("psql"),
                                                     { QStringLiteral("-X"), QStringLiteral("-At"), QStringLiteral("-d"), db,
                                                         QStringLiteral("-c"),
                                                         QStringLiteral("SELECT xact_commit FROM pg_stat_database WHERE "
                                                                        "datname = current_database()") }))
                                   .trimmed()
                                   .toLongLong()
            - commitsBefore;
        QVector<qint64> latencies;
        int lostHere = 0, sent = 0;
        qint64 sendingMs = 0; // the slowest reviewer's time to make its changes
        for (auto& p : processes) {
            if (!p->waitForFinished(600000) || p->exitCode() != 0) {
                QTextStream(stderr) << "sightline_team_bench: a reviewer did not finish" << Qt::endl;
                return 1;
            }
            const QJsonObject o = QJsonDocument::fromJson(p->readAllStandardOutput().trimmed()).object();
            sent += o.value(QLatin1String("sent")).toInt();
            sendingMs = std::max<qint64>(sendingMs, qint64(o.value(QLatin1String("sending_ms")).toDouble()));
            lostHere += std::max(0, expected - o.value(QLatin1String("held")).toInt());
            for (const QJsonValue& v : o.value(QLatin1String("latencies")).toArray())
                latencies << qint64(v.toDouble());
        }
        const qint64 inStore = QString::fromUtf8(pg.run(QStringLiteral("psql"),
                                                     { QStringLiteral("-X"), QStringLiteral("-At"), QStringLiteral("-d"), db,
                                                         QStringLiteral("-c"),
                                                         QStringLiteral("SELECT count(*) FROM sightline.journal WHERE action = "
                                                                        "'note_added'") }))
                                   .trimmed()
                                   .toLongLong();
        QTextStream out(stdout);
        out << "| reviewers | changes/s each | seconds | made in | changes | propagations | p50 | p95 | max | server CPU | server transactions/s | lost |\n"
            << "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"
            << "| " << reviewers << " | " << rate << " | " << seconds << " | " << QString::number(double(sendingMs) / 1000.0, 'f', 1)
            << " s | " << sent << " | " << latencies.size() << " | "
            << percentile(latencies, 0.5) << " ms | " << percentile(latencies, 0.95) << " ms | "
            << percentile(latencies, 1.0) << " ms | " << QString::number(cpu / elapsed, 'f', 2) << " cores | "
            << QString::number(double(commits) / elapsed, 'f', 0) << " | " << (expected - inStore) + lostHere << " |"
            << Qt::endl;
        pg.exec(QStringLiteral("postgres"), QStringLiteral("DROP DATABASE %1 WITH (FORCE)").arg(db));
        // Lost: a change the store lacks, or a workspace that lacks one of the store's.
        if (sent != expected || inStore != expected || lostHere > 0) {
            QTextStream(stderr) << "sightline_team_bench: changes were lost (sent " << sent << " of " << expected << ", the store holds "
                                << inStore << ", the workspaces lack " << lostHere << ")" << Qt::endl;
            return 1;
        }
        return 0;
    } catch (const StoreError& e) {
        QTextStream(stderr) << "sightline_team_bench: " << e.toString() << Qt::endl;
        return 1;
    }
}
