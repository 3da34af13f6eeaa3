#pragma once

#include <QByteArray>
#include <QString>
#include <vector>

// One JSON object on one line, byte for byte what QJsonDocument::Compact writes for the same QJsonObject (keys
// in order, the same escapes), without building one: for `events --json`, QJsonObject's per-value allocations
// cost three times the read of the row. Keys are ASCII literals; values are strings, integers, booleans or null.
// One JsonLine can write many lines, one text() each: keeping it for the next line keeps its buffers.
class JsonLine
{
public:
    void add(const char* key, const QString& value); // a string (an empty one included)
    void addUtf8(const char* key, const QByteArray& utf8); // a string given as valid UTF-8 (a payload), not decoded
    void addOrNull(const char* key, const QString& value); // null when empty
    void add(const char* key, qint64 value);
    void add(const char* key, bool value);
    void addNull(const char* key);
    void addJson(const char* key, const QByteArray& json); // a value already written as JSON
    QByteArray text(); // the object, keys sorted; the line is then empty again
    void clear(); // empty again, what was added dropped (a line left half made)

    // A JSON string literal, quoted: UTF-8, with an unpaired surrogate escaped as QJsonDocument escapes it.
    static void appendString(QByteArray& out, const QString& value);
    // The same from valid UTF-8, without decoding it: the bytes of each character as they are.
    static void appendUtf8(QByteArray& out, const QByteArray& utf8);

private:
    // The values are written one after another into one buffer, kept from line to line with the order of their
    // keys: a report writes a line per row of a room of a million, and a buffer per value and a sort per line were
    // a third of its own work.
    struct Member
    {
        const char* key;
        qsizetype begin, end; // the value, already JSON, in m_values
    };
    static constexpr qsizetype KeptRoom = 1 << 20;
    void pushMember(const char* key, qsizetype begin) { m_members.push_back({ key, begin, m_values.size() }); }
    std::vector<Member> m_members;
    QByteArray m_values;
    std::vector<const char*> m_sortedFor; // the keys, in the order given, that m_order sorts
    std::vector<int> m_order;
    std::vector<qsizetype> m_keyLengths; // of m_sortedFor's keys
};
