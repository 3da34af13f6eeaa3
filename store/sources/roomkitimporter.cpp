#include "roomkitimporter.h"

#include "../eventflags.h"
#include "../eventkind.h"
#include "../roomkitrowdecoder.h"
#include "../sqlitestatement.h"
#include "../storeerror.h"
#include "../timeutil.h"
#include "../toolpairer.h"
#include "../workspace.h"
#include "importwriter.h"
#include "rowpipe.h"
#include "sourcedatabase.h"

#include <optional>
#include <QDateTime>
#include <QFileInfo>
#include <QHash>
#include <QScopeGuard>
#include <QSet>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlError>
#include <QSqlQuery>
#include <utility>

namespace {

QString roomTitle(const QJsonObject& room)
{
    const QJsonObject metadata = room.value(QLatin1String("metadata")).toObject();
    for (const char* key : { "title", "name", "subject" }) {
        const QString value = metadata.value(QLatin1String(key)).toString();
        if (!value.isEmpty())
            return value;
    }
    return {};
}

QJsonArray jsonRows(SourceDatabase& src, const char* sql, const QString& roomId)
{
    QJsonArray rows;
    SqliteStatement st(src.handle(), sql);
    st.bind(1, roomId);
    while (st.step())
        rows.append(QJsonDocument::fromJson(st.bytes(0)).object());
    return rows;
}

// Rooms as RoomKit lists them (rowid order), plus any room that has events but no row of its own.
QVector<RoomCursor> importRooms(ImportWriter& writer, SourceDatabase& src, qint64 sourceId)
{
    QVector<RoomCursor> targets;
    const bool hasBindings = src.hasTable(QStringLiteral("bindings"));
    const bool hasParticipants = src.hasTable(QStringLiteral("participants"));
    auto upsert = [&](const QString& nativeId, const QString& status, const QString& organization, qint64 createdUs,
                      const QByteArray& data) {
        QJsonParseError error;
        const QJsonObject json = QJsonDocument::fromJson(data, &error).object();
        if (!data.isEmpty() && error.error != QJsonParseError::NoError) {
            writer.note(QStringLiteral("room %1").arg(nativeId),
                QStringLiteral("malformed room JSON at byte %1: %2").arg(error.offset).arg(error.errorString()));
        }
        QJsonObject details;
        if (hasBindings) {
            details.insert(QStringLiteral("bindings"),
                jsonRows(src, "SELECT data FROM bindings WHERE room_id = ? ORDER BY rowid", nativeId));
        }
        if (hasParticipants) {
            details.insert(QStringLiteral("participants"),
                jsonRows(src, "SELECT data FROM participants WHERE room_id = ? ORDER BY rowid", nativeId));
        }
        RoomInfo room;
        room.nativeId = nativeId;
        room.title = roomTitle(json);
        room.status = status;
        room.organizationId = organization;
        room.createdMicros = createdUs;
        room.nativeJson = data;
        room.detailsJson = QJsonDocument(details).toJson(QJsonDocument::Compact);
        targets.append(writer.upsertRoom(sourceId, room));
    };

    SqliteStatement rooms(
        src.handle(), "SELECT id, status, organization_id, created_ts, CAST(data AS BLOB) FROM rooms ORDER BY rowid");
    while (rooms.step())
        upsert(rooms.text(0), rooms.text(1), rooms.text(2), TimeUtil::secondsToMicros(rooms.real(3)), rooms.bytes(4));
    SqliteStatement orphans(
        src.handle(), "SELECT DISTINCT room_id FROM events WHERE room_id NOT IN (SELECT id FROM rooms)");
    while (orphans.step()) {
        const QString nativeId = orphans.text(0);
        writer.note(QStringLiteral("room %1").arg(nativeId),
            QStringLiteral("events without a row in the rooms table (imported without room details)"));
        upsert(nativeId, QString(), QString(), 0, QByteArray());
    }
    return targets;
}

// The calls the room's last sync (or a killed import) left open, back in the pairer: what this import reads may
// close them. Their rows stay in the table until an end closes them; returns their starts' indexes.
QSet<qint64> reopenCalls(ImportWriter& writer, ToolPairer& pairer)
{
    QSet<qint64> starts;
    for (const ToolCallRecord& c : writer.openCalls()) {
        ToolEvent e;
        e.isStart = true;
        e.toolName = c.toolName;
        e.toolId = c.toolId;
        e.correlationId = c.groupId;
        e.index = *c.startIndex;
        e.createdMicros = c.startMicros.value_or(0);
        e.contentStatus = c.status;
        e.arguments = c.arguments;
        pairer.add(e);
        starts.insert(e.index);
    }
    pairer.takeOpened(); // already in the table
    return starts;
}

void writeCalls(ImportWriter& writer, ToolCallRecords calls)
{
    for (ToolCallRecord& c : calls) {
        // RoomKit stores arguments as a JSON object, so they always parse; the result sits on the end row.
        if (!c.arguments.isEmpty())
            c.argumentsValid = true;
        c.resultIndex = c.endIndex;
    }
    writer.insertToolCalls(calls);
}

// One AI response per correlation id, from its first to its last row: the runs the room had, stretched by the
// rows read since, kept as they stream by (a GROUP BY over the room after each import cost a fourteenth of it)
// and written with every commit (only the ones its rows changed).
class Responses
{
public:
    Responses(Workspace& ws, qint64 roomId)
    {
        for (const RunRecord& r : ws.runs(roomId)) {
            if (r.kind == QLatin1String("ai_response")) {
                m_spans.insert(r.groupId,
                    { r.firstIndex.value_or(0), r.lastIndex.value_or(0), r.startMicros.value_or(0),
                        r.endMicros.value_or(0), r.rowId });
            }
        }
    }

