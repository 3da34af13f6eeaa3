#include "teamsync.h"

#include "../annotationstore.h"
#include "../journal.h"
#include "../sources/pgconnection.h"
#include "../workspace.h"
#include "teamstore.h"

#include <QDateTime>
#include <QHash>
#include <QSqlQuery>
#include <QUuid>
#include <QVariant>
#include <QVector>

namespace {

// The journal's actions a team shares, by the annotation kind they change.
const QStringList adds { QStringLiteral("note_added"), QStringLiteral("label_added"), QStringLiteral("marked") };
const QStringList removes { QStringLiteral("note_removed"), QStringLiteral("label_removed"), QStringLiteral("unmarked") };
const QString review = QStringLiteral("review");

Annotation::Kind kindOf(const QString& action)
{
    if (action.startsWith(QLatin1String("note")))
        return Annotation::Kind::Note;
    if (action.startsWith(QLatin1String("label")))
        return Annotation::Kind::Label;
    if (action == review)
        return Annotation::Kind::Review;
    return Annotation::Kind::Mark;
}

std::optional<qint64> optionalInt(const QVariant& v)
{
    return v.isNull() ? std::nullopt : std::optional<qint64>(v.toLongLong());
}

QString text(const QVariant& v)
{
    return v.isNull() ? QString() : v.toString();
}

// A saved journal entry still to go up, with where its room is in every copy of its source.
struct Outgoing
{
    qint64 id = 0;
    QString action;
    qint64 roomId = 0;
    std::optional<qint64> seq;
    QString before, after, author;
    qint64 atMs = 0;
    std::optional<qint64> annotationId;
    QString system, room;
    std::optional<qint64> teamAnnotationId;
};

// The annotation an entry made or took out, as this workspace holds it.
struct Local
{
    qint64 id = 0;
    QString fingerprint;
    std::optional<qint64> teamId;
};

std::optional<Local> localAnnotation(Workspace& ws, const Outgoing& e)
{
    QSqlQuery q;
    if (e.annotationId) {
        // Gone when a save deleted it (a removal's row, or an undone one): the entry still names its team id.
        q = ws.exec(QStringLiteral("SELECT id, fingerprint, team_id FROM annotations WHERE id = ?"), { *e.annotationId });
    } else {
        // An entry made before workspaces named its annotation: the one it describes, not sent yet first for an
        // addition, taken out first for a removal.
        const bool added = adds.contains(e.action) || (e.action == review && !e.after.isNull());
        const QString value = e.action == review ? (added ? e.after : e.before) : added ? e.after : e.before;
        q = ws.exec(QStringLiteral("SELECT id, fingerprint, team_id FROM annotations WHERE room_id = ? AND seq IS ? AND "
                                   "kind = ? AND value IS ? ORDER BY %1, id LIMIT 1")
                        .arg(added ? QStringLiteral("team_id IS NULL DESC") : QStringLiteral("present ASC")),
            { e.roomId, e.seq ? QVariant(*e.seq) : QVariant(), Annotation::kindName(kindOf(e.action)),
                value.isNull() ? QVariant() : QVariant(value) });
    }
    if (!q.next())
        return std::nullopt;
    return Local { q.value(0).toLongLong(), text(q.value(1)), optionalInt(q.value(2)) };
}

// The local annotation is the team's `teamId`. When another row here already is (it came down before this one
// went up: a label two reviewers gave), this one is the same fact twice and goes.
void link(Workspace& ws, qint64 roomId, qint64 localId, qint64 teamId)
{
    QSqlQuery twin = ws.exec(QStringLiteral("SELECT 1 FROM annotations WHERE room_id = ? AND team_id = ? AND id <> ?"),
        { roomId, teamId, localId });
    const bool known = twin.next();
    twin.finish();
    if (known)
        ws.exec(QStringLiteral("DELETE FROM annotations WHERE id = ?"), { localId });
    else
        ws.exec(QStringLiteral("UPDATE annotations SET team_id = ? WHERE id = ?"), { teamId, localId });
}

} // namespace

TeamSync::TeamSync(Workspace& workspace, TeamStore& team)
    : m_ws(workspace)
    , m_team(team)
{
}

