#pragma once

#include "eventrecord.h"
#include "sources/importreport.h"

#include <memory>
#include <QJsonArray>
#include <QJsonObject>
#include <QMap>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <QVector>

class QProcess;
class Workspace;

// The RoomKit fixture stores, each imported once, on first use, into a workspace of its own.
class FixtureWorkspaces
{
public:
    static const QStringList& stores(); // support, edge_cases, many_rooms
    Workspace& get(const QString& storeName);

private:
    QTemporaryDir m_dir;
    QMap<QString, std::shared_ptr<Workspace>> m_workspaces;
};

// The throwaway PostgreSQL server ctest starts for the tests that need it (tests/pg/pgcluster.sh), holding
// RoomKit's support_pg.sql in database roomkit and kaboo's dump in database kaboo.
struct PgServer
{
    QString unavailable; // why there is none (empty when there is)
    QString host;
    int port = 0;
    QString bindir; // its psql and pg_dump
    QString owner; // the cluster's superuser (sightline_owner)
    QMap<QString, QString> passwords; // by role: the owner, reader (SELECT only), outsider (nothing)
    // postgresql://role:password@host:port/database
    QString uri(const QString& database, const QString& role = QStringLiteral("reader"), bool withPassword = true) const;
    // Starts one of the server's tools (psql, pg_dump) on `p`, as the cluster's owner, for a caller that feeds it.
    void start(QProcess& p, const QString& tool, const QStringList& args) const;
    // What one of the server's tools prints, run as the cluster's owner.
    QByteArray run(const QString& tool, const QStringList& args) const;
    // What pg_dump prints with `args`, less the \restrict lines pg_dump 15.14 on writes with a random key.
    QByteArray dump(const QStringList& args) const;
    // Runs SQL in `database` as the owner (psql -c).
    void exec(const QString& database, const QString& sql) const;
    static const PgServer& get();
};

// Skips a test of the PostgreSQL fixture, saying why, when the test server could not be started.
#define SKIP_UNLESS_SERVED(store)                                                                              \
    if (TestSupport::isPostgresFixture(store) && !PgServer::get().unavailable.isEmpty())                       \
    QSKIP(qPrintable(QStringLiteral("PostgreSQL: ") + PgServer::get().unavailable))

