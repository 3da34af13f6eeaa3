#pragma once

#include "eventrecord.h"

#include <QFontMetrics>
#include <QRect>
#include <QString>

class TextHeights;

// Where everything of one timeline item goes, as plain arithmetic a test can check without a view.
//
// A tool call is a card whose collapsed height is constant (two lines), so the view never measures text to
// scroll past calls; an open card adds a line for each line of its arguments, result and facts. A message is a
// bubble placed by role (the user's on the left, the assistant's on the right, the system's centred) whose
// height follows its wrapped text, cut to a few lines until it is opened. Everything else is a compact line.
struct TimelineLayout
{
    enum class Shape { Bubble, Card, Compact };
    enum class Side { Left, Right, Centre };

    static constexpr int Margin = 4; // around an item
    static constexpr int Padding = 6; // inside a bubble or card
    static constexpr int GroupGutter = 12; // at the left, where one AI response's bar runs
    static constexpr int BubbleWidthPercent = 78;
    static constexpr int CollapsedBubbleLines = 6;
    // What an item shows of a long text: its first ShownLimit characters, and a line saying how many more the
    // details hold. A 2 MB message (a fetched page) was measured and wrapped whole at every paint: seconds a click.
    static constexpr qsizetype ShownLimit = 20000;
    static QString shownText(const QString& text);

    static Shape shapeOf(const EventRecord& e, bool hasCall);
    static Side sideOf(const EventRecord& e);

    struct Geometry
    {
        QRect frame; // the bubble or card; the compact line
        QRect header; // sender, channel and time; a card's title line
        QRect body; // the text; a card's second line and what opens below it
        int height = 0; // of the whole item, margins included
    };

    // `openLines` is how many lines an open card shows below its two lines (its arguments, result and facts).
    // `heights`, when given, remembers what the text measured (the view's delegate keeps one).
    static Geometry layout(Shape shape, Side side, int width, const QFontMetrics& fm, const QString& text,
        bool expanded, int openLines = 0, TextHeights* heights = nullptr);
    // The height of `text` wrapped at `width`: through `heights` when given.
    static int textHeight(const QFontMetrics& fm, int width, const QString& text, TextHeights* heights);
};
