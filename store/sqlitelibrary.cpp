#include "sqlitelibrary.h"

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <sqlite3.h>

namespace SqliteLibrary {

QString compare(const QString& driverVersion, const QString& driverSource, const QString& linkedVersion,
    const QString& linkedSource)
{
    if (driverVersion == linkedVersion && driverSource == linkedSource)
        return {};
    return QStringLiteral("Qt's SQLite driver runs SQLite %1 (%2), but Sightline was built with SQLite %3 (%4); "
                          "they must be the same library. Install the SQLite driver of the system's Qt (on Debian: "
                          "libqt6sql6-sqlite) and the matching libsqlite3-0.")
        .arg(driverVersion, driverSource.left(20), linkedVersion, linkedSource.left(20));
}

QString check()
{
    static const QString answer = [] {
        if (!QSqlDatabase::isDriverAvailable(QStringLiteral("QSQLITE"))) {
            return QStringLiteral("Qt's SQLite driver (QSQLITE) is not installed (on Debian: libqt6sql6-sqlite).");
        }
        QString result;
        const QString name = QStringLiteral("sightline-sqlite-check");
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
            db.setDatabaseName(QStringLiteral(":memory:"));
            if (!db.open()) {
                result = QStringLiteral("Qt's SQLite driver cannot open a database: ") + db.lastError().text();
            } else {
                QSqlQuery q(db);
                if (!q.exec(QStringLiteral("SELECT sqlite_version(), sqlite_source_id()")) || !q.next()) {
                    result = QStringLiteral("Qt's SQLite driver cannot run a query: ") + q.lastError().text();
                } else {
                    result = compare(q.value(0).toString(), q.value(1).toString(),
                        QString::fromLatin1(sqlite3_libversion()), QString::fromLatin1(sqlite3_sourceid()));
                }
            }
            db.close();
        }
        QSqlDatabase::removeDatabase(name);
        return result;
    }();
    return answer;
}

} // namespace SqliteLibrary
