#pragma once

#include <QByteArray>
#include <QString>
#include <vector>

// One JSON object on one line, byte for byte what QJsonDocument::Compact writes for the same QJsonObject (keys
// in order, the same escapes), without building one: for `events --json`, QJsonObject's per-value allocations
// cost three times the read of the row. Keys are ASCII literals; values are strings, integers, booleans or null.
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

    // A JSON string literal, quoted: UTF-8, with an unpaired surrogate escaped as QJsonDocument escapes it.
    static void appendString(QByteArray& out, const QString& value);
    // The same from valid UTF-8, without decoding it: the bytes of each character as they are.
    static void appendUtf8(QByteArray& out, const QByteArray& utf8);

private:
    struct Member
    {
        const char* key;
        QByteArray value; // already JSON
    };
    std::vector<Member> m_members;
};
