#include "reportpreview.h"

#include "htmlreport.h"
#include "pdfreport.h"
#include "reportexport.h"

#include <QBuffer>

namespace {

// Thrown, and caught here, once the writer has written enough for a preview.
struct Enough
{
};

} // namespace

ReportPreview ReportPreview::make(Workspace& ws, const ReportScope& scope, const QString& format, bool expanded, int width)
{
    // Enough for a first page: well more than a sheet of A4 holds, yet a small part of a big room's report.
    const qint64 enough = format == QLatin1String("pdf") || format == QLatin1String("html") ? 96 * 1024 : 12 * 1024;
    QBuffer out;
    out.open(QIODevice::WriteOnly);
    ReportScope until = scope;
    until.eventWritten = [&out, &scope, enough] {
        scope.written();
        if (out.size() > enough)
            throw Enough {};
    };
    try {
        if (format == QLatin1String("pdf")) {
            HtmlReport::write(ws, until, out, PdfReport::options());
        } else if (format == QLatin1String("html")) {
            // The page as it prints (what QTextDocument lays out of it), its cards open or shut as chosen.
            HtmlReport::Options printable = PdfReport::options();
            printable.expanded = expanded;
            HtmlReport::write(ws, until, out, printable);
        } else {
            ReportExport::write(ws, until, format, expanded, out);
        }
    } catch (const Enough&) {
    }
    ReportPreview preview;
    if (format == QLatin1String("pdf") || format == QLatin1String("html")) {
        preview.page = PdfReport::firstPage(out.data(), width);
    } else {
        // Whole lines only, and never half a character.
        QByteArray text = out.data().left(enough);
        if (out.size() > enough)
            text.truncate(text.lastIndexOf('\n') + 1);
        preview.text = QString::fromUtf8(text);
    }
    return preview;
}
