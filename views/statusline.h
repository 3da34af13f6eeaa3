#pragma once

#include "roomsummary.h"

#include <QCoreApplication>
#include <QString>

// What the status bar says of the room shown, and what an empty timeline says instead of rows: "showing X of Y
// events as N items", with what the count does not say yet in one pair of parentheses (imported so far, reading
// this room, not read yet, read in part). Plain text from plain facts, so that every case is checked without a
// window; MainWindow gathers the facts and shows the texts.
class StatusLine
{
    Q_DECLARE_TR_FUNCTIONS(StatusLine)
public:
    struct Facts
    {
        qint64 roomId = 0; // 0: no room shown
        qint64 shown = -1; // events the filter lets through; -1 while counting
        qint64 total = -1; // every stored event of the room; -1 while counting
        qint64 items = 0; // the rows of the list (timeline items, or raw rows)
        bool timeline = true; // false: the raw rows, where a row is an event
        bool indexed = false; // the room's row index is in: `items` is final
        bool importing = false;
        const RoomSummary* room = nullptr; // the room as the room list has it, if it does
        bool hiddenByRoomFilter = false; // the room list's filter leaves it out: said, with its id
    };
    struct Texts
    {
        QString status;
        QString empty; // the timeline's text when it shows no row (empty: none)
    };

    static Texts of(const Facts& facts);
};
