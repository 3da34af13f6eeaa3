#pragma once

#include <QString>

// Sightline reads and writes SQLite through QtSql (the QSQLITE driver) and, on the hot paths, through the C API
// on the driver's own handle. That is only sound when both are the same library: a QSQLITE plugin built with a
// SQLite of its own would get calls from another SQLite on its handles, which corrupts memory or files.
namespace SqliteLibrary {
// Empty when the driver is there and runs the SQLite this build calls; else a message saying what to install.
// Checked once (the answer is kept).
QString check();
// The message for a driver whose SQLite (`driverVersion`, `driverSource`) is not the one linked.
QString compare(const QString& driverVersion, const QString& driverSource, const QString& linkedVersion,
    const QString& linkedSource);
} // namespace SqliteLibrary
