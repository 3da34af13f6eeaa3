#include "craftbotreader.h"

#include "../eventflags.h"
#include "../eventkind.h"
#include "../sqlitestatement.h"
#include "../storeerror.h"
#include "../timeutil.h"
#include "../workspace.h"
#include "craftbotassembler.h"
#include "eventmdparser.h"
#include "filetail.h"
#include "roomfeed.h"
#include "sourcedatabase.h"

#include <QCryptographicHash>
#include <QMutex>
#include <atomic>
#include <memory>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QSqlQuery>

namespace {

QByteArray fingerprint(const QVector<EventMdRecord>& records)
{
    return records.isEmpty() ? QByteArray()
                             : QCryptographicHash::hash(records.first().raw, QCryptographicHash::Sha1).toHex();
}

QString storedPrint(const QByteArray& nativeJson)
{
    return QJsonDocument::fromJson(nativeJson).object().value(QLatin1String("first_record_sha1")).toString();
}

// How far an EVENT.md was read in this process: its records but the last (which CraftBot may still be writing: a
// record runs on over the lines up to the next), where that last record starts, and a hash of the bytes before.
// The next read of the file, once it has only grown, parses from there.
struct ReadPosition
{
    QString path;
    QString header;
    QVector<EventMdRecord> records;
    qint64 offset = 0;
    qint64 lineBase = 0; // the lines before the offset
    QByteArray tail;
};

QMutex positionsMutex;
QList<std::shared_ptr<const ReadPosition>> positions; // most recent first: a few files' records
constexpr int KeptPositions = 2;
std::atomic<int> resumedCount { 0 };

// The file's records: parsed on from where the last read of it in this process stopped when it has only grown
// since, else parsed whole.
EventMdFile readEventMd(const QString& path, QFile& file)
{
    std::shared_ptr<const ReadPosition> before;
    {
        QMutexLocker lock(&positionsMutex);
        for (const auto& p : std::as_const(positions)) {
            if (p->path == path) {
                before = p;
                break;
            }
        }
    }
    EventMdFile out;
    if (before && FileTail::onlyGrew(file, before->offset, before->tail)) {
        file.seek(before->offset);
        EventMdFile more = EventMdParser::parse(file.readAll());
        // From a record's start, as it was: anything else (a partial record first) is not the file read before.
        if (more.records.isEmpty() || !more.records.first().partial) {
            resumedCount.fetch_add(1);
            out.header = before->header;
            out.records = before->records;
            for (EventMdRecord& r : more.records) {
                r.firstLine += before->lineBase;
                r.lastLine += before->lineBase;
                out.records.append(std::move(r));
            }
        }
    }
    if (out.records.isEmpty()) {
        file.seek(0);
        out = EventMdParser::parse(file.readAll());
    }
    auto next = std::make_shared<ReadPosition>();
    next->path = path;
    next->header = out.header;
    next->records = out.records;
    next->offset = file.size();
    if (!next->records.isEmpty()) {
        next->offset -= next->records.constLast().raw.size();
        next->lineBase = next->records.constLast().firstLine - 1;
        next->records.removeLast();
    }
    next->tail = FileTail::hashBefore(file, next->offset);
    QMutexLocker lock(&positionsMutex);
    for (qsizetype k = 0; k < positions.size(); ++k) {
        if (positions[k]->path == path) {
            positions.removeAt(k);
            break;
        }
    }
    positions.prepend(next);
    while (positions.size() > KeptPositions)
        positions.removeLast();
    return out;
}

} // namespace

CraftBotReader::CraftBotReader(const QString& path)
    : m_path(path)
{
    if (SourceDatabase::looksLikeSqlite(path)) {
        m_db = std::make_unique<SourceDatabase>(path);
        if (!m_db->hasTable(QStringLiteral("event_records")) || !m_db->hasTable(QStringLiteral("event_streams")))
            throw StoreError(
                path, {}, QStringLiteral("not a CraftBot sessions.db: no event_streams and event_records tables"));
        return;
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw StoreError(path, {}, QStringLiteral("cannot read: ") + file.errorString());
    m_file = readEventMd(QFileInfo(path).absoluteFilePath(), file);
}

int CraftBotReader::resumedReads()
{
    return resumedCount.load();
}

void CraftBotReader::forgetReadPositions()
{
    QMutexLocker lock(&positionsMutex);
    positions.clear();
}

CraftBotReader::~CraftBotReader() = default;

bool CraftBotReader::detectEventMd(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) && EventMdParser::looksLikeEventMd(file.read(8192));
}

bool CraftBotReader::detectSessionsDb(const QString& path)
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

QString CraftBotReader::origin() const
{
    return QFileInfo(m_path).canonicalFilePath();
}

SourceIdentity CraftBotReader::identity() const
{
    return { QStringLiteral("craftbot"),
        m_db ? QStringLiteral("craftbot.sessions_db") : QStringLiteral("craftbot.event_md"), QString() };
}

