#pragma once

#include "toolcallrecord.h"

#include <QHash>
#include <QStringList>
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
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;

    // What an open card shows below its two lines: arguments, result, times, ids and error.
    static QStringList openLines(const EventRecord& e, const ToolCallRecord& call);
    static QString outcomeLabel(const QString& outcome); // "✓ served", "✗ failed", ...
    static QColor outcomeColour(const QString& outcome, bool dark);
    static constexpr int MaxResultLines = 60;
    // Words of a search, marked wherever they show in a message, a card's arguments or a line (case aside).
    void setHighlights(const QStringList& words) { m_highlights = words; }
    const QStringList& highlights() const { return m_highlights; }
    static QColor highlightColour(bool dark);

private:
    const QStringList& cachedOpenLines(const EventRecord& e, const ToolCallRecord& call) const;

    // Paints the marks behind `text` as drawText() lays it out in `r`: one line from the left, or wrapped.
    void paintHighlights(QPainter* p, const QRect& r, const QString& text, bool wrapped) const;

    mutable QHash<qint64, QStringList> m_open;
    QStringList m_highlights; // by row id: formatting JSON once per open card
};
