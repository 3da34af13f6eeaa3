#include "schema.h"

#include "sqlitestatement.h"
#include "storeerror.h"

#include <QFile>
#include <QtEndian>


namespace {

// Step N brings a workspace from user_version N-1 to N. Append new steps; never edit a shipped one.
const char* const steps[] = {
    // 1: sources, rooms, events with their derived columns, paired tool calls, full-text search.
    R"SQL(
CREATE TABLE sources(
  id INTEGER PRIMARY KEY,
  system TEXT NOT NULL,                 -- roomkit | agui | craftbot
  format TEXT NOT NULL,                 -- roomkit.sqlite.v3, ...
  origin TEXT NOT NULL UNIQUE,          -- the canonical path of the source
  schema_version TEXT,
  first_import_ms INTEGER NOT NULL,
  last_sync_ms INTEGER NOT NULL,
  import_notes TEXT);
CREATE TABLE rooms(
  id INTEGER PRIMARY KEY,
  source_id INTEGER NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
  native_id TEXT NOT NULL,
  title TEXT, status TEXT, organization_id TEXT, created_us INTEGER,
  native_json TEXT,                     -- the room as the source stored it
  details_json TEXT,                    -- bindings and participants
  synced_seq INTEGER NOT NULL DEFAULT -1, -- the sync cursor: the highest source index imported
  event_count INTEGER NOT NULL DEFAULT 0, blocked_count INTEGER NOT NULL DEFAULT 0,
  tool_calls INTEGER NOT NULL DEFAULT 0, failed INTEGER NOT NULL DEFAULT 0,
  refused INTEGER NOT NULL DEFAULT 0, unserved INTEGER NOT NULL DEFAULT 0,
  first_us INTEGER, last_us INTEGER,
  UNIQUE(source_id, native_id));
CREATE TABLE events(
  id INTEGER PRIMARY KEY,
  room_id INTEGER NOT NULL REFERENCES rooms(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,                 -- the source's own index: display order, never rowid
  native_id TEXT, type TEXT NOT NULL, kind TEXT NOT NULL,
  status TEXT, blocked INTEGER NOT NULL DEFAULT 0, blocked_by TEXT,
  channel_id TEXT, channel_type TEXT, participant_id TEXT, correlation_id TEXT, parent_id TEXT,
  created_us INTEGER, role TEXT, tool_name TEXT, tool_id TEXT, outcome TEXT, text TEXT,
  flags INTEGER NOT NULL DEFAULT 0,
  payload NOT NULL);                    -- verbatim: TEXT, or BLOB when the source's bytes are not UTF-8
CREATE UNIQUE INDEX events_room_seq ON events(room_id, seq);
CREATE INDEX events_room_blocked_seq ON events(room_id, blocked, seq);
CREATE INDEX events_room_type_seq ON events(room_id, type, seq);
CREATE INDEX events_room_channel_seq ON events(room_id, channel_id, seq);
CREATE INDEX events_room_correlation_seq ON events(room_id, correlation_id, seq);
CREATE INDEX events_room_participant_seq ON events(room_id, participant_id, seq);
CREATE INDEX events_room_created ON events(room_id, created_us);
CREATE INDEX events_room_tool ON events(room_id, kind, seq) WHERE kind = 'tool_call';
CREATE TABLE tool_calls(
  id INTEGER PRIMARY KEY,
  room_id INTEGER NOT NULL REFERENCES rooms(id) ON DELETE CASCADE,
  tool_name TEXT, tool_id TEXT, group_id TEXT,
  start_seq INTEGER, end_seq INTEGER, started_us INTEGER, ended_us INTEGER,
  duration_ms INTEGER, duration_source TEXT, status TEXT, outcome TEXT,
  pairing TEXT NOT NULL, error TEXT);
CREATE INDEX tool_calls_room ON tool_calls(room_id, start_seq);
-- Contentless: the text lives in events; the index maps words to events.id.
CREATE VIRTUAL TABLE events_fts USING fts5(body, arguments, result, content='');
)SQL",
    // 2: the turn an event belongs to (RoomKit correlation, AG-UI run, CraftBot task), message ids, assembled
    // tool arguments and results, runs, and who a room belongs to. RoomKit rows are backfilled from payloads.
    R"SQL(
ALTER TABLE rooms ADD COLUMN owner TEXT;
ALTER TABLE rooms ADD COLUMN agent_id TEXT;
ALTER TABLE rooms ADD COLUMN summary TEXT;        -- CraftBot head_summary: what came before the stored events
ALTER TABLE rooms ADD COLUMN updated_us INTEGER;
ALTER TABLE rooms ADD COLUMN participants TEXT;   -- who spoke in the room, for finding it by participant
UPDATE rooms SET participants = (SELECT group_concat(DISTINCT participant_id) FROM events WHERE room_id = rooms.id);
ALTER TABLE events ADD COLUMN group_id TEXT;      -- one AI response: correlation id, run id, task
ALTER TABLE events ADD COLUMN message_id TEXT;
ALTER TABLE events ADD COLUMN source_line INTEGER; -- where the record starts in a text source (EVENT.md, JSON Lines)
UPDATE events SET group_id = correlation_id;
CREATE INDEX events_room_group_seq ON events(room_id, group_id, seq);
CREATE INDEX events_room_kind_seq ON events(room_id, kind, seq);
ALTER TABLE tool_calls ADD COLUMN arguments TEXT;         -- assembled, as the agent sent them
ALTER TABLE tool_calls ADD COLUMN arguments_valid INTEGER; -- 1 when they parse as JSON
ALTER TABLE tool_calls ADD COLUMN result TEXT;
ALTER TABLE tool_calls ADD COLUMN result_seq INTEGER;
ALTER TABLE tool_calls ADD COLUMN synthetic INTEGER NOT NULL DEFAULT 0; -- its end was made up by the source system
ALTER TABLE tool_calls ADD COLUMN ambiguous INTEGER NOT NULL DEFAULT 0; -- a guessed pair that overlaps another
UPDATE tool_calls SET
  arguments = (SELECT json_extract(e.payload, '$.content.arguments') FROM events e
               WHERE e.room_id = tool_calls.room_id AND e.seq = coalesce(tool_calls.start_seq, tool_calls.end_seq)
               AND json_valid(e.payload)),
  result = (SELECT json_extract(e.payload, '$.content.result') FROM events e
            WHERE e.room_id = tool_calls.room_id AND e.seq = tool_calls.end_seq AND json_valid(e.payload)),
  result_seq = end_seq;
UPDATE tool_calls SET arguments_valid = json_valid(arguments) WHERE arguments IS NOT NULL;
CREATE TABLE runs(
  id INTEGER PRIMARY KEY,
  room_id INTEGER NOT NULL REFERENCES rooms(id) ON DELETE CASCADE,
  group_id TEXT NOT NULL,
  kind TEXT NOT NULL,                   -- ai_response | run | task
  name TEXT, parent_group_id TEXT,
  first_seq INTEGER, last_seq INTEGER, started_us INTEGER, ended_us INTEGER,
  outcome TEXT,                         -- success | interrupt | error | cancelled | completed | open ...
  detail TEXT,                          -- the error message or end note
  synthetic INTEGER NOT NULL DEFAULT 0, -- its end was made up by the source system
  usage_json TEXT, interrupts_json TEXT);
CREATE INDEX runs_room ON runs(room_id, first_seq);
INSERT INTO runs(room_id, group_id, kind, first_seq, last_seq, started_us, ended_us)
  SELECT room_id, group_id, 'ai_response', min(seq), max(seq), min(created_us), max(created_us)
  FROM events WHERE group_id IS NOT NULL GROUP BY room_id, group_id;
)SQL",
    // 3: the small columns of every row in room order, so that the passes over a whole room (the row index
    // under a filter, the facet counts) read this index alone and never a table row (payload and text make a
    // row ten times as wide). About 80 bytes a row. The rows of one assembled message (AG-UI), so that a message
    // matches a filter by a row folded into it. And the channel types a room spoke on, for the room list.
    R"SQL(
CREATE INDEX events_room_scan ON events(room_id, seq, blocked, flags, kind, type, channel_id, channel_type,
  participant_id, tool_name, outcome, created_us, message_id);
CREATE INDEX events_room_message ON events(room_id, message_id) WHERE message_id IS NOT NULL;
ALTER TABLE rooms ADD COLUMN channel_types TEXT;
UPDATE rooms SET channel_types = (SELECT group_concat(DISTINCT channel_type) FROM events WHERE room_id = rooms.id);
)SQL",
    // 4: the indexes keyed on scattered ids go. With a correlation id or a participant as key, each new row lands
    // on another leaf of the index, so at a million rows these three cost more than the table itself to write (a
    // pure SQL copy of 1M rows: 19 s with them, 8 s without). Participants are read from the scan index (facets,
    // filters) and rooms.participants (the filter bar's completion); a turn (group or correlation id) is sought
    // within its AI response's span of rows (runs, first_seq..last_seq), or read from the whole room elsewhere.
    R"SQL(
