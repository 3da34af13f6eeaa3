#pragma once

#include "eventfilter.h"
#include "sources/pgconnection.h"
#include "storeerror.h"

#include <functional>

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
    QString source; // what the workspace was made from, for the header: print shownSource(), never this
    QString version; // Sightline's, for the header
    // The team journal's chain as the report was made (a workspace attached to a team store): the store, its number of
    // entries and the last one's hash. Named in the manifest (signed with it), so that entries removed or changed
    // later are seen against the store (verify --team). No store: entries -1.
    QString teamStore;
    qint64 teamEntries = -1;
    QString teamHead;
    // Called after each event a writer reads and each item of the timeline it writes (ReportExport::count says how
    // many calls a report makes): a window's progress bar, its Cancel (it throws ReportCancelled), and a preview
    // that has enough (ReportPreview).
    std::function<void()> eventWritten;

    // The source as a report may name it: a database's URI without its password, wherever it was given (in the
    // user part or as ?password=), since reports are handed to people who must not learn it.
    QString shownSource() const { return PgConnection::isUri(source) ? PgConnection::withoutPassword(source) : source; }

    void written() const
    {
        if (eventWritten)
            eventWritten();
    }
};

// What stops an export the user cancelled: nothing of the report is kept (ReportExport writes to a QSaveFile).
class ReportCancelled : public StoreError
{
public:
    explicit ReportCancelled(const QString& path)
        : StoreError(path, {}, QStringLiteral("cancelled: nothing was written"))
    {
    }
};
