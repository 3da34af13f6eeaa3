#include "settings.h"

#include <QSettings>

namespace {

namespace Key {
const QString author = QStringLiteral("editor/author");
const QString theme = QStringLiteral("view/theme");
const QString recentFiles = QStringLiteral("files/recent");
const QString recentDatabases = QStringLiteral("databases/recent");
const QString savedFilters = QStringLiteral("filters/saved");
const QString currentFilter = QStringLiteral("filters/current");
const QString hiddenRoomColumns = QStringLiteral("roomList/hiddenColumns");
const QString geometry = QStringLiteral("window/geometry");
const QString splitter = QStringLiteral("window/splitter");
const QString docks = QStringLiteral("window/docks");
const QString exportFormat = QStringLiteral("export/format");
const QString exportScope = QStringLiteral("export/scope");
const QString exportExpanded = QStringLiteral("export/expanded");
const QString exportSigningKey = QStringLiteral("export/signingKey");
const QString exportFolder = QStringLiteral("export/folder");
} // namespace Key

} // namespace

QString Settings::author()
{
    return QSettings().value(Key::author).toString().trimmed();
}

void Settings::setAuthor(const QString& name)
{
    QSettings().setValue(Key::author, name.trimmed());
}

QString Settings::theme()
{
    return QSettings().value(Key::theme).toString();
}

void Settings::setTheme(const QString& name)
{
    QSettings().setValue(Key::theme, name);
}

QStringList Settings::recentFiles()
{
    return QSettings().value(Key::recentFiles).toStringList();
}

void Settings::setRecentFiles(const QStringList& files)
{
    QSettings().setValue(Key::recentFiles, files);
}

QStringList Settings::recentDatabases()
{
    return QSettings().value(Key::recentDatabases).toStringList();
}

void Settings::setRecentDatabases(const QStringList& uris)
{
    QSettings().setValue(Key::recentDatabases, uris);
}

QVariantMap Settings::savedFilters()
{
    return QSettings().value(Key::savedFilters).toMap();
}

void Settings::setSavedFilters(const QVariantMap& filters)
{
    QSettings().setValue(Key::savedFilters, filters);
}

QString Settings::currentFilter()
{
    return QSettings().value(Key::currentFilter).toString();
}

void Settings::setCurrentFilter(const QString& text)
{
    QSettings().setValue(Key::currentFilter, text);
}

std::optional<QList<int>> Settings::hiddenRoomColumns()
{
    const QSettings settings;
    if (!settings.contains(Key::hiddenRoomColumns))
        return std::nullopt;
    QList<int> columns;
    for (const QVariant& column : settings.value(Key::hiddenRoomColumns).toList())
        columns << column.toInt();
    return columns;
}

void Settings::setHiddenRoomColumns(const QList<int>& columns)
{
    QVariantList list;
    for (int column : columns)
        list << column;
    QSettings().setValue(Key::hiddenRoomColumns, list);
}

Settings::Window Settings::window()
{
    const QSettings settings;
    return { settings.value(Key::geometry).toByteArray(), settings.value(Key::splitter).toByteArray(),
        settings.value(Key::docks).toByteArray() };
}

void Settings::setWindow(const Window& window)
{
    QSettings settings;
    settings.setValue(Key::geometry, window.geometry);
    settings.setValue(Key::splitter, window.splitter);
    settings.setValue(Key::docks, window.docks);
}

Settings::Export Settings::exportChoices()
{
    const QSettings settings;
    Export choices;
    choices.format = settings.value(Key::exportFormat, choices.format).toString();
    if (settings.contains(Key::exportScope))
        choices.scope = settings.value(Key::exportScope).toInt();
    choices.expanded = settings.value(Key::exportExpanded, false).toBool();
    choices.signingKey = settings.value(Key::exportSigningKey).toString();
    choices.folder = settings.value(Key::exportFolder).toString();
    return choices;
}

void Settings::setExportChoices(const Export& choices)
{
    QSettings settings;
    settings.setValue(Key::exportFormat, choices.format);
    if (choices.scope)
        settings.setValue(Key::exportScope, *choices.scope);
    settings.setValue(Key::exportSigningKey, choices.signingKey);
    settings.setValue(Key::exportExpanded, choices.expanded);
    settings.setValue(Key::exportFolder, choices.folder);
}
