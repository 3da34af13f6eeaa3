#include "aguireader.h"

#include "../eventkind.h"
#include "../storeerror.h"
#include "../timeutil.h"
#include "../workspace.h"
#include "aguithread.h"
#include "aguilogparser.h"
#include "roomfeed.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QSet>
#include <QSqlQuery>
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

// The threads of one file, in the order they first appear, with their lines counted: a line belongs to the thread its
// wrapper names ({threadId, event}); else to the file's own thread, named by the first threadId an event carries, or
// else by the file's name. Only a line that names a thread can belong elsewhere: the others are counted unread.
QVector<AguiReader::Thread> AguiReader::threadsOf(const QString& file, QIODevice& device)
{
    QVector<Thread> threads;
    QHash<QString, qsizetype> at; // by wrapper thread id; the file's own thread under a null key until named
    QString fileThread;
    const auto count = [&](const QString& key) {
        auto it = at.find(key);
        if (it == at.end()) {
            it = at.insert(key, threads.size());
            threads.append({ key, file, key.isNull(), 0 });
        }
        ++threads[*it].lines;
    };
    AguiLogParser::forEachLine(device, [&](const QByteArray& raw, qint64 lineNumber, bool last) {
        QString wrapper;
        const std::string_view bytes(raw.constData(), std::size_t(raw.size()));
        if (bytes.find("thread") != std::string_view::npos || bytes.find("\\u") != std::string_view::npos) {
            const AguiLine line = AguiLogParser::readLine(QByteArray(raw.constData(), raw.size()), lineNumber, last);
            wrapper = line.threadId;
            if (fileThread.isEmpty())
                fileThread = line.event.value(QLatin1String("threadId")).toString();
        }
        count(wrapper.isEmpty() ? QString() : wrapper);
        return true;
    });
    if (fileThread.isEmpty())
        fileThread = QFileInfo(file).completeBaseName();
    // The file's own thread takes its name; one that a wrapper also names is that thread.
    const auto own = at.constFind(QString());
    if (own == at.constEnd()) {
        if (threads.isEmpty())
            threads.append({ fileThread, file, true, 0 });
        return threads;
    }
    Thread& mine = threads[*own];
    mine.id = fileThread;
    if (const auto same = at.constFind(fileThread); same != at.constEnd()) {
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
    AguiThread writer(feed, [&](qint64, qint64 lineNumber) { return QStringLiteral("%1 line %2").arg(fileName).arg(lineNumber); });
    qint64 position = 0;
    // Read as it is assembled, a line at a time: a log of any length in bounded memory, its first rows stored
    // while the rest is read.
    AguiLogParser::forEachLine(f, [&](const QByteArray& raw, qint64 lineNumber, bool last) {
        if (feed.stopped())
            return false;
        const AguiLine line = AguiLogParser::readLine(QByteArray(raw.constData(), raw.size()), lineNumber, last);
        const bool mine = line.threadId.isEmpty() ? thread.ofFile : line.threadId == thread.id;
        if (mine)
            writer.take(line, position++);
        return true;
    });
    writer.finish();
}
