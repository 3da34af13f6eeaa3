#include "roomnumbers.h"

#include "sqlitestatement.h"

namespace {
// Past this many a room's texts are forgotten and read again as they come (a seek each): a RoomKit room of 900,000
// rows has some 150,000 correlation ids, 15 MB remembered whole, and a turn's rows come together.
constexpr qsizetype MaxRemembered = 10000;
}

RoomNumbers::RoomNumbers(sqlite3* db, const char* table)
    : m_db(db)
    , m_table(table)
{
}

RoomNumbers::~RoomNumbers() = default;

qint64 RoomNumbers::number(qint64 roomId, const QString& native)
{
    if (roomId != m_room || m_numbers.size() > MaxRemembered) {
        m_numbers.clear();
        m_highest = -1;
        m_room = roomId;
    }
    if (const auto it = m_numbers.constFind(native); it != m_numbers.constEnd())
        return *it;
    SqliteStatement& find
        = preparedOnce(m_find, m_db, QByteArray("SELECT number FROM " + m_table + " WHERE room_id = ? AND native = ?").constData());
    find.bind(1, roomId);
    find.bind(2, native);
    qint64 number = find.step() ? find.int64(0) : 0;
    find.reset();
    if (number == 0) {
        if (m_highest < 0) {
            SqliteStatement& last
                = preparedOnce(m_last, m_db, QByteArray("SELECT coalesce(max(number), 0) FROM " + m_table + " WHERE room_id = ?").constData());
            last.bind(1, roomId);
            m_highest = last.step() ? last.int64(0) : 0;
            last.reset();
        }
        number = ++m_highest;
        SqliteStatement& add
            = preparedOnce(m_add, m_db, QByteArray("INSERT INTO " + m_table + "(room_id, number, native) VALUES (?, ?, ?)").constData());
        add.bind(1, roomId);
        add.bind(2, number);
        add.bind(3, native);
        add.step();
        add.reset();
    }
    m_numbers.insert(native, number);
    return number;
}

void RoomNumbers::forget()
{
    m_numbers.clear();
    m_highest = -1;
    m_room = 0;
}
