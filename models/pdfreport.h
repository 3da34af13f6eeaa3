#pragma once

#include "reportscope.h"

#include <QCryptographicHash>

class QIODevice;
class Workspace;

// A report as PDF, through Qt: the HTML report laid out by QTextDocument (cards as boxed tables, every card
// open, long JSON wrapped) on A4 pages by QPdfWriter, with a header naming the rooms and a footer with the page
// number; fonts embedded, text extractable. Needs a QGuiApplication (fonts).
class PdfReport
{
public:
    // Writes the report to `out`; adds each event's canonical line to `events`. Returns how many events it holds.
    static qint64 write(Workspace& ws, const ReportScope& scope, QIODevice& out, QCryptographicHash* events = nullptr);
};
