#include "teamsync.h"

#include "../annotationstore.h"
#include "../editstore.h"
#include "../journal.h"
#include "../redactionstore.h"
#include "../storeerror.h"
#include "../sources/pgconnection.h"
#include "../workspace.h"
#include "teamstore.h"

#include <QDateTime>
#include <QHash>
#include <QMap>
#include <QSqlQuery>
#include <QUuid>
#include <QVariant>
#include <QVector>

namespace {

// The journal's actions a team shares, by the annotation kind they change.
const QStringList adds { QStringLiteral("note_added"), QStringLiteral("label_added"), QStringLiteral("marked") };
const QStringList removes { QStringLiteral("note_removed"), QStringLiteral("label_removed"), QStringLiteral("unmarked") };
const QString review = QStringLiteral("review");
// Edits and pair fixes, and an edit taken back (the journal's actions for them).
const QStringList edited { QStringLiteral("text_edited"), QStringLiteral("arguments_edited"), QStringLiteral("result_edited"),
    QStringLiteral("outcome_changed"), QStringLiteral("linked"), QStringLiteral("unlinked") };
const QString editReverted = QStringLiteral("edit_reverted");
// The shared actions, as SQL: what push() sends and pending() counts.
const QString sharedActions = QStringLiteral(
    "(j.action IN ('note_added', 'label_added', 'marked', 'note_removed', 'label_removed', 'unmarked', 'review') OR "
    "(j.edit_id IS NOT NULL AND j.action IN ('text_edited', 'arguments_edited', 'result_edited', 'outcome_changed', "
    "'linked', 'unlinked', 'edit_reverted')))");

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
    std::optional<qint64> editId;
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

// Teammates' changes waiting in `table` (team_redactions, team_edits), those of `roomId` alone when given, in the
// order the store took them.
QSqlQuery waitingIn(Workspace& ws, const char* table, const char* columns, std::optional<qint64> roomId)
{
    QString sql = QStringLiteral("SELECT %1 FROM %2 w").arg(QLatin1String(columns), QLatin1String(table));
    QVariantList binds;
    if (roomId) {
        sql += QStringLiteral(" JOIN rooms r ON r.native_id = w.room AND r.id = ? JOIN sources s ON s.id = r.source_id AND "
                              "s.system = w.system");
        binds << *roomId;
    }
    return ws.exec(sql + QStringLiteral(" ORDER BY w.team_id"), binds);
}

// A copy of a room this workspace holds (one a source it read that room from), and whether it has read the row at the
// index a teammate's change is at.
struct Copy
{
    qint64 room = 0;
    bool read = false;
};

QVector<Copy> copiesOf(Workspace& ws, const QString& system, const QString& room, qint64 seq)
{
    QVector<Copy> out;
    QSqlQuery q = ws.exec(QStringLiteral("SELECT r.id, EXISTS (SELECT 1 FROM events e WHERE e.room_id = r.id AND e.seq = ?) "
                                         "FROM rooms r JOIN sources s ON s.id = r.source_id WHERE s.system = ? AND "
                                         "r.native_id = ?"),
        { seq, system, room });
    while (q.next())
        out.append({ q.value(0).toLongLong(), q.value(1).toBool() });
    return out;
}

// An edit, a pair fix or an edit taken back goes up; the entry and the edit here keep the store's ids.
void pushEdit(Workspace& ws, TeamStore& team, const Outgoing& e, const QString& key)
{
    TeamStore::Change change;
    if (e.action == editReverted) {
        // Its edit's id there, noted when it was taken back or when it went up (a save may have deleted the row);
        // taken back before it ever went up: nothing of it is there to take back.
        std::optional<qint64> teamId = e.teamAnnotationId;
        if (!teamId) {
            QSqlQuery t = ws.exec(QStringLiteral("SELECT team_id FROM edits WHERE id = ?"), { *e.editId });
            teamId = t.next() ? optionalInt(t.value(0)) : std::nullopt;
        }
        if (teamId && *teamId > 0)
            change = team.revertEdit(*teamId, e.before, e.author, e.atMs, key);
        ws.exec(QStringLiteral("UPDATE journal SET team_id = ? WHERE id = ?"), { change.journalId.value_or(0), e.id });
        return;
    }
    QSqlQuery q = ws.exec(QStringLiteral("SELECT x.seq, x.other_seq, x.field, x.value, (SELECT r.team_id FROM journal j JOIN "
                                         "edits r ON r.id = j.replaces_edit_id WHERE j.id = ?) FROM edits x WHERE x.id = ?"),
        { e.id, *e.editId });
    if (q.next()) {
        TeamEdit t;
        t.system = e.system;
        t.room = e.room;
        t.seq = q.value(0).toLongLong();
        t.otherSeq = optionalInt(q.value(1));
        t.field = q.value(2).toString();
        const bool pair = t.field == QLatin1String("link") || t.field == QLatin1String("unlink");
        // A pair fix goes as its indexes: every copy finds its calls there (their JSON is the source's).
        t.value = pair ? QString() : text(q.value(3));
        t.author = e.author;
        t.atMs = e.atMs;
        // The edit it went over, by its id there (it went up first, in the journal's order).
        const std::optional<qint64> replaces = optionalInt(q.value(4));
        q.finish();
        change = team.edit(t, e.action, pair ? e.after : t.value, key, replaces);
    }
    // What went up, noted here in one transaction (a kill before it: sent again under the same key, taken once).
    ws.writeTransaction([&] {
        if (change.id > 0) {
            ws.exec(QStringLiteral("UPDATE edits SET team_id = ? WHERE id = ?"), { change.id, *e.editId });
            // Taken back here since (not sent yet): that goes up as taking back this one.
            ws.exec(QStringLiteral("UPDATE journal SET team_annotation_id = ? WHERE edit_id = ? AND action = ? AND "
                                   "team_annotation_id IS NULL"),
                { change.id, *e.editId, editReverted });
        }
        ws.exec(QStringLiteral("UPDATE journal SET team_id = ? WHERE id = ?"), { change.journalId.value_or(0), e.id });
    });
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

void TeamSync::attach(Workspace& workspace, const QString& uri, const QString& storeId, const QString& secret)
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
        const QVariant key = secret.isEmpty() ? QVariant() : QVariant(secret);
        if (same) {
            workspace.exec(QStringLiteral("UPDATE team SET attached = 1, uri = ?, store = coalesce(store, ?), secret = "
                                          "coalesce(?, secret)"),
                { storeId.isEmpty() ? uriBefore : bare, storeId.isEmpty() ? QVariant() : QVariant(storeId), key });
            return;
        }
        workspace.exec(QStringLiteral("DELETE FROM team"));
        workspace.exec(QStringLiteral("INSERT INTO team(id, uri, store, client, secret) VALUES (1, ?, ?, ?, ?)"),
            { bare, storeId.isEmpty() ? QVariant() : QVariant(storeId), client, key });
        workspace.exec(QStringLiteral("DELETE FROM team_redactions"));
        // This workspace's own redactions go up to the new store; those that came from the one before stay cut here.
        workspace.exec(QStringLiteral("UPDATE redactions SET team_id = CASE WHEN came_down = 1 THEN 0 END WHERE team_id "
                                      "IS NOT NULL"));
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
    QSqlQuery q = workspace.exec(QStringLiteral("SELECT (SELECT count(*) FROM journal j WHERE j.team_id IS NULL AND j.saved = 1 "
                                                "AND j.present = 1 AND %1) + (SELECT count(*) FROM redactions WHERE team_id IS "
                                                "NULL AND saved = 1 AND present = 1 AND path <> '@note')")
                                     .arg(sharedActions));
    return q.next() ? q.value(0).toInt() : 0;
}

QString TeamSync::client(Workspace& workspace)
{
    QSqlQuery q = workspace.exec(QStringLiteral("SELECT client FROM team"));
    return q.next() ? q.value(0).toString() : QString();
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
            "r.native_id, j.team_annotation_id, j.edit_id FROM journal j JOIN rooms r ON r.id = j.room_id JOIN sources s ON "
            "s.id = r.source_id WHERE j.team_id IS NULL AND j.saved = 1 AND j.present = 1 AND %1 ORDER BY j.id")
                                    .arg(sharedActions));
        while (q.next()) {
            outgoing.append({ q.value(0).toLongLong(), q.value(1).toString(), q.value(2).toLongLong(),
                optionalInt(q.value(3)), text(q.value(4)), text(q.value(5)), q.value(6).toString(),
                q.value(7).toLongLong(), optionalInt(q.value(8)), q.value(9).toString(), q.value(10).toString(),
                optionalInt(q.value(11)), optionalInt(q.value(12)) });
        }
    }
    // An auditor's changes stay here: the team store would refuse them, and reading must not fail for it.
    if (m_team.role() == TeamStore::Role::Auditor) {
        result.heldBack = int(outgoing.size());
        return result;
    }
    for (const Outgoing& e : outgoing) {
        const QString key = client + QLatin1Char(':') + QString::number(e.id);
        if (e.editId) {
            pushEdit(m_ws, m_team, e, key);
            ++result.sent;
            continue;
        }
        const std::optional<Local> local = localAnnotation(m_ws, e);
        TeamStore::Change change;
        bool made = false; // the change made `local` (its team id is change.id)
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
            change = m_team.setReview(e.system, e.room, e.before, e.after.isNull() ? ReviewStatus::Unreviewed : e.after,
                e.author, e.atMs, key);
            made = !e.after.isNull();
        }
        m_ws.writeTransaction([&] {
            if (made && local && change.id > 0)
                link(m_ws, e.roomId, local->id, change.id);
            // Its removal, made before this went up, takes out what this made there.
            if (made && e.annotationId && change.id > 0)
                m_ws.exec(QStringLiteral("UPDATE journal SET team_annotation_id = ? WHERE annotation_id = ? AND id > ? AND "
                                         "team_annotation_id IS NULL"),
                    { change.id, *e.annotationId, e.id });
            m_ws.exec(QStringLiteral("UPDATE journal SET team_id = ? WHERE id = ?"),
                { change.journalId.value_or(0), e.id });
        });
        ++result.sent;
    }
    result.sent += pushRedactions(client);
    return result;
}

