#include "teamstore.h"

#include "teamschema.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlDriver>
#include <QSqlError>
#include <QSqlQuery>

namespace {

QVariant orNull(const QString& s)
{
    return s.isNull() ? QVariant(QMetaType(QMetaType::QString)) : QVariant(s);
}

QVariant orNull(const std::optional<qint64>& v)
{
    return v ? QVariant(*v) : QVariant(QMetaType(QMetaType::LongLong));
}

std::optional<qint64> optionalInt(const QVariant& v)
{
    return v.isNull() ? std::nullopt : std::optional<qint64>(v.toLongLong());
}

// A text column, null kept null (a note's "" is not a mark's nothing).
QString text(const QVariant& v)
{
    return v.isNull() ? QString() : v.toString();
}

} // namespace

TeamStore::TeamStore(const QString& uri)
    : m_db(uri, nullptr, PgConnection::Access::ReadWrite)
{
    const auto noStore = [&] {
        return StoreError(m_db.origin(), {},
            QStringLiteral("this database holds no team store: an admin makes one with `sightline team init %1`")
                .arg(m_db.origin()));
    };
    // The role first: a login that is none of the team's may not even look into its schema.
    if (m_db.count(QStringLiteral("SELECT count(*) FROM pg_roles WHERE rolname IN ('sightline_reviewer', "
                                  "'sightline_auditor', 'sightline_admin')"))
        < 3)
        throw noStore();
    QSqlQuery q = m_db.select(QStringLiteral(
        "SELECT session_user, pg_has_role(session_user, 'sightline_admin', 'MEMBER'), "
        "pg_has_role(session_user, 'sightline_reviewer', 'MEMBER'), pg_has_role(session_user, 'sightline_auditor', "
        "'MEMBER')"));
    q.next();
    m_login = q.value(0).toString();
    m_role = q.value(1).toBool() ? Role::Admin
        : q.value(2).toBool()    ? Role::Reviewer
        : q.value(3).toBool()    ? Role::Auditor
                                 : Role::None;
    if (m_role == Role::None) {
        throw StoreError(m_db.origin(), {},
            QStringLiteral("role %1 is none of this team's (sightline_reviewer, sightline_auditor, sightline_admin): an "
                           "admin grants one with GRANT sightline_reviewer TO %1")
                .arg(m_login));
    }
    const int step = TeamSchema::step(m_db);
    if (step == 0)
        throw noStore();
    // A client of another schema would write what the store does not keep, or miss what it does.
    if (step != TeamSchema::latestStep()) {
        throw StoreError(m_db.origin(), {},
            step < TeamSchema::latestStep()
                ? QStringLiteral("the team store is at schema step %1 and this Sightline needs step %2: an admin upgrades "
                                 "it with `sightline team init %3`")
                      .arg(step)
                      .arg(TeamSchema::latestStep())
                      .arg(m_db.origin())
                : QStringLiteral("the team store is at schema step %1, from a newer Sightline (this one knows up to %2)")
                      .arg(step)
                      .arg(TeamSchema::latestStep()));
    }
    QSqlQuery id = m_db.select(QStringLiteral("SELECT id, secret FROM sightline.store"));
    if (id.next()) {
        m_storeId = id.value(0).toString();
        m_secret = id.value(1).toString();
    }
}

QString TeamStore::roleName(Role role)
{
    switch (role) {
    case Role::Admin:
        return QStringLiteral("admin");
    case Role::Reviewer:
        return QStringLiteral("reviewer");
    case Role::Auditor:
        return QStringLiteral("auditor");
    case Role::None:
        break;
    }
    return QStringLiteral("none");
}

void TeamStore::requireWriter() const
{
    if (m_role == Role::Reviewer || m_role == Role::Admin)
        return;
    throw StoreError(m_db.origin(), {},
        QStringLiteral("role %1 is an auditor of this team (sightline_auditor): it reads, exports and verifies, and "
                       "changes nothing; nothing was written")
            .arg(m_login));
}

