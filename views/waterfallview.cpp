#include "waterfallview.h"

#include "presentation.h"

#include <algorithm>
#include <cmath>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QPainter>
#include <QPainterPath>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>

namespace {

// The axis' tick steps, in microseconds: the first that leaves room for a label wins.
constexpr qint64 Ms = 1000;
constexpr qint64 S = 1000 * Ms;
constexpr qint64 Min = 60 * S;
constexpr qint64 H = 60 * Min;
constexpr qint64 D = 24 * H;
constexpr qint64 Steps[] = { 1, 10, 100, Ms, 2 * Ms, 5 * Ms, 10 * Ms, 20 * Ms, 50 * Ms, 100 * Ms, 200 * Ms, 500 * Ms, S,
    2 * S, 5 * S, 10 * S, 15 * S, 30 * S, Min, 2 * Min, 5 * Min, 10 * Min, 15 * Min, 30 * Min, H, 2 * H, 3 * H, 6 * H,
    12 * H, D, 2 * D, 7 * D, 30 * D };
constexpr int TickSpacing = 90; // pixels at least between two labels

} // namespace

WaterfallView::WaterfallView(QWidget* parent)
    : QAbstractScrollArea(parent)
{
    setFocusPolicy(Qt::StrongFocus);
    viewport()->setMouseTracking(true);
    horizontalScrollBar()->setSingleStep(20);
    verticalScrollBar()->setSingleStep(RowHeight);
}

QStringList WaterfallView::idleLabels(const QVector<double>& starts, const QVector<qint64>& idleUs, const QFontMetrics& fm)
{
    const auto width = [&fm](const QString& text) { return fm.horizontalAdvance(text) + 8; };
    QStringList out;
    qsizetype last = -1; // the last break labelled
    for (qsizetype i = 0; i < starts.size(); ++i) {
        const QString full = tr("%1 idle").arg(durationText(idleUs.value(i)));
        if (last >= 0 && starts.at(last) + width(out.at(last)) > starts.at(i)) {
            // In the way of the one before: that one said shorter ("4 min") if that clears this one, else this one
            // says nothing (its hatched break still shows, and its tooltip says it).
            const QString brief = durationText(idleUs.value(last));
            if (starts.at(last) + width(brief) <= starts.at(i)) {
                out[last] = brief;
            } else {
                out << QString();
                continue;
            }
        }
        out << full;
        last = i;
    }
    return out;
}

QString WaterfallView::durationText(qint64 us)
{
    const bool negative = us < 0;
    us = std::llabs(us);
    QString text;
    if (us == 0)
        text = tr("0 ms");
    else if (us < Ms)
        text = tr("%1 µs").arg(us);
    else if (us < S)
        text = tr("%1 ms").arg(QString::number(us / double(Ms), 'g', 4));
    else if (us < Min)
        text = tr("%1 s").arg(QString::number(us / double(S), 'f', us < 10 * S ? 2 : 1));
    else if (us < H)
        text = tr("%1 min %2 s").arg(us / Min).arg((us % Min) / S);
    else if (us < D)
        text = tr("%1 h %2 min").arg(us / H).arg((us % H) / Min);
    else
        text = tr("%1 d %2 h").arg(us / D).arg((us % D) / H);
    return negative ? QStringLiteral("−") + text : text;
}

QString WaterfallView::axisLabel(qint64 us, qint64 step)
{
    // As precise as the ticks are apart: 350 ms, 12.5 s; then a clock from the first call, 04:05, 1:02:03,
    // 2 d 01:02:03, with milliseconds when ticks are closer than a second.
    if (us < Min && step < S)
        return step < Ms ? tr("%1 ms").arg(QString::number(us / double(Ms), 'f', 2))
            : us < S     ? tr("%1 ms").arg(us / Ms)
                         : tr("%1 s").arg(QString::number(us / double(S), 'f', step < 100 * Ms ? 3 : 1));
    if (us < Min)
        return tr("%1 s").arg(us / S);
    const qint64 days = us / D;
    QString clock = us >= H ? QStringLiteral("%1:%2:%3")
                                  .arg((us % D) / H)
                                  .arg((us % H) / Min, 2, 10, QLatin1Char('0'))
                                  .arg((us % Min) / S, 2, 10, QLatin1Char('0'))
                            : QStringLiteral("%1:%2").arg(us / Min).arg((us % Min) / S, 2, 10, QLatin1Char('0'));
    if (step < S)
        clock += QStringLiteral(".%1").arg((us % S) / Ms, 3, 10, QLatin1Char('0'));
    return days > 0 ? tr("%1 d %2").arg(days).arg(clock) : clock;
}

