#include "timelinelayout.h"

#include "eventflags.h"
#include "eventkind.h"
#include "reporttext.h"
#include "textheights.h"

#include <algorithm>

TimelineLayout::Shape TimelineLayout::shapeOf(const EventRecord& e, bool hasCall)
{
    // A snapshot's row shows the messages it brought, the calls it brought written in them: a card would hide them.
    if ((e.flags & EventFlags::FromSnapshot) && !e.text.isEmpty())
        return Shape::Bubble;
    if (hasCall || e.kind == EventKind::ToolCall)
        return Shape::Card;
    if (e.kind == EventKind::Message && !e.text.isEmpty())
        return Shape::Bubble;
    return Shape::Compact;
}

TimelineLayout::Side TimelineLayout::sideOf(const EventRecord& e)
{
    if (e.role == QLatin1String("user"))
        return Side::Left;
    if (e.role == QLatin1String("assistant"))
        return Side::Right;
    return Side::Centre;
}

QString TimelineLayout::shownText(const QString& whole)
{
    // A bidi override or a NUL as its code point, as reports show it: "invoice <RLO>fdp.exe" read as
    // "invoice exe.pdf" in a bubble too.
    const QString text = ReportText::shown(whole.size() <= ShownLimit ? whole : whole.left(ShownLimit));
    if (whole.size() <= ShownLimit)
        return text;
    return text + QStringLiteral("\n… ") + QString::number(whole.size() - ShownLimit)
        + QStringLiteral(" more characters in the details");
}

int TimelineLayout::textHeight(const QFontMetrics& fm, int width, const QString& text, TextHeights* heights)
{
    return heights ? heights->of(fm, width, text)
                   : fm.boundingRect(QRect(0, 0, width, 1 << 24), Qt::TextWordWrap, text).height();
}

TimelineLayout::Geometry TimelineLayout::layout(Shape shape, Side side, int width, const QFontMetrics& fm,
    const QString& whole, bool expanded, int openLines, TextHeights* heights)
{
    const QString text = shownText(whole);
    Geometry g;
    const int line = fm.lineSpacing();
    const int left = GroupGutter + Margin;
    const int available = std::max(80, width - left - Margin);
    switch (shape) {
    case Shape::Card: {
        const int lines = 2 + (expanded ? openLines : 0);
        g.frame = QRect(left, Margin, available, 2 * Padding + lines * line);
        g.header = QRect(left + Padding, Margin + Padding, available - 2 * Padding, line);
        g.body = QRect(left + Padding, Margin + Padding + line, available - 2 * Padding, (lines - 1) * line);
        break;
    }
    case Shape::Bubble: {
        const int bubble = side == Side::Centre ? available : std::max(80, available * BubbleWidthPercent / 100);
        const int textWidth = bubble - 2 * Padding;
        int height = textHeight(fm, textWidth, text, heights);
        if (!expanded)
            height = std::min(height, CollapsedBubbleLines * line);
        height = std::max(height, line);
        const int x = side == Side::Right ? left + available - bubble : side == Side::Centre ? left : left;
        g.frame = QRect(x, Margin, bubble, 2 * Padding + line + height);
        g.header = QRect(x + Padding, Margin + Padding, textWidth, line);
        g.body = QRect(x + Padding, Margin + Padding + line, textWidth, height);
        break;
    }
    case Shape::Compact: {
        int height = line;
        if (expanded)
            height = std::max(line, textHeight(fm, available, text, heights));
        g.frame = QRect(left, Margin, available, height + 2);
        g.header = QRect(left, Margin + 1, available, line);
        g.body = QRect(left, Margin + 1, available, height);
        break;
    }
    }
    g.height = g.frame.bottom() + 1 + Margin;
    return g;
}
