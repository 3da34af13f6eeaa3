#pragma once

#include "htmlreport.h"
#include "reportscope.h"

#include <QByteArray>
#include "sha256.h"
#include <QImage>

class QIODevice;
class Workspace;

// A report as PDF, through Qt: the HTML report laid out by QTextDocument (cards as boxed tables, every card
// open, long JSON wrapped) on A4 pages by QPdfWriter, with a header naming the rooms and a footer with the page
// number; fonts embedded, text extractable. Needs a QGuiApplication (fonts).
class PdfReport
{
public:
    // Writes the report to `out`; adds each event's canonical line to `events`. Returns how many events it holds.
    static qint64 write(Workspace& ws, const ReportScope& scope, QIODevice& out, Sha256* events = nullptr);
    // The HTML report's options that the PDF is laid out from: printable, every card open.
    static HtmlReport::Options options();
    // The first page as write() prints it, from that HTML or its beginning, as an image `width` pixels wide (the
    // sheet, margins included): the export dialog's preview. Its footer says "Page 1", its count unknown.
    static QImage firstPage(const QByteArray& html, int width);
};
