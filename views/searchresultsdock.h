#pragma once

#include "searchhit.h"

#include <QDockWidget>

class QTreeWidget;

// The Search Results dock: the events of every room holding the words (Search All Rooms), one a line with its
// room, index, time, type and text; activating one asks to open its room at that event.
class SearchResultsDock : public QDockWidget
{
    Q_OBJECT
public:
    explicit SearchResultsDock(QWidget* parent = nullptr);

    static constexpr int Limit = 1000; // the first this many are listed
    void searching(const QString& text); // shown, emptied, until the results come
    void setResults(const QString& text, const SearchHits& hits);
    void clear(); // emptied and hidden: another workspace's hits would lead nowhere
    int hitCount() const;
    QTreeWidget* tree() const { return m_tree; }

signals:
    void hitActivated(qint64 roomId, const QString& room, qint64 index);

private:
    QTreeWidget* m_tree;
};