DROP INDEX events_room_correlation_seq;
DROP INDEX events_room_group_seq;
DROP INDEX events_room_participant_seq;
)SQL",
    // 5: a full-text index that can forget. The index (step 1) is contentless: it drops a row's words only when
    // given the exact text it indexed, which nothing kept, so a row whose text changed (an edit, a redaction, a
    // message still streaming at the last sync) could never be indexed again. search_text now keeps what each row
    // has in the index; triggers on it forget the old words whenever a row's text is updated or deleted (a room's
    // rows deleted take theirs with them). A new row goes into both by SearchIndex::add (an import's, its text first and
    // the words of a commit's rows at once before it: ImportWriter::indexWords), not by a trigger: a
    // trigger makes every insert a statement with a savepoint, at which FTS5 writes out its pending words, one
    // tiny segment per row (it doubled a whole import). The index stays contentless because an external-content
    // index costs a tenth more to import into. The text of the rows indexed so far is what the index holds of
    // them, their tokens in order (fts5vocab), which is exactly what forgetting them needs; the index is then
    // made again from it, leaving out the words of rows deleted before (which it could never forget).
    R"SQL(
CREATE TABLE search_text(
  event_id INTEGER PRIMARY KEY REFERENCES events(id) ON DELETE CASCADE,
  body TEXT, arguments TEXT, result TEXT);
