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
-- Roles are the cluster's, shared by every database in it: another team store's init may be making them at this
-- moment (its lock is its database's), so one made meanwhile is taken as made.
DO $$
DECLARE r text;
BEGIN
  FOREACH r IN ARRAY ARRAY['sightline_reviewer', 'sightline_auditor', 'sightline_admin'] LOOP
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = r) THEN
      BEGIN
        EXECUTE format('CREATE ROLE %I NOLOGIN', r);
      EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
      END;
    END IF;
  END LOOP;
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
    // 3: queues. An admin makes one of the rooms a filter matched; `next` hands each reviewer a different room and
    // locks it for them for a while; `done` finishes it. Row-level security hides a queue that names its reviewers
    // from every other reviewer. Presence: who has which room open in a window. Conflicts: two review statuses set
    // each without knowing the other, both kept until settled. Edits and pair fixes, applied by every copy.
    R"SQL(
CREATE TABLE sightline.queues(
  id bigserial PRIMARY KEY,
  name text NOT NULL UNIQUE,
  query text NOT NULL,                  -- the filter its rooms matched when it was made (the filter language)
  instructions text NOT NULL,
  lock_seconds integer NOT NULL CHECK (lock_seconds > 0),
  created_by text NOT NULL,             -- the login that made it
  created_ms bigint NOT NULL);
-- Who may take rooms from a queue; none listed: every reviewer.
CREATE TABLE sightline.queue_reviewers(
  queue_id bigint NOT NULL REFERENCES sightline.queues(id),
  login text NOT NULL,
  PRIMARY KEY (queue_id, login));
CREATE TABLE sightline.queue_items(
  queue_id bigint NOT NULL REFERENCES sightline.queues(id),
  room_id bigint NOT NULL REFERENCES sightline.rooms(id),
  position integer NOT NULL,            -- the order `next` hands rooms out in
  locked_by text,                       -- the login reviewing it, until locked_until_ms
  locked_author text,
  locked_until_ms bigint,
  done_by text,
  done_author text,
  done_ms bigint,
  PRIMARY KEY (queue_id, room_id));
CREATE INDEX queue_items_position ON sightline.queue_items(queue_id, position) WHERE done_ms IS NULL;
CREATE FUNCTION sightline.now_ms() RETURNS bigint LANGUAGE sql VOLATILE
  AS $$ SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint $$;
CREATE FUNCTION sightline.require_admin() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF NOT pg_has_role(session_user, 'sightline_admin', 'MEMBER') THEN
    RAISE EXCEPTION 'role % is not an admin of this team store (sightline_admin): queues are made by an admin', session_user
      USING ERRCODE = 'insufficient_privilege';
  END IF;
END $$;
-- Whether the session's login sees a queue: an admin and an auditor see every one, a reviewer those that list it or
-- list nobody.
CREATE FUNCTION sightline.sees_queue(p_queue bigint) RETURNS boolean LANGUAGE sql STABLE SECURITY DEFINER
  SET search_path = sightline, pg_temp AS $$
  SELECT pg_has_role(session_user, 'sightline_admin', 'MEMBER') OR pg_has_role(session_user, 'sightline_auditor', 'MEMBER')
    OR NOT EXISTS (SELECT 1 FROM sightline.queue_reviewers r WHERE r.queue_id = p_queue)
    OR EXISTS (SELECT 1 FROM sightline.queue_reviewers r WHERE r.queue_id = p_queue AND r.login = session_user) $$;
