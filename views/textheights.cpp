#include "textheights.h"

TextHeights::TextHeights(int capacity)
    : m_heights(capacity)
{
}

void TextHeights::forFont(const QFont& font)
{
    if (font == m_font)
        return;
    m_font = font;
    m_heights.clear();
}

int TextHeights::of(const QFontMetrics& fm, int width, const QString& text)
{
    const Key key { qHash(text, QHashSeed::globalSeed()), text.size(), width, fm.lineSpacing() };
    if (const int* known = m_heights.object(key))
        return *known;
    ++m_measured;
    const int height = fm.boundingRect(QRect(0, 0, width, 1 << 24), Qt::TextWordWrap, text).height();
    m_heights.insert(key, new int(height));
    return height;
}
