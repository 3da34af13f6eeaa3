#pragma once

#include <QTableView>

// A room's raw rows, one uniform line each. A table rather than a tree: QTreeView keeps an item for every row
// of the model, QTableView only the header's uniform sections, so a million rows cost what a screen does.
class EventListView : public QTableView
{
    Q_OBJECT
public:
    explicit EventListView(QWidget* parent = nullptr);
    void keyboardSearch(const QString&) override { } // a search by typing would read every row of the room
};
