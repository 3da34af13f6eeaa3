#include "editor.h"

#include "annotationstore.h"
#include "bulkredactdialog.h"
#include "editcommand.h"
#include "eventlistmodel.h"
#include "redactionstore.h"
#include "reviewer.h"
#include "settings.h"
#include "storeclient.h"
#include "workspace.h"

#include <algorithm>
#include <QAction>
#include <QInputDialog>
#include <QMenu>
#include <QMessageBox>
#include <QShortcut>
#include <QUndoStack>
#include <QWidget>

namespace {
// Labels offered before a workspace has any of its own.
const QStringList suggestedLabels { QStringLiteral("pii"), QStringLiteral("bug"), QStringLiteral("escalate") };
} // namespace

Editor::Editor(StoreClient* client, EventListModel* events, QWidget* window)
    : QObject(window)
    , m_client(client)
    , m_events(events)
    , m_window(window)
    , m_stack(new QUndoStack(this))
{
    // The menu items say what they will undo: "Undo Add Note".
    m_undo = m_stack->createUndoAction(this, tr("&Undo"));
    m_undo->setShortcut(QKeySequence::Undo);
    m_redo = m_stack->createRedoAction(this, tr("&Redo"));
    m_redo->setShortcuts(QKeySequence::Redo);

    m_save = new QAction(QIcon::fromTheme(QStringLiteral("document-save")), tr("&Save Workspace"), this);
    m_save->setShortcut(QKeySequence::Save);
    m_save->setToolTip(tr("Keep every note, label, mark, review status, edit and redaction for good"));
    connect(m_save, &QAction::triggered, this, [this] { save(); });
    m_revert = new QAction(tr("Re&vert Unsaved Changes"), this);
    connect(m_revert, &QAction::triggered, this, [this] {
        if (QMessageBox::question(m_window, tr("Revert Unsaved Changes"),
                tr("Drop every change made since the workspace was last saved?"))
            == QMessageBox::Yes)
            revert();
    });

    auto current = [this] { return m_current ? m_current() : std::pair<qint64, qint64>(0, -1); };
    m_mark = new QAction(tr("&Mark or Unmark the Event"), this);
    m_mark->setShortcut(QKeySequence(Qt::Key_M));
    connect(m_mark, &QAction::triggered, this, [this, current] {
        const auto [room, index] = current();
        if (room == 0 || index < 0)
            return;
        const Annotations here = m_events->annotationsAt(index);
        const bool marked = std::any_of(
            here.cbegin(), here.cend(), [](const Annotation& a) { return a.kind == Annotation::Kind::Mark; });
        setMarked(room, index, !marked);
    });
    m_note = new QAction(tr("Add &Note…"), this);
    m_note->setShortcut(QKeySequence(Qt::Key_N));
    connect(m_note, &QAction::triggered, this, [this, current] {
        const auto [room, index] = current();
        if (room != 0)
            askNote(room, index >= 0 ? std::optional<qint64>(index) : std::nullopt);
    });
    m_label = new QAction(tr("Add &Label…"), this);
    m_label->setShortcut(QKeySequence(Qt::Key_L));
    connect(m_label, &QAction::triggered, this, [this, current] {
        const auto [room, index] = current();
        if (room != 0)
            askLabel(room, index >= 0 ? std::optional<qint64>(index) : std::nullopt);
    });
    m_roomNote = new QAction(tr("Add Note to the R&oom…"), this);
    connect(m_roomNote, &QAction::triggered, this, [this, current] {
        const auto [room, index] = current();
        if (room != 0)
            askNote(room, std::nullopt);
    });
    // As Wireshark goes to its next and previous marked packet.
    m_nextMark = new QAction(tr("Next Marked Event"), this);
    m_nextMark->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_N));
    connect(m_nextMark, &QAction::triggered, this, [this] { goToMark(true); });
    m_previousMark = new QAction(tr("Previous Marked Event"), this);
    m_previousMark->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_B));
    connect(m_previousMark, &QAction::triggered, this, [this] { goToMark(false); });
    m_authorAction = new QAction(tr("Set Your &Name…"), this);
    connect(m_authorAction, &QAction::triggered, this, [this] {
        bool ok = false;
        const QString name = QInputDialog::getText(m_window, tr("Your Name"),
            tr("Notes, labels, marks, reviews, edits and redactions are signed with:"), QLineEdit::Normal,
            Settings::author(), &ok);
        if (ok && !name.trimmed().isEmpty())
            setAuthor(name);
    });

    m_redact = new QAction(tr("&Redact Selection…"), this);
    m_redact->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    m_redact->setToolTip(tr("Replace the text selected in the details' Raw tab with a placeholder giving the reason"));
    m_redactEvent = new QAction(tr("Redact &Whole Event…"), this);
    m_redactEvent->setToolTip(tr("Every text of the selected event (a card: its call whole); its ids, type, role, status "
                                 "and time stay"));
    connect(m_redactEvent, &QAction::triggered, this, [this, current] {
        const auto [room, index] = current();
        if (room == 0 || index < 0)
            return;
        const int row = m_events->rowOfIndex(index);
        const EventRecord* e = row >= 0 ? m_events->loadedRecord(row) : nullptr;
        redact(room, index, QString(), 0, -1, e && !e->text.isEmpty() ? e->text : tr("(everything it says)"));
    });
    m_bulkRedact = new QAction(tr("Redact by &Pattern…"), this);
    m_bulkRedact->setToolTip(tr("E-mail addresses, phone numbers, payment cards, secrets or a regular expression, in "
                                "this room or every room, with a preview of every match"));
    connect(m_bulkRedact, &QAction::triggered, this, &Editor::showBulkRedact);

    connect(m_stack, &QUndoStack::cleanChanged, this, [this] { updateActions(); });
    connect(m_client, &StoreClient::edited, this, [this](quint64 request, const EditSteps&) {
        const auto done = m_after.take(request);
        if (done)
            done();
        emit changed(m_contentRequests.remove(request));
    });
    connect(m_client, &StoreClient::failed, this, [this](quint64 request, StoreClient::Kind kind, const QString& why) {
        if (kind != StoreClient::Kind::Edit)
            return;
        m_after.remove(request);
        // A change whose first write failed never happened: off the stack, or undo and redo replay nothing while
        // the window counts it as a change (obsolete: QUndoStack deletes it when it undoes it).
        for (int i = m_stack->count() - 1; i >= 0; --i) {
            auto* command = const_cast<EditCommand*>(dynamic_cast<const EditCommand*>(m_stack->command(i)));
            if (!command || command->firstRequest() != request)
                continue;
            command->setObsolete(true);
            if (i == m_stack->index() - 1)
                m_stack->undo();
            break;
        }
        emit message(tr("The change could not be written: %1").arg(why));
        emit changed(m_contentRequests.remove(request));
    });
    connect(m_client, &StoreClient::journalLoaded, this, [this](quint64, const JournalEntries&, int unsaved) {
        // Changes in the file that this session's undo stack does not hold: a session ended without saving.
        if (m_stack->count() == 0 && unsaved != m_leftover) {
            setLeftover(unsaved);
            if (unsaved > 0) {
                emit message((unsaved == 1 ? tr("1 change made before was never saved")
                                           : tr("%1 changes made before were never saved").arg(unsaved))
                    + tr(": File ▸ Save Workspace keeps them, File ▸ Revert Unsaved Changes drops them."));
            }
        }
    });
    updateActions();
}

