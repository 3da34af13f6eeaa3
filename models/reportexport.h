#pragma once

#include "reportscope.h"

#include <QString>
#include <QVector>

class Sha256;
class QIODevice;
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
    // How many steps a report of `scope` in `format` takes (ReportScope::eventWritten calls): a progress bar's end.
    // CSV and JSON Lines write each event once; the others count the events, then write the timeline's items.
    static qint64 steps(Workspace& ws, const ReportScope& scope, const QString& format);
    // Writes the report to `out` (no manifest); adds each event's canonical line to `events`. Returns how many
    // events it holds.
    static qint64 write(Workspace& ws, const ReportScope& scope, const QString& format, bool expanded, QIODevice& out,
        Sha256* events = nullptr);
    static QString suffix(const QString& format); // the file name's: .csv, .md, .html, .pdf, .jsonl
    // Throws StoreError naming the file when it cannot be written, or the format is not one of formats(), or the key
    // when `signingKey` (a PEM file) holds no Ed25519 private key: then nothing is written.
    static Result run(Workspace& ws, const ReportScope& scope, const QString& format, bool expanded, const QString& path,
        const QString& signingKey = {});

    // A report per room of `scope`, each with its manifest, in `folder` (made when missing), named after its room
    // (fileName). Throws as run() does, naming the room's file; the reports written before it stay, each whole.
    struct Each
    {
        QString path;
        Result result;
    };
    static QVector<Each> runEach(Workspace& ws, const ReportScope& scope, const QString& format, bool expanded,
        const QString& folder, const QString& signingKey = {});
    // A file name for a room's report: its id with what a file name cannot hold (or should not: spaces, colons)
    // replaced by '_', and the format's suffix.
    static QString fileName(const QString& roomId, const QString& format);
};
