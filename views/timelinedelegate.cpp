#include "timelinedelegate.h"

#include "presentation.h"

#include "durationtext.h"
#include "eventflags.h"
#include "eventlistmodel.h"
#include "eventrecord.h"
#include "reporttext.h"
#include "timelinelayout.h"
#include "timeutil.h"

#include <QApplication>
#include <QAbstractItemView>
#include <QToolTip>
#include <QHelpEvent>
#include <QDateTime>
#include <QFontDatabase>
#include <QJsonDocument>
#include <QPainter>
#include <QPainterPath>
#include <QRegularExpression>
#include <QTextLayout>

namespace {

QString localTime(qint64 micros)
{
    return micros
        ? QDateTime::fromMSecsSinceEpoch(micros / 1000, Qt::UTC).toLocalTime().toString(QStringLiteral("HH:mm:ss"))
        : QString();
}

// JSON shown as it reads best: indented when it parses, as written otherwise.
QStringList jsonLines(const QString& text)
{
    const QJsonDocument doc = QJsonDocument::fromJson(text.toUtf8());
    if (!doc.isNull())
        return QString::fromUtf8(doc.toJson(QJsonDocument::Indented)).trimmed().split(QLatin1Char('\n'));
    return text.split(QLatin1Char('\n'));
}

// One line of indented JSON in colour: keys, strings and literals each their own.
void drawJsonLine(QPainter* p, const QRect& r, const QString& line, const QPalette& palette)
{
    static const QRegularExpression keyValue(QStringLiteral("^(\\s*)(\"(?:[^\"\\\\]|\\\\.)*\")(\\s*:\\s*)(.*)$"));
    const bool dark = Presentation::isDark(palette);
    const QColor key = dark ? QColor(0x9c, 0xdc, 0xfe) : QColor(0x00, 0x55, 0x99);
    const QColor string = dark ? QColor(0xce, 0x91, 0x78) : QColor(0xa3, 0x15, 0x15);
    const QColor literal = dark ? QColor(0xb5, 0xce, 0xa8) : QColor(0x09, 0x86, 0x58);
    const QFontMetrics fm = p->fontMetrics();
    int x = r.left();
    auto draw = [&](const QString& part, const QColor& colour) {
        p->setPen(colour);
        const QString shown = fm.elidedText(part, Qt::ElideRight, std::max(0, r.right() - x));
        p->drawText(QRect(x, r.top(), r.right() - x, r.height()), Qt::AlignLeft | Qt::AlignVCenter, shown);
        x += fm.horizontalAdvance(shown);
    };
    auto valueColour = [&](const QString& v) {
        const QString t = v.trimmed();
        if (t.startsWith(QLatin1Char('"')))
            return string;
        if (!t.isEmpty()
            && (t[0].isDigit() || t[0] == QLatin1Char('-') || t.startsWith(QLatin1String("true"))
                || t.startsWith(QLatin1String("false")) || t.startsWith(QLatin1String("null"))))
            return literal;
        return palette.color(QPalette::Text);
    };
    const QRegularExpressionMatch m = keyValue.match(line);
    if (m.hasMatch()) {
        draw(m.captured(1), palette.color(QPalette::Text));
        draw(m.captured(2), key);
        draw(m.captured(3), palette.color(QPalette::Text));
        draw(m.captured(4), valueColour(m.captured(4)));
    } else {
        draw(line, valueColour(line));
    }
}

// `top` at its alpha over `under`, as one opaque colour. Translucent fills are blended by Qt's generic span functions,
// which hand a tall shape's spans to the global thread pool and wait for it: with an import on both cores of a small
// machine, each such fill waited for a core, and a scroll's frame took over 100 ms. Opaque, a frame is painted on
// the window's thread alone, and eight times faster.
QColor over(const QColor& top, const QColor& under)
{
    const qreal a = top.alphaF();
    return QColor::fromRgbF(top.redF() * a + under.redF() * (1 - a), top.greenF() * a + under.greenF() * (1 - a),
        top.blueF() * a + under.blueF() * (1 - a));
}

void drawPill(QPainter* p, const QRect& r, const QString& text, const QColor& colour, const QColor& under)
{
    p->setPen(QPen(colour, 1.2));
    p->setBrush(over(QColor(colour.red(), colour.green(), colour.blue(), 28), under));
    p->drawRoundedRect(QRectF(r).adjusted(0.5, 0.5, -0.5, -0.5), r.height() / 2.0, r.height() / 2.0);
    p->setPen(colour);
    p->drawText(r, Qt::AlignCenter, text);
}

// Where pills go, from the right edge of `line` leftwards (what is painted and what a hover finds).
QVector<QRect> pillRects(const QFontMetrics& fm, const QRect& line, const QStringList& texts)
{
    QVector<QRect> rects;
    int right = line.right();
    for (const QString& text : texts) {
        const int w = fm.horizontalAdvance(text) + fm.height();
        rects << QRect(right - w + 1, line.top() + 1, w, line.height() - 2);
        right -= w + 4;
    }
    return rects;
}

// Pills from the right edge leftwards; returns where they start.
int drawPillsRight(QPainter* p, const QRect& line, const QList<QPair<QString, QColor>>& pills, const QColor& under)
{
    QStringList texts;
    for (const auto& pill : pills)
        texts << pill.first;
    const QVector<QRect> rects = pillRects(p->fontMetrics(), line, texts);
    for (int i = 0; i < rects.size(); ++i)
        drawPill(p, rects.at(i), pills.at(i).first, pills.at(i).second, under);
    return rects.isEmpty() ? line.right() : rects.last().left() - 4;
}

// What reviewers added to the item, as pills: its mark, its labels in their colours, how many notes it has.
QList<QPair<QString, QColor>> annotationPills(const QModelIndex& index, bool dark)
{
    QList<QPair<QString, QColor>> pills;
    const QStringList notes = index.data(EventListModel::NotesRole).toStringList();
    if (!notes.isEmpty())
        pills << qMakePair(QStringLiteral("✎ %1").arg(notes.size()), dark ? QColor(0xff, 0xe0, 0x82) : QColor(0x7a, 0x5c, 0x00));
    const QVariantMap colours = index.data(EventListModel::LabelColorsRole).toMap();
    const QStringList labels = index.data(EventListModel::LabelsRole).toStringList();
    for (auto it = labels.crbegin(); it != labels.crend(); ++it) {
        QColor c(colours.value(*it).toString());
        pills << qMakePair(*it, dark ? c.lighter(130) : c.darker(130));
    }
    if (index.data(EventListModel::MarkedRole).toBool())
        pills << qMakePair(QStringLiteral("⚑"), dark ? QColor(0xff, 0x8a, 0x65) : QColor(0xd8, 0x43, 0x15));
    const EventRecord e = index.data(EventListModel::RecordRole).value<EventRecord>();
    // A reviewer changed what the source said (its text, arguments, result, outcome or pair): Show Original.
    if (e.flags & EventFlags::Revised)
        pills << qMakePair(TimelineDelegate::tr("edited"), dark ? QColor(0x90, 0xca, 0xf9) : QColor(0x15, 0x65, 0xc0));
    // What the source's protocol says is wrong here (the row's tooltip and the details pane say what).
    if (!e.warning.isEmpty())
        pills << qMakePair(TimelineDelegate::tr("⚠ warning"), Presentation::problemColour(dark));
    return pills;
}

} // namespace