QString Editor::author()
{
    QString name = Settings::author();
    if (!name.isEmpty())
        return name;
    bool ok = false;
    name = QInputDialog::getText(m_window, tr("Your Name"),
        tr("Notes, labels, marks, reviews, edits and redactions are signed with your name.\nIt is asked once; Edit ▸ "
           "Set Your Name changes it."),
        QLineEdit::Normal, m_nameHint.isEmpty() ? Reviewer::loginName() : m_nameHint, &ok)
               .trimmed();
    if (!ok || name.isEmpty())
        return {};
    setAuthor(name);
    return name;
}

void Editor::setAuthor(const QString& name)
{
    Settings::setAuthor(name);
}

int Editor::unsavedCount() const
{
    // The steps between the saved state and now, whichever way, and what a session before left.
    const int clean = m_stack->cleanIndex();
    return m_leftover + (clean < 0 ? m_stack->index() : std::abs(m_stack->index() - clean));
}

QStringList Editor::unsavedChanges(int most) const
{
    // The undo stack's own words for each step not saved ("Add Note to event 12"), the latest first; undone steps
    // past the saved state are changes too (the save undoes them).
    QStringList out;
    const int clean = m_stack->cleanIndex();
    const int now = m_stack->index();
    const int from = clean < 0 ? 0 : std::min(clean, now), to = clean < 0 ? now : std::max(clean, now);
    for (int i = to - 1; i >= from; --i) {
        if (out.size() == most) {
            out << tr("… and %1 more").arg(i - from + 1 + m_leftover);
            return out;
        }
        const QString text = m_stack->command(i)->text();
        out << (i >= now ? tr("• %1 (undone)").arg(text) : QStringLiteral("• ") + text);
    }
    if (m_leftover > 0)
        out << (m_leftover == 1 ? tr("• 1 change made before, never saved") : tr("• %1 changes made before, never saved").arg(m_leftover));
    return out;
}

