#include "shortcutsdialog.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QMenu>
#include <QMenuBar>
#include <QTableWidget>
#include <QVBoxLayout>

ShortcutsDialog::ShortcutsDialog(const QMenuBar* menus, QWidget* parent)
    : QDialog(parent)
{
    setObjectName(QStringLiteral("shortcuts"));
    setWindowTitle(tr("Keyboard Shortcuts"));
    auto* table = new QTableWidget(this);
    table->setColumnCount(2);
    table->setHorizontalHeaderLabels({ tr("Keys"), tr("Action") });
    auto add = [table](const QString& keys, const QString& what) {
        const int row = table->rowCount();
        table->insertRow(row);
        table->setItem(row, 0, new QTableWidgetItem(keys));
        table->setItem(row, 1, new QTableWidgetItem(what));
    };
    for (QAction* menu : menus->actions()) {
        for (QAction* action : menu->menu()->actions()) {
            if (action->shortcuts().isEmpty())
                continue;
            QStringList keys;
            for (const QKeySequence& k : action->shortcuts())
                keys << k.toString(QKeySequence::NativeText);
            add(keys.join(tr(" or ")), QString(action->text()).remove(QLatin1Char('&')));
        }
    }
    // The keys of no menu: the event list's own, and the Compare window's.
    add(QKeySequence(QKeySequence::Copy).toString(QKeySequence::NativeText),
        tr("Copy the selected card's call as JSON, a message's text, another event as JSON"));
    add(tr("Up, Down, Page Up, Page Down, Home, End"), tr("Move in the room and event lists"));
    add(tr("n, p"), tr("In a Compare window: the next, the previous difference (Ctrl+L its filter, Ctrl+E Export…)"));
    table->verticalHeader()->hide();
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->horizontalHeader()->setStretchLastSection(true);
    table->resizeColumnsToContents();
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::close);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(table);
    layout->addWidget(buttons);
    resize(560, 420);
}
