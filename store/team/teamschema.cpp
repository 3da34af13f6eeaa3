#include "teamschema.h"

#include "../sources/pgconnection.h"

#include <iterator>
#include <QDateTime>
#include <QRegularExpression>
#include <QSqlError>
#include <QSqlQuery>

namespace {

// The steps, in order; step N is steps[N - 1]. Never edit a step that has shipped: add one.
const char* const steps[] = {
    // 1: the roles, rooms, annotations, the journal with its chain, and the functions every change goes through.
    R"SQL(
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'sightline_reviewer') THEN CREATE ROLE sightline_reviewer NOLOGIN; END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'sightline_auditor') THEN CREATE ROLE sightline_auditor NOLOGIN; END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'sightline_admin') THEN CREATE ROLE sightline_admin NOLOGIN; END IF;
END $$;
GRANT sightline_reviewer TO sightline_admin;
CREATE SCHEMA sightline;
REVOKE ALL ON SCHEMA sightline FROM PUBLIC;
CREATE TABLE sightline.schema_steps(step integer PRIMARY KEY, applied_ms bigint NOT NULL);
-- The store's own name: a workspace that finds another store at its URI (made anew, restored) starts over with it.
CREATE TABLE sightline.store(id text NOT NULL);
INSERT INTO sightline.store(id) VALUES (gen_random_uuid()::text);
-- A room as every copy of its source knows it: its system and its own id, never a path.
CREATE TABLE sightline.rooms(
  id bigserial PRIMARY KEY,
  system text NOT NULL,
  native_id text NOT NULL,
  UNIQUE (system, native_id));
CREATE TABLE sightline.annotations(
  id bigserial PRIMARY KEY,
  room_id bigint NOT NULL REFERENCES sightline.rooms(id),
  seq bigint,                           -- the event's index in its source; NULL: the room
  fingerprint text,                     -- of the event's payload as its source wrote it
  kind text NOT NULL CHECK (kind IN ('note', 'label', 'mark', 'review')),
  value text,
  author text NOT NULL,                 -- the name the reviewer signs with
  login text NOT NULL,                  -- the role that made it, as the server knows it
  at_ms bigint NOT NULL,
  present boolean NOT NULL DEFAULT true,
  version bigint NOT NULL);             -- the journal entry that last changed it: what a catch-up asks after
CREATE INDEX annotations_version ON sightline.annotations(version);
CREATE INDEX annotations_room ON sightline.annotations(room_id, seq, kind) WHERE present;
CREATE SEQUENCE sightline.journal_ids;
CREATE TABLE sightline.journal(
  id bigint PRIMARY KEY,                -- given under the chain's lock: in the order entries commit
  at_ms bigint NOT NULL,                -- when the change was made (offline: before it reached the server)
  recorded_ms bigint NOT NULL,          -- when the server took it
  author text NOT NULL,
  login text NOT NULL,
  action text NOT NULL,
  room_id bigint NOT NULL REFERENCES sightline.rooms(id),
  seq bigint,
  before text,
  after text,
  prev_hash text NOT NULL,              -- the entry before's hash ('' for the first)
  hash text NOT NULL,                   -- SHA-256 of this entry's fields and prev_hash (JournalChain)
  annotation_id bigint,                 -- the annotation it made or took out
  client_key text UNIQUE);              -- the workspace and its own entry it came from: sent again, taken once
-- A field of an entry as the chain hashes it: its length in bytes, a colon and the text; NULL is '~'.
CREATE FUNCTION sightline.field(v text) RETURNS text LANGUAGE sql IMMUTABLE
  AS $$ SELECT CASE WHEN v IS NULL THEN '~' ELSE octet_length(v)::text || ':' || v END $$;
CREATE FUNCTION sightline.chain() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  previous text;
  r sightline.rooms;