bool Editor::isModified() const
{
    return !m_stack->isClean() || m_leftover > 0;
}

void Editor::setLeftover(int count)
{
    m_leftover = count;
    updateActions();
}

void Editor::updateActions()
{
    const bool modified = isModified();
    m_save->setEnabled(modified);
    m_revert->setEnabled(modified);
    if (modified != m_wasModified) {
        m_wasModified = modified;
        emit modifiedChanged(modified);
    }
}

quint64 Editor::after(quint64 request, std::function<void()> done)
{
    m_after.insert(request, std::move(done));
    return request;
}

void Editor::change(const QString& text, std::function<EditSteps(AnnotationStore&)> work, bool content)
{
    m_stack->push(new EditCommand(text, m_client, std::move(work), [this, content](quint64 request) {
        if (content)
            m_contentRequests.insert(request);
        updateActions();
    }));
}

void Editor::redact(qint64 roomId, qint64 index, const QString& path, qint64 start, qint64 length,
    const QString& text, const QString& reason)
{
    QString why = reason;
    if (why.isEmpty()) {
        bool ok = false;
        const QString shown = text.size() > 200 ? text.left(200) + QStringLiteral("…") : text;
        // Say what goes: a span, every text of a field, or every text of the event (its envelope's ids stay).
        const QString what = length >= 0 ? tr("Replace this text of event %1 with a placeholder that gives the reason:\n\n“%2”")
                                                .arg(index)
                                                .arg(shown)
            : path.isEmpty()
            ? tr("Replace every text of event %1 with a placeholder that gives the reason: what it says (“%2”), a "
                 "call's arguments and result, and every other text it holds. Its ids (who sent it, where), type, "
                 "role, status and time stay.")
                  .arg(index)
                  .arg(shown)
            : tr("Replace every text in %1 of event %2 with a placeholder that gives the reason.").arg(path, QString::number(index));
        why = QInputDialog::getItem(m_window, tr("Redact"),
            what
                + tr("\n\nOnce the workspace is saved, the text is gone from it for good (the journal keeps only a keyed "
                     "digest of it).\n\nReason:"),
            { tr("personal data"), tr("payment data"), tr("secret or credential"), tr("customer's request") }, 0, true,
            &ok)
                  .simplified();
        if (!ok || why.isEmpty())
            return;
    }
    const QString who = author();
    if (who.isEmpty())
        return;
    ++m_redactions;
    change(tr("Redact Event %1").arg(index),
        [=](AnnotationStore& store) {
            // "@message": an assembled message's text, redacted in each of its parts; no length: a whole field (or,
            // with no path, the whole event).
            if (length < 0)
                return store.redactAll(roomId, index, path, why, who);
            return path == QLatin1String("@message") ? store.redactMessage(roomId, index, start, length, why, who)
                                                     : store.redact(roomId, index, path, start, length, why, who);
        },
        true);
}

