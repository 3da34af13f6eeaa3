#pragma once

#include <QListView>

class TimelineDelegate;

// The timeline: one item per message, tool call or other event, painted by TimelineDelegate. Enter, Space
// or a double click opens and closes the current item.
class TimelineView : public QListView
{
    Q_OBJECT
public:
    explicit TimelineView(QWidget* parent = nullptr);
    void setModel(QAbstractItemModel* model) override;
    void toggleCurrent();

protected:
    void keyPressEvent(QKeyEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;

private:
    TimelineDelegate* m_delegate;
};
