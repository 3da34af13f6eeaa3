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

// The lines of one file, split by thread: the wrapper's threadId where lines carry one; else the first
// threadId the events name; else the file's name.
QVector<AguiReader::Thread> AguiReader::threadsOf(const QString& file, const QVector<AguiLine>& lines)
{
    QString fileThread;
    for (const AguiLine& line : lines) {
        fileThread = line.event.value(QLatin1String("threadId")).toString();
        if (!fileThread.isEmpty())
            break;
    }
    if (fileThread.isEmpty())
        fileThread = QFileInfo(file).completeBaseName();
    QVector<Thread> threads;
    QHash<QString, qsizetype> at;
    for (const AguiLine& line : lines) {
        const QString id = line.threadId.isEmpty() ? fileThread : line.threadId;
        if (!at.contains(id)) {
            at.insert(id, threads.size());
            threads.append({ id, file, {} });
        }
        threads[at.value(id)].lines.append(line);
    }
    if (threads.isEmpty())
        threads.append({ fileThread, file, {} });
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
        const QByteArray content = f.readAll();
        if (content.trimmed().isEmpty())
            notes(QFileInfo(file).fileName(), QStringLiteral("an empty file: no events"));
        for (Thread& thread : threadsOf(file, AguiLogParser::parse(content))) {
            m_byId.insert(thread.id, m_threads.size());
            m_threads.append(std::move(thread));
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
    return at == m_byId.constEnd() ? 0 : std::max<qint64>(0, m_threads[*at].lines.size() - 1 - cursor.syncedSeq);
}

void AguiReader::read(const RoomCursor& cursor, RoomFeed& feed)
{
    const auto at = m_byId.constFind(cursor.nativeId);
    if (at == m_byId.constEnd())
        return;
    const Thread& thread = m_threads[*at];
    const QString fileName = QFileInfo(thread.file).fileName();
    AguiThread::write(
        thread.lines, {},
        [&](qsizetype position) { return QStringLiteral("%1 line %2").arg(fileName).arg(thread.lines[position].lineNumber); },
        cursor, feed);
}
