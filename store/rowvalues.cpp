#include "rowvalues.h"

#include <stdexcept>

RowValues::Cell& RowValues::cell(int column)
{
    if (column < 1 || column > columns())
        throw std::out_of_range("a value bound past the row's columns");
    return m_cells[std::size_t(column - 1)];
}

void RowValues::bind(int column, qint64 value)
{
    Cell& c = cell(column);
    c.type = SQLITE_INTEGER;
    c.number = value;
    c.bytes.clear();
}

void RowValues::bindText(int column, const QByteArray& utf8)
{
    Cell& c = cell(column);
    c.type = SQLITE_TEXT;
    c.bytes = utf8;
}

void RowValues::bindBlob(int column, const QByteArray& bytes)
{
    Cell& c = cell(column);
    c.type = SQLITE_BLOB;
    c.bytes = bytes;
}

void RowValues::bindNull(int column)
{
    Cell& c = cell(column);
    c.type = SQLITE_NULL;
    c.bytes.clear();
}

void RowValues::result(sqlite3_context* context, int column) const
{
    const Cell& c = m_cells.at(std::size_t(column - 1));
    switch (c.type) {
    case SQLITE_INTEGER:
        sqlite3_result_int64(context, c.number);
        break;
    case SQLITE_TEXT:
        sqlite3_result_text64(context, c.bytes.constData(), sqlite3_uint64(c.bytes.size()), SQLITE_STATIC, SQLITE_UTF8);
        break;
    case SQLITE_BLOB:
        sqlite3_result_blob64(context, c.bytes.constData(), sqlite3_uint64(c.bytes.size()), SQLITE_STATIC);
        break;
    default:
        sqlite3_result_null(context);
    }
}

void RowValues::bindTo(SqlBinder& statement) const
{
    for (int k = 1; k <= columns(); ++k) {
        const Cell& c = m_cells[std::size_t(k - 1)];
        switch (c.type) {
        case SQLITE_INTEGER:
            statement.bind(k, c.number);
            break;
        case SQLITE_TEXT:
            statement.bindText(k, c.bytes);
            break;
        case SQLITE_BLOB:
            statement.bindBlob(k, c.bytes);
            break;
        default:
            statement.bindNull(k);
        }
    }
}
