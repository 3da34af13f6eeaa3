#include "wordcodes.h"

#include "eventkind.h"
#include "sqlitestatement.h"

WordCodes::WordCodes(sqlite3* db)
    : m_db(db)
{
}

WordCodes::~WordCodes() = default;

qint64 WordCodes::code(const QString& given)
{
    // No type at all is the empty word, as the column (NOT NULL) has always held it: a row is never lost for it.
    const QString name = given.isNull() ? QStringLiteral("") : given;
    if (const auto it = m_codes.constFind(name); it != m_codes.constEnd())
        return *it;
    SqliteStatement& find = preparedOnce(m_find, m_db, "SELECT code FROM words WHERE name = ?");
    find.bind(1, name);
    std::optional<qint64> code;
    if (find.step())
        code = find.int64(0);
    find.reset();
    if (!code) {
        // The next code after the highest, read each time: another process may have given one since (a new word
        // is rare: a few dozen in a workspace).
        SqliteStatement& add = preparedOnce(m_add, m_db,
            "INSERT INTO words(code, name) SELECT max(?1, coalesce(max(CAST(code AS INTEGER)) + 1, 0)), ?2 FROM words "
            "RETURNING code");
        add.bind(1, EventKinds::FirstWord);
        add.bind(2, name);
        if (add.step())
            code = add.int64(0);
        add.reset();
        if (!code)
            throw std::logic_error("a word added without its code");
    }
    m_codes.insert(name, *code);
    return *code;
}

void WordCodes::forget()
{
    m_codes.clear();
}

bool WordCodes::holdsWords(const char* column)
{
    for (const char* coded : { "type", "kind", "role", "tool_name" }) {
        if (qstrcmp(column, coded) == 0)
            return true;
    }
    return false;
}

QHash<QByteArray, QString> WordCodes::all(sqlite3* db)
{
    QHash<QByteArray, QString> out;
    SqliteStatement q(db, "SELECT code, name FROM words");
    while (q.step())
        out.insert(q.bytes(0), q.text(1));
    return out;
}