BEGIN
  -- One writer at a time, to its commit: ids and the chain follow the order entries commit in, so a catch-up
  -- that asks for the ids after the last it saw never skips one committed late.
  PERFORM pg_advisory_xact_lock(7477, 1);
  NEW.id := nextval('sightline.journal_ids');
  NEW.login := session_user;
  NEW.recorded_ms := (extract(epoch FROM clock_timestamp()) * 1000)::bigint;
  SELECT hash INTO previous FROM sightline.journal ORDER BY id DESC LIMIT 1;
  NEW.prev_hash := coalesce(previous, '');
  SELECT * INTO r FROM sightline.rooms WHERE id = NEW.room_id;
  NEW.hash := encode(sha256(convert_to(
      sightline.field(NEW.id::text) || sightline.field(NEW.at_ms::text) || sightline.field(NEW.recorded_ms::text)
      || sightline.field(NEW.author) || sightline.field(NEW.login) || sightline.field(NEW.action)
      || sightline.field(r.system) || sightline.field(r.native_id) || sightline.field(NEW.seq::text)
      || sightline.field(NEW.before) || sightline.field(NEW.after) || sightline.field(NEW.prev_hash), 'UTF8')), 'hex');
  RETURN NEW;
END $$;
CREATE TRIGGER journal_chain BEFORE INSERT ON sightline.journal FOR EACH ROW EXECUTE FUNCTION sightline.chain();
CREATE FUNCTION sightline.append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the team journal is append-only: % is refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END $$;
CREATE TRIGGER journal_append_only BEFORE UPDATE OR DELETE ON sightline.journal
  FOR EACH ROW EXECUTE FUNCTION sightline.append_only();
CREATE TRIGGER journal_no_truncate BEFORE TRUNCATE ON sightline.journal
  FOR EACH STATEMENT EXECUTE FUNCTION sightline.append_only();
CREATE FUNCTION sightline.require_writer() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF NOT (pg_has_role(session_user, 'sightline_reviewer', 'MEMBER')
          OR pg_has_role(session_user, 'sightline_admin', 'MEMBER')) THEN
    RAISE EXCEPTION 'role % is not a reviewer of this team store (sightline_reviewer): it may read, export and verify, and change nothing', session_user
      USING ERRCODE = 'insufficient_privilege';
  END IF;
