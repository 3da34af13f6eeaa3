#pragma once

#include "importreport.h"

class Workspace;

// Imports AG-UI thread logs as kaboo-runtime stores them (SOURCES.md §3): a JSON Lines file per thread, a
// file of wrapped lines carrying threadId, or a folder of such files (and a threads/ folder inside it), with
// kaboo's threads.json listing (owner, agent, times) when there is one beside them. Each thread is a room;
// an event's index is its position in the thread's log. Syncing again adds the lines that are new.
namespace AguiImporter {
ImportReport run(Workspace& workspace, const QString& path, const ImportOptions& options = {});
// Whether `path` is an AG-UI log, or a folder holding some.
bool detect(const QString& path);
} // namespace AguiImporter
