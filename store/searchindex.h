#pragma once

#include <memory>
#include <QString>

class SqliteStatement;
class TextPacker;
struct sqlite3;

// The full-text index of message text, tool arguments and results, with the text it indexes (search_text, its
// external content; schema step 5). The only writer of both: a row's text is added once, and set again
// whenever it changes (a message that grew, an edit, a redaction), when the index forgets the words it had.
class SearchIndex
{
public:
    SearchIndex(sqlite3* db, TextPacker& packer);
    ~SearchIndex();
    SearchIndex(const SearchIndex&) = delete;
    SearchIndex& operator=(const SearchIndex&) = delete;

    // A new row's text (nothing when all three are empty).
    void add(qint64 rowId, const QString& body, const QString& arguments, const QString& result);
    // add() in two halves, for an import: the text kept now, its words indexed later for every row from `fromId` to
    // `toId` at once (indexWords). Until then the index must not be asked, nor a row's text set or removed.
    void addText(qint64 rowId, const QString& body, const QString& arguments, const QString& result);
    void indexWords(qint64 fromId, qint64 toId);
    // A row whose text may have changed: the index forgets its old words and learns the new ones; a row that
    // had none is added, one that has none now leaves the index.
    void set(qint64 rowId, const QString& body, const QString& arguments, const QString& result);
    void remove(qint64 rowId);

private:
    TextPacker& m_packer;
    std::unique_ptr<SqliteStatement> m_insertText;
    std::unique_ptr<SqliteStatement> m_insertWords;
    std::unique_ptr<SqliteStatement> m_indexWords; // indexWords()'s
    std::unique_ptr<SqliteStatement> m_update; // its trigger deletes the old words and adds the new
    std::unique_ptr<SqliteStatement> m_delete; // its trigger deletes the old words
    std::unique_ptr<SqliteStatement> m_has;
};