END $$;
CREATE FUNCTION sightline.room_of(p_system text, p_room text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE rid bigint;
BEGIN
  SELECT id INTO rid FROM sightline.rooms WHERE system = p_system AND native_id = p_room;
  IF rid IS NULL THEN
    INSERT INTO sightline.rooms(system, native_id) VALUES (p_system, p_room) RETURNING id INTO rid;
  END IF;
  RETURN rid;
END $$;
-- Adds a note, a label or a mark with its entry. A label or mark the item already has: its id, and no entry.
CREATE FUNCTION sightline.annotate(p_system text, p_room text, p_seq bigint, p_fingerprint text, p_kind text,
    p_value text, p_author text, p_at_ms bigint, p_key text, OUT annotation_id bigint, OUT journal_id bigint)
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = sightline, pg_temp AS $$
DECLARE rid bigint;
BEGIN
  PERFORM sightline.require_writer();
  PERFORM pg_advisory_xact_lock(7477, 1);
  SELECT j.annotation_id, j.id INTO annotation_id, journal_id FROM sightline.journal j WHERE j.client_key = p_key;
  IF FOUND THEN RETURN; END IF;
  IF p_kind NOT IN ('note', 'label', 'mark') THEN
    RAISE EXCEPTION 'a note, a label or a mark, not %', p_kind USING ERRCODE = 'invalid_parameter_value';
  END IF;
  rid := sightline.room_of(p_system, p_room);
  IF p_kind <> 'note' THEN
    SELECT id INTO annotation_id FROM sightline.annotations WHERE room_id = rid AND seq IS NOT DISTINCT FROM p_seq
      AND kind = p_kind AND value IS NOT DISTINCT FROM p_value AND present ORDER BY id LIMIT 1;
    IF FOUND THEN RETURN; END IF;
  END IF;
  INSERT INTO sightline.annotations(room_id, seq, fingerprint, kind, value, author, login, at_ms, version)
    VALUES (rid, p_seq, p_fingerprint, p_kind, p_value, p_author, session_user, p_at_ms, 0) RETURNING id INTO annotation_id;
  INSERT INTO sightline.journal(at_ms, author, action, room_id, seq, before, after, annotation_id, client_key)
    VALUES (p_at_ms, p_author, CASE p_kind WHEN 'note' THEN 'note_added' WHEN 'label' THEN 'label_added' ELSE 'marked' END,
      rid, p_seq, NULL, CASE WHEN p_kind = 'mark' THEN NULL ELSE p_value END, annotation_id, p_key) RETURNING id INTO journal_id;
  UPDATE sightline.annotations SET version = journal_id WHERE id = annotation_id;
  PERFORM pg_notify('sightline_team', journal_id::text);
END $$;
-- Takes an annotation out with its entry. One already out: its id, and no entry.
CREATE FUNCTION sightline.unannotate(p_id bigint, p_author text, p_at_ms bigint, p_key text, OUT annotation_id bigint,
    OUT journal_id bigint)
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = sightline, pg_temp AS $$
DECLARE a sightline.annotations;
BEGIN
  PERFORM sightline.require_writer();
  PERFORM pg_advisory_xact_lock(7477, 1);
  SELECT j.annotation_id, j.id INTO annotation_id, journal_id FROM sightline.journal j WHERE j.client_key = p_key;
  IF FOUND THEN RETURN; END IF;
  SELECT * INTO a FROM sightline.annotations WHERE id = p_id;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'the team store has no annotation %', p_id USING ERRCODE = 'no_data_found';
  END IF;
  annotation_id := p_id;
  IF NOT a.present THEN RETURN; END IF;
  INSERT INTO sightline.journal(at_ms, author, action, room_id, seq, before, after, annotation_id, client_key)
    VALUES (p_at_ms, p_author, CASE a.kind WHEN 'note' THEN 'note_removed' WHEN 'label' THEN 'label_removed'
      WHEN 'mark' THEN 'unmarked' ELSE 'review' END, a.room_id, a.seq, CASE WHEN a.kind = 'mark' THEN NULL ELSE a.value END,
      NULL, p_id, p_key) RETURNING id INTO journal_id;
  UPDATE sightline.annotations SET present = false, version = journal_id WHERE id = p_id;
  PERFORM pg_notify('sightline_team', journal_id::text);
END $$;
-- Sets a room's review status with its entry (before: the status it had). The status it has already: no entry.
CREATE FUNCTION sightline.set_review(p_system text, p_room text, p_status text, p_author text, p_at_ms bigint,
    p_key text, OUT annotation_id bigint, OUT journal_id bigint)
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = sightline, pg_temp AS $$
DECLARE
  rid bigint;
  old sightline.annotations;
BEGIN
  PERFORM sightline.require_writer();
  PERFORM pg_advisory_xact_lock(7477, 1);
  IF p_status NOT IN ('unreviewed', 'in review', 'done') THEN
    RAISE EXCEPTION '% is no review status (unreviewed, in review, done)', p_status USING ERRCODE = 'invalid_parameter_value';
  END IF;
  SELECT j.annotation_id, j.id INTO annotation_id, journal_id FROM sightline.journal j WHERE j.client_key = p_key;
  IF FOUND THEN RETURN; END IF;
  rid := sightline.room_of(p_system, p_room);
  SELECT * INTO old FROM sightline.annotations WHERE room_id = rid AND seq IS NULL AND kind = 'review' AND present
    ORDER BY id DESC LIMIT 1;
  IF (old.id IS NOT NULL AND old.value = p_status) OR (old.id IS NULL AND p_status = 'unreviewed') THEN
    annotation_id := old.id;
    RETURN;
  END IF;
  INSERT INTO sightline.annotations(room_id, seq, fingerprint, kind, value, author, login, at_ms, version)
    VALUES (rid, NULL, NULL, 'review', p_status, p_author, session_user, p_at_ms, 0) RETURNING id INTO annotation_id;
  INSERT INTO sightline.journal(at_ms, author, action, room_id, seq, before, after, annotation_id, client_key)
    VALUES (p_at_ms, p_author, 'review', rid, NULL, coalesce(old.value, 'unreviewed'), p_status, annotation_id, p_key)
    RETURNING id INTO journal_id;
  UPDATE sightline.annotations SET version = journal_id WHERE id = annotation_id;
  IF old.id IS NOT NULL THEN
    UPDATE sightline.annotations SET present = false, version = journal_id WHERE id = old.id;
  END IF;
  PERFORM pg_notify('sightline_team', journal_id::text);
END $$;
GRANT USAGE ON SCHEMA sightline TO sightline_reviewer, sightline_auditor, sightline_admin;
GRANT SELECT ON ALL TABLES IN SCHEMA sightline TO sightline_reviewer, sightline_auditor, sightline_admin;
REVOKE ALL ON ALL FUNCTIONS IN SCHEMA sightline FROM PUBLIC;
GRANT EXECUTE ON FUNCTION sightline.annotate(text, text, bigint, text, text, text, text, bigint, text),
  sightline.unannotate(bigint, text, bigint, text), sightline.set_review(text, text, text, text, bigint, text)
  TO sightline_reviewer, sightline_admin;
)SQL",
    // 2: redactions, so that one made in one copy cuts the text out of every copy. The store keeps where and why,
    // never the text: its digest under the store's secret, which every copy checks before it cuts, so a copy that
    // holds other text there is not cut.
    R"SQL(
