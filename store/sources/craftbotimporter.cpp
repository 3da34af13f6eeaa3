#include "craftbotimporter.h"

#include "../eventflags.h"
#include "../eventkind.h"
#include "../sqlitestatement.h"
#include "../storeerror.h"
#include "../timeutil.h"
#include "../workspace.h"
#include "craftbotassembler.h"
#include "eventmdparser.h"
#include "importwriter.h"
#include "sourcedatabase.h"

#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QSqlQuery>

namespace {

struct Stream
{
    RoomInfo room;
    QVector<EventMdRecord> records;
};

// Writes one stream as a room: the records that are new since the last sync, and everything derived.
void writeStream(ImportWriter& writer, const RoomCursor& cursor, const Stream& stream, const QString& where)
{
    const CraftBotAssembly assembly = CraftBotAssembler::assemble(stream.records);
    for (const auto& [index, problem] : assembly.problems) {
        if (index > cursor.syncedSeq) {
            const qint64 line = stream.records[index].firstLine;
            writer.note(line > 0 ? QStringLiteral("%1 line %2").arg(where).arg(line)
                                 : QStringLiteral("%1 position %2").arg(where).arg(index),
                problem);
        }
    }
    writer.beginRoom(cursor);
    for (const StoredEvent& row : assembly.rows) {
        if (row.record.index > cursor.syncedSeq && !writer.cancelled())
            writer.insert(row);
    }
    // Flags and outcomes of earlier rows change when their partner arrives: refresh the action rows.
    for (const StoredEvent& row : assembly.rows) {
        if (row.record.index <= cursor.syncedSeq && row.record.kind == EventKind::ToolCall)
            writer.refreshDerived(row.record);
    }
    writer.deleteToolCalls(false);
    writer.insertToolCalls(assembly.calls);
    writer.replaceRuns(assembly.runs);
    writer.finishRoom(writer.cancelled() ? cursor.syncedSeq : stream.records.size() - 1);
}

QByteArray fingerprint(const QVector<EventMdRecord>& records)
{
    return records.isEmpty() ? QByteArray()
                             : QCryptographicHash::hash(records.first().raw, QCryptographicHash::Sha1).toHex();
}

ImportReport importEventMd(Workspace& ws, const QString& path, const ImportOptions& options)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw StoreError(path, {}, QStringLiteral("cannot read: ") + file.errorString());
    const EventMdFile parsed = EventMdParser::parse(file.readAll());

    ImportReport report;
    report.format = QStringLiteral("craftbot.event_md");
    ImportWriter writer(ws, path, options, report);
    Stream stream;
    stream.records = parsed.records;
    stream.room.nativeId = QFileInfo(path).fileName();
    stream.room.title = QFileInfo(path).fileName();
    if (!parsed.records.isEmpty() && parsed.records.first().micros)
        stream.room.createdMicros = parsed.records.first().micros;
    // The first record identifies the file: when it changed, rotation (or a rewrite) replaced the start of the
    // log, and the indices of the old import no longer mean the same records.
    const QByteArray print = fingerprint(parsed.records);
    stream.room.nativeJson
        = QJsonDocument(QJsonObject { { QStringLiteral("first_record_sha1"), QString::fromLatin1(print) },
                            { QStringLiteral("header"), parsed.header } })
              .toJson(QJsonDocument::Compact);
    RoomCursor cursor;
    writer.transaction([&] {
        const qint64 sourceId = writer.upsertSource(QStringLiteral("craftbot"), report.format, QString());
        if (const auto previous = writer.storedRoom(sourceId, stream.room.nativeId)) {
            const QString before = QJsonDocument::fromJson(previous->second)
                                       .object()
                                       .value(QLatin1String("first_record_sha1"))
                                       .toString();
            if (!before.isEmpty() && before != QString::fromLatin1(print)) {
                writer.note(QString(),
                    QStringLiteral("the log was rotated or rewritten since the last import: its rows "
                                   "were read again from the start"));
                writer.clearRoom(previous->first);
            }
        }
        cursor = writer.upsertRoom(sourceId, stream.room);
    });
    writer.setTotal(std::max<qint64>(0, stream.records.size() - 1 - cursor.syncedSeq));
    writeStream(writer, cursor, stream, QFileInfo(path).fileName());
    writer.finish();
    return report;
}

