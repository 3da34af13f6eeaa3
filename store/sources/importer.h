#pragma once

#include "importreport.h"
#include "sourcereader.h"

#include <memory>
#include <QFileDevice>
#include <QString>
#include <QStringList>

class SourceReader;
class StoreError;
class Workspace;

// Format detection by content, and the one entry point that imports any supported source.
namespace Importer {
enum class Format {
    Unknown,
    Workspace,
    RoomKitSqlite,
    AguiJsonl,
    CraftBotEventMd,
    CraftBotSessions,
    SightlineJsonl,
    Postgres, // a postgresql:// URI: RoomKit's PostgresStore or kaboo's PostgresThreadStore, told apart on connecting
};

// By content for a file or folder; by its scheme for a postgresql:// URI (without connecting).
Format detect(const QString& path);
QString formatName(Format format);
// Parses a --format value (roomkit, agui, craftbot, craftbot-sessions, sightline-jsonl, workspace); Unknown when it names nothing.
Format parseFormat(const QString& name);

// Imports (or syncs) `path` into `workspace`. Throws StoreError naming the file when its format is not one
// Sightline reads, or it cannot be read; WorkspaceBusy (importlock.h) when another import holds the workspace.
ImportReport import(
    Workspace& workspace, const QString& path, const ImportOptions& options = {}, Format format = Format::Unknown);

// The reader of `path`, in `format` (detected when Unknown). Throws StoreError as import() does.
// A database's session is taken from `sessions` and kept there after, when given (PgSessions).
std::unique_ptr<SourceReader> open(const QString& path, Format format = Format::Unknown, PgSessions* sessions = nullptr);

// The one import loop, for every format: records the source and its rooms (a room the source rotated since is
// read again from the start), counts the work, and reads the rooms biggest first, each through a RoomFeed, each
// finished (counted, its edits, redactions and annotations applied again) before the next. `sourcePath` names
// the source in the problems listed. The caller holds the workspace's ImportLock.
ImportReport run(Workspace& workspace, SourceReader& reader, const QString& sourcePath, const ImportOptions& options);

// What a source looks like on disk now, to tell cheaply whether it changed since the last sync: a file's size
// and time (a SQLite store's -wal file's too), a folder's files with theirs. Empty for a database: only a
// query tells, so a database is synced at every look.
QByteArray stamp(const QString& source);

// What a source holds, before anything is imported: who it is, and its rooms with their events.
struct SourceSurvey
{
    QString origin;
    SourceIdentity identity;
    QVector<RoomInfo> rooms;
    QVector<qint64> events; // per room, in the same order
};
// Opens `source` (a database: connects) and lists its rooms with their counts. Throws as open() does.
SourceSurvey survey(const QString& source);

// Why `path` cannot be read: the error to throw for a file whose format is Unknown.
// Whether `path` is an empty file or a SQLite database with no tables yet: what a workspace is for the moment an
// import has begun to make it (a read verb then waits for it a little, rather than call it no source).
bool mayBeBeingMade(const QString& path);
// What a pipe, a device or a socket named as a source gets: refused at once, never read or waited on.
StoreError notAFile(const QString& path);
StoreError unsupported(const QString& path);

// How a source is named in titles and messages: a file's name, or a database and its host (never a password).
QString displayName(const QString& source);

// Where the cached workspace of a source lives: one per source file, keyed by its canonical path (a database,
// by its URI without the password). The cache
// folders are made readable by their owner alone, and so is a cached workspace an older Sightline left open.
QString cachedWorkspacePath(const QString& sourcePath);
// The mode for a workspace written elsewhere from `sources`: read and write for its owner, and read for the
// group or others only where every source grants it (a workspace is never more open than what it copies).
QFileDevice::Permissions workspaceMode(const QStringList& sources);
} // namespace Importer
