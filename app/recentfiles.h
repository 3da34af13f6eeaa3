#pragma once

#include <functional>
#include <QStringList>

class QMenu;

// The sources opened before, newest first, kept in the settings: File ▸ Open Recent, and what opens when
// Sightline starts with nothing named.
class RecentFiles
{
public:
    static constexpr int Kept = 10;

    static void remember(const QString& path);
    // The ones that still exist (and every database: whether it does is known on connecting), newest first.
    static QStringList files();
    // Fills `menu` with them (file name, then its folder), each opening through `open`.
    static void fillMenu(QMenu* menu, const std::function<void(const QString&)>& open);
};