int TeamSync::pushRedactions(const QString& client)
{
    struct Outgoing
    {
        qint64 id;
        qint64 roomId;
        QString localDigest;
        TeamRedaction r;
    };
    QVector<Outgoing> outgoing;
    {
        // A note's redaction stays here: the note's text is in the store's journal, which nothing rewrites.
        QSqlQuery q = m_ws.exec(QStringLiteral(
            "SELECT x.id, x.room_id, x.digest, s.system, r.native_id, x.seq, x.path, x.part, x.start, x.length, "
            "x.team_digest, x.reason, x.author, x.at_ms FROM redactions x JOIN rooms r ON r.id = x.room_id JOIN sources s "
            "ON s.id = r.source_id WHERE x.team_id IS NULL AND x.saved = 1 AND x.present = 1 AND x.path <> '@note' "
            "ORDER BY x.id"));
        while (q.next()) {
            outgoing.append({ q.value(0).toLongLong(), q.value(1).toLongLong(), q.value(2).toString(),
                { 0, q.value(3).toString(), q.value(4).toString(), q.value(5).toLongLong(), q.value(6).toString(),
                    q.value(7).toInt(), q.value(8).toLongLong(), q.value(9).toLongLong(), text(q.value(10)),
                    q.value(11).toString(), q.value(12).toString(), q.value(13).toLongLong() } });
        }
    }
    for (const Outgoing& o : outgoing) {
        // Its entry here, by the digest it names: what it says stands there now goes up with it, and it is not
        // brought down again as a teammate's.
        QSqlQuery entry = m_ws.exec(QStringLiteral("SELECT id, after FROM journal WHERE action = 'redacted' AND room_id = ? AND "
                                                   "seq = ? AND team_id IS NULL AND before LIKE ? ORDER BY id LIMIT 1"),
            { o.roomId, o.r.seq, QStringLiteral("hmac-sha256:%1 %").arg(o.localDigest) });
        const bool journaled = entry.next();
        const qint64 entryId = journaled ? entry.value(0).toLongLong() : 0;
        const QString placed = journaled ? entry.value(1).toString() : QString();
        entry.finish();
        const TeamStore::Change change
            = m_team.redact(o.r, placed, client + QStringLiteral(":r") + QString::number(o.id));
        m_ws.writeTransaction([&] {
            m_ws.exec(QStringLiteral("UPDATE redactions SET team_id = ? WHERE id = ?"), { change.id, o.id });
            if (journaled)
                m_ws.exec(QStringLiteral("UPDATE journal SET team_id = ? WHERE id = ?"), { change.journalId.value_or(0), entryId });
        });
    }
    return int(outgoing.size());
}

