#include "timelineview.h"

#include "eventlistmodel.h"
#include "timelinedelegate.h"

#include <QApplication>
#include <QKeyEvent>
#include <QLocale>
#include <QPainter>
#include <QPushButton>
#include <QScrollBar>

TimelineView::TimelineView(QWidget* parent)
    : QAbstractItemView(parent)
    , m_delegate(new TimelineDelegate(this))
    , m_newBelowButton(new QPushButton(this))
{
    m_newBelowButton->setCursor(Qt::PointingHandCursor);
    m_newBelowButton->setFocusPolicy(Qt::NoFocus); // a click leaves the keys (j, k, Enter) with the timeline
    m_newBelowButton->setToolTip(tr("Go to the newest events (End)"));
    m_newBelowButton->hide();
    connect(m_newBelowButton, &QPushButton::clicked, this, &TimelineView::scrollToEnd);
    setItemDelegate(m_delegate);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setSelectionMode(QAbstractItemView::SingleSelection);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    verticalScrollBar()->setSingleStep(1);
    connect(verticalScrollBar(), &QScrollBar::valueChanged, this, &TimelineView::onScrollBar);
}

void TimelineView::setModel(QAbstractItemModel* model)
{
    QAbstractItemView::setModel(model);
    m_topRow = m_topOffset = 0;
    connect(model, &QAbstractItemModel::rowsRemoved, this, [this] {
        invalidate();
        updateGeometries();
        setTop(m_topRow, m_topOffset);
    });
    // Rows that changed (read again, edited, redacted) are formatted again: nothing kept shows old text.
    connect(model, &QAbstractItemModel::dataChanged, m_delegate, &TimelineDelegate::forgetOpenLines);
    connect(model, &QAbstractItemModel::modelReset, m_delegate, &TimelineDelegate::forgetOpenLines);
    invalidate();
}

void TimelineView::invalidate()
{
    m_dirty = true;
    viewport()->update();
}

int TimelineView::rowHeight(int row) const
{
    QStyleOptionViewItem option;
    initViewItemOption(&option);
    option.rect = QRect(0, 0, viewport()->width(), 0);
    return std::max(1, m_delegate->sizeHint(option, model()->index(row, 0)).height());
}

const QVector<TimelineView::Item>& TimelineView::items() const
{
    if (!m_dirty)
        return m_items;
    m_dirty = false;
    m_items.clear();
    const int rows = model() ? model()->rowCount() : 0;
    const int width = viewport()->width();
    const int height = viewport()->height();
    int y = -m_topOffset;
    for (int row = m_topRow; row < rows && y < height; ++row) {
        const int h = rowHeight(row);
        m_items.append({ row, QRect(0, y, width, h) });
        y += h;
    }
    // What is just past the screen either way, so that scrolling finds it in memory.
    if (auto* events = qobject_cast<EventListModel*>(model()); events && !m_items.isEmpty())
        events->fetchRows(m_items.constFirst().row - 64, m_items.constLast().row + 64);
    return m_items;
}

int TimelineView::firstVisibleRow() const
{
    return items().isEmpty() ? -1 : items().constFirst().row;
}

int TimelineView::lastVisibleRow() const
{
    return items().isEmpty() ? -1 : items().constLast().row;
}

void TimelineView::setTop(int row, int offset)
{
    const int rows = model() ? model()->rowCount() : 0;
    if (rows == 0) {
        m_topRow = m_topOffset = 0;
        m_atEnd = false;
        invalidate();
        return;
    }
    row = std::clamp(row, 0, rows - 1);
    while (offset < 0 && row > 0)
        offset += rowHeight(--row);
    offset = std::max(0, offset);
    for (int h = rowHeight(row); offset >= h && row < rows - 1; h = rowHeight(row)) {
        offset -= h;
        ++row;
    }
    // Never past the end: when the rows from here do not fill the screen, the last one goes to the bottom.
    const int height = viewport()->height();
    int bottom = -offset;
    int last = row;
    for (; last < rows && bottom < height; ++last)
        bottom += rowHeight(last);
    m_atEnd = last == rows && bottom <= height;
    if (m_atEnd && m_newBelow > 0) {
        m_newBelow = 0;
        showNewBelow();
    }
    if (m_atEnd) {
        int above = height;
        row = rows;
        while (row > 0 && above > 0)
            above -= rowHeight(--row);
        offset = std::max(0, -above);
    }
    m_topRow = row;
    m_topOffset = offset;
    const QSignalBlocker blocker(verticalScrollBar());
    verticalScrollBar()->setValue(row);
    invalidate();
}

