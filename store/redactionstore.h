#pragma once

#include "editsteps.h"
#include "jsonstrings.h"
#include "redactionpatterns.h"

#include <QMetaType>
#include <QVariant>

#include <optional>
#include <QString>
#include <QVector>

class Workspace;

// A redaction as the ledger keeps it.
struct Redaction
{
    qint64 id = 0;
    qint64 roomId = 0;
    QString room; // the room's own id in its source
    qint64 index = 0;
    QString path; // JSONPath of the string in the event's payload
    qint64 start = 0; // the span in that string, in UTF-16 code units
    qint64 length = 0;
    QString digest; // HMAC-SHA-256 of the text removed, under the workspace's secret (RedactionStore::digest)
    QString reason;
    QString author;
    qint64 atMs = 0;
    bool saved = false;
};
using Redactions = QVector<Redaction>;

// A span that bulk redaction found, before anything changes: what the preview lists.
struct RedactionMatch
{
    qint64 roomId = 0;
    QString room;
    qint64 index = 0;
    QString path;
    qint64 start = 0;
    qint64 length = 0;
    QString text; // what would go
    QString pattern; // which pattern found it
    QString context; // the text around it, for a person to judge (…before[text]after…)
    // With path "@message" (an assembled message's text, at the row that shows it) or "@arguments" (a call's
    // assembled arguments, at its start): the indexes of the rows whose deltas make that text, in order.
    QVector<qint64> parts;
    qint64 noteId = 0; // with path "@note": the reviewer's note whose text it is in
};
using RedactionMatches = QVector<RedactionMatch>;
Q_DECLARE_METATYPE(RedactionMatch)

// Redactions: a span of a string in an event's payload replaced by a placeholder that gives the reason,
// wherever the event's text shows (its payload, display text, search text, its call's arguments, result and
// error, its message's assembled text, the room's title). The rows are rewritten at once, inside the caller's
// transaction (AnnotationStore), keeping what they held in redaction_undo for undo until the save, which
// deletes those copies under secure_delete, makes the full-text index drop the old words for good, and
// truncates the write-ahead log: after it the text is nowhere in the workspace's files.
class RedactionStore
{
public:
    explicit RedactionStore(Workspace& workspace);

    static QString placeholder(const QString& reason);
    // `text` as the search index is told it: each placeholder a space, so that a search finds what was said, never
    // the words of a reason.
    static QString searchable(const QString& text);
    // The keyed digest of a text removed: HMAC-SHA-256 under the workspace's secret (Workspace::secret). Empty
    // when the workspace has no secret (a copy handed on): its texts cannot be found again.
    QString digest(const QString& text);
    // The digest of a text removed under the key of the team store the workspace is attached to (TeamSync), which
    // every teammate's copy computes alike to check it cuts the same text; null when it is attached to none.
    QVariant teamDigest(const QString& text);

    // Redacts [start, start + length) of the string at `path` in the payload of the event at `index`. Throws
    // StoreError naming what is wrong (no such event, no string there, an empty span, a payload that is not
    // JSON) and changes nothing then.
    // `part`: how a piece of an assembled text is cut (redactMessage, redactArguments).
    enum class Part { Whole = 0, First = 1, Rest = 2 };
    Redaction redact(qint64 roomId, qint64 index, const QString& path, qint64 start, qint64 length,
        const QString& reason, const QString& author, Part part = Part::Whole);
    // Redacts [start, start + length) of an assembled message's text (AG-UI: the item at `index` shows what its
    // deltas make together): each delta's part of the span in its own payload, and the span of the text the
    // item shows. The first delta the span touches shows the placeholder and the others lose their piece, so
    // the deltas still add up to the text shown. Throws StoreError when the row is no assembled message, or its
    // text is not its deltas'. `parts`: the deltas' indexes when the caller knows them (a bulk redaction's
    // match), which spares a pass over the room.
    Redactions redactMessage(qint64 roomId, qint64 index, qint64 start, qint64 length, const QString& reason,
        const QString& author, const QVector<qint64>& parts = {});
    // The same for a call's assembled arguments (AG-UI: TOOL_CALL_ARGS deltas; the call starts at `index`): the
    // deltas, the call's arguments, and the start row's text and search text.
    Redactions redactArguments(qint64 roomId, qint64 index, qint64 start, qint64 length, const QString& reason,
        const QString& author, const QVector<qint64>& parts = {});
    // Where `text` still shows in the payloads of the tool call the row at `index` belongs to (its start, end and
    // result rows): the first string value holding it, as a match to redact (nullopt: nowhere, or not a call's row).
    // A RoomKit call's end row repeats its arguments, and its result may hold the same value: a selection redacted
    // in one of them left the others readable.
    std::optional<RedactionMatch> copyInCall(qint64 roomId, qint64 index, const QString& text);
    // Redacts [start, start + length) of a reviewer's note, and of the journal's record of it. Throws StoreError
    // when there is no such note or the span is not in it.
    Redaction redactNote(qint64 noteId, qint64 start, qint64 length, const QString& reason, const QString& author);
    // Undoes (`redo` false) or redoes a redaction not saved yet.
    void apply(qint64 redactionId, bool redo);
    // Inside the save's transaction: the undo copies of every redaction go; true when a redaction was saved
    // (the caller then lets the index and the log forget: forget()).
    bool save();
    // Inside a revert's transaction: every redaction not saved is undone, newest first, and dropped.
    void discard();
    // After the save's commit: the full-text index merged (its deleted words gone from its pages) and the log
    // truncated. Throws StoreError when a reader keeps the log from being truncated.
    void forget();