ALTER TABLE sightline.store ADD COLUMN secret text NOT NULL
  DEFAULT replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '');
CREATE TABLE sightline.redactions(
  id bigserial PRIMARY KEY,
  room_id bigint NOT NULL REFERENCES sightline.rooms(id),
  seq bigint NOT NULL,
  path text NOT NULL,                   -- as the workspace's ledger names it: a JSONPath, '' or '@text'
  part integer NOT NULL DEFAULT 0,      -- a piece of an assembled text (RedactionStore::Part)
  start bigint NOT NULL,
  length bigint NOT NULL,
  digest text,                          -- HMAC-SHA-256 of the text removed, under sightline.store's secret
  reason text NOT NULL,
  author text NOT NULL,
  login text NOT NULL,
  at_ms bigint NOT NULL,
  version bigint NOT NULL);
CREATE INDEX redactions_version ON sightline.redactions(version);
ALTER TABLE sightline.journal ADD COLUMN redaction_id bigint;
CREATE FUNCTION sightline.redact(p_system text, p_room text, p_seq bigint, p_path text, p_part integer, p_start bigint,
    p_length bigint, p_digest text, p_reason text, p_placed text, p_author text, p_at_ms bigint, p_key text,
    OUT redaction_id bigint, OUT journal_id bigint)
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = sightline, pg_temp AS $$
DECLARE rid bigint;
BEGIN
  PERFORM sightline.require_writer();
  PERFORM pg_advisory_xact_lock(7477, 1);
  SELECT j.redaction_id, j.id INTO redaction_id, journal_id FROM sightline.journal j WHERE j.client_key = p_key;
  IF FOUND THEN RETURN; END IF;
  rid := sightline.room_of(p_system, p_room);
  INSERT INTO sightline.redactions(room_id, seq, path, part, start, length, digest, reason, author, login, at_ms, version)
    VALUES (rid, p_seq, p_path, p_part, p_start, p_length, p_digest, p_reason, p_author, session_user, p_at_ms, 0)
    RETURNING id INTO redaction_id;
  INSERT INTO sightline.journal(at_ms, author, action, room_id, seq, before, after, redaction_id, client_key)
    VALUES (p_at_ms, p_author, 'redacted', rid, p_seq,
      'hmac-sha256:' || coalesce(p_digest, '(none)') || ' (' || p_length || ' characters)', p_placed, redaction_id, p_key)
    RETURNING id INTO journal_id;
  UPDATE sightline.redactions SET version = journal_id WHERE id = redaction_id;
  PERFORM pg_notify('sightline_team', journal_id::text);
END $$;
REVOKE ALL ON FUNCTION sightline.redact(text, text, bigint, text, integer, bigint, bigint, text, text, text, text, bigint,
  text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION sightline.redact(text, text, bigint, text, integer, bigint, bigint, text, text, text, text, bigint,
  text) TO sightline_reviewer, sightline_admin;
GRANT SELECT ON sightline.redactions TO sightline_reviewer, sightline_auditor, sightline_admin;
)SQL",
};

