#pragma once

#include "edit.h"
#include "toolcallrecord.h"

#include <optional>
#include <QString>

class Workspace;

// What reviewers change of what a source said (schema step 9): a message's text; a call's arguments or result
// (JSON, refused when it does not parse) or its outcome; which end closes which start (PairFixer).
//
// A change is written at once, inside the caller's transaction (AnnotationStore, which journals it and hands its
// rows to undo), to every place the value shows: the row's text and search text, the call's columns, the rows'
// outcome, the room's counts; the row is flagged Revised ("edited"). A field shows the latest of its edits that
// is present, else the value the source gave, which every edit keeps (Show Original). The source is never
// written; after an import wrote a room's rows again, reapply() puts its edits back.
class EditStore
{
public:
    explicit EditStore(Workspace& workspace);

    // Throws StoreError naming what is wrong (no such event, no text there, no call there, a value that is not
    // JSON, an outcome not known) and changes nothing then. An edit that changes nothing is nullopt.
    std::optional<Edit> editText(qint64 roomId, qint64 index, const QString& text, const QString& author);
    // `json` is any JSON value (a result that is a string: a JSON string); it is kept compact, as importers keep
    // it, a string as its text.
    std::optional<Edit> editCall(
        qint64 roomId, qint64 index, Edit::Field field, const QString& json, const QString& author);
    std::optional<Edit> setOutcome(qint64 roomId, qint64 index, const QString& outcome, const QString& author);
    // `index`: the call's card (its start); the end is the call's own.
    Edit unlink(qint64 roomId, qint64 index, const QString& author);
    Edit link(qint64 roomId, qint64 start, qint64 end, const QString& author);

    // Puts an edit in (present) or takes it out, and the rows show what that leaves. A link or unlink can be
    // taken out only while its calls are as it left them (undo takes changes out newest first); anything else
    // throws StoreError saying which change comes first.
    void apply(qint64 editId, bool present);

    // After an import wrote a room's rows again (a sync, a rotated log): each edit is found again by its event's
    // payload when its index moved, and the rows show the edits again.
    void reapply(qint64 roomId);

    // The edits present on an item (0 rooms: every room; no index: the whole room), oldest first.
    Edits edits(qint64 roomId, std::optional<qint64> index = std::nullopt);
    std::optional<Edit> edit(qint64 editId); // present or not

    // What the call at `index` could be linked with: for an end nothing opened, the starts of its tool before it
    // that nothing closed; for such a start, the lone ends of its tool after it. Nearest first, at most `limit`.
    ToolCallRecords linkCandidates(qint64 roomId, qint64 index, int limit = 200);

private:
    struct Call
    {
        qint64 id = 0;
        qint64 card = 0; // where it shows: its start, else its end or result
        std::optional<qint64> start, end, result;
        QString arguments, outcome, resultText;
    };
    std::optional<Call> callAt(qint64 roomId, qint64 index);
    std::optional<Edit> record(qint64 roomId, qint64 index, std::optional<qint64> other, Edit::Field field,
        const QString& original, const QString& value, const QString& author);
    // The value a field shows now: its latest present edit's, else the source's.
    void settle(qint64 roomId, qint64 index, Edit::Field field);
    void setSearchText(qint64 eventId, const char* column, const QString& text);
    // The Revised flag of the row at `index`: set while any edit present touches it, or (a call's end or result
    // row) the call's `card`.
    void markRevised(qint64 roomId, qint64 index, std::optional<qint64> card = std::nullopt);

    Workspace& m_ws;
};