void Editor::setMarked(qint64 roomId, qint64 index, bool marked)
{
    const QString who = author();
    if (who.isEmpty())
        return;
    change(marked ? tr("Mark Event %1").arg(index) : tr("Unmark Event %1").arg(index),
        [=](AnnotationStore& store) { return store.setMarked(roomId, index, marked, who); });
}

void Editor::addNote(qint64 roomId, std::optional<qint64> index, const QString& text)
{
    const QString who = author();
    if (who.isEmpty() || text.trimmed().isEmpty())
        return;
    change(index ? tr("Add Note to Event %1").arg(*index) : tr("Add Note to the Room"),
        [=](AnnotationStore& store) { return store.addNote(roomId, index, text, who); });
}

void Editor::addLabel(qint64 roomId, std::optional<qint64> index, const QString& name)
{
    const QString who = author();
    const QString label = name.trimmed().toLower();
    if (who.isEmpty() || label.isEmpty())
        return;
    change(tr("Label %1 \"%2\"").arg(index ? tr("Event %1").arg(*index) : tr("the Room"), label),
        [=](AnnotationStore& store) { return store.addLabel(roomId, index, label, who); });
}

void Editor::remove(const Annotation& a)
{
    const QString who = author();
    if (who.isEmpty())
        return;
    const QString what = a.kind == Annotation::Kind::Note ? tr("Remove Note")
        : a.kind == Annotation::Kind::Label              ? tr("Remove Label \"%1\"").arg(a.value)
                                                         : tr("Unmark Event");
    const qint64 id = a.id;
    change(what, [=](AnnotationStore& store) { return store.remove(id, who); });
}

void Editor::setReview(qint64 roomId, const QString& status)
{
    const QString who = author();
    if (who.isEmpty())
        return;
    change(tr("Set Review to \"%1\"").arg(status),
        [=](AnnotationStore& store) { return store.setReview(roomId, status, who); });
}

void Editor::redactMatches(const RedactionMatches& matches, const QString& reason)
{
    const QString who = author();
    if (who.isEmpty() || matches.isEmpty() || reason.simplified().isEmpty())
        return;
    ++m_redactions;
    const QString why = reason.simplified();
    change(matches.size() == 1 ? tr("Redact 1 Match") : tr("Redact %1 Matches").arg(matches.size()),
        [=](AnnotationStore& store) { return store.redactMatches(matches, why, who); }, true);
}

void Editor::showBulkRedact()
{
    const qint64 room = m_events->roomId();
    BulkRedactDialog dialog(m_client, room, m_roomName ? m_roomName(room) : QString::number(room), m_window);
    if (dialog.exec() == QDialog::Accepted)
        redactMatches(dialog.matches(), dialog.reason());
}

void Editor::save(std::function<void()> then)
{
    const int at = m_stack->index();
    // A save with redactions writes the whole workspace anew (RedactionStore::forget): seconds on a big one.
    if (m_redactions > 0)
        emit message(tr("Saving: writing the workspace anew, so that no copy of the redacted text is left in it…"));
    after(m_client->edit([](AnnotationStore& store) {
        store.save();
        return EditSteps {};
    }),
        [this, at, then] {
            // Changes pushed while the save was on its way are not in it: the stack stays modified then.
            if (m_stack->index() == at)
                m_stack->setClean();
            setLeftover(0);
            if (m_redactions > 0) {
                // A saved redaction's text is gone: nothing could bring it back, so nothing offers to.
                m_redactions = 0;
                m_stack->clear();
                emit message(tr("Saved. The redacted text is gone from the workspace; the undo history was cleared."));
            } else {
                emit message(tr("Saved"));
            }
            if (then)
                then();
        });
}

