#pragma once

#include <QCache>
#include <QFontMetrics>
#include <QString>

// The height a text takes wrapped at a width, remembered. A closed bubble's text was laid out three times a paint
// (its height for the row, again for its frame, again to see whether it is cut) and again at every scroll step: a
// quarter of the window's thread while a big room scrolled, colour emoji decoded from PNG at each layout. Kept by the
// text's content (a hash and its length), the width and the font's metrics, so a text that changed, another width or
// another font is measured anew; nothing needs to be told to forget.
class TextHeights
{
public:
    explicit TextHeights(int capacity = 4096);

    // What fm.boundingRect(QRect(0, 0, width, big), Qt::TextWordWrap, text).height() gives.
    int of(const QFontMetrics& fm, int width, const QString& text);
    int measured() const { return m_measured; } // how many were laid out, not found

private:
    struct Key
    {
        size_t hash;
        qsizetype length;
        int width;
        int lineSpacing;
        int averageCharWidth;
        bool operator==(const Key&) const = default;
    };
    friend size_t qHash(const Key& k, size_t seed) noexcept
    {
        return qHashMulti(seed, k.hash, k.length, k.width, k.lineSpacing, k.averageCharWidth);
    }

    QCache<Key, int> m_heights;
    int m_measured = 0;
};
