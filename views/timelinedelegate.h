#pragma once

#include "textheights.h"

#include "toolcallrecord.h"

#include <QHash>
#include <QStringList>
#include <QVector>
#include <QStyledItemDelegate>

struct EventRecord;

// Paints one timeline item (TimelineLayout says where): a message as a bubble by role, a tool call as one card
// with its outcome as a badge of its own colour, symbol and word (never colour alone), badges for synthetic,
// guessed and ambiguous pairs and for an end without a start, a bar joining the items of one AI response, and
// blocked rows dimmed with who blocked them. An open card shows its arguments and result as coloured JSON.
class TimelineDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    explicit TimelineDelegate(QObject* parent = nullptr);

    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
    bool helpEvent(QHelpEvent* event, QAbstractItemView* view, const QStyleOptionViewItem& option,
        const QModelIndex& index) override;

    // A card's badges, each with what it means (shown when the pointer rests on it).
    struct Badge
    {
        QString text;
        QString meaning;
    };
    QVector<Badge> badgesOf(const ToolCallRecord& call) const;
    // A room whose every pair is a guess (CraftBot keeps no call ids): the room says it once, and its cards
    // badge only the ambiguous pairs.
    void setPairsGuessedByDesign(bool guessed) { m_pairsGuessedByDesign = guessed; }
    bool pairsGuessedByDesign() const { return m_pairsGuessedByDesign; }
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;

    // One line of what an open card shows below its two lines, with what it is (so it is drawn as such, not
    // told apart by its text).
    struct CardLine
    {
        enum Role { Heading, Json, Fact, Error };
        Role role;
        QString text;
    };
    using CardLines = QVector<CardLine>;
    // Arguments, result, times, ids and error.
    static CardLines openLines(const EventRecord& e, const ToolCallRecord& call);
    // Forgets the open cards' lines kept for painting (the view calls it when the model's rows change).
    void forgetOpenLines() { m_open.clear(); }
    static constexpr int MaxResultLines = 60; // of the arguments' JSON, and of the result's
    static constexpr qsizetype MaxLineCharacters = 1000; // more than a screen's line shows
    // A line of an open card: its first MaxLineCharacters, a hidden character as its code point ("[U+202E]").
    static QString cutLine(const QString& line);
    // Words of a search, marked wherever they show in a message, a card's arguments or a line (case aside).
    void setHighlights(const QStringList& words) { m_highlights = words; }
    const QStringList& highlights() const { return m_highlights; }
    static QColor highlightColour(bool dark);
    // Where the words show in `text`, as [start, end): whole words, case aside.
    static QList<std::pair<int, int>> highlightSpans(const QString& text, const QStringList& words);
    // Where redaction placeholders ("[redacted: reason]") are in `text`.
    static QList<std::pair<int, int>> redactionSpans(const QString& text);

private:
    const CardLines& cachedOpenLines(const EventRecord& e, const ToolCallRecord& call) const;

    // Paints the marks behind `text` as drawText() lays it out in `r`: one line from the left, or wrapped.
    void paintHighlights(QPainter* p, const QRect& r, const QString& text, bool wrapped) const;
    void paintSpans(QPainter* p, const QRect& r, const QString& text, bool wrapped,
        const QList<std::pair<int, int>>& spans, const QColor& mark) const;

    // An open card's lines, formatted once: by row id, with a fingerprint of what they were made from, so a row
    // whose call or text changed (an edit, a redaction, a late result) is formatted again.
    struct OpenLines
    {
        size_t fingerprint;
        CardLines lines;
    };
    mutable QHash<qint64, OpenLines> m_open;
    mutable TextHeights m_heights; // what bubbles' texts measured, for the rows' heights and their paint alike
    QStringList m_highlights;
    bool m_pairsGuessedByDesign = false;
};
