#include "sightlinejsonlreader.h"

#include "../annotationstore.h"
#include "../recordfields.h"
#include "../storeerror.h"
#include "roomfeed.h"

#include <algorithm>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

namespace {

constexpr char Format[] = "sightline.report.jsonl";

// The line's kind, read from its text: every line is one flat object whose string values have their quotes
// escaped, so the key "record" with its value can only be the key itself.
QByteArray recordOf(const QByteArray& line)
{
    const qsizetype at = line.indexOf("\"record\":\"");
    if (at < 0)
        return {};
    const qsizetype start = at + 10;
    const qsizetype end = line.indexOf('"', start);
    return end < 0 ? QByteArray() : line.mid(start, end - start);
}

qint64 indexOf(const QByteArray& line)
{
    const qsizetype at = line.indexOf("\"index\":");
    if (at < 0)
        return -1;
    qsizetype end = at + 8;
    while (end < line.size() && (std::isdigit(static_cast<unsigned char>(line[end])) || line[end] == '-'))
        ++end;
    return line.mid(at + 8, end - at - 8).toLongLong();
}

QString str(const QJsonObject& o, const char* key)
{
    return o.value(QLatin1String(key)).toString();
}

std::optional<qint64> num(const QJsonObject& o, const char* key)
{
    const QJsonValue v = o.value(QLatin1String(key));
    return v.isDouble() ? std::optional<qint64>(v.toInteger()) : std::nullopt;
}

bool isHeader(const QByteArray& line)
{
    const QJsonObject o = QJsonDocument::fromJson(line).object();
    return str(o, "record") == QLatin1String("report") && str(o, "format") == QLatin1String(Format);
}

StoredEvent eventOf(const QJsonObject& o)
{
    StoredEvent e;
    EventRecord& r = e.record;
    FieldTable::readJson(o, r, RecordFields::events());
    e.payload = o.contains(QLatin1String("payload_base64"))
        ? QByteArray::fromBase64(str(o, "payload_base64").toLatin1())
        : str(o, "payload").toUtf8();
    e.body = str(o, "search_body");
    e.arguments = str(o, "search_arguments");
    e.result = str(o, "search_result");
    return e;
}

ToolCallRecord callOf(const QJsonObject& o)
{
    ToolCallRecord c;
    FieldTable::readJson(o, c, RecordFields::calls());
    return c;
}

RunRecord runOf(const QJsonObject& o)
{
    RunRecord r;
    FieldTable::readJson(o, r, RecordFields::runs());
    return r;
}

} // namespace

SightlineJsonlReader::SightlineJsonlReader(const QString& path)
    : m_path(path)
    , m_file(path)
{
    if (!m_file.open(QIODevice::ReadOnly))
        throw StoreError(path, {}, QStringLiteral("cannot read: ") + m_file.errorString());
    if (!isHeader(m_file.readLine(1 << 20)))
        throw StoreError(path, QStringLiteral("line 1"), QStringLiteral("not a Sightline JSON Lines report: no header line"));
}

bool SightlineJsonlReader::detect(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) && isHeader(file.readLine(1 << 20));
}

QString SightlineJsonlReader::origin() const
{
    return QFileInfo(m_path).canonicalFilePath();
}

SourceIdentity SightlineJsonlReader::identity() const
{
    return { QStringLiteral("sightline"), QLatin1String(Format), QStringLiteral("1") };
}

QVector<RoomInfo> SightlineJsonlReader::rooms(const SourceNotes& notes)
{
    m_order.clear();
    m_rooms.clear();
    QVector<RoomInfo> rooms;
    m_file.seek(0);
    qint64 lineNumber = 0;
    Room* current = nullptr;
    while (!m_file.atEnd()) {
        const qint64 offset = m_file.pos();
        const QByteArray line = m_file.readLine();
        ++lineNumber;
        const QByteArray record = recordOf(line);
        if (record == "event") {
            if (current)
                current->indexes.append(indexOf(line));
            continue;
        }
        if (record != "room")
            continue;
        QJsonParseError error;
        const QJsonObject o = QJsonDocument::fromJson(line, &error).object();
        if (error.error != QJsonParseError::NoError) {
            notes(QStringLiteral("line %1").arg(lineNumber),
                QStringLiteral("malformed JSON at byte %1: %2").arg(error.offset).arg(error.errorString()));
            current = nullptr;
            continue;
        }
        RoomInfo room;
        room.nativeId = str(o, "room");
        room.title = str(o, "title");
        room.status = str(o, "status");
        room.organizationId = str(o, "organization_id");
        room.owner = str(o, "owner");
        room.agentId = str(o, "agent_id");
        room.summary = str(o, "summary");
        room.createdMicros = num(o, "created_us").value_or(0);
        room.updatedMicros = num(o, "updated_us").value_or(0);
        if (o.value(QLatin1String("native_json")).isString())
            room.nativeJson = str(o, "native_json").toUtf8();
        if (o.value(QLatin1String("details_json")).isString())
            room.detailsJson = str(o, "details_json").toUtf8();
        if (m_rooms.contains(room.nativeId)) {
            notes(QStringLiteral("line %1").arg(lineNumber),
                QStringLiteral("room %1 appears a second time: only its first part is read").arg(room.nativeId));
            current = nullptr;
            continue;
        }
        m_order.append(room.nativeId);
        current = &m_rooms[room.nativeId];
        current->offset = offset;
        current->line = lineNumber;
        rooms.append(room);
    }
    return rooms;
}

