// Timeline geometry as plain arithmetic: shapes by kind, sides by role, and heights that a view can trust.

#include "timelinedelegate.h"
#include "timelinelayout.h"
#include "textheights.h"
#include "eventflags.h"
#include "toolcallrecord.h"
#include "waterfallview.h"

#include <QFont>
#include <QFontMetrics>
#include <QGuiApplication>
#include <QTest>

namespace {

EventRecord record(const char* kind, const char* role, const QString& text = QStringLiteral("hello"))
{
    EventRecord e;
    e.kind = EventKinds::fromName(QLatin1String(kind));
    e.role = QLatin1String(role);
    e.text = text;
    return e;
}

} // namespace

Q_DECLARE_METATYPE(TimelineLayout::Shape)
Q_DECLARE_METATYPE(TimelineLayout::Side)

class TestTimelineLayout : public QObject
{
    Q_OBJECT

    QFontMetrics fm { QFont() };

private slots:
    // The waterfall's idle-break labels never run into each other: far apart each says "N idle"; close, the first says
    // its time alone to leave room; on top of each other, the second says nothing.
    void idleLabelsKeepClear()
    {
        const qint64 minute = 60'000'000;
        const QVector<qint64> idle { 4 * minute, 60 * minute, 120 * minute };
        const auto clear = [&](const QVector<double>& starts, const QStringList& labels) {
            double end = -1;
            for (qsizetype i = 0; i < labels.size(); ++i) {
                if (labels.at(i).isEmpty())
                    continue;
                if (starts.at(i) < end)
                    return false;
                end = starts.at(i) + fm.horizontalAdvance(labels.at(i)) + 8;
            }
            return true;
        };
        const QVector<double> far { 10, 400, 900 };
        const QStringList apart = WaterfallView::idleLabels(far, idle, fm);
        QCOMPARE(apart.size(), 3);
        for (const QString& l : apart)
            QVERIFY2(l.endsWith(QLatin1String(" idle")), qPrintable(l));
        const QString brief = WaterfallView::durationText(idle.at(0));
        const QVector<double> near { 10, double(10 + fm.horizontalAdvance(brief) + 9), 900 };
        const QStringList close = WaterfallView::idleLabels(near, idle, fm);
        QCOMPARE(close.at(0), brief);
        QVERIFY(close.at(1).endsWith(QLatin1String(" idle")) && close.at(2).endsWith(QLatin1String(" idle")));
        QVERIFY(clear(near, close));
        const QVector<double> onTop { 10, 12, 900 };
        const QStringList stacked = WaterfallView::idleLabels(onTop, idle, fm);
        QVERIFY(!stacked.at(0).isEmpty() && stacked.at(1).isEmpty() && !stacked.at(2).isEmpty());
        QVERIFY(clear(onTop, stacked));
    }

