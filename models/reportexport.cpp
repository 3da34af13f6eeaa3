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

#include <QCryptographicHash>
#include <QSaveFile>

const QStringList& ReportExport::formats()
{
    static const QStringList all { QStringLiteral("csv"), QStringLiteral("md"), QStringLiteral("html"), QStringLiteral("pdf"),
        QStringLiteral("jsonl") };
    return all;
}

qint64 ReportExport::count(Workspace& ws, const ReportScope& scope)
{
    qint64 total = 0;
    for (qint64 id : scope.roomIds)
        total += ws.countEvents(id, &scope.filter);
    return total;
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
    QCryptographicHash events(QCryptographicHash::Sha256);
    HtmlReport::Options options;
    options.expanded = expanded;
    Result result;
    result.events = format == QLatin1String("csv") ? CsvReport::write(ws, scope, out, &events)
        : format == QLatin1String("md")             ? MarkdownReport::write(ws, scope, out, &events)
        : format == QLatin1String("html")           ? HtmlReport::write(ws, scope, out, options, &events)
        : format == QLatin1String("jsonl")          ? JsonlReport::write(ws, scope, out, &events)
                                                    : PdfReport::write(ws, scope, out, &events);
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
    result.manifest = ReportManifest::write({ path }, content);
    if (!signingKey.isEmpty())
        result.signature = ReportSignature::sign(result.manifest, signingKey);
    return result;
}
