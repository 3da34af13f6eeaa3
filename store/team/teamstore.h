#pragma once

#include "../sources/pgconnection.h"
#include "teamannotation.h"
#include "teamconflict.h"
#include "teamedit.h"
#include "teamjournalentry.h"
#include "teamqueue.h"
#include "teamqueueroom.h"
#include "teamredaction.h"

#include <functional>
#include <optional>
#include <QString>
#include <QStringList>

// A team store: the PostgreSQL database (TeamSchema) where a team's review is shared, reached as the reviewer's own
// login. Every change is one call of a function of the store, in one transaction with its journal entry; reads are
// keyset catch-ups (changesSince) from the last journal entry a workspace saw.
//
// Roles are the server's: the login's membership of sightline_reviewer, sightline_auditor or sightline_admin says
// what it may do, and the server refuses the rest whatever a client sends.
class TeamStore
{
public:
    enum class Role { None, Auditor, Reviewer, Admin };

    // What a change did there: the annotation or redaction it made or touched, and its journal entry (none when the
    // store already was so: a label the event had, the status the room had).
    struct Change
    {
        qint64 id = 0;
        std::optional<qint64> journalId;
    };
    // What changed after a cursor: the annotations and redactions later entries changed, those entries, and the new
    // cursor.
    struct Changes
    {
        TeamAnnotations annotations;
        TeamRedactions redactions; // in the order made
        TeamEdits edits; // in the order made or taken back
        TeamJournalEntries journal;
        qint64 cursor = 0;
    };

    // Connects as the URI's role (its password from the URI, PGPASSWORD or ~/.pgpass). Throws PgUnreachable when no
    // server answers, PgPasswordNeeded, and StoreError for a database with no team store in it (naming the command
    // that makes one) or a role that is none of the team's.
    explicit TeamStore(const QString& uri);

    const QString& origin() const { return m_db.origin(); }
    const QString& login() const { return m_login; }
    const QString& storeId() const { return m_storeId; } // the store's own id (sightline.store)
    const QString& secret() const { return m_secret; } // the key of its redactions' digests
    Role role() const { return m_role; }
    static QString roleName(Role role); // reviewer, auditor, admin
    // Throws StoreError naming the login and its role when it may not change the review (an auditor).
    void requireWriter() const;

    // Each change carries the key of where it came from (a workspace's entry): sent again after a crash or a lost
    // answer, the store gives back what it did the first time and does it no second time.
    Change annotate(const QString& system, const QString& room, std::optional<qint64> seq, const QString& fingerprint,
        Annotation::Kind kind, const QString& value, const QString& author, qint64 atMs, const QString& key);
    Change unannotate(qint64 annotationId, const QString& author, qint64 atMs, const QString& key);
    // `before`: the status this copy had when the change was made; another there now makes a conflict (conflicts()).
    Change setReview(const QString& system, const QString& room, const QString& before, const QString& status,
        const QString& author, qint64 atMs, const QString& key);
    // Review statuses set each without knowing the other, not settled yet, oldest first.
    TeamConflicts conflicts();
    // Settles conflict `id` (and any other of its room): the room's status becomes `status`, as `author` chose.
    void settle(qint64 id, const QString& status, const QString& author, const QString& key);
    // A redaction made in a workspace (`placed`: what its journal says now stands there); Change::id is the store's
    // redaction.
    Change redact(const TeamRedaction& redaction, const QString& placed, const QString& key);

    // Queues. Making one is an admin's; rooms are given as (system, room id), in the order `next` hands them out.
    // Every call throws StoreError with the server's reason: no such queue, not one of its reviewers, a room
    // another holds.
    void createQueue(const TeamQueue& queue, const QVector<std::pair<QString, QString>>& rooms);
    TeamQueues queues(); // those this login may see, with the team's progress in each
    TeamQueueRooms queueRooms(const QString& name); // in order
    // The room this login reviews next (the one it holds already, else the first no one holds), locked for it;
    // none when nothing is left for it.
    std::optional<TeamQueueRoom> nextInQueue(const QString& name, const QString& author);
    // Finishes the room given, else the one this login holds; one done already comes back as it was.
    TeamQueueRoom doneInQueue(
        const QString& name, const std::optional<std::pair<QString, QString>>& room, const QString& author);

    // Presence: this login's window (`client`: its workspace) shows `room` now; none: no room, or it closed.
    void here(const QString& client, const std::optional<std::pair<QString, QString>>& room, const QString& author);
    // Who else has `room` open in a window now (seen within the last 90 s): "Ana (ana)", by name.
    QStringList presentIn(const QString& client, const std::pair<QString, QString>& room);
    // Calls `onChange` on `context`'s thread whenever a change commits in the store (its NOTIFY, LISTENed on this
    // connection, whose thread must run an event loop); false when the driver cannot listen.
    bool listen(QObject* context, std::function<void()> onChange);

    // An edit made in a workspace (`action`, `after`: its journal entry's); Change::id is the store's edit.
    // `replaces`: the store's edit of the field that showed when it was made (none: the source's value).
    Change edit(const TeamEdit& edit, const QString& action, const QString& after, const QString& key,
        std::optional<qint64> replaces = std::nullopt);
    // Takes back the store's edit `id` (`before`: what the entry says was taken back).
    Change revertEdit(qint64 id, const QString& before, const QString& author, qint64 atMs, const QString& key);

    Changes changesSince(qint64 cursor);
    // How many entries the journal holds.
    qint64 journalSize();
    // The whole journal, in the chain's order.
    TeamJournalEntries journal();

private:
    Change call(const QString& sql, const QVariantList& values, const QString& place);

    PgConnection m_db;
    QString m_login;
    QString m_storeId;
    QString m_secret;
    Role m_role = Role::None;
};
