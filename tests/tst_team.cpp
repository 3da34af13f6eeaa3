// Team review on a real PostgreSQL server (tests/pg/pgcluster.sh): reviewers as separate `sightline` processes, each
// with a login, a cache and a copy of the source of its own, sharing one team store.
#include "annotationstore.h"
#include "editstore.h"
#include "sources/importer.h"
#include "team/journalchain.h"
#include "team/teamschema.h"
#include "team/teamstore.h"
#include "team/teamsync.h"
#include "testsupport.h"
#include "workspace.h"

#include <csignal>
#include <memory>
#include <QDirIterator>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRandomGenerator>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtTest>

using namespace TestSupport;

#define REQUIRE_SERVER()                                                                                       \
    if (!PgServer::get().unavailable.isEmpty())                                                                \
    QSKIP(qPrintable(QStringLiteral("PostgreSQL: ") + PgServer::get().unavailable))

namespace {

using Run = TestSupport::CommandRun;

// One member of the team: a PostgreSQL login, and a home (cache, settings, a copy of the source) of its own.
struct Member
{
    QString login;
    QString password;
    QString home;
    QString source; // its copy of the support store, at a path of its own

    QProcessEnvironment env(const QString& serviceFile) const
    {
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        e.insert(QStringLiteral("XDG_CACHE_HOME"), home + QStringLiteral("/cache"));
        e.insert(QStringLiteral("XDG_CONFIG_HOME"), home + QStringLiteral("/config"));
        e.insert(QStringLiteral("PGUSER"), login);
        e.insert(QStringLiteral("PGPASSWORD"), password);
        e.insert(QStringLiteral("PGSERVICEFILE"), serviceFile);
        e.remove(QStringLiteral("DISPLAY"));
        return e;
    }
};

// Two reviewers' copies of the support store as workspaces of the test's own (the window's way of changing the
// review, in this process), each attached to the team store as its reviewer.
struct Copies
{
    QTemporaryDir dir;
    Workspace a { dir.filePath(QStringLiteral("a.sightline")) };
    Workspace b { dir.filePath(QStringLiteral("b.sightline")) };
    TeamStore ana;
    TeamStore ben;

    Copies(const QString& uriA, const QString& sourceA, const QString& uriB, const QString& sourceB)
        : ana(uriA)
        , ben(uriB)
    {
        Importer::import(a, sourceA);
        Importer::import(b, sourceB);
        TeamSync::attach(a, uriA, ana.storeId(), ana.secret());
        TeamSync::attach(b, uriB, ben.storeId(), ben.secret());
    }
};

} // namespace

class TestTeam : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_db; // the team database psql() reads
    QString m_base; // this run's first team database (service team; team_b is its name and _b)
    QString m_serviceFile; // names the team store for the URI postgresql:///?service=team (offline: a dead port)
    QString m_uri;
    Member m_ana, m_ben, m_carol;

    // Points the services at the server, or (offline) both at a port nothing listens on.
    void serve(bool online)
    {
        const PgServer& pg = PgServer::get();
        QFile f(m_serviceFile);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(QStringLiteral("[team]\nhost=%1\nport=%2\ndbname=%3\n[team_b]\nhost=%1\nport=%2\ndbname=%3_b\n")
                    .arg(pg.host)
                    .arg(online ? pg.port : 1)
                    .arg(m_base)
                    .toUtf8());
    }

    Run run(const Member& m, const QStringList& args)
    {
        return runCommand(QStringLiteral(SIGHTLINE_BINARY), args, m.env(m_serviceFile));
    }

    Member member(const QString& login)
    {
        Member m { login, login + QStringLiteral("-secret"), m_dir.filePath(login), {} };
        QDir().mkpath(m.home);
        // A copy at a path of its own (another machine, another folder): the team meets on the room, not the path.
        m.source = m.home + QStringLiteral("/copy-of-") + login + QStringLiteral(".sqlite");
        QFile::copy(dataFile(QStringLiteral("roomkit/support.sqlite")), m.source);
        return m;
    }

    QStringList psql(const QString& sql)
    {
        const QByteArray out = PgServer::get().run(QStringLiteral("psql"),
            { QStringLiteral("-X"), QStringLiteral("-q"), QStringLiteral("-At"), QStringLiteral("-v"),
                QStringLiteral("ON_ERROR_STOP=1"), QStringLiteral("-d"), m_db, QStringLiteral("-c"), sql });
        return QString::fromUtf8(out).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    }

    // The team's notes, as the store holds them (text|author|login), oldest first.
    QStringList teamNotes()
    {
        return psql(QStringLiteral("SELECT value || '|' || author || '|' || login FROM sightline.annotations WHERE kind = "
                                   "'note' AND present ORDER BY id"));
    }

    // How a member signs: "Ana" for ana.
    static QString signature(const Member& m) { return m.login.left(1).toUpper() + m.login.mid(1); }

    QStringList notesSeenBy(const Member& m)
    {
        const Run r = run(m, { QStringLiteral("notes"), m.source, QStringLiteral("--json") });
        QStringList texts;
        for (const QJsonObject& o : r.lines())
            texts << o.value(QLatin1String("text")).toString();
        return texts;
    }

    QString uriOf(const Member& m) const
    {
        const PgServer& pg = PgServer::get();
        return QStringLiteral("postgresql://%1:%2@%3:%4/%5").arg(m.login, m.password, pg.host).arg(pg.port).arg(m_db);
    }

