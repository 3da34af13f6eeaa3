#include "aguiimporter.h"

#include "../eventkind.h"
#include "../storeerror.h"
#include "../timeutil.h"
#include "../workspace.h"
#include "aguiassembler.h"
#include "aguilogparser.h"
#include "importwriter.h"

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

struct Thread
{
    QString id;
    QString file;
    QVector<AguiLine> lines;
};

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

// The lines of one file, split by thread: the wrapper's threadId where lines carry one; else the first
// threadId the events name; else the file's name.
QVector<Thread> threadsOf(const QString& file, const QVector<AguiLine>& lines)
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

qint64 millisToMicros(const QJsonValue& v)
{
    return v.isDouble() ? TimeUtil::millisToMicros(v.toDouble()) : 0;
}

} // namespace

namespace AguiImporter {

bool detect(const QString& path)
{
    for (const QString& file : logFiles(path)) {
        QFile f(file);
        if (f.open(QIODevice::ReadOnly) && AguiLogParser::looksLikeAgui(f.read(65536)))
            return true;
    }
    return false;
}

ImportReport run(Workspace& ws, const QString& path, const ImportOptions& options)
{
    const QStringList files = logFiles(path);
    if (files.isEmpty())
        throw StoreError(path, {}, QStringLiteral("a folder without AG-UI logs (*.jsonl) in it or in threads/"));

    ImportReport report;
    report.format = QStringLiteral("agui.jsonl");
    ImportWriter writer(ws, path, options, report);
    const QMap<QString, QJsonObject> listing = threadListing(path);

    QVector<Thread> threads;
    for (const QString& file : files) {
        QFile f(file);
        if (!f.open(QIODevice::ReadOnly)) {
            if (files.size() == 1)
                throw StoreError(file, {}, QStringLiteral("cannot read: ") + f.errorString());
            writer.note(QFileInfo(file).fileName(), QStringLiteral("cannot read: ") + f.errorString());
            continue;
        }
        const QByteArray content = f.readAll();
        if (content.trimmed().isEmpty())
            writer.note(QFileInfo(file).fileName(), QStringLiteral("an empty file: no events"));
        threads += threadsOf(file, AguiLogParser::parse(content));
    }

    QVector<QPair<RoomCursor, const Thread*>> rooms;
    writer.transaction([&] {
        const qint64 sourceId = writer.upsertSource(QStringLiteral("agui"), report.format, QString());
        for (const Thread& thread : threads) {
            RoomInfo room;
            room.nativeId = thread.id;
            const QJsonObject listed = listing.value(thread.id);
            room.owner = listed.value(QLatin1String("ownerId")).toString();
            room.agentId = listed.value(QLatin1String("agentId")).toString();
            room.createdMicros = millisToMicros(listed.value(QLatin1String("createdAt")));
            room.updatedMicros = millisToMicros(listed.value(QLatin1String("updatedAt")));
            if (!listed.isEmpty())
                room.nativeJson = QJsonDocument(listed).toJson(QJsonDocument::Compact);
            rooms.append({ writer.upsertRoom(sourceId, room), &thread });
        }
    });
    qint64 total = 0;
    for (const auto& [cursor, thread] : rooms)
        total += std::max<qint64>(0, thread->lines.size() - 1 - cursor.syncedSeq);
    writer.setTotal(total);

    for (const auto& [cursor, thread] : rooms) {
        if (writer.cancelled())
            break;
        const AguiAssembly assembly = AguiAssembler::assemble(thread->lines);
        const QString fileName = QFileInfo(thread->file).fileName();
        for (const auto& [index, problem] : assembly.problems) {
            if (index > cursor.syncedSeq)
                writer.note(QStringLiteral("%1 line %2").arg(fileName).arg(thread->lines[index].lineNumber), problem);
        }
        writer.beginRoom(cursor);
        for (const StoredEvent& row : assembly.rows) {
            if (row.record.index <= cursor.syncedSeq || writer.cancelled())
                continue;
            writer.insert(row);
        }
        // Rows stored by an earlier sync whose text depends on later lines: the rows that show a message,
        // a user message, or a call's arguments.
        QSet<qint64> refresh;
        for (const AguiMessage& m : assembly.messages)
            refresh.insert(m.firstIndex);
        for (const ToolCallRecord& c : assembly.calls) {
            if (c.startIndex)
                refresh.insert(*c.startIndex);
        }
        for (const StoredEvent& row : assembly.rows) {
            if (row.record.type == QLatin1String("CUSTOM") && row.record.kind == EventKind::Message)
                refresh.insert(row.record.index);
        }
        for (qint64 index : refresh) {
            if (index <= cursor.syncedSeq)
                writer.refreshRow(assembly.rows[index]);
        }
        writer.deleteToolCalls(false);
        writer.insertToolCalls(assembly.calls);
        writer.replaceRuns(assembly.runs);
        // The room's title is the first thing the user asked; its status how the last run ended.
        QString title = assembly.firstUserText.simplified();
        if (title.size() > 120)
            title = title.left(119) + QChar(0x2026);
        writer.setRoomTitleAndStatus(title, assembly.lastRunOutcome);
        writer.finishRoom(writer.cancelled() ? cursor.syncedSeq : thread->lines.size() - 1);
    }
    writer.finish();
    return report;
}

} // namespace AguiImporter