    void add(const EventRecord& r)
    {
        if (r.groupId.isEmpty())
            return;
        auto it = m_spans.find(r.groupId);
        if (it == m_spans.end()) {
            m_spans.insert(r.groupId, { r.index, r.index, r.createdMicros, r.createdMicros, 0 });
            m_changed.insert(r.groupId);
            return;
        }
        const Span before = *it;
        it->first = std::min(it->first, r.index);
        it->last = std::max(it->last, r.index);
        if (r.createdMicros != 0) {
            it->firstUs = it->firstUs ? std::min(it->firstUs, r.createdMicros) : r.createdMicros;
            it->lastUs = std::max(it->lastUs, r.createdMicros);
        }
        if (it->first != before.first || it->last != before.last || it->firstUs != before.firstUs
            || it->lastUs != before.lastUs)
            m_changed.insert(r.groupId);
    }

    // Writes the responses changed since the last call.
    void write(ImportWriter& writer)
    {
        for (const QString& group : std::exchange(m_changed, {})) {
            Span& span = m_spans[group];
            RunRecord r;
            r.groupId = group;
            r.kind = QStringLiteral("ai_response");
            r.firstIndex = span.first;
            r.lastIndex = span.last;
            r.startMicros = span.firstUs;
            r.endMicros = span.lastUs;
            span.rowId = writer.writeRun(r, span.rowId);
        }
    }

private:
    struct Span
    {
        qint64 first, last, firstUs, lastUs;
        qint64 rowId; // its row in runs, 0 until written
    };
    QHash<QString, Span> m_spans;
    QSet<QString> m_changed;
};

} // namespace

