#pragma once

#include "importreport.h"

class Workspace;

// Imports CraftBot's event logs (SOURCES.md §2): an EVENT.md or EVENT_UNPROCESSED.md (newer multi-line
// records with pretty JSON, older one-line Python repr, a file rotation cut) as one room, or a sessions.db
// (newer CraftBot) with each event stream a room and its head_summary shown as what came before.
namespace CraftBotImporter {
ImportReport run(Workspace& workspace, const QString& path, const ImportOptions& options = {});
bool detectEventMd(const QString& path);
bool detectSessionsDb(const QString& path);
} // namespace CraftBotImporter