std::optional<QString> TeamSync::attached(Workspace& workspace)
{
    QSqlQuery q = workspace.exec(QStringLiteral("SELECT uri FROM team WHERE attached = 1"));
    return q.next() ? std::optional<QString>(q.value(0).toString()) : std::nullopt;
}

void TeamSync::attach(Workspace& workspace, const QString& uri, const QString& storeId)
{
    const QString bare = PgConnection::withoutPassword(uri);
    workspace.writeTransaction([&] {
        QSqlQuery q = workspace.exec(QStringLiteral("SELECT uri, store, client FROM team"));
        const bool had = q.next();
        const QString uriBefore = had ? q.value(0).toString() : QString();
        const QString storeBefore = had ? q.value(1).toString() : QString();
        // The same client id whatever the store: a change sent again to a store restored from a backup that holds it
        // is known by its key.
        const QString client = had ? q.value(2).toString() : QUuid::createUuid().toString(QUuid::WithoutBraces);
        q.finish();
        // A store is known by its own id, whatever the URI's spelling (the user from PGUSER or in the URI, a host
        // name or its address); one not reached yet by its URI.
        const bool same = had
            && (storeId.isEmpty()           ? uriBefore == bare
                   : storeBefore.isEmpty() ? uriBefore == bare
                                           : storeBefore == storeId);
        if (same) {
            workspace.exec(QStringLiteral("UPDATE team SET attached = 1, uri = ?, store = coalesce(store, ?)"),
                { storeId.isEmpty() ? uriBefore : bare, storeId.isEmpty() ? QVariant() : QVariant(storeId) });
            return;
        }
        workspace.exec(QStringLiteral("DELETE FROM team"));
        workspace.exec(QStringLiteral("INSERT INTO team(id, uri, store, client) VALUES (1, ?, ?, ?)"),
            { bare, storeId.isEmpty() ? QVariant() : QVariant(storeId), client });
        // Another store: this workspace's own changes go up to it; what came down from the one before stays here, and
        // is never sent as if this reviewer had made it.
        workspace.exec(QStringLiteral("UPDATE annotations SET team_id = NULL WHERE team_id IS NOT NULL"));
        workspace.exec(QStringLiteral("UPDATE journal SET team_id = CASE WHEN came_down = 1 THEN 0 END, team_annotation_id "
                                      "= NULL WHERE team_id IS NOT NULL OR team_annotation_id IS NOT NULL"));
    });
}

void TeamSync::detach(Workspace& workspace)
{
    workspace.exec(QStringLiteral("UPDATE team SET attached = 0"));
}

int TeamSync::pending(Workspace& workspace)
{
    QSqlQuery q = workspace.exec(QStringLiteral("SELECT count(*) FROM journal WHERE team_id IS NULL AND saved = 1 AND "
                                                "present = 1 AND action IN ('note_added', 'label_added', 'marked', "
                                                "'note_removed', 'label_removed', 'unmarked', 'review')"));
    return q.next() ? q.value(0).toInt() : 0;
}

qint64 TeamSync::syncedAt(Workspace& workspace)
{
    QSqlQuery q = workspace.exec(QStringLiteral("SELECT synced_ms FROM team"));
    return q.next() ? q.value(0).toLongLong() : 0;
}