CREATE VIRTUAL TABLE temp.old_words USING fts5vocab(main, 'events_fts', 'instance');
CREATE TEMP TABLE old_tokens AS
  SELECT doc, col, term FROM temp.old_words WHERE doc IN (SELECT id FROM events) ORDER BY doc, col, offset;
-- Grouped along this index, each row's tokens are read in the order they were stored: (doc, rowid).
CREATE INDEX temp.old_tokens_doc ON old_tokens(doc);
INSERT INTO search_text(event_id, body, arguments, result)
  SELECT doc,
    group_concat(CASE WHEN col = 'body' THEN term END, ' '),
    group_concat(CASE WHEN col = 'arguments' THEN term END, ' '),
    group_concat(CASE WHEN col = 'result' THEN term END, ' ')
  FROM temp.old_tokens GROUP BY doc ORDER BY doc;
DROP TABLE temp.old_tokens;
DROP TABLE temp.old_words;
INSERT INTO events_fts(events_fts) VALUES ('delete-all');
INSERT INTO events_fts(rowid, body, arguments, result) SELECT event_id, body, arguments, result FROM search_text;
CREATE TRIGGER search_text_deleted AFTER DELETE ON search_text BEGIN
  INSERT INTO events_fts(events_fts, rowid, body, arguments, result)
    VALUES ('delete', old.event_id, old.body, old.arguments, old.result);
END;
CREATE TRIGGER search_text_updated AFTER UPDATE ON search_text BEGIN
  INSERT INTO events_fts(events_fts, rowid, body, arguments, result)
    VALUES ('delete', old.event_id, old.body, old.arguments, old.result);
  INSERT INTO events_fts(rowid, body, arguments, result) VALUES (new.event_id, new.body, new.arguments, new.result);
END;
)SQL",
    // 6: a call found from its end or its result row: in the raw rows a call's pairing and duration are on the
    // rows that settle it (EventQuery::callValue), and the card that holds a folded row is found from it.
    R"SQL(
CREATE INDEX tool_calls_room_end ON tool_calls(room_id, end_seq) WHERE end_seq IS NOT NULL;
CREATE INDEX tool_calls_room_result ON tool_calls(room_id, result_seq) WHERE result_seq IS NOT NULL;
)SQL",
    // 7: what reviewers add (notes, labels and marks on events, cards and rooms; a room's review status) and the
    // journal of every change. Each is kept against the room's row, which a sync or the re-import of a rotated
    // log keeps, and the event's source index with a fingerprint of its payload, by which an event a rotated
    // log moved is found again (AnnotationStore::relink). A change is in the workspace at once, so every filter,
    // count and verb sees it; `saved` and `present` say whether a row is in the workspace as last saved and as
    // edited now: undo and redo flip `present`, Save deletes what is not present and marks the rest saved, all in
    // one transaction, and Discard does the reverse. Rows of either table that differ are the unsaved changes.
    R"SQL(
CREATE TABLE annotations(
  id INTEGER PRIMARY KEY,
  room_id INTEGER NOT NULL REFERENCES rooms(id) ON DELETE CASCADE,
  seq INTEGER,                          -- the event (a card: its start); NULL: the room itself
  fingerprint TEXT,                     -- of the event's payload, to find it again when its index moved
  detached INTEGER NOT NULL DEFAULT 0,  -- its event is no longer in the source (rotated away)
  kind TEXT NOT NULL,                   -- note | label | mark | review
  value TEXT,                           -- a note's text, a label's name, a review status
  author TEXT NOT NULL,
  at_ms INTEGER NOT NULL,
  saved INTEGER NOT NULL DEFAULT 0,
  present INTEGER NOT NULL DEFAULT 1);
CREATE INDEX annotations_room_seq ON annotations(room_id, seq, kind);
CREATE TABLE labels(name TEXT PRIMARY KEY, color TEXT NOT NULL);
CREATE TABLE journal(
  id INTEGER PRIMARY KEY,
  at_ms INTEGER NOT NULL,
  author TEXT NOT NULL,
  action TEXT NOT NULL,                 -- note added, label removed, marked, review ... (Journal::Action)
  room_id INTEGER REFERENCES rooms(id) ON DELETE CASCADE,
  seq INTEGER,
  before TEXT, after TEXT,
  saved INTEGER NOT NULL DEFAULT 0,
  present INTEGER NOT NULL DEFAULT 1);
