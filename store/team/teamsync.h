#pragma once

#include <optional>
#include <QString>

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
// entries. Edits and redactions stay in the workspace.
class TeamSync
{
public:
    struct Result
    {
        int sent = 0; // local entries that went up
        int taken = 0; // teammates' entries that came down (new here)
        int heldBack = 0; // local entries an auditor's role keeps from going up
    };

    TeamSync(Workspace& workspace, TeamStore& team);

    // The team store the workspace is attached to (its URI without a password), if any.
    static std::optional<QString> attached(Workspace& workspace);
    // Attaches the workspace to `uri` (kept without its password), the store `storeId` there. Another store than
    // before (another URI, or a store made anew at it): the review here goes up to it, and all of its comes down.
    static void attach(Workspace& workspace, const QString& uri, const QString& storeId);
    static void detach(Workspace& workspace);
    // How many saved changes wait to go up.
    static int pending(Workspace& workspace);
    // When the workspace last caught up (ms since the epoch; 0: never).
    static qint64 syncedAt(Workspace& workspace);

    Result push();
    int pull();
    Result sync(); // push, then pull

private:
    Workspace& m_ws;
    TeamStore& m_team;
};