bool TeamSync::applyRedaction(Workspace& ws, const TeamRedaction& t, qint64 roomId, EditSteps& steps, QString* problem)
{
    // Cut here already (this reviewer redacted the same text before it came): done.
    if (!t.digest.isEmpty()) {
        QSqlQuery same = ws.exec(QStringLiteral("SELECT 1 FROM redactions WHERE room_id = ? AND seq = ? AND path = ? AND "
                                                "team_digest = ? AND present = 1"),
            { roomId, t.seq, t.path, t.digest });
        if (same.next())
            return true;
    }
    try {
        ws.writeTransaction([&] {
            const Redaction r = RedactionStore(ws).redact(roomId, t.seq, t.path, t.start, t.length, t.reason, t.author,
                RedactionStore::Part(t.part));
            QSqlQuery cut = ws.exec(QStringLiteral("SELECT team_digest FROM redactions WHERE id = ?"), { r.id });
            const QString here = cut.next() ? cut.value(0).toString() : QString();
            cut.finish();
            // Another text there (a copy of another source under the same room id, a rotated log): not cut.
            if (!t.digest.isEmpty() && here != t.digest)
                throw StoreError(ws.path(), {}, QStringLiteral("the text there is not the one the teammate redacted"));
            ws.exec(QStringLiteral("UPDATE redactions SET team_id = ?, came_down = 1, at_ms = ? WHERE id = ?"),
                { t.id, t.atMs, r.id });
            steps.append({ EditStep::Redactions, r.id, true });
        });
        return true;
    } catch (const StoreError& e) {
        *problem = QStringLiteral("room %1, index %2: %3").arg(t.room).arg(t.seq).arg(e.message());
        return false;
    }
}

