#include "eventactions.h"

#include "eventlistmodel.h"
#include "eventserializer.h"

#include <QAbstractItemView>
#include <QAction>
#include <QClipboard>
#include <QGuiApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMenu>

namespace {

// A JSON text as a value: parsed when it is JSON, else the text itself.
QJsonValue jsonOrText(const QString& text)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(text.toUtf8(), &error);
    if (error.error != QJsonParseError::NoError || text.isEmpty())
        return text.isEmpty() ? QJsonValue() : QJsonValue(text);
    return doc.isObject() ? QJsonValue(doc.object()) : QJsonValue(doc.array());
}

QString pretty(const QString& text)
{
    const QJsonDocument doc = QJsonDocument::fromJson(text.toUtf8());
    return doc.isNull() ? text : QString::fromUtf8(doc.toJson(QJsonDocument::Indented)).trimmed();
}

} // namespace

EventActions::EventActions(Locator locator, QObject* parent)
    : QObject(parent)
    , m_locator(std::move(locator))
{
}

QString EventActions::callJson(const ToolCallRecord& call)
{
    QJsonObject o = QJsonDocument::fromJson(EventSerializer::callJson(call)).object();
    o.insert(QStringLiteral("arguments"), jsonOrText(call.arguments));
    o.insert(QStringLiteral("result"), jsonOrText(call.result));
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Indented)).trimmed();
}

QString EventActions::reference(const EventRecord& e) const
{
    return m_locator(e) + tr(", index %1").arg(e.index);
}

QString EventActions::copyText(const QModelIndex& index) const
{
    if (!index.isValid() || !index.data(EventListModel::LoadedRole).toBool())
        return {};
    const EventRecord e = index.data(EventListModel::RecordRole).value<EventRecord>();
    const QVariant call = index.data(EventListModel::CallRole);
    if (call.isValid())
        return callJson(call.value<ToolCallRecord>());
    if (!e.text.isEmpty() && e.kind != EventKind::ToolCall)
        return e.text;
    return QString::fromUtf8(EventSerializer::eventJson(e));
}

void EventActions::copy(const QString& text, const QString& what)
{
    QGuiApplication::clipboard()->setText(text);
    emit copied(what);
}

QMenu* EventActions::menuFor(const QModelIndex& index, QWidget* parent)
{
    auto* menu = new QMenu(parent);
    menu->setObjectName(QStringLiteral("eventMenu"));
    if (!index.isValid() || !index.data(EventListModel::LoadedRole).toBool()) {
        menu->addAction(tr("Still loading…"))->setEnabled(false);
        return menu;
    }
    const EventRecord e = index.data(EventListModel::RecordRole).value<EventRecord>();
    const QVariant callData = index.data(EventListModel::CallRole);
    if (callData.isValid()) {
        const ToolCallRecord call = callData.value<ToolCallRecord>();
        QAction* whole
            = menu->addAction(tr("Copy Call as JSON"), this, [this, call] { copy(callJson(call), tr("the call as JSON")); });
        whole->setShortcut(QKeySequence::Copy);
        menu->addAction(tr("Copy Arguments"), this, [this, call] { copy(pretty(call.arguments), tr("the arguments")); })
            ->setEnabled(!call.arguments.isEmpty());
        menu->addAction(tr("Copy Result"), this, [this, call] { copy(pretty(call.result), tr("the result")); })
            ->setEnabled(!call.result.isEmpty());
    } else if (!e.text.isEmpty()) {
        QAction* text = menu->addAction(tr("Copy Text"), this, [this, e] { copy(e.text, tr("the text")); });
        text->setShortcut(QKeySequence::Copy);
    }
    menu->addAction(tr("Copy Event as JSON"), this,
        [this, e] { copy(QString::fromUtf8(EventSerializer::eventJson(e)), tr("the event as JSON")); });
    menu->addAction(tr("Copy Reference (Source, Room, Index)"), this, [this, e] { copy(reference(e), tr("a reference")); });
    if (m_more)
        m_more(menu, index);
    return menu;
}

void EventActions::attach(QAbstractItemView* view)
{
    view->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(view, &QWidget::customContextMenuRequested, this, [this, view](const QPoint& at) {
        const QModelIndex index = view->indexAt(at);
        if (!index.isValid())
            return;
        view->setCurrentIndex(index);
        QMenu* menu = menuFor(index, view);
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->popup(view->viewport()->mapToGlobal(at));
    });
    // Ctrl+C copies what the row is, not its index (the item view's own copy takes the first column's text).
    auto* copyAction = new QAction(tr("Copy"), view);
    copyAction->setShortcut(QKeySequence::Copy);
    copyAction->setShortcutContext(Qt::WidgetShortcut);
    connect(copyAction, &QAction::triggered, this, [this, view] {
        const QString text = copyText(view->currentIndex());
        if (!text.isEmpty()) {
            const bool card = view->currentIndex().data(EventListModel::CallRole).isValid();
            copy(text, card ? tr("the call as JSON") : tr("the event"));
        }
    });
    view->addAction(copyAction);
}