void TimelineView::onScrollBar(int value)
{
    if (value != m_topRow)
        setTop(value, 0);
}

void TimelineView::scrollContentsBy(int, int)
{
    // The scroll bar's value is a row: onScrollBar lays out from it instead of moving pixels.
}

void TimelineView::updateGeometries()
{
    const int rows = model() ? model()->rowCount() : 0;
    // The last top row: walk back from the end until a screen is filled.
    const int height = viewport()->height();
    int row = rows;
    int filled = 0;
    while (row > 0 && filled < height)
        filled += rowHeight(--row);
    m_maxTop = filled < height ? 0 : row;
    verticalScrollBar()->setRange(0, m_maxTop);
    verticalScrollBar()->setPageStep(std::max(1, int(items().size()) - 1));
    QAbstractItemView::updateGeometries();
}

void TimelineView::doItemsLayout()
{
    invalidate();
    QAbstractItemView::doItemsLayout();
}

void TimelineView::reset()
{
    QAbstractItemView::reset();
    m_topRow = m_topOffset = 0;
    m_atEnd = false;
    m_newBelow = 0;
    showNewBelow();
    invalidate();
    updateGeometries();
}

void TimelineView::dataChanged(const QModelIndex& from, const QModelIndex& to, const QList<int>& roles)
{
    QAbstractItemView::dataChanged(from, to, roles);
    invalidate();
    // Rows loaded or opened near the end change where the end is.
    if (to.row() >= m_maxTop)
        updateGeometries();
    if (m_atEnd)
        setTop(model()->rowCount() - 1, 0);
    else if (from.row() <= m_topRow && to.row() >= m_topRow)
        setTop(m_topRow, m_topOffset);
}

void TimelineView::rowsInserted(const QModelIndex& parent, int first, int last)
{
    QAbstractItemView::rowsInserted(parent, first, last);
    invalidate();
    updateGeometries();
    // Rows after the ones there were: followed when the view is at the end (as tail -f does); while the reader is
    // further up, not scrolled to (the place read stays), but said.
    // Nor the rest of a room's rows placed once its row index comes (a room opened, a workspace opened as it is).
    const auto* events = qobject_cast<EventListModel*>(model());
    if (first > 0 && m_atEnd)
        setTop(model()->rowCount(), 0);
    else if (first > 0 && m_sayNewRows && !(events && events->isPlacingTheRoom())) {
        m_newBelow += last - first + 1;
        showNewBelow();
    }
}

void TimelineView::scrollToEnd()
{
    if (model() && model()->rowCount() > 0)
        setTop(model()->rowCount(), 0); // past the end: the last row goes to the bottom
}

void TimelineView::showNewBelow()
{
    // The pill sits in a strip of its own under the rows, not over the last of them.
    const auto strip = [this](int height) {
        if (height == m_pillStrip)
            return;
        m_pillStrip = height;
        setViewportMargins(0, 0, 0, height);
        invalidate();
        updateGeometries();
        setTop(m_topRow, m_topOffset);
    };
    if (m_newBelow == 0) {
        m_newBelowButton->hide();
        strip(0);
        return;
    }
    m_newBelowButton->setText(tr("\u25BC New events below (%1)").arg(QLocale().toString(m_newBelow)));
    m_newBelowButton->adjustSize();
    strip(m_newBelowButton->height() + 8);
    const QRect area = viewport()->geometry();
    m_newBelowButton->move(area.center().x() - m_newBelowButton->width() / 2, area.bottom() + 5);
    m_newBelowButton->show();
    m_newBelowButton->raise();
}

void TimelineView::resizeEvent(QResizeEvent* event)
{
    QAbstractItemView::resizeEvent(event);
    invalidate();
    updateGeometries();
    setTop(m_topRow, m_topOffset);
    showNewBelow();
}

void TimelineView::wheelEvent(QWheelEvent* event)
{
    int dy = event->pixelDelta().y();
    if (dy == 0)
        dy = event->angleDelta().y() * QApplication::wheelScrollLines() * fontMetrics().lineSpacing() / 120;
    if (dy == 0) {
        event->ignore();
        return;
    }
    setTop(m_topRow, m_topOffset - dy);
    event->accept();
}

QRect TimelineView::visualRect(const QModelIndex& index) const
{
    if (!index.isValid())
        return {};
    const QVector<Item>& shown = items();
    if (shown.isEmpty() || index.row() < shown.constFirst().row || index.row() > shown.constLast().row)
        return {};
    return shown.at(index.row() - shown.constFirst().row).rect;
}

