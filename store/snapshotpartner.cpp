#include "snapshotpartner.h"

#include "storeerror.h"
#include "textpacker.h"

#include <QFile>
#include <sqlite3.h>

namespace {

sqlite3* openConnection(const QString& path)
{
    sqlite3* db = nullptr;
    // No new file: the workspace exists (its Workspace made it). NOMUTEX: each connection is used by one thread at
    // a time, as QtSql's own is.
    const int rc = sqlite3_open_v2(QFile::encodeName(path).constData(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX,
        nullptr);
    if (rc != SQLITE_OK) {
        const QString message = QString::fromUtf8(db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
        sqlite3_close(db);
        throw StoreError(path, {}, QStringLiteral("cannot open a second reader of the workspace: ") + message);
    }
    return db;
}

// True when a statement of `db` is part-way through its rows: its read, and so the connection's snapshot, began
// before any gate (a QSqlQuery not finished keeps one), and a BEGIN would not move it.
bool reading(sqlite3* db)
{
    for (sqlite3_stmt* st = sqlite3_next_stmt(db, nullptr); st; st = sqlite3_next_stmt(db, st)) {
        if (sqlite3_stmt_busy(st))
            return true;
    }
    return false;
}

// Begins a read transaction: BEGIN alone takes no snapshot in WAL mode, the first read does.
bool beginRead(sqlite3* db)
{
    if (sqlite3_exec(db, "BEGIN", nullptr, nullptr, nullptr) != SQLITE_OK)
        return false;
    if (sqlite3_exec(db, "SELECT 1 FROM sqlite_master LIMIT 1", nullptr, nullptr, nullptr) == SQLITE_OK)
        return true;
    sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
    return false;
}

void endRead(sqlite3* db)
{
    if (sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr) != SQLITE_OK)
        sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
}

} // namespace

SnapshotPartner::SnapshotPartner(const QString& path)
{
    m_reader = openConnection(path);
    try {
        m_gate = openConnection(path);
    } catch (...) {
        sqlite3_close(m_reader);
        throw;
    }
    // The gate never waits: a writer at work means reading alone now, not stalling the panes behind it.
    sqlite3_busy_timeout(m_gate, 0);
    m_packer = std::make_unique<TextPacker>(m_reader);
    m_packer->registerFunctions();
    // Each reads the schema now, not while the gate holds every writer off.
    for (sqlite3* db : { m_reader, m_gate })
        sqlite3_exec(db, "SELECT 1 FROM sqlite_master LIMIT 1", nullptr, nullptr, nullptr);
}

SnapshotPartner::~SnapshotPartner()
{
    sqlite3_close(m_gate);
    sqlite3_close(m_reader);
}

SnapshotPartner::Pin::Pin(SnapshotPartner& partner, sqlite3* own, int busyTimeoutMs)
    : m_partner(partner)
{
    if (!sqlite3_get_autocommit(own) || !sqlite3_get_autocommit(partner.m_reader) || reading(own))
        return;
    if (sqlite3_exec(partner.m_gate, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) != SQLITE_OK)
        return;
    // While the gate holds the write lock nothing commits: both reads begin on the last commit. Neither waits
    // meanwhile (every writer would wait behind them): a read that cannot begin at once means counting alone.
    sqlite3_busy_timeout(own, 0);
    sqlite3_busy_timeout(partner.m_reader, 0);
    const bool ownBegun = beginRead(own);
    const bool partnerBegun = ownBegun && beginRead(partner.m_reader);
    sqlite3_exec(partner.m_gate, "ROLLBACK", nullptr, nullptr, nullptr);
    sqlite3_busy_timeout(own, busyTimeoutMs);
    sqlite3_busy_timeout(partner.m_reader, busyTimeoutMs);
    if (partnerBegun) {
        m_own = own;
    } else if (ownBegun) {
        endRead(own);
    }
}

SnapshotPartner::Pin::~Pin()
{
    if (!m_own)
        return;
    endRead(m_partner.m_reader);
    endRead(m_own);
}
