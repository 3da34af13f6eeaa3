#pragma once

#include <QDialog>

class QMenuBar;

// Help ▸ Keyboard Shortcuts: every action of the menus with a shortcut, made from the actions themselves so the
// list is never out of date, and the keys the lists handle on their own.
class ShortcutsDialog : public QDialog
{
    Q_OBJECT
public:
    explicit ShortcutsDialog(const QMenuBar* menus, QWidget* parent = nullptr);
};