void Editor::saveCopy(const QString& path, QFileDevice::Permissions mode)
{
    auto copy = [this, path, mode] {
        m_client->run(
            StoreClient::Kind::WorkspaceCopy, [path, mode](Workspace& ws, const CancelToken&) { ws.saveCopy(path, mode); },
            this,
            [this, path] { emit message(tr("Saved a copy of the workspace as %1").arg(path)); },
            [this](const QString& why) { emit message(tr("The copy was not saved: %1").arg(why)); });
    };
    if (isModified())
        save(copy);
    else
        copy();
}

void Editor::revert()
{
    m_stack->clear(); // its commands' rows are about to go
    m_redactions = 0;
    const quint64 request = m_client->edit([](AnnotationStore& store) {
        store.discard();
        return EditSteps {};
    });
    m_contentRequests.insert(request); // a redaction dropped gives the rows their text back
    after(request,
        [this] {
            setLeftover(0);
            emit message(tr("Unsaved changes dropped"));
        });
    updateActions();
}

void Editor::goToMark(bool forward)
{
    const qint64 from = m_current ? m_current().second : -1;
    std::optional<qint64> best;
    for (const Annotation& a : m_events->annotations()) {
        if (a.kind != Annotation::Kind::Mark || !a.index || a.detached)
            continue;
        const qint64 i = *a.index;
        if (forward ? i > from && (!best || i < *best) : (from < 0 || i < from) && (!best || i > *best))
            best = i;
    }
    if (best)
        emit goToIndex(*best);
    else
        emit message(forward ? tr("No marked event after this one") : tr("No marked event before this one"));
}

bool Editor::confirmLeave(const std::function<void()>& proceed)
{
    if (!isModified())
        return true;
    const auto answer = QMessageBox::warning(m_window, tr("Unsaved Changes"),
        tr("The workspace has %1 that %2 not saved:\n\n%3\n\nSave them? A redaction saved is final.")
            .arg(unsavedCount() == 1 ? tr("1 change") : tr("%1 changes").arg(unsavedCount()),
                unsavedCount() == 1 ? tr("is") : tr("are"), unsavedChanges().join(QLatin1Char('\n'))),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Save) {
        save(proceed);
        return false; // goes on once saved
    }
    if (answer == QMessageBox::Discard) {
        revert();
        return true; // the connection closes after the revert it was given
    }
    return false;
}

void Editor::askNote(qint64 roomId, std::optional<qint64> index)
{
    // Several lines: Enter breaks the line, Ctrl+Enter adds the note.
    QInputDialog dialog(m_window);
    dialog.setWindowTitle(tr("Add Note"));
    dialog.setOption(QInputDialog::UsePlainTextEditForTextInput);
    dialog.setLabelText((index ? tr("A note on event %1").arg(*index) : tr("A note on the room"))
        + tr(" (Enter starts a new line; Ctrl+Enter adds the note):"));
    dialog.setOkButtonText(tr("Add Note"));
    auto* accept = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return), &dialog);
    connect(accept, &QShortcut::activated, &dialog, &QDialog::accept);
    auto* acceptEnter = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Enter), &dialog);
    connect(acceptEnter, &QShortcut::activated, &dialog, &QDialog::accept);
    if (dialog.exec() == QDialog::Accepted)
        addNote(roomId, index, dialog.textValue());
}