namespace RoomKitImporter {

bool detect(const QString& path)
{
    if (!SourceDatabase::looksLikeSqlite(path))
        return false;
    try {
        SourceDatabase src(path);
        return src.hasTable(QStringLiteral("rooms")) && src.hasTable(QStringLiteral("events"))
            && src.columns(QStringLiteral("events")).contains(QLatin1String("idx"));
    } catch (const StoreError&) {
        return false;
    }
}

ImportReport run(Workspace& ws, const QString& sourcePath, const ImportOptions& options)
{
    SourceDatabase src(sourcePath);
    const QStringList eventColumns = src.columns(QStringLiteral("events"));
    if (!src.hasTable(QStringLiteral("rooms")) || !eventColumns.contains(QLatin1String("idx"))
        || !eventColumns.contains(QLatin1String("data"))) {
        throw StoreError(
            sourcePath, {}, QStringLiteral("not a RoomKit store: it has no rooms and events(idx, data) tables"));
    }
    const int version = src.userVersion();
    if (version < 1 || version > 3) {
        throw StoreError(sourcePath, QStringLiteral("PRAGMA user_version"),
            QStringLiteral("unknown RoomKit schema version %1 (Sightline reads versions 1 to 3)").arg(version));
    }

    ImportReport report;
    report.format = QStringLiteral("roomkit.sqlite.v%1").arg(version);
    ImportWriter writer(ws, sourcePath, options, report);
    QVector<RoomCursor> targets;
    writer.transaction([&] {
        const qint64 sourceId = writer.upsertSource(QStringLiteral("roomkit"), report.format, QString::number(version));
        targets = importRooms(writer, src, sourceId);
    });

    {
        qint64 total = 0;
        QHash<qint64, qint64> rows;
        SqliteStatement count(src.handle(), "SELECT count(*) FROM events WHERE room_id = ? AND idx > ?");
        for (const RoomCursor& room : targets) {
            count.bind(1, room.nativeId);
            count.bind(2, room.syncedSeq);
            count.step();
            rows.insert(room.id, count.int64(0));
            total += count.int64(0);
            count.reset();
        }
        writer.setTotal(total);
        // The biggest room first: it is the one a reader waits for, and its first batch shows it (see below).
        std::stable_sort(targets.begin(), targets.end(),
            [&](const RoomCursor& a, const RoomCursor& b) { return rows.value(a.id) > rows.value(b.id); });
    }

    for (const RoomCursor& room : targets) {
        if (writer.cancelled())
            break;
        // Each room is read as the file is now: a writer that started since the open is read under its locks.
        src.refresh();
        SqliteStatement read(src.handle(),
            "SELECT id, type, idx, source_channel_id, source_channel_type, participant_id, correlation_id, "
            "parent_event_id, created_ts, CAST(data AS BLOB) FROM events "
            "WHERE room_id = ? AND idx > ? ORDER BY idx");
        writer.beginRoom(room);
        qint64 synced = room.syncedSeq;
        Responses responses(ws, room.id);
        // Calls are paired as their rows are read and written as they settle, batch by batch: an end is written
        // folded into its card exactly when it closes a start, and only the calls still open stay in memory.
        ToolPairer pairer;
        QSet<qint64> openInTable = reopenCalls(writer, pairer);
        writer.setBeforeCommit([&] {
            const ToolCallRecords settled = pairer.takeSettled();
            for (const ToolCallRecord& c : settled) {
                if (c.startIndex && openInTable.remove(*c.startIndex))
                    writer.deleteOpenCall(*c.startIndex); // a start an earlier commit wrote open, closed now
            }
            writeCalls(writer, settled);
            const ToolCallRecords opened = pairer.takeOpened();
            for (const ToolCallRecord& c : opened)
                openInTable.insert(*c.startIndex);
            writeCalls(writer, opened);
            responses.write(writer);
        });
        const auto unhook = qScopeGuard([&writer] { writer.setBeforeCommit({}); }); // it holds this room's locals
        bool checkpointed = false;
        qint64 lastIndex = room.syncedSeq;
        read.bind(1, room.nativeId);
        read.bind(2, room.syncedSeq);
        // The source is read and decoded on the pipe's thread; only this loop writes.
        std::optional<RowPipe<DecodedRoomKitEvent>> rows;
        rows.emplace([&read](auto&& put) {
            while (read.step()) {
                RoomKitColumns columns;
                columns.id = read.text(0);
                columns.type = read.text(1);
                columns.index = read.int64(2);
                columns.channelId = read.text(3);
                columns.channelType = read.text(4);
                columns.participantId = read.text(5);
                columns.correlationId = read.text(6);
                columns.parentId = read.text(7);
                columns.createdSeconds = read.real(8);
                if (!put(RoomKitRowDecoder::decode(read.bytes(9), columns)))
                    return;
            }
        });
        while (!writer.cancelled()) {
            DecodedRoomKitEvent* next = rows->next();
            if (!next)
                break;
            DecodedRoomKitEvent& e = *next;
            EventRecord& r = e.record;
            r.groupId = r.correlationId;
            auto place = [&] { return QStringLiteral("room %1, index %2").arg(room.nativeId).arg(r.index); };
            if (!e.problem.isEmpty())
                writer.note(place(), e.problem);
            synced = std::max(synced, r.index);
            // Rows come in index order: a second row at the same index (a store without its unique index) is
            // left out before it can open or close a call.
            auto skipped = [&] {
                writer.note(
                    place(), QStringLiteral("a second row with the same index (event %1) was skipped").arg(r.nativeId));
            };
            if (r.index == lastIndex) {
                skipped();
                continue;
            }
            lastIndex = r.index;
            if (r.kind == EventKind::ToolCall) {
                ToolEvent t;
                t.index = r.index;
                t.isStart = r.type == QLatin1String("tool_call_start");
                t.correlationId = r.correlationId;
                t.toolId = r.toolId;
                t.toolName = r.toolName;
                t.createdMicros = r.createdMicros;
                t.contentStatus = e.contentStatus;
                t.outcome = r.outcome;
                t.error = e.error;
                t.durationMs = e.durationMs;
                t.arguments = e.arguments;
                t.result = e.result;
                if (pairer.add(t))
                    r.flags |= EventFlags::Folded; // shown inside its call's card, at the start's place
            }
            responses.add(r);
            if (!writer.insert({ r, e.payload, e.body, e.arguments, e.result })) {
                skipped(); // already in the workspace
                continue;
            }
            if (!checkpointed && writer.roomCommits() > 0) {
                // After a big room's first batch (its calls and turns committed with it), the room is counted for a
                // reader: the first screen of a store never opened before shows while the rest of it imports.
                checkpointed = true;
                writer.checkpointRoom(synced);
            }
        }
        rows.reset(); // its thread stops before the statement it steps is finalized
        writer.finishRoom(synced);
    }
    writer.finish();
    return report;
}

} // namespace RoomKitImporter
