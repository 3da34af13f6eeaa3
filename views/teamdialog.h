#pragma once

#include <QDialog>

class QLabel;
class QLineEdit;
class QPushButton;
class TeamLink;

// File ▸ Team…: the team store this workspace shares its review through, who the reviewer is there, where the
// sharing stands (last catch-up, what waits to go up, teammates' redactions not cut here yet), and the buttons to
// attach, sync now and detach. It follows the link as it changes.
class TeamDialog : public QDialog
{
    Q_OBJECT
public:
    TeamDialog(TeamLink* link, QWidget* parent = nullptr);

    QLineEdit* uriEdit() const { return m_uri; }
    QPushButton* attachButton() const { return m_attach; }
    QPushButton* syncButton() const { return m_sync; }
    QPushButton* detachButton() const { return m_detach; }
    QString statusText() const; // what the dialog says now, for the tests
    // The buttons that settle the conflicts shown, each "Keep <status> (<author>)", in order.
    QList<QPushButton*> settleButtons() const { return m_settleButtons; }

private:
    void update();
    void showConflicts();

    TeamLink* m_link;
    QLineEdit* m_uri;
    QLabel* m_state;
    QPushButton* m_attach;
    QPushButton* m_sync;
    QPushButton* m_detach;
    QWidget* m_conflicts; // a row a conflict: what each reviewer set, and a button to keep each
    QList<QPushButton*> m_settleButtons;
};