CREATE INDEX journal_room ON journal(room_id, at_ms);
)SQL",
    // 8: redactions, the ledger of what was removed: who, when, why, where (the event, the JSON path of the string
    // in its payload, the span in that string) and a keyed digest of the text removed, never the text: an
    // HMAC-SHA-256 under a secret of this workspace (secrets), so that a short text (a phone number) cannot be
    // found again by hashing every candidate, as a plain SHA-256 would let anyone with the ledger do. The digest
    // is what finds the text again in rows read again from the source; a copy handed on has no secret. A redaction
    // rewrites the rows at once (payload, display text, search text, the call's arguments and result), so that
    // everything reads the placeholder; until it is saved, redaction_undo keeps what each row held before, for
    // undo, and a save deletes those copies under secure_delete, so the text is then gone from the file.
    R"SQL(
CREATE TABLE redactions(
  id INTEGER PRIMARY KEY,
  room_id INTEGER NOT NULL REFERENCES rooms(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  fingerprint TEXT,                     -- of the payload as the source wrote it (Workspace::fingerprint)
  path TEXT NOT NULL,                   -- JSONPath of the string in the payload; '' the payload as text;
                                        -- '@text' the row's display text (an assembled message's)
  part INTEGER NOT NULL DEFAULT 0,      -- 1: a part of an assembled message's text (a delta): its own row only
  start INTEGER NOT NULL,               -- the span in that string, in UTF-16 code units
  length INTEGER NOT NULL,
  digest TEXT NOT NULL,                 -- HMAC-SHA-256 of the text removed (UTF-8), under secrets 'workspace'
  reason TEXT NOT NULL,
  author TEXT NOT NULL,
  at_ms INTEGER NOT NULL,
  saved INTEGER NOT NULL DEFAULT 0,
  present INTEGER NOT NULL DEFAULT 1);
CREATE INDEX redactions_room_seq ON redactions(room_id, seq);
CREATE TABLE redaction_undo(
  id INTEGER PRIMARY KEY,
  redaction_id INTEGER NOT NULL REFERENCES redactions(id) ON DELETE CASCADE,
  target TEXT NOT NULL,                 -- table.column
  row_id INTEGER NOT NULL,
  before, after);
CREATE INDEX redaction_undo_redaction ON redaction_undo(redaction_id, id);
CREATE TABLE secrets(name TEXT PRIMARY KEY, value BLOB NOT NULL);
)SQL",
    // 9: what reviewers changed (EditStore): a message's text, a call's arguments, result or outcome, and calls
    // linked or unlinked. Kept like annotations (step 7), against the room's row and the item's source index with
    // a fingerprint of its payload, with `saved` and `present`. A field's edit keeps the value the source gave
    // (`original`, for Show Original and revert) and what the reviewer made of it (`value`); the rows show the
    // latest present edit of each field, written at once and again after every import of the room. A link or
    // unlink keeps the calls it touched before and after it (JSON), which its undo and redo put back.
    R"SQL(
CREATE TABLE edits(
  id INTEGER PRIMARY KEY,
  room_id INTEGER NOT NULL REFERENCES rooms(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,                 -- the item: a message's row, a call's card (its start, else its end)
  other_seq INTEGER,                    -- link and unlink: the call's end
  fingerprint TEXT,                     -- of the item's payload as the source wrote it (Workspace::fingerprint)
  field TEXT NOT NULL,                  -- text | arguments | result | outcome | link | unlink
  original TEXT,                        -- as the source gave it; link and unlink: the calls before (JSON)
  value TEXT,                           -- as the reviewer made it; link and unlink: the calls after (JSON)
  author TEXT NOT NULL,
  at_ms INTEGER NOT NULL,
  saved INTEGER NOT NULL DEFAULT 0,
  present INTEGER NOT NULL DEFAULT 1);
CREATE INDEX edits_room_seq ON edits(room_id, seq);
)SQL",
    // 10: a room's calls counted by outcome from an index alone. A followed room is counted again at every sync,
    // and reading each call's outcome from its table row (beside its arguments and result) was a third of a sync of
    // a log of a million records.
    R"SQL(
CREATE INDEX tool_calls_room_outcome ON tool_calls(room_id, outcome);
)SQL",
    // 11: an EVENT.md's durations are whole seconds (its lines are stamped to the second): shown as "under 1 s" or
    // "N s ± 1 s", where they read "0 ms" and "1000 ms" as if measured.
    R"SQL(
