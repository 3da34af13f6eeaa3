#include "craftbotreader.h"

#include "../eventflags.h"
#include "../eventkind.h"
#include "../sqlitestatement.h"
#include "../storeerror.h"
#include "../timeutil.h"
#include "../workspace.h"
#include "craftbotaction.h"
#include "craftbotassembler.h"
#include "eventmdparser.h"
#include "filetail.h"
#include "roomfeed.h"
#include "rowpipe.h"
#include "sourcedatabase.h"

#include <QCryptographicHash>
#include <QMutex>
#include <atomic>
#include <memory>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlQuery>

// How far an EVENT.md's shape was taken in this process: every record's, where the last record starts (CraftBot may
// still be writing it: a record runs on over the lines up to the next), and a hash of the bytes before. The next read
// of the file, once it has only grown, drops the last record and takes the shape on from its start.
struct CraftBotReader::ReadPosition
{
    QString path;
    // Finished: what the rows were made with, when they were written. The next read of the file takes its records
    // on (CraftBotShape::takeUnfinished) when it holds it alone, and compares its rows with what is left.
    std::shared_ptr<CraftBotShape> shape;
    qint64 offset = 0;
    qint64 lineBase = 0; // the lines before the offset
    QByteArray tail;
    // Where its last records start (offset, first line), the last one last: the rows of the next read are made
    // from the first one whose task, call or flags changed, when that is among them.
    QVector<std::pair<qint64, qint64>> starts;
    // The rows that read wrote with the shape: the room (in the workspace at that path) and its cursor after. None
    // when the read stopped short.
    QString workspace;
    qint64 roomId = 0;
    qint64 synced = -1;
    bool written = false;
};
constexpr qsizetype KeptStarts = 4096;

