#pragma once

#include <optional>
#include <QVector>
#include <QWidget>

// Events over a room's time span as bars, with the time filter shaded: dragging across the bars selects a
// range (as DevTools' network overview does), a click outside the shade or a double-click clears it.
class TimeHistogram : public QWidget
{
    Q_OBJECT
public:
    explicit TimeHistogram(QWidget* parent = nullptr);

    // Bins of equal width from `firstMicros` to `lastMicros`.
    void setBins(qint64 firstMicros, qint64 lastMicros, const QVector<qint64>& bins);
    // The range the filter holds (either end open), shaded.
    void setRange(std::optional<qint64> afterMicros, std::optional<qint64> beforeMicros);
    const QVector<qint64>& bins() const { return m_bins; }
    // The time at x (in widget pixels), within the span.
    qint64 timeAt(int x) const;
    int xOf(qint64 micros) const;

    QSize sizeHint() const override { return { 200, 56 }; }
    QSize minimumSizeHint() const override { return { 60, 40 }; }

signals:
    void rangeSelected(qint64 fromMicros, qint64 toMicros);
    void rangeCleared();

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    bool event(QEvent* event) override; // tooltips: the bin's time and count

private:
    QRect plot() const;

    qint64 m_first = 0;
    qint64 m_last = 0;
    QVector<qint64> m_bins;
    std::optional<qint64> m_after, m_before;
    std::optional<int> m_dragFrom; // x where a drag started
    int m_dragTo = 0;
};
