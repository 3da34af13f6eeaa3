#include "aguireader.h"

#include "../eventflags.h"
#include "../eventkind.h"
#include "../storeerror.h"
#include "../timeutil.h"
#include "../workspace.h"
#include "aguithread.h"
#include "filetail.h"
#include "aguilogparser.h"
#include "roomfeed.h"
#include "rowpipe.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QSet>
#include <QDateTime>
#include <QMutex>
#include <QSqlQuery>
#include <atomic>
#include <optional>
#include <string_view>

namespace {

QStringList logFiles(const QString& path)
{
    const QFileInfo info(path);
    if (!info.isDir())
        return { path };
    QStringList files;
    for (const QString& dir : QStringList { path, path + QStringLiteral("/threads") }) {
        for (const QFileInfo& f : QDir(dir).entryInfoList(
                 { QStringLiteral("*.jsonl"), QStringLiteral("*.ndjson") }, QDir::Files | QDir::Readable, QDir::Name))
            files << f.filePath();
    }
    return files;
}

// kaboo's listThreads(): [{id, agentId, ownerId, createdAt, updatedAt}], beside the logs or one folder up.
QMap<QString, QJsonObject> threadListing(const QString& path)
{
    const QFileInfo info(path);
    const QString dir = info.isDir() ? info.filePath() : info.path();
    QMap<QString, QJsonObject> listing;
    for (const QString& candidate :
        QStringList { dir + QStringLiteral("/threads.json"), dir + QStringLiteral("/../threads.json") }) {
        QFile file(candidate);
        if (!file.open(QIODevice::ReadOnly))
            continue;
        for (const QJsonValue& v : QJsonDocument::fromJson(file.readAll()).array()) {
            const QJsonObject o = v.toObject();
            listing.insert(o.value(QLatin1String("id")).toString(), o);
        }
        break;
    }
    return listing;
}

qint64 millisToMicros(const QJsonValue& v)
{
    return v.isDouble() ? TimeUtil::millisToMicros(v.toDouble()) : 0;
}

} // namespace

// How far a file was listed: its threads so far, the file's own one under a null id until the end of the listing
// names it, and where the listing stopped (before an unfinished last line, or at the end). The next listing of a
// file that has grown since goes on from there.
struct AguiReader::Listing
{
    qint64 offset = 0;
    qint64 lineNumber = 0; // the lines before the offset
    QByteArray tail; // a hash of the bytes just before the offset: the file is still the one listed
    QString fileThread;
    QVector<Thread> threads;
    QHash<QString, qsizetype> at;
};

// Where the last sync of a thread in this process stood (AguiThread::Resume), and where in its file.
struct AguiReader::ResumePoint
{
    QString key; // the workspace, the room, the file and the thread
    qint64 offset = 0;
    qint64 lineNumber = 0;
    QByteArray tail;
    qint64 syncedSeq = -1; // the room's cursor that sync left: the next one resumes only from it
    int window = 0;
    std::shared_ptr<const AguiThread::Resume> thread;
};

namespace {

// What syncs leave for the next ones in this process: the listings of the last files listed, and the resume points
// of the last threads synced (each holds that thread's calls and messages: a few only).
QMutex cacheMutex;
QList<std::shared_ptr<const AguiReader::Listing>> listings; // most recent first
QList<std::shared_ptr<const AguiReader::ResumePoint>> resumePoints;
QHash<const AguiReader::Listing*, QString> listingFile;
std::atomic<int> resumedCount { 0 };
// What each thread's last read in this process took of its file (all of it, to its end), by the same key as a
// resume point: the thread is unchanged while its file still is and its room's cursor is where that read left it.
struct LastRead
{
    qint64 size = 0;
    QDateTime modified;
    QByteArray tail;
    qint64 syncedSeq = -1;
};
QHash<QString, LastRead> lastReads;
constexpr int KeptLastReads = 4096;
constexpr int KeptListings = 16;
constexpr int KeptResumePoints = 4;

} // namespace

