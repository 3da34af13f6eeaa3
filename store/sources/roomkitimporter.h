#pragma once

#include "importreport.h"

class Workspace;

// Imports RoomKit's SQLite store (schema versions 1 to 3, SOURCES.md §1.7) into a workspace, or syncs what
// is new: per room, only rows whose index is above the room's sync cursor. Rows are read in index order
// (never rowid), decoded from the verbatim JSON, written one transaction per batch with one reused
// statement, and tool calls are paired once the room's rows are in.
namespace RoomKitImporter {
// Throws StoreError naming the source when it cannot be read at all; a row that cannot be decoded is kept,
// flagged, and listed in the report's problems.
ImportReport run(Workspace& workspace, const QString& sourcePath, const ImportOptions& options = {});
// Whether `path` is a RoomKit SQLite store (opened read-only to look at its tables).
bool detect(const QString& path);
} // namespace RoomKitImporter
