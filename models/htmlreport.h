#pragma once

#include "reportscope.h"

#include "sha256.h"

class QIODevice;
class Workspace;

// A report as one self-contained HTML file: inline CSS, no script, nothing fetched; every value escaped; tool
// calls as cards that open and close without script (<details>), all open when `expanded`; readable on a phone
// and printed. Per room: a header (source, time span, filter, who, when), a summary (events by kind, calls by
// outcome as an inline SVG chart, per tool its calls, failures and p50, p95 and longest duration), the timeline,
// the notes, the redaction ledger and the edit journal. Well-formed as XML too, so that any parser reads it.
class HtmlReport
{
public:
    struct Options
    {
        bool expanded = false; // cards open
        bool printable = false; // for QTextDocument (the PDF): tables instead of <details>, no SVG
    };
    // Writes the report to `out`; adds each event's canonical line to `events`. Returns how many events it holds.
    static qint64 write(Workspace& ws, const ReportScope& scope, QIODevice& out, const Options& options,
        Sha256* events = nullptr);
};