TeamStore::Change TeamStore::call(const QString& sql, const QVariantList& values, const QString& place)
{
    QSqlQuery q = m_db.select(sql, values, place);
    Change change;
    if (q.next()) {
        change.id = q.value(0).toLongLong();
        change.journalId = optionalInt(q.value(1));
    }
    return change;
}

TeamStore::Change TeamStore::annotate(const QString& system, const QString& room, std::optional<qint64> seq,
    const QString& fingerprint, Annotation::Kind kind, const QString& value, const QString& author, qint64 atMs,
    const QString& key)
{
    return call(QStringLiteral("SELECT annotation_id, journal_id FROM sightline.annotate(?, ?, ?, ?, ?, ?, ?, ?, ?)"),
        { system, room, orNull(seq), orNull(fingerprint), Annotation::kindName(kind), orNull(value), author, atMs, key },
        QStringLiteral("room %1").arg(room));
}

TeamStore::Change TeamStore::unannotate(qint64 annotationId, const QString& author, qint64 atMs, const QString& key)
{
    return call(QStringLiteral("SELECT annotation_id, journal_id FROM sightline.unannotate(?, ?, ?, ?)"),
        { annotationId, author, atMs, key }, QStringLiteral("annotation %1").arg(annotationId));
}

TeamStore::Change TeamStore::setReview(const QString& system, const QString& room, const QString& before,
    const QString& status, const QString& author, qint64 atMs, const QString& key)
{
    return call(QStringLiteral("SELECT annotation_id, journal_id FROM sightline.change_review(?, ?, ?, ?, ?, ?, ?)"),
        { system, room, before.isEmpty() ? ReviewStatus::Unreviewed : before, status, author, atMs, key },
        QStringLiteral("room %1").arg(room));
}

void TeamStore::settle(qint64 id, const QString& status, const QString& author, const QString& key)
{
    m_db.select(QStringLiteral("SELECT sightline.settle(?, ?, ?, ?, ?)"),
        { id, status, author, QDateTime::currentMSecsSinceEpoch(), key }, QStringLiteral("conflict %1").arg(id));
}

TeamConflicts TeamStore::conflicts()
{
    TeamConflicts out;
    QSqlQuery q = m_db.select(QStringLiteral("SELECT c.id, r.system, r.native_id, c.field, c.theirs, c.theirs_author, "
                                             "c.theirs_at_ms, c.mine, c.mine_author, c.mine_login, c.mine_at_ms, c.seq FROM "
                                             "sightline.conflicts c JOIN sightline.rooms r ON r.id = c.room_id WHERE "
                                             "c.resolved_ms IS NULL ORDER BY c.id"),
        {}, QStringLiteral("the conflicts"));
    while (q.next()) {
        out.append({ q.value(0).toLongLong(), q.value(1).toString(), q.value(2).toString(), q.value(3).toString(),
            q.value(4).toString(), q.value(5).toString(), q.value(6).toLongLong(), q.value(7).toString(),
            q.value(8).toString(), q.value(9).toString(), q.value(10).toLongLong(), optionalInt(q.value(11)) });
    }
    return out;
}

TeamStore::Change TeamStore::redact(const TeamRedaction& r, const QString& placed, const QString& key)
{
    return call(QStringLiteral("SELECT redaction_id, journal_id FROM sightline.redact(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"),
        { r.system, r.room, r.seq, r.path, r.part, r.start, r.length, orNull(r.digest), r.reason, orNull(placed), r.author,
            r.atMs, key },
        QStringLiteral("room %1, event %2").arg(r.room).arg(r.seq));
}

TeamStore::Change TeamStore::edit(const TeamEdit& e, const QString& action, const QString& after, const QString& key,
    std::optional<qint64> replaces)
{
    return call(QStringLiteral("SELECT edit_id, journal_id FROM sightline.edit(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"),
        { e.system, e.room, e.seq, orNull(e.otherSeq), e.field, orNull(e.value), action, orNull(after), e.author, e.atMs, key,
            orNull(replaces) },
        QStringLiteral("room %1, event %2").arg(e.room).arg(e.seq));
}