int TeamSync::pull(QStringList* unapplied, bool* cut)
{
    QSqlQuery c = m_ws.exec(QStringLiteral("SELECT cursor FROM team"));
    if (!c.next())
        return 0;
    const qint64 cursor = c.value(0).toLongLong();
    c.finish();
    const TeamStore::Changes changes = m_team.changesSince(cursor);
    int taken = 0; // teammates' entries new here (this workspace's own come back already known)
    bool redacted = false; // teammates' redactions applied here, saved with the catch-up
    bool edits = false; // teammates' edits applied or taken back here
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
        // Teammates' redactions wait in team_redactions until applied, in the order made: the new ones, then every one
        // not applied before (its room read since).
        for (const TeamRedaction& t : changes.redactions) {
            QSqlQuery mine = m_ws.exec(QStringLiteral("SELECT 1 FROM redactions WHERE team_id = ?"), { t.id });
            const bool known = mine.next();
            mine.finish();
            if (!known) {
                m_ws.exec(QStringLiteral("INSERT OR IGNORE INTO team_redactions(team_id, system, room, seq, path, part, start, "
                                         "length, digest, reason, author, at_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"),
                    { t.id, t.system, t.room, t.seq, t.path, t.part, t.start, t.length,
                        t.digest.isEmpty() ? QVariant() : QVariant(t.digest), t.reason, t.author, t.atMs });
            }
        }
        // Teammates' edits: one known here taken back (or put back), a new one waiting until applied (now, for a room
        // read here; as it is read, for one not read yet).
        for (const TeamEdit& t : changes.edits) {
            QSqlQuery mine = m_ws.exec(QStringLiteral("SELECT id, present FROM edits WHERE team_id = ?"), { t.id });
            if (mine.next()) {
                const qint64 local = mine.value(0).toLongLong();
                const bool present = mine.value(1).toBool();
                mine.finish();
                if (present != t.present) {
                    try {
                        EditStore(m_ws).apply(local, t.present);
                        m_ws.exec(QStringLiteral("UPDATE edits SET present = ? WHERE id = ?"), { t.present ? 1 : 0, local });
                        edits = true;
                    } catch (const StoreError& e) {
                        if (unapplied)
                            unapplied->append(QStringLiteral("room %1, index %2: %3").arg(t.room).arg(t.seq).arg(e.message()));
                    }
                }
                continue;
            }
            mine.finish();
            if (!t.present) {
                m_ws.exec(QStringLiteral("DELETE FROM team_edits WHERE team_id = ?"), { t.id });
                continue;
            }
            m_ws.exec(QStringLiteral("INSERT OR REPLACE INTO team_edits(team_id, system, room, seq, other_seq, field, value, "
                                     "author, at_ms, present) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1)"),
                { t.id, t.system, t.room, t.seq, t.otherSeq ? QVariant(*t.otherSeq) : QVariant(), t.field,
                    t.value.isNull() ? QVariant() : QVariant(t.value), t.author, t.atMs });
        }
        redacted = applyWaiting(m_ws, std::nullopt, unapplied, &edits);
        m_ws.exec(QStringLiteral("UPDATE team SET cursor = ?, synced_ms = ?"),
            { changes.cursor, QDateTime::currentMSecsSinceEpoch() });
    });
    // After the commit: the index and the log let go of what was cut, so no byte of it stays in the files.
    if (redacted)
        RedactionStore(m_ws).forget();
    if (cut)
        *cut = redacted || edits;
    return taken;
}

