#pragma once

#include "roomsummary.h"

#include <tuple>

// The life of the room shown between room lists: which room it is, what the list said of it when it was shown or
// last read, and whether a list that comes since says its rows moved, so that it is read again in place (its
// selection, open cards and scroll kept). While an import runs, only a batch of the room made whole (roomReady) lets
// a list read it again: re-reading a growing room of a million rows every two seconds would take the import's core.
class RoomSession
{
public:
    // The room shown now, as the list has it: null when the list does not have it yet (the next list reads it again).
    void show(qint64 roomId, const RoomSummary* listed);
    qint64 roomId() const { return m_roomId; }
    // The import committed a batch of `roomId`, whole (its calls paired, its counts true).
    void madeWhole(qint64 roomId);
    // A sync wrote rows of `roomId` again in place (a record its writer finished, a call settled): they move no count.
    void rewritten(qint64 roomId);
    // A room list came while the room `current` stays selected: whether to read it again in place. `shownTotal` is the
    // count the room's view holds (-1 before its row index), what a room shown before the list had it is compared with.
    bool listCame(const RoomSummaries& rooms, qint64 current, bool importing, qint64 shownTotal);

private:
    // What of a room moves when its rows do: its count, its calls by outcome, its time span.
    using Signature = std::tuple<qint64, qint64, qint64, qint64, qint64, qint64, qint64>;
    static Signature signatureOf(const RoomSummary& room);

    qint64 m_roomId = 0;
    Signature m_signature {};
    bool m_madeWhole = false;
    bool m_rewritten = false;
};
