#include "messagenumbers.h"

#include "sqlitestatement.h"

namespace {
// A thread of a million rows has some 60,000 messages; past this many the room's ids are read again as they come.
constexpr qsizetype MaxRemembered = 200000;
}

MessageNumbers::MessageNumbers(sqlite3* db)
    : m_db(db)
{
}

MessageNumbers::~MessageNumbers() = default;

qint64 MessageNumbers::number(qint64 roomId, const QString& native)
{
    if (roomId != m_room || m_numbers.size() > MaxRemembered) {
        m_numbers.clear();
        m_highest = -1;
        m_room = roomId;
    }
    if (const auto it = m_numbers.constFind(native); it != m_numbers.constEnd())
        return *it;
    SqliteStatement& find
        = preparedOnce(m_find, m_db, "SELECT number FROM messages WHERE room_id = ? AND native = ?");
    find.bind(1, roomId);
    find.bind(2, native);
    qint64 number = find.step() ? find.int64(0) : 0;
    find.reset();
    if (number == 0) {
        if (m_highest < 0) {
            SqliteStatement& last
                = preparedOnce(m_last, m_db, "SELECT coalesce(max(number), 0) FROM messages WHERE room_id = ?");
            last.bind(1, roomId);
            m_highest = last.step() ? last.int64(0) : 0;
            last.reset();
        }
        number = ++m_highest;
        SqliteStatement& add
            = preparedOnce(m_add, m_db, "INSERT INTO messages(room_id, number, native) VALUES (?, ?, ?)");
        add.bind(1, roomId);
        add.bind(2, number);
        add.bind(3, native);
        add.step();
        add.reset();
    }
    m_numbers.insert(native, number);
    return number;
}

void MessageNumbers::forget()
{
    m_numbers.clear();
    m_highest = -1;
    m_room = 0;
}