UPDATE tool_calls SET duration_source = 'seconds' WHERE duration_source = 'timestamps' AND room_id IN
  (SELECT r.id FROM rooms r JOIN sources s ON s.id = r.source_id WHERE s.format = 'craftbot.event_md');
)SQL",
    // 12: the size of a room's log and the hash of its last 4 KB at the last sync (FileTail::mark): a log cut back to
    // its own first lines kept its first record, was taken for the same log grown, and kept the rows past the cut.
    R"SQL(
ALTER TABLE rooms ADD COLUMN file_mark TEXT;
)SQL",
    // 13: big text packed (TextPacker): a payload, a row's text, a call's arguments and result and a row's search
    // text may be a BLOB, a zstd frame. TEXT stays the text; unpack(x), a function every Workspace connection has,
    // reads both. A payload that is not UTF-8 was the one BLOB before: it is packed too, so that a BLOB is always
    // packed. The index is told the words it forgets and learns as text, whichever way search_text keeps them.
    R"SQL(
UPDATE events SET payload = pack(payload) WHERE typeof(payload) = 'blob';
DROP TRIGGER search_text_deleted;
DROP TRIGGER search_text_updated;
CREATE TRIGGER search_text_deleted AFTER DELETE ON search_text BEGIN
  INSERT INTO events_fts(events_fts, rowid, body, arguments, result)
    VALUES ('delete', old.event_id, unpack(old.body), unpack(old.arguments), unpack(old.result));
END;
CREATE TRIGGER search_text_updated AFTER UPDATE ON search_text BEGIN
  INSERT INTO events_fts(events_fts, rowid, body, arguments, result)
    VALUES ('delete', old.event_id, unpack(old.body), unpack(old.arguments), unpack(old.result));
  INSERT INTO events_fts(rowid, body, arguments, result)
    VALUES (new.event_id, unpack(new.body), unpack(new.arguments), unpack(new.result));
END;
)SQL",
    // 14: the rows up to counted_through are in rooms.participants and channel_types as a whole count made them, and
    // none of them changed since: a sync counts the rows after it alone (ImportWriter::countParticipants). NULL: the
    // next count reads the room whole.
    R"SQL(
ALTER TABLE rooms ADD COLUMN counted_through INTEGER;
)SQL",
    // 15: events_room_tool (step 1) holds the same keys as events_room_kind_seq (step 2) for its one kind: a
    // workspace kept both, a tenth of the events' index writes and 1 MB in 57 of a 100,000-line AG-UI workspace.
    R"SQL(
DROP INDEX IF EXISTS events_room_tool;
)SQL",
    // 16: work a process must finish that a kill may have cut short. 'forget': rows were redacted again as an import
    // wrote them (a log read again), and the file must be written anew (RedactionStore::forget) before the text
    // is surely gone from its pages: set in the batch's transaction, cleared once it is done.
    R"SQL(
CREATE TABLE IF NOT EXISTS pending(name TEXT PRIMARY KEY);
)SQL",
    // 17: the rows a room's source holds after its cursor that no import has read yet, counted when an import lists
    // the rooms and lowered as their batches are written (0 once a read ends at the source's end): a room not read
    // yet shows the source's count, never a false "0 events". A workspace from before read every room whole.
    R"SQL(
ALTER TABLE rooms ADD COLUMN unread INTEGER NOT NULL DEFAULT 0;
)SQL",
    // 18: a room's run by its group: an import holds only the AI responses of the rows it read lately and finds
    // the others here when their correlation id comes again (RoomKitRows), where it held every one of the room.
    R"SQL(
CREATE INDEX IF NOT EXISTS runs_room_group ON runs(room_id, group_id);
)SQL",
    // 19: a row's warning: what the source's protocol says is wrong there (an AG-UI event its client refuses), kept on
    // the row so that every verb and the window say it where it happens, not only the import that found it. NULL:
    // nothing. Rows read before keep none until their room is read again. The index holds the warned rows alone
    // (none in most rooms): whether a room has any, and which, without reading its rows, whose payloads come before
    // the column.
    R"SQL(
ALTER TABLE events ADD COLUMN warning TEXT;
CREATE INDEX events_room_warned ON events(room_id, seq) WHERE warning IS NOT NULL;
)SQL",
    // 20: the team store a workspace is attached to (TeamSync), without its password, and how far it caught up (the
    // last team journal entry it holds). An annotation or journal entry that went up or came down holds its id there
    // (team_id; 0: it went up and changed nothing there); one with none is still to go up. A journal entry names the
    // annotation it made or took out (annotation_id), so that what goes up is that annotation, in the order made, and
    // that annotation's id in the team store (team_annotation_id): a removal goes up after a save deleted the row.
    R"SQL(
