#include "recentfiles.h"

#include "sources/importer.h"
#include "sources/pgconnection.h"

#include <QFileInfo>
#include <QMenu>
#include <QObject>
#include <QSettings>

namespace {
const QString key = QStringLiteral("files/recent");
}

void RecentFiles::remember(const QString& path)
{
    QSettings settings;
    QStringList files = settings.value(key).toStringList();
    files.removeAll(path);
    files.prepend(path);
    settings.setValue(key, files.mid(0, Kept));
}

QStringList RecentFiles::files()
{
    QStringList existing;
    for (const QString& f : QSettings().value(key).toStringList()) {
        if (PgConnection::isUri(f) || QFileInfo::exists(f))
            existing << f;
    }
    return existing;
}

void RecentFiles::fillMenu(QMenu* menu, const std::function<void(const QString&)>& open)
{
    menu->clear();
    const QStringList list = files();
    for (const QString& f : list) {
        // A database by its name and host, then its URI (never with a password: none is remembered).
        const QString where = PgConnection::isUri(f) ? f : QFileInfo(f).path();
        menu->addAction(Importer::displayName(f) + QStringLiteral("  —  ") + where, menu, [open, f] { open(f); });
    }
    if (list.isEmpty())
        menu->addAction(QObject::tr("(nothing opened yet)"))->setEnabled(false);
}
