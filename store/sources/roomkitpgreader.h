#pragma once

#include "pgconnection.h"
#include "sourcereader.h"

#include <memory>
#include <QHash>

// RoomKit's PostgresStore (schema version 2, SOURCES.md §1.7): rooms in created_at order, as list_rooms gives
// them, with their bindings and participants; per room its events after the cursor in index order, read by
// keyset in pages. The store keeps columns where the SQLite store keeps one JSON document, so the server
// builds each event's JSON from its columns in the SQLite store's shape (PostgreSQL keeps no delivery_results),
// and the rows then go the SQLite file's way: the same decoding, pairing and outcomes.
class RoomKitPgReader : public SourceReader
{
public:
    // Throws StoreError when the role may not read the store's tables.
    explicit RoomKitPgReader(std::unique_ptr<PgConnection> connection);

    // Whether the database holds RoomKit's tables.
    static bool holds(PgConnection& connection);

    QString origin() const override;
    SourceIdentity identity() const override;
    QVector<RoomInfo> rooms(const SourceNotes& notes) override;
    qint64 rowsAfter(const RoomCursor& cursor) override;
    void read(const RoomCursor& cursor, RoomFeed& feed) override;

    // Rows per page: each page is one statement of its own, so a lost connection loses at most one.
    static constexpr int PageRows = 2000;

private:
    std::unique_ptr<PgConnection> m_pg;
    QString m_version;
    QHash<QString, qint64> m_tallies; // rooms.event_count by room, as rooms() read it
};