namespace {

// A record read, its action parsed, on the import's reading thread (CraftBotReader::shapeOf).
struct ShapeRecord
{
    EventMdRecord record;
    qint64 offset = 0;
    CraftBotAction action;
};

// A record made its row on the import's reading thread (CraftBotReader::read), with what is wrong with it.
struct ReadRow
{
    StoredEvent row;
    QStringList problems;
    qint64 firstLine = 0;
};

QString storedPrint(const QByteArray& nativeJson)
{
    return QJsonDocument::fromJson(nativeJson).object().value(QLatin1String("first_record_sha1")).toString();
}



QMutex positionsMutex;
using ReadPosition = CraftBotReader::ReadPosition;
QList<std::shared_ptr<const ReadPosition>> positions; // most recent first: a few files' shapes
constexpr int KeptPositions = 2;
std::atomic<int> resumedCount { 0 };
std::atomic<int> rowsResumedCount { 0 };

std::shared_ptr<const ReadPosition> positionOf(const QString& path)
{
    QMutexLocker lock(&positionsMutex);
    for (const auto& p : std::as_const(positions)) {
        if (p->path == path)
            return p;
    }
    return {};
}

// The same, taken out of the list: no other read finds it from now on (keepPosition puts the next one back).
std::shared_ptr<const ReadPosition> takePosition(const QString& path)
{
    QMutexLocker lock(&positionsMutex);
    for (qsizetype k = 0; k < positions.size(); ++k) {
        if (positions[k]->path == path)
            return positions.takeAt(k);
    }
    return {};
}

void keepPosition(std::shared_ptr<const ReadPosition> next)
{
    QMutexLocker lock(&positionsMutex);
    for (qsizetype k = 0; k < positions.size(); ++k) {
        if (positions[k]->path == next->path) {
            positions.removeAt(k);
            break;
        }
    }
    positions.prepend(std::move(next));
    while (positions.size() > KeptPositions)
        positions.removeLast();
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
    // Only the head is read here: the header and the first record, which identify the file.
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw StoreError(path, {}, QStringLiteral("cannot read: ") + file.errorString());
    EventMdParser::forEachRecord(
        file,
        [this](EventMdRecord&& record, qint64) {
            m_firstRecord = record.raw;
            m_firstMicros = record.micros;
            return false;
        },
        &m_header);
}

int CraftBotReader::resumedReads()
{
    return resumedCount.load();
}

int CraftBotReader::rowsResumed()
{
    return rowsResumedCount.load();
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
        room.createdMicros = m_firstMicros;
        room.file = m_path;
        // The first record identifies the file: when it changed, rotation (or a rewrite) replaced the start of the
        // log, and the indices of the old import no longer mean the same records.
        room.nativeJson = QJsonDocument(QJsonObject { { QStringLiteral("first_record_sha1"),
                                                          QString::fromLatin1(m_firstRecord.isEmpty() ? QByteArray()
                                                                  : QCryptographicHash::hash(m_firstRecord,
                                                                      QCryptographicHash::Sha1)
                                                                        .toHex()) },
                                            { QStringLiteral("header"), m_header } })
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
    if (!m_db) {
        if (m_records < 0)
            m_records = countRecords();
        return std::max<qint64>(0, m_records - 1 - cursor.syncedSeq);
    }
    SqliteStatement count(m_db->handle(), "SELECT count(*) FROM event_records WHERE stream_id = ?");
    count.bind(1, cursor.nativeId);
    count.step();
    return std::max<qint64>(0, count.int64(0) - 1 - cursor.syncedSeq);
}

qint64 CraftBotReader::countRecords() const
{
    QFile file(m_path);
    if (!file.open(QIODevice::ReadOnly))
        return 0;
    // A followed log is counted on from the last record the last read took: a sync sizes its progress by what is
    // new, not by scanning a log of a gigabyte twice a second.
    const std::shared_ptr<const ReadPosition> before = positionOf(QFileInfo(m_path).absoluteFilePath());
    if (before && before->shape->size() > 0 && FileTail::onlyGrew(file, before->offset, before->tail)) {
        file.seek(before->offset);
        const qint64 more = EventMdParser::countRecords(file);
        if (more > 0)
            return before->shape->size() - 1 + more;
    }
    file.seek(0);
    return EventMdParser::countRecords(file);
}

bool CraftBotReader::forEachRecord(
    const QString& streamId, const RecordTaker& take, const SourceNotes* notes, qint64 offset, qint64 line)
{
    if (!m_db) {
        QFile file(m_path);
        if (!file.open(QIODevice::ReadOnly))
            throw StoreError(m_path, {}, QStringLiteral("cannot read: ") + file.errorString());
        file.seek(offset);
        return EventMdParser::forEachRecord(file, take, nullptr, line);
    }
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
            if (notes) {
                (*notes)(QStringLiteral("stream %1 position %2").arg(streamId, QString::number(read.int64(0))),
                    QStringLiteral("malformed event JSON at byte %1: %2").arg(error.offset).arg(error.errorString()));
            }
            r.flags |= EventFlags::MalformedJson;
            r.kind = QStringLiteral("(malformed)");
        }
        r.kind = event.value(QLatin1String("kind")).toString(r.kind);
        r.message = event.value(QLatin1String("message")).toString();
        r.severity = event.value(QLatin1String("severity")).toString();
        r.displayMessage = event.value(QLatin1String("display_message")).toString();
        const QString ts = event.value(QLatin1String("ts")).toString(record.value(QLatin1String("ts")).toString());
        r.micros = TimeUtil::parseIsoToMicros(ts).value_or(0);
        if (!take(std::move(r), 0))
            return false;
    }
    return true;
}

