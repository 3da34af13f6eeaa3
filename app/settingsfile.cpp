#include "settingsfile.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>

void SettingsFile::prepare()
{
    QCoreApplication::setOrganizationName(QStringLiteral("sightline"));
    const QString file = path();
    const QString config = QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation);
    const QString old = config + QStringLiteral("/Unknown Organization/") + QCoreApplication::applicationName()
        + QStringLiteral(".conf");
    QDir().mkpath(QFileInfo(file).path());
    QFile::setPermissions(QFileInfo(file).path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    if (!QFileInfo::exists(file) && QFileInfo::exists(old))
        QFile::rename(old, file);
    if (!QFileInfo::exists(file)) {
        // Made empty and private now: QSettings writes it anew keeping the permissions it finds.
        QFile made(file);
        if (made.open(QIODevice::WriteOnly))
            made.close();
    }
    QFile::setPermissions(file, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
}

QString SettingsFile::path()
{
    return QSettings().fileName();
}
