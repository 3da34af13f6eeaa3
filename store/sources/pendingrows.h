#pragma once

#include "../rowvalues.h"

#include <QString>
#include <sqlite3.h>
#include <vector>

// Rows given to a statement as a table: `SELECT * FROM sightline_rows(?)`, the parameter bound to a PendingRows by
// bind(). An import writes its rows a few hundred at a time by one INSERT ... SELECT from it, not one INSERT each:
// SQLite then keeps its cursors on the table and its nine indexes from row to row, where each single-row INSERT
// opened and sought every one of them again (100,000 RoomKit rows into an empty workspace: 700 ms one by one,
// 470 ms from this table, 440 ms for SQLite's shell copying them from one file to another).
class PendingRows
{
public:
    // Makes the table known to `db` as "sightline_rows" with `columns` columns (c1, c2, ...).
    static void install(sqlite3* db, int columns);

    explicit PendingRows(int columns) : m_columns(columns) { }
    // A row at the end (bound in full: `columns()` values).
    void add(RowValues&& row) { m_rows.push_back(std::move(row)); }
    int columns() const { return m_columns; }
    std::size_t size() const { return m_rows.size(); }
    bool empty() const { return m_rows.empty(); }
    const RowValues& at(std::size_t k) const { return m_rows[k]; }
    void clear() { m_rows.clear(); }
    // These rows as parameter `column` of `statement` (a sightline_rows(?) in it), while they are unchanged.
    void bind(sqlite3_stmt* statement, int column) const;

    static constexpr const char* PointerType = "sightline_rows";

private:
    int m_columns;
    std::vector<RowValues> m_rows;
};
