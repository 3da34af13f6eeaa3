#pragma once

#include "annotation.h"
#include "editsteps.h"

#include <functional>
#include <optional>
#include <QHash>
#include <QFileDevice>
#include <QObject>
#include <QSet>

class AnnotationStore;
struct RedactionMatch;
class EventListModel;
class QAction;
class QMenu;
class QModelIndex;
class QUndoStack;
class QWidget;
class StoreClient;

// The editor: notes, labels, marks and review statuses, each an undoable change (QUndoStack) written to the
// workspace at once through the store's edit connection, kept until Save (or dropped by Revert), and signed
// with the reviewer's name (asked once, kept in the settings). MainWindow composes it: it gives the editor the
// room and event it acts on and puts its actions in the menus.
class Editor : public QObject
{
    Q_OBJECT
public:
    Editor(StoreClient* client, EventListModel* events, QWidget* window);

    // The room shown and the selected event's index (-1: none), asked when an action runs.
    using Current = std::function<std::pair<qint64, qint64>()>;
    void setCurrent(Current current) { m_current = std::move(current); }
    // A room's name for people, for dialogs.
    void setRoomNames(std::function<QString(qint64)> names) { m_roomName = std::move(names); }

    QUndoStack* undoStack() const { return m_stack; }
    // The name edits are signed with; asks for it once when it is not set (empty when the reviewer declines).
    QString author();
    void setAuthor(const QString& name); // kept in the settings
    // The name offered when it is asked for (a team store's login); the machine's login name without one.
    void setNameHint(const QString& name) { m_nameHint = name; }
    // Unsaved changes: this session's, or a session's that ended without saving.
    bool isModified() const;
    // What is not saved, a line a change in the Edit menu's words, the latest first (at most `most`, then how many
    // more): what the Unsaved Changes question lists.
    QStringList unsavedChanges(int most = 12) const;
    int unsavedCount() const; // how many changes Save would keep
    int leftoverChanges() const { return m_leftover; }

    // The changes, as the actions make them (the current room and event when not given).
    void setMarked(qint64 roomId, qint64 index, bool marked);
    void addNote(qint64 roomId, std::optional<qint64> index, const QString& text);
    void addLabel(qint64 roomId, std::optional<qint64> index, const QString& name);
    void remove(const Annotation& annotation);
    void setReview(qint64 roomId, const QString& status);
    // Redacts [start, start + length) of the string at `path` in the payload of the event at `index`, once the
    // reviewer gives a reason (the dialog shows `text`, what will go). `reason` given: no dialog. A length below 0:
    // every string under `path` (a whole field), or with no path the whole event (AnnotationStore::redactAll).
    void redact(qint64 roomId, qint64 index, const QString& path, qint64 start, qint64 length, const QString& text,
        const QString& reason = {});
    // Redacts every match bulk redaction found, as one change.
    void redactMatches(const QVector<RedactionMatch>& matches, const QString& reason);
    // Opens Redact by Pattern for the room shown (0: none, every room then).
    void showBulkRedact();
    // Writes every change for good, in one transaction; `then` runs once it is saved.
    void save(std::function<void()> then = {});
    void revert(); // drops every unsaved change, this session's and any left before
    // Saves (when there is anything unsaved), then writes a self-contained copy of the workspace to `path`
    // (Workspace::saveCopy) with `mode`; says so in the status bar, or why not.
    void saveCopy(const QString& path, QFileDevice::Permissions mode);
    // Selects the next (previous) marked event of the room.
    void goToMark(bool forward);
    // Whether the window may close (or open another workspace) now: when there are unsaved changes, asks to
    // save them, drop them or stay. `proceed` runs once saving is done, when the answer was to save.
    bool confirmLeave(const std::function<void()>& proceed);

    // The actions, for the menus and the tests.
    QAction* saveAction() const { return m_save; }
    QAction* undoAction() const { return m_undo; }
    QAction* redoAction() const { return m_redo; }
    QAction* markAction() const { return m_mark; }
    QAction* noteAction() const { return m_note; }
    QAction* labelAction() const { return m_label; }
    QAction* roomNoteAction() const { return m_roomNote; }
    QAction* revertAction() const { return m_revert; }
    QAction* nextMarkAction() const { return m_nextMark; }
    QAction* previousMarkAction() const { return m_previousMark; }
    QAction* authorAction() const { return m_authorAction; }
    QAction* redactAction() const { return m_redact; } // MainWindow gives it the details' selection
    QAction* bulkRedactAction() const { return m_bulkRedact; }
    QAction* redactEventAction() const { return m_redactEvent; }
    // The Edit menu's items, and the room's review status as a submenu of `menu`.
    void fillEditMenu(QMenu* menu);
    void addReviewMenu(QMenu* menu, qint64 roomId);
    // The items an event's context menu gains: mark, note, label, and removing its notes and labels.
    void addEventItems(QMenu* menu, const QModelIndex& index);

    // The workspace was opened: its journal says whether a session left unsaved changes.
    void workspaceOpened();

    // Pushes a change on the undo stack, signed and written by `work` on the store's edit connection. `content`:
    // it changes rows' text or the calls (what the timeline shows reads again).
    void change(const QString& text, std::function<EditSteps(AnnotationStore&)> work, bool content = false);

signals:
    // A change was written, undone, redone, saved or dropped: what shows annotations reads again, and the rows
    // themselves when `content` (a redaction changed their text).
    void changed(bool content);
    void modifiedChanged(bool modified);
    void goToIndex(qint64 index);
    void message(const QString& text); // for the status bar

private:
    quint64 after(quint64 request, std::function<void()> done);
    void askNote(qint64 roomId, std::optional<qint64> index);
    void askLabel(qint64 roomId, std::optional<qint64> index);
    void setLeftover(int count);
    void updateActions();

    StoreClient* m_client;
    EventListModel* m_events;
    QWidget* m_window;
    QUndoStack* m_stack;
    Current m_current;
    std::function<QString(qint64)> m_roomName;
    QHash<quint64, std::function<void()>> m_after; // what runs when an edit request is back
    QSet<quint64> m_contentRequests; // edit requests that change rows' text (redactions)
    int m_redactions = 0; // redactions on the undo stack: a save makes them final
    int m_leftover = 0; // unsaved changes a session before this one left
    bool m_wasModified = false;
    QString m_nameHint;
    QAction* m_save;
    QAction* m_undo;
    QAction* m_redo;
    QAction* m_mark;
    QAction* m_note;
    QAction* m_label;
    QAction* m_roomNote;
    QAction* m_revert;
    QAction* m_nextMark;
    QAction* m_previousMark;
    QAction* m_authorAction;
    QAction* m_redact;
    QAction* m_redactEvent;
    QAction* m_bulkRedact;
};