// The statements of a step, split where PostgreSQL would end them: at a ';' outside a quoted literal, a dollar-quoted
// body and a comment (a function's body holds ';', a comment an apostrophe). libpq runs one statement a call through
// QtSql.
QStringList statements(const QString& script)
{
    QStringList out;
    QString current;
    QString dollar; // the tag of the dollar quote we are in ("$$"), empty outside one
    bool quoted = false, comment = false;
    for (qsizetype i = 0; i < script.size(); ++i) {
        const QChar c = script.at(i);
        current += c;
        if (comment) {
            comment = c != QLatin1Char('\n');
        } else if (quoted) {
            quoted = c != QLatin1Char('\'');
        } else if (!dollar.isEmpty()) {
            if (c == QLatin1Char('$') && script.mid(i, dollar.size()) == dollar) {
                current += script.mid(i + 1, dollar.size() - 1);
                i += dollar.size() - 1;
                dollar.clear();
            }
        } else if (c == QLatin1Char('-') && script.mid(i, 2) == QLatin1String("--")) {
            comment = true;
        } else if (c == QLatin1Char('\'')) {
            quoted = true;
        } else if (c == QLatin1Char('$')) {
            const qsizetype end = script.indexOf(QLatin1Char('$'), i + 1);
            const QString tag = script.mid(i, end - i + 1);
            static const QRegularExpression word(QStringLiteral("^\\$[A-Za-z_0-9]*\\$$"));
            if (end > i && word.match(tag).hasMatch()) {
                dollar = tag;
                current += tag.mid(1);
                i = end;
            }
        } else if (c == QLatin1Char(';')) {
            if (!current.trimmed().isEmpty() && current.trimmed() != QLatin1String(";"))
                out << current.trimmed();
            current.clear();
        }
    }
    if (!current.trimmed().isEmpty())
        out << current.trimmed();
    return out;
}

[[noreturn]] void failInit(PgConnection& db, const QSqlError& error, int step)
{
    const QString code = error.nativeErrorCode();
    if (code == QLatin1String("42501")) {
        throw StoreError(db.origin(), QStringLiteral("team schema step %1").arg(step),
            QStringLiteral("role %1 may not set up a team store: it needs CREATEROLE and CREATE on the database (or "
                           "to be a superuser); %2")
                .arg(db.database().userName().isEmpty() ? QStringLiteral("(your login name)") : db.database().userName(),
                    error.databaseText().section(QLatin1Char('\n'), 0, 0).trimmed()));
    }
    db.fail(error, QStringLiteral("team schema step %1").arg(step));
}

} // namespace

namespace TeamSchema {

int latestStep()
{
    return int(std::size(steps));
}

int step(PgConnection& db)
{
    QSqlQuery q = db.select(QStringLiteral("SELECT to_regclass('sightline.schema_steps') IS NOT NULL"));
    if (!q.next() || !q.value(0).toBool())
        return 0;
    return int(db.count(QStringLiteral("SELECT coalesce(max(step), 0) FROM sightline.schema_steps")));
}

Upgrade init(PgConnection& db)
{
    QSqlDatabase& sql = db.database();
    if (!sql.transaction())
        db.fail(sql.lastError(), QStringLiteral("team init"));
    Upgrade upgrade;
    try {
        QSqlQuery lock(sql);
        // Two admins at once: the second waits here, then finds the steps done.
        if (!lock.exec(QStringLiteral("SELECT pg_advisory_xact_lock(7477, 0)")))
            db.fail(lock.lastError(), QStringLiteral("team init"));
        upgrade.from = step(db);
        if (upgrade.from > latestStep()) {
            throw StoreError(db.origin(), {},
                QStringLiteral("the team store is at schema step %1, from a newer Sightline (this one knows up to %2)")
                    .arg(upgrade.from)
                    .arg(latestStep()));
        }
        for (int s = upgrade.from + 1; s <= latestStep(); ++s) {
            for (const QString& statement : statements(QString::fromUtf8(steps[s - 1]))) {
                QSqlQuery q(sql);
                if (!q.exec(statement))
                    failInit(db, q.lastError(), s);
            }
            QSqlQuery done(sql);
            done.prepare(QStringLiteral("INSERT INTO sightline.schema_steps(step, applied_ms) VALUES (?, ?)"));
            done.addBindValue(s);
            done.addBindValue(QDateTime::currentMSecsSinceEpoch());
            if (!done.exec())
                failInit(db, done.lastError(), s);
        }
        upgrade.to = latestStep();
        if (!sql.commit())
            db.fail(sql.lastError(), QStringLiteral("team init"));
    } catch (...) {
        sql.rollback();
        throw;
    }
    return upgrade;
}

} // namespace TeamSchema
