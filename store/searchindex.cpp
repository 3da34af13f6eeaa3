#include "searchindex.h"

#include "sqlitestatement.h"

namespace {
void bindOrNull(SqliteStatement& st, int column, const QString& value)
{
    if (value.isEmpty())
        st.bindNull(column);
    else
        st.bind(column, value);
}

void run(SqliteStatement& st, qint64 rowId, const QString& body, const QString& arguments, const QString& result)
{
    bindOrNull(st, 1, body);
    bindOrNull(st, 2, arguments);
    bindOrNull(st, 3, result);
    st.bind(4, rowId);
    st.step();
    st.reset();
}
} // namespace

SearchIndex::SearchIndex(sqlite3* db)
    : m_insertText(std::make_unique<SqliteStatement>(
          db, "INSERT INTO search_text(body, arguments, result, event_id) VALUES (?, ?, ?, ?)"))
    , m_insertWords(std::make_unique<SqliteStatement>(
          db, "INSERT INTO events_fts(body, arguments, result, rowid) VALUES (?, ?, ?, ?)"))
    , m_update(std::make_unique<SqliteStatement>(db,
          "UPDATE search_text SET body = ?1, arguments = ?2, result = ?3 WHERE event_id = ?4 AND (body IS NOT ?1 "
          "OR arguments IS NOT ?2 OR result IS NOT ?3)"))
    , m_delete(std::make_unique<SqliteStatement>(db, "DELETE FROM search_text WHERE event_id = ?"))
    , m_has(std::make_unique<SqliteStatement>(db, "SELECT 1 FROM search_text WHERE event_id = ?"))
{
}

SearchIndex::~SearchIndex() = default;

void SearchIndex::add(qint64 rowId, const QString& body, const QString& arguments, const QString& result)
{
    if (body.isEmpty() && arguments.isEmpty() && result.isEmpty())
        return;
    run(*m_insertText, rowId, body, arguments, result);
    run(*m_insertWords, rowId, body, arguments, result);
}

void SearchIndex::set(qint64 rowId, const QString& body, const QString& arguments, const QString& result)
{
    if (body.isEmpty() && arguments.isEmpty() && result.isEmpty()) {
        remove(rowId);
        return;
    }
    run(*m_update, rowId, body, arguments, result);
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
