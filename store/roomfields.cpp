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
    RoomInfo& room = r.room;
    room.nativeId = q.text(0);
    room.title = q.text(1);
    room.status = q.text(2);
    room.organizationId = q.text(3);
    room.owner = q.text(4);
    room.agentId = q.text(5);
    room.summary = q.text(6);
    room.createdMicros = q.int64(7); // NULL reads 0, as the import wrote an unknown time
    room.updatedMicros = q.int64(8);
    // SQLite gives no bytes for an empty text: '' stays an empty JSON text, not a missing one.
    for (const auto& [column, json] : { std::pair { 9, &room.nativeJson }, std::pair { 10, &room.detailsJson } }) {
        if (q.isNull(column))
            continue;
        const QByteArray bytes = q.bytes(column);
        *json = bytes.isNull() ? QByteArray("") : bytes;
    }
    r.sourceSystem = q.text(11);
    r.sourceFormat = q.text(12);
    // A workspace written before secrets in the URI's query were left out may still hold one: never in a report.
    const QString origin = q.text(13);
    r.sourceOrigin = PgConnection::isUri(origin) ? PgConnection::withoutPassword(origin) : origin;
    r.sourceSchemaVersion = q.text(14);
    return r;
}
