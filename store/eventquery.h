#pragma once

#include "eventfilter.h"

#include <QString>
#include <QVariantList>

// Turns the read contract into SQL with bound parameters (seeds/000, SOURCES.md §1.6). The filter applies
// before the page is cut, so a page of `limit` is full; every page is keyed on (room_id, seq), so a cursor
// read is an index range scan, never an OFFSET over the whole room.
struct EventQuery
{
    QString sql;
    QVariantList binds;


    // A page of events. Throws StoreError on a request the contract forbids (after and before together,
    // newest_first with a cursor, a negative limit or offset).
    static EventQuery page(qint64 roomId, const EventFilter& filter, const PageRequest& page);
    // The count a page stands for: every committed row without a filter, blocked ones included; with a
    // filter, exactly the rows a page would serve.
    static EventQuery count(qint64 roomId, const EventFilter* filter);
    // How many rows page(roomId, filter, page) serves: its cursor, limit and offset too.
    static EventQuery count(qint64 roomId, const EventFilter& filter, const PageRequest& page);
    // Messages only, blocked ones included: the newest `limit` ascending, or forward from afterIndex.
    static EventQuery conversation(qint64 roomId, int limit, std::optional<qint64> afterIndex, bool assembled = false);
    // The condition on a room's rows that makes them its messages (conversation()): `assembled` for the systems whose
    // messages are put together from several rows (all but RoomKit).
    static QString messageRows(bool assembled);

    // Every row of a room under `filter`, ascending: seq, whether it is a row of the list (a timeline item, or
    // any row in raw mode) and whether it is an event the filter lets through. For RowIndex.
    static EventQuery rowIndex(qint64 roomId, const EventFilter& filter);

    // Every row of a room with the columns the panes count, a mask of the filter's parts the row fails (FacetBit:
    // a field's facet counts the rows that fail nothing but that field), its index and its flags.
    static EventQuery facets(qint64 roomId, const EventFilter& filter);
    enum FacetBit {
        TypeBit,
        KindBit, // its own: a type filter narrows the kind counts, and a kind filter the type counts
        ChannelBit,
        ChannelTypeBit,
        ParticipantBit,
        ToolBit,
        OutcomeBit,
        BlockedBit,
        TimeBit,
        LabelBit, // what reviewers added: a label, and a state (is:marked ... is:edited)
        StateBit,
        OtherBit
    };

    // The WHERE clause of a filter in the room (which the caller's "room_id = ?" selects), appended to `binds`.
    static QString where(qint64 roomId, const EventFilter& filter, QVariantList& binds);
    // What applies to the row itself: blocked, top level, time, the span of a turn. " AND ..." on `events`.
    static QString scope(qint64 roomId, const EventFilter& filter, QVariantList& binds);
    // What says whether a row matches (types, channels, tools, outcomes, words...), on the table alias `t`.
    // A call's outcome, pairing and duration are facts of each of its rows (outcomeOf, callValue).
    static QString predicate(const EventFilter& filter, const QString& t, QVariantList& binds);
    // Whether a timeline item matches: by its own row, or, for a card or a message, by its call's outcome or a
    // folded row.
    static QString itemMatch(qint64 roomId, const EventFilter& filter, QVariantList& binds);
    // With words to find, the rows an item that holds them can be at (" AND events.seq IN (...)"), found from the
    // hits; else nothing. A first cut for the timeline's items in a pass over the whole room (row index, count), where
    // itemMatch still decides; a page reads on until its rows are found.
    static QString wordCandidates(qint64 roomId, const EventFilter& filter, QVariantList& binds);
    // Whether row `t` has an annotation of `field` (label, note, is) with one of `values`: an EXISTS clause.
    static QString annotated(const QString& t, const QString& field, const QStringList& values, QVariantList& binds);
    // Whether row `t` is read although blocked rows are hidden: it is not blocked, or it is a blocked end or result
    // folded into a card whose start is not blocked, which the timeline shows with the row's result in it. What a
    // search finds: the words a card shows are found, whichever row holds them.
    static QString readable(const QString& t);
    // An FTS5 MATCH expression of words and phrases: all of them, or `any`.
    static QString ftsMatch(const QStringList& words, bool any);
    // The outcome of row `t`: its own, or for a call's start its call's (a call's outcome is on each of its rows).
    static QString outcomeOf(const QString& t);
    // `expression` of the call row `t` is one of (its start, end or result), else NULL.
    static QString callValue(const QString& t, const QString& expression);
};
