#pragma once

#include <functional>
#include <optional>
#include <QMetaType>
#include <QString>
#include <QStringList>
#include <QVector>

class PgSessions;

// What one import (or sync) of a source did, room by room.
struct ImportReport
{
    // How a problem with a log's last line or record that its writer may not have finished starts: what a log being
    // written looks like, said in the status bar (not in a box) and left out while following.
    static inline const QString UnfinishedLastLine = QStringLiteral("an unfinished last line");
    static bool isUnfinished(const QString& problem) { return problem.contains(UnfinishedLastLine); }

    struct Room
    {
        QString nativeId;
        qint64 added = 0; // rows new in this import
        qint64 total = 0; // rows the workspace now holds for the room
        qint64 id = 0; // in the workspace
        // Rows it held before that this import wrote again: a last record its writer finished since, a row whose
        // call or task a later line settled. A view of the room reads them again though no row was added.
        qint64 changed = 0;
    };
    QString source;
    QString format; // e.g. roomkit.sqlite.v3
    QVector<Room> rooms;
    QStringList problems; // "FILE: PLACE: what" for each row kept but flagged, and each row skipped
    bool cancelled = false;
    qint64 roomsNotRead = 0; // rooms of the source left unread or partly read (ImportOptions::onlyRooms, a cancel)

    qint64 added() const
    {
        qint64 sum = 0;
        for (const Room& r : rooms)
            sum += r.added;
        return sum;
    }
};

Q_DECLARE_METATYPE(ImportReport)

struct ImportOptions
{
    std::function<void(qint64 done, qint64 total)> progress; // called between batches
    std::function<bool()> isCancelled; // asked before the first batch and between batches; what was committed stays
    int batchRows = 20000; // rows per transaction: about a quarter of a second of import, 35 MB of pages
    // A room's rows so far are committed and whole (counted, tool calls paired): a reader can list and show it.
    std::function<void(qint64 roomId)> roomReady;
    // The room to read first (its native id), where the biggest goes first otherwise: the one the user chose.
    QString firstRoom;
    // The room the user is looking at now (its workspace id; 0: none), asked between batches: when the import has
    // not read it yet, it is read next, the room being read stopping after its batch and resuming afterwards.
    std::function<qint64()> wantedRoom;
    // A room the import begins (or resumes) reading: the room list says which one is being read.
    std::function<void(qint64 roomId)> roomStarted;
    // The rooms to read, each by its native id or a part of it that one room's id alone holds (a command's --room);
    // every room when unset, none when empty. Every room of the source is listed all the same, with the rows its
    // source holds that are not read yet (rooms.unread), so a later import reads the rest.
    std::optional<QStringList> onlyRooms;
    // The rows a reader that assembles a thread (AG-UI) holds before the oldest is written: memory against the
    // rows a later line brings back to change (a message streaming longer than this). Any size gives the same rows.
    int assemblyWindow = 4096;
    // Where a database's session is kept between syncs (the import thread's own): none, a connection each import.
    PgSessions* pgSessions = nullptr;
};
