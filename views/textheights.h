#pragma once

#include <QCache>
#include <QFont>
#include <QFontMetrics>
#include <QString>

// The height a text takes wrapped at a width, remembered. A closed bubble's text was laid out three times a paint
// (its height for the row, again for its frame, again to see whether it is cut) and again at every scroll step: a
// quarter of the window's thread while a big room scrolled, colour emoji decoded from PNG at each layout. Kept by the
// text's content (its hash under this process's random seed, so a log cannot be written to make two texts collide,
// and its length) and the width, for one font: another font (forFont) starts the cache over. A text that changed is
// measured anew; nothing needs to be told to forget. (The text is still hashed at each call: far less than laying
// it out.)
class TextHeights
{
public:
    explicit TextHeights(int capacity = 4096);

    // The font the heights are for; another than the last forgets them all.
    void forFont(const QFont& font);
    // What fm.boundingRect(QRect(0, 0, width, big), Qt::TextWordWrap, text).height() gives; `fm` is the font's.
    int of(const QFontMetrics& fm, int width, const QString& text);
    int measured() const { return m_measured; } // how many were laid out, not found

private:
    struct Key
    {
        size_t hash;
        qsizetype length;
        int width;
        int lineSpacing; // a metrics object of another font passed by mistake is not answered from this one's
        bool operator==(const Key&) const = default;
    };
    friend size_t qHash(const Key& k, size_t seed) noexcept
    {
        return qHashMulti(seed, k.hash, k.length, k.width, k.lineSpacing);
    }

    QCache<Key, int> m_heights;
    QFont m_font;
    int m_measured = 0;
};