QModelIndex TimelineView::indexAt(const QPoint& point) const
{
    for (const Item& item : items()) {
        if (item.rect.contains(point))
            return model()->index(item.row, 0);
    }
    return {};
}

void TimelineView::scrollTo(const QModelIndex& index, ScrollHint hint)
{
    if (!index.isValid())
        return;
    const int row = index.row();
    const int height = viewport()->height();
    const int h = rowHeight(row);
    switch (hint) {
    case PositionAtTop:
        setTop(row, 0);
        break;
    case PositionAtBottom:
        setTop(row, h - height);
        break;
    case PositionAtCenter:
        setTop(row, std::min(0, h - height) / 2);
        break;
    case EnsureVisible: {
        const QRect r = visualRect(index);
        if (r.isValid() && r.top() >= 0 && r.bottom() < height)
            return;
        if (row <= m_topRow || h >= height)
            setTop(row, 0);
        else
            setTop(row, h - height); // below: it becomes the last row on screen
        break;
    }
    }
}

QModelIndex TimelineView::moveCursor(CursorAction action, Qt::KeyboardModifiers)
{
    const int rows = model() ? model()->rowCount() : 0;
    if (rows == 0)
        return {};
    const QModelIndex current = currentIndex();
    int row = current.isValid() ? current.row() : -1;
    const int page = std::max(1, int(items().size()) - 1);
    switch (action) {
    case MoveUp:
    case MovePrevious:
        row = current.isValid() ? row - 1 : 0;
        break;
    case MoveDown:
    case MoveNext:
        ++row;
        break;
    case MovePageUp:
        row -= page;
        break;
    case MovePageDown:
        row += page;
        break;
    case MoveHome:
        row = 0;
        break;
    case MoveEnd:
        row = rows - 1;
        break;
    default:
        return current;
    }
    return model()->index(std::clamp(row, 0, rows - 1), 0);
}

void TimelineView::setSelection(const QRect& rect, QItemSelectionModel::SelectionFlags command)
{
    int first = -1;
    int last = -1;
    for (const Item& item : items()) {
        if (item.rect.intersects(rect.normalized())) {
            if (first < 0)
                first = item.row;
            last = item.row;
        }
    }
    if (first < 0) {
        selectionModel()->clearSelection();
        return;
    }
    selectionModel()->select(QItemSelection(model()->index(first, 0), model()->index(last, 0)), command);
}

QRegion TimelineView::visualRegionForSelection(const QItemSelection& selection) const
{
    QRegion region;
    for (const Item& item : items()) {
        if (selection.contains(model()->index(item.row, 0)))
            region += item.rect;
    }
    return region;
}

void TimelineView::setHighlights(const QStringList& words)
{
    m_delegate->setHighlights(words);
    viewport()->update();
}

const QStringList& TimelineView::highlights() const
{
    return m_delegate->highlights();
}

void TimelineView::setEmptyText(const QString& text)
{
    if (text == m_emptyText)
        return;
    m_emptyText = text;
    viewport()->update();
}

void TimelineView::paintEvent(QPaintEvent*)
{
    QPainter painter(viewport());
    if (model() && model()->rowCount() == 0 && !m_emptyText.isEmpty()) {
        painter.setPen(palette().color(QPalette::Disabled, QPalette::Text));
        painter.drawText(
            viewport()->rect().adjusted(24, 24, -24, -24), Qt::AlignCenter | Qt::TextWordWrap, m_emptyText);
        return;
    }
    QStyleOptionViewItem option;
    initViewItemOption(&option);
    const QModelIndex current = currentIndex();
    for (const Item& item : items()) {
        const QModelIndex index = model()->index(item.row, 0);
        option.rect = item.rect;
        option.state = QStyle::State_Enabled;
        if (selectionModel() && selectionModel()->isSelected(index))
            option.state |= QStyle::State_Selected;
        if (index == current && hasFocus())
            option.state |= QStyle::State_HasFocus;
        m_delegate->paint(&painter, option, index);
    }
}

void TimelineView::toggleCurrent()
{
    const QModelIndex current = currentIndex();
    if (current.isValid())
        model()->setData(current, !current.data(EventListModel::ExpandedRole).toBool(), EventListModel::ExpandedRole);
}

void TimelineView::keyPressEvent(QKeyEvent* event)
{
    if (event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter || event->key() == Qt::Key_Space) {
        toggleCurrent();
        event->accept();
        return;
    }
    QAbstractItemView::keyPressEvent(event);
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent* event)
{
    QAbstractItemView::mouseDoubleClickEvent(event);
    toggleCurrent();
}