    // While an import writes a room's rows (`written`: the indexes of the rows written since its last commit, in
    // the same transaction, so that no reader and no killed import ever has them unredacted) and after it: every
    // redaction whose text the rows hold again (a rotated log read again, its event perhaps at another index) is
    // applied again, and the room's own fields are redacted again, so a redacted text never comes back. True
    // when it redacted anything again (then forget() empties the log of it).
    bool reapply(qint64 roomId, std::optional<std::pair<qint64, qint64>> written = std::nullopt);
    // After reapply() over a whole room: the redactions whose text it found nowhere (their event gone from the
    // source, or changed where they cut it), by id.
    const QVector<qint64>& unplaced() const { return m_unplaced; }

    // Every match of `patterns` in the string values of the payloads of a room (0: every room), by room, index
    // and place, at most `limit`. Text a reader sees assembled from deltas (an AG-UI message, a call's arguments)
    // is matched as assembled ("@message", "@arguments"), so a secret split across two deltas is found too.
    RedactionMatches find(qint64 roomId, const QVector<RedactionPatterns::Pattern>& patterns, int limit = 100000);

    // The ledger, oldest first; roomId 0: every room.
    Redactions ledger(qint64 roomId = 0);

private:
    // The row of a redaction of a row's display text (path '@text'): its text and search text cut at the span.
    Redaction redactText(qint64 roomId, qint64 index, qint64 start, qint64 length, const QString& reason,
        const QString& author);
    // Sets `target` (table.column) of row `rowId` to `after`, keeping `before` for undo.
    void write(qint64 redactionId, const QString& target, qint64 rowId, const QVariant& before, const QVariant& after);
    void forgetCounted(const QString& target, qint64 rowId); // after a write to `target`'s row
    static QString updateOf(const QString& target); // the UPDATE for a target (a fixed list)
    // The text removed, wherever the item's edits (EditStore) and their journal entries keep it.
    void rewriteEdits(qint64 redactionId, qint64 roomId, qint64 index, const QString& removed, const QString& shown);
    // The pieces of an assembled text (the rows at `parts`, or the rows `select` finds with `binds`), each the
    // string at $.delta of its payload, in order, with where it starts in the whole.
    struct Piece
    {
        qint64 seq;
        qsizetype from;
        qsizetype size;
    };
    QVector<Piece> pieces(qint64 roomId, const QVector<qint64>& parts, const QString& select, const QVariantList& binds,
        QString* joined);
    // Redacts the span of the pieces: later pieces first, the first one touched showing the placeholder.
    Redactions redactPieces(qint64 roomId, const QVector<Piece>& found, qint64 start, qint64 length,
        const QString& reason, const QString& author);
    // After a whole import: an assembled text shown whole again (its row read again from the source) while its
    // deltas are redacted is made again from them.
    bool reassemble(qint64 roomId);
    // The call `toolId`'s arguments set to `joined` (its deltas' sum) with its start row's text and search text;
    // undoable with the redaction when `redactionId` is not 0. False when they were that already.
    bool reassembleArguments(qint64 redactionId, qint64 roomId, const QString& toolId, const QString& joined);
    // The text a redaction removed from the row at `index`, wherever a call made from that row in the rows just
    // `written` holds it again (found by its digest); true when it was there.
    bool scrubCalls(qint64 roomId, qint64 index, qint64 length, const QString& removedDigest, const QString& shown,
        std::pair<qint64, qint64> written);
    // Sets the row's Redacted flag (EventFlags), undoably with the redaction when `redactionId` is not 0.
    void markRedacted(qint64 redactionId, qint64 eventId);
    // Replaces the span in the payload and the text removed wherever the event's text was copied; undoable when
    // `redactionId` is not 0.
    void rewrite(qint64 redactionId, qint64 roomId, qint64 index, qint64 eventId, const QString& messageId,
        const QString& payload, const JsonStrings::Token& token, qint64 start, qint64 length, const QString& shown);

    Workspace& m_ws;
    QVector<qint64> m_unplaced;
};
