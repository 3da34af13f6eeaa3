#include "contenteditor.h"

#include "annotationstore.h"
#include "editor.h"
#include "editsdialog.h"
#include "editstore.h"
#include "editvaluedialog.h"
#include "eventflags.h"
#include "eventkind.h"
#include "eventlistmodel.h"
#include "jsontext.h"
#include "outcome.h"
#include "presentation.h"
#include "storeclient.h"
#include "timeutil.h"
#include "workspace.h"

#include <memory>
#include <QAction>
#include <QDateTime>
#include <QInputDialog>
#include <QMenu>
#include <QWidget>

ContentEditor::ContentEditor(Editor* editor, StoreClient* client, EventListModel* events, QWidget* window)
    : QObject(window)
    , m_editor(editor)
    , m_client(client)
    , m_events(events)
    , m_window(window)
{
    auto currentIndex = [this] { return m_current ? rowAt(m_current()).index : -1; };
    m_edit = new QAction(tr("&Edit Text…"), this);
    m_edit->setShortcut(QKeySequence(Qt::Key_F2));
    m_edit->setToolTip(tr("Change what the message says, or a call's arguments (the source is never written)"));
    connect(m_edit, &QAction::triggered, this, [this] {
        const Row row = m_current ? rowAt(m_current()) : Row();
        if (row.index >= 0)
            askEdit(row.index, row.call ? Edit::Field::Arguments : Edit::Field::Text);
    });
    m_editResult = new QAction(tr("Edit &Result…"), this);
    m_editResult->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F2));
    connect(m_editResult, &QAction::triggered, this, [this, currentIndex] {
        if (currentIndex() >= 0)
            askEdit(currentIndex(), Edit::Field::Result);
    });
    m_unlink = new QAction(tr("&Unlink End from Start"), this);
    m_unlink->setToolTip(tr("This end does not belong to this start: show each on its own"));
    connect(m_unlink, &QAction::triggered, this, [this, currentIndex] {
        if (currentIndex() >= 0)
            unlink(m_events->roomId(), currentIndex());
    });
    m_link = new QAction(tr("&Link Call…"), this);
    m_link->setToolTip(tr("Pair a call's end that nothing opened with a start that nothing closed"));
    connect(m_link, &QAction::triggered, this, [this, currentIndex] {
        if (currentIndex() >= 0)
            askLink(currentIndex());
    });
    m_showEdits = new QAction(tr("Show &Original and Edits…"), this);
    m_showEdits->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    connect(m_showEdits, &QAction::triggered, this, [this, currentIndex] {
        if (currentIndex() >= 0)
            showEdits(currentIndex());
    });
    m_outcome = new QMenu(tr("Set &Outcome"), window);
    for (const Outcome o : Outcomes::all()) {
        QAction* a = m_outcome->addAction(Presentation::outcomeLabel(o), this, [this, o, currentIndex] {
            if (currentIndex() >= 0)
                setOutcome(m_events->roomId(), currentIndex(), o);
        });
        a->setCheckable(true);
        a->setData(Outcomes::name(o));
    }
    connect(m_outcome, &QMenu::aboutToShow, this, &ContentEditor::updateActions);
    updateActions();
}

ContentEditor::Row ContentEditor::rowAt(const QModelIndex& index) const
{
    Row row;
    if (!index.isValid() || !index.data(EventListModel::LoadedRole).toBool())
        return row;
    row.index = index.data(EventListModel::EventIndexRole).toLongLong();
    row.call = index.data(EventListModel::KindRole).toString() == EventKinds::name(EventKind::ToolCall);
    row.edited = index.data(EventListModel::RecordRole).value<EventRecord>().flags & EventFlags::Revised;
    const QVariant call = index.data(EventListModel::CallRole);
    if (call.isValid()) {
        const ToolCallRecord c = call.value<ToolCallRecord>();
        row.hasStart = c.startIndex.has_value();
        row.hasEnd = c.endIndex || c.resultIndex;
        row.paired = row.hasStart && row.hasEnd;
        row.lone = !row.paired;
        row.outcome = c.outcome;
    } else if (row.call) {
        // A raw row: how it was paired is the store's to say when the action runs.
        row.paired = row.lone = row.hasStart = row.hasEnd = true;
    }
    return row;
}

void ContentEditor::updateActions()
{
    const Row row = m_current ? rowAt(m_current()) : Row();
    const bool any = row.index >= 0;
    m_edit->setEnabled(any && (!row.call || row.hasStart));
    m_edit->setText(row.call ? tr("&Edit Arguments…") : tr("&Edit Text…"));
    m_editResult->setEnabled(any && row.call && row.hasEnd);
    m_unlink->setEnabled(any && row.paired);
    m_link->setEnabled(any && row.lone);
    m_showEdits->setEnabled(any && row.edited);
    m_outcome->setEnabled(any && row.call);
    for (QAction* a : m_outcome->actions())
        a->setChecked(Outcomes::fromName(a->data().toString()) == row.outcome);
}

