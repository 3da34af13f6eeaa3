#pragma once

#include <optional>
#include <QString>

class Workspace;

// A room's own fields as the workspace keeps them, with its source's: the room record of a JSON Lines report.
// Text fields the room lacks are null; the times are 0 when unknown.
struct RoomFields
{
    QString nativeId;
    QString title;
    QString status;
    QString organizationId;
    QString owner;
    QString agentId;
    QString summary;
    std::optional<qint64> createdMicros;
    std::optional<qint64> updatedMicros;
    std::optional<QString> nativeJson; // as the source gave it, verbatim
    std::optional<QString> detailsJson;
    QString sourceSystem;
    QString sourceFormat;
    QString sourceOrigin; // a database's URI without its password, whatever an older workspace kept
    QString sourceSchemaVersion;

    // Nothing when the workspace has no room of that id.
    static std::optional<RoomFields> read(Workspace& ws, qint64 roomId);
};