void WaterfallView::setWaterfall(const WaterfallLayout& layout)
{
    m_layout = layout;
    m_selected.reset();
    fitAll(); // a room or a filter starts from the whole of it: a zoom kept would show empty rows
    verticalScrollBar()->setValue(0);
}

double WaterfallView::fitScale() const
{
    // Room at the right for the last call's name.
    const int width = std::max(1, viewport()->width() - std::min(160, viewport()->width() / 4));
    return std::max(1e-3, m_layout.axisLength() / width);
}

void WaterfallView::fitAll()
{
    m_scale = fitScale();
    m_offset = 0;
    updateScrollBars();
    viewport()->update();
}

void WaterfallView::fitSelection()
{
    if (!m_selected)
        return;
    const WaterfallLayout::Bar& b = m_layout.bars[*m_selected];
    const double from = m_layout.axisOf(b.startUs);
    const double length = std::max(1000.0, m_layout.axisOf(b.endUs) - from); // a zero-length call: a millisecond
    // The call fills the middle half of the view.
    m_scale = std::max(1e-3, length * 2 / std::max(1, viewport()->width()));
    setOffset(from - length / 2);
    verticalScrollBar()->setValue(b.row * RowHeight - viewport()->height() / 2);
}

void WaterfallView::zoomBy(double factor, int anchorX)
{
    const double anchor = m_offset + anchorX * m_scale;
    // No further in than a microsecond across ten pixels, no further out than the whole room.
    m_scale = std::clamp(m_scale / factor, 0.1, std::max(fitScale() * 2, 0.1));
    setOffset(anchor - anchorX * m_scale);
}

void WaterfallView::setOffset(double offset)
{
    const double visible = viewport()->width() * m_scale;
    m_offset = std::clamp(offset, -visible / 2, std::max(0.0, m_layout.axisLength() - visible / 2));
    updateScrollBars();
    viewport()->update();
}

void WaterfallView::updateScrollBars()
{
    m_updatingBars = true;
    const double contentWidth = m_layout.axisLength() / m_scale;
    horizontalScrollBar()->setRange(0, int(std::max(0.0, contentWidth - viewport()->width())));
    horizontalScrollBar()->setPageStep(viewport()->width());
    horizontalScrollBar()->setValue(int(m_offset / m_scale));
    verticalScrollBar()->setRange(0, std::max(0, AxisHeight + m_layout.rows * RowHeight - viewport()->height()));
    verticalScrollBar()->setPageStep(viewport()->height());
    m_updatingBars = false;
}

void WaterfallView::scrollContentsBy(int, int)
{
    if (!m_updatingBars)
        m_offset = horizontalScrollBar()->value() * m_scale;
    viewport()->update();
}

void WaterfallView::resizeEvent(QResizeEvent* event)
{
    QAbstractScrollArea::resizeEvent(event);
    updateScrollBars();
}

QRectF WaterfallView::barRect(qsizetype bar) const
{
    if (bar < 0 || bar >= m_layout.bars.size())
        return {};
    const WaterfallLayout::Bar& b = m_layout.bars[bar];
    const double x0 = xOf(m_layout.axisOf(b.startUs));
    const double x1 = std::max(x0 + 2, xOf(m_layout.axisOf(b.endUs))); // a zero-length call is still seen
    const double y = AxisHeight + b.row * RowHeight - verticalScrollBar()->value() + 3;
    return QRectF(x0, y, x1 - x0, RowHeight - 6);
}

