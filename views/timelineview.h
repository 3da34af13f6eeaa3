#pragma once

#include <QAbstractItemView>

class QPushButton;
class TimelineDelegate;

// The timeline: one item per message, tool call or other event, painted by TimelineDelegate. Enter, Space
// or a double click opens and closes the current item.
//
// A virtual list: the scroll position is a row and a pixel offset into it, and only the rows on screen are
// measured, so a room of a million items costs what a screenful does (QListView measures every row to lay
// out items of different heights). The scroll bar counts rows; the wheel scrolls by pixels.
class TimelineView : public QAbstractItemView
{
    Q_OBJECT
public:
    explicit TimelineView(QWidget* parent = nullptr);
    void setModel(QAbstractItemModel* model) override;
    TimelineDelegate* timelineDelegate() const { return m_delegate; }
    void toggleCurrent();
    int topRow() const { return m_topRow; }
    // What the view says, centred, while it has no rows (why it is empty); nothing when empty.
    void setEmptyText(const QString& text);
    // The search's words, marked in the items that show them.
    void setHighlights(const QStringList& words);
    const QStringList& highlights() const;
    const QString& emptyText() const { return m_emptyText; }
    // Rows that came at the end while the view was scrolled up (a followed source grew): a button at the bottom
    // says so, and takes the view to them. 0 when the view is at the end, where it stays as rows come.
    int newRowsBelow() const { return m_newBelow; }
    // Whether rows that come while scrolled up are said (a followed source's), or only added in silence (the rest of
    // a room whose import goes on: its first screen was read, the other 72,000 rows are not news).
    void setSayingNewRows(bool on) { m_sayNewRows = on; }
    void scrollToEnd();
    // The rows on screen, first and last (-1 when none).
    int firstVisibleRow() const;
    int lastVisibleRow() const;

    QRect visualRect(const QModelIndex& index) const override;
    void scrollTo(const QModelIndex& index, ScrollHint hint = EnsureVisible) override;
    QModelIndex indexAt(const QPoint& point) const override;
    void keyboardSearch(const QString&) override { } // a search by typing would read every row of the room
    void doItemsLayout() override;
    void reset() override;

protected:
    QModelIndex moveCursor(CursorAction action, Qt::KeyboardModifiers modifiers) override;
    int horizontalOffset() const override { return 0; }
    int verticalOffset() const override { return 0; }
    bool isIndexHidden(const QModelIndex&) const override { return false; }
    void setSelection(const QRect& rect, QItemSelectionModel::SelectionFlags command) override;
    QRegion visualRegionForSelection(const QItemSelection& selection) const override;
    void updateGeometries() override;
    void dataChanged(const QModelIndex& from, const QModelIndex& to, const QList<int>& roles = {}) override;
    void rowsInserted(const QModelIndex& parent, int first, int last) override;
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void scrollContentsBy(int dx, int dy) override;
    void keyPressEvent(QKeyEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;

private:
    struct Item
    {
        int row;
        QRect rect;
    };
    const QVector<Item>& items() const; // the rows on screen, laid out when something changed
    int rowHeight(int row) const;
    // Puts `row` at the top, `offset` pixels of it above the viewport; an offset out of the row moves to the
    // rows around it, and the end of the room never scrolls above the bottom of the viewport.
    void setTop(int row, int offset);
    void onScrollBar(int value);
    void invalidate();
    void showNewBelow(); // the button's text and place, or hidden

    TimelineDelegate* m_delegate;
    QPushButton* m_newBelowButton;
    int m_newBelow = 0;
    int m_pillStrip = 0; // the strip below the rows the pill sits in while shown (it covered the text under it)
    bool m_sayNewRows = true;
    int m_topRow = 0;
    int m_topOffset = 0;
    int m_maxTop = 0; // the top row when the last row is at the bottom
    bool m_atEnd = false; // the last row is on screen at the bottom: stays so while rows grow or load
    mutable QVector<Item> m_items;
    mutable bool m_dirty = true;
    QString m_emptyText;
};
