#include "reportexport.h"

#include "csvreport.h"
#include "htmlreport.h"
#include "jsonlreport.h"
#include "markdownreport.h"
#include "pdfreport.h"
#include "reportmanifest.h"
#include "reportsignature.h"
#include "storeerror.h"
#include "workspace.h"
#include "writebehind.h"

#include "sha256.h"
#include <QDir>
#include <QFileInfo>
#include <QSaveFile>
#include <QSet>

const QStringList& ReportExport::formats()
{
    static const QStringList all { QStringLiteral("csv"), QStringLiteral("md"), QStringLiteral("html"), QStringLiteral("pdf"),
        QStringLiteral("jsonl") };
    return all;
}

qint64 ReportExport::steps(Workspace& ws, const ReportScope& scope, const QString& format)
{
    const bool timeline = format == QLatin1String("html") || format == QLatin1String("md") || format == QLatin1String("pdf");
    EventFilter items = scope.filter;
    items.timelineItems = true;
    qint64 total = 0;
    for (qint64 id : scope.roomIds)
        total += ws.countEvents(id, &scope.filter) + (timeline ? ws.countEvents(id, &items) : 0);
    return total;
}

qint64 ReportExport::write(Workspace& ws, const ReportScope& scope, const QString& format, bool expanded, QIODevice& out,
    Sha256* events)
{
    HtmlReport::Options options;
    options.expanded = expanded;
    return format == QLatin1String("csv") ? CsvReport::write(ws, scope, out, events)
        : format == QLatin1String("md")    ? MarkdownReport::write(ws, scope, out, events)
        : format == QLatin1String("html")  ? HtmlReport::write(ws, scope, out, options, events)
        : format == QLatin1String("jsonl") ? JsonlReport::write(ws, scope, out, events)
                                           : PdfReport::write(ws, scope, out, events);
}

QString ReportExport::suffix(const QString& format)
{
    return QLatin1Char('.') + format;
}

ReportExport::Result ReportExport::run(Workspace& ws, const ReportScope& scope, const QString& format, bool expanded,
    const QString& path, const QString& signingKey)
{
    if (!formats().contains(format))
        throw StoreError(path, {}, QStringLiteral("no report format %1 (%2)").arg(format, formats().join(QStringLiteral(", "))));
    // A key that cannot sign is said before anything is written.
    const QString keyId = signingKey.isEmpty() ? QString() : ReportSignature::keyId(signingKey);
    QSaveFile out(path);
    if (!out.open(QIODevice::WriteOnly))
        throw StoreError(path, {}, QStringLiteral("cannot write the report: ") + out.errorString());
    // A report holds customer conversations: its owner's alone (0600), like the workspace it was made from, from
    // the moment it exists (set on the file written before it is renamed into place).
    out.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    Sha256 events;
    Result result;
    if (format == QLatin1String("jsonl") || format == QLatin1String("csv")) {
        // The formats of every row, a gigabyte and more: written to the file on a thread of their own, beside the
        // reading of the rows and the making of the lines.
        WriteBehind behind(out);
        result.events = write(ws, scope, format, expanded, behind, &events);
        if (!behind.finish())
            throw StoreError(path, {}, QStringLiteral("cannot write the report: ") + behind.errorString());
    } else {
        result.events = write(ws, scope, format, expanded, out, &events);
    }
    if (!out.commit())
        throw StoreError(path, {}, QStringLiteral("cannot write the report: ") + out.errorString());
    ReportManifest::Content content;
    content.format = format;
    for (qint64 id : scope.roomIds) {
        if (const std::optional<RoomSummary> r = ws.room(id))
            content.rooms << r->nativeId;
    }
    content.filter = scope.filterText;
    content.events = result.events;
    content.eventsSha256 = events.result().toHex();
    content.author = scope.author;
    content.version = scope.version;
    content.keyId = keyId;
    content.teamStore = scope.teamStore;
    content.teamEntries = scope.teamEntries;
    content.teamHead = scope.teamHead;
    result.manifest = ReportManifest::write({ path }, content);
    if (!signingKey.isEmpty())
        result.signature = ReportSignature::sign(result.manifest, signingKey);
    return result;
}

QString ReportExport::fileName(const QString& roomId, const QString& format)
{
    QString name;
    for (const QChar c : roomId)
        name += c.isLetterOrNumber() || c == QLatin1Char('-') || c == QLatin1Char('.') ? c : QLatin1Char('_');
    // Never hidden, never empty.
    if (name.isEmpty() || name.startsWith(QLatin1Char('.')))
        name.prepend(QStringLiteral("room"));
    return name + suffix(format);
}

QVector<ReportExport::Each> ReportExport::runEach(Workspace& ws, const ReportScope& scope, const QString& format,
    bool expanded, const QString& folder, const QString& signingKey)
{
    if (!QDir().mkpath(folder))
        throw StoreError(folder, {}, QStringLiteral("cannot make the folder for the reports"));
    QVector<Each> written;
    QStringList roomIds;
    QSet<QString> taken;
    for (qint64 id : scope.roomIds) {
        const std::optional<RoomSummary> room = ws.room(id);
        if (!room)
            continue;
        // Two ids that read alike once cleaned (a/b and a_b) get a file each.
        QString name = fileName(room->nativeId, format);
        for (int n = 2; taken.contains(name.toLower()); ++n)
            name = fileName(room->nativeId + QLatin1Char('-') + QString::number(n), format);
        taken.insert(name.toLower());
        ReportScope one = scope;
        one.roomIds = { id };
        const QString path = QDir(folder).filePath(name);
        written.append({ path, run(ws, one, format, expanded, path, signingKey) });
        roomIds << room->nativeId;
    }
    // The set's own manifest (signed with the same key): a room's report taken out with its manifest, or one put in,
    // is seen by verify FOLDER, as no room's manifest can see it.
    QStringList files;
    ReportManifest::Content content;
    content.format = format;
    content.filter = scope.filterText;
    content.author = scope.author;
    content.version = scope.version;
    content.keyId = signingKey.isEmpty() ? QString() : ReportSignature::keyId(signingKey);
    content.teamStore = scope.teamStore;
    content.teamEntries = scope.teamEntries;
    content.teamHead = scope.teamHead;
    for (const Each& e : std::as_const(written)) {
        files << e.path << e.result.manifest;
        if (!e.result.signature.isEmpty())
            files << e.result.signature;
        content.events += e.result.events;
    }
    content.rooms = roomIds;
    const QString set = ReportManifest::writeSet(folder, files, content);
    if (!signingKey.isEmpty())
        ReportSignature::sign(set, signingKey);
    return written;
}
