#include "reportmanifest.h"

#include "sha256.h"
#include "smallfile.h"

#include "storeerror.h"

#include <algorithm>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

namespace {
const QString suffix = QStringLiteral(".manifest.json");
const QString setName = QStringLiteral("reports.manifest.json");
const QString reportKind = QStringLiteral("sightline report 1");
const QString setKind = QStringLiteral("sightline report set 1");

// The manifest's JSON of `files` (each its name, digest and size) and of what they hold, as `kind`.
QJsonObject manifestOf(const QString& kind, const QStringList& files, const ReportManifest::Content& c)
{
    QJsonArray written;
    for (const QString& file : files) {
        QString error;
        const QByteArray sha = ReportManifest::sha256Of(file, &error);
        if (sha.isEmpty())
            throw StoreError(file, {}, QStringLiteral("cannot read the report to sign it: ") + error);
        written.append(QJsonObject { { QStringLiteral("name"), QFileInfo(file).fileName() },
            { QStringLiteral("sha256"), QString::fromLatin1(sha) }, { QStringLiteral("bytes"), QFileInfo(file).size() } });
    }
    // A comparison's report stands for the aligned steps it lists, not for events: said by the field's name.
    const QString unit = c.format.startsWith(QLatin1String("compare-")) ? QStringLiteral("steps") : QStringLiteral("events");
    QJsonObject manifest { { QStringLiteral("manifest"), kind }, { QStringLiteral("format"), c.format },
        { QStringLiteral("files"), written }, { QStringLiteral("rooms"), QJsonArray::fromStringList(c.rooms) },
        { QStringLiteral("filter"), c.filter }, { unit, c.events },
        { QStringLiteral("generated_at"), QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs) },
        { QStringLiteral("generated_by"), c.author }, { QStringLiteral("sightline"), c.version } };
    if (!c.eventsSha256.isEmpty())
        manifest.insert(unit + QStringLiteral("_sha256"), QString::fromLatin1(c.eventsSha256));
    if (!c.keyId.isEmpty())
        manifest.insert(QStringLiteral("signing_key_sha256"), c.keyId);
    if (c.teamEntries >= 0) {
        manifest.insert(QStringLiteral("team_journal"),
            QJsonObject { { QStringLiteral("store"), c.teamStore }, { QStringLiteral("entries"), c.teamEntries },
                { QStringLiteral("head"), c.teamHead } });
    }
    return manifest;
}

void save(const QString& path, const QJsonObject& manifest)
{
    QSaveFile out(path); // all of it or nothing
    if (!out.open(QIODevice::WriteOnly) || !out.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner)
        || out.write(QJsonDocument(manifest).toJson(QJsonDocument::Indented)) < 0 || !out.commit())
        throw StoreError(path, {}, QStringLiteral("cannot write the manifest: ") + out.errorString());
}
} // namespace

QString ReportManifest::setPathFor(const QString& folder)
{
    return QDir(folder).filePath(setName);
}

QString ReportManifest::writeSet(const QString& folder, const QStringList& files, const Content& content)
{
    const QString path = setPathFor(folder);
    save(path, manifestOf(setKind, files, content));
    return path;
}

QString ReportManifest::pathFor(const QString& report)
{
    if (report.endsWith(suffix))
        return report;
    // The report's whole name: out.csv and out.pdf side by side keep a manifest each.
    return report + suffix;
}

QByteArray ReportManifest::sha256Of(const QString& file, QString* error)
{
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly)) {
        if (error)
            *error = f.errorString();
        return {};
    }
    Sha256 hash;
    if (!hash.addData(&f)) {
        if (error)
            *error = f.errorString();
        return {};
    }
    return hash.result().toHex();
}

QString ReportManifest::write(const QStringList& files, const Content& c)
{
    const QJsonObject manifest = manifestOf(reportKind, files, c);
    const QString path = pathFor(files.value(0));
    save(path, manifest);
    return path;
}

