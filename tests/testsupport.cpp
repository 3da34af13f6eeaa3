#include "testsupport.h"

#include "storeerror.h"

#include "sources/importer.h"
#include "textpacker.h"
#include "workspace.h"

#include <csignal>
#include <QCryptographicHash>
#include <QRandomGenerator>
#include <cstdio>
#include <cstring>
#include <QFile>
#include <QProcess>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QJsonDocument>
#include <QTest>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zstd.h>

const QStringList& FixtureWorkspaces::stores()
{
    static const QStringList names { QStringLiteral("support.sqlite"), QStringLiteral("edge_cases.sqlite"),
        QStringLiteral("many_rooms.sqlite"), QStringLiteral("support_pg.sql") };
    return names;
}

Workspace& FixtureWorkspaces::get(const QString& storeName)
{
    if (!m_workspaces.contains(storeName))
        m_workspaces.insert(
            storeName, std::shared_ptr<Workspace>(TestSupport::importFixture(m_dir, storeName).release()));
    return *m_workspaces.value(storeName);
}

QString PgServer::uri(const QString& database, const QString& role, bool withPassword) const
{
    const QString password = withPassword ? QLatin1Char(':') + passwords.value(role) : QString();
    return QStringLiteral("postgresql://%1%2@%3:%4/%5").arg(role, password, host).arg(port).arg(database);
}

void PgServer::start(QProcess& p, const QString& tool, const QStringList& args) const
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("PGPASSWORD"), passwords.value(owner));
    p.setProcessEnvironment(env);
    p.start(bindir + QLatin1Char('/') + tool,
        QStringList { QStringLiteral("-h"), host, QStringLiteral("-p"), QString::number(port), QStringLiteral("-U"), owner }
            + args);
}

QByteArray PgServer::run(const QString& tool, const QStringList& args) const
{
    QProcess p;
    start(p, tool, args);
    if (!p.waitForFinished(60000) || p.exitCode() != 0)
        qWarning("%s failed: %s", qPrintable(tool), p.readAllStandardError().constData());
    return p.readAllStandardOutput();
}

QByteArray PgServer::dump(const QStringList& args) const
{
    QByteArrayList lines = run(QStringLiteral("pg_dump"), args).split('\n');
    lines.removeIf([](const QByteArray& line) { return line.startsWith("\\restrict") || line.startsWith("\\unrestrict"); });
    return lines.join('\n');
}

void PgServer::exec(const QString& database, const QString& sql) const
{
    run(QStringLiteral("psql"),
        { QStringLiteral("-X"), QStringLiteral("-q"), QStringLiteral("-v"), QStringLiteral("ON_ERROR_STOP=1"),
            QStringLiteral("-d"), database, QStringLiteral("-c"), sql });
}

const PgServer& PgServer::get()
{
    static const PgServer server = [] {
        PgServer s;
        const QString envFile = qEnvironmentVariable("SIGHTLINE_PG_ENV");
        QFile file(envFile);
        if (envFile.isEmpty() || !file.open(QIODevice::ReadOnly)) {
            s.unavailable = QStringLiteral("no test server: run the tests through ctest, which starts one "
                                           "(tests/pg/pgcluster.sh)");
            return s;
        }
        QMap<QString, QString> env;
        for (const QByteArray& line : file.readAll().split('\n')) {
            const qsizetype eq = line.indexOf('=');
            if (eq > 0)
                env.insert(QString::fromUtf8(line.left(eq)), QString::fromUtf8(line.mid(eq + 1)));
        }
        s.unavailable = env.value(QStringLiteral("SIGHTLINE_PG_UNAVAILABLE"));
        s.host = env.value(QStringLiteral("SIGHTLINE_PG_HOST"));
        s.port = env.value(QStringLiteral("SIGHTLINE_PG_PORT")).toInt();
        s.bindir = env.value(QStringLiteral("SIGHTLINE_PG_BINDIR"));
        s.owner = env.value(QStringLiteral("SIGHTLINE_PG_ADMIN"));
        for (const char* role : { "ADMIN", "READER", "OUTSIDER" }) {
            const QString key = QStringLiteral("SIGHTLINE_PG_") + QLatin1String(role);
            s.passwords.insert(env.value(key), env.value(key + QStringLiteral("_PASSWORD")));
        }
        if (s.unavailable.isEmpty() && s.port == 0)
            s.unavailable = QStringLiteral("%1 names no server").arg(envFile);
        return s;
    }();
    return server;
}