ALTER TABLE sightline.queues ENABLE ROW LEVEL SECURITY;
CREATE POLICY queues_seen ON sightline.queues FOR SELECT USING (sightline.sees_queue(id));
ALTER TABLE sightline.queue_items ENABLE ROW LEVEL SECURITY;
CREATE POLICY queue_items_seen ON sightline.queue_items FOR SELECT USING (sightline.sees_queue(queue_id));
ALTER TABLE sightline.queue_reviewers ENABLE ROW LEVEL SECURITY;
CREATE POLICY queue_reviewers_seen ON sightline.queue_reviewers FOR SELECT USING (sightline.sees_queue(queue_id));
-- A queue the session may take rooms from, by name, or an error that says why not.
CREATE FUNCTION sightline.queue_for_reviewer(p_name text) RETURNS sightline.queues LANGUAGE plpgsql AS $$
DECLARE q sightline.queues;
BEGIN
  PERFORM sightline.require_writer();
  SELECT * INTO q FROM sightline.queues WHERE name = p_name;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'the team store has no queue named "%"', p_name USING ERRCODE = 'no_data_found';
  END IF;
  IF NOT pg_has_role(session_user, 'sightline_admin', 'MEMBER')
     AND EXISTS (SELECT 1 FROM sightline.queue_reviewers r WHERE r.queue_id = q.id)
     AND NOT EXISTS (SELECT 1 FROM sightline.queue_reviewers r WHERE r.queue_id = q.id AND r.login = session_user) THEN
    RAISE EXCEPTION 'role % is not one of the reviewers of queue "%"', session_user, p_name
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN q;
END $$;
-- Makes a queue of the rooms given, in that order: p_reviewers is a JSON array of logins, p_rooms one of
-- [system, room id] pairs (JSON, as QtSql binds no arrays).
CREATE FUNCTION sightline.create_queue(p_name text, p_query text, p_instructions text, p_lock_seconds integer,
    p_reviewers text, p_rooms text) RETURNS bigint
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = sightline, pg_temp AS $$
DECLARE
  qid bigint;
  room jsonb;
  i integer := 0;
BEGIN
  PERFORM sightline.require_admin();
  IF EXISTS (SELECT 1 FROM sightline.queues WHERE name = p_name) THEN
    RAISE EXCEPTION 'the team store has a queue named "%" already', p_name USING ERRCODE = 'unique_violation';
  END IF;
  INSERT INTO sightline.queues(name, query, instructions, lock_seconds, created_by, created_ms)
    VALUES (p_name, p_query, p_instructions, p_lock_seconds, session_user, sightline.now_ms()) RETURNING id INTO qid;
  INSERT INTO sightline.queue_reviewers(queue_id, login)
    SELECT DISTINCT qid, jsonb_array_elements_text(p_reviewers::jsonb);
  FOR room IN SELECT jsonb_array_elements(p_rooms::jsonb) LOOP
    i := i + 1;
    INSERT INTO sightline.queue_items(queue_id, room_id, position)
      VALUES (qid, sightline.room_of(room->>0, room->>1), i) ON CONFLICT DO NOTHING;
  END LOOP;
  RETURN qid;
END $$;
-- The room the session reviews next: the one it holds already (its lock renewed), else the first no one holds,
-- locked for it. Two sessions at once never get the same room: the second skips the row the first has locked.
-- No row: nothing is left for it.
CREATE FUNCTION sightline.queue_next(p_name text, p_author text, OUT system text, OUT native_id text,
    OUT locked_until_ms bigint, OUT item_position integer)
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = sightline, pg_temp AS $$
DECLARE
  q sightline.queues;
  item sightline.queue_items;
BEGIN
  q := sightline.queue_for_reviewer(p_name);
  -- One `next` a login at a time, or two of its windows could each take a room.
  PERFORM pg_advisory_xact_lock(hashtext('sightline.queue:' || session_user), q.id::integer);
  SELECT * INTO item FROM sightline.queue_items i WHERE i.queue_id = q.id AND i.done_ms IS NULL
    AND i.locked_by = session_user AND i.locked_until_ms > sightline.now_ms() ORDER BY i.position LIMIT 1 FOR UPDATE;
  IF NOT FOUND THEN
    -- A room reviewed done already (outside the queue too) is not handed out.
    SELECT * INTO item FROM sightline.queue_items i WHERE i.queue_id = q.id AND i.done_ms IS NULL
      AND (i.locked_until_ms IS NULL OR i.locked_until_ms <= sightline.now_ms())
      AND NOT EXISTS (SELECT 1 FROM sightline.annotations a WHERE a.room_id = i.room_id AND a.seq IS NULL
        AND a.kind = 'review' AND a.present AND a.value = 'done')
      ORDER BY i.position LIMIT 1 FOR UPDATE SKIP LOCKED;
    IF NOT FOUND THEN RETURN; END IF;
  END IF;
  UPDATE sightline.queue_items i SET locked_by = session_user, locked_author = p_author,
      locked_until_ms = sightline.now_ms() + q.lock_seconds * 1000::bigint
    WHERE i.queue_id = q.id AND i.room_id = item.room_id RETURNING i.locked_until_ms, i.position INTO locked_until_ms, item_position;
  SELECT r.system, r.native_id INTO system, native_id FROM sightline.rooms r WHERE r.id = item.room_id;