    void shapesAndSides_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("role");
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("hasCall");
        QTest::addColumn<TimelineLayout::Shape>("shape");
        QTest::addColumn<TimelineLayout::Side>("side");
        using S = TimelineLayout::Shape;
        using D = TimelineLayout::Side;
        QTest::newRow("user message") << "message"
                                      << "user"
                                      << "hi" << false << S::Bubble << D::Left;
        QTest::newRow("assistant message") << "message"
                                           << "assistant"
                                           << "hi" << false << S::Bubble << D::Right;
        QTest::newRow("system message") << "message"
                                        << "system"
                                        << "hi" << false << S::Bubble << D::Centre;
        QTest::newRow("empty message") << "message"
                                       << "user"
                                       << "" << false << S::Compact << D::Left;
        QTest::newRow("tool call") << "tool_call"
                                   << "assistant"
                                   << "f()" << true << S::Card << D::Right;
        QTest::newRow("call without its record") << "tool_call"
                                                 << "assistant"
                                                 << "f()" << false << S::Card << D::Right;
        QTest::newRow("reasoning") << "reasoning"
                                   << "reasoning"
                                   << "thinking" << false << S::Compact << D::Centre;
        QTest::newRow("lifecycle") << "lifecycle"
                                   << "system"
                                   << "joined" << false << S::Compact << D::Centre;
        QTest::newRow("run") << "run"
                             << "system"
                             << "run started" << false << S::Compact << D::Centre;
    }

    void shapesAndSides()
    {
        QFETCH(QString, kind);
        QFETCH(QString, role);
        QFETCH(QString, text);
        QFETCH(bool, hasCall);
        QFETCH(TimelineLayout::Shape, shape);
        QFETCH(TimelineLayout::Side, side);
        const EventRecord e = record(qPrintable(kind), qPrintable(role), text);
        QCOMPARE(TimelineLayout::shapeOf(e, hasCall), shape);
        QCOMPARE(TimelineLayout::sideOf(e), side);
    }

    // A row that shows messages a snapshot brought stays a bubble when it also starts a call it brought: the
    // card would hide the messages (the calls are written in them).
    void aSnapshotsMessagesStayABubble()
    {
        EventRecord e = record("message", "assistant", QStringLiteral("approve({})"));
        e.flags |= EventFlags::FromSnapshot;
        QCOMPARE(TimelineLayout::shapeOf(e, true), TimelineLayout::Shape::Bubble);
        e.flags = 0;
        QCOMPARE(TimelineLayout::shapeOf(e, true), TimelineLayout::Shape::Card);
    }

    // The waterfall's axis labels, as precise as the ticks are apart: ms, s, then a clock, with days.
    void waterfallAxisLabels_data()
    {
        QTest::addColumn<qint64>("us");
        QTest::addColumn<qint64>("step");
        QTest::addColumn<QString>("label");
        const qint64 ms = 1000, s = 1000 * ms, min = 60 * s, h = 60 * min, d = 24 * h;
        QTest::newRow("sub-millisecond ticks") << qint64(1500) << qint64(100) << QStringLiteral("1.50 ms");
        QTest::newRow("milliseconds") << 350 * ms << 50 * ms << QStringLiteral("350 ms");
        QTest::newRow("seconds, fine ticks") << 12'345 * ms << 10 * ms << QStringLiteral("12.345 s");
        QTest::newRow("seconds, 200 ms ticks") << 12'500 * ms << 200 * ms << QStringLiteral("12.5 s");
        QTest::newRow("seconds") << 45 * s << 5 * s << QStringLiteral("45 s");
        QTest::newRow("minutes") << 4 * min + 5 * s << 15 * s << QStringLiteral("4:05");
        QTest::newRow("hours") << h + 2 * min + 3 * s << 10 * min << QStringLiteral("1:02:03");
        QTest::newRow("days") << 2 * d + h + 2 * min + 3 * s << 6 * h << QStringLiteral("2 d 1:02:03");
        QTest::newRow("a day in, milliseconds apart") << d + 15 * min + 52 * s + 7 * ms << 100 * ms
                                                    << QStringLiteral("1 d 0:15:52.007");
    }

    void waterfallAxisLabels()
    {
        QFETCH(qint64, us);
        QFETCH(qint64, step);
        QFETCH(QString, label);
        QCOMPARE(WaterfallView::axisLabel(us, step), label);
    }

    // A closed card is the same height whatever it says or how wide the view is: scrolling past calls measures
    // no text. An open card grows a line per line it shows.
    void cardHeights_data()
    {
        QTest::addColumn<int>("width");
        QTest::addColumn<QString>("text");
        QTest::newRow("narrow, short") << 200 << "f()";
        QTest::newRow("wide, long") << 1600 << QString(5000, QLatin1Char('x'));
        QTest::newRow("lines") << 700 << "a\nb\nc\nd";
    }

    void cardHeights()
    {
        QFETCH(int, width);
        QFETCH(QString, text);
        const int line = fm.lineSpacing();
        const auto closed = TimelineLayout::layout(
            TimelineLayout::Shape::Card, TimelineLayout::Side::Right, width, fm, text, false, 0);
        QCOMPARE(closed.height, 2 * TimelineLayout::Margin + 2 * TimelineLayout::Padding + 2 * line);
        QCOMPARE(closed.frame.left(), TimelineLayout::GroupGutter + TimelineLayout::Margin);
        QVERIFY(closed.frame.right() <= width);
        for (int open : { 1, 7, 60 }) {
            const auto g = TimelineLayout::layout(
                TimelineLayout::Shape::Card, TimelineLayout::Side::Right, width, fm, text, true, open);
            QCOMPARE(g.height, closed.height + open * line);
            QVERIFY(g.body.bottom() <= g.frame.bottom());
        }
        // Closed, the open line count is ignored.
        QCOMPARE(
            TimelineLayout::layout(TimelineLayout::Shape::Card, TimelineLayout::Side::Right, width, fm, text, false, 40)
                .height,
            closed.height);
    }

    void bubbles()
    {
        const int width = 800;
        const auto user = TimelineLayout::layout(
            TimelineLayout::Shape::Bubble, TimelineLayout::Side::Left, width, fm, QStringLiteral("hi"), false);
        const auto assistant = TimelineLayout::layout(
            TimelineLayout::Shape::Bubble, TimelineLayout::Side::Right, width, fm, QStringLiteral("hi"), false);
        const auto system = TimelineLayout::layout(
            TimelineLayout::Shape::Bubble, TimelineLayout::Side::Centre, width, fm, QStringLiteral("hi"), false);
        QCOMPARE(user.frame.left(), TimelineLayout::GroupGutter + TimelineLayout::Margin);
        QCOMPARE(assistant.frame.right(), width - TimelineLayout::Margin - 1);
        QVERIFY(assistant.frame.left() > user.frame.left());
        QVERIFY(system.frame.width() > user.frame.width());
        QCOMPARE(user.frame.width(), assistant.frame.width());
        // Text wraps to the bubble; a long message is cut to a few lines until it is opened.
        const QString longText = QStringLiteral("word ").repeated(600);
        const auto closed = TimelineLayout::layout(
            TimelineLayout::Shape::Bubble, TimelineLayout::Side::Left, width, fm, longText, false);
        const auto open = TimelineLayout::layout(
            TimelineLayout::Shape::Bubble, TimelineLayout::Side::Left, width, fm, longText, true);
        QCOMPARE(closed.body.height(), TimelineLayout::CollapsedBubbleLines * fm.lineSpacing());
        QVERIFY(open.body.height() > closed.body.height());
        QVERIFY(open.body.width() < width);
        // Narrower views wrap more.
        const auto narrow = TimelineLayout::layout(
            TimelineLayout::Shape::Bubble, TimelineLayout::Side::Left, 300, fm, longText, true);
        QVERIFY(narrow.height > open.height);
    }

    // A message of 2 MB (a fetched page pasted into the chat): an item shows its first 20,000 characters and says
    // how many more the details hold; opened, it is as tall as those, not as the whole (laid out at every paint,
    // the whole took seconds a click).
    void aHugeMessageShowsItsBeginning()
    {
        const QString huge = QStringLiteral("lorem ipsum ").repeated(2 * 1024 * 1024 / 12);
        const QString shown = TimelineLayout::shownText(huge);
        QVERIFY(shown.startsWith(huge.left(TimelineLayout::ShownLimit)));
        QVERIFY(shown.endsWith(QString::number(huge.size() - TimelineLayout::ShownLimit) + QStringLiteral(" more characters in the details")));
        QCOMPARE(TimelineLayout::shownText(QStringLiteral("short")), QStringLiteral("short"));
        // A right-to-left override shows as its code point, as in reports.
        QCOMPARE(TimelineLayout::shownText(QStringLiteral("invoice ") + QChar(0x202E) + QStringLiteral("fdp.exe")),
            QStringLiteral("invoice [U+202E]fdp.exe"));
        const auto open = TimelineLayout::layout(
            TimelineLayout::Shape::Bubble, TimelineLayout::Side::Left, 800, fm, huge, true);
        const auto beginning = TimelineLayout::layout(
            TimelineLayout::Shape::Bubble, TimelineLayout::Side::Left, 800, fm, shown, true);
        QCOMPARE(open.height, beginning.height);
        QVERIFY(open.body.height() < 2000 * fm.lineSpacing());
    }

    // An open card of a call whose result is a fetched page of 2 MB with no line break, and whose arguments are
    // thousands of lines of JSON: it shows at most MaxResultLines lines of each, each cut at MaxLineCharacters (the
    // page was one line measured whole at every paint, 1.4 s a click), and says how many more lines the details
    // hold. What it shows says what the source said: "%1" as it is, a bidi override as its code point.
    void anOpenCardOfAHugeResultShowsItsBeginning()
    {
        EventRecord e = record("tool_call", "assistant");
        ToolCallRecord c;
        c.toolName = QStringLiteral("fetch");
        c.toolId = QStringLiteral("c%1");
        c.resultIndex = 3;
        c.result = QStringLiteral("<p>100%1 off</p>") + QStringLiteral("<p>lorem ipsum</p>").repeated(2 * 1000 * 1000 / 18);
        QStringList items;
        for (int i = 0; i < 5000; ++i)
            items << QString::number(i);
        c.arguments = QStringLiteral("{\"file\":\"invoice ") + QChar(0x202E) + QStringLiteral("fdp.exe\",\"pages\":[")
            + items.join(QLatin1Char(',')) + QStringLiteral("]}");
        const TimelineDelegate::CardLines lines = TimelineDelegate::openLines(e, c);
        int json = 0;
        QStringList facts;
        for (const TimelineDelegate::CardLine& l : lines) {
            QVERIFY2(l.text.size() <= TimelineDelegate::MaxLineCharacters + 1, qPrintable(QString::number(l.text.size())));
            json += l.role == TimelineDelegate::CardLine::Json;
            if (l.role == TimelineDelegate::CardLine::Fact)
                facts << l.text;
        }
        QCOMPARE(json, TimelineDelegate::MaxResultLines + 1); // the arguments' first lines, and the page's one
        QVERIFY2(facts.contains(QStringLiteral("… %1 more lines: the details pane shows it all").arg(5005 - TimelineDelegate::MaxResultLines)),
            qPrintable(facts.join(QLatin1Char('\n'))));
        QVERIFY(facts.contains(QStringLiteral("tool id c%1")));
        auto lineAfter = [&](const QString& heading) {
            for (qsizetype i = 0; i + 1 < lines.size(); ++i) {
                if (lines[i].role == TimelineDelegate::CardLine::Heading && lines[i].text == heading)
                    return lines[i + 1].text;
            }
            return QString();
        };
        QCOMPARE(lineAfter(QStringLiteral("Result")), c.result.left(TimelineDelegate::MaxLineCharacters) + QStringLiteral("…"));
        QCOMPARE(lines[2].text, QStringLiteral("    \"file\": \"invoice [U+202E]fdp.exe\","));
    }

    // A search's words are marked where they show as whole words, case aside, as the index matches them (a
    // word inside a longer one was marked though it was no match).
    void highlightsAreWholeWords()
    {
        using Spans = QList<std::pair<int, int>>;
        const QStringList words { QStringLiteral("refund") };
        QCOMPARE(TimelineDelegate::highlightSpans(QStringLiteral("Refund issued; refunds and refunded."), words),
            (Spans { { 0, 6 } }));
        QCOMPARE(TimelineDelegate::highlightSpans(QStringLiteral("a refund, (refund) refund"), words),
            (Spans { { 2, 8 }, { 11, 17 }, { 19, 25 } }));
        QCOMPARE(TimelineDelegate::highlightSpans(QStringLiteral("prerefund refund_id"), words), (Spans { { 10, 16 } }));
        QCOMPARE(TimelineDelegate::highlightSpans(QStringLiteral("refund"), { QStringLiteral("refund"), QString() }),
            (Spans { { 0, 6 } }));
    }

    // What a text measured is remembered (TextHeights): the same heights as measuring it, every text measured once
    // however often its row is laid out and painted, and anew when its content, the width or the font differs.
    void textHeightsAreRememberedNotGuessed()
    {
        TextHeights heights(64);
        heights.forFont(QFont());
        const QStringList texts { QStringLiteral("hi"), QStringLiteral("word ").repeated(300),
            QStringLiteral("a\nb\nc"), QStringLiteral("emoji 🙏😊 and accents é ü"), QString() };
        for (const QString& text : texts) {
            for (int width : { 120, 400, 900 }) {
                const int measured = fm.boundingRect(QRect(0, 0, width, 1 << 24), Qt::TextWordWrap, text).height();
                QCOMPARE(heights.of(fm, width, text), measured);
                const int before = heights.measured();
                // A copy of its own (not a shared one): the same text is found by its content.
                QCOMPARE(heights.of(fm, width, QString(text.constData(), text.size())), measured);
                QCOMPARE(heights.measured(), before);
            }
        }
        // The same length, other words: measured anew (one line against many).
        const QString shortWords = QStringLiteral("a ").repeated(200);
        const QString oneWord = QStringLiteral("x").repeated(400);
        const int before = heights.measured();
        QCOMPARE(heights.of(fm, 200, shortWords),
            fm.boundingRect(QRect(0, 0, 200, 1 << 24), Qt::TextWordWrap, shortWords).height());
        QCOMPARE(heights.of(fm, 200, oneWord), fm.boundingRect(QRect(0, 0, 200, 1 << 24), Qt::TextWordWrap, oneWord).height());
        QCOMPARE(heights.measured(), before + 2);
        // Another font, even one of the same line spacing (italic): measured anew, in that font.
        QFont italic;
        italic.setItalic(true);
        heights.forFont(italic);
        const QFontMetrics italicFm(italic);
        const int italicBefore = heights.measured();
        QCOMPARE(heights.of(italicFm, 200, shortWords),
            italicFm.boundingRect(QRect(0, 0, 200, 1 << 24), Qt::TextWordWrap, shortWords).height());
        QCOMPARE(heights.measured(), italicBefore + 1);
        QFont big;
        big.setPointSize(big.pointSize() * 2);
        heights.forFont(big);
        const QFontMetrics bigFm(big);
        QCOMPARE(heights.of(bigFm, 200, shortWords),
            bigFm.boundingRect(QRect(0, 0, 200, 1 << 24), Qt::TextWordWrap, shortWords).height());
        heights.forFont(QFont());
        QVERIFY(heights.of(bigFm, 200, shortWords) > heights.of(fm, 200, shortWords));
        // A layout through it is the layout without it.
        for (bool expanded : { false, true }) {
            for (auto shape : { TimelineLayout::Shape::Bubble, TimelineLayout::Shape::Compact }) {
                for (const QString& text : texts) {
                    const auto plain
                        = TimelineLayout::layout(shape, TimelineLayout::Side::Left, 700, fm, text, expanded);
                    const auto remembered = TimelineLayout::layout(
                        shape, TimelineLayout::Side::Left, 700, fm, text, expanded, 0, &heights);
                    QCOMPARE(remembered.frame, plain.frame);
                    QCOMPARE(remembered.body, plain.body);
                    QCOMPARE(remembered.height, plain.height);
                }
            }
        }
    }

    void compact()
    {
        const auto closed = TimelineLayout::layout(
            TimelineLayout::Shape::Compact, TimelineLayout::Side::Centre, 600, fm, QStringLiteral("a\nb\nc"), false);
        QCOMPARE(closed.body.height(), fm.lineSpacing());
        const auto open = TimelineLayout::layout(
            TimelineLayout::Shape::Compact, TimelineLayout::Side::Centre, 600, fm, QStringLiteral("a\nb\nc"), true);
        QCOMPARE(open.body.height(), 3 * fm.lineSpacing());
    }
};

QTEST_MAIN(TestTimelineLayout)
#include "tst_timelinelayout.moc"
