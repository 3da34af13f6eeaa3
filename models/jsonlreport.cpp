#include "jsonlreport.h"

#include "annotationstore.h"
#include "eventflags.h"
#include "journal.h"
#include "jsonline.h"
#include "redactionstore.h"
#include "reportroom.h"
#include "sources/pgconnection.h"
#include "sqlitestatement.h"
#include "workspace.h"

#include <limits>
#include <QDateTime>
#include <QIODevice>

namespace {

void addOrNull(JsonLine& o, const char* key, const std::optional<qint64>& value)
{
    if (value)
        o.add(key, *value);
    else
        o.addNull(key);
}

void put(QIODevice& out, JsonLine& line)
{
    out.write(line.text());
    out.write("\n");
}

// The room's own fields and its source, as the workspace keeps them.
void writeRoom(Workspace& ws, qint64 roomId, QIODevice& out)
{
    SqliteStatement q(ws.handle(),
        "SELECT r.native_id, r.title, r.status, r.organization_id, r.owner, r.agent_id, r.summary, r.created_us, "
        "r.updated_us, r.native_json, r.details_json, s.system, s.format, s.origin, s.schema_version "
        "FROM rooms r JOIN sources s ON s.id = r.source_id WHERE r.id = ?");
    q.bind(1, roomId);
    if (!q.step())
        return;
    JsonLine o;
    o.add("record", QStringLiteral("room"));
    o.add("room", q.text(0));
    const char* const text[] = { "title", "status", "organization_id", "owner", "agent_id", "summary" };
    for (int i = 0; i < 6; ++i)
        o.addOrNull(text[i], q.text(1 + i));
    addOrNull(o, "created_us", q.isNull(7) ? std::nullopt : std::optional<qint64>(q.int64(7)));
    addOrNull(o, "updated_us", q.isNull(8) ? std::nullopt : std::optional<qint64>(q.int64(8)));
    if (q.isNull(9))
        o.addNull("native_json");
    else
        o.add("native_json", q.text(9));
    if (q.isNull(10))
        o.addNull("details_json");
    else
        o.add("details_json", q.text(10));
    o.add("source_system", q.text(11));
    o.add("source_format", q.text(12));
    // A workspace written before secrets in the URI's query were left out may still hold one: never in a report.
    const QString origin = q.text(13);
    o.add("source_origin", PgConnection::isUri(origin) ? PgConnection::withoutPassword(origin) : origin);
    o.addOrNull("source_schema_version", q.text(14));
    put(out, o);
}

void writeEvent(const QString& room, const EventRecord& e, SqliteStatement& stored, QIODevice& out)
{
    JsonLine o;
    o.add("record", QStringLiteral("event"));
    o.add("room", room);
    o.add("index", e.index);
    o.addOrNull("id", e.nativeId);
    o.add("type", e.type);
    o.add("kind", EventKinds::name(e.kind));
    o.addOrNull("status", e.status);
    o.addOrNull("blocked_by", e.blockedBy);
    o.addOrNull("channel_id", e.channelId);
    o.addOrNull("channel_type", e.channelType);
    o.addOrNull("participant_id", e.participantId);
    o.addOrNull("correlation_id", e.correlationId);
    o.addOrNull("parent_id", e.parentId);
    o.addOrNull("group_id", e.groupId);
    o.addOrNull("message_id", e.messageId);
    addOrNull(o, "line", e.sourceLine > 0 ? std::optional<qint64>(e.sourceLine) : std::nullopt);
    addOrNull(o, "created_us", e.createdMicros != 0 ? std::optional<qint64>(e.createdMicros) : std::nullopt);
    o.addOrNull("role", e.role);
    o.addOrNull("tool_name", e.toolName);
    o.addOrNull("tool_id", e.toolId);
    o.addOrNull("outcome", Outcomes::name(e.outcome));
    o.addOrNull("text", e.text);
    o.add("flags", qint64(e.flags));
    stored.bind(1, e.rowId);
    if (stored.step()) {
        const QByteArray payload = stored.bytes(0);
        // The bytes as the source wrote them: as text when they are UTF-8, else in base64.
        if (e.flags & EventFlags::InvalidUtf8)
            o.add("payload_base64", QString::fromLatin1(payload.toBase64()));
        else
            o.addUtf8("payload", payload);
        o.addOrNull("search_body", stored.text(1));
        o.addOrNull("search_arguments", stored.text(2));
        o.addOrNull("search_result", stored.text(3));
    }
    stored.reset();
    put(out, o);
}

void writeCall(const QString& room, const ToolCallRecord& c, QIODevice& out)
{
    JsonLine o;
    o.add("record", QStringLiteral("call"));
    o.add("room", room);
    o.addOrNull("tool_name", c.toolName);
    o.addOrNull("tool_id", c.toolId);
    o.addOrNull("group_id", c.groupId);
    addOrNull(o, "start_index", c.startIndex);
    addOrNull(o, "end_index", c.endIndex);
    addOrNull(o, "result_index", c.resultIndex);
    addOrNull(o, "started_us", c.startMicros);
    addOrNull(o, "ended_us", c.endMicros);
    addOrNull(o, "duration_ms", c.durationMs);
    o.addOrNull("duration_from", c.durationSource);
    o.addOrNull("status", c.status);
    o.addOrNull("outcome", Outcomes::name(c.outcome));
    o.add("pairing", Pairings::name(c.pairing));
    o.addOrNull("error", c.error);
    if (c.arguments.isNull())
        o.addNull("arguments");
    else
        o.add("arguments", c.arguments);
    if (c.argumentsValid)
        o.add("arguments_valid", *c.argumentsValid);
    else
        o.addNull("arguments_valid");
    if (c.result.isNull())
        o.addNull("result");
    else
        o.add("result", c.result);
    o.add("synthetic", c.synthetic);
    o.add("ambiguous", c.ambiguous);
    o.addOrNull("blocked_by", c.blockedBy);
    put(out, o);
}

void writeRun(const QString& room, const RunRecord& r, QIODevice& out)
{
    JsonLine o;
    o.add("record", QStringLiteral("run"));
    o.add("room", room);
    o.add("group_id", r.groupId);
    o.add("kind", r.kind);
    o.addOrNull("name", r.name);
    o.addOrNull("parent_group_id", r.parentGroupId);
    addOrNull(o, "first_index", r.firstIndex);
    addOrNull(o, "last_index", r.lastIndex);
    addOrNull(o, "started_us", r.startMicros);
    addOrNull(o, "ended_us", r.endMicros);
    o.addOrNull("outcome", r.outcome);
    o.addOrNull("detail", r.detail);
    o.add("synthetic", r.synthetic);
    o.addOrNull("usage_json", r.usageJson);
    o.addOrNull("interrupts_json", r.interruptsJson);
    put(out, o);
}

// Whether a call belongs in a report of these events: one of its rows is among them.
bool shown(const ToolCallRecord& c, const QSet<qint64>& indexes)
{
    for (const std::optional<qint64>& at : { c.startIndex, c.endIndex, c.resultIndex }) {
        if (at && indexes.contains(*at))
            return true;
    }
    return false;
}

} // namespace

