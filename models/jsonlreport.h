#pragma once

#include "reportscope.h"

class Sha256;
class QIODevice;
class Workspace;

// The lossless report: JSON Lines that Sightline opens again as a source (SightlineJsonlReader) whose events
// equal the ones exported. A header line ({"format": "sightline.report.jsonl", ...}), then per room a "room" line
// (its fields and its source), an "event" line per row the filter lets through (every derived column, the
// payload verbatim, the text the search index holds for it), then its "call" and "run" lines, and what reviewers
// added: "annotation" lines (notes, labels, marks, review), the redaction ledger ("redaction") and the edit journal
// ("journal"). Every line is one JSON object with a "record" key saying which. Written row by row as the store
// reads them: a room of a million events exports in bounded memory.
namespace JsonlReport {
inline constexpr const char* Format = "sightline.report.jsonl";
// Returns the number of events written; each is added to `events` as ReportRoom::digest does.
qint64 write(Workspace& ws, const ReportScope& scope, QIODevice& out, Sha256* events);
} // namespace JsonlReport
