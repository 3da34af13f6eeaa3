#pragma once

#include <QDialog>

class QDialogButtonBox;
class QLabel;
class QPlainTextEdit;

// Edits one value of an event: a message's text, or a call's arguments or result as JSON. JSON is checked as it
// is typed: while it does not parse, the dialog says where (line and column), marks the place, and will not
// take it. The value as the source gave it is shown beside it when it was edited before.
class EditValueDialog : public QDialog
{
    Q_OBJECT
public:
    EditValueDialog(const QString& title, const QString& label, const QString& value, bool json, QWidget* parent);

    QString value() const;
    QPlainTextEdit* editor() const { return m_edit; }
    QLabel* status() const { return m_status; } // what is wrong with the JSON, or that it is fine
    bool isAcceptable() const; // OK is enabled

private:
    void check();

    QPlainTextEdit* m_edit;
    QLabel* m_status;
    QDialogButtonBox* m_buttons;
    bool m_json;
    QString m_initial;
};
