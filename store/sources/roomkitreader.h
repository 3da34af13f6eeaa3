#pragma once

#include "../sqlitestatement.h"
#include "sourcedatabase.h"
#include "sourcereader.h"

#include <memory>

#include <QJsonObject>

// RoomKit's SQLite store (schema versions 1 to 3, SOURCES.md §1.7): its rooms as RoomKit lists them (with their
// bindings and participants, and any room that has events but no row of its own), and per room the rows whose
// index is above the cursor, in index order (never rowid), decoded from the verbatim JSON on a thread of their
// own while the import writes, and their tool calls paired as they stream by.
class RoomKitReader : public SourceReader
{
public:
    // Throws StoreError naming the file when it cannot be read or is not a RoomKit store of a known version.
    explicit RoomKitReader(const QString& path);

    QString origin() const override;
    SourceIdentity identity() const override;
    QVector<RoomInfo> rooms(const SourceNotes& notes) override;
    qint64 rowsAfter(const RoomCursor& cursor) override;
    qint64 rowsAfterUnread(const RoomCursor& cursor) override; // a plain count: the odd rows are found when it is read
    void read(const RoomCursor& cursor, RoomFeed& feed) override;

    // Whether `path` is a RoomKit SQLite store (opened read-only to look at its tables).
    static bool detect(const QString& path);
    // A room's title as RoomKit's own apps show it: its metadata's title, name or subject.
    static QString roomTitle(const QJsonObject& room);

private:
    QString m_path;
    SourceDatabase m_src;
    int m_version = 0;
    // The rowids of each room's odd rows (an idx that is not a whole number, or negative), as the count of a room
    // never imported found them in its pass over the room's index: read() reads them by rowid, not by another pass.
    QHash<QString, QByteArray> m_oddRows;
    // rowsAfter's counts, prepared once for the listing of every room (ten thousand rooms, ten thousand prepares);
    // dropped before a read, which may open the store again.
    std::unique_ptr<SqliteStatement> m_countAfter;
    std::unique_ptr<SqliteStatement> m_countNew;
    std::unique_ptr<SqliteStatement> m_countPlain;
};
