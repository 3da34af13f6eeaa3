#pragma once

#include "annotation.h"
#include "roomsummary.h"
#include "toolcallrecord.h"

#include "eventrecord.h"

#include <optional>
#include "sha256.h"
#include <QHash>
#include <QSet>
#include <QStringList>
#include <QVector>

class Workspace;

// What every report says of a room beside its events, read once: the room, what reviewers added (by event
// index), its calls by the row each shows at, and per tool how its calls went.
struct ReportRoom
{
    RoomSummary room;
    QHash<qint64, QStringList> labels;
    QHash<qint64, QStringList> notes; // "author (time): text"
    QSet<qint64> marked;
    QStringList roomNotes;
    std::optional<Annotation> review;
    QHash<qint64, ToolCallRecord> cards; // a call by its start, else its end or result
    QHash<qint64, ToolCallRecord> callOf; // a call by each of its rows: start, end, result
    QHash<QString, int> outcomes; // calls by how they ended

    struct Tool
    {
        QString name;
        int calls = 0;
        int failures = 0; // failed, refused, unserved or blocked
        std::optional<qint64> p50, p95, max; // durations in ms, of the calls that have one
    };
    QVector<Tool> tools; // most calls first

    // nullopt when there is no such room. Without `keepCalls`, cards and callOf stay empty (the summaries are made
    // all the same): a writer that streams the calls itself never holds a quarter of a million of them.
    static std::optional<ReportRoom> read(Workspace& ws, qint64 roomId, bool keepCalls = true);

    // Adds an event to the digest of the event list a report was made from (the manifest's events_sha256): the
    // room's id, a tab, its `events --json` line, a newline. Nothing when `events` is null.
    void digest(Sha256* events, const EventRecord& e) const;
};
