#include "jsonline.h"

#include <algorithm>
#include <cstring>

namespace {
const char hex[] = "0123456789abcdef";

// Writes `u` (an ASCII character) as JSON wants it inside a string, at p; returns the end.
inline char* putAscii(char* p, char16_t u)
{
    switch (u) {
    case '"':
        *p++ = '\\';
        *p++ = '"';
        return p;
    case '\\':
        *p++ = '\\';
        *p++ = '\\';
        return p;
    case '\b':
        *p++ = '\\';
        *p++ = 'b';
        return p;
    case '\f':
        *p++ = '\\';
        *p++ = 'f';
        return p;
    case '\n':
        *p++ = '\\';
        *p++ = 'n';
        return p;
    case '\r':
        *p++ = '\\';
        *p++ = 'r';
        return p;
    case '\t':
        *p++ = '\\';
        *p++ = 't';
        return p;
    default:
        break;
    }
    if (u < 0x20) {
        *p++ = '\\';
        *p++ = 'u';
        for (int shift = 12; shift >= 0; shift -= 4)
            *p++ = hex[(u >> shift) & 0xf];
        return p;
    }
    *p++ = char(u);
    return p;
}
} // namespace

// Into room made once for the worst case (six bytes a UTF-16 unit, an escape), then cut to what was written: an
// export writes a payload a row, and growing the array a byte at a time was most of its cost.
void JsonLine::appendString(QByteArray& out, const QString& value)
{
    const qsizetype n = value.size();
    const qsizetype start = out.size();
    out.resize(start + 6 * n + 2);
    char* const begin = out.data();
    char* p = begin + start;
    *p++ = '"';
    const char16_t* in = reinterpret_cast<const char16_t*>(value.constData());
    for (qsizetype i = 0; i < n; ++i) {
        const char16_t u = in[i];
        if (u < 0x80) {
            p = putAscii(p, u);
        } else if (u < 0x800) {
            *p++ = char(0xc0 | (u >> 6));
            *p++ = char(0x80 | (u & 0x3f));
        } else if (QChar::isHighSurrogate(u) && i + 1 < n && QChar::isLowSurrogate(in[i + 1])) {
            const char32_t c = QChar::surrogateToUcs4(u, in[++i]);
            *p++ = char(0xf0 | (c >> 18));
            *p++ = char(0x80 | ((c >> 12) & 0x3f));
            *p++ = char(0x80 | ((c >> 6) & 0x3f));
            *p++ = char(0x80 | (c & 0x3f));
        } else if (QChar::isSurrogate(u)) {
            // Alone, it has no UTF-8: QJsonDocument writes it as an escape.
            *p++ = '\\';
            *p++ = 'u';
            for (int shift = 12; shift >= 0; shift -= 4)
                *p++ = hex[(u >> shift) & 0xf];
        } else {
            *p++ = char(0xe0 | (u >> 12));
            *p++ = char(0x80 | ((u >> 6) & 0x3f));
            *p++ = char(0x80 | (u & 0x3f));
        }
    }
    *p++ = '"';
    out.resize(p - begin);
}

void JsonLine::appendUtf8(QByteArray& out, const QByteArray& utf8)
{
    const qsizetype n = utf8.size();
    const qsizetype start = out.size();
    out.resize(start + 6 * n + 2);
    char* const begin = out.data();
    char* p = begin + start;
    *p++ = '"';
    const unsigned char* in = reinterpret_cast<const unsigned char*>(utf8.constData());
    for (qsizetype i = 0; i < n; ++i) {
        if (in[i] < 0x80)
            p = putAscii(p, in[i]);
        else
            *p++ = char(in[i]); // a byte of a multi-byte character: as it is
    }
    *p++ = '"';
    out.resize(p - begin);
}

void JsonLine::addUtf8(const char* key, const QByteArray& utf8)
{
    const qsizetype begin = m_values.size();
    appendUtf8(m_values, utf8);
    pushMember(key, begin);
}

void JsonLine::add(const char* key, const QString& value)
{
    const qsizetype begin = m_values.size();
    appendString(m_values, value);
    pushMember(key, begin);
}

void JsonLine::addOrNull(const char* key, const QString& value)
{
    if (value.isEmpty())
        addNull(key);
    else
        add(key, value);
}

void JsonLine::add(const char* key, qint64 value)
{
    char digits[24];
    char* end = digits + sizeof digits;
    char* p = end;
    quint64 magnitude = value < 0 ? 0 - quint64(value) : quint64(value);
    do {
        *--p = char('0' + magnitude % 10);
        magnitude /= 10;
    } while (magnitude != 0);
    if (value < 0)
        *--p = '-';
    addJson(key, QByteArray::fromRawData(p, end - p));
}

void JsonLine::add(const char* key, bool value)
{
    addJson(key, value ? QByteArrayLiteral("true") : QByteArrayLiteral("false"));
}

void JsonLine::addNull(const char* key)
{
    addJson(key, QByteArrayLiteral("null"));
}

void JsonLine::addJson(const char* key, const QByteArray& json)
{
    const qsizetype begin = m_values.size();
    m_values.append(json);
    pushMember(key, begin);
}

void JsonLine::clear()
{
    m_members.clear();
    m_values.resize(0);
}

QByteArray JsonLine::text()
{
    // QJsonObject keeps its keys sorted; for ASCII keys that is byte order. Lines of one kind give the same keys
    // in the same order (the same literals), so their order is found once.
    const size_t n = m_members.size();
    bool same = m_sortedFor.size() == n;
    for (size_t i = 0; same && i < n; ++i)
        same = m_sortedFor[i] == m_members[i].key;
    if (!same) {
        m_sortedFor.resize(n);
        m_order.resize(n);
        m_keyLengths.resize(n);
        for (size_t i = 0; i < n; ++i) {
            m_sortedFor[i] = m_members[i].key;
            m_order[i] = int(i);
            m_keyLengths[i] = qsizetype(std::strlen(m_members[i].key));
        }
        std::stable_sort(m_order.begin(), m_order.end(),
            [this](int a, int b) { return std::strcmp(m_sortedFor[a], m_sortedFor[b]) < 0; });
    }
    // {"key":value,...}: each member's quotes, colon and comma.
    qsizetype size = 2 + m_values.size();
    for (size_t i = 0; i < n; ++i)
        size += m_keyLengths[i] + 4;
    QByteArray out(size, Qt::Uninitialized);
    char* p = out.data();
    *p++ = '{';
    for (size_t i = 0; i < n; ++i) {
        const int k = m_order[i];
        const Member& m = m_members[k];
        if (i > 0)
            *p++ = ',';
        *p++ = '"';
        std::memcpy(p, m.key, m_keyLengths[k]);
        p += m_keyLengths[k];
        *p++ = '"';
        *p++ = ':';
        std::memcpy(p, m_values.constData() + m.begin, m.end - m.begin);
        p += m.end - m.begin;
    }
    *p++ = '}';
    out.resize(p - out.constData()); // one comma fewer than members
    m_members.clear();
    if (m_values.capacity() > KeptRoom)
        m_values = QByteArray(); // a big value's room is not kept for the lines after it
    else
        m_values.resize(0); // keeps its room for the next line
    return out;
}
