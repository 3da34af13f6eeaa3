#pragma once

#include "journalentry.h"

#include <optional>
#include <QString>

class Workspace;
struct TeamJournalEntry;

// The edit journal: every change made to a workspace (a note, a label, a mark, a review status, an edit, a
// redaction), who made it and when, with what it was before and after. An entry is written with its change,
// undone and redone with it (EditSteps), and saved with it.
class Journal
{
public:
    enum class Action {
        NoteAdded,
        NoteRemoved,
        LabelAdded,
        LabelRemoved,
        Marked,
        Unmarked,
        Review,
        Redacted,
        TextEdited,
        ArgumentsEdited,
        ResultEdited,
        OutcomeChanged,
        Linked,
        Unlinked,
        EditReverted,
    };

    explicit Journal(Workspace& workspace);

    // Writes an entry (unsaved, present) and returns its id; inside the caller's transaction. `annotationId`: the
    // annotation it made or took out (what goes up to a team store for it, TeamSync).
    qint64 record(Action action, qint64 roomId, std::optional<qint64> index, const QString& before,
        const QString& after, const QString& author, std::optional<qint64> annotationId = std::nullopt);
    // An entry of the team store's journal (TeamSync), kept here once (saved, its team_id, came down) unless it is
    // already: true when it was not. Inside the caller's transaction.
    bool adopt(qint64 roomId, const TeamJournalEntry& entry);
    // The entries as the workspace holds them now (saved or not), oldest first; roomId 0: every room.
    JournalEntries entries(qint64 roomId = 0);

    static QString name(Action action); // as stored: note_added ...
    // What an entry did, for people: "note added", "review: in review → done".
    static QString describe(const JournalEntry& entry);

private:
    Workspace& m_ws;
};
