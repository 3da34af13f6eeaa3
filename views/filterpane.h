#pragma once

#include "eventfilter.h"
#include "facetcounts.h"

#include <QWidget>

class FacetModel;
class QButtonGroup;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTreeView;
class TimeHistogram;

// The filter panes, in a dock beside the timeline: blocked rows (hide, include, only, with their count), time
// (from and to, quick ranges, a histogram to drag across) and the room's values (types under their kinds,
// channels, channel types, tools, outcomes, participants), each with its faceted count. A pane never applies
// a filter itself: it asks for one (filterEdited), the filter bar writes it as text and applies it, and the
// panes show what the bar holds (setFilter), so the two always agree.
class FilterPane : public QWidget
{
    Q_OBJECT
public:
    explicit FilterPane(QWidget* parent = nullptr);
    // Wide enough for the longest common names (AG-UI's TEXT_MESSAGE_CONTENT, CraftBot's "agent message to platform"; longer ones lose their middle)
    // under their kind, with a million events' count beside them.
    QSize sizeHint() const override;

    void clear(); // another room: no counts until its own come
    void setCounts(const FacetCounts& counts);
    void setFilter(const EventFilter& filter);
    const EventFilter& filter() const { return m_filter; }

    FacetModel* model() const { return m_model; }
    QTreeView* values() const { return m_values; }
    QLineEdit* valueSearch() const { return m_search; }
    QButtonGroup* blockedChoice() const { return m_blocked; }
    QLabel* blockedCount() const { return m_blockedCount; }
    TimeHistogram* histogram() const { return m_histogram; }
    QLineEdit* fromEdit() const { return m_from; }
    QLineEdit* toEdit() const { return m_to; }
    QLabel* timeNote() const { return m_timeNote; } // says when a quick range holds the whole room
    // The time filter of the last `seconds` of the room (up to its last event); 0: all of it.
    void showLast(qint64 seconds);

signals:
    void filterEdited(const EventFilter& filter);

private:
    void editTime(std::optional<qint64> after, std::optional<qint64> before);
    void showTime();
    void showValuesMenu(const QPoint& pos);

    EventFilter m_filter;
    FacetCounts m_counts;
    QButtonGroup* m_blocked;
    QLabel* m_blockedCount;
    TimeHistogram* m_histogram;
    QLineEdit* m_from;
    QLineEdit* m_to;
    QLabel* m_timeNote;
    QLineEdit* m_search;
    FacetModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTreeView* m_values;
    bool m_showing = false; // setFilter() is moving the widgets: their signals are not the user's
};