bool TeamSync::applyWaiting(Workspace& ws, std::optional<qint64> roomId, QStringList* unapplied, bool* edited)
{
    const bool anyEdit = applyWaitingEdits(ws, roomId, unapplied);
    if (edited)
        *edited = *edited || anyEdit;
    TeamRedactions waiting;
    {
        QSqlQuery q = waitingIn(ws, "team_redactions",
            "w.team_id, w.system, w.room, w.seq, w.path, w.part, w.start, w.length, w.digest, w.reason, w.author, w.at_ms",
            roomId);
        while (q.next()) {
            waiting.append({ q.value(0).toLongLong(), q.value(1).toString(), q.value(2).toString(), q.value(3).toLongLong(),
                q.value(4).toString(), q.value(5).toInt(), q.value(6).toLongLong(), q.value(7).toLongLong(),
                text(q.value(8)), q.value(9).toString(), q.value(10).toString(), q.value(11).toLongLong() });
        }
    }
    if (waiting.isEmpty())
        return false;
    EditSteps cut;
    QMap<QString, int> unread; // rooms whose rows are not read here yet: their redactions wait, one line a room
    ws.writeTransaction([&] {
        for (const TeamRedaction& t : waiting) {
            const QVector<Copy> copies = copiesOf(ws, t.system, t.room, t.seq);
            bool applied = !copies.isEmpty();
            bool notRead = false;
            QString problem = QStringLiteral("room %1: not in this workspace").arg(t.room);
            for (const Copy& copy : copies) {
                const qint64 room = copy.room; // (a variable: clang's lambdas do not capture a structured binding)
                if (!copy.read) {
                    notRead = true;
                    applied = false;
                    continue;
                }
                applied = applyRedaction(ws, t, room, cut, &problem) && applied;
            }
            if (applied)
                ws.exec(QStringLiteral("DELETE FROM team_redactions WHERE team_id = ?"), { t.id });
            else if (notRead)
                ++unread[t.room];
            else if (unapplied)
                unapplied->append(problem);
        }
        AnnotationStore(ws).markSaved(cut);
    });
    if (unapplied) {
        for (auto it = unread.cbegin(); it != unread.cend(); ++it) {
            unapplied->append(QStringLiteral("room %1 is not read here yet: %2 %3 as it is read")
                                  .arg(it.key())
                                  .arg(it.value())
                                  .arg(it.value() == 1 ? QStringLiteral("redaction waits, cut") : QStringLiteral("redactions wait, cut")));
        }
    }
    return !cut.isEmpty();
}

