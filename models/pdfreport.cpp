#include "pdfreport.h"

#include "htmlreport.h"
#include "workspace.h"

#include <QAbstractTextDocumentLayout>
#include <QBuffer>
#include <QPageLayout>
#include <QPainter>
#include <QPdfWriter>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextFrame>

#include <limits>
#include <optional>

#include <QImage>

namespace {

// The report's HTML laid out on A4 pages as the PDF prints them, with what goes in each page's margins.
class Pages
{
public:
    Pages(const QByteArray& html, QPagedPaintDevice* device, int resolution)
    {
        m_font = QFont(QStringLiteral("DejaVu Sans"), 9);
        m_doc.documentLayout()->setPaintDevice(device);
        m_doc.setDefaultFont(m_font);
        m_doc.setHtml(QString::fromUtf8(html));
        m_body = device->pageLayout().paintRectPixels(resolution);
        m_doc.setPageSize(m_body.size());
        const qreal pageHeight = m_body.height();
        QAbstractTextDocumentLayout* layout = m_doc.documentLayout();
        // A card (or a table) that fits on a page is never cut in two: one that would straddle a page starts the
        // next. Decided in document order, each frame where the ones before it moved it to (what comes after a
        // frame moved to the next page moves down as far), and then set at once: set one at a time, each change laid
        // the rest of the document out again, and a report of a few hundred cards took half a minute. One layout a
        // pass; a pass checks what the last one's estimate left straddling (a table taller than a page, broken
        // across pages, moves what follows by more than its own shift).
        // A heading, or an event's header line (HtmlReport anchors it "keep"), is kept with what follows it: one
        // that would end a page with less than two lines of the next after it starts the next page.
        const qreal line = QFontMetricsF(m_font, device).lineSpacing();
        const auto keepsWithNext = [](const QTextBlock& block) {
            if (block.blockFormat().headingLevel() > 0)
                return true;
            for (auto it = block.begin(); !it.atEnd(); ++it) {
                if (it.fragment().charFormat().anchorNames().contains(QLatin1String("keep")))
                    return true;
            }
            return false;
        };
        for (int pass = 0; pass < 4; ++pass) {
            QList<QTextFrame*> moved;
            QList<QTextBlock> movedBlocks;
            qreal shift = 0;
            for (auto it = m_doc.rootFrame()->begin(); !it.atEnd(); ++it) {
                if (QTextFrame* frame = it.currentFrame()) {
                    const QRectF r = layout->frameBoundingRect(frame);
                    if (r.height() >= pageHeight || r.height() <= 0)
                        continue;
                    const qreal top = r.top() + shift;
                    if (int(top / pageHeight) != int((top + r.height() - 1) / pageHeight)) {
                        shift += (int(top / pageHeight) + 1) * pageHeight - top;
                        moved.append(frame);
                    }
                    continue;
                }
                const QTextBlock block = it.currentBlock();
                if (!block.isValid() || !keepsWithNext(block))
                    continue;
                const QRectF r = layout->blockBoundingRect(block);
                const qreal top = r.top() + shift;
                const qreal needed = r.height() + 2 * line; // itself, and the first two lines of what follows
                if (r.height() > 0 && needed < pageHeight && int(top / pageHeight) != int((top + needed - 1) / pageHeight)) {
                    shift += (int(top / pageHeight) + 1) * pageHeight - top;
                    movedBlocks.append(block);
                }
            }
            if (moved.isEmpty() && movedBlocks.isEmpty())
                break;
            QTextCursor edit(&m_doc);
            edit.beginEditBlock(); // laid out once, at its end
            for (QTextFrame* frame : std::as_const(moved)) {
                QTextFrameFormat format = frame->frameFormat();
                format.setPageBreakPolicy(QTextFormat::PageBreak_AlwaysBefore);
                frame->setFrameFormat(format);
            }
            for (const QTextBlock& block : std::as_const(movedBlocks)) {
                QTextBlockFormat format = block.blockFormat();
                format.setPageBreakPolicy(QTextFormat::PageBreak_AlwaysBefore);
                edit.setPosition(block.position()); // the same cursor: still one layout
                edit.setBlockFormat(format);
            }
            edit.endEditBlock();
        }
        // Where each room starts (HtmlReport anchors its heading "room:ID"): a page's header names the rooms on it.
        for (QTextBlock block = m_doc.begin(); block.isValid(); block = block.next()) {
            for (auto it = block.begin(); !it.atEnd(); ++it) {
                for (const QString& name : it.fragment().charFormat().anchorNames()) {
                    if (!name.startsWith(QLatin1String("room:")))
                        continue;
                    // Where its first line is: a heading that does not fit at a page's foot moves to the next
                    // page, while its block still starts above.
                    qreal top = layout->blockBoundingRect(block).top();
                    if (block.layout() && block.layout()->lineCount() > 0)
                        top += block.layout()->lineAt(0).y();
                    m_starts.append({ top, name.mid(5) });
                }
            }
        }
        m_device = device;
    }

