#pragma once

#include "eventfilter.h"
#include "roomsummary.h"

#include <QObject>
#include <tuple>

class EventListModel;
class StoreClient;

// The life of the room shown: its model (the rows the timeline and the raw rows show), which room it is, what the
// list said of it when it was shown or last read, and whether a list that comes since says its rows moved, so that
// it is read again in place (its selection, open cards and scroll kept). While an import runs, only a batch of the
// room made whole (roomReady) lets a list read it again: re-reading a growing room of a million rows every two
// seconds would take the import's core. MainWindow composes it with the views that show the model.
class RoomSession : public QObject
{
    Q_OBJECT
public:
    explicit RoomSession(StoreClient* store, QObject* parent = nullptr);

    EventListModel* model() const { return m_model; }
    // Shows `roomId` under `filter`, as the list has it: `listed` is null when the list does not have it yet (the next
    // list reads it again).
    void show(qint64 roomId, const EventFilter& filter, const RoomSummary* listed);
    qint64 roomId() const { return m_roomId; }
    // The import committed a batch of `roomId`, whole (its calls paired, its counts true).
    void madeWhole(qint64 roomId);
    // A sync wrote rows of `roomId` again in place (a record its writer finished, a call settled): they move no count.
    void rewritten(qint64 roomId);
    // A room list came while the room `current` stays selected: its model is read again in place, with its notes and
    // marks, when the list says its rows moved. Returns whether it was (what is shown beside the rows follows them).
    bool listCame(const RoomSummaries& rooms, qint64 current, bool importing);
    // The rule listCame() follows: whether the list says the rows of `current` moved. `shownTotal` is the count the
    // room's model holds (-1 before its row index), what a room shown before the list had it is compared with.
    bool moved(const RoomSummaries& rooms, qint64 current, bool importing, qint64 shownTotal);

private:
    // What of a room moves when its rows do: its count, its calls by outcome, its time span.
    using Signature = std::tuple<qint64, qint64, qint64, qint64, qint64, qint64, qint64>;
    static Signature signatureOf(const RoomSummary& room);
    void remember(qint64 roomId, const RoomSummary* listed);

    EventListModel* m_model;
    qint64 m_roomId = 0;
    Signature m_signature {};
    bool m_madeWhole = false;
    bool m_rewritten = false;
};
