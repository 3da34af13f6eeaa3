#include "timehistogram.h"

#include <algorithm>
#include <QDateTime>
#include <QHelpEvent>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

namespace {

// Local time, as the filter bar reads and writes it.
QString localTime(qint64 micros)
{
    return QDateTime::fromMSecsSinceEpoch(micros / 1000).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
}

} // namespace

TimeHistogram::TimeHistogram(QWidget* parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setCursor(Qt::CrossCursor);
    setToolTip(tr("Drag across the bars to show that time alone; double-click to show all of it."));
}

void TimeHistogram::setBins(qint64 firstMicros, qint64 lastMicros, const QVector<qint64>& bins)
{
    m_first = firstMicros;
    m_last = lastMicros;
    m_bins = bins;
    update();
}

void TimeHistogram::setRange(std::optional<qint64> afterMicros, std::optional<qint64> beforeMicros)
{
    m_after = afterMicros;
    m_before = beforeMicros;
    update();
}

QRect TimeHistogram::plot() const
{
    return rect().adjusted(1, 2, -1, -1);
}

qint64 TimeHistogram::timeAt(int x) const
{
    const QRect r = plot();
    const double f = std::clamp(double(x - r.left()) / std::max(1, r.width()), 0.0, 1.0);
    return m_first + qint64(f * double(m_last - m_first));
}

int TimeHistogram::xOf(qint64 micros) const
{
    const QRect r = plot();
    if (m_last <= m_first)
        return r.left();
    const double f = std::clamp(double(micros - m_first) / double(m_last - m_first), 0.0, 1.0);
    return r.left() + int(f * r.width());
}

void TimeHistogram::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    const QRect r = plot();
    p.fillRect(rect(), palette().base());
    if (m_bins.isEmpty()) {
        p.setPen(palette().color(QPalette::Disabled, QPalette::Text));
        p.drawText(r, Qt::AlignCenter, tr("no times"));
        return;
    }
    // Outside the filter's range the bars are grey; inside, the highlight colour.
    int from = r.left(), to = r.right();
    if (m_dragFrom) {
        from = std::min(*m_dragFrom, m_dragTo);
        to = std::max(*m_dragFrom, m_dragTo);
    } else {
        if (m_after)
            from = xOf(*m_after);
        if (m_before)
            to = xOf(*m_before);
    }
    const bool ranged = m_dragFrom || m_after || m_before;
    if (ranged)
        p.fillRect(QRect(QPoint(from, r.top()), QPoint(to, r.bottom())), palette().color(QPalette::AlternateBase));
    const qint64 peak = std::max<qint64>(1, *std::max_element(m_bins.cbegin(), m_bins.cend()));
    const double width = double(r.width()) / m_bins.size();
    const QColor in = palette().color(QPalette::Highlight);
    const QColor out = palette().color(QPalette::Disabled, QPalette::Text);
    for (int i = 0; i < m_bins.size(); ++i) {
        if (m_bins[i] == 0)
            continue;
        // A bin with any events is at least two pixels high: one stray event must show.
        const int h = std::max(2, int(double(r.height()) * m_bins[i] / peak));
        const int x0 = r.left() + int(i * width);
        const int x1 = std::max(x0 + 1, r.left() + int((i + 1) * width) - (width > 3 ? 1 : 0));
        const int mid = (x0 + x1) / 2;
        p.fillRect(QRect(x0, r.bottom() - h + 1, x1 - x0, h), (!ranged || (mid >= from && mid <= to)) ? in : out);
    }
    p.setPen(palette().color(QPalette::Mid));
    p.drawLine(r.bottomLeft(), r.bottomRight());
}

void TimeHistogram::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton || m_bins.isEmpty())
        return;
    m_dragFrom = event->position().toPoint().x();
    m_dragTo = *m_dragFrom;
    update();
}

void TimeHistogram::mouseMoveEvent(QMouseEvent* event)
{
    if (!m_dragFrom)
        return;
    m_dragTo = event->position().toPoint().x();
    update();
}

void TimeHistogram::mouseReleaseEvent(QMouseEvent* event)
{
    if (!m_dragFrom || event->button() != Qt::LeftButton)
        return;
    const int a = std::min(*m_dragFrom, m_dragTo), b = std::max(*m_dragFrom, m_dragTo);
    m_dragFrom.reset();
    update();
    if (b - a < 3) {
        // A click: outside the shaded range it shows all the time again; inside, nothing changes.
        const qint64 t = timeAt(a);
        if ((m_after && t < *m_after) || (m_before && t > *m_before))
            emit rangeCleared();
        return;
    }
    emit rangeSelected(timeAt(a), timeAt(b));
}

void TimeHistogram::mouseDoubleClickEvent(QMouseEvent*)
{
    m_dragFrom.reset();
    emit rangeCleared();
}

bool TimeHistogram::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip && !m_bins.isEmpty()) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QRect r = plot();
        const int bin = std::clamp(int(double(help->pos().x() - r.left()) / std::max(1, r.width()) * m_bins.size()), 0,
            int(m_bins.size()) - 1);
        const qint64 width = (m_last - m_first + 1) / m_bins.size();
        const qint64 start = m_first + bin * width;
        QToolTip::showText(help->globalPos(),
            tr("%1 – %2\n%3 events").arg(localTime(start), localTime(start + width), QLocale().toString(m_bins[bin])),
            this);
        return true;
    }
    return QWidget::event(event);
}