TimelineDelegate::TimelineDelegate(QObject* parent)
    : QStyledItemDelegate(parent)
{
}

QVector<TimelineDelegate::Badge> TimelineDelegate::badgesOf(const ToolCallRecord& call) const
{
    QVector<Badge> out;
    if (call.synthetic) {
        out.append({ tr("synthetic end"),
            tr("The source system made this end up (it closed a call nobody answered): the agent's tool did not "
               "send it.") });
    }
    if (call.ambiguous) {
        out.append({ tr("ambiguous pair"),
            tr("Paired by name and order, while another call of %1 ran at the same time: this end may be that "
               "call's.")
                .arg(call.toolName) });
    } else if (call.pairing == Pairing::Guessed && !m_pairsGuessedByDesign) {
        out.append({ tr("guessed pair"),
            tr("The source keeps no call ids: this start and end were paired by tool name and order.") });
    }
    if (call.pairing == Pairing::Manual)
        out.append({ tr("linked by a reviewer"), tr("A reviewer linked this end to this start (Edit ▸ Link Call).") });
    if (call.pairing == Pairing::EndOnly) {
        out.append({ tr("end without start"),
            tr("This end's start is not in the log: it began before the log does, or was lost.") });
    }
    if (call.argumentsValid == false)
        out.append({ tr("arguments not JSON"), tr("The arguments as the agent sent them do not parse as JSON.") });
    return out;
}

