#pragma once

#include <QByteArray>
#include <QString>

class Workspace;

// Fixes how a room's calls were paired (CraftBot's guessed and ambiguous pairs, a broken log): unlinks an end
// from its start, or links an end nothing opened to a start nothing closed. The card, its duration and the
// room's counts follow: the end row is folded into the card or shown on its own again, and the room's calls,
// failures, refusals and unanswered calls are counted again.
//
// What a change touched is kept as a snapshot (the calls at the start and the end and those rows' pairing flags,
// as JSON), which undo and redo put back exactly as it was.
class PairFixer
{
public:
    explicit PairFixer(Workspace& workspace);

    // Splits the call whose start is at `start` and end (or result) at `end` into a start nothing closed and an
    // end nothing opened. Throws StoreError when no call pairs them.
    void unlink(qint64 roomId, qint64 start, qint64 end);
    // Makes the start nothing closed at `start` and the end nothing opened at `end` one call (pairing "manual"),
    // its duration the one the end recorded, else the time between them. Throws StoreError naming what does not
    // fit: no open start there, no lone end there, an end before its start, two different tools.
    void link(qint64 roomId, qint64 start, qint64 end);

    // The calls at `start` or `end` and the pairing flags of their rows, as they are now.
    QByteArray snapshot(qint64 roomId, qint64 start, qint64 end);
    // Puts back what `snapshot` took: the calls it holds (by id) replace those there now, and the rows' flags.
    void restore(qint64 roomId, qint64 start, qint64 end, const QByteArray& snapshot);

    // The room's counts of calls, failures, refusals and unanswered calls, counted again.
    void recount(qint64 roomId);

private:
    void setPairingFlags(qint64 roomId, qint64 index, int flags);

    Workspace& m_ws;
};
