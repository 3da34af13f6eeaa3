#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

// What makes a report checkable later: REPORT.manifest.json beside it (out.csv.manifest.json), with the SHA-256 of each file written and
// of the canonical event list it was made from (each event's `events --json` line after its room's id, in
// order), the format, the rooms, the filter, how many events, who made it and when. verify() tells whether any
// file changed since, naming it.
class ReportManifest
{
public:
    struct Content
    {
        QString format;
        QStringList rooms;
        QString filter;
        qint64 events = 0;
        QByteArray eventsSha256; // hex
        QString author;
        QString version;
        QString keyId; // SHA-256 of the public key that signs the manifest (ReportSignature); empty: unsigned
        QString teamStore; // the team journal's chain when the report was made (ReportScope); entries -1: none
        qint64 teamEntries = -1;
        QString teamHead;
    };

    // Where the manifest of `report` goes: out.csv -> out.csv.manifest.json.
    static QString pathFor(const QString& report);
    // Writes the manifest of `files` (the report first) beside the first. Returns its path; throws StoreError
    // naming the file when it cannot be read or written.
    static QString write(const QStringList& files, const Content& content);

    // The manifest of a set of reports (export --each-room): FOLDER/reports.manifest.json, listing every report,
    // manifest and signature the set wrote, so that a room's report taken out with its manifest, or one put in, is
    // seen. verify() of the folder (or of this file) checks it: every file listed is as written, and every other
    // file in the folder is named as not in the set.
    static QString setPathFor(const QString& folder);
    static QString writeSet(const QString& folder, const QStringList& files, const Content& content);

    struct Check
    {
        bool ok = false;
        QString manifest;
        QStringList changed; // files whose bytes are not what the manifest says
        QStringList missing; // files the manifest lists that are not there
        QString error; // the manifest itself cannot be read
        QString keyId; // the key the manifest says signs it; empty: unsigned
        QString teamStore; // the team journal it names (entries -1: none)
        qint64 teamEntries = -1;
        QString teamHead;
    };
    // `path`: a report or its manifest, or a set's folder or its manifest.
    static Check verify(const QString& path);

    static QByteArray sha256Of(const QString& file, QString* error = nullptr); // hex; empty when unreadable
};
