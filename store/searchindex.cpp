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

// search_text keeps the texts packed when that is smaller (`packer`); the index is given them as text.
void run(SqliteStatement& st, qint64 rowId, const QString& body, const QString& arguments, const QString& result,
    TextPacker* packer = nullptr)
{
    int column = 1;
    for (const QString* text : { &body, &arguments, &result }) {
        if (packer)
            packer->bindOrNull(st, column++, *text);
        else
            bindOrNull(st, column++, *text);
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
    , m_indexWords(std::make_unique<SqliteStatement>(db,
          "INSERT INTO events_fts(rowid, body, arguments, result) SELECT event_id, unpack(body), unpack(arguments), "
          "unpack(result) FROM search_text WHERE event_id BETWEEN ? AND ?"))
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
    addText(rowId, body, arguments, result);
    run(*m_insertWords, rowId, body, arguments, result);
}

void SearchIndex::addText(qint64 rowId, const QString& body, const QString& arguments, const QString& result)
{
    if (body.isEmpty() && arguments.isEmpty() && result.isEmpty())
        return;
    run(*m_insertText, rowId, body, arguments, result, &m_packer);
}

void SearchIndex::indexWords(qint64 fromId, qint64 toId)
{
    m_indexWords->bind(1, fromId);
    m_indexWords->bind(2, toId);
    m_indexWords->step();
    m_indexWords->reset();
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
