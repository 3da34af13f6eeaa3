#pragma once

#include "importwriter.h"

#include <functional>
#include <QByteArray>
#include <QString>
#include <QVector>

class RoomFeed;

// Who a source is, as the workspace's sources table records it.
struct SourceIdentity
{
    QString system; // roomkit, agui, craftbot
    QString format; // roomkit.sqlite.v3, agui.jsonl, craftbot.event_md, craftbot.sessions_db
    QString schemaVersion; // as the source states it, when it does
};

// Where a problem with the source is, and what it is: "room r1, index 4", "malformed JSON at byte 12".
using SourceNotes = std::function<void(const QString& place, const QString& problem)>;

// What an import needs of a source, whatever its format and wherever it lives (a file, a folder, a database
// server): who it is, the rooms it holds, and each room's rows after a cursor. Importer::run is the one loop
// that writes every format: it records the source and its rooms, orders the rooms, counts the work, and hands
// each room to read() with a RoomFeed, through which rows, calls, runs and what they change are written.
class SourceReader
{
public:
    virtual ~SourceReader() = default;

    // The source as the workspace names it (sources.origin): a canonical path, or a URI without its password.
    virtual QString origin() const = 0;
    virtual SourceIdentity identity() const = 0;
    // The rooms it holds, as it describes them, in its own order.
    virtual QVector<RoomInfo> rooms(const SourceNotes& notes) = 0;
    // Whether a room an earlier import stored (with the native JSON it wrote then) no longer starts as the
    // source's room does now: a log rotated or rewritten since, read again from the start.
    virtual bool replacedSince(const RoomInfo& now, const QByteArray& storedNativeJson) const
    {
        Q_UNUSED(now);
        Q_UNUSED(storedNativeJson);
        return false;
    }
    // Whether the row the last import read last (index `seq`, its own id `id`) is no longer the source's row there:
    // a store replaced at its path by another with the same rooms (an agent run again into the same file), read again
    // from the start rather than taken for the old one with nothing new.
    virtual bool cursorRowChanged(const RoomInfo& room, qint64 seq, const QString& id)
    {
        Q_UNUSED(room);
        Q_UNUSED(seq);
        Q_UNUSED(id);
        return false;
    }
    // How many rows the room has after `cursor`: the progress bar's total, and the biggest room goes first (a
    // store's own tally may answer for a room never read).
    virtual qint64 rowsAfter(const RoomCursor& cursor) = 0;
    // A figure for rowsAfter() that a store's index gives at once, for the order and the room list before the
    // counts come (see countsApart()); rowsAfter() itself where the reader counts no other way.
    virtual qint64 quickRowsAfter(const RoomCursor& cursor) { return rowsAfter(cursor); }
    // Whether countApart() counts: the quick figures are then only the order and first figures, and the import
    // reads while the exact counts are taken on a thread of their own.
    virtual bool countsApart() const { return false; }
    // rowsAfter() of each room in turn, on the calling thread with a connection of its own (the reader's own goes on
    // reading meanwhile); stops when `put` returns false. Throws a StoreError when the source cannot be read.
    virtual void countApart(const QVector<RoomCursor>& rooms,
        const std::function<bool(const RoomCursor& room, qint64 rows)>& put) const
    {
        Q_UNUSED(rooms);
        Q_UNUSED(put);
    }
    // Hands the room's rows after the cursor to `feed`, in index order, until they end or the feed stops.
    virtual void read(const RoomCursor& cursor, RoomFeed& feed) = 0;
    // Whether the room is known to be as the last read of it in this process left it, into the workspace at
    // `workspace` (nothing written to its source since, and its cursor where that read left it): then nothing is
    // read, counted or written for it. A followed folder of threads syncs the one that grew, not all of them.
    virtual bool unchangedSince(const QString& workspace, const RoomCursor& cursor)
    {
        Q_UNUSED(workspace);
        Q_UNUSED(cursor);
        return false;
    }
};
