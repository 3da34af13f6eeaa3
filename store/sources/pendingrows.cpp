#include "pendingrows.h"

#include "../storeerror.h"

namespace {

// An eponymous table-valued table: its columns c1..cN, then the hidden `rows` that takes the PendingRows pointer.
struct Table
{
    sqlite3_vtab base {};
    int columns = 0;
};

struct Cursor
{
    sqlite3_vtab_cursor base {};
    const PendingRows* rows = nullptr;
    std::size_t at = 0;
};

int columnsOf(void* aux)
{
    return int(reinterpret_cast<quintptr>(aux));
}

int connect(sqlite3* db, void* aux, int, const char* const*, sqlite3_vtab** out, char**)
{
    const int columns = columnsOf(aux);
    QByteArray sql = "CREATE TABLE x(";
    for (int k = 1; k <= columns; ++k)
        sql += "c" + QByteArray::number(k) + ", ";
    sql += "rows HIDDEN)";
    if (const int rc = sqlite3_declare_vtab(db, sql.constData()); rc != SQLITE_OK)
        return rc;
    sqlite3_vtab_config(db, SQLITE_VTAB_DIRECTONLY); // never from a workspace's own triggers or views
    auto* table = new Table;
    table->columns = columns;
    *out = &table->base;
    return SQLITE_OK;
}

int disconnect(sqlite3_vtab* table)
{
    delete reinterpret_cast<Table*>(table);
    return SQLITE_OK;
}

int bestIndex(sqlite3_vtab* vtab, sqlite3_index_info* info)
{
    // Only with its rows given: sightline_rows(?) is a constraint of equality on the hidden column.
    const int hidden = reinterpret_cast<Table*>(vtab)->columns;
    for (int k = 0; k < info->nConstraint; ++k) {
        const auto& c = info->aConstraint[k];
        if (c.iColumn == hidden && c.op == SQLITE_INDEX_CONSTRAINT_EQ) {
            if (!c.usable)
                return SQLITE_CONSTRAINT;
            info->aConstraintUsage[k].argvIndex = 1;
            info->aConstraintUsage[k].omit = 1;
            info->estimatedCost = 1;
            info->estimatedRows = 500;
            info->idxNum = 1;
            return SQLITE_OK;
        }
    }
    return SQLITE_CONSTRAINT;
}

int openCursor(sqlite3_vtab*, sqlite3_vtab_cursor** out)
{
    *out = &(new Cursor)->base;
    return SQLITE_OK;
}

int closeCursor(sqlite3_vtab_cursor* cursor)
{
    delete reinterpret_cast<Cursor*>(cursor);
    return SQLITE_OK;
}

int filter(sqlite3_vtab_cursor* base, int idxNum, const char*, int argc, sqlite3_value** argv)
{
    auto* c = reinterpret_cast<Cursor*>(base);
    c->rows = idxNum == 1 && argc == 1
        ? static_cast<const PendingRows*>(sqlite3_value_pointer(argv[0], PendingRows::PointerType))
        : nullptr;
    c->at = 0;
    return SQLITE_OK;
}

int next(sqlite3_vtab_cursor* base)
{
    ++reinterpret_cast<Cursor*>(base)->at;
    return SQLITE_OK;
}

int eof(sqlite3_vtab_cursor* base)
{
    const auto* c = reinterpret_cast<Cursor*>(base);
    return !c->rows || c->at >= c->rows->size();
}

int column(sqlite3_vtab_cursor* base, sqlite3_context* context, int k)
{
    const auto* c = reinterpret_cast<Cursor*>(base);
    const RowValues& row = c->rows->at(c->at);
    if (k >= row.columns())
        sqlite3_result_null(context); // the hidden column
    else
        row.result(context, k + 1);
    return SQLITE_OK;
}

int rowid(sqlite3_vtab_cursor* base, sqlite3_int64* out)
{
    *out = sqlite3_int64(reinterpret_cast<Cursor*>(base)->at);
    return SQLITE_OK;
}

const sqlite3_module module = {
    0, // iVersion
    nullptr, // xCreate: eponymous only
    connect, bestIndex, disconnect,
    nullptr, // xDestroy
    openCursor, closeCursor, filter, next, eof, column, rowid,
};

} // namespace

void PendingRows::install(sqlite3* db, int columns)
{
    // Once a connection: made again, the module would take its table from under a statement prepared with it.
    sqlite3_stmt* probe = nullptr;
    const int known = sqlite3_prepare_v2(db, "SELECT 1 FROM sightline_rows(NULL)", -1, &probe, nullptr);
    const QString why = QString::fromUtf8(sqlite3_errmsg(db));
    sqlite3_finalize(probe);
    if (known == SQLITE_OK)
        return;
    if (!why.startsWith(QLatin1String("no such table")))
        throw StoreError(QString::fromUtf8(sqlite3_db_filename(db, "main")), {},
            QStringLiteral("cannot make the table of rows to write: ") + why);
    const int rc = sqlite3_create_module_v2(
        db, "sightline_rows", &module, reinterpret_cast<void*>(quintptr(columns)), nullptr);
    if (rc != SQLITE_OK)
        throw StoreError(QString::fromUtf8(sqlite3_db_filename(db, "main")), {},
            QStringLiteral("cannot make the table of rows to write: ") + QString::fromUtf8(sqlite3_errstr(rc)));
}

void PendingRows::bind(sqlite3_stmt* statement, int column) const
{
    // Unbound, the table would be empty: every row passed over as one the room has.
    if (const int rc = sqlite3_bind_pointer(statement, column, const_cast<PendingRows*>(this), PointerType, nullptr);
        rc != SQLITE_OK) {
        sqlite3* db = sqlite3_db_handle(statement);
        throw StoreError(QString::fromUtf8(sqlite3_db_filename(db, "main")), {},
            QStringLiteral("cannot give the rows to write: ") + QString::fromUtf8(sqlite3_errstr(rc)));
    }
}
