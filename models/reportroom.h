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
    // `paper`: each call's arguments, result and error kept as onPaper() cuts them (a PDF of 100 results of 1 MB
    // held 600 MB of them whole).
    static std::optional<ReportRoom> read(Workspace& ws, qint64 roomId, bool keepCalls = true, bool paper = false);

    // A value as paper shows it: whole up to PaperLimit characters, else cut there with "… N more characters:
    // whole in the JSON Lines report". A fetched web page of 2 MB with no line break took the PDF's layout
    // minutes and 375 pages; the JSON Lines report keeps every value whole.
    static constexpr qsizetype PaperLimit = 8000;
    static QString onPaper(const QString& text);

    // Adds an event to the digest of the event list a report was made from (the manifest's events_sha256): the
    // room's id, a tab, its `events --json` line, a newline. Nothing when `events` is null.
    void digest(Sha256* events, const EventRecord& e) const;
};