CREATE TABLE team(
  id INTEGER PRIMARY KEY CHECK (id = 1),
  uri TEXT NOT NULL,
  store TEXT,                           -- the team store's own id (sightline.store): another at the URI starts over
  secret TEXT,                          -- the store's key of redaction digests (sightline.store.secret)
  client TEXT NOT NULL,                 -- this workspace's name in the keys of what it sends (a random UUID)
  cursor INTEGER NOT NULL DEFAULT 0,
  synced_ms INTEGER,
  attached INTEGER NOT NULL DEFAULT 1); -- 0: detached; attached again to the same store, it goes on from here
ALTER TABLE annotations ADD COLUMN team_id INTEGER;
ALTER TABLE journal ADD COLUMN team_id INTEGER;
ALTER TABLE journal ADD COLUMN annotation_id INTEGER;
ALTER TABLE journal ADD COLUMN team_annotation_id INTEGER; -- that annotation's in the team store, once known
ALTER TABLE journal ADD COLUMN came_down INTEGER NOT NULL DEFAULT 0; -- 1: a teammate's, from the team store
ALTER TABLE redactions ADD COLUMN team_id INTEGER; -- the store's redaction it went up as or came from
ALTER TABLE redactions ADD COLUMN team_digest TEXT; -- the digest of the text removed under the store's key
ALTER TABLE redactions ADD COLUMN came_down INTEGER NOT NULL DEFAULT 0; -- 1: a teammate's, applied here
-- A teammate's redaction not applied here yet (its room not read yet, or its text not found): tried at every sync.
CREATE TABLE team_redactions(
  team_id INTEGER PRIMARY KEY,
  system TEXT NOT NULL, room TEXT NOT NULL, seq INTEGER NOT NULL, path TEXT NOT NULL, part INTEGER NOT NULL,
  start INTEGER NOT NULL, length INTEGER NOT NULL, digest TEXT, reason TEXT NOT NULL, author TEXT NOT NULL,
  at_ms INTEGER NOT NULL, problem TEXT);
CREATE INDEX annotations_team ON annotations(team_id) WHERE team_id IS NOT NULL;
CREATE INDEX journal_team ON journal(team_id) WHERE team_id IS NOT NULL;
)SQL",
    // 21: edits and pair fixes shared with a team too. A journal entry of an edit names it (edit_id); an edit that
    // went up or came down holds its id in the team store (team_id); a teammate's edit whose item is not here yet (its
    // room not read) waits in team_edits and is applied as the room is read.
    R"SQL(
ALTER TABLE journal ADD COLUMN edit_id INTEGER;
ALTER TABLE journal ADD COLUMN replaces_edit_id INTEGER; -- the edit of the same field that showed when this one was made
ALTER TABLE edits ADD COLUMN team_id INTEGER;
ALTER TABLE edits ADD COLUMN came_down INTEGER NOT NULL DEFAULT 0;
CREATE INDEX edits_team ON edits(team_id) WHERE team_id IS NOT NULL;
CREATE TABLE team_edits(
  team_id INTEGER PRIMARY KEY,
  system TEXT NOT NULL, room TEXT NOT NULL, seq INTEGER NOT NULL, other_seq INTEGER, fingerprint TEXT,
  field TEXT NOT NULL, value TEXT, author TEXT NOT NULL, at_ms INTEGER NOT NULL, present INTEGER NOT NULL);
)SQL",
    // 22: the blocked rows and the rows on a channel alone in their indexes. Only "blocked rows only" needs a seek,
    // and blocked rows are few; filtering them out (every room's default) reads the covering scan index (step 3)
    // instead, a fifth slower over a whole room of 900,000 rows (80 → 97 ms), for 15 MB of a million-event RoomKit
    // workspace. `blocked` stays in the key so that SQLite, without statistics, sees two equalities here and one in
    // the scan index and seeks here. An AG-UI or EVENT.md row has no channel: its key was written for nothing; a
    // query naming a channel (= or IN) implies channel_id IS NOT NULL, so SQLite still chooses the index for it.
    R"SQL(
DROP INDEX IF EXISTS events_room_blocked_seq;
CREATE INDEX events_room_blocked ON events(room_id, blocked, seq) WHERE blocked = 1;
DROP INDEX IF EXISTS events_room_channel_seq;
CREATE INDEX events_room_channel ON events(room_id, channel_id, seq) WHERE channel_id IS NOT NULL;
)SQL",
    // 23: a message's id kept once per room. An AG-UI message's id (some 30 characters) was on every one of its rows,
    // in the table, the scan index (step 3) and the message index: 8 % of a thread's workspace. A row now holds its
    // room's number for it (RoomNumbers: 1, 2, ... in the order the room's messages first came), still in
    // message_id, so that every query that matches rows of one message by that column reads as before; what shows
    // the id (a record, a report) reads it from here (RecordFields). A row whose room is gone (only a hand's edit
    // leaves one) keeps no id rather than failing the migration on the table's foreign key.
    R"SQL(
