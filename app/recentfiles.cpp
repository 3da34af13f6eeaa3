#include "recentfiles.h"

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
        if (QFileInfo::exists(f))
            existing << f;
    }
    return existing;
}

void RecentFiles::fillMenu(QMenu* menu, const std::function<void(const QString&)>& open)
{
    menu->clear();
    const QStringList list = files();
    for (const QString& f : list)
        menu->addAction(QFileInfo(f).fileName() + QStringLiteral("  —  ") + QFileInfo(f).path(), menu, [open, f] { open(f); });
    if (list.isEmpty())
        menu->addAction(QObject::tr("(nothing opened yet)"))->setEnabled(false);
}
