#pragma once

#include <optional>
#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>
#include <QVariantMap>

// Every preference Sightline keeps between runs, typed, each key spelled once. The keys are what users' settings
// files already hold (~/.config/Sightline/Sightline.conf): renaming one forgets what people chose, so
// tst_settings pins each spelling.
class Settings
{
public:
    // Edit ▸ Set Your Name: who notes, edits and reviews are by (Reviewer falls back to the login name).
    static QString author();
    static void setAuthor(const QString& name);

    static QString theme(); // "dark", "light" or empty for the system's
    static void setTheme(const QString& name);

    static QStringList recentFiles(); // newest first, as remembered (RecentFiles drops the ones gone)
    static void setRecentFiles(const QStringList& files);
    static QStringList recentDatabases(); // PostgreSQL URIs without their passwords
    static void setRecentDatabases(const QStringList& uris);

    static QVariantMap savedFilters(); // name → filter text
    static void setSavedFilters(const QVariantMap& filters);
    static QString currentFilter(); // the filter bar's text when the window closed
    static void setCurrentFilter(const QString& text);

    // The room list's hidden columns; none kept yet: the default set.
    static std::optional<QList<int>> hiddenRoomColumns();
    static void setHiddenRoomColumns(const QList<int>& columns);

    struct Window
    {
        QByteArray geometry, splitter, docks;
    };
    static Window window();
    static void setWindow(const Window& window);

    struct Export
    {
        QString format = QStringLiteral("pdf");
        std::optional<int> scope; // ExportDialog::Scope; none: its default
        bool expanded = false;
        QString signingKey; // the key file's path, never the key
        QString folder;
    };
    static Export exportChoices();
    static void setExportChoices(const Export& choices);
};
