#pragma once

#include "compare/runstep.h"
#include "compare/steppair.h"

#include <functional>
#include <QString>

// A comparison of two runs written as a report a person reads (Markdown or HTML), with a manifest beside it like
// every report (ReportManifest; signed with --sign), so that `verify` checks it: a heading naming A and B and the
// filter, the summary, a row an aligned step, and each difference spelt out key by key.
class CompareReport
{
public:
    struct Input
    {
        QString titleA, titleB; // what each side is: "support.sqlite, room sup-duplicate-charge"
        QString roomA, roomB; // the rooms' own ids, for the manifest
        QString filter; // as written; empty: every step
        QString author;
        QString version;
        RunStepList a, b;
        StepPairs pairs;
        // A step's texts (read again from its room: RunSteps::text), for what differs in a changed pair; `sideB`:
        // the step is B's. None: the report names the fields that differ without spelling them out.
        std::function<StepText(const RunStep& step, bool sideB)> textOf;
    };
    struct Result
    {
        QString manifest;
        QString signature; // empty: unsigned
    };

    static QStringList formats() { return { QStringLiteral("md"), QStringLiteral("html") }; }
    // Writes `path` whole or not at all (0600, as every report); throws StoreError naming the file.
    static Result write(const Input& input, const QString& format, const QString& path, const QString& signingKey = {});
};
