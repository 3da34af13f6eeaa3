#pragma once

#include <QDockWidget>

class JournalModel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;
class StoreClient;

// The edit journal as a dock: every change made to the workspace, filterable by any of its words, newest at
// the bottom; activating an entry goes to its room and event. Read again whenever a change is written.
class JournalDock : public QDockWidget
{
    Q_OBJECT
public:
    JournalDock(StoreClient* client, QWidget* parent = nullptr);

    void reload(); // asks the store for the journal
    JournalModel* model() const { return m_model; }
    QSortFilterProxyModel* proxy() const { return m_proxy; }
    QTableView* view() const { return m_view; }
    QLineEdit* filter() const { return m_filter; }

signals:
    void goTo(qint64 roomId, qint64 index); // index -1: the room itself

private:
    StoreClient* m_client;
    JournalModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_view;
    QLineEdit* m_filter;
};
