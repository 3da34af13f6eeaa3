#include "roommatch.h"

RoomMatch RoomMatch::find(const RoomSummaries& rooms, const QString& typed)
{
    RoomMatch m;
    if (typed.isEmpty())
        return m;
    for (const RoomSummary& r : rooms) {
        if (r.nativeId == typed)
            m.ids << r.id;
    }
    if (!m.ids.isEmpty())
        return m;
    QStringList holders;
    QVector<qint64> ids;
    for (const RoomSummary& r : rooms) {
        if (r.nativeId.contains(typed)) {
            ids << r.id;
            holders << r.nativeId;
        }
    }
    holders.removeDuplicates();
    if (holders.size() > 1) {
        m.several = holders;
        return m;
    }
    m.ids = ids;
    if (!m.ids.isEmpty())
        return m;
    for (const RoomSummary& r : rooms) {
        if (r.nativeId.contains(typed, Qt::CaseInsensitive))
            m.otherCase << r.nativeId;
    }
    m.otherCase.removeDuplicates();
    return m;
}
