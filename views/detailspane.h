#pragma once

#include "eventdetails.h"

#include <QWidget>

class JsonTreeModel;
class QLabel;
class QPlainTextEdit;
class QTabWidget;
class QToolButton;
class QTreeView;

// The selected event in full: what it is, the tool call it belongs to with links to its other rows, its
// payload as a lazy JSON tree (values copied, paths copied, long values shown whole or saved to a file), and
// the stored text as it is.
class DetailsPane : public QWidget
{
    Q_OBJECT
public:
    explicit DetailsPane(QWidget* parent = nullptr);

    void setDetails(const EventDetails& details);
    void clear();
    const EventDetails& details() const { return m_details; }

    QLabel* header() const { return m_header; }
    QTreeView* tree() const { return m_tree; }
    JsonTreeModel* model() const { return m_model; }
    QPlainTextEdit* raw() const { return m_raw; }
    QTabWidget* tabs() const { return m_tabs; }
    QToolButton* linkButton(const QString& which) const; // "start", "end", "result" or "parent"

    // What the tree's context menu does, for a tree index.
    QString valueText(const QModelIndex& index) const; // the value as JSON (a string as its text)
    QString pathText(const QModelIndex& index) const;
    bool saveValue(const QModelIndex& index, const QString& file, QString* error) const;

signals:
    void goToIndex(qint64 index); // "go to linked event"

private:
    void showMenu(const QPoint& at);
    void showAll(const QModelIndex& index);

    EventDetails m_details;
    QLabel* m_header;
    QToolButton* m_toStart;
    QToolButton* m_toEnd;
    QToolButton* m_toResult;
    QToolButton* m_toParent;
    QTabWidget* m_tabs;
    QTreeView* m_tree;
    JsonTreeModel* m_model;
    QPlainTextEdit* m_raw;
};
