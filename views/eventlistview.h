#pragma once

#include <QByteArray>
#include <QPointer>
#include <QTableView>

class QItemSelectionModel;

// A room's raw rows, one uniform line each.
//
// QTableView's vertical header keeps an item for every row of its model (Qt 6 keeps one per section, not spans),
// and lays them all out again when rows come in: 6.4 million timeline items cost 50 MB and a 0.9 s frame while the
// timeline was shown and this view was not. So the view holds the room's model only while it is the one shown
// (`attach`, `detach`), and keeps its column widths across.
class EventListView : public QTableView
{
    Q_OBJECT
public:
    explicit EventListView(QWidget* parent = nullptr);
    void keyboardSearch(const QString&) override { } // a search by typing would read every row of the room
    void setSelectionModel(QItemSelectionModel* selectionModel) override;

    void attach(QAbstractItemModel* model);
    void detach();
    bool isAttached() const { return model() == m_attached && m_attached; }

signals:
    // The current row of whichever selection model the view has: it gets a new one at each attach.
    void currentRowChanged(const QModelIndex& current, const QModelIndex& previous);

protected:
    void resizeEvent(QResizeEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    void replaceModel(QAbstractItemModel* model);
    // The last column (the rows' text) keeps two fifths of the width at least: in a narrow view the others give up
    // width in proportion (the index, time, type and channel at their first widths pushed the text off-screen).
    void fitLastColumn();

    QPointer<QAbstractItemModel> m_attached;
    QByteArray m_columns; // the header's widths, kept while detached
};