bool TimelineDelegate::helpEvent(
    QHelpEvent* event, QAbstractItemView* view, const QStyleOptionViewItem& option, const QModelIndex& index)
{
    // A badge says what it means when the pointer rests on it; the outcome pill says how the call ended.
    const QVariant callValue = index.data(EventListModel::CallRole);
    if (event->type() != QEvent::ToolTip || !callValue.isValid() || !index.data(EventListModel::LoadedRole).toBool())
        return QStyledItemDelegate::helpEvent(event, view, option, index);
    const EventRecord e = index.data(EventListModel::RecordRole).value<EventRecord>();
    const ToolCallRecord call = callValue.value<ToolCallRecord>();
    const bool expanded = index.data(EventListModel::ExpandedRole).toBool();
    const int openCount = expanded ? int(cachedOpenLines(e, call).size()) : 0;
    const auto g = TimelineLayout::layout(TimelineLayout::Shape::Card, TimelineLayout::sideOf(e), option.rect.width(),
        option.fontMetrics, e.text, expanded, openCount);
    const QPoint at = event->pos() - option.rect.topLeft();
    QString tip;
    const QString label = call.blockedBy.isEmpty()
        ? Presentation::outcomeLabel(call.outcome)
        : Presentation::outcomeLabel(call.outcome) + tr(" by %1").arg(call.blockedBy);
    if (pillRects(option.fontMetrics, g.header, { label }).first().contains(at))
        tip = Presentation::outcomeMeaning(call.outcome);
    QFont small = option.font;
    small.setPointSizeF(option.font.pointSizeF() * 0.85);
    const QRect second(g.body.left(), g.body.top(), g.body.width(), option.fontMetrics.lineSpacing());
    const QVector<Badge> badges = badgesOf(call);
    QStringList texts;
    for (const Badge& b : badges)
        texts << b.text;
    const QVector<QRect> rects = pillRects(QFontMetrics(small), second, texts);
    for (int i = 0; i < rects.size(); ++i) {
        if (rects.at(i).contains(at))
            tip = badges.at(i).meaning;
    }
    if (tip.isEmpty())
        return QStyledItemDelegate::helpEvent(event, view, option, index);
    QToolTip::showText(event->globalPos(), tip, view);
    return true;
}

