#pragma once

#include "reportscope.h"

#include <QString>

class Workspace;

// One export, as the window and the command line make it: the report in `format` (csv, md, html, pdf, jsonl) written
// beside and renamed over `path` (a failed export leaves whatever was there), then its manifest.
class ReportExport
{
public:
    struct Result
    {
        qint64 events = 0;
        QString manifest;
        QString signature; // the manifest's signature, when a key signed it
    };
    static const QStringList& formats(); // csv, md, html, pdf, jsonl
    // How many events a report of `scope` holds: a progress bar's end.
    static qint64 count(Workspace& ws, const ReportScope& scope);
    static QString suffix(const QString& format); // the file name's: .csv, .md, .html, .pdf, .jsonl
    // Throws StoreError naming the file when it cannot be written, or the format is not one of formats(), or the key
    // when `signingKey` (a PEM file) holds no Ed25519 private key: then nothing is written.
    static Result run(Workspace& ws, const ReportScope& scope, const QString& format, bool expanded, const QString& path,
        const QString& signingKey = {});
};
