#include "jsonlreport.h"

#include "annotationstore.h"
#include "eventflags.h"
#include "journal.h"
#include "jsonfields.h"
#include "jsonline.h"
#include "recordfields.h"
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

void writeEvent(const QString& room, const EventRecord& e, StoredTexts& stored, QIODevice& out, JsonLine& o)
{
    o.add("record", QStringLiteral("event"));
    o.add("room", room);
    JsonFields::write(o, e, RecordFields::events());
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
    JsonFields::write(o, c, RecordFields::calls());
    put(out, o);
}

void writeRun(const QString& room, const RunRecord& r, QIODevice& out)
{
    JsonLine o;
    o.add("record", QStringLiteral("run"));
    o.add("room", room);
    JsonFields::write(o, r, RecordFields::runs());
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
        JsonLine line; // one for every event: its buffers are kept
        ws.forEachEvent(roomId, scope.filter, all, [&](const EventRecord& e) {
            writeEvent(room, e, stored, out, line);
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
