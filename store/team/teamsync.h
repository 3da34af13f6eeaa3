#pragma once

#include "../editsteps.h"
#include "teamredaction.h"

#include <optional>
#include <QString>
#include <QStringList>

class TeamStore;
class Workspace;

// Keeps a workspace's review and its team store's the same: what was changed here goes up, in the order it was made,
// and what teammates changed comes down, after the last team journal entry this workspace holds (a keyset catch-up).
//
// Changes are made here first (AnnotationStore, as without a team) and saved; push() sends each saved entry not yet
// sent, one transaction there each, with a key naming this workspace and the entry, so one sent twice (the answer
// lost, the process killed) is taken once. A change made while the server could not be reached waits here and goes up
// at the next sync. pull() keeps each annotation as the team holds it (the latest change wins; the journal keeps every
// change) in one transaction here. What is shared: notes, labels, marks and review statuses, with their journal
// entries, and redactions: each copy cuts the same span once it finds the same text there (its digest under the
// store's key), then saves it for good, so no byte of the text stays in its files. Edits and pair fixes too: every copy
// makes them on its own rows (a room not read yet, as it is read).
class TeamSync
{
public:
    struct Result
    {
        int sent = 0; // local entries that went up
        int taken = 0; // teammates' entries that came down (new here)
        int heldBack = 0; // local entries an auditor's role keeps from going up
        // Teammates' redactions not applied here (their room not read yet, or other text where they cut), each
        // "room ROOM, index N: why": tried again at every sync.
        QStringList unapplied;
        bool cut = false; // teammates' redactions were cut, or their edits applied, here: the rows' text changed
    };

    TeamSync(Workspace& workspace, TeamStore& team);

    // The team store the workspace is attached to (its URI without a password), if any.
    static std::optional<QString> attached(Workspace& workspace);
    // Attaches the workspace to `uri` (kept without its password), the store `storeId` there. Another store than
    // before (another URI, or a store made anew at it): the review here goes up to it, and all of its comes down.
    static void attach(Workspace& workspace, const QString& uri, const QString& storeId, const QString& secret = {});
    static void detach(Workspace& workspace);
    // How many saved changes wait to go up.
    static int pending(Workspace& workspace);
    // The workspace's own name in what it sends (a random UUID made when it was first attached; empty before).
    static QString client(Workspace& workspace);
    // When the workspace last caught up (ms since the epoch; 0: never).
    static qint64 syncedAt(Workspace& workspace);

    // Teammates' redactions waiting here (team_redactions) cut where their text now is (a room read since), those of
    // `roomId` alone when given, each saved for good and no longer waiting; the rest listed in `unapplied`. Inside or
    // outside a transaction; true when one was cut: after the commit, RedactionStore::forget(). An import calls it at
    // the end of each room, and every verb when it opens a workspace, so a room read later is cut as it comes.
    // Teammates' edits waiting here (team_edits) are applied the same way first (`edited`: set when one was).
    static bool applyWaiting(
        Workspace& ws, std::optional<qint64> roomId, QStringList* unapplied = nullptr, bool* edited = nullptr);

    Result push();
    // Teammates' changes since the cursor; `unapplied` gets the redactions that could not be applied here.
    int pull(QStringList* unapplied = nullptr, bool* cut = nullptr);
    Result sync(); // push, then pull

private:
    // Teammates' edits waiting for their item's row: applied where it is now (the edit signed by its teammate, saved,
    // known by its id in the store); true when one was.
    static bool applyWaitingEdits(Workspace& ws, std::optional<qint64> roomId, QStringList* unapplied);
    // This workspace's saved redactions not sent yet, in the order made (a note's stays here): how many went.
    int pushRedactions(const QString& client);
    // A teammate's redaction cut here too, in a savepoint of its own, when the text there is the one it cut (its
    // digest under the store's key); false with `problem` when it is not.
    static bool applyRedaction(Workspace& ws, const TeamRedaction& redaction, qint64 roomId, EditSteps& steps,
        QString* problem);

    Workspace& m_ws;
    TeamStore& m_team;
};