TeamSync::Result TeamSync::push()
{
    Result result;
    QSqlQuery c = m_ws.exec(QStringLiteral("SELECT client FROM team"));
    if (!c.next())
        return result;
    const QString client = c.value(0).toString();
    c.finish();
    QVector<Outgoing> outgoing;
    {
        QSqlQuery q = m_ws.exec(QStringLiteral(
            "SELECT j.id, j.action, j.room_id, j.seq, j.before, j.after, j.author, j.at_ms, j.annotation_id, s.system, "
            "r.native_id, j.team_annotation_id FROM journal j JOIN rooms r ON r.id = j.room_id JOIN sources s ON s.id = r.source_id WHERE "
            "j.team_id IS NULL AND j.saved = 1 AND j.present = 1 AND j.action IN ('note_added', 'label_added', "
            "'marked', 'note_removed', 'label_removed', 'unmarked', 'review') ORDER BY j.id"));
        while (q.next()) {
            outgoing.append({ q.value(0).toLongLong(), q.value(1).toString(), q.value(2).toLongLong(),
                optionalInt(q.value(3)), text(q.value(4)), text(q.value(5)), q.value(6).toString(),
                q.value(7).toLongLong(), optionalInt(q.value(8)), q.value(9).toString(), q.value(10).toString(),
                optionalInt(q.value(11)) });
        }
    }
    // An auditor's changes stay here: the team store would refuse them, and reading must not fail for it.
    if (m_team.role() == TeamStore::Role::Auditor) {
        result.heldBack = int(outgoing.size());
        return result;
    }
    for (const Outgoing& e : outgoing) {
        const std::optional<Local> local = localAnnotation(m_ws, e);
        const QString key = client + QLatin1Char(':') + QString::number(e.id);
        TeamStore::Change change;
        bool made = false; // the change made `local` (its team id is change.annotationId)
        if (adds.contains(e.action)) {
            const Annotation::Kind kind = kindOf(e.action);
            change = m_team.annotate(e.system, e.room, e.seq, local ? local->fingerprint : QString(), kind,
                kind == Annotation::Kind::Mark ? QString() : e.after, e.author, e.atMs, key);
            made = true;
        } else if (removes.contains(e.action)) {
            // Taken out before it ever went up: nothing of it is there to take out.
            const std::optional<qint64> teamId = e.teamAnnotationId ? e.teamAnnotationId : local ? local->teamId : std::nullopt;
            if (teamId && *teamId > 0)
                change = m_team.unannotate(*teamId, e.author, e.atMs, key);
        } else {
            change = m_team.setReview(e.system, e.room, e.after.isNull() ? ReviewStatus::Unreviewed : e.after, e.author,
                e.atMs, key);
            made = !e.after.isNull();
        }
        m_ws.writeTransaction([&] {
            if (made && local && change.annotationId > 0)
                link(m_ws, e.roomId, local->id, change.annotationId);
            // Its removal, made before this went up, takes out what this made there.
            if (made && e.annotationId && change.annotationId > 0)
                m_ws.exec(QStringLiteral("UPDATE journal SET team_annotation_id = ? WHERE annotation_id = ? AND id > ? AND "
                                         "team_annotation_id IS NULL"),
                    { change.annotationId, *e.annotationId, e.id });
            m_ws.exec(QStringLiteral("UPDATE journal SET team_id = ? WHERE id = ?"),
                { change.journalId.value_or(0), e.id });
        });
        ++result.sent;
    }
    return result;
}

int TeamSync::pull()
{
    QSqlQuery c = m_ws.exec(QStringLiteral("SELECT cursor FROM team"));
    if (!c.next())
        return 0;
    const qint64 cursor = c.value(0).toLongLong();
    c.finish();
    const TeamStore::Changes changes = m_team.changesSince(cursor);
    int taken = 0; // teammates' entries new here (this workspace's own come back already known)
    // A room is met by its system and own id: this workspace's copy of it, whatever path its source lies at.
    QHash<QString, QVector<qint64>> rooms;
    {
        QSqlQuery q = m_ws.exec(QStringLiteral("SELECT r.id, s.system, r.native_id FROM rooms r JOIN sources s ON s.id = "
                                               "r.source_id"));
        while (q.next())
            rooms[q.value(1).toString() + QLatin1Char('\x1f') + q.value(2).toString()].append(q.value(0).toLongLong());
    }
    auto here = [&](const QString& system, const QString& room) {
        return rooms.value(system + QLatin1Char('\x1f') + room);
    };
    m_ws.writeTransaction([&] {
        AnnotationStore store(m_ws);
        for (const TeamAnnotation& a : changes.annotations) {
            for (qint64 room : here(a.system, a.room))
                store.adopt(room, a);
        }
        Journal journal(m_ws);
        for (const TeamJournalEntry& e : changes.journal) {
            bool adopted = false;
            for (qint64 room : here(e.system, e.room))
                adopted = journal.adopt(room, e) || adopted;
            taken += adopted ? 1 : 0;
        }
        m_ws.exec(QStringLiteral("UPDATE team SET cursor = ?, synced_ms = ?"),
            { changes.cursor, QDateTime::currentMSecsSinceEpoch() });
    });
    return taken;
}

TeamSync::Result TeamSync::sync()
{
    Result result = push();
    result.taken = pull();
    return result;
}
