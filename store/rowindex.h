#pragma once

#include <algorithm>
#include <QMetaType>
#include <QVector>

// Where the rows of a room under a filter start, one entry per block of `blockSize` rows: what lets a view
// jump to any row of a million-event room and read just the block it lands in (a keyset read from
// anchors[block], never an OFFSET). Built by one index-only pass on the store worker, with the counts.
struct RowIndex
{
    qint64 rows = 0; // rows of the list: timeline items, or every event shown in the raw rows
    qint64 shown = 0; // events the filter lets through (a timeline card stands for two or more)
    qint64 total = 0; // every stored row of the room, blocked ones included
    int blockSize = 0;
    QVector<qint64> anchors; // anchors[b]: the index (seq) of row b * blockSize

    // The block that holds `index` if it is shown at all: the last block whose anchor is not after it.
    int blockOf(qint64 index) const
    {
        const auto it = std::upper_bound(anchors.cbegin(), anchors.cend(), index);
        return it == anchors.cbegin() ? -1 : int(it - anchors.cbegin()) - 1;
    }
};

Q_DECLARE_METATYPE(RowIndex)
