#pragma once

#include "roomsummary.h"

#include <QStringList>
#include <QVector>

// The rooms a typed room id names, by one rule for the command line's --room and the window's Go ▸ Room…: the
// rooms with that id (one a source, in a workspace of several); else the one room whose id holds it (an AG-UI
// thread by its th_… part); never a room in another case (RoomKit's ids are case-sensitive), which is only named.
struct RoomMatch
{
    QVector<qint64> ids; // the rooms named: empty when none, or when the part is in several ids
    QStringList several; // the ids that hold the part, when more than one does
    QStringList otherCase; // ids that hold it in another case, when nothing else matched

    static RoomMatch find(const RoomSummaries& rooms, const QString& typed);
};
