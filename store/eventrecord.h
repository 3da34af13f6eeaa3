#pragma once

#include "eventflags.h"
#include "eventkind.h"
#include "outcome.h"

#include <QMetaType>
#include <QString>
#include <QVector>

// One stored row of a room's timeline with its derived columns; the verbatim payload is read on demand.
struct EventRecord
{
    qint64 rowId = 0;
    qint64 index = 0; // the source's own position: RoomKit's RoomEvent.index
    QString nativeId;
    QString type; // the native type, exactly as the source wrote it
    EventKind kind = EventKind::Custom; // the canonical kind
    QString status;
    QString blockedBy;
    QString channelId;
    QString channelType;
    QString participantId;
    QString correlationId;
    QString parentId;
    QString groupId; // one AI response: RoomKit correlation id, AG-UI run id, CraftBot task
    QString messageId; // AG-UI messageId
    qint64 sourceLine = 0; // the 1-based line where a text source's record starts; 0 for database sources
    qint64 createdMicros = 0;
    QString role; // user | assistant | system | tool
    QString toolName;
    QString toolId;
    Outcome outcome = Outcome::None; // of the call the row settles (tool rows)
    QString text; // best display text
    int flags = 0;
    // What the source's own protocol says is wrong here (AG-UI: an event its client refuses, a call read against
    // its verifier's rules), said on the row where it happens; empty when nothing is. Several are one per line.
    QString warning;

    bool isBlocked() const { return status == QLatin1String("blocked"); }
    bool isSynthetic() const { return flags & EventFlags::Synthetic; }
};

Q_DECLARE_METATYPE(EventRecord)
using EventRecords = QVector<EventRecord>;