    int count() const { return std::max(1, m_doc.pageCount()); }
    QRectF body() const { return m_body; }

    // Page `page` with its header and footer, the painter's origin at the body's top left. `of`: "Page 1 of 9",
    // or "Page 1" alone when the count is not known (a preview made of the report's beginning).
    void paint(QPainter& painter, int page, std::optional<int> of) const
    {
        painter.save();
        painter.setClipRect(QRectF(0, 0, m_body.width(), m_body.height()));
        painter.translate(0, -page * m_body.height());
        m_doc.drawContents(&painter, QRectF(0, page * m_body.height(), m_body.width(), m_body.height()));
        painter.restore();
        // In the margins: which report this page is of, and where in it.
        QFont small = m_font;
        small.setPointSizeF(7.5);
        const QFontMetricsF metrics(small, m_device);
        const qreal line = metrics.height();
        painter.setFont(small);
        painter.setPen(QColor(0x55, 0x55, 0x55));
        painter.drawText(QRectF(0, -1.6 * line, m_body.width(), line), Qt::AlignLeft | Qt::AlignVCenter,
            metrics.elidedText(QStringLiteral("Sightline report · ") + roomsOn(page).join(QStringLiteral(", ")), Qt::ElideRight,
                m_body.width()));
        painter.drawText(QRectF(0, m_body.height() + 0.6 * line, m_body.width(), line), Qt::AlignRight | Qt::AlignVCenter,
            of ? QStringLiteral("Page %1 of %2").arg(page + 1).arg(*of) : QStringLiteral("Page %1").arg(page + 1));
    }

private:
    QStringList roomsOn(int page) const
    {
        const qreal pageHeight = m_body.height();
        QStringList on;
        for (int i = 0; i < m_starts.size(); ++i) {
            const qreal end = i + 1 < m_starts.size() ? m_starts[i + 1].first : std::numeric_limits<qreal>::max();
            // A room that ends in the blank above the next one's heading at a page's top is not on that page.
            if (m_starts[i].first < (page + 1) * pageHeight && end > page * pageHeight + 0.03 * pageHeight)
                on << m_starts[i].second;
        }
        return on;
    }

    mutable QTextDocument m_doc; // drawContents() is not const, while painting a page changes nothing
    QFont m_font;
    QRectF m_body;
    QVector<QPair<qreal, QString>> m_starts;
    QPagedPaintDevice* m_device = nullptr;
};

void setUp(QPdfWriter& writer, const QString& version)
{
    writer.setCreator(QStringLiteral("Sightline ") + version);
    writer.setTitle(QStringLiteral("Sightline report"));
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Portrait, QMarginsF(15, 18, 15, 18), QPageLayout::Millimeter));
    writer.setResolution(144);
}

} // namespace

HtmlReport::Options PdfReport::options()
{
    HtmlReport::Options options;
    options.expanded = true;
    options.printable = true;
    return options;
}

qint64 PdfReport::write(Workspace& ws, const ReportScope& scope, QIODevice& out, Sha256* events)
{
    QBuffer html;
    html.open(QIODevice::WriteOnly);
    const qint64 count = HtmlReport::write(ws, scope, html, options(), events);
    QPdfWriter writer(&out);
    setUp(writer, scope.version);
    const Pages pages(html.data(), &writer, writer.resolution());
    QPainter painter(&writer);
    for (int page = 0; page < pages.count(); ++page) {
        if (page > 0)
            writer.newPage();
        pages.paint(painter, page, pages.count());
    }
    painter.end();
    return count;
}

QImage PdfReport::firstPage(const QByteArray& html, int width)
{
    // Laid out against a PDF writer, as write() lays it out (its metrics decide the lines and the pages); drawn
    // on an image of the whole sheet, margins included.
    QBuffer nowhere;
    nowhere.open(QIODevice::WriteOnly);
    QPdfWriter writer(&nowhere);
    setUp(writer, {});
    const Pages pages(html, &writer, writer.resolution());
    const QRectF sheet = writer.pageLayout().fullRectPixels(writer.resolution());
    const qreal scale = width / sheet.width();
    QImage image(QSize(width, qRound(sheet.height() * scale)), QImage::Format_RGB32);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    painter.scale(scale, scale);
    painter.translate(pages.body().topLeft() - sheet.topLeft()); // the margins
    pages.paint(painter, 0, std::nullopt);
    return image;
}
