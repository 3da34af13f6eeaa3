#pragma once

#include <QByteArray>
#include <QString>

// A room as a source describes it: what an import writes of it (ImportWriter::upsertRoom), and what a report reads
// back (RoomFields). Times are 0 and JSON null when the source has none.
struct RoomInfo
{
    QString nativeId;
    QString title;
    QString status;
    QString organizationId;
    QString owner;
    QString agentId;
    QString summary;
    qint64 createdMicros = 0;
    qint64 updatedMicros = 0;
    QByteArray nativeJson; // the room as the source stored it
    QByteArray detailsJson; // bindings, participants, ...
    // Its title and status come from its rows (AG-UI: the first question, how the last run ended), written when they
    // are read: a room whose rows are not read again keeps the ones stored.
    bool titleFromRows = false;
    // The log its rows are read from, when they are read from one file: a log that did not only grow since the last
    // sync (cut back, rewritten) is read again from its start, in whatever process the sync runs.
    QString file;
    // What else says the room's rows were read from this very source (a store's file by its device and inode): a
    // mark that differs from the last import's means the source was replaced at its path, and the room is read again
    // from its start.
    QString mark;
};
