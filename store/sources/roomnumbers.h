#pragma once

#include <memory>
#include <QByteArray>
#include <QHash>
#include <QString>

class SqliteStatement;
struct sqlite3;

// A text that many rows of a room repeat, kept once per room in a table of its own (schema steps 23 and 24:
// `messages` for message ids, `turns` for group ids); its rows hold the room's number for it, 1 for the room's first
// and so on in the order they were written. An AG-UI message id is a 30-character string on each of its deltas,
// three times a row (the table, the scan index, the message index), and a run id is on every row of its run: 12 % of
// a thread's workspace together. The writer's connection asks here for each row; a room's texts are remembered until
// the room changes or a transaction is rolled back (a number handed out in it is gone with it).
class RoomNumbers
{
public:
    RoomNumbers(sqlite3* db, const char* table);
    ~RoomNumbers();

    // The room's number for `native`, added when the room has none for it yet (in the caller's transaction).
    qint64 number(qint64 roomId, const QString& native);
    void forget(); // after a rollback: what was added in it is not in the workspace

private:
    sqlite3* m_db;
    QByteArray m_table;
    std::unique_ptr<SqliteStatement> m_find;
    std::unique_ptr<SqliteStatement> m_last;
    std::unique_ptr<SqliteStatement> m_add;
    qint64 m_room = 0;
    qint64 m_highest = -1; // the room's highest number; -1: not read yet
    QHash<QString, qint64> m_numbers; // of m_room
};
