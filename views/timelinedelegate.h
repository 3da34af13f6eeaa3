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

private:
    const QStringList& cachedOpenLines(const EventRecord& e, const ToolCallRecord& call) const;

    mutable QHash<qint64, QStringList> m_open; // by row id: formatting JSON once per open card
};
