#pragma once

#include "edit.h"

#include <QDialog>

class QPlainTextEdit;
class QPushButton;
class QTreeWidget;

// Show Original: the edits of one item, each with who made it and when, what the source gave and what the
// reviewer made of it side by side, and Revert This Edit.
class EditsDialog : public QDialog
{
    Q_OBJECT
public:
    EditsDialog(qint64 index, const Edits& edits, QWidget* parent);

    QTreeWidget* list() const { return m_list; }
    QPlainTextEdit* original() const { return m_original; }
    QPlainTextEdit* edited() const { return m_edited; }
    QPushButton* revertButton() const { return m_revert; }

    // For people: a link or unlink's calls (a snapshot, JSON), one line each.
    static QString describeCalls(const QString& snapshot);

signals:
    void revertRequested(qint64 editId);

private:
    void showEdit(int row);

    Edits m_edits;
    QTreeWidget* m_list;
    QPlainTextEdit* m_original;
    QPlainTextEdit* m_edited;
    QPushButton* m_revert;
};
