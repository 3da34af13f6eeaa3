#pragma once

#include "roominfo.h"

#include <optional>
#include <QString>

class Workspace;

// A room's own fields as the workspace keeps them (what the import wrote of the source's RoomInfo), with its source's:
// the room record of a JSON Lines report.
struct RoomFields
{
    RoomInfo room; // its file and titleFromRows are the import's, not kept
    QString sourceSystem;
    QString sourceFormat;
    QString sourceOrigin; // a database's URI without its password, whatever an older workspace kept
    QString sourceSchemaVersion;

    // Nothing when the workspace has no room of that id.
    static std::optional<RoomFields> read(Workspace& ws, qint64 roomId);
};
