#include "searchindex.h"

#include "sqlitestatement.h"
#include "textpacker.h"

namespace {
void bindOrNull(SqliteStatement& st, int column, const QString& value)
{
    if (value.isEmpty())
        st.bindNull(column);
    else
        st.bind(column, value);
}

// search_text keeps it packed when that is smaller; the index is given it as text.
void bindPacked(SqliteStatement& st, int column, const QString& value, TextPacker* packer)
{
    if (value.isEmpty()) {
        st.bindNull(column);
        return;
    }
    packer->bind(st, column, value);
}

void run(SqliteStatement& st, qint64 rowId, const QString& body, const QString& arguments, const QString& result,
    TextPacker* packer = nullptr)
{
    if (packer) {
        bindPacked(st, 1, body, packer);
        bindPacked(st, 2, arguments, packer);
        bindPacked(st, 3, result, packer);
    } else {
        bindOrNull(st, 1, body);
        bindOrNull(st, 2, arguments);
        bindOrNull(st, 3, result);
    }
    st.bind(4, rowId);
    st.step();
    st.reset();
}
} // namespace

SearchIndex::SearchIndex(sqlite3* db, TextPacker& packer)
    : m_packer(packer)
    , m_insertText(std::make_unique<SqliteStatement>(
          db, "INSERT INTO search_text(body, arguments, result, event_id) VALUES (?, ?, ?, ?)"))
    , m_insertWords(std::make_unique<SqliteStatement>(
          db, "INSERT INTO events_fts(body, arguments, result, rowid) VALUES (?, ?, ?, ?)"))
    , m_update(std::make_unique<SqliteStatement>(db,
          "UPDATE search_text SET body = ?1, arguments = ?2, result = ?3 WHERE event_id = ?4 AND (unpack(body) IS NOT ?5 "
          "OR unpack(arguments) IS NOT ?6 OR unpack(result) IS NOT ?7)"))
    , m_delete(std::make_unique<SqliteStatement>(db, "DELETE FROM search_text WHERE event_id = ?"))
    , m_has(std::make_unique<SqliteStatement>(db, "SELECT 1 FROM search_text WHERE event_id = ?"))
{
}

SearchIndex::~SearchIndex() = default;

void SearchIndex::add(qint64 rowId, const QString& body, const QString& arguments, const QString& result)
{
    if (body.isEmpty() && arguments.isEmpty() && result.isEmpty())
        return;
    run(*m_insertText, rowId, body, arguments, result, &m_packer);
    run(*m_insertWords, rowId, body, arguments, result);
}

void SearchIndex::set(qint64 rowId, const QString& body, const QString& arguments, const QString& result)
{
    if (body.isEmpty() && arguments.isEmpty() && result.isEmpty()) {
        remove(rowId);
        return;
    }
    bindOrNull(*m_update, 5, body);
    bindOrNull(*m_update, 6, arguments);
    bindOrNull(*m_update, 7, result);
    run(*m_update, rowId, body, arguments, result, &m_packer);
    if (sqlite3_changes(sqlite3_db_handle(m_update->handle())) > 0)
        return;
    // Nothing changed: the row has this text already, or none yet.
    m_has->bind(1, rowId);
    const bool has = m_has->step();
    m_has->reset();
    if (!has)
        add(rowId, body, arguments, result);
}

void SearchIndex::remove(qint64 rowId)
{
    m_delete->bind(1, rowId);
    m_delete->step();
    m_delete->reset();
}
