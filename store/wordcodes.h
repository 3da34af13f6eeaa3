#pragma once

#include <memory>
#include <QByteArray>
#include <QHash>
#include <QString>

class SqliteStatement;
struct sqlite3;

// The words that every row repeats from a small set, kept once per workspace in the `words` table (schema step 26):
// an event's type, role and tool's name. A row holds the word's code, as digits ("17"), where it held the name: an AG-UI type is
// some 20 characters on every row, three times a row (the table, the scan index, the type index), and with the kind
// (EventKinds::code, codes below EventKinds::FirstWord) and the role they were a fifth of a thread's workspace.
//
// A query that names a word asks the table: `type = (SELECT code FROM words WHERE name = 'TOOL_CALL_RESULT')` (the
// code is TEXT, as the column holds it, so that the comparison keeps the column's index); a record reads the name
// back (RecordFields). A word's code never changes once given, so what a connection has read stays true; a code
// given in a transaction that is rolled back is gone with it (forget()).
class WordCodes
{
public:
    explicit WordCodes(sqlite3* db);
    ~WordCodes();

    // The code of `name`, given it now (in the caller's transaction) when the workspace has none for it; a null
    // name is the empty word.
    qint64 code(const QString& name);
    void forget(); // after a rollback

    // Every word of the workspace, code to name, for a pass that counts rows by code (the facets).
    static QHash<QByteArray, QString> all(sqlite3* db);
    // Whether the events column holds words' codes (type, kind, role, tool_name): the one list the writer, the
    // filters and the panes go by.
    static bool holdsWords(const char* column);

private:
    sqlite3* m_db;
    std::unique_ptr<SqliteStatement> m_find;
    std::unique_ptr<SqliteStatement> m_add;
    QHash<QString, qint64> m_codes;
};