// The threads of one file, in the order they first appear, with their lines counted: a line belongs to the thread its
// wrapper names ({threadId, event}); else to the file's own thread, named by the first threadId an event carries, or
// else by the file's name. Only a line that names a thread can belong elsewhere: the others are counted unread. A
// file listed before in this process, that has only grown since, is listed on from where it was.
QVector<AguiReader::Thread> AguiReader::threadsOf(const QString& file, QFile& device)
{
    std::shared_ptr<const Listing> before;
    {
        QMutexLocker lock(&cacheMutex);
        for (const auto& l : std::as_const(listings)) {
            if (listingFile.value(l.get()) == file) {
                before = l;
                break;
            }
        }
    }
    auto listing = std::make_shared<Listing>();
    if (before && FileTail::onlyGrew(device, before->offset, before->tail)) {
        *listing = *before;
        device.seek(before->offset);
    } else {
        device.seek(0);
    }
    Listing& l = *listing;
    std::optional<Listing> unfinished; // the listing before an unfinished last line
    const auto count = [&](const QString& key) {
        auto it = l.at.find(key);
        if (it == l.at.end()) {
            it = l.at.insert(key, l.threads.size());
            l.threads.append({ key, file, key.isNull(), 0 });
        }
        ++l.threads[*it].lines;
    };
    qint64 lastLine = l.lineNumber;
    AguiLogParser::forEachLine(
        device,
        [&](const QByteArray& raw, qint64 lineNumber, bool last, qint64 offset) {
            if (last) {
                unfinished = l;
                unfinished->offset = offset;
                unfinished->lineNumber = lineNumber - 1;
            }
            QString wrapper;
            const std::string_view bytes(raw.constData(), std::size_t(raw.size()));
            if (bytes.find("thread") != std::string_view::npos || bytes.find("\\u") != std::string_view::npos) {
                const AguiLine line = AguiLogParser::readLine(QByteArray(raw.constData(), raw.size()), lineNumber, last);
                wrapper = line.threadId;
                if (l.fileThread.isEmpty())
                    l.fileThread = line.event.value(QLatin1String("threadId")).toString();
            }
            count(wrapper.isEmpty() ? QString() : wrapper);
            return true;
        },
        l.lineNumber + 1, &lastLine);
    {
        auto kept = std::make_shared<Listing>(unfinished ? *unfinished : l);
        if (!unfinished) {
            kept->offset = device.pos();
            kept->lineNumber = lastLine;
        }
        kept->tail = FileTail::hashBefore(device, kept->offset);
        QMutexLocker lock(&cacheMutex);
        for (qsizetype k = 0; k < listings.size(); ++k) {
            if (listingFile.value(listings[k].get()) == file) {
                listingFile.remove(listings[k].get());
                listings.removeAt(k);
                break;
            }
        }
        listings.prepend(kept);
        listingFile.insert(kept.get(), file);
        while (listings.size() > KeptListings)
            listingFile.remove(listings.takeLast().get());
    }

    QVector<Thread> threads = l.threads;
    const QString fileThread = l.fileThread.isEmpty() ? QFileInfo(file).completeBaseName() : l.fileThread;
    // The file's own thread takes its name; one that a wrapper also names is that thread.
    const auto own = l.at.constFind(QString());
    if (own == l.at.constEnd()) {
        if (threads.isEmpty())
            threads.append({ fileThread, file, true, 0 });
        return threads;
    }
    Thread& mine = threads[*own];
    mine.id = fileThread;
    if (const auto same = l.at.constFind(fileThread); same != l.at.constEnd()) {
        Thread& named = threads[*same];
        named.lines += mine.lines;
        named.ofFile = true;
        const qsizetype first = std::min(*own, *same);
        named.id = fileThread;
        threads[first] = named;
        threads.remove(std::max(*own, *same));
    }
    return threads;
}

AguiReader::AguiReader(const QString& path)
    : m_path(path)
    , m_files(logFiles(path))
{
    if (m_files.isEmpty())
        throw StoreError(path, {}, QStringLiteral("a folder without AG-UI logs (*.jsonl) in it or in threads/"));
}

bool AguiReader::detect(const QString& path)
{
    for (const QString& file : logFiles(path)) {
        QFile f(file);
        if (f.open(QIODevice::ReadOnly) && AguiLogParser::looksLikeAgui(f.read(65536)))
            return true;
    }
    return false;
}