std::optional<qsizetype> WaterfallView::barAt(const QPoint& p) const
{
    if (p.y() < AxisHeight)
        return std::nullopt;
    const int row = (p.y() - AxisHeight + verticalScrollBar()->value()) / RowHeight;
    const double axis = m_offset + p.x() * m_scale;
    const double slack = 3 * m_scale; // a thin bar is hit within three pixels
    for (qsizetype k : m_layout.visible(row, row, axis - slack, axis + slack)) {
        if (barRect(k).adjusted(-3, 0, 3, 0).contains(p))
            return k;
    }
    return std::nullopt;
}

QString WaterfallView::describe(qsizetype bar) const
{
    const WaterfallLayout::Bar& b = m_layout.bars[bar];
    const ToolCallRecord& c = m_layout.calls[b.call];
    QStringList lines;
    lines << QStringLiteral("<b>%1</b> · %2").arg(c.toolName.toHtmlEscaped(), Presentation::outcomeLabel(c.outcome));
    if (b.openEnded)
        lines << tr("never ended: drawn on to its AI response's end");
    else if (b.skewed)
        lines << tr("its end is stamped before its start");
    else
        lines << (b.fromTimestamps ? tr("%1 (from timestamps)") : tr("%1 (as the source recorded it)"))
                     .arg(durationText(b.endUs - b.startUs));
    lines << tr("started at %1 on the axis").arg(axisLabel(b.startUs - m_layout.firstUs, Ms));
    if (c.synthetic)
        lines << tr("synthetic end: made up by the source system, not the tool's (its length says when, not how long "
                    "the tool took)");
    if (c.pairing == Pairing::Guessed || c.ambiguous)
        lines << (c.ambiguous ? tr("ambiguous pair: another call of this name ran at the same time")
                              : tr("paired by name and order (a guess)"));
    if (!c.arguments.isEmpty()) {
        QString args = c.arguments.simplified();
        if (args.size() > 160)
            args = args.left(157) + QStringLiteral("…");
        lines << QStringLiteral("<tt>%1</tt>").arg(args.toHtmlEscaped());
    }
    if (!c.error.isEmpty())
        lines << Presentation::errorLine(c.error.left(160).toHtmlEscaped());
    return lines.join(QStringLiteral("<br>"));
}

