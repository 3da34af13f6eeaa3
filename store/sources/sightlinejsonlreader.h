#pragma once

#include "sourcereader.h"

#include <QFile>
#include <QHash>
#include <QVector>

// A JSON Lines report Sightline wrote (`export --format jsonl`, JsonlReport), opened again as a source: its rooms
// with their own ids, titles and source JSON, and their events with every derived column, payload and search text
// exactly as exported, their calls and runs. The file is scanned once for where each room starts; a room's lines
// are then read as they stream by, so a big export opens in bounded memory. What reviewers added (annotation,
// redaction and journal lines) is the report's record of them and is not made into annotations again.
class SightlineJsonlReader : public SourceReader
{
public:
    // Throws StoreError naming the file when it cannot be read or does not start with the report's header line.
    explicit SightlineJsonlReader(const QString& path);

    QString origin() const override;
    SourceIdentity identity() const override;
    QVector<RoomInfo> rooms(const SourceNotes& notes) override;
    qint64 rowsAfter(const RoomCursor& cursor) override;
    void read(const RoomCursor& cursor, RoomFeed& feed) override;

    // Whether the file starts with a Sightline report's header line.
    static bool detect(const QString& path);

private:
    struct Room
    {
        qint64 offset = 0; // of its room line
        qint64 line = 0; // its room line's number, from 1
        QVector<qint64> indexes; // of its events, in the order written (ascending)
    };

    QString m_path;
    QFile m_file;
    QVector<QString> m_order;
    QHash<QString, Room> m_rooms;
};