qint64 SightlineJsonlReader::rowsAfter(const RoomCursor& cursor)
{
    const Room room = m_rooms.value(cursor.nativeId);
    return room.indexes.cend() - std::upper_bound(room.indexes.cbegin(), room.indexes.cend(), cursor.syncedSeq);
}

void SightlineJsonlReader::read(const RoomCursor& cursor, RoomFeed& feed)
{
    const auto at = m_rooms.constFind(cursor.nativeId);
    if (at == m_rooms.constEnd())
        return;
    // The calls and runs are written again whole, whatever rows are new: a run killed while writing them is made
    // good by the next one.
    feed.replaceCalls({});
    feed.replaceRuns({});
    m_file.seek(at->offset);
    m_file.readLine(); // the room line
    qint64 synced = cursor.syncedSeq;
    qint64 lineNumber = at->line;
    const QString file = QFileInfo(m_path).fileName();
    // A line that is not JSON (cut short, or changed by hand) is named and left out; the rest is read.
    auto parse = [&](const QByteArray& line, QJsonObject& into) {
        QJsonParseError error;
        into = QJsonDocument::fromJson(line, &error).object();
        if (error.error == QJsonParseError::NoError)
            return true;
        feed.note(file + QStringLiteral(" line ") + QString::number(lineNumber),
            QStringLiteral("malformed JSON at byte ") + QString::number(error.offset) + QStringLiteral(": ")
                + error.errorString() + QStringLiteral(" (left out)"));
        return false;
    };
    // An event needs its index and its type; an index the room had already is the same event twice. Each is named
    // and left out, never dropped without a word (the workspace keeps one row an index).
    QHash<qint64, qint64> seen; // index -> the line that gave it first
    auto usable = [&](const QJsonObject& o) {
        const QString place = file + QStringLiteral(" line ") + QString::number(lineNumber);
        const std::optional<qint64> index = num(o, "index");
        if (!index) {
            feed.note(place, QStringLiteral("an event without an \"index\" (left out)"));
            return false;
        }
        if (str(o, "type").isEmpty()) {
            feed.note(place, QStringLiteral("event ") + QString::number(*index) + QStringLiteral(" has no \"type\" (left out)"));
            return false;
        }
        if (const auto first = seen.constFind(*index); first != seen.constEnd()) {
            feed.note(place,
                QStringLiteral("event ") + QString::number(*index) + QStringLiteral(" appears a second time (first at line ")
                    + QString::number(*first) + QStringLiteral("): this one is left out"));
            return false;
        }
        seen.insert(*index, lineNumber);
        return true;
    };
    // The review the report kept (notes, labels, marks, the review status, the journal): put back once the rows are in,
    // in the room's last transaction. A kill before it loses nothing: every import reads each room again (this runs
    // when no row is new too) and restore adds nothing twice (tst_reports kills the import and runs it again).
    Annotations annotations;
    JournalEntries journal;
    auto text = [](const QJsonObject& o, const char* key) {
        const QJsonValue v = o.value(QLatin1String(key));
        return v.isString() ? v.toString() : QString();
    };
    ToolCallRecords calls;
    auto flush = [&] {
        feed.addCalls(calls);
        calls.clear();
    };
    while (!m_file.atEnd()) {
        const QByteArray line = m_file.readLine();
        ++lineNumber;
        const QByteArray record = recordOf(line);
        if (record == "room" || record == "report")
            break;
        QJsonObject o;
        if (record == "event") {
            if (feed.stopped())
                return; // the cursor stays where the rows written end
            if (indexOf(line) <= cursor.syncedSeq && line.contains("\"index\":"))
                continue;
            if (!parse(line, o) || !usable(o))
                continue;
            const StoredEvent row = eventOf(o);
            feed.add(row);
            synced = std::max(synced, row.record.index);
        } else if (record == "call") {
            if (!parse(line, o))
                continue;
            calls.append(callOf(o));
            if (calls.size() >= 1000)
                flush();
        } else if (record == "run") {
            if (parse(line, o))
                feed.writeRun(runOf(o), 0);
        } else if (record == "annotation") {
            if (!parse(line, o))
                continue;
            const std::optional<Annotation::Kind> kind = Annotation::kindFromName(str(o, "kind"));
            if (!kind) {
                feed.note(file + QStringLiteral(" line ") + QString::number(lineNumber),
                    QStringLiteral("an annotation of an unknown kind \"%1\" (left out)").arg(str(o, "kind")));
                continue;
            }
            Annotation a;
            a.kind = *kind;
            a.index = num(o, "index");
            a.value = text(o, "value");
            a.author = str(o, "author");
            a.atMs = num(o, "at_ms").value_or(0);
            a.detached = o.value(QLatin1String("detached")).toBool();
            annotations.append(a);
        } else if (record == "journal") {
            if (!parse(line, o))
                continue;
            JournalEntry j;
            j.index = num(o, "index");
            j.action = str(o, "action");
            j.author = str(o, "author");
            j.atMs = num(o, "at_ms").value_or(0);
            j.before = text(o, "before");
            j.after = text(o, "after");
            journal.append(j);
        } else if (record.isEmpty() && !line.trimmed().isEmpty()) {
            parse(line, o); // says why, when it is not JSON at all
        }
    }
    flush();
    if (!annotations.isEmpty() || !journal.isEmpty())
        AnnotationStore(feed.workspace()).restore(feed.room().id, annotations, journal);
    feed.setSynced(synced);
}
