#include "sqlitestatement.h"

#include "storeerror.h"

#include <QSqlDatabase>
#include <QSqlDriver>
#include <QVariant>

SqliteStatement::SqliteStatement(sqlite3* db, const char* sql)
    : m_db(db)
{
    if (sqlite3_prepare_v2(db, sql, -1, &m_stmt, nullptr) != SQLITE_OK) {
        throw StoreError(QString::fromUtf8(sqlite3_db_filename(db, "main")), {},
            QStringLiteral("cannot prepare a statement: ") + QString::fromUtf8(sqlite3_errmsg(db)));
    }
}

SqliteStatement::~SqliteStatement()
{
    sqlite3_finalize(m_stmt);
}

void SqliteStatement::bound(int rc, int column) const
{
    // A value SQLite refused (over its size limit: SQLITE_TOOBIG; a column the statement has not) would leave
    // the column NULL, or the last row's value, without a word.
    if (rc != SQLITE_OK) {
        throw StoreError(QString::fromUtf8(sqlite3_db_filename(m_db, "main")), {},
            QStringLiteral("cannot bind value ") + QString::number(column) + QStringLiteral(": ")
                + QString::fromUtf8(sqlite3_errstr(rc)));
    }
}

void SqliteStatement::bind(int column, qint64 value)
{
    bound(sqlite3_bind_int64(m_stmt, column, value), column);
}

const QByteArray& SqliteStatement::keep(int column, const QByteArray& bytes)
{
    if (column > m_kept.size())
        m_kept.resize(column);
    return m_kept[column - 1] = bytes;
}

void SqliteStatement::bindText(int column, const QByteArray& utf8)
{
    const QByteArray& kept = keep(column, utf8);
    bound(sqlite3_bind_text64(
              m_stmt, column, kept.constData(), static_cast<sqlite3_uint64>(kept.size()), SQLITE_STATIC, SQLITE_UTF8),
        column);
}

void SqliteStatement::bindBlob(int column, const QByteArray& bytes)
{
    const QByteArray& kept = keep(column, bytes);
    bound(sqlite3_bind_blob64(m_stmt, column, kept.constData(), static_cast<sqlite3_uint64>(kept.size()), SQLITE_STATIC),
        column);
}

void SqliteStatement::bindNull(int column)
{
    bound(sqlite3_bind_null(m_stmt, column), column);
}

void SqliteStatement::bindAll(const QVariantList& binds)
{
    for (int i = 0; i < binds.size(); ++i) {
        const QVariant& value = binds.at(i);
        const int column = i + 1;
        if (value.isNull()) {
            bindNull(column);
            continue;
        }
        switch (value.typeId()) {
        case QMetaType::QString:
            bind(column, value.toString());
            break;
        case QMetaType::QByteArray:
            bindBlob(column, value.toByteArray());
            break;
        case QMetaType::Double:
        case QMetaType::Float:
            bound(sqlite3_bind_double(m_stmt, column, value.toDouble()), column);
            break;
        case QMetaType::Bool:
        case QMetaType::Int:
        case QMetaType::UInt:
        case QMetaType::Long:
        case QMetaType::ULong:
        case QMetaType::LongLong:
        case QMetaType::ULongLong:
        case QMetaType::Short:
        case QMetaType::UShort:
            bind(column, value.toLongLong());
            break;
        default:
            throw StoreError(QString::fromUtf8(sqlite3_db_filename(m_db, "main")), {},
                QStringLiteral("cannot bind a value of type %1 to a statement").arg(QLatin1String(value.typeName())));
        }
    }
}

bool SqliteStatement::step()
{
    const int rc = sqlite3_step(m_stmt);
    if (rc == SQLITE_ROW)
        return true;
    if (rc == SQLITE_DONE)
        return false;
    throw StoreError(QString::fromUtf8(sqlite3_db_filename(m_db, "main")), {}, QString::fromUtf8(sqlite3_errmsg(m_db)));
}

SqliteStatement& preparedOnce(std::unique_ptr<SqliteStatement>& slot, sqlite3* db, const char* sql)
{
    if (!slot)
        slot = std::make_unique<SqliteStatement>(db, sql);
    slot->reset();
    return *slot;
}

void SqliteStatement::reset()
{
    sqlite3_reset(m_stmt);
    sqlite3_clear_bindings(m_stmt);
}

bool SqliteStatement::isNull(int column) const
{
    return sqlite3_column_type(m_stmt, column) == SQLITE_NULL;
}

qint64 SqliteStatement::int64(int column) const
{
    return sqlite3_column_int64(m_stmt, column);
}

double SqliteStatement::real(int column) const
{
    return sqlite3_column_double(m_stmt, column);
}

QString SqliteStatement::text(int column) const
{
    const auto* data = reinterpret_cast<const char*>(sqlite3_column_text(m_stmt, column));
    if (!data)
        return {};
    return QString::fromUtf8(data, sqlite3_column_bytes(m_stmt, column));
}

QByteArray SqliteStatement::bytes(int column) const
{
    const void* data = sqlite3_column_blob(m_stmt, column);
    return QByteArray(static_cast<const char*>(data), sqlite3_column_bytes(m_stmt, column));
}

sqlite3* nativeSqliteHandle(const QSqlDatabase& db)
{
    const QVariant handle = db.driver()->handle();
    if (!handle.isValid() || qstrcmp(handle.typeName(), "sqlite3*") != 0)
        return nullptr;
    return *static_cast<sqlite3* const*>(handle.data());
}