QString AguiReader::origin() const
{
    return QFileInfo(m_path).canonicalFilePath();
}

SourceIdentity AguiReader::identity() const
{
    return { QStringLiteral("agui"), QStringLiteral("agui.jsonl"), QString() };
}

QVector<RoomInfo> AguiReader::rooms(const SourceNotes& notes)
{
    m_threads.clear();
    m_byId.clear();
    for (const QString& file : m_files) {
        QFile f(file);
        if (!f.open(QIODevice::ReadOnly)) {
            if (m_files.size() == 1)
                throw StoreError(file, {}, QStringLiteral("cannot read: ") + f.errorString());
            notes(QFileInfo(file).fileName(), QStringLiteral("cannot read: ") + f.errorString());
            continue;
        }
        const QVector<Thread> threads = threadsOf(file, f);
        if (threads.size() == 1 && threads.first().lines == 0)
            notes(QFileInfo(file).fileName(), QStringLiteral("an empty file: no events"));
        for (const Thread& thread : threads) {
            m_byId.insert(thread.id, m_threads.size());
            m_threads.append(thread);
        }
    }
    const QMap<QString, QJsonObject> listing = threadListing(m_path);
    QVector<RoomInfo> rooms;
    for (const Thread& thread : std::as_const(m_threads)) {
        RoomInfo room;
        room.nativeId = thread.id;
        room.titleFromRows = true;
        room.file = thread.file;
        const QJsonObject listed = listing.value(thread.id);
        room.owner = listed.value(QLatin1String("ownerId")).toString();
        room.agentId = listed.value(QLatin1String("agentId")).toString();
        room.createdMicros = millisToMicros(listed.value(QLatin1String("createdAt")));
        room.updatedMicros = millisToMicros(listed.value(QLatin1String("updatedAt")));
        if (!listed.isEmpty())
            room.nativeJson = QJsonDocument(listed).toJson(QJsonDocument::Compact);
        rooms.append(room);
    }
    return rooms;
}

qint64 AguiReader::rowsAfter(const RoomCursor& cursor)
{
    const auto at = m_byId.constFind(cursor.nativeId);
    return at == m_byId.constEnd() ? 0 : std::max<qint64>(0, m_threads[*at].lines - 1 - cursor.syncedSeq);
}