END $$;
-- Finishes a room of a queue: the one given, else the one the session holds. A room another login holds (its lock not
-- run out) is refused, naming them; one done already says who did it and changes nothing.
CREATE FUNCTION sightline.queue_done(p_name text, p_system text, p_room text, p_author text, OUT system text,
    OUT native_id text, OUT done_author text, OUT done_login text, OUT done_ms bigint)
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = sightline, pg_temp AS $$
DECLARE
  q sightline.queues;
  item sightline.queue_items;
BEGIN
  q := sightline.queue_for_reviewer(p_name);
  IF p_room IS NULL THEN
    SELECT * INTO item FROM sightline.queue_items i WHERE i.queue_id = q.id AND i.done_ms IS NULL
      AND i.locked_by = session_user ORDER BY i.locked_until_ms DESC LIMIT 1 FOR UPDATE;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'role % holds no room of this queue: take one with `queue next`, or name it with --room', session_user
        USING ERRCODE = 'no_data_found';
    END IF;
  ELSE
    SELECT i.* INTO item FROM sightline.queue_items i JOIN sightline.rooms r ON r.id = i.room_id
      WHERE i.queue_id = q.id AND r.system = p_system AND r.native_id = p_room FOR UPDATE OF i;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'queue "%" has no room %', p_name, p_room USING ERRCODE = 'no_data_found';
    END IF;
  END IF;
  SELECT r.system, r.native_id INTO system, native_id FROM sightline.rooms r WHERE r.id = item.room_id;
  IF item.done_ms IS NULL THEN
    IF item.locked_by IS NOT NULL AND item.locked_by <> session_user AND item.locked_until_ms > sightline.now_ms() THEN
      RAISE EXCEPTION 'room % of queue "%" is being reviewed by % (%) until %', native_id, p_name, item.locked_author,
        item.locked_by, to_char(to_timestamp(item.locked_until_ms / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
        USING ERRCODE = 'lock_not_available';
    END IF;
    UPDATE sightline.queue_items i SET done_by = session_user, done_author = p_author, done_ms = sightline.now_ms(),
        locked_by = NULL, locked_author = NULL, locked_until_ms = NULL
      WHERE i.queue_id = q.id AND i.room_id = item.room_id RETURNING i.* INTO item;
  END IF;
  done_author := item.done_author;
  done_login := item.done_by;
  done_ms := item.done_ms;
END $$;
-- Who has which room open in a window, so that a teammate sees "Ana is reviewing this room". A window says so when
-- it shows a room and again every little while; a row not renewed for a while is someone gone.
CREATE TABLE sightline.presence(
  login text NOT NULL,
  client text NOT NULL,                 -- the workspace the window shows (one login may have two windows open)
  author text NOT NULL,
  room_id bigint REFERENCES sightline.rooms(id),
  seen_ms bigint NOT NULL,
  PRIMARY KEY (login, client));
-- The session's window shows p_room now (none: it shows no room, or closed).
CREATE FUNCTION sightline.here(p_client text, p_system text, p_room text, p_author text) RETURNS void
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = sightline, pg_temp AS $$
DECLARE
  rid bigint;
  before bigint;
BEGIN
  IF p_room IS NULL THEN
    DELETE FROM sightline.presence WHERE login = session_user AND client = p_client;
    PERFORM pg_notify('sightline_team', 'presence');
    RETURN;
  END IF;
  rid := sightline.room_of(p_system, p_room);
  SELECT room_id INTO before FROM sightline.presence WHERE login = session_user AND client = p_client;
  INSERT INTO sightline.presence(login, client, author, room_id, seen_ms)
    VALUES (session_user, p_client, p_author, rid, sightline.now_ms())
    ON CONFLICT (login, client) DO UPDATE SET author = EXCLUDED.author, room_id = EXCLUDED.room_id, seen_ms = EXCLUDED.seen_ms;
  -- Teammates hear of a move at once; a renewal moves nothing they show.
  IF before IS DISTINCT FROM rid THEN
    PERFORM pg_notify('sightline_team', 'presence');
  END IF;
END $$;
-- Two reviewers who set one room's review status, each not knowing the other's (one offline, or both at once): the
-- later is applied, and both are kept here until someone sets the status again knowing the one there.
CREATE TABLE sightline.conflicts(
  id bigserial PRIMARY KEY,
  room_id bigint NOT NULL REFERENCES sightline.rooms(id),
  field text NOT NULL,                  -- 'review', or an edit's field: text, arguments, result, outcome
  seq bigint,                           -- an edit's item (none for a review status)
  theirs_edit bigint,                   -- an edit's: the store's edit it did not know of (none: the source's value)
  mine_edit bigint,                     -- and the edit that went over it
  theirs text NOT NULL,                 -- what the store had, which the change did not know of
  theirs_author text NOT NULL,
  theirs_at_ms bigint NOT NULL,
  mine text NOT NULL,                   -- what the change set (what the store has now)
  mine_author text NOT NULL,
  mine_login text NOT NULL,
  mine_at_ms bigint NOT NULL,
  journal_id bigint NOT NULL,           -- the entry of the change that conflicted
  resolved_by text,                     -- the author whose change settled it
  resolved_ms bigint);
CREATE INDEX conflicts_open ON sightline.conflicts(room_id) WHERE resolved_ms IS NULL;
-- A review status change with what its maker's copy had before it (p_before): set as set_review does; when the store
-- had another status than p_before (and than p_status), the change did not know of it, and the two are kept as a
-- conflict. A change made knowing the status there settles the room's open conflicts.
CREATE FUNCTION sightline.change_review(p_system text, p_room text, p_before text, p_status text, p_author text,
    p_at_ms bigint, p_key text, OUT annotation_id bigint, OUT journal_id bigint)
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = sightline, pg_temp AS $$
DECLARE
  rid bigint;
  old sightline.annotations;
  current text;
BEGIN
  PERFORM sightline.require_writer();
  PERFORM pg_advisory_xact_lock(7477, 1);
  SELECT j.annotation_id, j.id INTO annotation_id, journal_id FROM sightline.journal j WHERE j.client_key = p_key;
  IF FOUND THEN RETURN; END IF;
  rid := sightline.room_of(p_system, p_room);
  SELECT * INTO old FROM sightline.annotations a WHERE a.room_id = rid AND a.seq IS NULL AND a.kind = 'review' AND a.present
    ORDER BY a.id DESC LIMIT 1;
  current := coalesce(old.value, 'unreviewed');
  SELECT s.annotation_id, s.journal_id INTO annotation_id, journal_id
    FROM sightline.set_review(p_system, p_room, p_status, p_author, p_at_ms, p_key) s;
  IF current IS DISTINCT FROM coalesce(p_before, 'unreviewed') AND current <> p_status THEN
    INSERT INTO sightline.conflicts(room_id, field, theirs, theirs_author, theirs_at_ms, mine, mine_author, mine_login,
        mine_at_ms, journal_id)
      VALUES (rid, 'review', current, coalesce(old.author, ''), coalesce(old.at_ms, 0), p_status, p_author, session_user,
        p_at_ms, coalesce(journal_id, 0));
    PERFORM pg_notify('sightline_team', 'conflict');
  ELSE
    UPDATE sightline.conflicts c SET resolved_by = p_author, resolved_ms = sightline.now_ms()
      WHERE c.room_id = rid AND c.field = 'review' AND c.resolved_ms IS NULL;
    IF FOUND THEN PERFORM pg_notify('sightline_team', 'conflict'); END IF;
  END IF;
END $$;
-- Settles a conflict: the room's status becomes p_status, set knowing what is there (so its open conflicts are settled
-- too); keeping the status the room has changes nothing else.
CREATE FUNCTION sightline.settle(p_id bigint, p_status text, p_author text, p_at_ms bigint, p_key text) RETURNS void
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = sightline, pg_temp AS $$
DECLARE
  c sightline.conflicts;
  r sightline.rooms;
  current text;
BEGIN
  PERFORM sightline.require_writer();
  PERFORM pg_advisory_xact_lock(7477, 1);
  SELECT * INTO c FROM sightline.conflicts WHERE id = p_id;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'the team store has no conflict %', p_id USING ERRCODE = 'no_data_found';
  END IF;
  SELECT * INTO r FROM sightline.rooms WHERE id = c.room_id;
  IF c.field <> 'review' THEN
    -- An edit's: p_status is 'theirs' or 'mine'. Theirs kept: the value made again over mine (or mine taken back,
    -- when theirs was the source's); mine kept: nothing to change.
    IF p_status = 'theirs' THEN
      IF c.theirs_edit IS NULL THEN
        PERFORM sightline.revert_edit(c.mine_edit, c.field || ': ' || c.mine, p_author, p_at_ms, p_key);
      ELSE
        PERFORM sightline.edit(r.system, r.native_id, c.seq, NULL, c.field, c.theirs,
          CASE c.field WHEN 'text' THEN 'text_edited' WHEN 'arguments' THEN 'arguments_edited'
            WHEN 'result' THEN 'result_edited' ELSE 'outcome_changed' END, c.theirs, p_author, p_at_ms, p_key, c.mine_edit);
      END IF;
    ELSIF p_status <> 'mine' THEN
      RAISE EXCEPTION 'an edit''s conflict is settled by keeping theirs or mine, not %', p_status
        USING ERRCODE = 'invalid_parameter_value';
    END IF;
    UPDATE sightline.conflicts x SET resolved_by = p_author, resolved_ms = sightline.now_ms()
      WHERE x.room_id = c.room_id AND x.field = c.field AND x.seq = c.seq AND x.resolved_ms IS NULL;
    PERFORM pg_notify('sightline_team', 'conflict');
    RETURN;
  END IF;
  SELECT coalesce((SELECT a.value FROM sightline.annotations a WHERE a.room_id = c.room_id AND a.seq IS NULL
    AND a.kind = 'review' AND a.present ORDER BY a.id DESC LIMIT 1), 'unreviewed') INTO current;
  IF current <> p_status THEN
    PERFORM sightline.change_review(r.system, r.native_id, current, p_status, p_author, p_at_ms, p_key);
  END IF;
  UPDATE sightline.conflicts x SET resolved_by = p_author, resolved_ms = sightline.now_ms()
    WHERE x.room_id = c.room_id AND x.field = c.field AND x.resolved_ms IS NULL;
  PERFORM pg_notify('sightline_team', 'conflict');
END $$;
-- Reviewers' edits of what a source said (a message's text, a call's arguments, result or outcome) and pair fixes
-- (which end closes which start), applied by every copy to its own rows. The store keeps the value made, never
-- what the source said: each copy has that.
ALTER TABLE sightline.journal ADD COLUMN edit_id bigint;
CREATE TABLE sightline.edits(
  id bigserial PRIMARY KEY,
  room_id bigint NOT NULL REFERENCES sightline.rooms(id),
  seq bigint NOT NULL,                  -- the item: a message's row, a call's card
  other_seq bigint,                     -- link and unlink: the call's end
  field text NOT NULL CHECK (field IN ('text', 'arguments', 'result', 'outcome', 'link', 'unlink')),
  value text,                           -- as the reviewer made it (none for link and unlink)
  author text NOT NULL,
  login text NOT NULL,
  at_ms bigint NOT NULL,
  present boolean NOT NULL DEFAULT true,
  version bigint NOT NULL);
CREATE INDEX edits_version ON sightline.edits(version);
-- An edit with its entry (p_action: the journal's, text_edited ...; p_after: what it says stands now).
-- p_replaces: the store's edit of the field its maker saw (none: the source's value). Another there now, not knowing
-- it: both are kept as a conflict (the later shows) until one is kept; one made knowing what is there settles it.
CREATE FUNCTION sightline.edit(p_system text, p_room text, p_seq bigint, p_other bigint, p_field text, p_value text,
    p_action text, p_after text, p_author text, p_at_ms bigint, p_key text, p_replaces bigint, OUT edit_id bigint,
    OUT journal_id bigint)
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = sightline, pg_temp AS $$
DECLARE
  rid bigint;
  cur sightline.edits;
BEGIN
  PERFORM sightline.require_writer();
  PERFORM pg_advisory_xact_lock(7477, 1);
  SELECT j.edit_id, j.id INTO edit_id, journal_id FROM sightline.journal j WHERE j.client_key = p_key;
  IF FOUND THEN RETURN; END IF;
  IF p_action NOT IN ('text_edited', 'arguments_edited', 'result_edited', 'outcome_changed', 'linked', 'unlinked') THEN
    RAISE EXCEPTION '% is no edit', p_action USING ERRCODE = 'invalid_parameter_value';
  END IF;
  rid := sightline.room_of(p_system, p_room);
  SELECT * INTO cur FROM sightline.edits x WHERE x.room_id = rid AND x.seq = p_seq AND x.field = p_field AND x.present
    ORDER BY x.id DESC LIMIT 1;
  INSERT INTO sightline.edits(room_id, seq, other_seq, field, value, author, login, at_ms, version)
    VALUES (rid, p_seq, p_other, p_field, p_value, p_author, session_user, p_at_ms, 0) RETURNING id INTO edit_id;
  INSERT INTO sightline.journal(at_ms, author, action, room_id, seq, before, after, edit_id, client_key)
    VALUES (p_at_ms, p_author, p_action, rid, p_seq, NULL, p_after, edit_id, p_key) RETURNING id INTO journal_id;
  UPDATE sightline.edits SET version = journal_id WHERE id = edit_id;
  IF p_field NOT IN ('link', 'unlink') THEN
    IF cur.id IS DISTINCT FROM p_replaces AND cur.id IS NOT NULL AND cur.value IS DISTINCT FROM p_value THEN
      INSERT INTO sightline.conflicts(room_id, field, seq, theirs_edit, mine_edit, theirs, theirs_author, theirs_at_ms,
          mine, mine_author, mine_login, mine_at_ms, journal_id)
        VALUES (rid, p_field, p_seq, cur.id, edit_id, coalesce(cur.value, ''), cur.author, cur.at_ms, coalesce(p_value, ''),
          p_author, session_user, p_at_ms, journal_id);
    ELSE
      UPDATE sightline.conflicts c SET resolved_by = p_author, resolved_ms = sightline.now_ms()
        WHERE c.room_id = rid AND c.field = p_field AND c.seq = p_seq AND c.resolved_ms IS NULL;
    END IF;
  END IF;
  PERFORM pg_notify('sightline_team', journal_id::text);
END $$;
-- Takes an edit back (Revert This Edit) with its entry; one taken back already: its id, and no entry.
CREATE FUNCTION sightline.revert_edit(p_id bigint, p_before text, p_author text, p_at_ms bigint, p_key text,
    OUT edit_id bigint, OUT journal_id bigint)
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = sightline, pg_temp AS $$
DECLARE e sightline.edits;
BEGIN
  PERFORM sightline.require_writer();
  PERFORM pg_advisory_xact_lock(7477, 1);
  SELECT j.edit_id, j.id INTO edit_id, journal_id FROM sightline.journal j WHERE j.client_key = p_key;
  IF FOUND THEN RETURN; END IF;
  SELECT * INTO e FROM sightline.edits WHERE id = p_id;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'the team store has no edit %', p_id USING ERRCODE = 'no_data_found';
  END IF;
  edit_id := p_id;
  IF NOT e.present THEN RETURN; END IF;
  INSERT INTO sightline.journal(at_ms, author, action, room_id, seq, before, after, edit_id, client_key)
    VALUES (p_at_ms, p_author, 'edit_reverted', e.room_id, e.seq, p_before, NULL, p_id, p_key) RETURNING id INTO journal_id;
  UPDATE sightline.edits SET present = false, version = journal_id WHERE id = p_id;
  PERFORM pg_notify('sightline_team', journal_id::text);
END $$;
REVOKE ALL ON ALL FUNCTIONS IN SCHEMA sightline FROM PUBLIC;
GRANT EXECUTE ON FUNCTION sightline.edit(text, text, bigint, bigint, text, text, text, text, text, bigint, text, bigint),
  sightline.revert_edit(bigint, text, text, bigint, text) TO sightline_reviewer, sightline_admin;
GRANT SELECT ON sightline.edits TO sightline_reviewer, sightline_auditor, sightline_admin;
GRANT EXECUTE ON FUNCTION sightline.change_review(text, text, text, text, text, bigint, text),
  sightline.settle(bigint, text, text, bigint, text) TO sightline_reviewer, sightline_admin;
GRANT SELECT ON sightline.conflicts TO sightline_reviewer, sightline_auditor, sightline_admin;
GRANT EXECUTE ON FUNCTION sightline.here(text, text, text, text) TO sightline_reviewer, sightline_auditor, sightline_admin;
GRANT SELECT ON sightline.presence TO sightline_reviewer, sightline_auditor, sightline_admin;
GRANT EXECUTE ON FUNCTION sightline.sees_queue(bigint) TO sightline_reviewer, sightline_auditor, sightline_admin;
GRANT EXECUTE ON FUNCTION sightline.create_queue(text, text, text, integer, text, text) TO sightline_admin;
GRANT EXECUTE ON FUNCTION sightline.queue_next(text, text), sightline.queue_done(text, text, text, text)
  TO sightline_reviewer, sightline_admin;
GRANT SELECT ON sightline.queues, sightline.queue_reviewers, sightline.queue_items
  TO sightline_reviewer, sightline_auditor, sightline_admin;
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
                .arg(db.database().userName().isEmpty() ? PgConnection::defaultRole() : db.database().userName(),
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
