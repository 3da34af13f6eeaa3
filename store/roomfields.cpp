#include "roomfields.h"

#include "sources/pgconnection.h"
#include "sqlitestatement.h"
#include "workspace.h"

std::optional<RoomFields> RoomFields::read(Workspace& ws, qint64 roomId)
{
    SqliteStatement q(ws.handle(),
        "SELECT r.native_id, r.title, r.status, r.organization_id, r.owner, r.agent_id, r.summary, r.created_us, "
        "r.updated_us, r.native_json, r.details_json, s.system, s.format, s.origin, s.schema_version "
        "FROM rooms r JOIN sources s ON s.id = r.source_id WHERE r.id = ?");
    q.bind(1, roomId);
    if (!q.step())
        return std::nullopt;
    RoomFields r;
    r.nativeId = q.text(0);
    r.title = q.text(1);
    r.status = q.text(2);
    r.organizationId = q.text(3);
    r.owner = q.text(4);
    r.agentId = q.text(5);
    r.summary = q.text(6);
    if (!q.isNull(7))
        r.createdMicros = q.int64(7);
    if (!q.isNull(8))
        r.updatedMicros = q.int64(8);
    if (!q.isNull(9))
        r.nativeJson = q.text(9);
    if (!q.isNull(10))
        r.detailsJson = q.text(10);
    r.sourceSystem = q.text(11);
    r.sourceFormat = q.text(12);
    // A workspace written before secrets in the URI's query were left out may still hold one: never in a report.
    const QString origin = q.text(13);
    r.sourceOrigin = PgConnection::isUri(origin) ? PgConnection::withoutPassword(origin) : origin;
    r.sourceSchemaVersion = q.text(14);
    return r;
}