void Editor::askLabel(qint64 roomId, std::optional<qint64> index)
{
    QStringList names = m_events->labelColors().keys();
    for (const QString& s : suggestedLabels) {
        if (!names.contains(s))
            names << s;
    }
    bool ok = false;
    const QString name = QInputDialog::getItem(m_window, tr("Add Label"),
        tr("A label (one word) for %1:").arg(index ? tr("event %1").arg(*index) : tr("the room")), names, 0, true, &ok);
    if (ok)
        addLabel(roomId, index, name);
}

void Editor::fillEditMenu(QMenu* menu)
{
    menu->addAction(m_undo);
    menu->addAction(m_redo);
    menu->addSeparator();
    menu->addAction(m_mark);
    menu->addAction(m_note);
    menu->addAction(m_label);
    menu->addAction(m_roomNote);
    menu->addAction(m_redact);
    menu->addAction(m_redactEvent);
    menu->addAction(m_bulkRedact);
    QMenu* review = menu->addMenu(tr("Room &Review Status"));
    connect(review, &QMenu::aboutToShow, this, [this, review] {
        review->clear();
        addReviewMenu(review, m_current ? m_current().first : 0);
    });
    menu->addSeparator();
    menu->addAction(m_nextMark);
    menu->addAction(m_previousMark);
    menu->addSeparator();
    menu->addAction(m_authorAction);
}

void Editor::addReviewMenu(QMenu* menu, qint64 roomId)
{
    // The room's status is the room list's; the menu shows it checked.
    QString now;
    if (roomId == m_events->roomId()) {
        for (const Annotation& a : m_events->annotations()) {
            if (a.kind == Annotation::Kind::Review && !a.index)
                now = a.value;
        }
    }
    for (const QString& status : ReviewStatus::all()) {
        QAction* a = menu->addAction(status, this, [this, roomId, status] { setReview(roomId, status); });
        a->setCheckable(true);
        a->setChecked(status == (now.isEmpty() ? ReviewStatus::Unreviewed : now));
        a->setEnabled(roomId != 0);
    }
}

void Editor::addEventItems(QMenu* menu, const QModelIndex& index)
{
    const qint64 roomId = m_events->roomId();
    const qint64 at = index.data(EventListModel::EventIndexRole).toLongLong();
    menu->addSeparator();
    const Annotations here = m_events->annotationsAt(at);
    const bool marked = std::any_of(
        here.cbegin(), here.cend(), [](const Annotation& a) { return a.kind == Annotation::Kind::Mark; });
    QAction* mark = menu->addAction(marked ? tr("Unmark") : tr("Mark"), this,
        [this, roomId, at, marked] { setMarked(roomId, at, !marked); });
    mark->setShortcut(m_mark->shortcut());
    menu->addAction(m_note->text(), this, [this, roomId, at] { askNote(roomId, at); })->setShortcut(m_note->shortcut());
    menu->addAction(m_label->text(), this, [this, roomId, at] { askLabel(roomId, at); })->setShortcut(m_label->shortcut());
    const QString text = index.data(EventListModel::RecordRole).value<EventRecord>().text;
    menu->addAction(m_redactEvent->text().remove(QLatin1Char('&')), this,
        [this, roomId, at, text] { redact(roomId, at, QString(), 0, -1, text.isEmpty() ? tr("(everything it says)") : text); });
    QMenu* removing = nullptr;
    for (const Annotation& a : here) {
        if (a.kind == Annotation::Kind::Mark)
            continue;
        if (!removing)
            removing = menu->addMenu(tr("Remove"));
        const QString what = a.kind == Annotation::Kind::Label
            ? tr("Label \"%1\"").arg(a.value)
            : tr("Note \"%1\"").arg(a.value.size() > 40 ? a.value.left(40) + QStringLiteral("…") : a.value);
        removing->addAction(what, this, [this, a] { remove(a); });
    }
}

void Editor::workspaceOpened()
{
    m_stack->clear();
    m_redactions = 0;
    setLeftover(0);
    m_client->loadJournal();
}