TeamStore::Change TeamStore::revertEdit(qint64 id, const QString& before, const QString& author, qint64 atMs, const QString& key)
{
    return call(QStringLiteral("SELECT edit_id, journal_id FROM sightline.revert_edit(?, ?, ?, ?, ?)"),
        { id, orNull(before), author, atMs, key }, QStringLiteral("edit %1").arg(id));
}

namespace {
const char* const journalColumns
    = "j.id, j.at_ms, j.recorded_ms, j.author, j.login, j.action, r.system, r.native_id, j.seq, j.before, j.after, "
      "j.prev_hash, j.hash FROM sightline.journal j JOIN sightline.rooms r ON r.id = j.room_id";

TeamJournalEntry entryOf(const QSqlQuery& q)
{
    TeamJournalEntry e;
    e.id = q.value(0).toLongLong();
    e.atMs = q.value(1).toLongLong();
    e.recordedMs = q.value(2).toLongLong();
    e.author = q.value(3).toString();
    e.login = q.value(4).toString();
    e.action = q.value(5).toString();
    e.system = q.value(6).toString();
    e.room = q.value(7).toString();
    e.seq = optionalInt(q.value(8));
    e.before = text(q.value(9));
    e.after = text(q.value(10));
    e.prevHash = q.value(11).toString();
    e.hash = q.value(12).toString();
    return e;
}
} // namespace

TeamStore::Changes TeamStore::changesSince(qint64 cursor)
{
    Changes changes;
    changes.cursor = cursor;
    QSqlDatabase& db = m_db.database();
    // One snapshot for both reads: the annotations and the entries that changed them agree.
    if (!db.transaction())
        m_db.fail(db.lastError(), QStringLiteral("catching up"));
    try {
        QSqlQuery iso(db);
        if (!iso.exec(QStringLiteral("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")))
            m_db.fail(iso.lastError(), QStringLiteral("catching up"));
        QSqlQuery j = m_db.select(QStringLiteral("SELECT ") + QLatin1String(journalColumns)
                + QStringLiteral(" WHERE j.id > ? ORDER BY j.id"),
            { cursor }, QStringLiteral("the journal after entry %1").arg(cursor));
        while (j.next()) {
            changes.journal.append(entryOf(j));
            changes.cursor = changes.journal.last().id;
        }
        QSqlQuery a = m_db.select(
            QStringLiteral("SELECT a.id, r.system, r.native_id, a.seq, a.fingerprint, a.kind, a.value, a.author, "
                           "a.login, a.at_ms, a.present, a.version FROM sightline.annotations a JOIN sightline.rooms r "
                           "ON r.id = a.room_id WHERE a.version > ? ORDER BY a.version, a.id"),
            { cursor }, QStringLiteral("the annotations after entry %1").arg(cursor));
        while (a.next()) {
            TeamAnnotation t;
            t.id = a.value(0).toLongLong();
            t.system = a.value(1).toString();
            t.room = a.value(2).toString();
            t.seq = optionalInt(a.value(3));
            t.fingerprint = text(a.value(4));
            t.kind = Annotation::kindFromName(a.value(5).toString()).value_or(Annotation::Kind::Note);
            t.value = text(a.value(6));
            t.author = a.value(7).toString();
            t.login = a.value(8).toString();
            t.atMs = a.value(9).toLongLong();
            t.present = a.value(10).toBool();
            t.version = a.value(11).toLongLong();
            changes.annotations.append(t);
        }
        QSqlQuery x = m_db.select(
            QStringLiteral("SELECT x.id, r.system, r.native_id, x.seq, x.path, x.part, x.start, x.length, x.digest, x.reason, "
                           "x.author, x.at_ms FROM sightline.redactions x JOIN sightline.rooms r ON r.id = x.room_id WHERE "
                           "x.version > ? ORDER BY x.version, x.id"),
            { cursor }, QStringLiteral("the redactions after entry %1").arg(cursor));
        while (x.next()) {
            changes.redactions.append({ x.value(0).toLongLong(), x.value(1).toString(), x.value(2).toString(),
                x.value(3).toLongLong(), x.value(4).toString(), x.value(5).toInt(), x.value(6).toLongLong(),
                x.value(7).toLongLong(), text(x.value(8)), x.value(9).toString(), x.value(10).toString(),
                x.value(11).toLongLong() });
        }
        QSqlQuery e = m_db.select(
            QStringLiteral("SELECT x.id, r.system, r.native_id, x.seq, x.other_seq, x.field, x.value, x.author, x.at_ms, "
                           "x.present FROM sightline.edits x JOIN sightline.rooms r ON r.id = x.room_id WHERE x.version > ? "
                           "ORDER BY x.version, x.id"),
            { cursor }, QStringLiteral("the edits after entry %1").arg(cursor));
        while (e.next()) {
            changes.edits.append({ e.value(0).toLongLong(), e.value(1).toString(), e.value(2).toString(), e.value(3).toLongLong(),
                optionalInt(e.value(4)), e.value(5).toString(), text(e.value(6)), e.value(7).toString(), e.value(8).toLongLong(),
                e.value(9).toBool() });
        }
        db.commit();
    } catch (...) {
        db.rollback();
        throw;
    }
    return changes;
}

