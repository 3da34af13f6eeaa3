#pragma once

#include "sqlbinder.h"

#include <sqlite3.h>
#include <vector>

// One row's values, bound as a statement's parameters are and held for a statement that reads them later: the rows
// of an import's next INSERT ... SELECT (PendingRows). Text and blobs are kept by reference (QByteArray is shared),
// and handed to SQLite without a copy.
class RowValues final : public SqlBinder
{
public:
    explicit RowValues(int columns = 0) : m_cells(std::size_t(columns)) { }

    using SqlBinder::bind;
    void bind(int column, qint64 value) override;
    void bindText(int column, const QByteArray& utf8) override;
    void bindBlob(int column, const QByteArray& bytes) override;
    void bindNull(int column) override;

    int columns() const { return int(m_cells.size()); }
    // Value `column` (from 1) as a function's or a virtual table's result; valid while this row is.
    void result(sqlite3_context* context, int column) const;
    // Every value bound to `statement`'s parameters of the same places.
    void bindTo(SqlBinder& statement) const;

private:
    struct Cell
    {
        int type = SQLITE_NULL;
        qint64 number = 0;
        QByteArray bytes;
    };
    Cell& cell(int column);

    std::vector<Cell> m_cells;
};
