#pragma once

#include "sqlitestatement.h"
#include "toolcallrecord.h"

#include <optional>
#include <QByteArray>
#include <QMap>

class Workspace;

// A room's calls by each of their rows (start, end, result), read in the order of their first row as the events go by
// in index order: only the calls with a row still ahead are held, never the room's quarter of a million. The CSV
// report's tool columns come from it.
class CallsAlong
{
public:
    CallsAlong(Workspace& ws, qint64 roomId);

    // The call the row at `index` belongs to; indexes come in ascending order. Null when it belongs to none.
    const ToolCallRecord* at(qint64 index);

private:
    static qint64 firstRow(const ToolCallRecord& c);
    void hold(const ToolCallRecord& c);

    QByteArray m_sql;
    SqliteStatement m_read;
    bool m_more = false;
    std::optional<ToolCallRecord> m_next; // the row the statement is on, its first row still ahead
    QMap<qint64, ToolCallRecord> m_ahead; // by each row still ahead
};
