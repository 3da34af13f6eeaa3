#pragma once

#include <QMetaType>
#include <QString>
#include <QStringList>
#include <QVector>

// A room (RoomKit room, later an AG-UI thread or a CraftBot stream) with the counts the room list shows.
struct RoomSummary
{
    qint64 id = 0; // the workspace's own key
    QString nativeId; // the source's room id
    QString title;
    // What a person calls the room: its title ("outage"), else its id. Names the export's file, the PDF's page
    // headers and a redaction's scope.
    QString name() const { return title.isEmpty() ? nativeId : title; }
    QString system; // roomkit | agui | craftbot
    QString sourcePath;
    QString status;
    QString owner; // AG-UI thread owner
    QString agentId;
    QString summary; // CraftBot head_summary: what the stored events follow on from
    QString participants; // who spoke in the room, comma-separated
    QStringList channelTypes; // the channel types its events came on (sms, websocket, ai...)
    qint64 createdMicros = 0;
    qint64 eventCount = 0; // every stored row, blocked ones included
    qint64 blockedCount = 0;
    qint64 toolCalls = 0;
    qint64 failed = 0;
    qint64 refused = 0;
    qint64 unserved = 0;
    qint64 firstMicros = 0; // 0 when the room is empty
    qint64 lastMicros = 0;
    QString review; // its review status (ReviewStatus); empty: nobody reviewed it
    QString reviewer; // who set it, and when (ms since the epoch)
    qint64 reviewedMs = 0;
    qint64 notes = 0; // notes on the room and its events
    // Rows its source holds that no import has read yet (a store opened a moment ago, a command's --room that read
    // another room, a cancelled import): the room is "not read yet" while it has none of them, never "0 events".
    qint64 unread = 0;

    bool notReadYet() const { return unread > 0 && eventCount == 0; }
    bool partlyRead() const { return unread > 0 && eventCount > 0; }
    qint64 sourceEvents() const { return eventCount + unread; } // what the source held when last counted
    bool operator==(const RoomSummary&) const = default;
};

Q_DECLARE_METATYPE(RoomSummary)
using RoomSummaries = QVector<RoomSummary>;