TimelineDelegate::CardLines TimelineDelegate::openLines(const EventRecord& e, const ToolCallRecord& c)
{
    CardLines lines;
    auto add = [&lines](CardLine::Role role, const QString& text) { lines.append({ role, text }); };
    // At most MaxResultLines lines of JSON, each cut at MaxLineCharacters: a line of the card is one line of the
    // screen, elided, and a fetched page of 2 MB with no line break was one line measured whole at every paint
    // (1.4 s a click). The details pane and the reports hold the whole.
    auto addJson = [&](QStringList json) {
        const qsizetype more = json.size() - MaxResultLines;
        if (more > 0)
            json = json.mid(0, MaxResultLines);
        for (const QString& l : std::as_const(json))
            add(CardLine::Json, cutLine(l));
        if (more > 0)
            add(CardLine::Fact, tr("… %1 more lines: the details pane shows it all").arg(more));
    };
    add(CardLine::Heading,
        tr("Arguments") + (c.argumentsValid == false ? tr(" (not valid JSON: shown as sent)") : QString()));
    if (c.arguments.isEmpty())
        add(CardLine::Fact, tr("(none)"));
    else
        addJson(jsonLines(c.arguments));
    add(CardLine::Heading, tr("Result"));
    if (c.resultIndex || c.endIndex)
        addJson(jsonLines(c.result));
    else
        add(CardLine::Fact, tr("(no result: nothing answered this call)"));
    QStringList facts;
    if (c.startMicros)
        facts << tr("started %1").arg(TimeUtil::formatMicros(*c.startMicros));
    if (c.endMicros)
        facts << tr("ended %1").arg(TimeUtil::formatMicros(*c.endMicros));
    if (!facts.isEmpty())
        add(CardLine::Fact, facts.join(QStringLiteral(" · ")));
    QStringList ids { tr("tool id %1").arg(c.toolId.isEmpty() ? tr("(none)") : c.toolId) };
    if (!e.groupId.isEmpty())
        ids << tr("response %1").arg(e.groupId);
    add(CardLine::Fact, cutLine(ids.join(QStringLiteral(" · "))));
    if (!c.error.isEmpty())
        add(CardLine::Error, Presentation::errorLine(cutLine(c.error).simplified()));
    return lines;
}

QString TimelineDelegate::cutLine(const QString& line)
{
    // A bidi override or a NUL as its code point, as reports show it.
    return ReportText::shown(line.size() <= MaxLineCharacters ? line : line.left(MaxLineCharacters) + QStringLiteral("…"));
}

QColor TimelineDelegate::highlightColour(bool dark)
{
    return dark ? QColor(0x8a, 0x6d, 0x00) : QColor(0xff, 0xe0, 0x6b);
}

QList<std::pair<int, int>> TimelineDelegate::highlightSpans(const QString& text, const QStringList& words)
{
    // Whole words only, as the full-text index (FTS5's unicode61: letters and digits make words) matches them:
    // "refund" is not marked inside "Refunds", and is in "refund_id".
    auto isWordChar = [](QChar c) { return c.isLetterOrNumber(); };
    QList<std::pair<int, int>> spans;
    for (const QString& word : words) {
        if (word.isEmpty())
            continue;
        for (qsizetype at = text.indexOf(word, 0, Qt::CaseInsensitive); at >= 0;
             at = text.indexOf(word, at + word.size(), Qt::CaseInsensitive)) {
            const qsizetype end = at + word.size();
            const bool whole = (at == 0 || !isWordChar(text.at(at - 1))) && (end == text.size() || !isWordChar(text.at(end)));
            if (whole)
                spans.append({ int(at), int(end) });
        }
    }
    return spans;
}

QList<std::pair<int, int>> TimelineDelegate::redactionSpans(const QString& text)
{
    // RedactionStore::placeholder's form.
    static const QRegularExpression placeholder(QStringLiteral("\\[redacted: [^\\]]*\\]"));
    QList<std::pair<int, int>> spans;
    if (!text.contains(QLatin1String("[redacted: ")))
        return spans;
    for (auto it = placeholder.globalMatch(text); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        spans.append({ int(m.capturedStart()), int(m.capturedEnd()) });
    }
    return spans;
}

void TimelineDelegate::paintHighlights(QPainter* p, const QRect& r, const QString& text, bool wrapped) const
{
    if (text.isEmpty())
        return;
    const bool dark = p->pen().color().lightness() > 128;
    // What a reviewer redacted shows as a grey box, so that a placeholder is never read as what was said.
    QColor box = p->pen().color();
    box.setAlpha(60);
    paintSpans(p, r, text, wrapped, redactionSpans(text), box);
    if (!m_highlights.isEmpty())
        paintSpans(p, r, text, wrapped, highlightSpans(text, m_highlights), highlightColour(dark));
}