void AguiReader::read(const RoomCursor& cursor, RoomFeed& feed)
{
    const auto at = m_byId.constFind(cursor.nativeId);
    if (at == m_byId.constEnd())
        return;
    const Thread& thread = m_threads[*at];
    const QString fileName = QFileInfo(thread.file).fileName();
    QFile f(thread.file);
    if (!f.open(QIODevice::ReadOnly))
        throw StoreError(thread.file, {}, QStringLiteral("cannot read: ") + f.errorString());
    // A log this process synced before, that has only grown since, is read on from where that sync stood.
    const QString key = resumeKey(feed.workspace().path(), cursor, thread);
    std::shared_ptr<const ResumePoint> point;
    {
        QMutexLocker lock(&cacheMutex);
        for (qsizetype k = 0; k < resumePoints.size(); ++k) {
            if (resumePoints[k]->key == key) {
                point = resumePoints.takeAt(k);
                break;
            }
        }
    }
    if (point
        && (point->syncedSeq != cursor.syncedSeq || point->window != feed.assemblyWindow()
            || !FileTail::onlyGrew(f, point->offset, point->tail)))
        point.reset();
    if (point)
        resumedCount.fetch_add(1);
    f.seek(point ? point->offset : 0);
    AguiThread writer(
        feed, [&](qint64, qint64 lineNumber) { return QStringLiteral("%1 line %2").arg(fileName, QString::number(lineNumber)); },
        point ? point->thread : nullptr);
    qint64 position = point ? writer.taken() : 0;
    std::optional<std::pair<qint64, qint64>> kept; // where the thread was kept for the next sync: offset, lines before
    qint64 lastLine = point ? point->lineNumber : 0;
    // Read as it is assembled, a line at a time: a log of any length in bounded memory, its first rows stored
    // while the rest is read. The lines are split, parsed and their payloads packed on a thread of their own, ahead
    // of this one, which assembles and writes them in order: the writer's thread is the import's pace.
    struct ReadLine
    {
        AguiLine line;
        bool last = false;
        qint64 offset = 0;
    };
    qint64 readTo = 0;
    {
        RowPipe<ReadLine> lines([&](auto&& put) {
            TextPacker packer(nullptr);
            AguiLogParser::forEachLine(
                f,
                [&](const QByteArray& raw, qint64 lineNumber, bool last, qint64 offset) {
                    ReadLine r { AguiLogParser::readLine(QByteArray(raw.constData(), raw.size()), lineNumber, last), last,
                        offset };
                    const bool mine = r.line.threadId.isEmpty() ? thread.ofFile : r.line.threadId == thread.id;
                    if (mine) // another thread's lines are passed over: not packed
                        r.line.packedPayload = packer.prepare(r.line.raw, r.line.flags & EventFlags::InvalidUtf8);
                    return put(std::move(r));
                },
                lastLine + 1, &lastLine);
            readTo = f.pos(); // read by this thread once the pipe's thread is done (the pipe's end joins it)
        },
            // A parsed line is about ten times its bytes, and a snapshot line can be megabytes: a batch ends at 256
            // lines or 1 MB of them, two wait, so what is in flight stays a few megabytes of lines.
            256, 2, [](const ReadLine& r) { return qint64(r.line.raw.size()); }, qint64(1) << 20);
        while (!feed.stopped()) {
            ReadLine* next = lines.next();
            if (!next)
                break;
            if (next->last) {
                // A line its writer has not finished: the next sync reads it again, whole.
                writer.keepForResume();
                kept = { next->offset, next->line.lineNumber - 1 };
            }
            const AguiLine& line = next->line;
            const bool mine = line.threadId.isEmpty() ? thread.ofFile : line.threadId == thread.id;
            if (mine)
                writer.take(line, position++);
        }
    }
    if (!kept && !feed.stopped()) {
        writer.keepForResume();
        kept = { readTo, lastLine };
    }
    writer.finish();
    if (!feed.stopped()) {
        const LastRead last { readTo, QFileInfo(f).lastModified(), FileTail::hashBefore(f, readTo), feed.synced() };
        QMutexLocker lock(&cacheMutex);
        if (lastReads.size() >= KeptLastReads)
            lastReads.clear();
        lastReads.insert(key, last);
    }
    if (const auto resume = writer.resume()) {
        auto next = std::make_shared<ResumePoint>();
        next->key = key;
        next->offset = kept->first;
        next->lineNumber = kept->second;
        next->tail = FileTail::hashBefore(f, kept->first);
        next->syncedSeq = feed.synced();
        next->window = feed.assemblyWindow();
        next->thread = resume;
        QMutexLocker lock(&cacheMutex);
        resumePoints.prepend(next);
        while (resumePoints.size() > KeptResumePoints)
            resumePoints.removeLast();
    }
}

int AguiReader::resumedSyncs()
{
    return resumedCount.load();
}

void AguiReader::forgetResumePoints()
{
    QMutexLocker lock(&cacheMutex);
    lastReads.clear();
    listings.clear();
    listingFile.clear();
    resumePoints.clear();
}

QString AguiReader::resumeKey(const QString& workspace, const RoomCursor& cursor, const Thread& thread)
{
    return QStringList { workspace, QString::number(cursor.id), thread.file, thread.id }.join(QLatin1Char('\n'));
}

bool AguiReader::unchangedSince(const QString& workspace, const RoomCursor& cursor)
{
    const auto at = m_byId.constFind(cursor.nativeId);
    if (at == m_byId.constEnd())
        return false;
    const Thread& thread = m_threads[*at];
    LastRead last;
    {
        QMutexLocker lock(&cacheMutex);
        const auto it = lastReads.constFind(resumeKey(workspace, cursor, thread));
        if (it == lastReads.constEnd())
            return false;
        last = *it;
    }
    QFile f(thread.file);
    return last.syncedSeq == cursor.syncedSeq && f.open(QIODevice::ReadOnly) && f.size() == last.size
        && QFileInfo(f).lastModified() == last.modified && FileTail::hashBefore(f, last.size) == last.tail;
}
