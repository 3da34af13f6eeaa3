#pragma once

#include <memory>
#include <QHash>
#include <QString>

class SqliteStatement;
struct sqlite3;

// A message's id is kept once per room (schema step 23: `messages`); its rows hold the room's number for it, 1 for
// the room's first message and so on in the order its rows were written. An AG-UI message id is a 30-character
// string on each of its deltas, three times a row (the table, the scan index, the message index): 8 % of a thread's
// workspace. The writer's connection asks here for each row; a room's ids are remembered until the room changes or
// a transaction is rolled back (a number handed out in it is gone with it).
class MessageNumbers
{
public:
    explicit MessageNumbers(sqlite3* db);
    ~MessageNumbers();

    // The room's number for `native`, added when the room has none for it yet (in the caller's transaction).
    qint64 number(qint64 roomId, const QString& native);
    void forget(); // after a rollback: what was added in it is not in the workspace

private:
    sqlite3* m_db;
    std::unique_ptr<SqliteStatement> m_find;
    std::unique_ptr<SqliteStatement> m_last;
    std::unique_ptr<SqliteStatement> m_add;
    qint64 m_room = 0;
    qint64 m_highest = -1; // the room's highest number; -1: not read yet
    QHash<QString, qint64> m_numbers; // of m_room
};
