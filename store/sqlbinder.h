#pragma once

#include <optional>
#include <QByteArray>
#include <QString>

// Where a row's values are bound, parameter by parameter from 1: a prepared statement (SqliteStatement), or a row held
// for a later statement to read (RowValues). FieldTable and TextPacker bind through it, so one code binds both.
class SqlBinder
{
public:
    virtual ~SqlBinder() = default;
    virtual void bind(int column, qint64 value) = 0;
    virtual void bindText(int column, const QByteArray& utf8) = 0;
    virtual void bindBlob(int column, const QByteArray& bytes) = 0;
    virtual void bindNull(int column) = 0;

    void bind(int column, const std::optional<qint64>& value) // NULL when there is none
    {
        if (value)
            bind(column, *value);
        else
            bindNull(column);
    }
    void bind(int column, const QString& text) // NULL for a null QString
    {
        if (text.isNull())
            bindNull(column);
        else
            bindText(column, text.toUtf8());
    }
};
