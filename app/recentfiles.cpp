#include "recentfiles.h"

#include "settings.h"
#include "sources/importer.h"
#include "sources/pgconnection.h"

#include <QFileInfo>
#include <QMenu>
#include <QObject>

void RecentFiles::remember(const QString& path)
{
    QStringList files = Settings::recentFiles();
    files.removeAll(path);
    files.prepend(path);
    Settings::setRecentFiles(files.mid(0, Kept));
}

QStringList RecentFiles::files()
{
    QStringList existing;
    for (const QString& f : Settings::recentFiles()) {
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