void ContentEditor::fillEditMenu(QMenu* menu)
{
    // After what the editor adds to an item (marks, notes, redactions), before the reviewer's name.
    const QList<QAction*> there = menu->actions();
    const qsizetype name = there.indexOf(m_editor->authorAction());
    QAction* before = name > 0 ? there.at(name - 1) : nullptr;
    menu->insertSeparator(before);
    menu->insertActions(before, { m_edit, m_editResult, m_outcome->menuAction(), m_unlink, m_link, m_showEdits });
    connect(menu, &QMenu::aboutToShow, this, &ContentEditor::updateActions);
}

void ContentEditor::addEventItems(QMenu* menu, const QModelIndex& index)
{
    const Row row = rowAt(index);
    if (row.index < 0)
        return;
    const qint64 at = row.index;
    menu->addSeparator();
    if (!row.call || row.hasStart) {
        menu->addAction(row.call ? tr("Edit Arguments…") : tr("Edit Text…"), this,
                [this, at, row] { askEdit(at, row.call ? Edit::Field::Arguments : Edit::Field::Text); })
            ->setShortcut(m_edit->shortcut());
    }
    if (row.call) {
        if (row.hasEnd) {
            menu->addAction(m_editResult->text(), this, [this, at] { askEdit(at, Edit::Field::Result); })
                ->setShortcut(m_editResult->shortcut());
        }
        QMenu* outcome = menu->addMenu(m_outcome->title());
        for (const Outcome o : Outcomes::all()) {
            QAction* a = outcome->addAction(
                Presentation::outcomeLabel(o), this, [this, at, o] { setOutcome(m_events->roomId(), at, o); });
            a->setCheckable(true);
            a->setChecked(o == row.outcome);
        }
        if (row.paired)
            menu->addAction(m_unlink->text(), this, [this, at] { unlink(m_events->roomId(), at); });
        if (row.lone)
            menu->addAction(m_link->text(), this, [this, at] { askLink(at); });
    }
    if (row.edited)
        menu->addAction(m_showEdits->text(), this, [this, at] { showEdits(at); })->setShortcut(m_showEdits->shortcut());
}

void ContentEditor::read(std::function<void(Workspace&)> work, std::function<void()> done)
{
    m_client->run(
        StoreClient::Kind::EditorRead, [work = std::move(work)](Workspace& ws, const CancelToken&) { work(ws); }, this,
        std::move(done), [this](const QString& why) { emit message(why); });
}

void ContentEditor::askEdit(qint64 index, Edit::Field field)
{
    const qint64 room = m_events->roomId();
    struct Found
    {
        std::optional<EventRecord> record;
        std::optional<ToolCallRecord> call;
    };
    auto found = std::make_shared<Found>();
    read([room, index, found](Workspace& ws) {
        found->record = ws.event(room, index);
        found->call = ws.toolCallAt(room, index);
    },
        [this, room, index, field, found] {
            if (!found->record)
                return;
            if (field == Edit::Field::Text) {
                if (found->record->kind == EventKind::ToolCall) {
                    emit message(tr("Event %1 is a tool call: edit its arguments or its result").arg(index));
                    return;
                }
                EditValueDialog dialog(tr("Edit Text of Event %1").arg(index),
                    tr("What event %1 says. The source keeps what it said: Show Original shows it, and Revert brings it back.")
                        .arg(index),
                    found->record->text, false, m_window);
                if (dialog.exec() == QDialog::Accepted)
                    editText(room, index, dialog.value());
                return;
            }
            if (!found->call) {
                emit message(tr("Event %1 is no tool call").arg(index));
                return;
            }
            const bool arguments = field == Edit::Field::Arguments;
            const ToolCallRecord& c = *found->call;
            EditValueDialog dialog(arguments ? tr("Edit Arguments of %1").arg(c.toolName) : tr("Edit Result of %1").arg(c.toolName),
                arguments ? tr("The arguments of the call at event %1, as JSON.").arg(index)
                          : tr("The result of the call at event %1, as JSON (a text in quotes).").arg(index),
                JsonText::editable(arguments ? c.arguments : c.result, !arguments || c.arguments.isEmpty()), true,
                m_window);
            if (dialog.exec() == QDialog::Accepted)
                editCall(room, index, field, dialog.value());
        });
}

