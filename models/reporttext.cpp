#include "reporttext.h"

#include <algorithm>

bool ReportText::isHidden(char32_t c)
{
    if (c == U'\t' || c == U'\n' || c == U'\r')
        return false;
    return c < 0x20 || c == 0x7f // NUL and the other control characters
        || c == 0x061c || c == 0x200e || c == 0x200f // the Arabic letter mark, left-to-right and right-to-left marks
        || (c >= 0x202a && c <= 0x202e) // embeddings and overrides
        || (c >= 0x2066 && c <= 0x2069); // isolates
}

qsizetype ReportText::sourcePosition(const QString& text, qsizetype shownPosition, bool end)
{
    const qsizetype marker = 8; // "[U+202E]": every hidden character is one UTF-16 unit, four hex digits
    qsizetype at = 0;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const qsizetype width = isHidden(text.at(i).unicode()) ? marker : 1;
        if (shownPosition < at + width)
            return shownPosition == at || !end ? i : i + 1;
        at += width;
    }
    return text.size();
}

QString ReportText::shown(const QString& text)
{
    // Most text has none: returned as it is, without a copy.
    const auto hidden = [](QChar c) { return isHidden(c.unicode()); };
    if (std::none_of(text.cbegin(), text.cend(), hidden))
        return text;
    QString out;
    out.reserve(text.size() + 16);
    for (const QChar c : text) {
        if (isHidden(c.unicode()))
            out += QStringLiteral("[U+") + QStringLiteral("%1").arg(c.unicode(), 4, 16, QLatin1Char('0')).toUpper()
                + QLatin1Char(']');
        else
            out += c;
    }
    return out;
}