namespace JsonlReport {

qint64 write(Workspace& ws, const ReportScope& scope, QIODevice& out, Sha256* events)
{
    {
        JsonLine header;
        header.add("record", QStringLiteral("report"));
        header.add("format", QLatin1String(Format));
        header.add("version", qint64(1));
        header.add("generated_at", QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs));
        header.addOrNull("author", scope.author);
        header.addOrNull("sightline_version", scope.version);
        header.addOrNull("source", scope.shownSource());
        header.addOrNull("filter", scope.filterText);
        put(out, header);
    }
    SqliteStatement stored(ws.handle(),
        "SELECT unpack(e.payload), unpack(s.body), unpack(s.arguments), unpack(s.result) FROM events e LEFT JOIN search_text s ON s.event_id = e.id "
        "WHERE e.id = ?");
    qint64 written = 0;
    for (qint64 roomId : scope.roomIds) {
        // The room alone, not ReportRoom: its calls are streamed below, never held.
        ReportRoom summary;
        if (const std::optional<RoomSummary> found = ws.room(roomId))
            summary.room = *found;
        else
            continue;
        const QString room = summary.room.nativeId;
        writeRoom(ws, roomId, out);
        // Every row of the room, or only some: then the calls and annotations of the rows left out stay out too.
        const bool whole = scope.filter.terms() == 0 && (!scope.filter.hidesBlocked() || summary.room.blockedCount == 0);
        // The events the filter lets through, each as it is read: the room is never held whole.
        QSet<qint64> indexes; // the calls and annotations to keep, when a filter leaves some events out
        PageRequest all;
        all.limit = std::numeric_limits<int>::max();
        ws.forEachEvent(roomId, scope.filter, all, [&](const EventRecord& e) {
            writeEvent(room, e, stored, out);
            if (!whole)
                indexes.insert(e.index);
            summary.digest(events, e);
            scope.written();
            ++written;
        });
        ws.forEachToolCall(roomId, [&](const ToolCallRecord& c) {
            if (whole || shown(c, indexes))
                writeCall(room, c, out);
        });
        for (const RunRecord& run : ws.runs(roomId))
            writeRun(room, run, out);
        for (const Annotation& a : AnnotationStore(ws).annotations(roomId)) {
            if (!whole && a.index && !indexes.contains(*a.index))
                continue;
            JsonLine o;
            o.add("record", QStringLiteral("annotation"));
            o.add("room", room);
            addOrNull(o, "index", a.index);
            o.add("kind", Annotation::kindName(a.kind));
            o.addOrNull("value", a.value);
            o.add("author", a.author);
            o.add("at_ms", a.atMs);
            o.add("saved", a.saved);
            o.add("detached", a.detached);
            put(out, o);
        }
        for (const Redaction& x : RedactionStore(ws).ledger(roomId)) {
            JsonLine o;
            o.add("record", QStringLiteral("redaction"));
            o.add("room", room);
            o.add("index", x.index);
            o.add("path", x.path);
            o.add("start", x.start);
            o.add("length", x.length);
            o.add("digest", x.digest);
            o.addOrNull("reason", x.reason);
            o.add("author", x.author);
            o.add("at_ms", x.atMs);
            o.add("saved", x.saved);
            put(out, o);
        }
        for (const JournalEntry& j : Journal(ws).entries(roomId)) {
            JsonLine o;
            o.add("record", QStringLiteral("journal"));
            o.add("room", room);
            addOrNull(o, "index", j.index);
            o.add("action", j.action);
            o.add("author", j.author);
            o.add("at_ms", j.atMs);
            o.addOrNull("before", j.before);
            o.addOrNull("after", j.after);
            o.add("saved", j.saved);
            put(out, o);
        }
    }
    return written;
}

} // namespace JsonlReport