namespace TestSupport {

bool isPostgresFixture(const QString& storeName)
{
    return storeName.endsWith(QLatin1String(".sql"));
}

QString fixtureSource(const QString& storeName)
{
    return isPostgresFixture(storeName) ? PgServer::get().uri(QStringLiteral("roomkit"))
                                        : dataFile(QStringLiteral("roomkit/") + storeName);
}

CommandRun runCommand(const QString& program, const QStringList& args, const QProcessEnvironment& env)
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(program, args);
    if (!p.waitForFinished(60000))
        return {};
    return { p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, QString::fromUtf8(p.readAllStandardOutput()),
        QString::fromUtf8(p.readAllStandardError()) };
}

QList<QJsonObject> CommandRun::lines() const
{
    QList<QJsonObject> objects;
    for (const QString& line : out.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
        objects << QJsonDocument::fromJson(line.toUtf8()).object();
    return objects;
}

QString dataFile(const QString& relative)
{
    return QStringLiteral(SIGHTLINE_TEST_DATA "/") + relative;
}

QString copyFixture(const QTemporaryDir& dir, const QString& relative, const QString& name)
{
    const QString target = dir.filePath(name.isEmpty() ? relative.section(QLatin1Char('/'), -1) : name);
    QFile::remove(target);
    if (!QFile::copy(dataFile(relative), target))
        qFatal("cannot copy fixture %s", qPrintable(relative));
    QFile::setPermissions(target, QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther);
    return target;
}

QJsonObject manifestFile(const QString& storeName)
{
    static const QJsonObject files = [] {
        QFile file(dataFile(QStringLiteral("roomkit/manifest.json")));
        if (!file.open(QIODevice::ReadOnly))
            qFatal("cannot read manifest.json");
        return QJsonDocument::fromJson(file.readAll()).object().value(QLatin1String("files")).toObject();
    }();
    return files.value(storeName).toObject();
}

QJsonObject manifestRoom(const QString& storeName, const QString& roomId)
{
    const QJsonArray rooms = manifestFile(storeName).value(QLatin1String("rooms")).toArray();
    for (const QJsonValue& room : rooms) {
        if (room.toObject().value(QLatin1String("room_id")).toString() == roomId)
            return room.toObject();
    }
    return {};
}

bool importKilledMidway(const QString& path, const QString& source, int maxWaitMs, int assemblyWindow)
{
    const pid_t child = fork();
    if (child == 0) {
        // Never back into the test: an exception unwinding the test function in this copy of the process would
        // run its destructors (a QTemporaryDir removing the folder the parent works in).
        try {
            Workspace ws(path);
            ImportOptions options;
            options.batchRows = 16;
            options.assemblyWindow = assemblyWindow;
            Importer::import(ws, source, options);
        } catch (const StoreError& e) {
            fprintf(stderr, "the import to be killed failed: %s\n", qPrintable(e.toString()));
            _exit(1);
        } catch (...) {
            _exit(1);
        }
        _exit(0);
    }
    QTest::qWait(int(QRandomGenerator::global()->bounded(0, maxWaitMs)));
    kill(child, SIGKILL);
    int status = 0;
    waitpid(child, &status, 0);
    return WIFSIGNALED(status);
}

void clickRoomsInTurn(ImportOptions& options, Workspace& ws, const QStringList& rooms, RoomClicks& clicks)
{
    options.wantedRoom = [&clicks] { return clicks.wanted; };
    options.progress = [&ws, rooms, &clicks](qint64, qint64) {
        clicks.wanted = ws.findRooms(rooms.at(++clicks.commits % rooms.size())).value(0);
    };
    options.roomStarted = [&ws, &clicks](qint64 id) { clicks.started << ws.room(id)->nativeId; };
}

// A room's rows, calls and runs with every index replaced by the row's position in the room: a thread read
// from its file and from kaboo's table then compare equal, though one numbers its events by line and the other
// by seq.
QStringList roomByPosition(Workspace& ws, const QString& room)
{
    const QString id = QString::number(ws.findRooms(room).value(0));
    const QString position = QStringLiteral("(SELECT count(*) FROM events p WHERE p.room_id = %1 AND p.seq < %2)");
    auto at = [&](const char* column) { return position.arg(id, QLatin1String(column)); };
    QStringList out;
    // The room's own figures, which a sync counts again (its participants only from the rows it has not counted).
    out << dump(ws,
        QStringLiteral("SELECT event_count, blocked_count, tool_calls, failed, refused, unserved, first_us, last_us, "
                       "participants, channel_types FROM rooms WHERE id = %1")
            .arg(id));
    out << dump(ws,
        QStringLiteral("SELECT (SELECT name FROM words WHERE code = type), (SELECT name FROM words WHERE code = kind), "
                       "status, flags, (SELECT name FROM words WHERE code = role), (SELECT native FROM messages m WHERE m.room_id = "
                       "events.room_id AND m.number = events.message_id), (SELECT native FROM turns t WHERE t.room_id = "
                       "events.room_id AND t.number = events.group_id), (SELECT name FROM words WHERE code = tool_name), "
                       "tool_id, outcome, unpack(text), "
                       "created_us, payload IS NOT NULL FROM events WHERE room_id = %1 ORDER BY seq")
            .arg(id));
    out << dump(ws,
        QStringLiteral("SELECT tool_name, tool_id, group_id, %2, %3, %4, started_us, ended_us, duration_ms, status, "
                       "outcome, pairing, error, unpack(arguments), unpack(result) FROM tool_calls WHERE room_id = %1 ORDER BY 4, 5")
            .arg(id, at("start_seq"), at("end_seq"), at("result_seq")));
    out << dump(ws,
        QStringLiteral("SELECT group_id, kind, parent_group_id, %2, %3, started_us, ended_us, outcome, detail, "
                       "synthetic, usage_json FROM runs WHERE room_id = %1 ORDER BY 4, 1")
            .arg(id, at("first_seq"), at("last_seq")));
    return out;
}

QString undoStep26()
{
    return QStringLiteral(
        "UPDATE events SET type = (SELECT name FROM words WHERE code = events.type), kind = (SELECT name FROM words "
        "WHERE code = events.kind), role = (SELECT name FROM words WHERE code = events.role), tool_name = (SELECT name "
        "FROM words WHERE code = events.tool_name); DROP TABLE words; ");
}

QString undoStepsFrom22()
{
    return undoStep26() + QStringLiteral(
        "DROP INDEX events_room_blocked; DROP INDEX events_room_channel; "
        "CREATE INDEX events_room_blocked_seq ON events(room_id, blocked, seq); "
        "CREATE INDEX events_room_channel_seq ON events(room_id, channel_id, seq); "
        "UPDATE events SET message_id = (SELECT native FROM messages m WHERE m.room_id = events.room_id AND m.number = "
        "events.message_id) WHERE message_id IS NOT NULL; DROP TABLE messages; "
        "UPDATE events SET group_id = (SELECT native FROM turns t WHERE t.room_id = events.room_id AND t.number = "
        "events.group_id) WHERE group_id IS NOT NULL; DROP TABLE turns; ");
}

QStringList dump(Workspace& ws, const QString& sql)
{
    QStringList rows;
    QSqlQuery q = ws.exec(sql);
    while (q.next()) {
        QStringList values;
        for (int c = 0; c < q.record().count(); ++c)
            values << q.value(c).toString();
        rows << values.join(QLatin1Char('|'));
    }
    return rows;
}

QStringList indexedWords(Workspace& ws)
{
    ws.exec(QStringLiteral("CREATE VIRTUAL TABLE IF NOT EXISTS temp.words_at USING fts5vocab(main, 'events_fts', 'instance')"));
    QSqlQuery q = ws.exec(QStringLiteral("SELECT r.native_id || '|' || e.seq, v.col, v.offset, v.term FROM temp.words_at v "
                                         "JOIN events e ON e.id = v.doc JOIN rooms r ON r.id = e.room_id"));
    // The words of a row in any order: a sum of their digests.
    QMap<QString, std::pair<qint64, quint64>> rows;
    while (q.next()) {
        auto& [count, digest] = rows[q.value(0).toString()];
        ++count;
        digest += qHash(q.value(1).toString() + QLatin1Char(':') + q.value(2).toString() + QLatin1Char(':')
            + q.value(3).toString(), 20261207u);
    }
    QStringList out;
    for (auto it = rows.cbegin(); it != rows.cend(); ++it)
        out << QStringLiteral("%1|%2|%3").arg(it.key()).arg(it->first).arg(it->second);
    return out;
}

QByteArray fileBytes(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool fileHolds(const QString& path, const QByteArray& text)
{
    const QByteArray bytes = fileBytes(path);
    if (bytes.contains(text))
        return true;
    static const char magic[4] = { '\x28', '\xB5', '\x2F', '\xFD' };
    TextPacker packer(nullptr);
    // Each byte that may start a packed value: a tag, then a frame (with its magic, or against the vocabulary
    // without). Its frame's length is what zstd finds; a start that is no frame reads as none.
    for (qsizetype at = 0; at + 2 < bytes.size(); ++at) {
        const char tag = bytes.at(at);
        if (tag != TextPacker::TextTag && tag != TextPacker::BytesTag && tag != TextPacker::VocabularyTag)
            continue;
        const bool vocabulary = tag == TextPacker::VocabularyTag;
        if (!vocabulary && (bytes.size() - at < 5 || memcmp(bytes.constData() + at + 1, magic, 4) != 0))
            continue;
        const qsizetype window = std::min<qsizetype>(bytes.size() - at - 1, 1 << 20);
        const QByteArray frame = vocabulary ? QByteArray(magic, 4) + bytes.mid(at + 1, window) : bytes.mid(at + 1, window);
        const size_t length = ZSTD_findFrameCompressedSize(frame.constData(), size_t(frame.size()));
        // Leftover bytes that happen to look like a frame may claim any size: a test's values are far smaller.
        const unsigned long long claimed = ZSTD_getFrameContentSize(frame.constData(), size_t(frame.size()));
        if (ZSTD_isError(length) || claimed == ZSTD_CONTENTSIZE_ERROR || claimed > (16ull << 20))
            continue;
        try {
            const QByteArray value = QByteArray(1, tag) + (vocabulary ? frame.mid(4, qsizetype(length) - 4) : frame.left(qsizetype(length)));
            if (packer.unpack(value).contains(text))
                return true;
        } catch (const StoreError&) {
            // not a value (a byte that looked like a tag)
        } catch (const std::bad_alloc&) {
            // nor one that claims more than there is memory for
        }
    }
    return false;
}

QByteArray sha256(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(&file);
    return hash.result().toHex();
}

std::unique_ptr<Workspace> importFixture(const QTemporaryDir& dir, const QString& storeName)
{
    auto ws = std::make_unique<Workspace>(dir.filePath(storeName + QStringLiteral(".sightline")));
    Importer::import(*ws, fixtureSource(storeName));
    return ws;
}

QVector<qint64> indices(const EventRecords& events)
{
    QVector<qint64> out;
    for (const EventRecord& e : events)
        out.append(e.index);
    return out;
}

QVector<qint64> toIndices(const QJsonArray& array)
{
    QVector<qint64> out;
    for (const QJsonValue& v : array)
        out.append(v.toInteger());
    return out;
}

bool rotateLog(const QString& path, int records)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return false;
    const QList<QByteArray> lines = file.readAll().split('\n');
    file.close();
    int seen = 0;
    qsizetype from = 0;
    for (qsizetype i = 0; i < lines.size(); ++i) {
        if (lines[i].startsWith("[20") && seen++ == records) { // a record starts with its time: [2026/05/04 ...]
            from = i;
            break;
        }
    }
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return false;
    return file.write(lines.mid(from).join('\n')) >= 0;
}

void execSql(const QString& path, const QString& sql)
{
    sqlite3* db = nullptr;
    if (sqlite3_open(path.toUtf8().constData(), &db) != SQLITE_OK)
        qFatal("cannot open %s", qPrintable(path));
    char* error = nullptr;
    if (sqlite3_exec(db, sql.toUtf8().constData(), nullptr, nullptr, &error) != SQLITE_OK) {
        const QByteArray message = error;
        sqlite3_free(error);
        sqlite3_close(db);
        qFatal("SQL failed on %s: %s", qPrintable(path), message.constData());
    }
    sqlite3_close(db);
}

void copyRoomKitRow(const QString& store, const QString& room, int fromIndex, const QString& id, const QString& idx)
{
    execSql(store,
        QStringLiteral("INSERT INTO events(id, room_id, idx, type, visibility, source_channel_id, source_channel_type, "
                       "participant_id, correlation_id, parent_event_id, idempotency_key, created_ts, data) SELECT '%1', "
                       "room_id, %2, type, visibility, source_channel_id, source_channel_type, participant_id, "
                       "correlation_id, parent_event_id, NULL, created_ts, data FROM events WHERE room_id = '%3' AND idx = %4")
            .arg(id, idx, room, QString::number(fromIndex)));
}

QString growSupportRoom(const QTemporaryDir& dir, int lastIndex, const QString& name, bool inPlace)
{
    // In place, as RoomKit appends: a copy made anew is another file at the path, which a sync reads again from its
    // start (and which may or may not get the old file's inode).
    const QString source = inPlace ? dir.filePath(name.isEmpty() ? QStringLiteral("support.sqlite") : name)
                                   : copyFixture(dir, QStringLiteral("roomkit/support.sqlite"), name);
    execSql(source,
        QStringLiteral("WITH RECURSIVE n(i) AS (SELECT max(100, (SELECT max(idx) + 1 FROM events WHERE room_id = "
                       "'sup-late-delivery')) UNION ALL SELECT i + 1 FROM n WHERE i < %1) "
                       "INSERT INTO events SELECT 'gen' || i, room_id, i, type, visibility, source_channel_id, "
                       "source_channel_type, participant_id, NULL, NULL, NULL, created_ts + i, "
                       "json_set(data, '$.id', 'gen' || i, '$.index', i, '$.content.body', 'message ' || i) "
                       "FROM n, events WHERE room_id = 'sup-late-delivery' AND idx = 2")
            .arg(lastIndex));
    return source;
}

} // namespace TestSupport

