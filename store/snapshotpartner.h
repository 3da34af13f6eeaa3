#pragma once

#include <memory>
#include <QString>

struct sqlite3;
class TextPacker;

// A second reader of a workspace that reads the very snapshot a Workspace's own connection reads, so that one pass
// over a big room can be split between two threads (Workspace::facets: at a million events the panes' count is
// SQLite stepping the scan index and reading each row's columns, all of it on one core).
//
// Two connections of one file can only be on one snapshot if nothing committed between their reads beginning, and
// this SQLite has no snapshot API. So a third connection, the gate, takes the write lock (BEGIN IMMEDIATE) while
// both begin to read, and lets it go at once: no commit of any connection, in any process, can fall in between.
// When the gate cannot have the lock at once (an import is writing), nothing is begun and the caller reads alone.
class SnapshotPartner
{
public:
    // Opens the two connections; throws StoreError naming the file when it cannot.
    explicit SnapshotPartner(const QString& path);
    ~SnapshotPartner();
    SnapshotPartner(const SnapshotPartner&) = delete;
    SnapshotPartner& operator=(const SnapshotPartner&) = delete;

    // The partner's connection (NOMUTEX: used by one thread at a time, the caller's or the one it hands it to).
    sqlite3* handle() const { return m_reader; }

    // Read transactions on `own` and on the partner, on one snapshot, ended when the Pin goes. Not pinned (and
    // nothing begun) when `own` is in a transaction already (its rows may not be committed) or part-way through a
    // statement's rows (its snapshot is older than the gate), or when the gate could not have the write lock at once.
    class Pin
    {
    public:
        // `busyTimeoutMs`: how long `own` waits for a lock, as it did before (SQLite gives no way to read it back);
        // the partner's reads wait as long.
        Pin(SnapshotPartner& partner, sqlite3* own, int busyTimeoutMs);
        ~Pin();
        Pin(const Pin&) = delete;
        Pin& operator=(const Pin&) = delete;
        explicit operator bool() const { return m_own != nullptr; }

    private:
        SnapshotPartner& m_partner;
        sqlite3* m_own = nullptr;
    };

private:
    sqlite3* m_reader = nullptr;
    sqlite3* m_gate = nullptr;
    std::unique_ptr<TextPacker> m_packer; // the workspace's SQL functions on the reader, as on its own connection
};
