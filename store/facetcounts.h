#pragma once

#include <QMap>
#include <QMetaType>
#include <QString>
#include <QVector>

// One value of a field in a room, with the number of events that hold it under the other filters.
struct FacetValue
{
    QString value;
    qint64 count = 0;
    QString group; // what it sits under in the panes: a type's kind, a channel's type
};

// What the filter panes show beside each choice, faceted: a field's counts apply every filter except that
// field's own, so ticking a second type shows how many it adds. Counted in events (the "X of Y" unit) by one
// pass over the room on the count worker (Workspace::facets).
struct FacetCounts
{
    qint64 roomId = 0;
    qint64 shown = 0; // events the whole filter lets through (RowIndex::shown)
    // By the filter bar's field name (type, kind, channel, channel_type, participant, tool, outcome), most
    // events first; at most `limit` values a field (the rest is summed in `more`).
    QMap<QString, QVector<FacetValue>> fields;
    QMap<QString, qint64> more;
    qint64 blocked = 0; // blocked rows under the other filters, whatever blocked: says
    qint64 unblocked = 0;
    // Events over time under the other filters: bins of equal width from the room's first event to its last.
    qint64 firstMicros = 0;
    qint64 lastMicros = 0;
    QVector<qint64> histogram;

    qint64 count(const QString& field, const QString& value) const
    {
        for (const FacetValue& v : fields.value(field))
            if (v.value == value)
                return v.count;
        return 0;
    }
};

Q_DECLARE_METATYPE(FacetCounts)
