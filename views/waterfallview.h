#pragma once

#include "waterfalllayout.h"

#include <QAbstractScrollArea>

// The waterfall drawn: a bar per tool call on a shared time axis (labels in ms, s, min, h or days as the zoom
// asks), a header bar per AI response, idle gaps as marked breaks. Only what is in view is drawn; the layout comes
// ready from the worker. Ctrl+wheel, + and - zoom around the pointer (or the middle); a drag or the arrows pan;
// 0 fits everything, F the selected call. A click selects a call (callActivated); selectCall() shows one.
class WaterfallView : public QAbstractScrollArea
{
    Q_OBJECT
public:
    explicit WaterfallView(QWidget* parent = nullptr);

    void setWaterfall(const WaterfallLayout& layout);
    const WaterfallLayout& waterfall() const { return m_layout; }

    // Selects the call shown at timeline row `index` and scrolls its bar into view; false when it has no bar.
    bool selectCall(qint64 index);
    std::optional<qsizetype> selectedBar() const { return m_selected; }
    void fitAll();
    void fitSelection();
    void zoomBy(double factor, int anchorX); // > 1 zooms in; the axis point under anchorX stays put
    double scale() const { return m_scale; } // axis microseconds per pixel

    // Where bar `bar` is drawn in the viewport (empty when it is out of view), and the bar at a point.
    QRectF barRect(qsizetype bar) const;
    std::optional<qsizetype> barAt(const QPoint& viewportPoint) const;
    // What the hover shows for a bar: name, duration, outcome, arguments in short.
    QString describe(qsizetype bar) const;
    // Draws what is in view onto `painter` over `size` (the view itself, a PNG, an SVG).
    void render(QPainter& painter, const QSize& size) const;
    static QString durationText(qint64 us);
    // What each idle break's label says on the axis, the breaks at `starts` (pixels, left to right) of `idleUs` each:
    // "4 min idle", else "4 min", else nothing, each clear of the label before it (breaks close together at Fit All
    // wrote theirs over each other).
    static QStringList idleLabels(const QVector<double>& starts, const QVector<qint64>& idleUs, const QFontMetrics& fm);
    // An axis label: `us` from the first call, as precise as ticks `step` apart need.
    static QString axisLabel(qint64 us, qint64 step);
    static constexpr int RowHeight = 20;
    static constexpr int AxisHeight = 22;

signals:
    void callActivated(qint64 index); // the timeline row of the call clicked

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    bool viewportEvent(QEvent* event) override;
    void scrollContentsBy(int dx, int dy) override;

private:
    double xOf(double axis) const { return (axis - m_offset) / m_scale; }
    void setOffset(double offset);
    void updateScrollBars();
    double fitScale() const;

    WaterfallLayout m_layout;
    double m_scale = 1000; // axis microseconds per pixel
    double m_offset = 0; // the axis at the left edge
    std::optional<qsizetype> m_selected;
    QPoint m_pressAt;
    QPoint m_lastDrag;
    bool m_dragged = false;
    bool m_updatingBars = false;
};