CREATE TABLE messages(
  room_id INTEGER NOT NULL REFERENCES rooms(id) ON DELETE CASCADE,
  number INTEGER NOT NULL,
  native TEXT NOT NULL,                 -- the id as the source gave it
  PRIMARY KEY(room_id, number)) WITHOUT ROWID;
CREATE UNIQUE INDEX messages_native ON messages(room_id, native);
INSERT INTO messages(room_id, number, native)
  SELECT room_id, row_number() OVER (PARTITION BY room_id ORDER BY min(seq)), message_id
  FROM events WHERE message_id IS NOT NULL AND room_id IN (SELECT id FROM rooms) GROUP BY room_id, message_id;
UPDATE events SET message_id = (SELECT m.number FROM messages m WHERE m.room_id = events.room_id
  AND m.native = events.message_id) WHERE message_id IS NOT NULL;
)SQL",
    // 24: a row's group (its turn: a RoomKit correlation id, an AG-UI run id, a CraftBot task) kept once per room as
    // well, as step 23 keeps message ids: a run id was on every row of its run, a RoomKit correlation id (36
    // characters) on every row of its AI response. Calls and runs keep theirs as text (one a call or a run).
    R"SQL(
CREATE TABLE turns(
  room_id INTEGER NOT NULL REFERENCES rooms(id) ON DELETE CASCADE,
  number INTEGER NOT NULL,
  native TEXT NOT NULL,                 -- the group id as the rows gave it
  PRIMARY KEY(room_id, number)) WITHOUT ROWID;
CREATE UNIQUE INDEX turns_native ON turns(room_id, native);
INSERT INTO turns(room_id, number, native)
  SELECT room_id, row_number() OVER (PARTITION BY room_id ORDER BY min(seq)), group_id
  FROM events WHERE group_id IS NOT NULL AND room_id IN (SELECT id FROM rooms) GROUP BY room_id, group_id;
UPDATE events SET group_id = (SELECT t.number FROM turns t WHERE t.room_id = events.room_id
  AND t.native = events.group_id) WHERE group_id IS NOT NULL;
)SQL",
    // 25: payloads are packed against the formats' own words from now on (TextPacker::VocabularyTag), a form an
    // older Sightline cannot read: the step changes no row, it makes an older build refuse the workspace by its
    // version ("written by a newer Sightline") rather than fail on a payload. Rows packed before stay as they are;
    // Compact Workspace packs them so.
    R"SQL(
-- nothing to change: see above
)SQL",
    // 26: an event's type, kind, role and tool's name kept as codes of one table of words (WordCodes,
    // EventKinds::code): an AG-UI type is some 20 characters on every row, three times a row (the table, the scan
    // index, the type index), and with the kind, the role and the tool's name they were a fifth of a thread's
    // workspace. The kinds' codes are fixed (below 16); the other words take theirs from 16 on, here in their names'
    // order, later as they come (a word named as a kind, CraftBot's "error", is that word). A code is TEXT, as the
    // columns hold it, so that `type = (SELECT code FROM words WHERE name = ...)` keeps the column's index. The
    // indexes holding these columns are made again after the rows rather than updated row by row.
    R"SQL(
CREATE TABLE words(
  code TEXT PRIMARY KEY,                -- digits
  name TEXT NOT NULL UNIQUE) WITHOUT ROWID;
INSERT INTO words(code, name) VALUES ('0', 'message'), ('1', 'reasoning'), ('2', 'tool_call'), ('3', 'run'),
  ('4', 'state'), ('5', 'lifecycle'), ('6', 'system'), ('7', 'error'), ('8', 'custom');
INSERT INTO words(code, name)
  SELECT 15 + row_number() OVER (ORDER BY name), name
  FROM (SELECT type AS name FROM events UNION SELECT role FROM events WHERE role <> ''
    UNION SELECT tool_name FROM events WHERE tool_name <> '')
  WHERE name NOT IN (SELECT name FROM words);
DROP INDEX IF EXISTS events_room_scan;
DROP INDEX IF EXISTS events_room_type_seq;
DROP INDEX IF EXISTS events_room_kind_seq;
UPDATE events SET type = (SELECT code FROM words WHERE name = events.type),
  kind = coalesce((SELECT code FROM words WHERE name = events.kind AND CAST(code AS INTEGER) < 16), '8'),
  role = CASE WHEN role <> '' THEN (SELECT code FROM words WHERE name = events.role) END,
  tool_name = CASE WHEN tool_name <> '' THEN (SELECT code FROM words WHERE name = events.tool_name) END;
CREATE INDEX events_room_scan ON events(room_id, seq, blocked, flags, kind, type, channel_id, channel_type,
  participant_id, tool_name, outcome, created_us, message_id);
CREATE INDEX events_room_type_seq ON events(room_id, type, seq);
CREATE INDEX events_room_kind_seq ON events(room_id, kind, seq);
)SQL",
};