ImportReport importSessionsDb(Workspace& ws, const QString& path, const ImportOptions& options)
{
    SourceDatabase src(path);
    if (!src.hasTable(QStringLiteral("event_records")) || !src.hasTable(QStringLiteral("event_streams")))
        throw StoreError(
            path, {}, QStringLiteral("not a CraftBot sessions.db: no event_streams and event_records tables"));
    ImportReport report;
    report.format = QStringLiteral("craftbot.sessions_db");
    ImportWriter writer(ws, path, options, report);

    // Task names, for the rooms' titles.
    QHash<QString, QJsonObject> tasks;
    if (src.hasTable(QStringLiteral("active_tasks"))) {
        SqliteStatement st(src.handle(), "SELECT task_id, CAST(task_json AS BLOB) FROM active_tasks");
        while (st.step())
            tasks.insert(st.text(0), QJsonDocument::fromJson(st.bytes(1)).object());
    }
    QVector<Stream> streams;
    SqliteStatement list(src.handle(), "SELECT stream_id, head_summary, updated_at FROM event_streams ORDER BY rowid");
    SqliteStatement read(src.handle(),
        "SELECT position, CAST(event_json AS BLOB) FROM event_records WHERE stream_id = ? ORDER BY position, id");
    while (list.step()) {
        Stream s;
        s.room.nativeId = list.text(0);
        s.room.summary = list.text(1);
        s.room.updatedMicros = TimeUtil::parseIsoToMicros(list.text(2)).value_or(0);
        const QJsonObject task = tasks.value(s.room.nativeId);
        s.room.title = s.room.nativeId == QLatin1String("__main__") ? QStringLiteral("Conversation")
                                                                    : task.value(QLatin1String("name")).toString();
        s.room.status = task.value(QLatin1String("status")).toString();
        if (!task.isEmpty())
            s.room.nativeJson = QJsonDocument(task).toJson(QJsonDocument::Compact);
        read.bind(1, s.room.nativeId);
        while (read.step()) {
            EventMdRecord r;
            r.raw = read.bytes(1);
            QJsonParseError error;
            const QJsonObject record = QJsonDocument::fromJson(r.raw, &error).object();
            const QJsonObject event = record.value(QLatin1String("event")).toObject();
            if (error.error != QJsonParseError::NoError) {
                writer.note(QStringLiteral("stream %1 position %2").arg(s.room.nativeId).arg(read.int64(0)),
                    QStringLiteral("malformed event JSON at byte %1: %2").arg(error.offset).arg(error.errorString()));
                r.flags |= EventFlags::MalformedJson;
                r.kind = QStringLiteral("(malformed)");
            }
            r.kind = event.value(QLatin1String("kind")).toString(r.kind);
            r.message = event.value(QLatin1String("message")).toString();
            r.severity = event.value(QLatin1String("severity")).toString();
            r.displayMessage = event.value(QLatin1String("display_message")).toString();
            const QString ts = event.value(QLatin1String("ts")).toString(record.value(QLatin1String("ts")).toString());
            r.micros = TimeUtil::parseIsoToMicros(ts).value_or(0);
            s.records.append(r);
        }
        read.reset();
        if (!s.records.isEmpty())
            s.room.createdMicros = s.records.first().micros;
        streams.append(s);
    }

    QVector<RoomCursor> cursors;
    writer.transaction([&] {
        const qint64 sourceId = writer.upsertSource(QStringLiteral("craftbot"), report.format, QString());
        for (const Stream& s : streams)
            cursors.append(writer.upsertRoom(sourceId, s.room));
    });
    qint64 total = 0;
    for (int i = 0; i < streams.size(); ++i)
        total += std::max<qint64>(0, streams[i].records.size() - 1 - cursors[i].syncedSeq);
    writer.setTotal(total);
    for (int i = 0; i < streams.size() && !writer.cancelled(); ++i)
        writeStream(writer, cursors[i], streams[i], QStringLiteral("stream %1").arg(streams[i].room.nativeId));
    writer.finish();
    return report;
}

} // namespace

namespace CraftBotImporter {

bool detectEventMd(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) && EventMdParser::looksLikeEventMd(file.read(8192));
}

bool detectSessionsDb(const QString& path)
{
    if (!SourceDatabase::looksLikeSqlite(path))
        return false;
    try {
        SourceDatabase src(path);
        return src.hasTable(QStringLiteral("event_streams")) && src.hasTable(QStringLiteral("event_records"));
    } catch (const StoreError&) {
        return false;
    }
}

ImportReport run(Workspace& ws, const QString& path, const ImportOptions& options)
{
    if (SourceDatabase::looksLikeSqlite(path))
        return importSessionsDb(ws, path, options);
    return importEventMd(ws, path, options);
}

} // namespace CraftBotImporter