ReportManifest::Check ReportManifest::verify(const QString& path)
{
    Check check;
    // A folder is a set's: its manifest is in it.
    check.manifest = QFileInfo(path).isDir() ? setPathFor(path) : pathFor(path);
    QByteArray bytes;
    try {
        bytes = SmallFile::read(check.manifest, QStringLiteral("manifest"), SmallFile::manifestLimit);
    } catch (const StoreError& e) {
        check.error = e.toString();
        return check;
    }
    QJsonParseError parseError;
    const QJsonObject manifest = QJsonDocument::fromJson(bytes, &parseError).object();
    const QString kind = manifest.value(QLatin1String("manifest")).toString();
    const bool set = kind == setKind;
    if (parseError.error != QJsonParseError::NoError || (kind != reportKind && !set)) {
        check.error = check.manifest + QStringLiteral(": not a Sightline report manifest (")
            + (parseError.error != QJsonParseError::NoError
                    ? QStringLiteral("at byte ") + QString::number(parseError.offset) + QStringLiteral(": ")
                        + parseError.errorString()
                    : QStringLiteral("no \"manifest\": \"sightline report 1\""))
            + QLatin1Char(')');
        return check;
    }
    check.keyId = manifest.value(QLatin1String("signing_key_sha256")).toString();
    if (manifest.contains(QLatin1String("team_journal"))) {
        const QJsonObject team = manifest.value(QLatin1String("team_journal")).toObject();
        check.teamStore = team.value(QLatin1String("store")).toString();
        check.teamEntries = team.value(QLatin1String("entries")).toInteger(-1);
        check.teamHead = team.value(QLatin1String("head")).toString();
    }
    // The report this manifest is checked for: its own name less the suffix (out.csv.manifest.json is out.csv's).
    // A manifest vouches only for what it lists, so one copied beside another file, or one listing nothing, must
    // not pass as that file's: the file must be listed, by its name, with a digest.
    const QString report = check.manifest.chopped(suffix.size());
    const QString reportName = QFileInfo(report).fileName();
    const QJsonArray files = manifest.value(QLatin1String("files")).toArray();
    if (files.isEmpty()) {
        check.error = check.manifest + QStringLiteral(": lists no files, so it vouches for none (") + reportName
            + QStringLiteral(" included)");
        return check;
    }
    QStringList listed;
    const QDir dir = QFileInfo(check.manifest).dir();
    for (const QJsonValue& v : files) {
        const QJsonObject file = v.toObject();
        const QString name = file.value(QLatin1String("name")).toString();
        const QByteArray sha = file.value(QLatin1String("sha256")).toString().toLatin1().toLower();
        listed << name;
        // Only a file beside the manifest: a name with a path in it is not one this manifest wrote.
        if (name.isEmpty() || name.contains(QLatin1Char('/')) || name == QLatin1String("..")
            || name == QLatin1String(".")) {
            check.changed << name;
            continue;
        }
        const QString filePath = dir.filePath(name);
        if (!QFileInfo::exists(filePath)) {
            check.missing << filePath;
            continue;
        }
        // A digest that is not one (missing, short, not hex) matches nothing; a FIFO or a device is no report.
        const bool isDigest = sha.size() == 64
            && std::all_of(sha.begin(), sha.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
        if (!isDigest)
            check.changed << filePath + QStringLiteral(" (the manifest gives no SHA-256 for it)");
        else if (!SmallFile::notRegular(filePath).isEmpty() || sha256Of(filePath) != sha)
            check.changed << filePath;
    }
    if (set) {
        // Every other file in the set's folder is one the set did not write: a room's report put in, or a file
        // renamed (its manifest and signature are in the set, and so is their own name).
        const QStringList present = dir.entryList(QDir::Files | QDir::Hidden | QDir::System, QDir::Name);
        for (const QString& name : present) {
            if (name != setName && name != setName + QStringLiteral(".sig") && !listed.contains(name))
                check.changed << dir.filePath(name) + QStringLiteral(" (not in the set's manifest)");
        }
        check.ok = check.changed.isEmpty() && check.missing.isEmpty();
        return check;
    }
    if (!listed.contains(reportName)) {
        check.error = check.manifest + QStringLiteral(": does not list ") + reportName
            + QStringLiteral(", so it is not that report's manifest (it lists ") + listed.join(QStringLiteral(", "))
            + QLatin1Char(')');
        check.changed.clear();
        check.missing.clear();
        return check;
    }
    check.ok = check.changed.isEmpty() && check.missing.isEmpty();
    return check;
}