QVector<RoomInfo> CraftBotReader::rooms(const SourceNotes& notes)
{
    if (!m_db) {
        RoomInfo room;
        room.nativeId = QFileInfo(m_path).fileName();
        room.title = room.nativeId;
        if (!m_file.records.isEmpty() && m_file.records.first().micros)
            room.createdMicros = m_file.records.first().micros;
        // The first record identifies the file: when it changed, rotation (or a rewrite) replaced the start of the
        // log, and the indices of the old import no longer mean the same records.
        room.nativeJson = QJsonDocument(QJsonObject { { QStringLiteral("first_record_sha1"),
                                                          QString::fromLatin1(fingerprint(m_file.records)) },
                                            { QStringLiteral("header"), m_file.header } })
                              .toJson(QJsonDocument::Compact);
        return { room };
    }
    // Task names, for the rooms' titles.
    QHash<QString, QJsonObject> tasks;
    if (m_db->hasTable(QStringLiteral("active_tasks"))) {
        SqliteStatement st(m_db->handle(), "SELECT task_id, CAST(task_json AS BLOB) FROM active_tasks");
        while (st.step())
            tasks.insert(st.text(0), QJsonDocument::fromJson(st.bytes(1)).object());
    }
    QVector<RoomInfo> rooms;
    SqliteStatement list(
        m_db->handle(), "SELECT stream_id, head_summary, updated_at FROM event_streams ORDER BY rowid");
    SqliteStatement first(m_db->handle(),
        "SELECT CAST(event_json AS BLOB) FROM event_records WHERE stream_id = ? ORDER BY position, id LIMIT 1");
    while (list.step()) {
        RoomInfo room;
        room.nativeId = list.text(0);
        room.summary = list.text(1);
        room.updatedMicros = TimeUtil::parseIsoToMicros(list.text(2)).value_or(0);
        const QJsonObject task = tasks.value(room.nativeId);
        room.title = room.nativeId == QLatin1String("__main__") ? QStringLiteral("Conversation")
                                                                : task.value(QLatin1String("name")).toString();
        room.status = task.value(QLatin1String("status")).toString();
        if (!task.isEmpty())
            room.nativeJson = QJsonDocument(task).toJson(QJsonDocument::Compact);
        first.bind(1, room.nativeId);
        if (first.step()) {
            const QJsonObject record = QJsonDocument::fromJson(first.bytes(0)).object();
            const QString ts = record.value(QLatin1String("event"))
                                   .toObject()
                                   .value(QLatin1String("ts"))
                                   .toString(record.value(QLatin1String("ts")).toString());
            room.createdMicros = TimeUtil::parseIsoToMicros(ts).value_or(0);
        }
        first.reset();
        rooms.append(room);
    }
    Q_UNUSED(notes);
    return rooms;
}

bool CraftBotReader::replacedSince(const RoomInfo& now, const QByteArray& storedNativeJson) const
{
    if (m_db)
        return false;
    const QString before = storedPrint(storedNativeJson);
    return !before.isEmpty() && before != storedPrint(now.nativeJson);
}

qint64 CraftBotReader::rowsAfter(const RoomCursor& cursor)
{
    if (!m_db)
        return std::max<qint64>(0, m_file.records.size() - 1 - cursor.syncedSeq);
    SqliteStatement count(m_db->handle(), "SELECT count(*) FROM event_records WHERE stream_id = ?");
    count.bind(1, cursor.nativeId);
    count.step();
    return std::max<qint64>(0, count.int64(0) - 1 - cursor.syncedSeq);
}

QVector<EventMdRecord> CraftBotReader::streamRecords(const QString& streamId, const SourceNotes& notes)
{
    QVector<EventMdRecord> records;
    SqliteStatement read(m_db->handle(),
        "SELECT position, CAST(event_json AS BLOB) FROM event_records WHERE stream_id = ? ORDER BY position, id");
    read.bind(1, streamId);
    while (read.step()) {
        EventMdRecord r;
        r.raw = read.bytes(1);
        QJsonParseError error;
        const QJsonObject record = QJsonDocument::fromJson(r.raw, &error).object();
        const QJsonObject event = record.value(QLatin1String("event")).toObject();
        if (error.error != QJsonParseError::NoError) {
            notes(QStringLiteral("stream %1 position %2").arg(streamId).arg(read.int64(0)),
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
        records.append(r);
    }
    return records;
}

// Writes one stream as a room: the records that are new since the last sync, and everything derived. A stream never
// imported before shows its first records while the rest is assembled: they are written first, as a sync of the
// stream's beginning would write them, and the whole stream then as the next sync.
void CraftBotReader::read(const RoomCursor& cursor, RoomFeed& feed)
{
    const SourceNotes notes = [&feed](const QString& place, const QString& problem) { feed.note(place, problem); };
    const QVector<EventMdRecord> records = m_db ? streamRecords(cursor.nativeId, notes) : m_file.records;
    const QString where
        = m_db ? QStringLiteral("stream %1").arg(cursor.nativeId) : QFileInfo(m_path).fileName();
    constexpr qsizetype head = ImportWriter::FirstBatchRows;
    if (cursor.syncedSeq < 0 && records.size() > 2 * head) {
        write(records.mid(0, head), where, feed);
        if (feed.stopped())
            return;
        feed.checkpoint(head - 1);
    }
    write(records, where, feed);
}

void CraftBotReader::write(const QVector<EventMdRecord>& records, const QString& where, RoomFeed& feed)
{
    const CraftBotAssembly assembly = CraftBotAssembler::assemble(records);
    for (const auto& [index, problem] : assembly.problems) {
        if (index > feed.room().syncedSeq) {
            const qint64 line = records[index].firstLine;
            feed.note(line > 0 ? QStringLiteral("%1 line %2").arg(where).arg(line)
                               : QStringLiteral("%1 position %2").arg(where).arg(index),
                problem);
        }
    }
    // The rows new since the cursor added; those stored before compared and rewritten where what completes them
    // arrived since (an action's end, the task that names its rows).
    feed.addAfterCursor(assembly.rows);
    feed.replaceCalls(assembly.calls);
    feed.replaceRuns(assembly.runs);
    if (!feed.stopped())
        feed.setSynced(records.size() - 1);
}
