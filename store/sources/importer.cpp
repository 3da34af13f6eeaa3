#include "importer.h"

#include "../roommatch.h"
#include "../sqlitestatement.h"
#include "../schema.h"
#include "../storeerror.h"
#include "../workspace.h"
#include "aguilogparser.h"
#include "aguireader.h"
#include "craftbotreader.h"
#include "eventmdparser.h"
#include "filetail.h"
#include "importlock.h"
#include "kaboopgreader.h"
#include "pgconnection.h"
#include "roomcounts.h"
#include "roomfeed.h"
#include "roomkitpgreader.h"
#include "roomkitreader.h"
#include "sightlinejsonlreader.h"
#include "sourcedatabase.h"

#include <algorithm>
#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSqlQuery>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSet>
#include <QStandardPaths>
#include <QtEndian>

namespace Importer {

Format detect(const QString& path)
{
    if (PgConnection::isUri(path))
        return Format::Postgres;
    if (QFileInfo(path).isDir())
        return AguiReader::detect(path) ? Format::AguiJsonl : Format::Unknown;
    // Opening a pipe for reading waits for a writer, and a device never ends: neither is a source.
    if (!QFileInfo(path).isFile())
        return Format::Unknown;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Format::Unknown;
    const QByteArray header = file.read(100);
    if (header.size() == 100 && header.startsWith(QByteArrayLiteral("SQLite format 3\0"))) {
        // PRAGMA application_id lives at byte 68 of the header: no need to open the file to see ours.
        if (qFromBigEndian<qint32>(header.constData() + 68) == Schema::ApplicationId)
            return Format::Workspace;
        // A workspace made a moment ago (an import into it has just begun) has its first page, the id in it, in
        // its -wal file until a checkpoint: asked of SQLite, it is a workspace, not "not a RoomKit store".
        if (QFileInfo::exists(path + QStringLiteral("-wal"))) {
            try {
                if (SourceDatabase(path).applicationId() == Schema::ApplicationId)
                    return Format::Workspace;
            } catch (const StoreError&) {
            }
        }
        if (RoomKitReader::detect(path))
            return Format::RoomKitSqlite;
        if (CraftBotReader::detectSessionsDb(path))
            return Format::CraftBotSessions;
        return Format::Unknown;
    }
    if (SightlineJsonlReader::detect(path))
        return Format::SightlineJsonl;
    if (EventMdParser::looksLikeEventMd(header + file.read(8192 - header.size())))
        return Format::CraftBotEventMd;
    file.seek(header.size());
    if (AguiLogParser::looksLikeAgui(header + file.read(65536 - header.size())))
        return Format::AguiJsonl;
    return Format::Unknown;
}

QString formatName(Format format)
{
    switch (format) {
    case Format::Workspace:
        return QStringLiteral("workspace");
    case Format::RoomKitSqlite:
        return QStringLiteral("roomkit");
    case Format::AguiJsonl:
        return QStringLiteral("agui");
    case Format::CraftBotEventMd:
        return QStringLiteral("craftbot");
    case Format::CraftBotSessions:
        return QStringLiteral("craftbot-sessions");
    case Format::SightlineJsonl:
        return QStringLiteral("sightline-jsonl");
    case Format::Postgres:
        return QStringLiteral("postgres");
    case Format::Unknown:
        break;
    }
    return QStringLiteral("unknown");
}

Format parseFormat(const QString& name)
{
    for (Format f : { Format::Workspace, Format::RoomKitSqlite, Format::AguiJsonl, Format::CraftBotEventMd,
             Format::CraftBotSessions, Format::SightlineJsonl, Format::Postgres }) {
        if (formatName(f) == name)
            return f;
    }
    return Format::Unknown;
}

namespace {

// Connects, and reads the store the database holds.
std::unique_ptr<SourceReader> openDatabase(const QString& uri, PgSessions* sessions)
{
    auto connection = std::make_unique<PgConnection>(uri, sessions);
    if (RoomKitPgReader::holds(*connection))
        return std::make_unique<RoomKitPgReader>(std::move(connection));
    if (KabooPgReader::holds(*connection))
        return std::make_unique<KabooPgReader>(std::move(connection));
    throw StoreError(connection->origin(), {},
        QStringLiteral("database \"%1\" holds no store Sightline reads: neither RoomKit's (tables rooms and "
                       "events) nor kaboo-runtime's (kaboo_threads and kaboo_thread_events)")
            .arg(connection->databaseName()));
}

} // namespace

std::unique_ptr<SourceReader> open(const QString& path, Format format, PgSessions* sessions)
{
    if (PgConnection::isUri(path))
        return openDatabase(path, sessions);
    if (!QFileInfo::exists(path))
        throw StoreError(path, {}, QStringLiteral("no such file"));
    if (!QFileInfo(path).isFile() && !QFileInfo(path).isDir())
        throw notAFile(path);
    if (format == Format::Unknown)
        format = detect(path);
    switch (format) {
    case Format::RoomKitSqlite:
        return std::make_unique<RoomKitReader>(path);
    case Format::AguiJsonl:
        return std::make_unique<AguiReader>(path);
    case Format::CraftBotEventMd:
    case Format::CraftBotSessions:
        return std::make_unique<CraftBotReader>(path);
    case Format::SightlineJsonl:
        return std::make_unique<SightlineJsonlReader>(path);
    case Format::Workspace:
        throw StoreError(path, {}, QStringLiteral("is a Sightline workspace: open it, there is nothing to import"));
    case Format::Postgres: // a URI, opened above
    case Format::Unknown:
        break;
    }
    throw unsupported(path);
}

namespace {

// The format the workspace recorded for a log it synced before: a log caught empty or cut in its first record by its
// writer (CraftBot's rotation truncates the file and writes it again) is not told by its content for that moment.
Format recordedFormat(Workspace& workspace, const QString& path)
{
    QSqlQuery q = workspace.exec(QStringLiteral("SELECT format FROM sources WHERE origin = ?"),
        { QFileInfo(path).canonicalFilePath() });
    const QString format = q.next() ? q.value(0).toString() : QString();
    if (format == QLatin1String("craftbot.event_md"))
        return Format::CraftBotEventMd;
    if (format == QLatin1String("agui.jsonl"))
        return Format::AguiJsonl;
    return Format::Unknown;
}

} // namespace

ImportReport import(Workspace& workspace, const QString& path, const ImportOptions& options, Format format)
{
    if (format == Format::Unknown && QFileInfo(path).isFile()) {
        format = detect(path);
        if (format == Format::Unknown)
            format = recordedFormat(workspace, path);
    }
    const std::unique_ptr<SourceReader> reader = open(path, format, options.pgSessions);
    const ImportLock lock(workspace.path());
    // A database is named without its password in every problem listed.
    return run(workspace, *reader, PgConnection::isUri(path) ? reader->origin() : path, options);
}

ImportReport run(Workspace& ws, SourceReader& reader, const QString& sourcePath, const ImportOptions& options)
{
    const SourceIdentity identity = reader.identity();
    ImportReport report;
    report.format = identity.format;
    ImportWriter writer(ws, sourcePath, reader.origin(), options, report);
    const SourceNotes notes = [&writer](const QString& place, const QString& problem) { writer.note(place, problem); };
    QVector<RoomCursor> rooms;
    QHash<qint64, qint64> rows;
    // The rooms to read: every one, or those a command named (an id, or a part of it that one room's id alone holds).
    QSet<qint64> inScope;
    const auto readNow = [&](const RoomCursor& room) { return !options.onlyRooms || inScope.contains(room.id); };
    qint64 sourceId = 0;
    bool countApart = false; // the exact counts taken while the rooms are read (RoomCounts)
    writer.transaction([&] {
        sourceId = writer.upsertSource(identity.system, identity.format, identity.schemaVersion);
        for (const RoomInfo& room : reader.rooms(notes)) {
            const auto stored = writer.storedRoom(sourceId, room.nativeId);
            // Read again from the start: a log rotated or rewritten, a store replaced at its path (another file there:
            // its mark; the same file written anew: the row read last is another row now).
            if (stored
                && (reader.replacedSince(room, stored->nativeJson) || !FileTail::onlyGrewSince(room.file, stored->fileMark)
                    || (room.file.isEmpty() && !room.mark.isEmpty() && !stored->fileMark.isEmpty() && room.mark != stored->fileMark)
                    || (stored->syncedSeq >= 0 && reader.cursorRowChanged(room, stored->syncedSeq, stored->cursorId)))) {
                writer.note(QString(),
                    QStringLiteral("room %1 was rotated or rewritten since the last import: its rows were read "
                                   "again from the start")
                        .arg(room.nativeId));
                writer.clearRoom(stored->id);
            }
            rooms.append(writer.upsertRoom(sourceId, room));
        }
        if (options.onlyRooms) {
            // By the CLI's own rule (RoomMatch): the id, else the one room whose id holds the part. None or several:
            // the command says so, from the rooms listed.
            RoomSummaries listed;
            for (const RoomCursor& room : std::as_const(rooms)) {
                RoomSummary r;
                r.id = room.id;
                r.nativeId = room.nativeId;
                listed << r;
            }
            for (const QString& wanted : *options.onlyRooms) {
                const RoomMatch match = RoomMatch::find(listed, wanted);
                if (match.ids.size() == 1)
                    inScope.insert(match.ids.first());
            }
        }
        // Every room's rows after its cursor, as the source gives them at once: the progress bar's total, the order,
        // and what the room list shows of a room before it is read (its source's figure, never 0). A reader that
        // counts apart gives a figure from its index here, and its counts replace them as they come (below), when a
        // room was never read or has much left: else (a followed store's sync) counting here is a seek a room.
        for (const RoomCursor& room : std::as_const(rooms))
            rows.insert(room.id, reader.quickRowsAfter(room));
        constexpr qint64 CountedApartFrom = 10000;
        countApart = reader.countsApart()
            && std::any_of(rooms.cbegin(), rooms.cend(), [&](const RoomCursor& room) {
                   return room.syncedSeq < 0 || rows.value(room.id) > CountedApartFrom;
               });
        for (const RoomCursor& room : std::as_const(rooms)) {
            if (reader.countsApart() && !countApart)
                rows.insert(room.id, reader.rowsAfter(room));
            writer.setUnread(room.id, rows.value(room.id));
        }
    });

    // The progress goes on from what earlier imports read of these rooms: a resumed import began again at 0 %, as if
    // it started over.
    QSet<qint64> reading;
    QHash<qint64, qint64> eventsBefore;
    qint64 total = 0, readBefore = 0;
    for (const RoomCursor& room : std::as_const(rooms)) {
        if (readNow(room)) {
            total += rows.value(room.id);
            reading.insert(room.id);
        }
    }
    QSqlQuery before = ws.exec(QStringLiteral("SELECT id, event_count FROM rooms WHERE source_id = ?"), { sourceId });
    while (before.next()) {
        eventsBefore.insert(before.value(0).toLongLong(), before.value(1).toLongLong());
        if (reading.contains(before.value(0).toLongLong()))
            readBefore += before.value(1).toLongLong();
    }
    before.finish();
    writer.setTotal(total + readBefore, readBefore);
    // The biggest room first: it is the one a reader waits for, and a streamed room shows after its first batch.
    std::stable_sort(rooms.begin(), rooms.end(),
        [&](const RoomCursor& a, const RoomCursor& b) { return rows.value(a.id) > rows.value(b.id); });
    // Unless the user chose one: it goes first.
    std::stable_partition(
        rooms.begin(), rooms.end(), [&](const RoomCursor& r) { return r.nativeId == options.firstRoom; });
    QList<RoomCursor> queue;
    for (const RoomCursor& room : std::as_const(rooms)) {
        if (readNow(room))
            queue.append(room);
    }

    // The exact counts, taken while the rooms are read, each written in place of its quick figure with the next commit:
    // the rows the room's read added since the listing are not unread, and a room read to its end stays read.
    QSet<qint64> finished;
    std::optional<RoomCounts> counts;
    std::optional<SqliteStatement> setCount;
    const auto applyCounts = [&] {
        for (const RoomCounts::Count& c : counts->take()) {
            const qint64 id = c.room.id;
            if (reading.contains(id))
                writer.addWork(c.rows - rows.value(id));
            rows.insert(id, c.rows);
            if (finished.contains(id))
                continue;
            setCount->bind(1, c.rows);
            setCount->bind(2, eventsBefore.value(id));
            setCount->bind(3, id);
            setCount->step();
            setCount->reset();
        }
    };
    const auto stopCounting = qScopeGuard([&] { writer.setWithEveryCommit({}); });
    if (countApart) {
        setCount.emplace(ws.handle(), "UPDATE rooms SET unread = max(0, ?1 - (event_count - ?2)) WHERE id = ?3");
        counts.emplace(reader, rooms);
        writer.setWithEveryCommit(applyCounts);
    }

    // The room the user looks at now, when it is still to be read: its place in the queue.
    const auto wantedAt = [&]() -> qsizetype {
        const qint64 wanted = options.wantedRoom ? options.wantedRoom() : 0;
        if (wanted == 0)
            return -1;
        for (qsizetype i = 0; i < queue.size(); ++i) {
            if (queue.at(i).id == wanted)
                return i;
        }
        return -1;
    };
    writer.setYieldWhen([&] { return wantedAt() >= 0; });
    while (!queue.isEmpty() && !writer.cancelled()) {
        const qsizetype wanted = wantedAt();
        const RoomCursor room = queue.takeAt(wanted >= 0 ? wanted : 0);
        if (reader.unchangedSince(ws.path(), room)) {
            finished.insert(room.id);
            writer.setUnread(room.id, 0); // as the last read of it left it: nothing is left to read
            continue;
        }
        if (options.roomStarted)
            options.roomStarted(room.id);
        writer.beginRoom(room);
        bool yielded = false;
        bool again = false;
        {
            RoomFeed feed(writer, room);
            reader.read(room, feed);
            // Stopped for a room the user asked for: committed as a batch is, and read on from its cursor once that
            // room is read.
            yielded = writer.takeYielded();
            again = feed.readAgainWanted();
            if (again) {
                // dropped below, once the feed that writes into it is gone
            } else if (yielded) {
                writer.pauseRoom(feed.synced());
            } else {
                finished.insert(room.id);
                writer.finishRoom(feed.synced()); // with the calls the feed paired last
            }
        }
        if (again) {
            writer.readRoomAgain();
            queue.prepend(writer.cursor(room));
        } else if (yielded) {
            queue.prepend(writer.cursor(room));
        }
    }
    if (counts) {
        counts->wait(); // a second at most, for ten thousand rooms of ten million rows
        writer.transaction(applyCounts);
    }
    // Rooms left unread, or read in part (another command's --room, a cancel): the room list and the commands say so.
    QSqlQuery unread = ws.exec(
        QStringLiteral("SELECT count(*) FROM rooms WHERE source_id = ? AND unread > 0"), { sourceId });
    report.roomsNotRead = unread.next() ? unread.value(0).toLongLong() : 0;
    writer.finish();
    return report;
}

QByteArray stamp(const QString& source)
{
    if (PgConnection::isUri(source))
        return {};
    QByteArray out;
    auto add = [&out](const QFileInfo& f) {
        f.exists() ? out.append(f.fileName().toUtf8() + ':' + QByteArray::number(f.size()) + ':'
                         + QByteArray::number(f.lastModified().toMSecsSinceEpoch()) + '\n')
                   : out.append("-\n");
    };
    const QFileInfo info(source);
    if (info.isDir()) {
        for (const QString& dir : QStringList { source, source + QStringLiteral("/threads") }) {
            for (const QFileInfo& f : QDir(dir).entryInfoList(QDir::Files, QDir::Name))
                add(f);
        }
        return out;
    }
    add(info);
    add(QFileInfo(source + QStringLiteral("-wal")));
    return out;
}

SourceSurvey survey(const QString& source)
{
    const std::unique_ptr<SourceReader> reader = open(source);
    SourceSurvey out;
    out.origin = reader->origin();
    out.identity = reader->identity();
    out.rooms = reader->rooms([](const QString&, const QString&) {});
    for (const RoomInfo& room : std::as_const(out.rooms))
        out.events.append(reader->rowsAfter({ room.nativeId, 0, -1 }));
    return out;
}

bool mayBeBeingMade(const QString& path)
{
    const QFileInfo info(path);
    if (!info.isFile())
        return false;
    if (info.size() == 0)
        return true;
    if (!SourceDatabase::looksLikeSqlite(path))
        return false;
    try {
        return SourceDatabase(path).objectCount() == 0;
    } catch (const StoreError&) {
        return false;
    }
}

StoreError notAFile(const QString& path)
{
    return StoreError(path, {},
        QStringLiteral("not a regular file (a pipe, a device or a socket): Sightline reads files and folders"));
}

StoreError unsupported(const QString& path)
{
    if (QFileInfo::exists(path) && !QFileInfo(path).isFile() && !QFileInfo(path).isDir())
        return notAFile(path);
    QString what = QStringLiteral("not a source Sightline reads (expected a RoomKit store, an AG-UI JSON Lines log, a "
                                  "CraftBot EVENT.md or sessions.db, a Sightline JSON Lines report, or a workspace)");
    if (QFileInfo(path).isDir()) {
        what = QStringLiteral(
            "a folder without AG-UI logs (*.jsonl) in it or in threads/, not a source Sightline reads");
    } else if (SourceDatabase::looksLikeSqlite(path)) {
        // Open it to say precisely why: locked, truncated, empty, or a database of another kind.
        SourceDatabase probe(path);
        what = probe.objectCount() == 0
            ? QStringLiteral("an empty SQLite database, with no tables yet (a workspace an import has only begun to "
                             "make? try again in a moment)")
            : QStringLiteral("a SQLite database, but not a RoomKit store (no rooms and events tables)");
    } else if (QFileInfo(path).size() == 0) {
        what = QStringLiteral("an empty file, not a source Sightline reads (a workspace an import has only begun to "
                              "make? try again in a moment)");
    }
    return StoreError(path, {}, what);
}

QString displayName(const QString& source)
{
    return PgConnection::isUri(source) ? PgConnection::displayName(source) : QFileInfo(source).fileName();
}

QString cachedWorkspacePath(const QString& sourcePath)
{
    const bool database = PgConnection::isUri(sourcePath);
    const QString canonical
        = database ? PgConnection::withoutPassword(sourcePath) : QFileInfo(sourcePath).canonicalFilePath();
    const QByteArray key = QCryptographicHash::hash(canonical.toUtf8(), QCryptographicHash::Sha1).toHex().left(16);
    // ~/.cache/sightline, whatever the application's organisation name (which QStandardPaths::CacheLocation adds).
    const QString cache = QStandardPaths::writableLocation(QStandardPaths::GenericCacheLocation) + QStringLiteral("/sightline");
    const QString dir = cache + QStringLiteral("/workspaces");
    QDir().mkpath(dir);
    // Workspaces hold copies of customer conversations: the folders are their owner's alone (0700).
    const auto othersMay = QFileDevice::ReadGroup | QFileDevice::WriteGroup | QFileDevice::ExeGroup
        | QFileDevice::ReadOther | QFileDevice::WriteOther | QFileDevice::ExeOther;
    for (const QString& folder : { cache, dir }) {
        if (QFile::permissions(folder) & othersMay)
            QFile::setPermissions(folder, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    }
    // Named from the canonical path too: "threads" and "threads/" are one source and one cache.
    QString base = QFileInfo(canonical).completeBaseName();
    if (database) {
        static const QRegularExpression unsafe(QStringLiteral("[^A-Za-z0-9_.-]+"));
        base = PgConnection::displayName(sourcePath).replace(unsafe, QStringLiteral("-"));
    }
    const QString path = dir + QLatin1Char('/') + base + QLatin1Char('-')
        + QString::fromLatin1(key) + QStringLiteral(".sightline");
    // One an older Sightline made readable by all (0644), with its side files, is closed to others now.
    for (const char* suffix : { "", "-wal", "-shm" }) {
        const QString file = path + QLatin1String(suffix);
        if (QFile::exists(file) && (QFile::permissions(file) & othersMay))
            QFile::setPermissions(file, Workspace::OwnerOnly);
    }
    return path;
}

QFileDevice::Permissions workspaceMode(const QStringList& sources)
{
    QFileDevice::Permissions mode = Workspace::OwnerOnly;
    bool group = true;
    bool others = true;
    for (const QString& source : sources) {
        const QFileDevice::Permissions p = QFile::permissions(source);
        group = group && (p & QFileDevice::ReadGroup);
        others = others && (p & QFileDevice::ReadOther);
    }
    if (group && !sources.isEmpty())
        mode |= QFileDevice::ReadGroup;
    if (others && !sources.isEmpty())
        mode |= QFileDevice::ReadOther;
    return mode;
}

} // namespace Importer
