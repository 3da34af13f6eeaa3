#include "roomsession.h"

#include "eventlistmodel.h"

RoomSession::RoomSession(StoreClient* store, QObject* parent)
    : QObject(parent)
    , m_model(new EventListModel(store, this))
{
}

RoomSession::Signature RoomSession::signatureOf(const RoomSummary& room)
{
    return { room.eventCount, room.toolCalls, room.failed, room.refused, room.unserved, room.firstMicros,
        room.lastMicros };
}

void RoomSession::show(qint64 roomId, const EventFilter& filter, const RoomSummary* listed)
{
    m_model->setRoom(roomId, filter);
    remember(roomId, listed);
}

void RoomSession::remember(qint64 roomId, const RoomSummary* listed)
{
    m_roomId = roomId;
    m_signature = listed ? signatureOf(*listed) : Signature { -1, -1, -1, -1, -1, -1, -1 };
}

void RoomSession::madeWhole(qint64 roomId)
{
    if (roomId == m_roomId)
        m_madeWhole = true;
}

void RoomSession::rewritten(qint64 roomId)
{
    if (roomId == m_roomId)
        m_rewritten = true;
}

bool RoomSession::listCame(const RoomSummaries& rooms, qint64 current, bool importing)
{
    if (!moved(rooms, current, importing, m_model->isIndexed() ? m_model->totalCount() : -1))
        return false;
    m_model->refresh();
    // The notes and marks follow the rows (a rotated log moves them to where their events went, or detaches them).
    m_model->reloadAnnotations();
    return true;
}

bool RoomSession::moved(const RoomSummaries& rooms, qint64 current, bool importing, qint64 shownTotal)
{
    if (importing && !std::exchange(m_madeWhole, false))
        return false;
    for (const RoomSummary& r : rooms) {
        if (r.id != current)
            continue;
        // Its rows moved: more of them, a call settled, or a rotated log read again from its start. The list shown
        // with the room is what it is compared with: a list that only came again (the half second's refresh after an
        // import) must not read the room again while its row index is still on its way, which started it over and
        // lost the row just gone to.
        const Signature signature = signatureOf(r);
        const bool moved = std::exchange(m_rewritten, false)
            || (m_roomId == current ? m_signature != signature : r.eventCount != shownTotal);
        m_roomId = current;
        m_signature = signature;
        return moved;
    }
    return false;
}
