#pragma once

#include "edit.h"
#include "eventrecord.h"
#include "toolcallrecord.h"

#include <functional>
#include <optional>
#include <QObject>

class Editor;
class EventListModel;
class QAction;
class QMenu;
class QModelIndex;
class QWidget;
class StoreClient;
class Workspace;

// Editing what a source said (EditStore): a message's text, a call's arguments and result in a JSON editor, its
// outcome; unlinking an end from its start and linking a lone end to an open start; Show Original with Revert
// This Edit. Each change goes on the editor's undo stack (Editor::change) and is saved with the rest. The item
// is read from the store when an action runs, so the dialogs start from what the workspace holds now.
class ContentEditor : public QObject
{
    Q_OBJECT
public:
    ContentEditor(Editor* editor, StoreClient* client, EventListModel* events, QWidget* window);

    // The row an action runs on (the list's current index).
    void setCurrent(std::function<QModelIndex()> current) { m_current = std::move(current); }

    QAction* editAction() const { return m_edit; } // F2: the text, or a call's arguments
    QAction* editResultAction() const { return m_editResult; }
    QAction* unlinkAction() const { return m_unlink; }
    QAction* linkAction() const { return m_link; }
    QAction* showEditsAction() const { return m_showEdits; }
    QMenu* outcomeMenu() const { return m_outcome; }

    void fillEditMenu(QMenu* menu);
    void addEventItems(QMenu* menu, const QModelIndex& index);
    // Says which actions the current row takes (a message's text, a call's fields, its pair).
    void updateActions();

    // The changes themselves, for the actions and the tests.
    void editText(qint64 roomId, qint64 index, const QString& text);
    void editCall(qint64 roomId, qint64 index, Edit::Field field, const QString& json);
    void setOutcome(qint64 roomId, qint64 index, Outcome outcome);
    void unlink(qint64 roomId, qint64 index);
    void link(qint64 roomId, qint64 start, qint64 end);
    void revertEdit(qint64 editId, const QString& what);

    // Opens the dialogs for the row at `index` of the room shown, once the store has read it.
    void askEdit(qint64 index, Edit::Field field);
    void askLink(qint64 index);
    void showEdits(qint64 index);

signals:
    void message(const QString& text); // for the status bar

private:
    // Runs `work` on the store's browse connection, then `done` on the GUI thread (nothing when it failed: the
    // status bar says why).
    void read(std::function<void(Workspace&)> work, std::function<void()> done);
    struct Row
    {
        qint64 index = -1;
        bool call = false;
        bool paired = false; // a call with both a start and an end
        bool lone = false; // a start nothing closed or an end nothing opened
        bool hasStart = false; // its arguments are the start's
        bool hasEnd = false; // its result is the end's
        bool edited = false;
        Outcome outcome = Outcome::None;
    };
    Row rowAt(const QModelIndex& index) const;

    Editor* m_editor;
    StoreClient* m_client;
    EventListModel* m_events;
    QWidget* m_window;
    std::function<QModelIndex()> m_current;
    QAction* m_edit;
    QAction* m_editResult;
    QAction* m_unlink;
    QAction* m_link;
    QAction* m_showEdits;
    QMenu* m_outcome;
};