private slots:
    void initTestCase()
    {
        REQUIRE_SERVER();
        const PgServer& pg = PgServer::get();
        m_db = QStringLiteral("team_%1").arg(QRandomGenerator::global()->bounded(1u << 30));
        m_base = m_db;
        pg.exec(QStringLiteral("postgres"), QStringLiteral("CREATE DATABASE %1").arg(m_db));
        for (const QString& login : { QStringLiteral("ana"), QStringLiteral("ben"), QStringLiteral("carol") }) {
            pg.exec(QStringLiteral("postgres"),
                QStringLiteral("DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '%1') THEN CREATE "
                               "ROLE %1 LOGIN; END IF; END $$; ALTER ROLE %1 PASSWORD '%1-secret'")
                    .arg(login));
        }
        m_serviceFile = m_dir.filePath(QStringLiteral("pg_service.conf"));
        serve(true);
        m_uri = QStringLiteral("postgresql:///?service=team");
        m_ana = member(QStringLiteral("ana"));
        m_ben = member(QStringLiteral("ben"));
        m_carol = member(QStringLiteral("carol"));
    }

    // The admin's one command makes the store, its roles and grants; run again it changes nothing.
    void initMakesTheStoreOnce()
    {
        REQUIRE_SERVER();
        const PgServer& pg = PgServer::get();
        Member admin { pg.owner, pg.passwords.value(pg.owner), m_dir.filePath(QStringLiteral("admin")), {} };
        const Run first = run(admin, { QStringLiteral("team"), QStringLiteral("init"), m_uri });
        QCOMPARE(first.code, 0);
        QVERIFY2(first.out.contains(QStringLiteral("created (schema step %1)").arg(TeamSchema::latestStep())),
            qPrintable(first.out + first.err));
        QVERIFY(first.out.contains(QLatin1String("GRANT sightline_reviewer TO")));
        const Run again = run(admin, { QStringLiteral("team"), QStringLiteral("init"), m_uri });
        QCOMPARE(again.code, 0);
        QVERIFY2(again.out.contains(QLatin1String("nothing to do")), qPrintable(again.out));
        QCOMPARE(psql(QStringLiteral("SELECT rolname FROM pg_roles WHERE rolname LIKE 'sightline\\_%' AND NOT rolcanlogin "
                                     "ORDER BY 1")),
            QStringList({ QStringLiteral("sightline_admin"), QStringLiteral("sightline_auditor"),
                QStringLiteral("sightline_reviewer") }));
        pg.exec(m_db, QStringLiteral("GRANT sightline_reviewer TO ana, ben; GRANT sightline_auditor TO carol"));
        // A login the admin made none of the three is told which grant it lacks.
        pg.exec(QStringLiteral("postgres"),
            QStringLiteral("DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'dave') THEN CREATE ROLE "
                           "dave LOGIN PASSWORD 'dave-secret'; END IF; END $$"));
        Member dave = member(QStringLiteral("dave"));
        const Run none = run(dave, { QStringLiteral("notes"), dave.source, QStringLiteral("--team"), m_uri });
        QCOMPARE(none.code, 1);
        QVERIFY2(none.err.contains(QLatin1String("GRANT sightline_reviewer TO dave")), qPrintable(none.err));
    }

    // A note and a review status made by one reviewer are what the other sees next, at another path.
    void oneReviewersChangesReachTheOther()
    {
        REQUIRE_SERVER();
        const Run note = run(m_ana, { QStringLiteral("note"), m_ana.source, QStringLiteral("--room"),
                                        QStringLiteral("sup-late-delivery"), QStringLiteral("--index"), QStringLiteral("2"),
                                        QStringLiteral("--text"), QStringLiteral("customer waited three days"),
                                        QStringLiteral("--author"), QStringLiteral("Ana"), QStringLiteral("--team"), m_uri });
        QCOMPARE(note.code, 0);
        QVERIFY2(note.err.isEmpty(), qPrintable(note.err));
        QCOMPARE(teamNotes(), QStringList { QStringLiteral("customer waited three days|Ana|ana") });
        // Ben's first look after Ana's command returned: no wait, no poll.
        const Run seen = run(m_ben, { QStringLiteral("notes"), m_ben.source, QStringLiteral("--json"),
                                        QStringLiteral("--team"), m_uri });
        QCOMPARE(seen.code, 0);
        const QList<QJsonObject> lines = seen.lines();
        QCOMPARE(lines.size(), 1);
        QCOMPARE(lines.first().value(QLatin1String("room")).toString(), QStringLiteral("sup-late-delivery"));
        QCOMPARE(lines.first().value(QLatin1String("index")).toInteger(), 2);
        QCOMPARE(lines.first().value(QLatin1String("author")).toString(), QStringLiteral("Ana"));
        QCOMPARE(lines.first().value(QLatin1String("saved")).toBool(), true);

        // The attachment is remembered: no --team from here on.
        QCOMPARE(run(m_ana, { QStringLiteral("review"), m_ana.source, QStringLiteral("--room"),
                                QStringLiteral("sup-late-delivery"), QStringLiteral("--status"), QStringLiteral("in-review"),
                                QStringLiteral("--author"), QStringLiteral("Ana") })
                     .code,
            0);
        QCOMPARE(run(m_ben, { QStringLiteral("review"), m_ben.source, QStringLiteral("--room"),
                                QStringLiteral("sup-late-delivery"), QStringLiteral("--status"), QStringLiteral("done"),
                                QStringLiteral("--author"), QStringLiteral("Ben") })
                     .code,
            0);
        const Run rooms = run(m_ana, { QStringLiteral("rooms"), m_ana.source, QStringLiteral("--json") });
        QJsonObject late;
        for (const QJsonObject& o : rooms.lines()) {
            if (o.value(QLatin1String("id")).toString() == QLatin1String("sup-late-delivery"))
                late = o;
        }
        QCOMPARE(late.value(QLatin1String("review")).toString(), QStringLiteral("done"));
        QCOMPARE(late.value(QLatin1String("reviewer")).toString(), QStringLiteral("Ben"));
        // Ben set it knowing Ana's: the journal says it went from hers to his.
        const Run journal = run(m_ana, { QStringLiteral("journal"), m_ana.source, QStringLiteral("--json"),
                                           QStringLiteral("--room"), QStringLiteral("sup-late-delivery") });
        QStringList said;
        for (const QJsonObject& o : journal.lines()) {
            said << o.value(QLatin1String("author")).toString() + QLatin1Char(' ') + o.value(QLatin1String("action")).toString()
                    + QLatin1Char(' ') + o.value(QLatin1String("before")).toString() + QStringLiteral("->")
                    + o.value(QLatin1String("after")).toString();
        }
        QCOMPARE(said, QStringList({ QStringLiteral("Ana note_added ->customer waited three days"),
                           QStringLiteral("Ana review unreviewed->in review"), QStringLiteral("Ben review in review->done") }));

        // The same store under another spelling of its URI (the login and address written out) is the same store:
        // nothing is sent again.
        const QStringList journalThere = psql(QStringLiteral("SELECT id FROM sightline.journal ORDER BY id"));
        const PgServer& pg = PgServer::get();
        const QString respelled = QStringLiteral("postgresql://ben@%1:%2/%3").arg(pg.host).arg(pg.port).arg(m_db);
        const Run again = run(m_ben, { QStringLiteral("notes"), m_ben.source, QStringLiteral("--team"), respelled });
        QCOMPARE(again.code, 0);
        QCOMPARE(psql(QStringLiteral("SELECT id FROM sightline.journal ORDER BY id")), journalThere);
        QVERIFY(run(m_ben, { QStringLiteral("team"), QStringLiteral("status"), m_ben.source }).out.contains(respelled));
        // A mistyped one that nothing answers at never moves the attachment, and nothing is written.
        const Run typo = run(m_ben, { QStringLiteral("note"), m_ben.source, QStringLiteral("--room"),
                                        QStringLiteral("sup-late-delivery"), QStringLiteral("--text"), QStringLiteral("typo"),
                                        QStringLiteral("--team"), QStringLiteral("postgresql://ben@127.0.0.1:1/%1").arg(m_db) });
        QCOMPARE(typo.code, 1);
        QVERIFY2(typo.err.contains(QStringLiteral("stays attached to %1").arg(respelled)), qPrintable(typo.err));
        QCOMPARE(notesSeenBy(m_ben), QStringList { QStringLiteral("customer waited three days") });
        QCOMPARE(psql(QStringLiteral("SELECT id FROM sightline.journal ORDER BY id")), journalThere);
        QVERIFY(run(m_ben, { QStringLiteral("team"), QStringLiteral("status"), m_ben.source }).out.contains(respelled));
    }

    // Labels and marks (the window's) go through the same store: added by one, taken out by the other.
    void labelsAndMarksAreShared()
    {
        REQUIRE_SERVER();
        Copies copies(uriOf(m_ana), m_ana.source, uriOf(m_ben), m_ben.source);
        Workspace &a = copies.a, &b = copies.b;
        TeamStore &ana = copies.ana, &ben = copies.ben;
        QVERIFY(!TeamSync::attached(a)->contains(m_ana.password)); // kept without its password
        const qint64 roomA = a.findRooms(QStringLiteral("sup-duplicate-charge")).value(0);
        const qint64 roomB = b.findRooms(QStringLiteral("sup-duplicate-charge")).value(0);
        AnnotationStore storeA(a), storeB(b);
        storeA.addLabel(roomA, 3, QStringLiteral("refund"), QStringLiteral("Ana"));
        storeA.setMarked(roomA, 5, true, QStringLiteral("Ana"));
        // Both gave the room the same label before either synced: one label, once, for both.
        storeA.addLabel(roomA, std::nullopt, QStringLiteral("escalate"), QStringLiteral("Ana"));
        storeB.addLabel(roomB, std::nullopt, QStringLiteral("escalate"), QStringLiteral("Ben"));
        storeA.save();
        storeB.save();
        QCOMPARE(TeamSync::pending(a), 3);
        QCOMPARE(TeamSync(a, ana).sync().sent, 3);
        QCOMPARE(TeamSync::pending(a), 0);
        TeamSync(b, ben).sync();
        TeamSync(a, ana).sync();
        auto shown = [](AnnotationStore& store, qint64 room) {
            QStringList out;
            for (const Annotation& x : store.annotations(room)) {
                out << QStringLiteral("%1 %2 %3").arg(Annotation::kindName(x.kind),
                    x.index ? QString::number(*x.index) : QStringLiteral("room"), x.value);
            }
            out.sort();
            return out;
        };
        const QStringList expected { QStringLiteral("label 3 refund"), QStringLiteral("label room escalate"),
            QStringLiteral("mark 5 ") };
        QCOMPARE(shown(storeA, roomA), expected);
        QCOMPARE(shown(storeB, roomB), expected);
        QCOMPARE(psql(QStringLiteral("SELECT count(*) FROM sightline.annotations WHERE kind = 'label' AND value = "
                                     "'escalate' AND present")),
            QStringList { QStringLiteral("1") });
        // Ben takes the label and the mark out; Ana sees them go.
        storeB.removeLabel(roomB, 3, QStringLiteral("refund"), QStringLiteral("Ben"));
        storeB.setMarked(roomB, 5, false, QStringLiteral("Ben"));
        storeB.save();
        TeamSync(b, ben).sync();
        TeamSync(a, ana).sync();
        QCOMPARE(shown(storeA, roomA), QStringList { QStringLiteral("label room escalate") });
        QCOMPARE(shown(storeB, roomB), QStringList { QStringLiteral("label room escalate") });

        // Every change sent again (its answer lost, the process killed before it noted it went up) is taken once.
        const QStringList journalThere = psql(QStringLiteral("SELECT id, action FROM sightline.journal ORDER BY id"));
        // What Ben's workspace sent, by the keys the store took them under: as if none of their answers had come.
        const QString client = dump(b, QStringLiteral("SELECT client FROM team")).value(0);
        const QStringList sent = psql(QStringLiteral("SELECT substr(client_key, %1) FROM sightline.journal WHERE client_key "
                                                     "LIKE '%2:%'")
                                          .arg(client.size() + 2)
                                          .arg(client));
        QVERIFY(!sent.isEmpty());
        const QString ids = sent.join(QLatin1Char(','));
        b.exec(QStringLiteral("UPDATE annotations SET team_id = NULL WHERE id IN (SELECT annotation_id FROM journal WHERE id "
                              "IN (%1) AND action LIKE '%added')")
                   .arg(ids));
        b.exec(QStringLiteral("UPDATE journal SET team_id = NULL WHERE id IN (%1)").arg(ids));
        const TeamSync::Result again = TeamSync(b, ben).sync();
        QVERIFY(again.sent > 0);
        QCOMPARE(psql(QStringLiteral("SELECT id, action FROM sightline.journal ORDER BY id")), journalThere);
        QCOMPARE(shown(storeB, roomB), QStringList { QStringLiteral("label room escalate") });
    }

    // Edits and pair fixes made in one copy are made in the other at its sync, signed by who made them, and an edit
    // taken back there is taken back here; the store keeps the values made, never what the source said.
    void editsAndPairFixesAreShared()
    {
        REQUIRE_SERVER();
        Copies copies(uriOf(m_ana), m_ana.source, uriOf(m_ben), m_ben.source);
        Workspace &a = copies.a, &b = copies.b;
        TeamStore &ana = copies.ana, &ben = copies.ben;
        TeamSync(a, ana).sync();
        TeamSync(b, ben).sync();
        const QString roomName = QStringLiteral("sup-warranty-claim");
        const qint64 roomA = a.findRooms(roomName).value(0);
        const qint64 roomB = b.findRooms(roomName).value(0);
        const qint64 message = dump(a, QStringLiteral("SELECT seq FROM events WHERE room_id = %1 AND kind = (SELECT code FROM words WHERE name = 'message') ORDER BY "
                                                      "seq LIMIT 1 OFFSET 1").arg(roomA)).value(0).toLongLong();
        const QStringList call = dump(a, QStringLiteral("SELECT start_seq || ',' || end_seq FROM tool_calls WHERE room_id = %1 AND "
                                                        "start_seq IS NOT NULL AND end_seq IS NOT NULL ORDER BY start_seq LIMIT 1")
                                             .arg(roomA))
                                     .value(0)
                                     .split(QLatin1Char(','));
        QCOMPARE(call.size(), 2);
        const qint64 start = call.at(0).toLongLong(), end = call.at(1).toLongLong();
        const QString original = b.event(roomB, message)->text;
        QVERIFY(!original.isEmpty());

        AnnotationStore storeA(a);
        const EditSteps text = storeA.editText(roomA, message, QStringLiteral("the customer's words, as Ana heard them"), QStringLiteral("Ana"));
        storeA.setOutcome(roomA, start, QStringLiteral("failed"), QStringLiteral("Ana"));
        storeA.unlink(roomA, start, QStringLiteral("Ana"));
        storeA.save();
        QCOMPARE(TeamSync::pending(a), 3);
        QCOMPARE(TeamSync(a, ana).sync().sent, 3);
        // Sent again, as after a push killed before it noted what went up: the store takes each once.
        const QStringList edited = psql(QStringLiteral("SELECT id, action FROM sightline.journal ORDER BY id"));
        a.exec(QStringLiteral("UPDATE journal SET team_id = NULL WHERE edit_id IS NOT NULL"));
        a.exec(QStringLiteral("UPDATE edits SET team_id = NULL"));
        QCOMPARE(TeamSync(a, ana).sync().sent, 3);
        QCOMPARE(psql(QStringLiteral("SELECT id, action FROM sightline.journal ORDER BY id")), edited);
        QCOMPARE(dump(a, QStringLiteral("SELECT count(*) FROM edits WHERE team_id IS NULL")), QStringList { QStringLiteral("0") });
        const TeamSync::Result took = TeamSync(b, ben).sync();
        QVERIFY(took.cut); // the rows changed: a window reads them again
        QCOMPARE(b.event(roomB, message)->text, QStringLiteral("the customer's words, as Ana heard them"));
        QStringList edits;
        for (const Edit& e : EditStore(b).edits(roomB))
            edits << QStringLiteral("%1 %2 %3").arg(Edit::fieldName(e.field)).arg(e.index).arg(e.author);
        QCOMPARE(edits, (QStringList { QStringLiteral("text %1 Ana").arg(message), QStringLiteral("outcome %1 Ana").arg(start),
                            QStringLiteral("unlink %1 Ana").arg(start) }));
        // The pair fix: Ben's copy no longer pairs the end with the start.
        QCOMPARE(dump(b, QStringLiteral("SELECT count(*) FROM tool_calls WHERE room_id = %1 AND start_seq = %2 AND end_seq = %3")
                             .arg(roomB).arg(start).arg(end)),
            QStringList { QStringLiteral("0") });
        // The store holds the values made, not the source's text.
        QCOMPARE(psql(QStringLiteral("SELECT count(*) FROM sightline.journal WHERE action = 'text_edited' AND before IS NOT NULL")),
            QStringList { QStringLiteral("0") });
        QVERIFY(!PgServer::get().dump({ QStringLiteral("--data-only"), m_db }).contains(original.toUtf8()));
        // Nothing comes back up from Ben's copy: they are Ana's.
        QCOMPARE(TeamSync::pending(b), 0);

        // Ana takes her text edit back: the source's words again in Ben's copy; her pair fix stays.
        const qint64 editId = text.at(0).id;
        storeA.revertEdit(editId, QStringLiteral("Ana"));
        storeA.save();
        QCOMPARE(TeamSync(a, ana).sync().sent, 1);
        TeamSync(b, ben).sync();
        QCOMPARE(b.event(roomB, message)->text, original);
        QCOMPARE(EditStore(b).edits(roomB).size(), 2);
        QCOMPARE(psql(QStringLiteral("SELECT action || '|' || author FROM sightline.journal WHERE action IN ('text_edited', "
                                     "'outcome_changed', 'unlinked', 'edit_reverted') ORDER BY id")),
            (QStringList { QStringLiteral("text_edited|Ana"), QStringLiteral("outcome_changed|Ana"), QStringLiteral("unlinked|Ana"),
                QStringLiteral("edit_reverted|Ana") }));
        // Ben puts the pair back with a pair fix of his own: Ana's copy pairs them again.
        AnnotationStore storeB(b);
        storeB.link(roomB, start, end, QStringLiteral("Ben"));
        storeB.save();
        QCOMPARE(TeamSync(b, ben).sync().sent, 1);
        TeamSync(a, ana).sync();
        QCOMPARE(dump(a, QStringLiteral("SELECT count(*) FROM tool_calls WHERE room_id = %1 AND start_seq = %2 AND end_seq = %3")
                             .arg(roomA).arg(start).arg(end)),
            QStringList { QStringLiteral("1") });

        // Two edits of the message's text, Ana's made not knowing Ben's: the later shows in both copies (the team's
        // order, not the order each copy took them in), both are kept as a conflict, and keeping Ben's shows his again.
        storeB.editText(roomB, message, QStringLiteral("Ben's reading"), QStringLiteral("Ben"));
        storeB.save();
        TeamSync(b, ben).sync();
        storeA.editText(roomA, message, QStringLiteral("Ana's reading"), QStringLiteral("Ana"));
        storeA.save();
        TeamSync(a, ana).sync();
        TeamSync(b, ben).sync();
        QCOMPARE(a.event(roomA, message)->text, QStringLiteral("Ana's reading"));
        QCOMPARE(b.event(roomB, message)->text, QStringLiteral("Ana's reading"));
        const TeamConflicts conflicts = ben.conflicts();
        QCOMPARE(conflicts.size(), 1);
        QCOMPARE(conflicts.first().field, QStringLiteral("text"));
        QCOMPARE(conflicts.first().seq.value_or(-1), message);
        QCOMPARE(conflicts.first().theirsAuthor + QLatin1Char('>') + conflicts.first().mineAuthor, QStringLiteral("Ben>Ana"));
        QCOMPARE(conflicts.first().theirs, QStringLiteral("Ben's reading"));
        ben.settle(conflicts.first().id, QStringLiteral("theirs"), QStringLiteral("Ben"), QStringLiteral("test:settle"));
        TeamSync(a, ana).sync();
        TeamSync(b, ben).sync();
        QCOMPARE(a.event(roomA, message)->text, QStringLiteral("Ben's reading"));
        QCOMPARE(b.event(roomB, message)->text, QStringLiteral("Ben's reading"));
        QVERIFY(ben.conflicts().isEmpty());
        // An edit made knowing what is there makes no conflict.
        storeA.editText(roomA, message, QStringLiteral("Ana's second reading"), QStringLiteral("Ana"));
        storeA.save();
        TeamSync(a, ana).sync();
        QVERIFY(ana.conflicts().isEmpty());
    }

    // A redaction made by one reviewer cuts the text out of every teammate's copy at its next sync: rows, search, and
    // every byte of its files; the store keeps where and why, never the text. A copy that has not read the room yet
    // cuts it as the room comes in.
    void aRedactionReachesEveryCopy()
    {
        REQUIRE_SERVER();
        const QString secret = QStringLiteral("A-10533"); // an order number in sup-duplicate-charge
        auto shown = [&](const Member& m) {
            return run(m, { QStringLiteral("events"), m.source, QStringLiteral("--room"), QStringLiteral("sup-duplicate-charge"),
                              QStringLiteral("--json") })
                .out;
        };
        QVERIFY(shown(m_ben).contains(secret));
        const Run r = run(m_ana, { QStringLiteral("redact"), m_ana.source, QStringLiteral("--room"),
                                     QStringLiteral("sup-duplicate-charge"), QStringLiteral("--pattern"),
                                     QStringLiteral("A-\\d{5}"), QStringLiteral("--reason"), QStringLiteral("order number"),
                                     QStringLiteral("--author"), QStringLiteral("Ana") });
        QCOMPARE(r.code, 0);
        QVERIFY2(!r.err.contains(QLatin1String("team")), qPrintable(r.err));
        const int cuts = psql(QStringLiteral("SELECT count(*) FROM sightline.redactions")).value(0).toInt();
        QVERIFY(cuts > 0);
        QVERIFY(!PgServer::get().dump({ QStringLiteral("--data-only"), m_db }).contains(secret.toUtf8()));

        // Ben's next command, whatever it is (here a search, which shares nothing itself), syncs first: the text is
        // gone from what he sees and from his workspace's files.
        const Run search = run(m_ben, { QStringLiteral("events"), m_ben.source, QStringLiteral("--room"),
                                          QStringLiteral("sup-duplicate-charge"), QStringLiteral("--text"), secret,
                                          QStringLiteral("--count") });
        QCOMPARE(search.code, 0);
        QVERIFY2(search.err.isEmpty(), qPrintable(search.err));
        QCOMPARE(search.out.trimmed(), QStringLiteral("0"));
        const QString after = shown(m_ben);
        QVERIFY(!after.contains(secret));
        QVERIFY(after.contains(QLatin1String("[redacted: order number]")));
        QDirIterator files(m_ben.home + QStringLiteral("/cache"), QDir::Files, QDirIterator::Subdirectories);
        int read = 0;
        while (files.hasNext()) {
            const QString file = files.next();
            QVERIFY2(!fileBytes(file).contains(secret.toUtf8()), qPrintable(file));
            ++read;
        }
        QVERIFY(read > 0);
        // The ledger names who and why, in both journals.
        const Run journal = run(m_ben, { QStringLiteral("journal"), m_ben.source, QStringLiteral("--json"),
                                           QStringLiteral("--room"), QStringLiteral("sup-duplicate-charge") });
        int redacted = 0;
        for (const QJsonObject& o : journal.lines()) {
            if (o.value(QLatin1String("action")).toString() == QLatin1String("redacted")) {
                QCOMPARE(o.value(QLatin1String("author")).toString(), QStringLiteral("Ana"));
                ++redacted;
            }
        }
        QCOMPARE(redacted, cuts);

        // A teammate who cut the same text before Ana's redaction came has it done, and is told nothing is waiting.
        Member dan = member(QStringLiteral("ben"));
        dan.home = m_dir.filePath(QStringLiteral("ben-tablet"));
        QDir().mkpath(dan.home);
        QVERIFY(shown(dan).contains(secret));
        const Run same = run(dan, { QStringLiteral("redact"), dan.source, QStringLiteral("--room"),
                                      QStringLiteral("sup-duplicate-charge"), QStringLiteral("--pattern"),
                                      QStringLiteral("A-\\d{5}"), QStringLiteral("--reason"), QStringLiteral("order number"),
                                      QStringLiteral("--author"), QStringLiteral("Ben"), QStringLiteral("--team"), m_uri });
        QCOMPARE(same.code, 0);
        QVERIFY2(!same.err.contains(QLatin1String("not applied")), qPrintable(same.err));
        QVERIFY(!shown(dan).contains(secret));

        // Carol has read no room yet: the redaction waits, and the room is cut as her next command reads it.
        const Run attach = run(m_carol, { QStringLiteral("team"), QStringLiteral("attach"), m_carol.source,
                                            QStringLiteral("--team"), m_uri });
        QCOMPARE(attach.code, 0);
        QVERIFY2(attach.err.contains(QLatin1String("a teammate's change is not applied here yet (room sup-duplicate-charge "
                                                   "is not read here yet: ")),
            qPrintable(attach.err));
        QCOMPARE(attach.err.count(QLatin1String("not read here yet")), 1); // one line for the room, not one a redaction
        QVERIFY(!shown(m_carol).contains(secret));
        QDirIterator carol(m_carol.home + QStringLiteral("/cache"), QDir::Files, QDirIterator::Subdirectories);
        while (carol.hasNext()) {
            const QString file = carol.next();
            QVERIFY2(!fileBytes(file).contains(secret.toUtf8()), qPrintable(file));
        }
    }

    // An auditor reads and verifies; a change it tries is refused naming its role, and nothing is written anywhere.
    void anAuditorsChangeIsRefused()
    {
        REQUIRE_SERVER();
        const QStringList before = psql(QStringLiteral("SELECT count(*) FROM sightline.journal"));
        const Run note = run(m_carol, { QStringLiteral("note"), m_carol.source, QStringLiteral("--room"),
                                          QStringLiteral("sup-late-delivery"), QStringLiteral("--text"),
                                          QStringLiteral("looks fine"), QStringLiteral("--team"), m_uri });
        QCOMPARE(note.code, 1);
        QVERIFY2(note.err.contains(QLatin1String("role carol is an auditor")), qPrintable(note.err));
        QVERIFY(note.err.contains(QLatin1String("nothing was written")));
        QCOMPARE(psql(QStringLiteral("SELECT count(*) FROM sightline.journal")), before);
        QCOMPARE(notesSeenBy(m_carol), QStringList { QStringLiteral("customer waited three days") });
        // The server refuses it too, whatever a client sends: the functions and the tables alike.
        QProcess p;
        QProcessEnvironment env = m_carol.env(m_serviceFile);
        p.setProcessEnvironment(env);
        const PgServer& pg = PgServer::get();
        p.start(pg.bindir + QStringLiteral("/psql"),
            { QStringLiteral("-X"), QStringLiteral("-h"), pg.host, QStringLiteral("-p"), QString::number(pg.port),
                QStringLiteral("-d"), m_db, QStringLiteral("-c"),
                QStringLiteral("SELECT sightline.set_review('roomkit', 'sup-late-delivery', 'done', 'Carol', 0, 'x')") });
        QVERIFY(p.waitForFinished(30000));
        QVERIFY(p.exitCode() != 0);
        QVERIFY2(p.readAllStandardError().contains("permission denied"), "the server let an auditor call set_review");
        QCOMPARE(psql(QStringLiteral("SELECT count(*) FROM sightline.journal")), before);
    }

    // A lead (sightline_admin) makes a queue; `next` run by two reviewers at the same moment hands them two different
    // rooms, each round, until none is left; every room is handed out once and the progress counts what was done.
    void queueHandsTwoReviewersTwoRooms()
    {
        REQUIRE_SERVER();
        const PgServer& pg = PgServer::get();
        pg.exec(QStringLiteral("postgres"),
            QStringLiteral("DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'lead') THEN CREATE ROLE "
                           "lead LOGIN PASSWORD 'lead-secret'; END IF; END $$"));
        pg.exec(m_db, QStringLiteral("GRANT sightline_admin TO lead"));
        Member lead = member(QStringLiteral("lead"));
        auto queue = [&](const Member& m, const QStringList& args) {
            QStringList all = QStringList { QStringLiteral("queue") } + args + QStringList { QStringLiteral("--team"), m_uri };
            if (args.first() == QLatin1String("next") || args.first() == QLatin1String("done"))
                all << QStringLiteral("--author") << signature(m);
            return run(m, all);
        };
        // A reviewer makes no queue: the message names the role it takes.
        Run made = queue(m_ana, { QStringLiteral("create"), m_ana.source, QStringLiteral("--name"), QStringLiteral("mine") });
        QCOMPARE(made.code, 1);
        QVERIFY2(made.err.contains(QLatin1String("queues are made by an admin (sightline_admin")), qPrintable(made.err));
        // A filter no room matches makes none.
        made = queue(lead, { QStringLiteral("create"), lead.source, QStringLiteral("--name"), QStringLiteral("failed"),
                               QStringLiteral("--query"), QStringLiteral("outcome:failed") });
        QCOMPARE(made.code, 1);
        QVERIFY2(made.err.contains(QLatin1String("no queue was made")), qPrintable(made.err));
        // The rooms with a blocked row, in the last ten thousand days (a time before now, as a queue says "-7d").
        made = queue(lead, { QStringLiteral("create"), lead.source, QStringLiteral("--name"), QStringLiteral("blocked"),
                               QStringLiteral("--query"), QStringLiteral("blocked:only after:-10000d"),
                               QStringLiteral("--reviewer"), QStringLiteral("ana") });
        QCOMPARE(made.code, 0);
        QVERIFY2(made.out.contains(QLatin1String("2 of 8 rooms")), qPrintable(made.out + made.err));
        // The earlier cases reviewed some rooms done, and a queue hands out no room done already: the lead sets every
        // room unreviewed first, so that this queue hands out all eight.
        for (const QString& room : psql(QStringLiteral("SELECT native_id FROM sightline.rooms WHERE system = 'roomkit'"))) {
            QCOMPARE(run(lead, { QStringLiteral("review"), lead.source, QStringLiteral("--room"), room, QStringLiteral("--status"),
                                   QStringLiteral("unreviewed"), QStringLiteral("--author"), QStringLiteral("Lead"),
                                   QStringLiteral("--team"), m_uri })
                         .code,
                0);
        }
        made = queue(lead, { QStringLiteral("create"), lead.source, QStringLiteral("--name"), QStringLiteral("week"),
                               QStringLiteral("--instructions"), QStringLiteral("Read each; note what went wrong") });
        QCOMPARE(made.code, 0);
        QVERIFY2(made.out.contains(QLatin1String("8 of 8 rooms")), qPrintable(made.out + made.err));
        made = queue(lead, { QStringLiteral("create"), lead.source, QStringLiteral("--name"), QStringLiteral("week") });
        QCOMPARE(made.code, 1);
        QVERIFY2(made.err.contains(QLatin1String("a queue named \"week\" already")), qPrintable(made.err));

        // Row-level security: a queue that names its reviewers is not seen by another reviewer, nor taken from.
        auto names = [&](const Member& m) {
            QStringList out;
            for (const QJsonObject& o : queue(m, { QStringLiteral("list"), m.source, QStringLiteral("--json") }).lines())
                out << o.value(QLatin1String("name")).toString();
            return out;
        };
        QCOMPARE(names(m_ana), QStringList({ QStringLiteral("blocked"), QStringLiteral("week") }));
        QCOMPARE(names(m_ben), QStringList { QStringLiteral("week") });
        QCOMPARE(names(m_carol), QStringList({ QStringLiteral("blocked"), QStringLiteral("week") })); // an auditor
        const Run refused = queue(m_ben, { QStringLiteral("next"), m_ben.source, QStringLiteral("--name"), QStringLiteral("blocked") });
        QCOMPARE(refused.code, 1);
        QVERIFY2(refused.err.contains(QLatin1String("role ben is not one of the reviewers of queue \"blocked\"")), qPrintable(refused.err));
        QCOMPARE(psql(QStringLiteral("SELECT count(*) FROM sightline.queue_items i JOIN sightline.queues q ON q.id = "
                                     "i.queue_id WHERE q.name = 'blocked' AND i.locked_by IS NOT NULL")),
            QStringList { QStringLiteral("0") });
        const Run auditor = queue(m_carol, { QStringLiteral("next"), m_carol.source, QStringLiteral("--name"), QStringLiteral("week") });
        QCOMPARE(auditor.code, 1);
        QVERIFY2(auditor.err.contains(QLatin1String("role carol is an auditor")), qPrintable(auditor.err));

        // Both at once, round after round: each process started before either answers.
        auto reviewOf = [&](const QString& room) {
            return psql(QStringLiteral("SELECT a.value || '|' || a.author FROM sightline.annotations a JOIN sightline.rooms r "
                                       "ON r.id = a.room_id WHERE a.kind = 'review' AND a.present AND r.native_id = '%1'")
                            .arg(room));
        };
        const QStringList reviewedBefore = psql(QStringLiteral(
            "SELECT r.native_id FROM sightline.annotations a JOIN sightline.rooms r ON r.id = a.room_id WHERE a.kind = "
            "'review' AND a.present AND a.value <> 'unreviewed'"));
        QStringList handedOut;
        auto next = [&](const Member& m) {
            auto p = std::make_unique<QProcess>();
            p->setProcessEnvironment(m.env(m_serviceFile));
            p->start(QStringLiteral(SIGHTLINE_BINARY),
                { QStringLiteral("queue"), QStringLiteral("next"), m.source, QStringLiteral("--name"), QStringLiteral("week"),
                    QStringLiteral("--author"), signature(m), QStringLiteral("--team"), m_uri });
            return p;
        };
        for (int round = 0; round < 4; ++round) {
            auto a = next(m_ana);
            auto b = next(m_ben);
            QVERIFY(a->waitForFinished(60000) && b->waitForFinished(60000));
            QCOMPARE(a->exitCode(), 0);
            QCOMPARE(b->exitCode(), 0);
            // The room's id is the first line.
            const QString roomA = QString::fromUtf8(a->readAllStandardOutput()).section(QLatin1Char('\n'), 0, 0);
            const QString roomB = QString::fromUtf8(b->readAllStandardOutput()).section(QLatin1Char('\n'), 0, 0);
            QVERIFY2(!roomA.isEmpty() && !roomB.isEmpty() && roomA != roomB, qPrintable(roomA + QLatin1Char('/') + roomB));
            handedOut << roomA << roomB;
            // Asked again before it is done, `next` gives the room a reviewer holds, not another.
            if (round == 0) {
                const Run again = queue(m_ana, { QStringLiteral("next"), m_ana.source, QStringLiteral("--name"), QStringLiteral("week") });
                QCOMPARE(again.out.section(QLatin1Char('\n'), 0, 0), roomA);
                QVERIFY2(again.out.contains(QLatin1String("instructions: Read each; note what went wrong")), qPrintable(again.out));
                // Taken is in review, for the whole team (the status went up with the journal), unless an
                // earlier case reviewed it.
                if (!reviewedBefore.contains(roomA))
                    QCOMPARE(reviewOf(roomA), QStringList { QStringLiteral("in review|Ana") });
                // Ben may not finish the room Ana holds: the refusal names her.
                const Run taken = queue(m_ben, { QStringLiteral("done"), m_ben.source, QStringLiteral("--name"),
                                                  QStringLiteral("week"), QStringLiteral("--room"), roomA });
                QCOMPARE(taken.code, 1);
                QVERIFY2(taken.err.contains(QStringLiteral("is being reviewed by Ana (ana) until")), qPrintable(taken.err));
            }
            if (round == 1) {
                // A lock that ran out (Ana went home): the room goes to the next who asks.
                psql(QStringLiteral("UPDATE sightline.queue_items SET locked_until_ms = 1 WHERE locked_by = 'ana'"));
                auto b2 = next(m_ben);
                QVERIFY(b2->waitForFinished(60000));
                QCOMPARE(b2->exitCode(), 0);
                QCOMPARE(QString::fromUtf8(b2->readAllStandardOutput()).section(QLatin1Char('\n'), 0, 0), roomB);
                QCOMPARE(queue(m_ben, { QStringLiteral("done"), m_ben.source, QStringLiteral("--name"), QStringLiteral("week") }).code, 0);
                const Run ben = queue(m_ben, { QStringLiteral("next"), m_ben.source, QStringLiteral("--name"), QStringLiteral("week") });
                QCOMPARE(ben.out.section(QLatin1Char('\n'), 0, 0), roomA); // the expired one, first in line
                QCOMPARE(queue(m_ben, { QStringLiteral("done"), m_ben.source, QStringLiteral("--name"), QStringLiteral("week") }).code, 0);
                // Ana's `done` finds hers taken and finished: it says by whom, and changes nothing.
                const Run late = queue(m_ana, { QStringLiteral("done"), m_ana.source, QStringLiteral("--name"),
                                                 QStringLiteral("week"), QStringLiteral("--room"), roomA });
                QCOMPARE(late.code, 0);
                QVERIFY2(late.out.contains(QLatin1String("done already in queue \"week\", by Ben (ben)")), qPrintable(late.out));
                continue;
            }
            QCOMPARE(queue(m_ana, { QStringLiteral("done"), m_ana.source, QStringLiteral("--name"), QStringLiteral("week") }).code, 0);
            QCOMPARE(queue(m_ben, { QStringLiteral("done"), m_ben.source, QStringLiteral("--name"), QStringLiteral("week") }).code, 0);
        }
        handedOut.sort();
        QCOMPARE(handedOut.removeDuplicates(), 0);
        QCOMPARE(handedOut.size(), 8);
        // Nothing left: `next` prints no room and says so.
        const Run empty = queue(m_ana, { QStringLiteral("next"), m_ana.source, QStringLiteral("--name"), QStringLiteral("week") });
        QCOMPARE(empty.code, 0);
        QVERIFY(empty.out.isEmpty());
        QVERIFY2(empty.err.contains(QLatin1String("nothing left for you")), qPrintable(empty.err));
        // The progress the lead reads: every room done, a share each.
        const QList<QJsonObject> lists = queue(lead, { QStringLiteral("list"), lead.source, QStringLiteral("--json") }).lines();
        QJsonObject week;
        for (const QJsonObject& o : lists) {
            if (o.value(QLatin1String("name")).toString() == QLatin1String("week"))
                week = o;
        }
        QCOMPARE(week.value(QLatin1String("rooms")).toInt(), 8);
        QCOMPARE(week.value(QLatin1String("done")).toInt(), 8);
        QCOMPARE(week.value(QLatin1String("left")).toInt(), 0);
        const QJsonObject shares = week.value(QLatin1String("by_reviewer")).toObject();
        QCOMPARE(shares.value(QLatin1String("ana")).toObject().value(QLatin1String("done")).toInt(), 3);
        QCOMPARE(shares.value(QLatin1String("ben")).toObject().value(QLatin1String("done")).toInt(), 5);
        // And each room finished is done in every copy's review.
        const Run rooms = run(m_ana, { QStringLiteral("rooms"), m_ana.source, QStringLiteral("--json") });
        int done = 0;
        for (const QJsonObject& o : rooms.lines())
            done += o.value(QLatin1String("review")).toString() == QLatin1String("done");
        QCOMPARE(done, 8);
        // A queue made since of the same rooms hands out none of them (each reviewed done already), and counts them
        // done, by whoever reviewed them.
        QCOMPARE(queue(lead, { QStringLiteral("create"), lead.source, QStringLiteral("--name"), QStringLiteral("again") }).code, 0);
        const Run none = queue(m_ben, { QStringLiteral("next"), m_ben.source, QStringLiteral("--name"), QStringLiteral("again") });
        QVERIFY2(none.out.isEmpty() && none.err.contains(QLatin1String("nothing left for you")), qPrintable(none.out + none.err));
        for (const QJsonObject& o : queue(lead, { QStringLiteral("list"), lead.source, QStringLiteral("--json") }).lines()) {
            if (o.value(QLatin1String("name")).toString() == QLatin1String("again")) {
                QCOMPARE(o.value(QLatin1String("done")).toInt(), 8);
                QCOMPARE(o.value(QLatin1String("by_reviewer")).toObject().value(QLatin1String("ben")).toObject().value(QLatin1String("done")).toInt(), 5);
            }
        }
    }

    // Two review statuses of one room, each set not knowing the other (Ana's offline): the later applies, both are
    // kept as a conflict that `team status` shows and Ana is told of, until a review set again settles it, whether it
    // changes the status or keeps the one there.
    void aConflictIsKeptUntilSettled()
    {
        REQUIRE_SERVER();
        const QString room = QStringLiteral("sup-product-question");
        auto review = [&](const Member& m, const QString& status) {
            return run(m, { QStringLiteral("review"), m.source, QStringLiteral("--room"), room, QStringLiteral("--status"),
                              status, QStringLiteral("--author"), signature(m) });
        };
        auto teamStatus = [&] {
            return psql(QStringLiteral("SELECT a.value || '|' || a.author FROM sightline.annotations a JOIN sightline.rooms r "
                                       "ON r.id = a.room_id WHERE a.kind = 'review' AND a.present AND r.native_id = '%1'")
                            .arg(room));
        };
        auto open = [&] {
            return psql(QStringLiteral("SELECT c.theirs || '|' || c.theirs_author || '>' || c.mine || '|' || c.mine_author "
                                       "FROM sightline.conflicts c WHERE c.resolved_ms IS NULL ORDER BY c.id"));
        };
        // Both copies know the room's status as the team has it.
        QCOMPARE(review(m_ana, QStringLiteral("done")).code, 0);
        QCOMPARE(run(m_ben, { QStringLiteral("team"), QStringLiteral("sync"), m_ben.source }).code, 0);
        QCOMPARE(open(), QStringList());

        serve(false);
        const Run offline = review(m_ana, QStringLiteral("in-review"));
        QCOMPARE(offline.code, 0);
        QVERIFY2(offline.err.contains(QLatin1String("cannot be reached")), qPrintable(offline.err));
        serve(true);
        QCOMPARE(review(m_ben, QStringLiteral("unreviewed")).code, 0); // knowing "done": no conflict
        QCOMPARE(open(), QStringList());
        const Run back = run(m_ana, { QStringLiteral("team"), QStringLiteral("sync"), m_ana.source });
        QCOMPARE(back.code, 0);
        QCOMPARE(teamStatus(), QStringList { QStringLiteral("in review|Ana") }); // the later applies
        QCOMPARE(open(), QStringList { QStringLiteral("unreviewed|Ben>in review|Ana") });
        QVERIFY2(back.err.contains(QStringLiteral("room %1: your review (in review) went up over Ben's unreviewed").arg(room)),
            qPrintable(back.err));
        const Run status = run(m_carol, { QStringLiteral("team"), QStringLiteral("status"), m_carol.source });
        QVERIFY2(status.out.contains(QStringLiteral("conflict: room %1: Ben set unreviewed (at ").arg(room)), qPrintable(status.out));
        QVERIFY2(status.out.contains(QLatin1String("; Ana set in review (at ")), qPrintable(status.out));
        QVERIFY(status.out.contains(QLatin1String("not knowing it, which reached the store later and applies")));
        // The journal keeps both changes, in the order they reached the store.
        QCOMPARE(psql(QStringLiteral("SELECT j.before || '>' || j.after || '|' || j.author FROM sightline.journal j JOIN "
                                     "sightline.rooms r ON r.id = j.room_id WHERE j.action = 'review' AND r.native_id = '%1' "
                                     "ORDER BY j.id DESC LIMIT 2")
                          .arg(room)),
            QStringList({ QStringLiteral("unreviewed>in review|Ana"), QStringLiteral("done>unreviewed|Ben") }));

        // Ben chooses his: set again, knowing Ana's, it settles the conflict.
        QCOMPARE(review(m_ben, QStringLiteral("unreviewed")).code, 0);
        QCOMPARE(open(), QStringList());
        QCOMPARE(teamStatus(), QStringList { QStringLiteral("unreviewed|Ben") });
        QCOMPARE(psql(QStringLiteral("SELECT resolved_by FROM sightline.conflicts WHERE field = 'review' ORDER BY id")),
            QStringList { QStringLiteral("Ben") });

        // Again, and Ana keeps the status the room has (hers): a review that changes nothing still settles it.
        QCOMPARE(run(m_ana, { QStringLiteral("team"), QStringLiteral("sync"), m_ana.source }).code, 0);
        serve(false);
        QCOMPARE(review(m_ana, QStringLiteral("done")).code, 0);
        serve(true);
        QCOMPARE(review(m_ben, QStringLiteral("in-review")).code, 0);
        QCOMPARE(run(m_ana, { QStringLiteral("team"), QStringLiteral("sync"), m_ana.source }).code, 0);
        QCOMPARE(open(), QStringList { QStringLiteral("in review|Ben>done|Ana") });
        const Run keep = review(m_ana, QStringLiteral("done"));
        QCOMPARE(keep.code, 0);
        QVERIFY2(keep.out.contains(QLatin1String("the conflict between Ben's in review and Ana's done is settled: done")),
            qPrintable(keep.out));
        QCOMPARE(open(), QStringList());
        QCOMPARE(teamStatus(), QStringList { QStringLiteral("done|Ana") });
    }

    // A reviewer may not rewrite the journal; the owner can (disabling the trigger), and --verify names the entry.
    void verifyFindsTheFirstEntryChanged()
    {
        REQUIRE_SERVER();
        const Run clean = run(m_carol, { QStringLiteral("journal"), m_carol.source, QStringLiteral("--verify"),
                                           QStringLiteral("--json") });
        QCOMPARE(clean.code, 0);
        const QJsonObject held = clean.lines().value(0);
        QCOMPARE(held.value(QLatin1String("verified")).toBool(), true);
        QCOMPARE(held.value(QLatin1String("entries")).toInt(), psql(QStringLiteral("SELECT count(*) FROM sightline.journal")).value(0).toInt());
        QCOMPARE(held.value(QLatin1String("head")).toString(),
            psql(QStringLiteral("SELECT hash FROM sightline.journal ORDER BY id DESC LIMIT 1")).value(0));

        // A report made now names the chain's head in its manifest; `verify --team` finds it in the store, and then
        // finds it gone when the last entries are removed (a chain cut short still holds together: only the head a
        // report names shows what went).
        const QString report = m_dir.filePath(QStringLiteral("audit.md"));
        const Run exported = run(m_carol, { QStringLiteral("export"), m_carol.source, QStringLiteral("--room"),
                                              QStringLiteral("sup-late-delivery"), QStringLiteral("--format"), QStringLiteral("md"),
                                              QStringLiteral("-o"), report });
        QCOMPARE(exported.code, 0);
        const int entries = held.value(QLatin1String("entries")).toInt();
        QVERIFY2(exported.err.contains(QStringLiteral("it names the team journal's head, entry %1").arg(entries)), qPrintable(exported.err));
        QFile manifestFile(report + QStringLiteral(".manifest.json"));
        QVERIFY(manifestFile.open(QIODevice::ReadOnly));
        const QJsonObject named = QJsonDocument::fromJson(manifestFile.readAll()).object().value(QLatin1String("team_journal")).toObject();
        QCOMPARE(named.value(QLatin1String("entries")).toInt(), entries);
        QCOMPARE(named.value(QLatin1String("head")).toString(), held.value(QLatin1String("head")).toString());
        Run verified = run(m_carol, { QStringLiteral("verify"), report, QStringLiteral("--team"), m_uri });
        QCOMPARE(verified.code, 0);
        QVERIFY2(verified.out.contains(QStringLiteral("team journal: it still holds the %1 entries the report names, unchanged").arg(entries)),
            qPrintable(verified.out));
        QCOMPARE(run(m_ana, { QStringLiteral("note"), m_ana.source, QStringLiteral("--room"), QStringLiteral("sup-late-delivery"),
                                QStringLiteral("--text"), QStringLiteral("after the report"), QStringLiteral("--author"),
                                QStringLiteral("Ana") })
                     .code,
            0);
        verified = run(m_carol, { QStringLiteral("verify"), report, QStringLiteral("--team"), m_uri });
        QCOMPARE(verified.code, 0);
        QVERIFY2(verified.out.contains(QLatin1String("unchanged, and 1 made since")), qPrintable(verified.out));
        const Run unchecked = run(m_carol, { QStringLiteral("verify"), report });
        QCOMPARE(unchecked.code, 0);
        QVERIFY(unchecked.out.contains(QLatin1String("give --team URI to check that the store still holds it")));
        PgServer::get().exec(m_db,
            QStringLiteral("ALTER TABLE sightline.journal DISABLE TRIGGER journal_append_only; DELETE FROM sightline.journal "
                           "WHERE id IN (SELECT id FROM sightline.journal ORDER BY id DESC LIMIT 2); ALTER TABLE "
                           "sightline.journal ENABLE TRIGGER journal_append_only"));
        QCOMPARE(run(m_carol, { QStringLiteral("journal"), m_carol.source, QStringLiteral("--verify") }).code, 0); // it holds
        verified = run(m_carol, { QStringLiteral("verify"), report, QStringLiteral("--team"), m_uri });
        QCOMPARE(verified.code, 1);
        QVERIFY2(verified.out.contains(QStringLiteral("team journal: it no longer holds the head the report names, entry %1").arg(entries)),
            qPrintable(verified.out));
        QVERIFY(verified.out.contains(QStringLiteral("it has %1 entries: entries were removed").arg(entries - 1)));

        QProcess p;
        p.setProcessEnvironment(m_ana.env(m_serviceFile));
        const PgServer& pg = PgServer::get();
        p.start(pg.bindir + QStringLiteral("/psql"),
            { QStringLiteral("-X"), QStringLiteral("-h"), pg.host, QStringLiteral("-p"), QString::number(pg.port),
                QStringLiteral("-d"), m_db, QStringLiteral("-c"), QStringLiteral("UPDATE sightline.journal SET after = 'x'") });
        QVERIFY(p.waitForFinished(30000));
        QVERIFY2(p.exitCode() != 0, "a reviewer rewrote the journal");

        const QString second = psql(QStringLiteral("SELECT id FROM sightline.journal ORDER BY id OFFSET 1 LIMIT 1")).value(0);
        auto tamper = [&](const QString& sql) {
            PgServer::get().exec(m_db,
                QStringLiteral("ALTER TABLE sightline.journal DISABLE TRIGGER journal_append_only; %1; ALTER TABLE "
                               "sightline.journal ENABLE TRIGGER journal_append_only")
                    .arg(sql));
        };
        // Changed: Ben's status said otherwise.
        tamper(QStringLiteral("UPDATE sightline.journal SET after = after || ' (said otherwise)' WHERE id = %1").arg(second));
        Run changed = run(m_carol, { QStringLiteral("journal"), m_carol.source, QStringLiteral("--verify"), QStringLiteral("--json") });
        QCOMPARE(changed.code, 1);
        QCOMPARE(changed.lines().value(0).value(QLatin1String("broken")).toInteger(), second.toLongLong());
        QVERIFY(changed.lines().value(0).value(QLatin1String("why")).toString().contains(QLatin1String("changed")));
        const Run text = run(m_carol, { QStringLiteral("journal"), m_carol.source, QStringLiteral("--verify") });
        QCOMPARE(text.code, 1);
        QVERIFY2(text.out.contains(QStringLiteral("does not hold together at entry %1").arg(second)), qPrintable(text.out));
        // Removed: the entry after it no longer follows the one before.
        tamper(QStringLiteral("DELETE FROM sightline.journal WHERE id = %1").arg(second));
        Run removed = run(m_carol, { QStringLiteral("journal"), m_carol.source, QStringLiteral("--verify"), QStringLiteral("--json") });
        QCOMPARE(removed.code, 1);
        QVERIFY(removed.lines().value(0).value(QLatin1String("why")).toString().contains(QLatin1String("removed")));
    }

    // Changes made while the server cannot be reached are kept, and go up in order when it can.
    void offlineChangesGoUpOnReconnect()
    {
        REQUIRE_SERVER();
        // A fresh team database for this test: the one above was tampered with on purpose.
        const PgServer& pg = PgServer::get();
        const QString first = m_db;
        const QString uri = QStringLiteral("postgresql:///?service=team_b");
        pg.exec(QStringLiteral("postgres"), QStringLiteral("CREATE DATABASE %1_b").arg(m_db));
        m_db += QStringLiteral("_b"); // psql() reads it from here on
        serve(true);
        Member admin { pg.owner, pg.passwords.value(pg.owner), m_dir.filePath(QStringLiteral("admin")), {} };
        QCOMPARE(run(admin, { QStringLiteral("team"), QStringLiteral("init"), uri }).code, 0);
        pg.exec(m_db, QStringLiteral("GRANT sightline_reviewer TO ana, ben"));
        Member eve = member(QStringLiteral("ana"));
        eve.home = m_dir.filePath(QStringLiteral("ana-laptop"));
        QDir().mkpath(eve.home);
        QCOMPARE(run(eve, { QStringLiteral("team"), QStringLiteral("attach"), eve.source, QStringLiteral("--team"), uri }).code, 0);

        serve(false);
        for (const QString& text : { QStringLiteral("first, on the train"), QStringLiteral("second, on the train") }) {
            const Run r = run(eve, { QStringLiteral("note"), eve.source, QStringLiteral("--room"),
                                       QStringLiteral("sup-address-change"), QStringLiteral("--text"), text,
                                       QStringLiteral("--author"), QStringLiteral("Ana") });
            QCOMPARE(r.code, 0);
            QVERIFY2(r.err.contains(QLatin1String("cannot be reached")), qPrintable(r.err));
            QVERIFY(r.err.contains(QLatin1String("goes to the team at the next sync")));
        }
        const Run status = run(eve, { QStringLiteral("team"), QStringLiteral("status"), eve.source });
        QVERIFY2(status.out.contains(QLatin1String("waiting to go up: 2 changes")), qPrintable(status.out));
        QCOMPARE(teamNotes(), QStringList());

        serve(true);
        const Run sync = run(eve, { QStringLiteral("team"), QStringLiteral("sync"), eve.source });
        QCOMPARE(sync.code, 0);
        QVERIFY2(sync.out.contains(QLatin1String("sent 2 of 2")), qPrintable(sync.out));
        QCOMPARE(teamNotes(), QStringList({ QStringLiteral("first, on the train|Ana|ana"),
                                  QStringLiteral("second, on the train|Ana|ana") }));
        // A teammate who joins now finds both.
        Member gus = member(QStringLiteral("ben"));
        gus.home = m_dir.filePath(QStringLiteral("ben-new-laptop"));
        const Run ben = run(gus, { QStringLiteral("notes"), gus.source, QStringLiteral("--json"), QStringLiteral("--team"), uri });
        QCOMPARE(ben.lines().size(), 2);
        Q_UNUSED(first);
        // Ben's workspace, moved to this store, sends his own changes and none that came down from the other
        // (Ana's note is not sent again in his name).
        const Run moved = run(m_ben, { QStringLiteral("team"), QStringLiteral("attach"), m_ben.source, QStringLiteral("--team"), uri });
        QCOMPARE(moved.code, 0);
        QCOMPARE(teamNotes(), QStringList({ QStringLiteral("first, on the train|Ana|ana"),
                                  QStringLiteral("second, on the train|Ana|ana") }));
        QCOMPARE(psql(QStringLiteral("SELECT count(*) FROM sightline.journal WHERE login = 'ben' AND author <> 'Ben'")),
            QStringList { QStringLiteral("0") });
        QCOMPARE(notesSeenBy(m_ben).size(), 3); // his copy keeps the note that came from the other store
    }

    // A reviewer killed with SIGKILL at any moment of a change loses nothing it committed, and the team gets each
    // change once: what was saved here goes up at the next sync, and what went up is not sent twice.
    void aKilledReviewerLosesNothing()
    {
        REQUIRE_SERVER();
        Member fay = member(QStringLiteral("ben"));
        fay.home = m_dir.filePath(QStringLiteral("ben-desk"));
        QDir().mkpath(fay.home);
        const Run attached = run(fay, { QStringLiteral("team"), QStringLiteral("attach"), fay.source, QStringLiteral("--team"), QStringLiteral("postgresql:///?service=team_b") });
        QVERIFY2(attached.code == 0, qPrintable(attached.err));
        int killed = 0;
        for (int i = 0; i < 12; ++i) {
            QProcess p;
            p.setProcessEnvironment(fay.env(m_serviceFile));
            p.start(QStringLiteral(SIGHTLINE_BINARY),
                { QStringLiteral("note"), fay.source, QStringLiteral("--room"), QStringLiteral("sup-duplicate-charge"),
                    QStringLiteral("--text"), QStringLiteral("note %1").arg(i), QStringLiteral("--author"), QStringLiteral("Ben") });
            QVERIFY(p.waitForStarted());
            QTest::qWait(int(QRandomGenerator::global()->bounded(400)));
            if (p.state() != QProcess::NotRunning) {
                ::kill(pid_t(p.processId()), SIGKILL);
                ++killed;
            }
            p.waitForFinished(30000);
        }
        QCOMPARE(run(fay, { QStringLiteral("team"), QStringLiteral("sync"), fay.source }).code, 0);
        const QStringList here = notesSeenBy(fay);
        QStringList there;
        for (const QString& n : teamNotes()) {
            if (n.startsWith(QLatin1String("note ")))
                there << n.section(QLatin1Char('|'), 0, 0);
        }
        QStringList mine;
        for (const QString& n : here) {
            if (n.startsWith(QLatin1String("note ")))
                mine << n;
        }
        QCOMPARE(there, mine); // every note saved here is there, once, in the order made
        QVERIFY2(there.size() == QSet<QString>(there.cbegin(), there.cend()).size(), qPrintable(there.join(QLatin1Char(','))));
        qInfo("%d of 12 note commands killed; %lld notes made it", killed, qint64(there.size()));
    }

    // A sync killed with SIGKILL while it sends a backlog, again and again: each change arrives once, in order.
    void aKilledSyncSendsEachChangeOnce()
    {
        REQUIRE_SERVER();
        const QString uri = QStringLiteral("postgresql:///?service=team_b");
        Member hal = member(QStringLiteral("ana"));
        hal.home = m_dir.filePath(QStringLiteral("ana-desk"));
        QDir().mkpath(hal.home);
        // A workspace of hal's own as the SOURCE, so that the backlog is written here at once.
        const QString path = hal.home + QStringLiteral("/hal.sightline");
        {
            Workspace ws(path);
            Importer::import(ws, hal.source);
        }
        QCOMPARE(run(hal, { QStringLiteral("team"), QStringLiteral("attach"), path, QStringLiteral("--team"), uri }).code, 0);
        QStringList made;
        {
            Workspace ws(path);
            AnnotationStore store(ws);
            const qint64 room = ws.findRooms(QStringLiteral("sup-address-change")).value(0);
            for (int i = 0; i < 1500; ++i) {
                made << QStringLiteral("backlog %1").arg(i);
                store.addNote(room, i % 5, made.last(), QStringLiteral("Ana"));
            }
            store.save();
            QCOMPARE(TeamSync::pending(ws), 1500);
        }
        int midway = 0; // kills that left part of the backlog sent
        for (int i = 0; i < 20; ++i) {
            QProcess p;
            p.setProcessEnvironment(hal.env(m_serviceFile));
            p.start(QStringLiteral(SIGHTLINE_BINARY), { QStringLiteral("team"), QStringLiteral("sync"), path });
            QVERIFY(p.waitForStarted());
            QTest::qWait(int(QRandomGenerator::global()->bounded(300)));
            // Never kill(0): a process that already ended has no pid, and 0 is this process group.
            if (p.state() != QProcess::NotRunning && p.processId() > 0)
                ::kill(pid_t(p.processId()), SIGKILL);
            p.waitForFinished(30000);
            Workspace ws(path);
            const int left = TeamSync::pending(ws);
            midway += left > 0 && left < 1500 ? 1 : 0;
            if (left == 0)
                break;
        }
        QCOMPARE(run(hal, { QStringLiteral("team"), QStringLiteral("sync"), path }).code, 0);
        QStringList there;
        for (const QString& n : teamNotes()) {
            if (n.startsWith(QLatin1String("backlog ")))
                there << n.section(QLatin1Char('|'), 0, 0);
        }
        QCOMPARE(there, made);
        Workspace ws(path);
        QCOMPARE(TeamSync::pending(ws), 0);
        qInfo("%d kills left the backlog sent in part", midway);
    }
};

QTEST_GUILESS_MAIN(TestTeam)
#include "tst_team.moc"