std::shared_ptr<const CraftBotShape> CraftBotReader::shapeOf(RoomFeed& feed, const SourceNotes& notes)
{
    const RoomCursor& cursor = feed.room();
    const QString workspace = feed.workspace().path();
    m_rowsFrom = RowsFrom();
    m_position.reset();
    if (m_db) {
        auto shape = std::make_shared<CraftBotShape>();
        forEachRecord(
            cursor.nativeId,
            [&shape](EventMdRecord&& r, qint64) {
                shape->take(r);
                return true;
            },
            &notes);
        shape->finish();
        return shape;
    }
    // An EVENT.md: on from the last record the last read of it in this process took, when the file only grew.
    const QString path = QFileInfo(m_path).absoluteFilePath();
    QFile file(m_path);
    if (!file.open(QIODevice::ReadOnly))
        throw StoreError(m_path, {}, QStringLiteral("cannot read: ") + file.errorString());
    auto next = std::make_shared<ReadPosition>();
    next->path = path;
    CraftBotShape shape;
    const auto taker = [&](EventMdRecord&& r, qint64 offset, const CraftBotAction* action = nullptr) {
        shape.take(r, action);
        next->starts.append({ offset, r.firstLine });
        if (next->starts.size() > 2 * KeptStarts)
            next->starts.remove(0, next->starts.size() - KeptStarts);
        return true;
    };
    const std::shared_ptr<const ReadPosition> before = takePosition(path);
    const qint64 beforeSize = before ? before->shape->size() : 0;
    bool resumed = false;
    qint64 kept = 0;
    if (before && beforeSize > 0 && FileTail::onlyGrew(file, before->offset, before->tail)) {
        // The last record is read again: its writer may have gone on with it. A shape nothing else holds gives its
        // records on (copying a million took a sixth of a sync); one another read holds is copied.
        shape = before.use_count() == 1 && before->shape.use_count() == 1 ? before->shape->takeUnfinished()
                                                                           : before->shape->unfinished();
        shape.dropLast();
        next->starts = before->starts;
        next->starts.removeLast();
        kept = shape.size();
        file.seek(before->offset);
        bool fromARecord = true;
        EventMdParser::forEachRecord(
            file,
            [&](EventMdRecord&& r, qint64 offset) {
                // From a record's start, as it was: anything else (a partial record first) is not the file read
                // before.
                if (shape.size() == kept && r.partial) {
                    fromARecord = false;
                    return false;
                }
                return taker(std::move(r), offset);
            },
            nullptr, before->lineBase + 1);
        resumed = fromARecord && shape.size() > kept;
        if (resumed)
            resumedCount.fetch_add(1);
    }
    if (!resumed) {
        shape = CraftBotShape();
        next->starts.clear();
        if (m_records > 0)
            shape.reserve(m_records); // counted for the import's progress
        // As much work as the rows it comes before: the progress bar sat at its start for the 15 s a million records
        // take, and a cancel waited for the pass to end.
        constexpr qint64 part = 8192;
        feed.addWork(std::max<qint64>(m_records, 0));
        qint64 taken = 0;
        qint64 reported = 0;
        file.seek(0);
        // The records are read and their actions parsed (a JSON parse each, most of the pass) on the pipe's thread.
        bool whole = true;
        bool readAll = false;
        {
            RowPipe<ShapeRecord> records([&](auto&& put) {
                readAll = EventMdParser::forEachRecord(file, [&](EventMdRecord&& r, qint64 offset) {
                    ShapeRecord read { std::move(r), offset, {} };
                    if (!read.record.partial)
                        read.action = CraftBotAction::parse(read.record.kind, read.record.message);
                    return put(std::move(read));
                });
            });
            while (ShapeRecord* read = records.next()) {
                if (++taken % part == 0) {
                    const qint64 units = std::clamp<qint64>(m_records - reported, 0, part);
                    reported += units;
                    if (!feed.readDone(units)) {
                        whole = false;
                        break;
                    }
                }
                taker(std::move(read->record), read->offset, &read->action);
            }
        }
        if (!whole || !readAll)
            return nullptr;
        feed.readDone(std::max<qint64>(0, m_records - reported));
    }
    if (next->starts.size() > KeptStarts)
        next->starts.remove(0, next->starts.size() - KeptStarts);
    // Kept whole, its last record dropped when the next read goes on from where it starts.
    next->offset = next->starts.isEmpty() ? 0 : next->starts.constLast().first;
    next->lineBase = next->starts.isEmpty() ? 0 : next->starts.constLast().second - 1;
    next->tail = FileTail::hashBefore(file, next->offset);
    // One shape, finished, kept for the next read and for comparing the rows it makes with: a million records are
    // not copied at each sync.
    const auto finished = std::make_shared<CraftBotShape>(std::move(shape));
    finished->finish();
    const CraftBotShape& out = *finished;
    next->shape = finished;
    m_records = out.size();
    m_position = next;
    // The rows this room holds from the last read in this process are made the same way up to the first whose task,
    // call or flags the new records changed: the rows are made from there, when its start is known.
    if (resumed && before->written && before->roomId == cursor.id && before->synced == cursor.syncedSeq
        && before->workspace == workspace && beforeSize == kept + 1) {
        qint64 from = 0;
        while (from < kept && out.agrees(*before->shape, from))
            ++from;
        const qint64 firstKnown = out.size() - next->starts.size();
        if (from > 0 && from >= firstKnown) {
            m_rowsFrom.index = from;
            m_rowsFrom.offset = next->starts[from - firstKnown].first;
            m_rowsFrom.line = next->starts[from - firstKnown].second;
            m_rowsFrom.tail = FileTail::hashBefore(file, m_rowsFrom.offset);
        }
    }
    return finished;
}