qint64 TeamStore::journalSize()
{
    return m_db.count(QStringLiteral("SELECT count(*) FROM sightline.journal"), {}, QStringLiteral("the journal"));
}

TeamJournalEntries TeamStore::journal()
{
    TeamJournalEntries entries;
    QSqlQuery j = m_db.select(QStringLiteral("SELECT ") + QLatin1String(journalColumns) + QStringLiteral(" ORDER BY j.id"),
        {}, QStringLiteral("the journal"));
    while (j.next())
        entries.append(entryOf(j));
    return entries;
}

void TeamStore::createQueue(const TeamQueue& queue, const QVector<std::pair<QString, QString>>& rooms)
{
    // Said here in the team's words; the server refuses all the same (EXECUTE is the admin role's alone).
    if (m_role != Role::Admin) {
        throw StoreError(m_db.origin(), QStringLiteral("queue \"%1\"").arg(queue.name),
            QStringLiteral("role %1 is %2 of this team: queues are made by an admin (sightline_admin, which an admin "
                           "grants with GRANT sightline_admin TO %1); nothing was written")
                .arg(m_login, m_role == Role::Auditor ? QStringLiteral("an auditor") : QStringLiteral("a reviewer")));
    }
    QJsonArray reviewers, pairs;
    for (const QString& login : queue.reviewers)
        reviewers.append(login);
    for (const auto& [system, room] : rooms)
        pairs.append(QJsonArray { system, room });
    m_db.select(QStringLiteral("SELECT sightline.create_queue(?, ?, ?, ?, ?, ?)"),
        { queue.name, queue.query.isNull() ? QStringLiteral("") : queue.query,
            queue.instructions.isNull() ? QStringLiteral("") : queue.instructions, queue.lockSeconds,
            QString::fromUtf8(QJsonDocument(reviewers).toJson(QJsonDocument::Compact)),
            QString::fromUtf8(QJsonDocument(pairs).toJson(QJsonDocument::Compact)) },
        QStringLiteral("queue \"%1\"").arg(queue.name));
}

namespace {
// The server's clock, as the locks are kept by it: a client's clock set wrong frees no lock early.
const char* const serverNowMs = "(extract(epoch FROM clock_timestamp()) * 1000)::bigint";
// A queue item's room's review status as the team has it (beside `i`).
const char* const reviewOfItem = "SELECT a.value, a.author, a.login, a.at_ms FROM sightline.annotations a WHERE a.room_id = "
                                 "i.room_id AND a.seq IS NULL AND a.kind = 'review' AND a.present ORDER BY a.id DESC LIMIT 1";
} // namespace

