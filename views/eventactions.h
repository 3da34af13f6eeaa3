#pragma once

#include "eventrecord.h"
#include "toolcallrecord.h"

#include <functional>
#include <QObject>

class QAbstractItemView;
class QMenu;
class QModelIndex;
class QWidget;

// What can be copied of an event in the timeline and the raw rows: a context menu on a row, and Ctrl+C (which
// copied the row's index). A card copies its call whole as JSON, or its arguments, its result, a reference;
// a message its text. The reference names the source, the room and the index, so that anyone can find it.
class EventActions : public QObject
{
    Q_OBJECT
public:
    // Where the event lives, for the reference: the source and the room, as the room list knows them.
    using Locator = std::function<QString(const EventRecord&)>;
    explicit EventActions(Locator locator, QObject* parent = nullptr);

    // What else the menu of a row offers (the editor's items), added after the copies.
    void setMoreItems(std::function<void(QMenu*, const QModelIndex&)> more) { m_more = std::move(more); }
    // Gives `view` the context menu and Ctrl+C.
    void attach(QAbstractItemView* view);
    // The menu for the row at `index` (what MainWindow's tests and the view's right click open).
    QMenu* menuFor(const QModelIndex& index, QWidget* parent);
    // What Ctrl+C copies of the row at `index`: a card's call as JSON, a message's text, else the event as JSON.
    QString copyText(const QModelIndex& index) const;

    // The call whole: what Sightline made of it, with its arguments and result (parsed when they are JSON).
    static QString callJson(const ToolCallRecord& call);
    QString reference(const EventRecord& e) const;

signals:
    void copied(const QString& what); // for the status bar: "Copied the call as JSON"

private:
    void copy(const QString& text, const QString& what);

    Locator m_locator;
    std::function<void(QMenu*, const QModelIndex&)> m_more;
};