void TimelineDelegate::paintSpans(QPainter* p, const QRect& r, const QString& text, bool wrapped,
    const QList<std::pair<int, int>>& spans, const QColor& mark) const
{
    if (spans.isEmpty())
        return;
    const QFontMetrics fm(p->font());
    if (!wrapped) {
        const int top = r.top() + (r.height() - fm.height()) / 2;
        for (const auto& [from, to] : spans) {
            const int x = r.left() + fm.horizontalAdvance(text.left(from));
            p->fillRect(QRect(x, top, fm.horizontalAdvance(text.mid(from, to - from)), fm.height()) & r, mark);
        }
        return;
    }
    // The same layout drawText(Qt::TextWordWrap) makes: lines of the rect's width, one line spacing apart.
    QTextLayout layout(text, p->font());
    QTextOption option;
    option.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    layout.setTextOption(option);
    layout.beginLayout();
    qreal y = 0;
    for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
        line.setLineWidth(r.width());
        line.setPosition(QPointF(0, y));
        y += fm.lineSpacing();
    }
    layout.endLayout();
    for (int i = 0; i < layout.lineCount(); ++i) {
        const QTextLine line = layout.lineAt(i);
        const int lineStart = line.textStart(), lineEnd = line.textStart() + line.textLength();
        const int top = r.top() + int(line.y());
        if (top > r.bottom())
            break;
        for (const auto& [from, to] : spans) {
            const int a = std::max(from, lineStart), b = std::min(to, lineEnd);
            if (a >= b)
                continue;
            const int x0 = r.left() + int(line.cursorToX(a)), x1 = r.left() + int(line.cursorToX(b));
            p->fillRect(QRect(x0, top, x1 - x0, fm.height()) & r, mark);
        }
    }
}

const TimelineDelegate::CardLines& TimelineDelegate::cachedOpenLines(const EventRecord& e, const ToolCallRecord& call) const
{
    const size_t fingerprint = qHashMulti(0, e.groupId, call.arguments, call.result, call.error, call.toolId,
        call.startMicros.value_or(0), call.endMicros.value_or(0), call.argumentsValid.value_or(true),
        call.endIndex.value_or(-1), call.resultIndex.value_or(-1));
    auto it = m_open.find(e.rowId);
    if (it == m_open.end() || it->fingerprint != fingerprint) {
        if (m_open.size() > 256)
            m_open.clear();
        it = m_open.insert(e.rowId, { fingerprint, openLines(e, call) });
    }
    return it->lines;
}

QSize TimelineDelegate::sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    const int width = option.rect.width() > 0 ? option.rect.width() : 600;
    if (!index.data(EventListModel::LoadedRole).toBool()) {
        // Its block is on its way: one line, the height of a closed compact row.
        const auto g = TimelineLayout::layout(
            TimelineLayout::Shape::Compact, TimelineLayout::Side::Centre, width, option.fontMetrics, QString(), false);
        return QSize(width, g.height);
    }
    const EventRecord e = index.data(EventListModel::RecordRole).value<EventRecord>();
    const QVariant callValue = index.data(EventListModel::CallRole);
    const bool expanded = index.data(EventListModel::ExpandedRole).toBool();
    const auto shape = TimelineLayout::shapeOf(e, callValue.isValid());
    int openLines = 0;
    if (shape == TimelineLayout::Shape::Card && expanded && callValue.isValid())
        openLines = int(cachedOpenLines(e, callValue.value<ToolCallRecord>()).size());
    // A closed card never measures text: its height is the same for every call.
    m_heights.forFont(option.font);
    const auto g = TimelineLayout::layout(
        shape, TimelineLayout::sideOf(e), width, option.fontMetrics, e.text, expanded, openLines, &m_heights);
    return QSize(width, g.height);
}