void WaterfallView::render(QPainter& p, const QSize& size) const
{
    const QPalette pal = palette();
    const bool dark = Presentation::isDark(pal);
    p.fillRect(QRect(QPoint(0, 0), size), pal.color(QPalette::Base));
    if (m_layout.bars.isEmpty()) {
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(QRect(QPoint(0, 0), size), Qt::AlignCenter | Qt::TextWordWrap,
            m_layout.untimed > 0 ? tr("No call of the room has a time to draw (%1 without one).").arg(m_layout.untimed)
                                 : tr("No tool calls to draw under this filter."));
        return;
    }
    const int top = verticalScrollBar()->value();
    const int firstRow = std::max(0, top / RowHeight - 1);
    const int lastRow = (top + size.height()) / RowHeight + 1;
    const double fromAxis = m_offset;
    const double toAxis = m_offset + size.width() * m_scale;
    const QFontMetrics fm(p.font());

    // The AI responses: a header bar each, the rows of its calls shaded apart from the next one's.
    for (const WaterfallLayout::Group& g : m_layout.groups) {
        if (g.headerRow + g.lanes < firstRow || g.headerRow > lastRow)
            continue;
        const int y = AxisHeight + g.headerRow * RowHeight - top;
        QColor band = pal.color(QPalette::AlternateBase);
        p.fillRect(QRect(0, y, size.width(), RowHeight), band);
        const double x0 = xOf(m_layout.axisOf(g.startUs));
        const double x1 = std::max(x0 + 2, xOf(m_layout.axisOf(g.endUs)));
        p.fillRect(QRectF(x0, y + RowHeight - 6, x1 - x0, 3), pal.color(QPalette::Mid));
        const QString kind = g.kind == QLatin1String("run") ? tr("run")
            : g.kind == QLatin1String("task")              ? tr("task")
            : g.groupId.isEmpty()                          ? tr("calls of no AI response")
                                                           : tr("AI response");
        const QString label = (g.groupId.isEmpty() ? kind : kind + QLatin1Char(' ') + g.groupId)
            + QStringLiteral(" · ") + (g.calls == 1 ? tr("1 call") : tr("%1 calls").arg(g.calls))
            + QStringLiteral(" · ") + durationText(g.endUs - g.startUs);
        // A response out of view to either side keeps its name, dimmed, so the rows below it are known.
        const bool inView = x1 >= 0 && x0 <= size.width();
        p.setPen(pal.color(inView ? QPalette::Text : QPalette::PlaceholderText));
        p.drawText(QRectF(std::max(2.0, x0), y, size.width(), RowHeight - 5), Qt::AlignLeft | Qt::AlignVCenter,
            fm.elidedText(label, Qt::ElideRight, size.width()));
    }

    // The breaks: idle time collapsed, hatched and said.
    for (const WaterfallLayout::Gap& g : m_layout.gaps) {
        const double x0 = xOf(m_layout.axisOf(g.fromUs));
        const double x1 = xOf(m_layout.axisOf(g.toUs));
        if (x1 < 0 || x0 > size.width())
            continue;
        QColor hatch = pal.color(QPalette::Mid);
        hatch.setAlpha(90);
        p.fillRect(QRectF(x0, AxisHeight, std::max(3.0, x1 - x0), size.height()), QBrush(hatch, Qt::BDiagPattern));
        p.setPen(QPen(pal.color(QPalette::Mid), 1, Qt::DashLine));
        p.drawLine(QPointF(x0, AxisHeight), QPointF(x0, size.height()));
        p.drawLine(QPointF(x1, AxisHeight), QPointF(x1, size.height()));
    }

    // The calls in view.
    for (qsizetype k : m_layout.visible(firstRow, lastRow, fromAxis, toAxis)) {
        const WaterfallLayout::Bar& b = m_layout.bars[k];
        const ToolCallRecord& c = m_layout.calls[b.call];
        const QRectF r = barRect(k);
        QColor fill = Presentation::outcomeColour(c.outcome, dark);
        // Lengths from timestamps rather than the source's own duration: lighter, outlined.
        if (b.fromTimestamps)
            fill.setAlpha(140);
        if (b.openEnded) {
            QLinearGradient fade(r.topLeft(), r.topRight());
            fade.setColorAt(0, fill);
            QColor gone = fill;
            gone.setAlpha(20);
            fade.setColorAt(1, gone);
            p.fillRect(r, fade);
        } else {
            p.fillRect(r, fill);
        }
        if (c.synthetic) // its end was made up: its length is not the tool's
            p.fillRect(r, QBrush(pal.color(QPalette::Base), Qt::Dense5Pattern));
        p.setPen(QPen(Presentation::outcomeColour(c.outcome, dark).darker(130), b.fromTimestamps ? 1 : 0,
            b.openEnded ? Qt::DashLine : Qt::SolidLine));
        p.setBrush(Qt::NoBrush);
        p.drawRect(r);
        if (m_selected == k) {
            p.setPen(QPen(pal.color(QPalette::Highlight), 2));
            p.drawRect(r.adjusted(-2, -2, 2, 2));
        }
        // Its name inside when it fits, else beside it; its marks after it.
        // (A CraftBot pair is always a guess: like the cards, only an ambiguous one is marked.)
        QString marks = Presentation::outcome(c.outcome).symbol;
        if (b.openEnded && !marks.contains(QStringLiteral("…")))
            marks += QStringLiteral(" …");
        if (b.skewed)
            marks += QStringLiteral(" !");
        if (c.synthetic)
            marks += QStringLiteral(" *");
        if (c.ambiguous)
            marks += QStringLiteral(" ?");
        const QString label = c.toolName + QLatin1Char(' ') + marks;
        const int width = fm.horizontalAdvance(label) + 6;
        p.setPen(pal.color(QPalette::Text));
        // Beside a short bar, as far as the next bar of its lane: never over another call's name.
        double room = size.width() - r.right();
        if (k + 1 < m_layout.bars.size() && m_layout.bars[k + 1].row == b.row)
            room = xOf(m_layout.axisOf(m_layout.bars[k + 1].startUs)) - r.right() - 4;
        if (r.width() >= width)
            p.drawText(r.adjusted(3, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter, label);
        else if (room >= fm.horizontalAdvance(QStringLiteral("xx…")) + 4)
            p.drawText(QRectF(r.right() + 4, r.top(), room - 4, r.height()), Qt::AlignLeft | Qt::AlignVCenter,
                fm.elidedText(label, Qt::ElideRight, int(room - 4)));
    }

    // The axis: time since the first call, in the unit the zoom asks for; a break's idle time under it.
    p.fillRect(QRect(0, 0, size.width(), AxisHeight), pal.color(QPalette::Window));
    p.setPen(pal.color(QPalette::Mid));
    p.drawLine(0, AxisHeight - 1, size.width(), AxisHeight - 1);
    qint64 step = Steps[std::size(Steps) - 1];
    for (qint64 s : Steps) {
        if (s / m_scale >= TickSpacing) {
            step = s;
            break;
        }
    }
    // Ticks at round times from the first call, in each stretch of work between two breaks (after a break the
    // time has jumped: its ticks start again at round times).
    p.setPen(pal.color(QPalette::Text));
    QVector<std::pair<qint64, qint64>> stretches;
    qint64 from = m_layout.firstUs;
    for (const WaterfallLayout::Gap& g : m_layout.gaps) {
        stretches.append({ from, g.fromUs });
        from = g.toUs;
    }
    stretches.append({ from, m_layout.lastUs });
    // The breaks' labels first, each clear of the one before it ("4 min idle", else "4 min", else none: breaks close
    // together at Fit All wrote their labels over each other); a tick's label that would run into one is left out.
    QVector<double> starts;
    QVector<qint64> idle;
    for (const WaterfallLayout::Gap& g : m_layout.gaps) {
        starts << xOf(m_layout.axisOf(g.fromUs));
        idle << g.toUs - g.fromUs;
    }
    const QStringList idleTexts = WaterfallView::idleLabels(starts, idle, fm); // by gap (empty: none)
    QVector<QRectF> idleLabels;
    for (qsizetype i = 0; i < idleTexts.size(); ++i) {
        if (!idleTexts.at(i).isEmpty())
            idleLabels << QRectF(starts.at(i), 0, fm.horizontalAdvance(idleTexts.at(i)) + 8, AxisHeight);
    }
    QRectF lastLabel;
    const qint64 viewFrom = m_layout.timeOf(std::max(0.0, fromAxis));
    const qint64 viewTo = m_layout.timeOf(toAxis);
    for (const auto& [start, end] : stretches) {
        const qint64 lo = std::max(start, viewFrom);
        const qint64 hi = std::min(end, viewTo);
        if (lo > hi)
            continue;
        const qint64 first = m_layout.firstUs + ((lo - m_layout.firstUs + step - 1) / step) * step;
        for (qint64 t = first; t <= hi; t += step) {
            const double x = xOf(m_layout.axisOf(t));
            const QString text = axisLabel(t - m_layout.firstUs, step);
            const QRectF label(x, 0, fm.horizontalAdvance(text) + 6, AxisHeight);
            if (label.intersects(lastLabel)
                || std::any_of(idleLabels.begin(), idleLabels.end(), [&](const QRectF& r) { return r.intersects(label); }))
                continue;
            lastLabel = label;
            p.drawLine(QPointF(x, AxisHeight - 6), QPointF(x, AxisHeight - 1));
            p.drawText(label.adjusted(3, 0, 0, -4), Qt::AlignLeft | Qt::AlignVCenter, text);
        }
    }
    for (qsizetype i = 0; i < m_layout.gaps.size(); ++i) {
        const WaterfallLayout::Gap& g = m_layout.gaps.at(i);
        const double x0 = xOf(m_layout.axisOf(g.fromUs));
        const double x1 = xOf(m_layout.axisOf(g.toUs));
        if (x1 < 0 || x0 > size.width())
            continue;
        p.fillRect(QRectF(x0, 0, std::max(3.0, x1 - x0), AxisHeight - 1), QBrush(pal.color(QPalette::Mid), Qt::BDiagPattern));
        const QString& idle = idleTexts.at(i);
        if (!idle.isEmpty())
            p.drawText(QRectF(x0 + 2, 0, fm.horizontalAdvance(idle) + 6, AxisHeight - 4), Qt::AlignLeft | Qt::AlignVCenter, idle);
    }
}

void WaterfallView::paintEvent(QPaintEvent*)
{
    QPainter p(viewport());
    render(p, viewport()->size());
}

bool WaterfallView::selectCall(qint64 index)
{
    const std::optional<qsizetype> bar = m_layout.barAt(index);
    m_selected = bar;
    viewport()->update();
    if (!bar)
        return false;
    // Into view: its row, and its start when it is off either side.
    const WaterfallLayout::Bar& b = m_layout.bars[*bar];
    const int y = AxisHeight + b.row * RowHeight;
    if (y - AxisHeight < verticalScrollBar()->value() || y + RowHeight > verticalScrollBar()->value() + viewport()->height())
        verticalScrollBar()->setValue(y - viewport()->height() / 2);
    const double start = m_layout.axisOf(b.startUs);
    const double end = m_layout.axisOf(b.endUs);
    const double visible = viewport()->width() * m_scale;
    if (end < m_offset || start > m_offset + visible)
        setOffset(start - visible / 4);
    return true;
}

void WaterfallView::wheelEvent(QWheelEvent* event)
{
    if (event->modifiers() & Qt::ControlModifier) {
        const double steps = event->angleDelta().y() / 120.0;
        zoomBy(std::pow(1.25, steps), int(event->position().x()));
        event->accept();
        return;
    }
    QAbstractScrollArea::wheelEvent(event);
}

void WaterfallView::keyPressEvent(QKeyEvent* event)
{
    const int middle = viewport()->width() / 2;
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomBy(1.5, middle);
        return;
    case Qt::Key_Minus:
        zoomBy(1 / 1.5, middle);
        return;
    case Qt::Key_Left:
        setOffset(m_offset - viewport()->width() * m_scale / 8);
        return;
    case Qt::Key_Right:
        setOffset(m_offset + viewport()->width() * m_scale / 8);
        return;
    case Qt::Key_0:
        fitAll();
        return;
    case Qt::Key_F:
        fitSelection();
        return;
    default:
        QAbstractScrollArea::keyPressEvent(event);
    }
}

