#pragma once

#include <QSqlDatabase>

struct sqlite3;

// The workspace schema, versioned with PRAGMA user_version and grown by forward migrations only: the steps a
// workspace has not seen run under one write lock (BEGIN IMMEDIATE, the version read inside it), each step
// bumping user_version, so a workspace of any older version opens by running them, and two processes opening
// one workspace at once never both migrate it.
namespace Schema {
// 'SGLN': PRAGMA application_id marks a file as a Sightline workspace for format detection.
constexpr int ApplicationId = 0x53474c4e;
int latestVersion();
// The schema version of the workspace at `path`, from its file's header (no lock, no file made or written); -1 when
// there is no such file or it is not a Sightline workspace. An older one is migrated as it opens, which can take a
// minute at millions of rows.
int fileVersion(const QString& path);
// Brings the database up to latestVersion(); `upTo` stops earlier (tests build older workspaces with it).
// Throws StoreError naming `file` when a step fails.
// A failed migration leaves the file as it was.
void migrate(QSqlDatabase& db, const QString& file, int upTo = -1);
// Runs every statement of `script` in turn as SQLite parses them (triggers, literals and comments included).
void runScript(sqlite3* db, const char* script, const QString& file, int step);
} // namespace Schema
