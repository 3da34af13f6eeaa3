#include "reportmanifest.h"

#include "sha256.h"

#include "storeerror.h"

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
} // namespace

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
    QJsonArray written;
    for (const QString& file : files) {
        QString error;
        const QByteArray sha = sha256Of(file, &error);
        if (sha.isEmpty())
            throw StoreError(file, {}, QStringLiteral("cannot read the report to sign it: ") + error);
        written.append(QJsonObject { { QStringLiteral("name"), QFileInfo(file).fileName() },
            { QStringLiteral("sha256"), QString::fromLatin1(sha) }, { QStringLiteral("bytes"), QFileInfo(file).size() } });
    }
    QJsonObject manifest { { QStringLiteral("manifest"), QStringLiteral("sightline report 1") },
        { QStringLiteral("format"), c.format }, { QStringLiteral("files"), written },
        { QStringLiteral("rooms"), QJsonArray::fromStringList(c.rooms) }, { QStringLiteral("filter"), c.filter },
        { QStringLiteral("events"), c.events }, { QStringLiteral("events_sha256"), QString::fromLatin1(c.eventsSha256) },
        { QStringLiteral("generated_at"), QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs) },
        { QStringLiteral("generated_by"), c.author }, { QStringLiteral("sightline"), c.version } };
    if (!c.keyId.isEmpty())
        manifest.insert(QStringLiteral("signing_key_sha256"), c.keyId);
    const QString path = pathFor(files.value(0));
    QSaveFile out(path); // all of it or nothing
    if (!out.open(QIODevice::WriteOnly) || out.write(QJsonDocument(manifest).toJson(QJsonDocument::Indented)) < 0
        || !out.commit())
        throw StoreError(path, {}, QStringLiteral("cannot write the manifest: ") + out.errorString());
    return path;
}

ReportManifest::Check ReportManifest::verify(const QString& path)
{
    Check check;
    check.manifest = pathFor(path);
    QFile f(check.manifest);
    if (!f.open(QIODevice::ReadOnly)) {
        check.error = QStringLiteral("%1: cannot read the manifest: %2").arg(check.manifest, f.errorString());
        return check;
    }
    QJsonParseError parseError;
    const QJsonObject manifest = QJsonDocument::fromJson(f.readAll(), &parseError).object();
    if (parseError.error != QJsonParseError::NoError
        || manifest.value(QLatin1String("manifest")).toString() != QLatin1String("sightline report 1")) {
        check.error = QStringLiteral("%1: not a Sightline report manifest (%2)")
                          .arg(check.manifest, parseError.error != QJsonParseError::NoError
                                  ? QStringLiteral("at byte %1: %2").arg(parseError.offset).arg(parseError.errorString())
                                  : QStringLiteral("no \"manifest\": \"sightline report 1\""));
        return check;
    }
    check.keyId = manifest.value(QLatin1String("signing_key_sha256")).toString();
    const QDir dir = QFileInfo(check.manifest).dir();
    for (const QJsonValue& v : manifest.value(QLatin1String("files")).toArray()) {
        const QJsonObject file = v.toObject();
        const QString name = file.value(QLatin1String("name")).toString();
        // Only a file beside the manifest: a name with a path in it is not one this manifest wrote.
        if (name.isEmpty() || name.contains(QLatin1Char('/')) || name == QLatin1String("..")) {
            check.changed << name;
            continue;
        }
        if (!QFileInfo::exists(dir.filePath(name)))
            check.missing << dir.filePath(name);
        else if (sha256Of(dir.filePath(name)) != file.value(QLatin1String("sha256")).toString().toLatin1())
            check.changed << dir.filePath(name);
    }
    check.ok = check.changed.isEmpty() && check.missing.isEmpty();
    return check;
}
