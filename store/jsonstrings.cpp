#include "jsonstrings.h"

#include <QRegularExpression>

namespace JsonStrings {

namespace {

// A recursive descent over the text, keeping the path; it stops (false) at the first thing that is not JSON.
class Scanner
{
public:
    explicit Scanner(const QString& text)
        : m_s(text)
    {
    }

    bool run()
    {
        skip();
        if (!value(QStringLiteral("$"), 0))
            return false;
        skip();
        return m_i == m_s.size();
    }

    QVector<Token> tokens;

private:
    static constexpr int MaxDepth = 512; // a hostile nesting is refused, never a stack overflow

    void skip()
    {
        while (m_i < m_s.size()
            && (m_s[m_i] == QLatin1Char(' ') || m_s[m_i] == QLatin1Char('\n') || m_s[m_i] == QLatin1Char('\r')
                || m_s[m_i] == QLatin1Char('\t')))
            ++m_i;
    }

    static QString member(const QString& path, const QString& key)
    {
        static const QRegularExpression identifier(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
        if (identifier.match(key).hasMatch())
            return path + QLatin1Char('.') + key;
        return path + QStringLiteral("[\"") + QString(key).replace(QLatin1Char('"'), QStringLiteral("\\\""))
            + QStringLiteral("\"]");
    }

    bool value(const QString& path, int depth)
    {
        if (m_i >= m_s.size() || depth > MaxDepth)
            return false;
        const QChar c = m_s[m_i];
        if (c == QLatin1Char('"')) {
            Token t;
            if (!string(t))
                return false;
            t.path = path;
            tokens.append(std::move(t));
            return true;
        }
        if (c == QLatin1Char('{')) {
            ++m_i;
            skip();
            if (m_i < m_s.size() && m_s[m_i] == QLatin1Char('}')) {
                ++m_i;
                return true;
            }
            for (;;) {
                skip();
                Token key;
                if (m_i >= m_s.size() || m_s[m_i] != QLatin1Char('"') || !string(key))
                    return false;
                skip();
                if (m_i >= m_s.size() || m_s[m_i] != QLatin1Char(':'))
                    return false;
                ++m_i;
                skip();
                if (!value(member(path, key.value), depth + 1))
                    return false;
                skip();
                if (m_i < m_s.size() && m_s[m_i] == QLatin1Char(',')) {
                    ++m_i;
                    continue;
                }
                if (m_i < m_s.size() && m_s[m_i] == QLatin1Char('}')) {
                    ++m_i;
                    return true;
                }
                return false;
            }
        }
        if (c == QLatin1Char('[')) {
            ++m_i;
            skip();
            if (m_i < m_s.size() && m_s[m_i] == QLatin1Char(']')) {
                ++m_i;
                return true;
            }
            for (int n = 0;; ++n) {
                skip();
                if (!value(path + QStringLiteral("[%1]").arg(n), depth + 1))
                    return false;
                skip();
                if (m_i < m_s.size() && m_s[m_i] == QLatin1Char(',')) {
                    ++m_i;
                    continue;
                }
                if (m_i < m_s.size() && m_s[m_i] == QLatin1Char(']')) {
                    ++m_i;
                    return true;
                }
                return false;
            }
        }
        // A number or a literal: its characters, checked no further than JSON's alphabet for them.
        const qsizetype from = m_i;
        while (m_i < m_s.size()
            && (m_s[m_i].isLetterOrNumber() || m_s[m_i] == QLatin1Char('-') || m_s[m_i] == QLatin1Char('+')
                || m_s[m_i] == QLatin1Char('.')))
            ++m_i;
        const QString word = m_s.mid(from, m_i - from);
        static const QRegularExpression number(QStringLiteral("^-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?$"));
        return word == QLatin1String("true") || word == QLatin1String("false") || word == QLatin1String("null")
            || number.match(word).hasMatch();
    }

    static int hex(QChar c)
    {
        const ushort u = c.unicode();
        if (u >= '0' && u <= '9')
            return u - '0';
        if (u >= 'a' && u <= 'f')
            return u - 'a' + 10;
        if (u >= 'A' && u <= 'F')
            return u - 'A' + 10;
        return -1;
    }

    bool string(Token& t)
    {
        ++m_i; // the opening quote
        t.begin = m_i;
        while (m_i < m_s.size()) {
            const QChar c = m_s[m_i];
            if (c == QLatin1Char('"')) {
                t.end = m_i;
                t.at.append(m_i);
                ++m_i;
                return true;
            }
            if (c.unicode() < 0x20)
                return false;
            t.at.append(m_i);
            if (c != QLatin1Char('\\')) {
                t.value.append(c);
                ++m_i;
                continue;
            }
            if (m_i + 1 >= m_s.size())
                return false;
            const QChar e = m_s[m_i + 1];
            static const QString simple = QStringLiteral("\"\\/bfnrt");
            static const QString meant = QStringLiteral("\"\\/\b\f\n\r\t");
            const qsizetype k = simple.indexOf(e);
            if (k >= 0) {
                t.value.append(meant[k]);
                m_i += 2;
                continue;
            }
            if (e != QLatin1Char('u') || m_i + 6 > m_s.size())
                return false;
            int code = 0;
            for (int d = 2; d < 6; ++d) {
                const int h = hex(m_s[m_i + d]);
                if (h < 0)
                    return false;
                code = code * 16 + h;
            }
            t.value.append(QChar(char16_t(code)));
            m_i += 6;
        }
        return false;
    }

    const QString& m_s;
    qsizetype m_i = 0;
};

} // namespace

std::optional<QVector<Token>> values(const QString& json)
{
    Scanner s(json);
    if (!s.run())
        return std::nullopt;
    return std::move(s.tokens);
}

std::optional<Token> valueAt(const QString& json, const QString& path)
{
    const auto all = values(json);
    if (!all)
        return std::nullopt;
    for (const Token& t : *all) {
        if (t.path == path)
            return t;
    }
    return std::nullopt;
}

std::optional<Selection> selectionAt(const QString& json, qsizetype from, qsizetype to)
{
    const auto all = values(json);
    if (!all || to <= from)
        return std::nullopt;
    for (const Token& t : *all) {
        if (from < t.begin || to > t.end)
            continue;
        // The decoded characters whose text starts inside [from, to): an escape cut in half counts whole.
        qsizetype start = -1, stop = -1;
        for (qsizetype i = 0; i < t.value.size(); ++i) {
            const qsizetype a = t.at[i], b = t.at[i + 1];
            if (b > from && a < to) {
                if (start < 0)
                    start = i;
                stop = i + 1;
            }
        }
        if (start < 0)
            return std::nullopt;
        return Selection { t, start, stop - start };
    }
    return std::nullopt;
}

Token plain(const QString& text)
{
    Token t;
    t.begin = 0;
    t.end = text.size();
    t.value = text;
    t.at.resize(text.size() + 1);
    for (qsizetype i = 0; i <= text.size(); ++i)
        t.at[i] = i;
    return t;
}

std::optional<Token> stringAt(const QString& text, const QString& path)
{
    return path.isEmpty() ? std::optional<Token>(plain(text)) : valueAt(text, path);
}

QString cut(const QString& text, const Token& token, qsizetype start, qsizetype length, const QString& with)
{
    if (!token.path.isEmpty())
        return replaced(text, token, start, length, with);
    // Plain text: the same span rules, nothing escaped.
    wholeCharacters(token.value, start, length);
    return text.left(start) + with + text.mid(start + length);
}

void wholeCharacters(const QString& text, qsizetype& start, qsizetype& length)
{
    start = std::clamp<qsizetype>(start, 0, text.size());
    qsizetype stop = std::clamp<qsizetype>(start + length, start, text.size());
    if (start > 0 && text[start].isLowSurrogate())
        --start;
    if (stop < text.size() && text[stop].isLowSurrogate())
        ++stop;
    length = stop - start;
}

QString escaped(const QString& text)
{
    QString out;
    out.reserve(text.size() + 8);
    for (const QChar c : text) {
        switch (c.unicode()) {
        case '"':
            out += QStringLiteral("\\\"");
            break;
        case '\\':
            out += QStringLiteral("\\\\");
            break;
        case '\n':
            out += QStringLiteral("\\n");
            break;
        case '\r':
            out += QStringLiteral("\\r");
            break;
        case '\t':
            out += QStringLiteral("\\t");
            break;
        default:
            if (c.unicode() < 0x20)
                out += QStringLiteral("\\u%1").arg(int(c.unicode()), 4, 16, QLatin1Char('0'));
            else
                out += c;
        }
    }
    return out;
}

QString replaced(const QString& json, const Token& token, qsizetype start, qsizetype length, const QString& with)
{
    wholeCharacters(token.value, start, length);
    return json.left(token.at[start]) + escaped(with) + json.mid(token.at[start + length]);
}

} // namespace JsonStrings
