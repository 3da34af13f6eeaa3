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
    QByteArray v;
    appendUtf8(v, utf8);
    m_members.push_back({ key, v });
}

void JsonLine::add(const char* key, const QString& value)
{
    QByteArray v;
    appendString(v, value);
    m_members.push_back({ key, v });
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
    m_members.push_back({ key, QByteArray::number(value) });
}

void JsonLine::add(const char* key, bool value)
{
    m_members.push_back({ key, value ? QByteArrayLiteral("true") : QByteArrayLiteral("false") });
}

void JsonLine::addNull(const char* key)
{
    m_members.push_back({ key, QByteArrayLiteral("null") });
}

void JsonLine::addJson(const char* key, const QByteArray& json)
{
    m_members.push_back({ key, json });
}

QByteArray JsonLine::text()
{
    // QJsonObject keeps its keys sorted; for ASCII keys that is byte order.
    std::sort(m_members.begin(), m_members.end(),
        [](const Member& a, const Member& b) { return std::strcmp(a.key, b.key) < 0; });
    QByteArray out;
    out += '{';
    for (size_t i = 0; i < m_members.size(); ++i) {
        if (i > 0)
            out += ',';
        out += '"';
        out += m_members[i].key;
        out += "\":";
        out += m_members[i].value;
    }
    out += '}';
    m_members.clear();
    return out;
}