// Helpers the tests share: fixture files, the RoomKit manifest, and writing to copies of stores.
namespace TestSupport {
// What a `sightline` command printed and how it ended (-1: it did not end, or crashed).
struct CommandRun
{
    int code = -1;
    QString out;
    QString err;
    QList<QJsonObject> lines() const; // stdout, one JSON object a line
};
// Runs `program` with `args` in `env` until it ends (a minute at most): what it printed, and its exit code.
CommandRun runCommand(const QString& program, const QStringList& args, const QProcessEnvironment& env);
QString dataFile(const QString& relative); // a file under tests/data
// Copies tests/data/<relative> into `dir` (writable) and returns the copy's path.
QString copyFixture(const QTemporaryDir& dir, const QString& relative, const QString& name = {});
QJsonObject manifestFile(const QString& storeName); // manifest.json's "files"/<storeName>
// Whether a fixture store is RoomKit's PostgreSQL dump, read from the test server (support_pg.sql).
bool isPostgresFixture(const QString& storeName);
// What imports a RoomKit fixture store: its file under tests/data/roomkit, or the test server's database.
QString fixtureSource(const QString& storeName);
QJsonObject manifestRoom(const QString& storeName, const QString& roomId);
QByteArray sha256(const QString& path);
// A file's bytes (none when it cannot be read).
QByteArray fileBytes(const QString& path);
// Whether a file (a workspace, its log, a copy) still holds `text` anywhere: as it is, or inside a value
// TextPacker packed (a frame alone, or against the vocabulary with its magic left off), in a row or in a free
// page. What a redaction removed must be in neither: a packed payload hides its words from a plain search.
// Blind to a packed value too big for one page (over 16 KB packed: SQLite splits it over overflow pages, each
// with a pointer of its own): the tests' secrets are in short rows, and each test also reads the rows themselves.
bool fileHolds(const QString& path, const QByteArray& text);
// A new workspace in `dir` with the fixture store imported.
std::unique_ptr<Workspace> importFixture(const QTemporaryDir& dir, const QString& storeName);
QVector<qint64> indices(const EventRecords& events);
QVector<qint64> toIndices(const QJsonArray& array);
// A copy of the support fixture whose room sup-late-delivery runs on to index `lastIndex`: rows 100 on are copies
// of its message at index 2 with ids, indexes, times and bodies of their own. For rooms bigger than a block.
// `inPlace`: the copy made before grows on to `lastIndex`, appended to as RoomKit appends.
QString growSupportRoom(const QTemporaryDir& dir, int lastIndex, const QString& name = {}, bool inPlace = false);
// Rotates a CraftBot EVENT.md as CraftBot does: its first `records` records are gone, so every index moves
// down by that many. False when the file cannot be rewritten.
bool rotateLog(const QString& path, int records);
// Imports `source` into the workspace at `path` in a child process (batches of 16 rows: many commits, each a moment a
// kill may come after) and kills it with SIGKILL after a random wait of up to `maxWaitMs`. True when the kill came
// before the import ended.
// `assemblyWindow`: the rows an AG-UI import holds (ImportOptions::assemblyWindow); small, rows are written, brought
// back and rewritten while the kill can land.
bool importKilledMidway(const QString& path, const QString& source, int maxWaitMs, int assemblyWindow = 4096);
// A user clicking from room to room while a source imports: `options` ask for the next of `rooms` (native ids, found
// in `ws`) after every commit, and keep the rooms the import begins, in order, in `started`.
struct RoomClicks
{
    QStringList started;
    qint64 wanted = 0;
    int commits = 0;
};
void clickRoomsInTurn(ImportOptions& options, Workspace& ws, const QStringList& rooms, RoomClicks& clicks);
// The rows a query gives, each as its values joined by '|': what a test compares of a workspace.
QStringList dump(Workspace& ws, const QString& sql);
// Every word the full-text index holds, by the row it finds (its rowids are the rows' ids): a line per row, sorted,
// with its room, its index, how many words and a digest of each word with its column and place. Two workspaces whose
// ids differ compare equal when their rows are indexed alike.
QStringList indexedWords(Workspace& ws);
// SQL that takes a workspace's rows back from schema steps 22 to 26 (for a test of an older workspace): the blocked
// and channel indexes whole, message and group ids on every row again, and types, kinds, roles and tools' names as
// names.
QString undoStepsFrom22();
// Step 26 alone: types, kinds, roles and tools' names as names on every row again, no table of words.
QString undoStep26();
// A room's figures, rows, calls and runs (room: its native id) with every index replaced by the row's position in the
// room: two rooms read different ways (a file and a database, one import and many syncs) compare equal.
QStringList roomByPosition(Workspace& ws, const QString& room);
// Runs SQL on a SQLite file with the C API (fixture copies only: the tests' way to make bad input).
void execSql(const QString& path, const QString& sql);
// Adds to a RoomKit store a copy of the row at index `fromIndex` of `room`, with the id `id` and the idx `idx` (SQL: a
// number, 'text', NULL): the tests' way to make a room's indexes odd, or to add its next rows.
void copyRoomKitRow(const QString& store, const QString& room, int fromIndex, const QString& id, const QString& idx);
} // namespace TestSupport

// AG-UI logs written as the client's own tests write them, shared by the tests that read one at every level (the
// assembler, the command line), each a case of what `@ag-ui/client` 1.0 does with it.
namespace AguiCases {
// One event a line, written with ' for " and ` for an escaped ".
QByteArray log(const QList<QByteArray>& events);
QByteArray contentParts(); // a TOOL_CALL_RESULT whose content is content parts
QByteArray secondAnswerInASnapshot(); // a snapshot brings a second tool message for the call, under a new id
QByteArray answerRestatedInALaterRun(); // a later run's input restates the tool message that answered a call
} // namespace AguiCases
