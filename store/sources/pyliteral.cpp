#include "pyliteral.h"

#include <QJsonArray>
#include <QJsonObject>

namespace {

class Reader
{
public:
    explicit Reader(QStringView text)
        : m_text(text)
    {
    }

    std::optional<QJsonValue> document()
    {
        auto value = read(0);
        skipSpace();
        if (!value || m_pos != m_text.size())
            return std::nullopt;
        return value;
    }

private:
    static constexpr int MaxDepth = 256;

    void skipSpace()
    {
        while (m_pos < m_text.size() && m_text[m_pos].isSpace())
            ++m_pos;
    }

    bool take(QChar c)
    {
        skipSpace();
        if (m_pos < m_text.size() && m_text[m_pos] == c) {
            ++m_pos;
            return true;
        }
        return false;
    }

    bool word(QLatin1String w)
    {
        if (m_text.mid(m_pos).startsWith(w)) {
            const qsizetype end = m_pos + w.size();
            if (end < m_text.size() && (m_text[end].isLetterOrNumber() || m_text[end] == QLatin1Char('_')))
                return false;
            m_pos = end;
            return true;
        }
        return false;
    }

    std::optional<QJsonValue> read(int depth)
    {
        if (depth > MaxDepth)
            return std::nullopt;
        skipSpace();
        if (m_pos >= m_text.size())
            return std::nullopt;
        const QChar c = m_text[m_pos];
        if (c == QLatin1Char('{'))
            return dict(depth);
        if (c == QLatin1Char('[') || c == QLatin1Char('('))
            return list(depth, c == QLatin1Char('[') ? QLatin1Char(']') : QLatin1Char(')'));
        if (c == QLatin1Char('\'') || c == QLatin1Char('"'))
            return string();
        if (word(QLatin1String("True")))
            return QJsonValue(true);
        if (word(QLatin1String("False")))
            return QJsonValue(false);
        if (word(QLatin1String("None")))
            return QJsonValue(QJsonValue::Null);
        return number();
    }

    std::optional<QJsonValue> dict(int depth)
    {
        ++m_pos; // {
        QJsonObject object;
        if (take(QLatin1Char('}')))
            return object;
        for (;;) {
            auto key = read(depth + 1);
            if (!key || !take(QLatin1Char(':')))
                return std::nullopt;
            auto value = read(depth + 1);
            if (!value)
                return std::nullopt;
            // Python keys can be numbers or None; JSON keys are strings.
            object.insert(key->isString() ? key->toString() : key->toVariant().toString(), *value);
            if (take(QLatin1Char('}')))
                return object;
            if (!take(QLatin1Char(',')))
                return std::nullopt;
            if (take(QLatin1Char('}')))
                return object;
        }
    }

    std::optional<QJsonValue> list(int depth, QChar close)
    {
        ++m_pos; // [ or (
        QJsonArray array;
        if (take(close))
            return array;
        for (;;) {
            auto value = read(depth + 1);
            if (!value)
                return std::nullopt;
            array.append(*value);
            if (take(close))
                return array;
            if (!take(QLatin1Char(',')))
                return std::nullopt;
            if (take(close))
                return array;
        }
    }

    std::optional<QJsonValue> string()
    {
        const QChar quote = m_text[m_pos++];
        QString out;
        while (m_pos < m_text.size()) {
            const QChar c = m_text[m_pos++];
            if (c == quote)
                return QJsonValue(out);
            if (c != QLatin1Char('\\')) {
                out += c;
                continue;
            }
            if (m_pos >= m_text.size())
                return std::nullopt;
            const QChar e = m_text[m_pos++];
            switch (e.unicode()) {
            case 'n':
                out += QLatin1Char('\n');
                break;
            case 't':
                out += QLatin1Char('\t');
                break;
            case 'r':
                out += QLatin1Char('\r');
                break;
            case '0':
                out += QChar(0);
                break;
            case '\\':
                out += QLatin1Char('\\');
                break;
            case '\'':
                out += QLatin1Char('\'');
                break;
            case '"':
                out += QLatin1Char('"');
                break;
            case 'x':
            case 'u':
            case 'U': {
                const int digits = e == QLatin1Char('x') ? 2 : e == QLatin1Char('u') ? 4 : 8;
                if (m_pos + digits > m_text.size())
                    return std::nullopt;
                bool ok = false;
                const uint code = m_text.mid(m_pos, digits).toUInt(&ok, 16);
                if (!ok || code > 0x10FFFF)
                    return std::nullopt;
                m_pos += digits;
                const char32_t cp = code;
                out += QString::fromUcs4(&cp, 1);
                break;
            }
            default:
                out += QLatin1Char('\\');
                out += e;
            }
        }
        return std::nullopt; // the string never closes
    }

    std::optional<QJsonValue> number()
    {
        const qsizetype start = m_pos;
        while (m_pos < m_text.size() && (m_text[m_pos].isDigit() || QStringView(u"+-.eE_").contains(m_text[m_pos])))
            ++m_pos;
        if (m_pos == start)
            return std::nullopt;
        const QString digits = m_text.mid(start, m_pos - start).toString().remove(QLatin1Char('_'));
        bool ok = false;
        const qlonglong integer = digits.toLongLong(&ok);
        if (ok)
            return QJsonValue(integer);
        const double real = digits.toDouble(&ok);
        return ok ? std::optional<QJsonValue>(QJsonValue(real)) : std::nullopt;
    }

    QStringView m_text;
    qsizetype m_pos = 0;
};

} // namespace

namespace PyLiteral {

std::optional<QJsonValue> toJson(QStringView text)
{
    return Reader(text).document();
}

} // namespace PyLiteral
