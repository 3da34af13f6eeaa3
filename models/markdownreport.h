#pragma once

#include "reportscope.h"

#include "sha256.h"

class QIODevice;
class Workspace;

// A report as Markdown: for each room a header (source, time span, who made it and when, the filter), a summary
// (events by kind, tool calls by outcome), the transcript (a message as a quote, a tool call as a block with
// its arguments and result), the notes, the redaction ledger and the edit journal. Text that would be read as
// HTML is escaped, and a code block's fence is longer than any run of backticks in it.
class MarkdownReport
{
public:
    // Writes the report to `out`; adds each event's canonical line to `events` (the manifest's digest). Returns how
    // many events it holds.
    static qint64 write(Workspace& ws, const ReportScope& scope, QIODevice& out, Sha256* events = nullptr);

    static QString escaped(const QString& text); // for a line of Markdown: no HTML, no stray emphasis
    static QString codeBlock(const QString& text, const QString& language); // fenced, whatever it holds
};