// Runs one statement on the native handle; throws StoreError naming the file and the step.
void execNative(sqlite3* db, const char* sql, const QString& file, int step)
{
    char* error = nullptr;
    if (sqlite3_exec(db, sql, nullptr, nullptr, &error) != SQLITE_OK) {
        const QString message = QString::fromUtf8(error ? error : sqlite3_errmsg(db));
        sqlite3_free(error);
        throw StoreError(file, step > 0 ? QStringLiteral("schema step %1").arg(step) : QString(), message);
    }
}

int userVersion(sqlite3* db, const QString& file)
{
    SqliteStatement q(db, "PRAGMA user_version");
    if (!q.step())
        throw StoreError(file, {}, QStringLiteral("cannot read the workspace's schema version"));
    return int(q.int64(0));
}

} // namespace

namespace Schema {

int latestVersion()
{
    return static_cast<int>(std::size(steps));
}

int fileVersion(const QString& path)
{
    // The database header itself (SQLite's file format: the magic string, user_version at byte 60, application_id at
    // 68, big-endian), read as a file: opening the database, even read-only, takes a lock, recovers a log a crash
    // left, and makes -wal and -shm files beside a workspace that has none, on the window's thread. A version that a
    // log not yet written back holds is not seen: the window then says "upgrading" of an open that only recovers.
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return -1;
    const QByteArray header = file.read(100);
    if (header.size() < 100 || !header.startsWith(QByteArrayLiteral("SQLite format 3")))
        return -1;
    const auto at = [&header](int offset) { return qFromBigEndian<qint32>(header.constData() + offset); };
    return at(68) == ApplicationId ? at(60) : -1;
}

void runScript(sqlite3* db, const char* script, const QString& file, int step)
{
    // SQLite parses one statement at a time and says where the next one starts (the tail), so a trigger's
    // body, a ';' or a '--' inside a literal and comments are all read as SQLite reads them.
    const char* next = script;
    while (next && *next) {
        sqlite3_stmt* statement = nullptr;
        const char* tail = nullptr;
        if (sqlite3_prepare_v2(db, next, -1, &statement, &tail) != SQLITE_OK) {
            throw StoreError(file, QStringLiteral("schema step %1").arg(step),
                QStringLiteral("migration failed: ") + QString::fromUtf8(sqlite3_errmsg(db)));
        }
        if (statement) { // null for what is only white space or comments
            int rc = SQLITE_ROW;
            while (rc == SQLITE_ROW)
                rc = sqlite3_step(statement);
            sqlite3_finalize(statement);
            if (rc != SQLITE_DONE) {
                throw StoreError(file, QStringLiteral("schema step %1").arg(step),
                    QStringLiteral("migration failed: ") + QString::fromUtf8(sqlite3_errmsg(db)));
            }
        }
        next = tail;
    }
}

void migrate(QSqlDatabase& qdb, const QString& file, int upTo)
{
    sqlite3* db = nativeSqliteHandle(qdb);
    if (!db)
        throw StoreError(file, {}, QStringLiteral("the workspace is not opened through SQLite"));
    const int target = upTo < 0 ? latestVersion() : upTo;
    auto tooNew = [&](int version) {
        return StoreError(file, {},
            QStringLiteral("workspace schema version %1 was written by a newer Sightline (this one reads "
                           "up to %2)")
                .arg(version)
                .arg(latestVersion()));
    };
    // Most opens find the workspace up to date: that needs no write lock.
    int version = userVersion(db, file);
    if (version > latestVersion())
        throw tooNew(version);
    if (version >= target)
        return;
    // The write lock first, then the version: two processes opening one new workspace at once would otherwise
    // both read 0 and both run step 1. The second waits here (busy timeout) and then finds nothing to do.
    const int rc = sqlite3_exec(db, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr);
    if (rc == SQLITE_BUSY || rc == SQLITE_LOCKED) {
        throw StoreError(file, {},
            QStringLiteral("another program (another Sightline?) is writing this workspace; try again when it is "
                           "done"));
    }
    if (rc != SQLITE_OK)
        throw StoreError(file, {}, QStringLiteral("cannot begin a migration: ") + QString::fromUtf8(sqlite3_errmsg(db)));
    try {
        version = userVersion(db, file);
        if (version > latestVersion())
            throw tooNew(version);
        for (; version < target; ++version) {
            runScript(db, steps[version], file, version + 1);
            execNative(db, QStringLiteral("PRAGMA application_id = %1").arg(ApplicationId).toUtf8().constData(), file,
                version + 1);
            execNative(db, QStringLiteral("PRAGMA user_version = %1").arg(version + 1).toUtf8().constData(), file,
                version + 1);
        }
        execNative(db, "COMMIT", file, 0); // every step or none: a failed one leaves the file as it was
    } catch (...) {
        sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
        throw;
    }
}

} // namespace Schema
