#pragma once

#include "../sqlitestatement.h"
#include "sourcedatabase.h"
#include "sourcereader.h"

#include <memory>

#include <QJsonObject>
#include <QSet>

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
    // The room's highest whole index past the cursor, by a seek: the count itself in a store RoomKit wrote (its
    // indexes run 0, 1, 2...), read at once where a count of the biggest room took half a second.
    qint64 quickRowsAfter(const RoomCursor& cursor) override;
    bool countsApart() const override { return true; }
    void countApart(const QVector<RoomCursor>& rooms,
        const std::function<bool(const RoomCursor& room, qint64 rows)>& put) const override;
    void read(const RoomCursor& cursor, RoomFeed& feed) override;
    // The room's row at `seq` has another id than the one read there last (or there is none): the store was written
    // anew (an agent run again into the same file). One seek along RoomKit's index on (room_id, idx).
    bool cursorRowChanged(const RoomInfo& room, qint64 seq, const QString& id) override;

    // Whether `path` is a RoomKit SQLite store (opened read-only to look at its tables).
    static bool detect(const QString& path);
    // A room's title as RoomKit's own apps show it: its metadata's title, name or subject.
    static QString roomTitle(const QJsonObject& room);

private:
    QString m_path;
    SourceDatabase m_src;
    int m_version = 0;
    // The rooms to read again the slow way: a pass over the whole room finds its odd rows first. A room is read by
    // seeks for its odd rows (NULL, negative, text) and then in index order; a positive idx that is not a whole
    // number (2.5, 1e300) falls among the whole ones, where no seek finds it, and sends the room here (see read()).
    QSet<QString> m_readSlowly;
    // The counts and the seek, prepared once for the listing of every room (ten thousand rooms, ten thousand
    // prepares); dropped before a read, which may open the store again.
    std::unique_ptr<SqliteStatement> m_countAfter;
    std::unique_ptr<SqliteStatement> m_countAll;
    std::unique_ptr<SqliteStatement> m_highest;
    std::unique_ptr<SqliteStatement> m_rowId; // cursorRowChanged: a seek a room, every sync
};