// Writes one stream as a room: its rows (the new ones added, those the room holds compared), its calls as their rows
// go by, and its tasks. A stream never imported before shows its first records while the rest is read: they are
// written first, as a sync of the stream's beginning would write them, and the whole stream then as the next sync.
void CraftBotReader::read(const RoomCursor& cursor, RoomFeed& feed)
{
    const SourceNotes notes = [&feed](const QString& place, const QString& problem) { feed.note(place, problem); };
    const QString where = m_db ? QStringLiteral("stream %1").arg(cursor.nativeId) : QFileInfo(m_path).fileName();
    // The file is read more than once (its head when it was opened, then its first records, its shape and its rows):
    // one rotated in between is not the file this room was matched with, and nothing of it is written. Its first
    // record may only have grown.
    bool rotated = false;
    const auto sameFile = [&](const EventMdRecord& first) {
        rotated = rotated || (!m_db && !first.raw.startsWith(m_firstRecord));
        return !rotated;
    };
    const auto saidRotated = [&] {
        feed.note(where, QStringLiteral("the log was rotated while it was read: it is read again at the next sync"));
    };
    constexpr qsizetype head = ImportWriter::FirstBatchRows;
    if (cursor.syncedSeq < 0) {
        QVector<EventMdRecord> first;
        const bool whole = forEachRecord(
            cursor.nativeId,
            [&](EventMdRecord&& r, qint64) {
                if (first.isEmpty() && !sameFile(r))
                    return false;
                first.append(std::move(r));
                return first.size() <= 2 * head;
            },
            nullptr);
        if (rotated) {
            saidRotated();
            return;
        }
        if (!whole) {
            first.resize(head);
            writeWhole(first, where, feed);
            if (feed.stopped())
                return;
            feed.checkpoint(head - 1);
        }
    }

    const std::shared_ptr<const CraftBotShape> shaped = shapeOf(feed, notes);
    if (!shaped)
        return; // cancelled: what was written stays, the next sync reads on from it
    const CraftBotShape& shape = *shaped;
    CraftBotAssembler assembler(shape);
    const qint64 reported = feed.room().syncedSeq; // problems are said once, for the records new to the room
    const RowsFrom from = m_rowsFrom;
    if (from.index > 0) {
        QFile file(m_path);
        rotated = !file.open(QIODevice::ReadOnly) || !FileTail::onlyGrew(file, from.offset, from.tail);
        if (rotated) {
            saidRotated();
            return;
        }
        // The calls with a row from there on are written again as their rows go by; those open across it take
        // their arguments from the row of their start.
        rowsResumedCount.fetch_add(1);
        feed.deleteCallsFrom(from.index);
        assembler.startAt(from.index, [&feed](qint64 row) { return feed.storedRows(row, row).value(0).arguments; });
    }
    // The records are read and made rows (their actions parsed: a fifth of the import) on the pipe's thread, ahead of
    // this one, which settles each row's part in its call and writes it, in order. The pipe's thread stops before
    // anything it reads (`rotated` too) is read here.
    qint64 index = from.index;
    {
        qint64 reading = from.index;
        RowPipe<ReadRow> rows([&](auto&& put) {
            TextPacker packer(nullptr); // the payloads are packed here, beside the writer: its thread is the import's pace
            forEachRecord(
                cursor.nativeId,
                [&](EventMdRecord&& record, qint64) {
                    // What was written since the first pass is for the next sync: the shape says nothing of it.
                    if (reading >= shape.size() || (reading == 0 && !sameFile(record)))
                        return false;
                    ReadRow r;
                    r.firstLine = record.firstLine;
                    r.row = CraftBotAssembler::rowAlone(shape, record, reading, &r.problems);
                    r.row.preparePayload(packer);
                    ++reading;
                    return put(std::move(r));
                },
                nullptr, from.offset, from.line);
        });
        while (!feed.stopped()) {
            ReadRow* next = rows.next();
            if (!next)
                break;
            if (index == 0)
                feed.deleteCalls(); // written again as their rows go by, in the transactions of their rows
            if (index > reported) {
                // The log's last record may be one CraftBot is still writing (its value's closing lines to come):
                // said as a log being written is, in the status bar and not in a box, and read again when it grows.
                const bool last = !m_db && index == shape.size() - 1;
                for (const QString& p : std::as_const(next->problems))
                    feed.note(next->firstLine > 0 ? QStringLiteral("%1 line %2").arg(where, QString::number(next->firstLine))
                                                  : QStringLiteral("%1 position %2").arg(where, QString::number(index)),
                        last ? ImportReport::UnfinishedLastLine
                                + QStringLiteral(" (its record cut short, or still being written, when it is read again "
                                                 "whole): ")
                                + p
                             : p);
            }
            assembler.settle(next->row);
            feed.place(next->row);
            // A call goes in once its rows have: with them, or in a later transaction, never before.
            feed.addCalls(assembler.takeCalls());
            ++index;
        }
    }
    feed.flushHeld();
    if (rotated) {
        saidRotated();
        return; // nothing of it written: the room stays as it was
    }
    if (feed.stopped()) {
        // The calls whose end the room does not hold yet are open there.
        feed.addCalls(assembler.takeStarted());
    }
    feed.replaceRuns(shape.runs());
    if (!feed.stopped())
        feed.setSynced(index - 1);
    if (m_position) {
        // What the next read of the file in this process goes on from; the rows only when all of them were written.
        if (!feed.stopped()) {
            m_position->workspace = feed.workspace().path();
            m_position->roomId = feed.room().id;
            m_position->synced = feed.synced();
            m_position->written = true;
        }
        keepPosition(std::move(m_position));
    }
}

void CraftBotReader::writeWhole(const QVector<EventMdRecord>& records, const QString& where, RoomFeed& feed)
{
    const CraftBotAssembly assembly = CraftBotAssembler::assemble(records);
    for (const auto& [index, problem] : assembly.problems) {
        if (index > feed.room().syncedSeq) {
            const qint64 line = records[index].firstLine;
            feed.note(line > 0 ? QStringLiteral("%1 line %2").arg(where, QString::number(line))
                               : QStringLiteral("%1 position %2").arg(where, QString::number(index)),
                problem);
        }
    }
    feed.addAfterCursor(assembly.rows);
    feed.replaceCalls(assembly.calls);
    feed.replaceRuns(assembly.runs);
}
