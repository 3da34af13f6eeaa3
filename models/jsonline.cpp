#include "jsonline.h"

#include <algorithm>
#include <cstring>

void JsonLine::appendString(QByteArray& out, const QString& value)
{
    static const char hex[] = "0123456789abcdef";
    auto escape = [&](char16_t u) {
        out += "\\u";
        for (int shift = 12; shift >= 0; shift -= 4)
            out += hex[(u >> shift) & 0xf];
    };
    out += '"';
    const qsizetype n = value.size();
    for (qsizetype i = 0; i < n; ++i) {
        const char16_t u = value.at(i).unicode();
        switch (u) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\b':
            out += "\\b";
            break;
        case '\f':
            out += "\\f";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        default:
            if (u < 0x20) {
                escape(u);
            } else if (u < 0x80) {
                out += char(u);
            } else if (u < 0x800) {
                out += char(0xc0 | (u >> 6));
                out += char(0x80 | (u & 0x3f));
            } else if (QChar::isHighSurrogate(u) && i + 1 < n && QChar::isLowSurrogate(value.at(i + 1).unicode())) {
                const char32_t c = QChar::surrogateToUcs4(u, value.at(++i).unicode());
                out += char(0xf0 | (c >> 18));
                out += char(0x80 | ((c >> 12) & 0x3f));
                out += char(0x80 | ((c >> 6) & 0x3f));
                out += char(0x80 | (c & 0x3f));
            } else if (QChar::isSurrogate(u)) {
                escape(u); // alone, it has no UTF-8: QJsonDocument writes it as an escape
            } else {
                out += char(0xe0 | (u >> 12));
                out += char(0x80 | ((u >> 6) & 0x3f));
                out += char(0x80 | (u & 0x3f));
            }
        }
    }
    out += '"';
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
