#pragma once

#include <QSqlDatabase>

// The workspace schema, versioned with PRAGMA user_version and grown by forward migrations only:
// each step runs in its own transaction and bumps user_version, so a workspace of any older version
// opens by running the steps it has not seen.
namespace Schema {
// 'SGLN': PRAGMA application_id marks a file as a Sightline workspace for format detection.
constexpr int ApplicationId = 0x53474c4e;
int latestVersion();
// Brings the database up to latestVersion(); `upTo` stops earlier (tests build older workspaces with it).
// Throws StoreError naming `file` when a step fails; the failed step leaves the file as it was.
void migrate(QSqlDatabase& db, const QString& file, int upTo = -1);
} // namespace Schema
