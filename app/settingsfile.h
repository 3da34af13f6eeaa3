#pragma once

#include <QString>

// Where the settings live, and who may read them: the recent paths and database URIs are a map of what a user
// reviews. Under the organisation "sightline" (~/.config/sightline/sightline.conf; without one Qt named the folder
// "Unknown Organization"), the owner's alone (the file 0600, its folder 0700). A file left in the old folder is
// moved over once, so the recent list and the reviewer's name carry on.
class SettingsFile
{
public:
    // Sets the application's names and readies the file; call before the first QSettings.
    static void prepare();
    static QString path(); // after prepare()
};
