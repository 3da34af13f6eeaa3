#include "jsonlreport.h"

#include "annotationstore.h"
#include "eventflags.h"
#include "journal.h"
#include "jsonline.h"
#include "redactionstore.h"
#include "reportroom.h"
#include "roomfields.h"
#include "storedtexts.h"
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
    const std::optional<RoomFields> r = RoomFields::read(ws, roomId);
    if (!r)
        return;
    const RoomInfo& room = r->room;
    JsonLine o;
    o.add("record", QStringLiteral("room"));
    o.add("room", room.nativeId);
    o.addOrNull("title", room.title);
    o.addOrNull("status", room.status);
    o.addOrNull("organization_id", room.organizationId);
    o.addOrNull("owner", room.owner);
    o.addOrNull("agent_id", room.agentId);
    o.addOrNull("summary", room.summary);
    addOrNull(o, "created_us", room.createdMicros ? std::optional<qint64>(room.createdMicros) : std::nullopt);
    addOrNull(o, "updated_us", room.updatedMicros ? std::optional<qint64>(room.updatedMicros) : std::nullopt);
    for (const auto& [key, json] : { std::pair { "native_json", &room.nativeJson }, std::pair { "details_json", &room.detailsJson } }) {
        if (json->isNull())
            o.addNull(key);
        else
            o.add(key, QString::fromUtf8(*json));
    }
    o.add("source_system", r->sourceSystem);
    o.add("source_format", r->sourceFormat);
    o.add("source_origin", r->sourceOrigin);
    o.addOrNull("source_schema_version", r->sourceSchemaVersion);
    put(out, o);
}

void writeEvent(const QString& room, const EventRecord& e, StoredTexts& stored, QIODevice& out)
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
    if (const std::optional<StoredTexts::Texts> texts = stored.of(e.rowId)) {
        // The bytes as the source wrote them: as text when they are UTF-8, else in base64.
        if (e.flags & EventFlags::InvalidUtf8)
            o.add("payload_base64", QString::fromLatin1(texts->payload.toBase64()));
        else
            o.addUtf8("payload", texts->payload);
        o.addOrNull("search_body", texts->body);
        o.addOrNull("search_arguments", texts->arguments);
        o.addOrNull("search_result", texts->result);
    }
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
    StoredTexts stored(ws);
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
