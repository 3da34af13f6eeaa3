#pragma once

#include "searchhit.h"

#include <QDockWidget>

class QLabel;
class QPushButton;
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
    // Rooms the workspace has not read (in whole) yet were not searched: said under the hits, with an offer to read
    // them and search again (0: every room was searched).
    void setNotSearched(int rooms, qint64 events, bool reading);
    int hitCount() const;
    QTreeWidget* tree() const { return m_tree; }
    QString notSearchedText() const; // what the line under the hits says (empty: hidden)
    QPushButton* readButton() const { return m_read; }

signals:
    void hitActivated(qint64 roomId, const QString& room, qint64 index);
    void readRestRequested(); // read the rooms not searched, then search again

private:
    QTreeWidget* m_tree;
    QWidget* m_notSearched;
    QLabel* m_notSearchedText;
    QPushButton* m_read;
};
