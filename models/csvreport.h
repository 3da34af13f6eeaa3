#pragma once

#include "reportscope.h"

#include "sha256.h"

class QIODevice;
class Workspace;

// A report as CSV: one row per event of the scope (RFC 4180: quoted where needed, CRLF, UTF-8), with its room,
// index, time, type, kind, channel, participant, tool, outcome, text, what reviewers added (mark, labels,
// notes) and its state (edited, redacted). A cell a spreadsheet would run as a formula (=, +, -, @, a tab or a
// carriage return first) starts with a ' so that it is read as text. Streams: a room of any size in bounded
// memory. Redactions apply: the workspace holds only the placeholders.
class CsvReport
{
public:
    // Writes the report to `out`; adds each event's canonical line (EventSerializer::eventJson) to `events`, the
    // digest the manifest keeps. Returns how many events it wrote.
    static qint64 write(Workspace& ws, const ReportScope& scope, QIODevice& out, Sha256* events = nullptr);

    static QString cell(const QString& value); // one field, quoted and neutralised as the format needs
    static const QStringList& header();
};