namespace AguiCases {

QByteArray log(const QList<QByteArray>& events)
{
    QByteArray out;
    for (QByteArray e : events)
        out += e.replace('\'', '"').replace('`', "\\\"") + '\n';
    return out;
}

QByteArray contentParts()
{
    return log({ "{'type':'RUN_STARTED','threadId':'t','runId':'r1'}",
        "{'type':'TOOL_CALL_START','toolCallId':'c1','toolCallName':'add'}",
        "{'type':'TOOL_CALL_END','toolCallId':'c1'}",
        "{'type':'TOOL_CALL_RESULT','toolCallId':'c1','messageId':'m1','content':[{'type':'text','text':'42'}]}",
        "{'type':'RUN_FINISHED','threadId':'t','runId':'r1'}" });
}

QByteArray secondAnswerInASnapshot()
{
    return log({ "{'type':'RUN_STARTED','threadId':'t','runId':'r1'}",
        "{'type':'TOOL_CALL_START','toolCallId':'c1','toolCallName':'fetch'}",
        "{'type':'TOOL_CALL_END','toolCallId':'c1'}",
        "{'type':'TOOL_CALL_RESULT','toolCallId':'c1','messageId':'m1','content':'first'}",
        "{'type':'RUN_FINISHED','threadId':'t','runId':'r1'}",
        "{'type':'RUN_STARTED','threadId':'t','runId':'r2'}",
        "{'type':'MESSAGES_SNAPSHOT','messages':[{'id':'m1','role':'tool','toolCallId':'c1','content':'first'},"
        "{'id':'m2','role':'tool','toolCallId':'c1','content':'second'}]}",
        "{'type':'RUN_FINISHED','threadId':'t','runId':'r2'}" });
}

QByteArray answerRestatedInALaterRun()
{
    return log({ "{'type':'RUN_STARTED','threadId':'t','runId':'r1'}",
        "{'type':'TOOL_CALL_START','toolCallId':'c1','toolCallName':'lookup'}",
        "{'type':'TOOL_CALL_END','toolCallId':'c1'}",
        "{'type':'TOOL_CALL_RESULT','toolCallId':'c1','messageId':'m1','content':'found'}",
        "{'type':'RUN_FINISHED','threadId':'t','runId':'r1'}",
        "{'type':'RUN_STARTED','threadId':'t','runId':'r2'}",
        "{'type':'TOOL_CALL_START','toolCallId':'c1','toolCallName':'lookup'}",
        "{'type':'TOOL_CALL_ARGS','toolCallId':'c1','delta':'{}'}",
        "{'type':'TOOL_CALL_END','toolCallId':'c1'}",
        "{'type':'RUN_FINISHED','threadId':'t','runId':'r2'}",
        "{'type':'RUN_STARTED','threadId':'t','runId':'r3','input':{'messages':["
        "{'id':'m1','role':'tool','toolCallId':'c1','content':'found'}]}}",
        "{'type':'RUN_FINISHED','threadId':'t','runId':'r3'}" });
}

} // namespace AguiCases
