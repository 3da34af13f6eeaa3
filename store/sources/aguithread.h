#pragma once

#include "aguilogparser.h"

#include <functional>
#include <QVector>

class RoomFeed;
struct RoomCursor;

// One AG-UI thread written into its room, whether its events came from a JSON Lines file or from kaboo's
// PostgreSQL table: the thread is assembled whole (AguiAssembler), the rows after the cursor are added, the
// rows an earlier sync stored whose text later events completed are written again, and the room's calls,
// runs, title and status replace the stored ones.
namespace AguiThread {
// `indexes`: each line's own index in the source (empty: its position). `placeOf(position)` names a line in
// a problem ("thread.jsonl line 12", "thread t-1, seq 815").
void write(const QVector<AguiLine>& lines, const QVector<qint64>& indexes,
    const std::function<QString(qsizetype position)>& placeOf, const RoomCursor& cursor, RoomFeed& feed);
} // namespace AguiThread