bool TeamSync::applyWaitingEdits(Workspace& ws, std::optional<qint64> roomId, QStringList* unapplied)
{
    TeamEdits waiting;
    {
        QSqlQuery q = waitingIn(ws, "team_edits",
            "w.team_id, w.system, w.room, w.seq, w.other_seq, w.field, w.value, w.author, w.at_ms", roomId);
        while (q.next()) {
            waiting.append({ q.value(0).toLongLong(), q.value(1).toString(), q.value(2).toString(), q.value(3).toLongLong(),
                optionalInt(q.value(4)), q.value(5).toString(), text(q.value(6)), q.value(7).toString(),
                q.value(8).toLongLong(), true });
        }
    }
    if (waiting.isEmpty())
        return false;
    bool any = false;
    ws.writeTransaction([&] {
        for (const TeamEdit& t : waiting) {
            const QVector<Copy> copies = copiesOf(ws, t.system, t.room, t.seq);
            bool applied = !copies.isEmpty();
            bool notRead = false;
            QString problem = QStringLiteral("room %1: not in this workspace").arg(t.room);
            for (const Copy& copy : copies) {
                const qint64 room = copy.room; // (a variable: clang's lambdas do not capture a structured binding)
                if (!copy.read) {
                    notRead = true;
                    applied = false;
                    continue;
                }
                // In a savepoint of its own: one that cannot be made here (another text there, calls paired
                // otherwise) leaves the rest.
                try {
                    ws.writeTransaction([&] {
                        EditStore edits(ws);
                        const std::optional<Edit::Field> field = Edit::fieldFromName(t.field);
                        std::optional<Edit> made;
                        if (field == Edit::Field::Text)
                            made = edits.editText(room, t.seq, t.value, t.author);
                        else if (field == Edit::Field::Arguments || field == Edit::Field::Result)
                            made = edits.editCall(room, t.seq, *field, t.value, t.author);
                        else if (field == Edit::Field::Outcome)
                            made = edits.setOutcome(room, t.seq, t.value, t.author);
                        else if (field == Edit::Field::Link && t.otherSeq)
                            made = edits.link(room, t.seq, *t.otherSeq, t.author);
                        else if (field == Edit::Field::Unlink)
                            made = edits.unlink(room, t.seq, t.author);
                        else
                            throw StoreError(ws.path(), {}, QStringLiteral("an edit of a kind this Sightline does not know (%1)").arg(t.field));
                        // The same value there already (this copy made it too): nothing to add, done.
                        if (made) {
                            ws.exec(QStringLiteral("UPDATE edits SET team_id = ?, came_down = 1, saved = 1, at_ms = ? WHERE id = ?"),
                                { t.id, t.atMs, made->id });
                            // Shown by the team's order now that it has its place in it: an edit made here that went
                            // up after this one stays what shows.
                            if (!made->isPair())
                                edits.apply(made->id, true);
                            any = true;
                        }
                    });
                } catch (const StoreError& e) {
                    applied = false;
                    problem = QStringLiteral("room %1, index %2: %3's edit: %4").arg(t.room).arg(t.seq).arg(t.author, e.message());
                }
            }
            if (applied)
                ws.exec(QStringLiteral("DELETE FROM team_edits WHERE team_id = ?"), { t.id });
            else if (!notRead && unapplied)
                unapplied->append(problem);
        }
    });
    // A room not read here yet makes its waiting edits as it is read (ImportWriter): nothing shows them meanwhile, and
    // nothing is said (unlike a redaction, whose text is still here).
    return any;
}

TeamSync::Result TeamSync::sync()
{
    Result result = push();
    result.taken = pull(&result.unapplied, &result.cut);
    return result;
}
