#pragma once

#include <QTreeView>

// A room's events, one uniform row each, so the view never measures rows it does not show.
class EventListView : public QTreeView
{
    Q_OBJECT
public:
    explicit EventListView(QWidget* parent = nullptr);
};
