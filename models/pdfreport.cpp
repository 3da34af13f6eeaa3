#include "pdfreport.h"

#include "htmlreport.h"
#include "workspace.h"

#include <QAbstractTextDocumentLayout>
#include <QBuffer>
#include <QPageLayout>
#include <QPainter>
#include <QPdfWriter>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextFrame>

#include <limits>

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
    const qreal pageHeight = body.height();
    QAbstractTextDocumentLayout* layout = doc.documentLayout();
    // A card (or a table) that fits on a page is never cut in two: one that would straddle a page starts the next.
    // In document order, each decided after the ones before it moved.
    for (QTextFrame* frame : doc.rootFrame()->childFrames()) {
        const QRectF r = layout->frameBoundingRect(frame);
        if (r.height() >= pageHeight || r.height() <= 0)
            continue;
        if (int(r.top() / pageHeight) != int((r.bottom() - 1) / pageHeight)) {
            QTextFrameFormat format = frame->frameFormat();
            format.setPageBreakPolicy(QTextFormat::PageBreak_AlwaysBefore);
            frame->setFrameFormat(format);
        }
    }
    const int pages = std::max(1, doc.pageCount());

    // Where each room starts (HtmlReport anchors its heading "room:ID"): a page's header names the rooms on it.
    QVector<QPair<qreal, QString>> starts;
    for (QTextBlock block = doc.begin(); block.isValid(); block = block.next()) {
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            for (const QString& name : it.fragment().charFormat().anchorNames()) {
                if (!name.startsWith(QLatin1String("room:")))
                    continue;
                // Where its first line is: a heading that does not fit at a page's foot moves to the next page,
                // while its block still starts above.
                qreal top = layout->blockBoundingRect(block).top();
                if (block.layout() && block.layout()->lineCount() > 0)
                    top += block.layout()->lineAt(0).y();
                starts.append({ top, name.mid(5) });
            }
        }
    }
    auto roomsOn = [&](int page) {
        QStringList on;
        for (int i = 0; i < starts.size(); ++i) {
            const qreal end = i + 1 < starts.size() ? starts[i + 1].first : std::numeric_limits<qreal>::max();
            // A room that ends in the blank above the next one's heading at a page's top is not on that page.
            if (starts[i].first < (page + 1) * pageHeight && end > page * pageHeight + 0.03 * pageHeight)
                on << starts[i].second;
        }
        return on;
    };
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
        const QStringList on = roomsOn(page);
        painter.drawText(QRectF(0, -1.6 * line, body.width(), line), Qt::AlignLeft | Qt::AlignVCenter,
            QFontMetricsF(small, &writer)
                .elidedText(QStringLiteral("Sightline report · ") + on.join(QStringLiteral(", ")), Qt::ElideRight, body.width()));
        painter.drawText(QRectF(0, body.height() + 0.6 * line, body.width(), line), Qt::AlignRight | Qt::AlignVCenter,
            QStringLiteral("Page %1 of %2").arg(page + 1).arg(pages));
    }
    painter.end();
    return count;
}
