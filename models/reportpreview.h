#pragma once

#include "reportscope.h"

#include <QImage>
#include <QString>

class Workspace;

// What the export dialog shows of a report before it is written: the first page of a PDF as it prints, an HTML
// page's beginning in its printable rendering (a text view showed it without its style: "failed1served2"), or the
// first lines of a CSV, Markdown or JSON Lines file. Made by the report's own writer stopped once it has written
// enough, so that it is what the export writes, figures included (the summaries are counted over the whole scope
// before the timeline starts).
struct ReportPreview
{
    QImage page; // pdf, html: the first page as it prints
    QString text; // csv, md, jsonl: the first lines

    // Throws StoreError as ReportExport does, and whatever `scope.eventWritten` throws (a newer preview wanted).
    static ReportPreview make(Workspace& ws, const ReportScope& scope, const QString& format, bool expanded, int width);
};
