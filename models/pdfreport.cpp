#include "pdfreport.h"

#include "htmlreport.h"
#include "workspace.h"

#include <QAbstractTextDocumentLayout>
#include <QBuffer>
#include <QPageLayout>
#include <QPainter>
#include <QPdfWriter>
#include <QTextDocument>

qint64 PdfReport::write(Workspace& ws, const ReportScope& scope, QIODevice& out, QCryptographicHash* events)
{
    QBuffer html;
    html.open(QIODevice::WriteOnly);
    HtmlReport::Options options;
    options.expanded = true;
    options.printable = true;
    const qint64 count = HtmlReport::write(ws, scope, html, options, events);

    QPdfWriter writer(&out);
    writer.setCreator(QStringLiteral("Sightline ") + scope.version);
    writer.setTitle(QStringLiteral("Sightline report"));
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Portrait, QMarginsF(15, 18, 15, 18), QPageLayout::Millimeter));
    writer.setResolution(144);
    QTextDocument doc;
    doc.documentLayout()->setPaintDevice(&writer);
    QFont font(QStringLiteral("DejaVu Sans"), 9);
    doc.setDefaultFont(font);
    doc.setHtml(QString::fromUtf8(html.data()));
    const QRectF body = writer.pageLayout().paintRectPixels(writer.resolution());
    doc.setPageSize(body.size());
    const int pages = std::max(1, doc.pageCount());

    QStringList rooms;
    for (qint64 id : scope.roomIds) {
        if (const std::optional<RoomSummary> r = ws.room(id))
            rooms << r->nativeId;
    }
    // A few rooms by name; more, by how many (a header is one line).
    const QString header = QStringLiteral("Sightline report · ")
        + (rooms.size() <= 2 ? rooms.join(QStringLiteral(", ")) : QStringLiteral("%1 rooms").arg(rooms.size()));
    QPainter painter(&writer);
    QFont small = font;
    small.setPointSizeF(7.5);
    const qreal line = QFontMetricsF(small, &writer).height();
    for (int page = 0; page < pages; ++page) {
        if (page > 0)
            writer.newPage();
        painter.save();
        painter.setClipRect(QRectF(0, 0, body.width(), body.height()));
        painter.translate(0, -page * body.height());
        doc.drawContents(&painter, QRectF(0, page * body.height(), body.width(), body.height()));
        painter.restore();
        // In the margins: which report this page is of, and where in it.
        painter.setFont(small);
        painter.setPen(QColor(0x55, 0x55, 0x55));
        painter.drawText(QRectF(0, -1.6 * line, body.width(), line), Qt::AlignLeft | Qt::AlignVCenter, header);
        painter.drawText(QRectF(0, body.height() + 0.6 * line, body.width(), line), Qt::AlignRight | Qt::AlignVCenter,
            QStringLiteral("Page %1 of %2").arg(page + 1).arg(pages));
    }
    painter.end();
    return count;
}