void ContentEditor::askLink(qint64 index)
{
    const qint64 room = m_events->roomId();
    auto candidates = std::make_shared<ToolCallRecords>();
    read([room, index, candidates](Workspace& ws) { *candidates = EditStore(ws).linkCandidates(room, index); },
        [this, room, index, candidates] {
            if (candidates->isEmpty()) {
                emit message(tr("Nothing to link event %1 with: a lone end links to an earlier start of its tool that "
                                "nothing closed, and such a start to a later lone end")
                                 .arg(index));
                return;
            }
            const bool toStart = candidates->first().startIndex.has_value();
            QStringList items;
            for (const ToolCallRecord& c : std::as_const(*candidates)) {
                const qint64 at = toStart ? *c.startIndex : *c.endIndex;
                const std::optional<qint64> us = toStart ? c.startMicros : c.endMicros;
                // What it asked or answered: what tells one call of a tool from another.
                QString said = (toStart ? c.arguments : c.result).simplified();
                if (said.size() > 90)
                    said = said.left(89) + QChar(0x2026);
                items << tr("event %1 · %2%3 · %4")
                             .arg(at)
                             .arg(c.toolName, us ? QStringLiteral(" · ") + TimeUtil::formatUserTime(*us) : QString(), said);
            }
            bool ok = false;
            const QString chosen = QInputDialog::getItem(m_window, tr("Link Call"),
                toStart ? tr("Which call's start does event %1 end? The nearest first:").arg(index)
                        : tr("Which end closes the call started at event %1? The nearest first:").arg(index),
                items, 0, false, &ok);
            if (!ok)
                return;
            const ToolCallRecord& c = candidates->at(items.indexOf(chosen));
            if (toStart)
                link(room, *c.startIndex, index);
            else
                link(room, index, *c.endIndex);
        });
}

void ContentEditor::showEdits(qint64 index)
{
    const qint64 room = m_events->roomId();
    auto edits = std::make_shared<Edits>();
    read([room, index, edits](Workspace& ws) { *edits = EditStore(ws).edits(room, index); },
        [this, index, edits] {
            if (edits->isEmpty()) {
                emit message(tr("Event %1 shows what the source gave: nobody edited it").arg(index));
                return;
            }
            EditsDialog dialog(index, *edits, m_window);
            connect(&dialog, &EditsDialog::revertRequested, this, [this, index](qint64 id) {
                revertEdit(id, tr("Revert Edit of Event %1").arg(index));
            });
            dialog.exec();
        });
}

void ContentEditor::editText(qint64 roomId, qint64 index, const QString& text)
{
    const QString who = m_editor->author();
    if (who.isEmpty())
        return;
    m_editor->change(tr("Edit Text of Event %1").arg(index),
        [=](AnnotationStore& store) { return store.editText(roomId, index, text, who); }, true);
}

void ContentEditor::editCall(qint64 roomId, qint64 index, Edit::Field field, const QString& json)
{
    const QString who = m_editor->author();
    if (who.isEmpty())
        return;
    m_editor->change(field == Edit::Field::Arguments ? tr("Edit Arguments of Event %1").arg(index)
                                                     : tr("Edit Result of Event %1").arg(index),
        [=](AnnotationStore& store) { return store.editCall(roomId, index, field, json, who); }, true);
}

void ContentEditor::setOutcome(qint64 roomId, qint64 index, Outcome outcome)
{
    const QString who = m_editor->author();
    if (who.isEmpty())
        return;
    m_editor->change(tr("Set Outcome of Event %1 to \"%2\"").arg(index).arg(Outcomes::name(outcome)),
        [=](AnnotationStore& store) { return store.setOutcome(roomId, index, Outcomes::name(outcome), who); }, true);
}

void ContentEditor::unlink(qint64 roomId, qint64 index)
{
    const QString who = m_editor->author();
    if (who.isEmpty())
        return;
    m_editor->change(tr("Unlink the Call at Event %1").arg(index),
        [=](AnnotationStore& store) { return store.unlink(roomId, index, who); }, true);
}

void ContentEditor::link(qint64 roomId, qint64 start, qint64 end)
{
    const QString who = m_editor->author();
    if (who.isEmpty())
        return;
    m_editor->change(tr("Link End %1 to Start %2").arg(end).arg(start),
        [=](AnnotationStore& store) { return store.link(roomId, start, end, who); }, true);
}

void ContentEditor::revertEdit(qint64 editId, const QString& what)
{
    const QString who = m_editor->author();
    if (who.isEmpty())
        return;
    m_editor->change(what, [=](AnnotationStore& store) { return store.revertEdit(editId, who); }, true);
}