TeamQueues TeamStore::queues()
{
    TeamQueues out;
    QSqlQuery q = m_db.select(QStringLiteral(
        "SELECT q.id, q.name, q.query, q.instructions, q.lock_seconds, q.created_by, q.created_ms, "
        "(SELECT coalesce(json_agg(r.login ORDER BY r.login), '[]')::text FROM sightline.queue_reviewers r WHERE "
        "r.queue_id = q.id), (SELECT count(*) FROM sightline.queue_items i WHERE i.queue_id = q.id) FROM "
        "sightline.queues q ORDER BY q.name"),
        {}, QStringLiteral("the queues"));
    QMap<qint64, int> byId;
    while (q.next()) {
        TeamQueue t;
        t.name = q.value(1).toString();
        t.query = q.value(2).toString();
        t.instructions = q.value(3).toString();
        t.lockSeconds = q.value(4).toInt();
        t.createdBy = q.value(5).toString();
        t.createdMs = q.value(6).toLongLong();
        for (const QJsonValue& login : QJsonDocument::fromJson(q.value(7).toString().toUtf8()).array())
            t.reviewers << login.toString();
        t.rooms = q.value(8).toInt();
        byId.insert(q.value(0).toLongLong(), int(out.size()));
        out.append(t);
    }
    // Who finished what and who holds what now, a row a queue and login. A room reviewed done outside the queue is
    // done, by whoever set it.
    QSqlQuery p = m_db.select(QStringLiteral("SELECT i.queue_id, CASE WHEN i.done_ms IS NOT NULL THEN i.done_by WHEN "
                                             "rv.value = 'done' THEN rv.login ELSE i.locked_by END, (i.done_ms IS NOT NULL OR "
                                             "rv.value = 'done'), count(*) FROM sightline.queue_items i LEFT JOIN LATERAL "
                                             "(%2) rv ON true WHERE i.done_ms IS NOT NULL OR rv.value = 'done' OR "
                                             "i.locked_until_ms > %1 GROUP BY 1, 2, 3")
                                  .arg(QLatin1String(serverNowMs), QLatin1String(reviewOfItem)),
        {}, QStringLiteral("the queues' progress"));
    while (p.next()) {
        const auto at = byId.constFind(p.value(0).toLongLong());
        if (at == byId.constEnd())
            continue;
        TeamQueue& t = out[*at];
        TeamQueue::Share& share = t.byReviewer[p.value(1).toString()];
        const int n = p.value(3).toInt();
        if (p.value(2).toBool()) {
            share.done += n;
            t.done += n;
        } else {
            share.inReview += n;
            t.inReview += n;
        }
    }
    return out;
}

TeamQueueRooms TeamStore::queueRooms(const QString& name)
{
    if (m_db.count(QStringLiteral("SELECT count(*) FROM sightline.queues WHERE name = ?"), { name }) == 0) {
        throw StoreError(m_db.origin(), QStringLiteral("queue \"%1\"").arg(name),
            QStringLiteral("the team store has no queue named \"%1\" that role %2 may see").arg(name, m_login));
    }
    TeamQueueRooms out;
    // A room reviewed done outside the queue shows done, by whoever set it.
    QSqlQuery q = m_db.select(QStringLiteral("SELECT i.position, r.system, r.native_id, i.locked_by, i.locked_author, "
                                             "i.locked_until_ms, coalesce(i.done_by, CASE WHEN rv.value = 'done' THEN "
                                             "rv.login END), coalesce(i.done_author, CASE WHEN rv.value = 'done' THEN "
                                             "rv.author END), coalesce(i.done_ms, CASE WHEN rv.value = 'done' THEN rv.at_ms "
                                             "END), %1 FROM sightline.queue_items i JOIN sightline.queues q ON q.id = "
                                             "i.queue_id JOIN sightline.rooms r ON r.id = i.room_id LEFT JOIN LATERAL (%2) rv "
                                             "ON true WHERE q.name = ? ORDER BY i.position")
                                  .arg(QLatin1String(serverNowMs), QLatin1String(reviewOfItem)),
        { name }, QStringLiteral("queue \"%1\"").arg(name));
    while (q.next()) {
        TeamQueueRoom r;
        r.position = q.value(0).toInt();
        r.system = q.value(1).toString();
        r.room = q.value(2).toString();
        if (!q.value(8).isNull()) {
            r.state = TeamQueueRoom::State::Done;
            r.login = q.value(6).toString();
            r.author = q.value(7).toString();
            r.doneMs = q.value(8).toLongLong();
        } else if (!q.value(5).isNull() && q.value(5).toLongLong() > q.value(9).toLongLong()) {
            r.state = TeamQueueRoom::State::InReview;
            r.login = q.value(3).toString();
            r.author = q.value(4).toString();
            r.untilMs = q.value(5).toLongLong();
        }
        out.append(r);
    }
    return out;
}

