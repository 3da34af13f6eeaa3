#pragma once

#include "runrecord.h"
#include "toolcallrecord.h"

#include <optional>
#include <QHash>
#include <QMetaType>
#include <QString>
#include <QVector>

// The waterfall's geometry as plain data, built on the store's worker and drawn by WaterfallView: each tool call
// a bar from its start to its end, grouped by AI response (run, task), in lanes so that calls that overlap never
// share one; on a time axis whose idle gaps are collapsed into breaks, so that a room of two days is not one
// pixel of work. The view maps the axis to pixels with a zoom and an offset; nothing here knows about pixels.
struct WaterfallLayout
{
    struct Bar
    {
        qsizetype call = 0; // into `calls`
        qint64 startUs = 0;
        qint64 endUs = 0; // never before startUs
        bool openEnded = false; // the call never ended: drawn on to its group's end, marked
        bool skewed = false; // its end came before its start (clock skew): drawn as zero-length, marked
        bool fromTimestamps = false; // its length is end time less start time, not the source's duration_ms
        int row = 0; // the group's header is a row of its own; its lanes follow
    };
    struct Group
    {
        QString groupId; // empty: calls of no AI response
        QString kind; // ai_response | run | task, or empty
        qint64 startUs = 0;
        qint64 endUs = 0;
        int headerRow = 0;
        int lanes = 0;
        qsizetype calls = 0;
    };
    struct Gap
    {
        qint64 fromUs = 0; // idle from here...
        qint64 toUs = 0; // ...to here: drawn as a break `gapWidthUs` wide on the axis
    };

    ToolCallRecords calls;
    QVector<Bar> bars; // by row, then by start
    QVector<Group> groups; // by start
    QVector<Gap> gaps; // by time
    int rows = 0;
    qint64 firstUs = 0;
    qint64 lastUs = 0;
    qint64 gapWidthUs = 0;
    qint64 untimed = 0; // calls without a time (no start, no end): counted, not drawn

    // Gaps longer than `gapThresholdUs` collapse (0: none do).
    static WaterfallLayout build(const ToolCallRecords& calls, const RunRecords& runs, qint64 gapThresholdUs);
    // The lane of each span (start, end), given in order of start: the first lane free of overlap. A lane is free
    // when its last span ended at or before this one starts and began before it (two spans starting together,
    // zero-length ones included, never share a lane).
    static QVector<int> assignLanes(const QVector<std::pair<qint64, qint64>>& spans);

    // The axis: time from firstUs with each gap shrunk to gapWidthUs ("work time"), in microseconds.
    double axisOf(qint64 us) const;
    qint64 timeOf(double axis) const; // inside a break: where it starts, proportionally
    double axisLength() const { return axisOf(lastUs); }
    // The bar of the call shown at timeline row `index` (its card: start, else end or result).
    std::optional<qsizetype> barAt(qint64 index) const;
    // The bars in rows [firstRow, lastRow] that reach into [fromAxis, toAxis]: what a frame draws.
    QVector<qsizetype> visible(int firstRow, int lastRow, double fromAxis, double toAxis) const;

private:
    QVector<double> m_gapAxis; // where each gap starts on the axis
    QHash<qint64, qsizetype> m_barAtRow; // a card's timeline row -> its bar
};

Q_DECLARE_METATYPE(WaterfallLayout)