void WaterfallView::mousePressEvent(QMouseEvent* event)
{
    m_pressAt = m_lastDrag = event->pos();
    m_dragged = false;
}

void WaterfallView::mouseMoveEvent(QMouseEvent* event)
{
    if (!(event->buttons() & Qt::LeftButton))
        return;
    const QPoint delta = event->pos() - m_lastDrag;
    if (!m_dragged && (event->pos() - m_pressAt).manhattanLength() < 4)
        return;
    m_dragged = true;
    viewport()->setCursor(Qt::ClosedHandCursor);
    m_lastDrag = event->pos();
    setOffset(m_offset - delta.x() * m_scale);
    verticalScrollBar()->setValue(verticalScrollBar()->value() - delta.y());
}

void WaterfallView::mouseReleaseEvent(QMouseEvent* event)
{
    viewport()->unsetCursor();
    if (m_dragged || event->button() != Qt::LeftButton)
        return;
    if (const std::optional<qsizetype> bar = barAt(event->pos())) {
        m_selected = bar;
        viewport()->update();
        const ToolCallRecord& c = m_layout.calls[m_layout.bars[*bar].call];
        const std::optional<qint64> shown = c.startIndex ? c.startIndex : c.endIndex ? c.endIndex : c.resultIndex;
        if (shown)
            emit callActivated(*shown);
    }
}

bool WaterfallView::viewportEvent(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        if (const std::optional<qsizetype> bar = barAt(help->pos()))
            QToolTip::showText(help->globalPos(), describe(*bar), viewport(), barRect(*bar).toRect());
        else
            QToolTip::hideText();
        return true;
    }
    return QAbstractScrollArea::viewportEvent(event);
}