std::optional<TeamQueueRoom> TeamStore::nextInQueue(const QString& name, const QString& author)
{
    QSqlQuery q = m_db.select(
        QStringLiteral("SELECT system, native_id, locked_until_ms, item_position FROM sightline.queue_next(?, ?)"),
        { name, author }, QStringLiteral("queue \"%1\"").arg(name));
    // A function with OUT parameters that returned nothing gives one row of nulls.
    if (!q.next() || q.value(1).isNull())
        return std::nullopt;
    TeamQueueRoom r;
    r.system = q.value(0).toString();
    r.room = q.value(1).toString();
    r.untilMs = q.value(2).toLongLong();
    r.position = q.value(3).toInt();
    r.state = TeamQueueRoom::State::InReview;
    r.author = author;
    r.login = m_login;
    return r;
}

TeamQueueRoom TeamStore::doneInQueue(
    const QString& name, const std::optional<std::pair<QString, QString>>& room, const QString& author)
{
    QSqlQuery q = m_db.select(
        QStringLiteral("SELECT system, native_id, done_author, done_login, done_ms FROM sightline.queue_done(?, ?, ?, ?)"),
        { name, room ? QVariant(room->first) : QVariant(QMetaType(QMetaType::QString)),
            room ? QVariant(room->second) : QVariant(QMetaType(QMetaType::QString)), author },
        QStringLiteral("queue \"%1\"").arg(name));
    TeamQueueRoom r;
    if (q.next()) {
        r.system = q.value(0).toString();
        r.room = q.value(1).toString();
        r.author = q.value(2).toString();
        r.login = q.value(3).toString();
        r.doneMs = q.value(4).toLongLong();
        r.state = TeamQueueRoom::State::Done;
    }
    return r;
}

void TeamStore::here(const QString& client, const std::optional<std::pair<QString, QString>>& room, const QString& author)
{
    // So spelt: clang reads `QVariant none(QMetaType(...))` as the declaration of a function.
    const QVariant none = QVariant(QMetaType(QMetaType::QString));
    m_db.select(QStringLiteral("SELECT sightline.here(?, ?, ?, ?)"),
        { client, room ? QVariant(room->first) : none, room ? QVariant(room->second) : none, author },
        QStringLiteral("who has which room open"));
}

QStringList TeamStore::presentIn(const QString& client, const std::pair<QString, QString>& room)
{
    QSqlQuery q = m_db.select(QStringLiteral("SELECT DISTINCT p.author, p.login FROM sightline.presence p JOIN sightline.rooms "
                                             "r ON r.id = p.room_id WHERE r.system = ? AND r.native_id = ? AND p.seen_ms > "
                                             "%1 - 90000 AND NOT (p.login = session_user AND p.client = ?) ORDER BY 1, 2")
                                  .arg(QLatin1String(serverNowMs)),
        { room.first, room.second, client }, QStringLiteral("who has room %1 open").arg(room.second));
    QStringList out;
    while (q.next()) {
        const QString author = q.value(0).toString(), login = q.value(1).toString();
        out << (author == login ? author : QStringLiteral("%1 (%2)").arg(author, login));
    }
    return out;
}

bool TeamStore::listen(QObject* context, std::function<void()> onChange)
{
    QSqlDriver* driver = m_db.database().driver();
    if (!driver->subscribeToNotification(QStringLiteral("sightline_team")))
        return false;
    QObject::connect(driver, &QSqlDriver::notification, context,
        [onChange = std::move(onChange)](const QString&, QSqlDriver::NotificationSource, const QVariant&) { onChange(); });
    return true;
}
