#include "waterfalldock.h"

#include "storeclient.h"
#include "waterfalllayout.h"
#include "waterfallview.h"
#include "workspace.h"

#include <memory>
#include <QAction>
#include <QFileDialog>
#include <QImage>
#include <QLabel>
#include <QMessageBox>
#include <QPainter>
#include <QSaveFile>
#include <QScrollBar>
#include <QSvgGenerator>
#include <QToolBar>
#include <QVBoxLayout>

WaterfallDock::WaterfallDock(StoreClient* client, QWidget* parent)
    : RoomDock(tr("Waterfall"), client, parent)
    , m_view(new WaterfallView)
    , m_summary(new QLabel)
{
    setObjectName(QStringLiteral("waterfallDock"));
    auto* tools = new QToolBar;
    tools->setToolButtonStyle(Qt::ToolButtonTextOnly);
    QAction* fit = tools->addAction(tr("Fit All"), m_view, &WaterfallView::fitAll);
    fit->setToolTip(tr("Every call in view (0)"));
    QAction* fitSelection = tools->addAction(tr("Fit Selection"), m_view, &WaterfallView::fitSelection);
    fitSelection->setToolTip(tr("The selected call across the middle of the view (F)"));
    QAction* zoomIn = tools->addAction(tr("Zoom In"), this, [this] { m_view->zoomBy(1.5, m_view->viewport()->width() / 2); });
    zoomIn->setToolTip(tr("Closer (+, or Ctrl+wheel around the pointer)"));
    QAction* zoomOut = tools->addAction(tr("Zoom Out"), this, [this] { m_view->zoomBy(1 / 1.5, m_view->viewport()->width() / 2); });
    zoomOut->setToolTip(tr("Further (-)"));
    tools->addSeparator();
    QAction* save = tools->addAction(tr("Save Image…"), this, &WaterfallDock::askSave);
    save->setToolTip(tr("What is in view, as PNG or SVG"));
    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setText(tr("Pick a room to see its tool calls on a time line."));
    auto* body = new QWidget;
    auto* layout = new QVBoxLayout(body);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->setSpacing(2);
    auto* top = new QHBoxLayout;
    top->addWidget(tools);
    top->addWidget(m_summary, 1);
    layout->addLayout(top);
    layout->addWidget(m_view, 1);
    setWidget(body);
    connect(m_view, &WaterfallView::callActivated, this, &WaterfallDock::callActivated);
}

void WaterfallDock::showCall(qint64 index)
{
    m_pendingCall = index;
    if (!isStale())
        m_view->selectCall(index);
}

void WaterfallDock::reread(quint64 ticket)
{
    if (roomId() == 0) {
        m_view->setWaterfall({});
        m_summary->setText(tr("Pick a room to see its tool calls on a time line."));
        emit laidOut();
        return;
    }
    auto out = std::make_shared<WaterfallLayout>();
    client()->run(
        StoreClient::Kind::Waterfall,
        [out, room = roomId(), filter = filter()](Workspace& ws, const CancelToken&) {
            *out = WaterfallLayout::build(ws.toolCallsShown(room, filter, false), ws.runs(room), GapThresholdUs);
        },
        this,
        [this, out, ticket] {
            if (!isLatest(ticket))
                return; // a newer room or filter was asked for meanwhile
            m_view->setWaterfall(*out);
            if (m_pendingCall)
                m_view->selectCall(*m_pendingCall);
            const qsizetype drawn = out->bars.size();
            QString text = drawn == 1 ? tr("1 call") : tr("%1 calls").arg(drawn);
            text += filter().terms() > 0 ? tr(" under the filter") : QString();
            if (out->untimed > 0)
                text += tr("; %1 without a time, not drawn").arg(out->untimed);
            if (!out->gaps.isEmpty())
                text += out->gaps.size() == 1 ? tr("; 1 idle gap collapsed") : tr("; %1 idle gaps collapsed").arg(out->gaps.size());
            m_summary->setText(text + QLatin1Char('.'));
            emit laidOut();
        },
        [this, ticket](const QString& why) {
            if (isLatest(ticket))
                m_summary->setText(tr("The waterfall could not be laid out: %1").arg(why));
        });
}

bool WaterfallDock::saveImage(const QString& path, QString* error) const
{
    // QSaveFile: a failed save leaves whatever was there before.
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error)
            *error = file.errorString();
        return false;
    }
    const QSize size = m_view->viewport()->size();
    const int captionHeight = m_view->fontMetrics().height() + 8;
    const QSize whole(size.width(), size.height() + captionHeight);
    // The caption line, then the waterfall under it.
    auto draw = [&](QPainter& p) {
        p.setFont(m_view->font());
        p.fillRect(QRect(0, 0, whole.width(), captionHeight), m_view->palette().color(QPalette::Window));
        p.setPen(m_view->palette().color(QPalette::WindowText));
        p.drawText(QRect(6, 0, whole.width() - 12, captionHeight), Qt::AlignLeft | Qt::AlignVCenter,
            m_view->fontMetrics().elidedText(m_caption, Qt::ElideRight, whole.width() - 12));
        p.translate(0, captionHeight);
        m_view->render(p, size);
    };
    if (path.endsWith(QLatin1String(".svg"), Qt::CaseInsensitive)) {
        QSvgGenerator svg;
        svg.setOutputDevice(&file);
        svg.setSize(whole);
        svg.setViewBox(QRect(QPoint(0, 0), whole));
        svg.setTitle(m_caption.isEmpty() ? tr("Sightline waterfall") : tr("Sightline waterfall: %1").arg(m_caption));
        QPainter p(&svg);
        draw(p);
    } else {
        QImage image(whole * m_view->devicePixelRatioF(), QImage::Format_ARGB32_Premultiplied);
        image.setDevicePixelRatio(m_view->devicePixelRatioF());
        QPainter p(&image);
        draw(p);
        p.end();
        if (!image.save(&file, "PNG")) {
            if (error)
                *error = tr("the image could not be written");
            file.cancelWriting();
            return false;
        }
    }
    if (!file.commit()) {
        if (error)
            *error = file.errorString();
        return false;
    }
    return true;
}

void WaterfallDock::askSave()
{
    QString chosen;
    const QString path = QFileDialog::getSaveFileName(this, tr("Save the Waterfall"), QStringLiteral("waterfall.png"),
        tr("PNG image (*.png);;SVG drawing (*.svg)"), &chosen);
    if (path.isEmpty())
        return;
    QString error;
    if (!saveImage(path, &error))
        QMessageBox::warning(this, tr("Save the Waterfall"), tr("%1 could not be saved: %2").arg(path, error));
}