void TimelineDelegate::paint(QPainter* p, const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    if (!index.data(EventListModel::LoadedRole).toBool()) {
        p->save();
        p->setPen(option.palette.color(QPalette::Disabled, QPalette::Text));
        const int left = TimelineLayout::GroupGutter + TimelineLayout::Margin;
        p->drawText(option.rect.adjusted(left, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter, tr("Loading…"));
        p->restore();
        return;
    }
    const EventRecord e = index.data(EventListModel::RecordRole).value<EventRecord>();
    const QVariant callValue = index.data(EventListModel::CallRole);
    const bool expanded = index.data(EventListModel::ExpandedRole).toBool();
    const auto position = EventListModel::GroupPosition(index.data(EventListModel::GroupPositionRole).toInt());
    const QPalette& pal = option.palette;
    const bool dark = Presentation::isDark(pal);
    const auto shape = TimelineLayout::shapeOf(e, callValue.isValid());
    const auto side = TimelineLayout::sideOf(e);
    const std::optional<ToolCallRecord> call
        = callValue.isValid() ? std::optional(callValue.value<ToolCallRecord>()) : std::nullopt;
    const int openCount
        = shape == TimelineLayout::Shape::Card && expanded && call ? int(cachedOpenLines(e, *call).size()) : 0;
    m_heights.forFont(option.font);
    const auto g = TimelineLayout::layout(
        shape, side, option.rect.width(), option.fontMetrics, e.text, expanded, openCount, &m_heights);

    p->save();
    p->setRenderHint(QPainter::Antialiasing);
    p->translate(option.rect.topLeft());
    const QRect whole(0, 0, option.rect.width(), option.rect.height());
    if (option.state & QStyle::State_Selected) {
        QColor h = pal.color(QPalette::Highlight);
        h.setAlpha(45);
        p->fillRect(whole, over(h, pal.color(QPalette::Base)));
    }

    // One AI response: a bar down the gutter from its first item to its last.
    if (position != EventListModel::NoGroup) {
        const int x = TimelineLayout::GroupGutter / 2;
        const int mid = g.frame.top() + option.fontMetrics.lineSpacing();
        const int top = (position == EventListModel::GroupMiddle || position == EventListModel::GroupLast) ? 0 : mid;
        const int bottom = (position == EventListModel::GroupFirst || position == EventListModel::GroupMiddle)
            ? whole.bottom()
            : mid;
        QColor bar = pal.color(QPalette::Highlight);
        bar.setAlpha(150);
        bar = over(bar, pal.color(QPalette::Base));
        p->setPen(QPen(bar, 2.5, Qt::SolidLine, Qt::RoundCap));
        if (bottom > top)
            p->drawLine(x, top, x, bottom);
        p->setBrush(bar);
        p->setPen(Qt::NoPen);
        if (position == EventListModel::GroupFirst || position == EventListModel::GroupSingle)
            p->drawEllipse(QPointF(x, mid), 3.5, 3.5);
    }

    if (e.isBlocked())
        p->setOpacity(0.5); // a hook refused it: nobody received it, it is still shown
    QFont small = option.font;
    small.setPointSizeF(option.font.pointSizeF() * 0.85);
    const QColor dim = pal.color(QPalette::PlaceholderText);
    const QColor text = pal.color(QPalette::Text);

    QStringList meta;
    if (!e.participantId.isEmpty())
        meta << e.participantId;
    if (!e.channelId.isEmpty())
        meta << e.channelId;
    meta << localTime(e.createdMicros);
    if (e.isBlocked())
        meta << tr("blocked by %1").arg(e.blockedBy.isEmpty() ? tr("a hook") : e.blockedBy);
    if (e.isSynthetic())
        meta << tr("synthetic");
    if (e.flags & EventFlags::FromSnapshot) // no stream of its own: say where it was found
        meta << (e.type == QLatin1String("RUN_STARTED") ? tr("from the run's input") : tr("from a messages snapshot"));

    const QList<QPair<QString, QColor>> added = annotationPills(index, dark);
    switch (shape) {
    case TimelineLayout::Shape::Bubble: {
        QColor fill = side == TimelineLayout::Side::Left ? pal.color(QPalette::AlternateBase)
            : side == TimelineLayout::Side::Right        ? pal.color(QPalette::Highlight)
                                                         : pal.color(QPalette::Base);
        fill.setAlpha(side == TimelineLayout::Side::Right ? 40 : 255);
        fill = over(fill, pal.color(QPalette::Base));
        p->setPen(QPen(pal.color(QPalette::Mid), 0.8));
        p->setBrush(fill);
        p->drawRoundedRect(QRectF(g.frame).adjusted(0.5, 0.5, -0.5, -0.5), 8, 8);
        p->setFont(small);
        const int free = drawPillsRight(p, g.header, added, fill);
        p->setPen(dim);
        const QString who = e.role.isEmpty() ? e.type : e.role;
        p->drawText(g.header, Qt::AlignLeft | Qt::AlignVCenter,
            QFontMetrics(small).elidedText(who + QStringLiteral(" · ") + meta.join(QStringLiteral(" · ")),
                Qt::ElideRight, free - g.header.left()));
        p->setFont(option.font);
        p->setPen(text);
        QString body = TimelineLayout::shownText(e.text);
        if (e.flags & EventFlags::Cancelled)
            body += tr(" [cut short]");
        // A message taller than its closed bubble shows the whole lines that fit, and the hint on a line of
        // its own under them (drawn over the last line, it hid the text it stood on).
        QRect textRect = g.body;
        const int line = option.fontMetrics.lineSpacing();
        const bool cut = !expanded
            && TimelineLayout::textHeight(option.fontMetrics, g.body.width(), body, &m_heights) > g.body.height();
        if (cut)
            textRect.setHeight(std::max(1, g.body.height() / line - 1) * line);
        p->save();
        p->setClipRect(textRect, Qt::IntersectClip);
        paintHighlights(p, textRect, body, true);
        p->drawText(textRect, Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, body);
        p->restore();
        if (cut) {
            p->setPen(dim);
            p->drawText(QRect(g.body.left(), textRect.bottom() + 1, g.body.width(), g.body.bottom() - textRect.bottom()),
                Qt::AlignRight | Qt::AlignVCenter, tr("… Enter shows all"));
        }
        break;
    }
    case TimelineLayout::Shape::Card: {
        const Outcome outcome = call ? call->outcome : e.outcome;
        const QColor colour = Presentation::outcomeColour(outcome, dark);
        p->setPen(QPen(colour, 1.5));
        p->setBrush(pal.color(QPalette::Base));
        p->drawRoundedRect(QRectF(g.frame).adjusted(0.5, 0.5, -0.5, -0.5), 5, 5);
        p->fillRect(QRect(g.frame.left(), g.frame.top() + 3, 4, g.frame.height() - 6), colour);
        // Line 1: the call, and how it ended.
        // A blocked call says by whom, as its end row does (the end is folded into the card).
        const QString label = call && !call->blockedBy.isEmpty()
            ? Presentation::outcomeLabel(outcome) + tr(" by %1").arg(call->blockedBy)
            : Presentation::outcomeLabel(outcome);
        QList<QPair<QString, QColor>> pills = QList<QPair<QString, QColor>> { { label, colour } } + added;
        const int free = drawPillsRight(p, g.header, pills, pal.color(QPalette::Base));
        QFont bold = option.font;
        bold.setBold(true);
        p->setFont(bold);
        p->setPen(text);
        // Elided before the pills: a narrow timeline drew the pills over the tool's name.
        const QString name = QFontMetrics(bold).elidedText((expanded ? QStringLiteral("▾ ") : QStringLiteral("▸ "))
                + ReportText::shown(call ? call->toolName : e.toolName),
            Qt::ElideRight, std::max(0, free - g.header.left() - 6));
        p->drawText(g.header, Qt::AlignLeft | Qt::AlignVCenter, name);
        const int nameWidth = QFontMetrics(bold).horizontalAdvance(name);
        p->setFont(option.font);
        p->setPen(dim);
        // One line of them, elided: its first few thousand characters are more than a line ever shows.
        // A bidi override shows as its code point: it would turn the rest of the line around.
        const QString args = ReportText::shown(call ? call->arguments.left(4000).simplified() : e.text.left(4000));
        const QRect argsRect(g.header.left() + nameWidth + 6, g.header.top(), free - g.header.left() - nameWidth - 12,
            g.header.height());
        const QString shownArgs = option.fontMetrics.elidedText(args, Qt::ElideRight, argsRect.width());
        paintHighlights(p, argsRect, shownArgs, false);
        p->drawText(argsRect, Qt::AlignLeft | Qt::AlignVCenter, shownArgs);
        // Line 2: timing and what is known of the pairing.
        const QRect second(g.body.left(), g.body.top(), g.body.width(), option.fontMetrics.lineSpacing());
        QList<QPair<QString, QColor>> badges;
        const QColor note = dark ? QColor(0xff, 0xcc, 0x80) : QColor(0x8d, 0x5b, 0x00);
        if (call) {
            for (const Badge& b : badgesOf(*call))
                badges << qMakePair(b.text, note);
        }
        p->setFont(small);
        const int badgeLeft = drawPillsRight(p, second, badges, pal.color(QPalette::Base));
        QStringList facts;
        if (call && call->durationMs)
            facts << DurationText::brief(*call);
        facts << meta;
        p->setPen(dim);
        p->drawText(QRect(second.left(), second.top(), badgeLeft - second.left(), second.height()),
            Qt::AlignLeft | Qt::AlignVCenter,
            QFontMetrics(small).elidedText(
                facts.join(QStringLiteral(" · ")), Qt::ElideRight, badgeLeft - second.left()));
        if (expanded && call) {
            const CardLines& lines = cachedOpenLines(e, *call);
            QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
            mono.setPointSizeF(option.font.pointSizeF() * 0.9);
            const int line = option.fontMetrics.lineSpacing();
            int y = second.bottom() + 1;
            for (const CardLine& l : lines) {
                const QRect r(g.body.left() + 8, y, g.body.width() - 8, line);
                switch (l.role) {
                case CardLine::Heading:
                    p->setFont(bold);
                    p->setPen(text);
                    p->drawText(r, Qt::AlignLeft | Qt::AlignVCenter, l.text);
                    break;
                case CardLine::Json:
                    p->setFont(mono);
                    drawJsonLine(p, r, l.text, pal);
                    break;
                case CardLine::Fact:
                case CardLine::Error:
                    p->setFont(small);
                    p->setPen(l.role == CardLine::Error ? Presentation::problemColour(dark) : dim);
                    p->drawText(r, Qt::AlignLeft | Qt::AlignVCenter,
                        QFontMetrics(small).elidedText(l.text, Qt::ElideRight, r.width()));
                    break;
                }
                y += line;
            }
        }
        break;
    }
    case TimelineLayout::Shape::Compact: {
        p->setFont(small);
        p->setPen(dim);
        const QString head = (expanded ? QStringLiteral("▾ ") : QStringLiteral("▸ ")) + e.type + QStringLiteral("  ");
        const int headWidth = QFontMetrics(small).horizontalAdvance(head);
        p->drawText(g.header, Qt::AlignLeft | Qt::AlignVCenter, head);
        const int free = drawPillsRight(
            p, QRect(g.body.left(), g.body.top(), g.body.width(), QFontMetrics(small).height() + 2), added, pal.color(QPalette::Base));
        p->setPen(dim);
        const QRect rest(g.body.left() + headWidth, g.body.top(), free - g.body.left() - headWidth, g.body.height());
        QString shown = TimelineLayout::shownText(e.text);
        if (!meta.isEmpty())
            shown += QStringLiteral("  · ") + meta.join(QStringLiteral(" · "));
        if (expanded) {
            paintHighlights(p, rest, shown, true);
            p->drawText(rest, Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, shown);
        } else {
            const QString line = QFontMetrics(small).elidedText(shown.simplified(), Qt::ElideRight, rest.width());
            paintHighlights(p, rest, line, false);
            p->drawText(rest, Qt::AlignLeft | Qt::AlignVCenter, line);
        }
        break;
    }
    }
    p->restore();
}
