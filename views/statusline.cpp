#include "statusline.h"

#include <QStringList>

StatusLine::Texts StatusLine::of(const Facts& f)
{
    if (f.roomId == 0)
        return { tr("No room selected"), tr("Pick a room to see its events.") };
    if (f.shown < 0 || f.total < 0)
        return { tr("Counting…"), {} };
    QString text = tr("showing %L1 of %L2 events").arg(f.shown).arg(f.total);
    // The timeline folds rows into items (a call's start and end are one card): say how many items, when
    // that is not the number of events (14 rows shown as 11 items read as a wrong count).
    if (f.timeline && f.indexed && f.items != f.shown)
        text += f.items == 1 ? tr(" as 1 item") : tr(" as %L1 items").arg(f.items);
    // What the count does not say yet, in one pair of parentheses (two read as "(…) (…)").
    QStringList notes;
    const RoomSummary* room = f.room;
    // A room still importing is read again once it is whole; until then the list's count runs ahead of it.
    if (f.importing && room && room->eventCount > f.total)
        notes << tr("%L1 imported so far").arg(room->eventCount);
    // A room its source holds more of than was read (a store opened a moment ago, a cancelled import): said, with
    // the source's count, never a false "no events". A room the import has not reached is read next, as it is
    // shown (StoreClient::setView).
    if (room && room->unread > 0) {
        const QString source = tr("%L1 events in the source").arg(room->sourceEvents());
        if (f.importing)
            notes << (f.total == 0 ? tr("reading this room: %1").arg(source) : tr("reading on: %1").arg(source));
        else if (room->notReadYet())
            notes << tr("not read yet: %1").arg(source);
        else
            notes << tr("%1: read in part, open the source to read the rest").arg(source);
    }
    // A room the room list's filter hides is still shown: named, or its events pass for another room's.
    if (f.hiddenByRoomFilter && room)
        notes << tr("room %1, hidden by the room filter").arg(room->nativeId);
    if (!notes.isEmpty())
        text += QStringLiteral(" (") + notes.join(QStringLiteral("; ")) + QLatin1Char(')');
    if (room && room->notReadYet()) {
        return { text,
            f.importing ? tr("Reading this room from its source (%L1 events)…").arg(room->sourceEvents())
                        : tr("This room is not read yet: its source holds %L1 events. Open the source (File ▸ Open "
                             "Recent) to read it.")
                              .arg(room->sourceEvents()) };
    }
    // An empty timeline says why: an empty room, or a filter that leaves nothing.
    return { text,
        f.total == 0        ? tr("This room has no events.")
            : f.items == 0 ? tr("No event of the %L1 in this room matches the filter.").arg(f.total)
                           : QString() };
}
