#pragma once

#include "../roomkitrowdecoder.h"

#include <memory>

class RoomFeed;

// RoomKit's rows of one room written as they stream by in index order, whether they come from its SQLite
// file or its PostgreSQL tables: each tool start and end paired as it passes (an end closing a start is
// folded into its card), a second row at an index left out, and one AI response per correlation id kept
// from its first to its last row and written with every commit.
class RoomKitRows
{
public:
    explicit RoomKitRows(RoomFeed& feed);
    ~RoomKitRows();
    RoomKitRows(const RoomKitRows&) = delete;
    RoomKitRows& operator=(const RoomKitRows&) = delete;

    void add(DecodedRoomKitEvent& event);
    // After the last row: the responses still to write, and the room's new cursor.
    void finish();

private:
    class Responses;
    RoomFeed& m_feed;
    std::unique_ptr<Responses> m_responses;
    qint64 m_synced;
    qint64 m_lastIndex;
};
