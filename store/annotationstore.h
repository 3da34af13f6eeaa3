#pragma once

#include "annotation.h"
#include "edit.h"
#include "editsteps.h"
#include "journalentry.h"

#include <optional>
#include <QMap>
#include <QString>
#include <QVariant>

class Workspace;
struct RedactionMatch;
struct TeamAnnotation;

// Notes, labels, marks and review statuses in a workspace, with their journal entries (schema step 7).
//
// A change is written at once, each with its journal entry in one transaction, so every filter, count and verb
// sees it; what it did is returned as EditSteps, which undo and redo flip. Nothing is deleted before save():
// until then an undone note is a row not present, and ids hold for redo. save() and discard() each run in one
// transaction, so a process killed during either leaves the workspace as it was or as it was to be.
class AnnotationStore
{
public:
    explicit AnnotationStore(Workspace& workspace);

    EditSteps addNote(qint64 roomId, std::optional<qint64> index, const QString& text, const QString& author);
    // Takes out any annotation (a note, a label, a mark) by its id.
    EditSteps remove(qint64 annotationId, const QString& author);
    // Nothing when the event already is (or is not) marked.
    EditSteps setMarked(qint64 roomId, qint64 index, bool marked, const QString& author);
    // Nothing when the item already has (or has not) the label. A new label gets a colour of its own.
    EditSteps addLabel(qint64 roomId, std::optional<qint64> index, const QString& name, const QString& author);
    EditSteps removeLabel(qint64 roomId, std::optional<qint64> index, const QString& name, const QString& author);
    // Nothing when the room already has that status. Throws StoreError for a status not in ReviewStatus::all().
    EditSteps setReview(qint64 roomId, const QString& status, const QString& author);

    // Redacts a span of the string at `path` in an event's payload (RedactionStore::redact), with its journal
    // entry: before, the SHA-256 of what was removed; after, the placeholder and where it is.
    EditSteps redact(qint64 roomId, qint64 index, const QString& path, qint64 start, qint64 length,
        const QString& reason, const QString& author);

    // Redacts a span of an assembled message's text (RedactionStore::redactMessage), a journal entry for each row.
    EditSteps redactMessage(qint64 roomId, qint64 index, qint64 start, qint64 length, const QString& reason,
        const QString& author);
    // Redacts every string of an event's payload under `path` (a whole field); an empty path: the whole event,
    // its ids, types, roles, statuses and times left so that the timeline still reads, and for a call's card the
    // call whole (its end and result rows) and for an assembled message its text in every part. Each string is
    // a redaction with its journal entry. Throws StoreError when there is no text there.
    EditSteps redactAll(qint64 roomId, qint64 index, const QString& path, const QString& reason, const QString& author);
    // Redacts every match bulk redaction found (RedactionStore::find), each a redaction with its journal entry, in
    // one transaction. Later spans of a string go first, so that the earlier ones stay where they were found.
    EditSteps redactMatches(const QVector<RedactionMatch>& matches, const QString& reason, const QString& author);
    // The same, saved in the same transaction (the command line's): final at its commit, with no undo copy of
    // the text left for a moment between a commit and a save.
    EditSteps redactMatchesAndSave(const QVector<RedactionMatch>& matches, const QString& reason, const QString& author);

    // Edits a message's text, a call's arguments or result (JSON) or its outcome (EditStore), with its journal
    // entry: before and after. Nothing when it changes nothing.
    EditSteps editText(qint64 roomId, qint64 index, const QString& text, const QString& author);
    EditSteps editCall(qint64 roomId, qint64 index, Edit::Field field, const QString& json, const QString& author);
    EditSteps setOutcome(qint64 roomId, qint64 index, const QString& outcome, const QString& author);
    // Unlinks a call's end from its start, or links an end nothing opened to a start nothing closed (PairFixer).
    EditSteps unlink(qint64 roomId, qint64 index, const QString& author);
    EditSteps link(qint64 roomId, qint64 start, qint64 end, const QString& author);
    // Takes one edit out, whenever it was made (saved or not): the item shows what the edits left then show.
    EditSteps revertEdit(qint64 editId, const QString& author);

    // Redoes (`redo`) or undoes what an edit did.
    void apply(const EditSteps& steps, bool redo);

    // The annotations a room has now: the room's own first, then by index and age.
    Annotations annotations(qint64 roomId);
    // The notes of a room (0: every room), as the workspace has them now, by room and index.
    Annotations notes(qint64 roomId = 0);
    // The room's review status now; nullopt when nobody reviewed it.
    std::optional<Annotation> review(qint64 roomId);
    // Every label name with its colour (#rrggbb), by name.
    QMap<QString, QString> labelColors();

    // How many journal entries were made or undone since the last save.
    int unsavedChanges();
    // Keeps every change for good. When redactions are among them, the text they removed is then gone from the
    // workspace's files too (RedactionStore::forget), or a StoreError says what keeps it in the log.
    void save();
    void discard();
    // Saves the rows of one edit alone (the command line's, written for good at once), leaving any other
    // unsaved change (a window's) as it is.
    void saveOnly(const EditSteps& steps);
    // Inside the caller's transaction: the steps' rows kept for good (redactions' undo copies deleted). True when a
    // redaction was among them: after the commit, RedactionStore::forget().
    bool markSaved(const EditSteps& steps);

    // What a report kept of a room's review (a JSON Lines report read as a source): each annotation and journal entry
    // put back as it was (author, time, saved), once: one the room has already is not added again, so a report read
    // twice or synced adds nothing. A label new to the workspace gets a colour. Inside the caller's transaction (the
    // import's), after the room's rows, whose payloads give the annotations their fingerprints.
    void restore(qint64 roomId, const Annotations& annotations, const JournalEntries& journal);

    // What the team store holds of an annotation (TeamSync), kept here as it is there: the row that came from it
    // (team_id) updated, or a new saved row when it is present. Its fingerprint is this workspace's of the event at
    // its index (fingerprints are keyed per workspace). Inside the caller's transaction.
    void adopt(qint64 roomId, const TeamAnnotation& annotation);

    // After a re-import rewrote a room's events (a rotated log), points each annotation at the index where its
    // event now is, found by its payload's fingerprint, or marks it detached when the event is gone.
    void relink(qint64 roomId);


private:
    static const char* tableName(int table); // EditStep::Table's
    template<typename Work> EditSteps transaction(Work&& work);
    qint64 insert(qint64 roomId, std::optional<qint64> index, Annotation::Kind kind, const QString& value,
        const QString& author);
    std::optional<qint64> find(qint64 roomId, std::optional<qint64> index, Annotation::Kind kind, const QString& value);
    // The fingerprint of the source's payload at `index` (NULL for the room, or an event the room does not hold).
    QVariant fingerprintAt(qint64 roomId, std::optional<qint64> index);
    // A label the workspace does not know yet gets the next colour of the palette.
    void colourLabel(const QString& name);
    void requireEvent(qint64 roomId, std::optional<qint64> index);

    Workspace& m_ws;
};
