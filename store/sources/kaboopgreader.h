#pragma once

#include "pgconnection.h"
#include "sourcereader.h"

#include <memory>

// kaboo-runtime's PostgresThreadStore (SOURCES.md §3.1): threads as listThreads() gives them (most recently
// updated first), and any thread that has events but no row of its own; a thread's events in seq order. An
// event's index is its seq, kaboo's one global bigserial: it never changes, so a sync reads the events after
// the last seq read, while a thread's positions move when kaboo deletes a superseded ACTIVITY_SNAPSHOT. The
// gaps seq has (other threads' rows, pruned snapshots) are the store's own. A thread is assembled whole, as
// a JSON Lines log is (AguiThread).
class KabooPgReader : public SourceReader
{
public:
    // Throws StoreError when the role may not read the store's tables.
    explicit KabooPgReader(std::unique_ptr<PgConnection> connection);

    // Whether the database holds kaboo's tables.
    static bool holds(PgConnection& connection);

    QString origin() const override;
    SourceIdentity identity() const override;
    QVector<RoomInfo> rooms(const SourceNotes& notes) override;
    qint64 rowsAfter(const RoomCursor& cursor) override;
    void read(const RoomCursor& cursor, RoomFeed& feed) override;

    static constexpr int PageRows = 5000;

private:
    std::unique_ptr<PgConnection> m_pg;
};
