#pragma once

#include "eventfilter.h"

#include <QString>
#include <QVector>

// What a report holds: rooms of one workspace, the events a filter lets through (the raw rows, as `events`
// lists them), and who made it. The report writers read it from the store, never from the views.
struct ReportScope
{
    QVector<qint64> roomIds;
    EventFilter filter;
    QString filterText; // the filter as the user wrote it, for the report's header and its manifest
    QString author; // who made the report
    QString source; // what the workspace was made from, for the header
    QString version; // Sightline's, for the header
};
