#include "redactionstore.h"

#include "annotationstore.h"
#include "eventflags.h"
#include "jsonstrings.h"
#include "jsontext.h"
#include "storeerror.h"
#include "workspace.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMessageAuthenticationCode>
#include <QRegularExpression>
#include <QRandomGenerator>
#include <QSqlQuery>

namespace {

// A display text with [start, start + length) replaced by `shown`, and its search text: cut at the same place
// when it is the same text (a message's), else wherever it holds what went.
std::pair<QString, QString> cutDisplay(const QString& text, const QString& body, qint64 start, qint64 length, const QString& shown)
{
    const QString cut = text.left(start) + shown + text.mid(start + length);
    return { cut, body == text ? cut : QString(body).replace(text.mid(start, length), shown) };
}

} // namespace

RedactionStore::RedactionStore(Workspace& workspace)
    : m_ws(workspace)
{
    // What a redaction replaces, and the copies kept for its undo, are zeroed where they are deleted, not left in
    // free space (every connection has it on: Workspace).
    m_ws.exec(QStringLiteral("PRAGMA secure_delete = ON"));
}

QString RedactionStore::placeholder(const QString& reason)
{
    return QStringLiteral("[redacted: %1]").arg(reason.simplified());
}

QString RedactionStore::searchable(const QString& text)
{
    // The placeholder shows where text was removed; its words are not the conversation's, and a search for
    // "payment" found every "[redacted: payment data]". `is:redacted` finds redacted rows.
    static const QRegularExpression placeholders(QStringLiteral("\\[redacted: [^\\]]*\\]"));
    return QString(text).replace(placeholders, QStringLiteral(" "));
}

QString RedactionStore::digest(const QString& text)
{
    const QByteArray key = m_ws.secret(false);
    if (key.isEmpty())
        return {};
    return QString::fromLatin1(QMessageAuthenticationCode::hash(text.toUtf8(), key, QCryptographicHash::Sha256).toHex());
}

QVariant RedactionStore::teamDigest(const QString& text)
{
    QSqlQuery q = m_ws.exec(QStringLiteral("SELECT secret FROM team WHERE attached = 1 AND secret IS NOT NULL"));
    if (!q.next())
        return {};
    return QString::fromLatin1(
        QMessageAuthenticationCode::hash(text.toUtf8(), q.value(0).toString().toUtf8(), QCryptographicHash::Sha256).toHex());
}

QString RedactionStore::updateOf(const QString& target)
{
    // Every place a text can show, and nothing else: the target names a fixed statement, never SQL of its own.
    static const QHash<QString, QString> updates {
        { QStringLiteral("events.payload"), QStringLiteral("UPDATE events SET payload = ? WHERE id = ?") },
        { QStringLiteral("events.text"), QStringLiteral("UPDATE events SET text = ? WHERE id = ?") },
        { QStringLiteral("events.flags"), QStringLiteral("UPDATE events SET flags = ? WHERE id = ?") },
        { QStringLiteral("events.participant_id"), QStringLiteral("UPDATE events SET participant_id = ? WHERE id = ?") },
        { QStringLiteral("rooms.participants"), QStringLiteral("UPDATE rooms SET participants = ? WHERE id = ?") },
        { QStringLiteral("rooms.native_json"), QStringLiteral("UPDATE rooms SET native_json = ? WHERE id = ?") },
        { QStringLiteral("rooms.details_json"), QStringLiteral("UPDATE rooms SET details_json = ? WHERE id = ?") },
        { QStringLiteral("search_text.body"), QStringLiteral("UPDATE search_text SET body = ? WHERE event_id = ?") },
        { QStringLiteral("search_text.arguments"),
            QStringLiteral("UPDATE search_text SET arguments = ? WHERE event_id = ?") },
        { QStringLiteral("search_text.result"), QStringLiteral("UPDATE search_text SET result = ? WHERE event_id = ?") },
        { QStringLiteral("tool_calls.arguments"), QStringLiteral("UPDATE tool_calls SET arguments = ? WHERE id = ?") },
        { QStringLiteral("tool_calls.result"), QStringLiteral("UPDATE tool_calls SET result = ? WHERE id = ?") },
        { QStringLiteral("tool_calls.error"), QStringLiteral("UPDATE tool_calls SET error = ? WHERE id = ?") },
        { QStringLiteral("rooms.title"), QStringLiteral("UPDATE rooms SET title = ? WHERE id = ?") },
        { QStringLiteral("rooms.summary"), QStringLiteral("UPDATE rooms SET summary = ? WHERE id = ?") },
        { QStringLiteral("edits.original"), QStringLiteral("UPDATE edits SET original = ? WHERE id = ?") },
        { QStringLiteral("edits.value"), QStringLiteral("UPDATE edits SET value = ? WHERE id = ?") },
        { QStringLiteral("journal.before"), QStringLiteral("UPDATE journal SET before = ? WHERE id = ?") },
        { QStringLiteral("journal.after"), QStringLiteral("UPDATE journal SET after = ? WHERE id = ?") },
        { QStringLiteral("annotations.value"), QStringLiteral("UPDATE annotations SET value = ? WHERE id = ?") },
    };
    const QString sql = updates.value(target);
    if (sql.isEmpty())
        throw StoreError({}, {}, QStringLiteral("no redaction target %1").arg(target));
    return sql;
}

void RedactionStore::markRedacted(qint64 redactionId, qint64 eventId)
{
    QSqlQuery q = m_ws.exec(QStringLiteral("SELECT flags FROM events WHERE id = ?"), { eventId });
    if (!q.next())
        return;
    const qint64 flags = q.value(0).toLongLong();
    q.finish();
    if (!(flags & EventFlags::Redacted))
        write(redactionId, QStringLiteral("events.flags"), eventId, flags, flags | EventFlags::Redacted);
}

void RedactionStore::write(
    qint64 redactionId, const QString& target, qint64 rowId, const QVariant& before, const QVariant& written)
{
    // What the index is told holds no placeholder (searchable), and an undo's redo writes the same.
    const QVariant after = target.startsWith(QLatin1String("search_text.")) && !written.isNull()
        ? QVariant(searchable(written.toString()))
        : written;
    if (redactionId != 0) { // 0: a saved redaction applied again to rows read again, with nothing to undo
        m_ws.exec(QStringLiteral("INSERT INTO redaction_undo(redaction_id, target, row_id, before, after) VALUES (?, ?, ?, ?, ?)"),
            { redactionId, target, rowId, before, after });
    }
    m_ws.exec(updateOf(target), { after, rowId });
    forgetCounted(target, rowId);
}

void RedactionStore::forgetCounted(const QString& target, qint64 rowId)
{
    // The room's participants are counted whole at its next import: the rows' and the room's list changed apart
    // from any count (ImportWriter::countParticipants reads only rows it has not counted).
    if (target == QLatin1String("events.participant_id"))
        m_ws.exec(QStringLiteral("UPDATE rooms SET counted_through = NULL WHERE id = (SELECT room_id FROM events WHERE id = ?)"),
            { rowId });
    else if (target == QLatin1String("rooms.participants"))
        m_ws.exec(QStringLiteral("UPDATE rooms SET counted_through = NULL WHERE id = ?"), { rowId });
}

Redaction RedactionStore::redact(qint64 roomId, qint64 index, const QString& path, qint64 start, qint64 length,
    const QString& reason, const QString& author, Part part)
{
    const QString why = reason.simplified();
    if (why.isEmpty())
        throw StoreError(m_ws.path(), {}, QStringLiteral("a redaction needs a reason"));
    if (path == QLatin1String("@text")) // the text a row shows, which a reviewer edited: not in its payload
        return redactText(roomId, index, start, length, why, author);
    QSqlQuery row = m_ws.exec(
        QStringLiteral("SELECT id, unpack(payload), typeof(unpack(payload)), message_id FROM events WHERE room_id = ? AND seq = ?"),
        { roomId, index });
    if (!row.next())
        throw StoreError(m_ws.path(), {}, QStringLiteral("the room has no event at index %1").arg(index));
    const qint64 eventId = row.value(0).toLongLong();
    if (row.value(2).toString() != QLatin1String("text")) {
        throw StoreError(m_ws.path(), QStringLiteral("event %1").arg(index),
            QStringLiteral("its stored bytes are not UTF-8 text, so no span of them can be redacted"));
    }
    const QString payload = row.value(1).toString();
    const QString messageId = row.value(3).toString();
    row.finish();
    // An empty path: the payload is not JSON (a CraftBot record) and its text is cut as it is.
    const std::optional<JsonStrings::Token> token = JsonStrings::stringAt(payload, path);
    if (!token) {
        throw StoreError(m_ws.path(), QStringLiteral("event %1").arg(index),
            QStringLiteral("its payload has no string at %1").arg(path.isEmpty() ? QStringLiteral("(the text)") : path));
    }
    if (start < 0 || length <= 0 || start + length > token->value.size()) {
        throw StoreError(m_ws.path(), QStringLiteral("event %1, %2").arg(index).arg(path),
            QStringLiteral("characters %1 to %2 are not in its string of %3").arg(start).arg(start + length).arg(token->value.size()));
    }
    JsonStrings::wholeCharacters(token->value, start, length);
    const QString removed = token->value.mid(start, length);
    // A piece of an assembled text after the first one the span touches shows nothing: the placeholder is said
    // once, where the span starts, and the pieces still add up to the text shown.
    const QString shown = part == Part::Rest ? QString() : placeholder(why);

    Redaction r;
    r.roomId = roomId;
    r.index = index;
    r.path = path;
    r.start = start;
    r.length = length;
    m_ws.secret(true); // the workspace's first redaction makes it
    r.digest = digest(removed);
    r.reason = why;
    r.author = author;
    r.atMs = QDateTime::currentMSecsSinceEpoch();
    // The fingerprint of the payload as the source wrote it: the first redaction of the row saw it.
    QSqlQuery first = m_ws.exec(
        QStringLiteral("SELECT fingerprint FROM redactions WHERE room_id = ? AND seq = ? AND present = 1 ORDER BY id LIMIT 1"),
        { roomId, index });
    const QString print = first.next() ? first.value(0).toString() : m_ws.fingerprint(payload.toUtf8());
    first.finish();
    QSqlQuery q = m_ws.exec(QStringLiteral("INSERT INTO redactions(room_id, seq, fingerprint, path, part, start, length, "
                                           "digest, team_digest, reason, author, at_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
                                           "?, ?)"),
        { roomId, index, print, path.isNull() ? QStringLiteral("") : path, int(part), start, length, r.digest,
            teamDigest(removed), why, author, r.atMs });
    r.id = q.lastInsertId().toLongLong();
    q.finish();

    // A part of an assembled message: the message's text is cut at its own span (redactMessage), not wherever
    // this part's few characters happen to occur in it.
    rewrite(r.id, roomId, index, eventId, part != Part::Whole ? QString() : messageId, payload, *token, start, length,
        shown);
    // One argument delta redacted alone (its raw row): the call's arguments are its deltas' sum again, and so is
    // what its start row shows and is found by.
    if (part == Part::Whole && path == QLatin1String("$.delta")) {
        QSqlQuery call = m_ws.exec(QStringLiteral("SELECT tool_id FROM events WHERE id = ? AND type = (SELECT code FROM words WHERE "
                                                  "name = 'TOOL_CALL_ARGS') AND tool_id IS NOT NULL"),
            { eventId });
        if (call.next()) {
            const QString toolId = call.value(0).toString();
            call.finish();
            QString joined;
            pieces(roomId, {},
                QStringLiteral("SELECT seq, unpack(payload) FROM events WHERE room_id = ? AND tool_id = ? AND type = "
                               "(SELECT code FROM words WHERE name = 'TOOL_CALL_ARGS') AND typeof(unpack(payload)) = "
                               "'text' ORDER BY seq"),
                { roomId, toolId }, &joined);
            reassembleArguments(r.id, roomId, toolId, joined);
        }
    }
    return r;
}

void RedactionStore::rewrite(qint64 redactionId, qint64 roomId, qint64 index, qint64 eventId, const QString& messageId,
    const QString& payload, const JsonStrings::Token& token, qint64 start, qint64 length, const QString& shown)
{
    const QString removed = token.value.mid(start, length);
    write(redactionId, QStringLiteral("events.payload"), eventId, payload, JsonStrings::cut(payload, token, start, length, shown));
    markRedacted(redactionId, eventId);
    // The text derived from it, wherever it was copied: every occurrence in the rows of this event.
    auto replaceIn = [&](const QString& select, const QVariantList& binds, const QStringList& targets, bool json) {
        QSqlQuery rows = m_ws.exec(select, binds);
        QVector<std::tuple<QString, qint64, QString, QString>> changes;
        while (rows.next()) {
            const qint64 id = rows.value(0).toLongLong();
            for (int c = 0; c < targets.size(); ++c) {
                if (rows.value(c + 1).isNull())
                    continue;
                const QString before = rows.value(c + 1).toString();
                QString after = before;
                if (json)
                    after.replace(JsonStrings::escaped(removed), JsonStrings::escaped(shown));
                after.replace(removed, shown);
                if (after != before)
                    changes.append({ targets[c], id, before, after });
            }
        }
        rows.finish();
        for (const auto& [target, id, before, after] : changes)
            write(redactionId, target, id, before, after);
    };
    const QStringList searchTargets { QStringLiteral("search_text.body"), QStringLiteral("search_text.arguments"),
        QStringLiteral("search_text.result") };
    replaceIn(QStringLiteral("SELECT id, unpack(text), participant_id FROM events WHERE id = ?"), { eventId },
        { QStringLiteral("events.text"), QStringLiteral("events.participant_id") }, false);
    replaceIn(QStringLiteral("SELECT event_id, unpack(body), unpack(arguments), unpack(result) FROM search_text WHERE event_id = ?"), { eventId },
        searchTargets, false);
    if (!messageId.isEmpty()) {
        // An assembled message (AG-UI): its first row holds the whole text its deltas made.
        replaceIn(QStringLiteral("SELECT id, unpack(text) FROM events WHERE room_id = ? AND message_id = ? AND id != ?"),
            { roomId, messageId, eventId }, { QStringLiteral("events.text") }, false);
        replaceIn(QStringLiteral("SELECT s.event_id, unpack(s.body), unpack(s.arguments), unpack(s.result) FROM search_text s JOIN events e ON "
                                 "e.id = s.event_id WHERE e.room_id = ? AND e.message_id = ? AND e.id != ?"),
            { roomId, messageId, eventId }, searchTargets, false);
    }
    replaceIn(QStringLiteral("SELECT id, unpack(arguments), unpack(result), error FROM tool_calls WHERE room_id = ? AND (start_seq = ? OR "
                             "end_seq = ? OR result_seq = ?)"),
        { roomId, index, index, index },
        { QStringLiteral("tool_calls.arguments"), QStringLiteral("tool_calls.result"), QStringLiteral("tool_calls.error") },
        true);
    replaceIn(QStringLiteral("SELECT id, title, summary, participants FROM rooms WHERE id = ?"), { roomId },
        { QStringLiteral("rooms.title"), QStringLiteral("rooms.summary"), QStringLiteral("rooms.participants") }, false);
    // The room as the source describes it (its bindings, who takes part): JSON, its strings cut as the payload's.
    replaceIn(QStringLiteral("SELECT id, native_json, details_json FROM rooms WHERE id = ?"), { roomId },
        { QStringLiteral("rooms.native_json"), QStringLiteral("rooms.details_json") }, true);
    rewriteEdits(redactionId, roomId, index, removed, shown);
}

void RedactionStore::rewriteEdits(
    qint64 redactionId, qint64 roomId, qint64 index, const QString& removed, const QString& shown)
{
    // What reviewers changed of the item (EditStore) keeps its text too, as the source gave it and as edited, and
    // so does the journal of those changes: the item's own, and its call's when the row is a call's end or result.
    const QString item = QStringLiteral("(seq = ? OR other_seq = ? OR seq IN (SELECT coalesce(start_seq, end_seq, "
                                        "result_seq) FROM tool_calls WHERE room_id = ? AND (start_seq = ? OR end_seq = "
                                        "? OR result_seq = ?)))");
    const QVariantList binds { roomId, index, index, roomId, index, index, index };
    struct Change
    {
        QString target;
        qint64 id;
        QString before, after;
    };
    QVector<Change> changes;
    auto scan = [&](const QString& select, const QStringList& targets) {
        QSqlQuery rows = m_ws.exec(select, binds);
        while (rows.next()) {
            for (int c = 0; c < targets.size(); ++c) {
                if (rows.value(c + 1).isNull())
                    continue;
                const QString before = rows.value(c + 1).toString();
                // JSON (arguments, results, the calls a link kept) holds it escaped; a text as it is.
                QString after = QString(before).replace(JsonStrings::escaped(removed), JsonStrings::escaped(shown));
                after.replace(removed, shown);
                if (after != before)
                    changes.append({ targets[c], rows.value(0).toLongLong(), before, after });
            }
        }
    };
    scan(QStringLiteral("SELECT id, original, value FROM edits WHERE room_id = ? AND ") + item,
        { QStringLiteral("edits.original"), QStringLiteral("edits.value") });
    // other_seq is the journal's no column: its rows of an edit are found by the item's index alone.
    QString journal = item;
    journal.replace(QStringLiteral("OR other_seq = ?"), QStringLiteral("OR seq = ?"));
    scan(QStringLiteral("SELECT id, before, after FROM journal WHERE action != 'redacted' AND room_id = ? AND ") + journal,
        { QStringLiteral("journal.before"), QStringLiteral("journal.after") });
    for (const Change& c : changes)
        write(redactionId, c.target, c.id, c.before, c.after);
}

Redaction RedactionStore::redactText(qint64 roomId, qint64 index, qint64 start, qint64 length, const QString& reason,
    const QString& author)
{
    QSqlQuery q = m_ws.exec(QStringLiteral("SELECT e.id, unpack(e.text), unpack(s.body) FROM events e LEFT JOIN search_text s ON s.event_id = "
                                           "e.id WHERE e.room_id = ? AND e.seq = ?"),
        { roomId, index });
    if (!q.next())
        throw StoreError(m_ws.path(), {}, QStringLiteral("the room has no event at index %1").arg(index));
    const qint64 eventId = q.value(0).toLongLong();
    const QString text = q.value(1).toString();
    const QVariant body = q.value(2);
    q.finish();
    if (start < 0 || length <= 0 || start + length > text.size()) {
        throw StoreError(m_ws.path(), QStringLiteral("event %1").arg(index),
            QStringLiteral("characters %1 to %2 are not in its text of %3").arg(start).arg(start + length).arg(text.size()));
    }
    JsonStrings::wholeCharacters(text, start, length);
    Redaction r;
    r.roomId = roomId;
    r.index = index;
    r.path = QStringLiteral("@text");
    r.start = start;
    r.length = length;
    r.reason = reason.simplified();
    r.author = author;
    r.atMs = QDateTime::currentMSecsSinceEpoch();
    const QString removed = text.mid(start, length);
    m_ws.secret(true);
    r.digest = digest(removed);
    QSqlQuery insert = m_ws.exec(QStringLiteral("INSERT INTO redactions(room_id, seq, fingerprint, path, start, length, digest, "
                                                "team_digest, reason, author, at_ms) VALUES (?, ?, NULL, '@text', ?, ?, ?, ?, "
                                                "?, ?, ?)"),
        { roomId, index, start, length, r.digest, teamDigest(removed), r.reason, author, r.atMs });
    r.id = insert.lastInsertId().toLongLong();
    insert.finish();
    const auto [cut, searched] = cutDisplay(text, body.toString(), start, length, placeholder(r.reason));
    write(r.id, QStringLiteral("events.text"), eventId, text, cut);
    markRedacted(r.id, eventId);
    if (!body.isNull()) {
        const QString before = body.toString();
        if (searched != before)
            write(r.id, QStringLiteral("search_text.body"), eventId, before, searched);
    }
    rewriteEdits(r.id, roomId, index, removed, placeholder(r.reason));
    return r;
}

QVector<RedactionStore::Piece> RedactionStore::pieces(
    qint64 roomId, const QVector<qint64>& parts, const QString& select, const QVariantList& binds, QString* joined)
{
    QVector<Piece> found;
    auto add = [&](qint64 seq, const QString& payload) {
        const auto delta = JsonStrings::valueAt(payload, QStringLiteral("$.delta"));
        if (!delta)
            return;
        found.append({ seq, joined->size(), delta->value.size() });
        *joined += delta->value;
    };
    if (!parts.isEmpty()) {
        // Each by its index: a lookup apiece, not a pass over the room.
        for (qint64 seq : parts) {
            QSqlQuery q = m_ws.exec(QStringLiteral("SELECT unpack(payload) FROM events WHERE room_id = ? AND seq = ? AND "
                                                   "typeof(unpack(payload)) = 'text'"),
                { roomId, seq });
            if (q.next())
                add(seq, q.value(0).toString());
        }
        return found;
    }
    QSqlQuery q = m_ws.exec(select, binds);
    while (q.next())
        add(q.value(0).toLongLong(), q.value(1).toString());
    return found;
}

Redactions RedactionStore::redactPieces(qint64 roomId, const QVector<Piece>& found, qint64 start, qint64 length,
    const QString& reason, const QString& author)
{
    Redactions out;
    const auto first = std::find_if(found.cbegin(), found.cend(),
        [&](const Piece& p) { return p.from + p.size > start && p.size > 0; });
    // Later pieces first: each piece's span is where the source wrote it.
    for (auto it = found.crbegin(); it != found.crend(); ++it) {
        const qsizetype a = std::max<qsizetype>(start, it->from);
        const qsizetype b = std::min<qsizetype>(start + length, it->from + it->size);
        if (a < b) {
            out.append(redact(roomId, it->seq, QStringLiteral("$.delta"), a - it->from, b - a, reason, author,
                &*it == &*first ? Part::First : Part::Rest));
        }
    }
    return out;
}

Redactions RedactionStore::redactMessage(qint64 roomId, qint64 index, qint64 start, qint64 length, const QString& reason,
    const QString& author, const QVector<qint64>& parts)
{
    if (reason.simplified().isEmpty())
        throw StoreError(m_ws.path(), {}, QStringLiteral("a redaction needs a reason"));
    QSqlQuery item = m_ws.exec(QStringLiteral("SELECT unpack(text), message_id, kind FROM events WHERE room_id = ? AND seq = ?"),
        { roomId, index });
    if (!item.next())
        throw StoreError(m_ws.path(), {}, QStringLiteral("the room has no event at index ") + QString::number(index));
    const QString text = item.value(0).toString();
    const QString messageId = item.value(1).toString();
    const QString kind = item.value(2).toString();
    item.finish();
    if (messageId.isEmpty())
        throw StoreError(m_ws.path(), QStringLiteral("event ") + QString::number(index), QStringLiteral("it is not an assembled message"));
    if (start < 0 || length <= 0 || start + length > text.size()) {
        throw StoreError(m_ws.path(), QStringLiteral("event ") + QString::number(index),
            QStringLiteral("characters %1 to %2 are not in its text of %3").arg(start).arg(start + length).arg(text.size()));
    }
    JsonStrings::wholeCharacters(text, start, length);
    // Its parts, in order: the deltas folded into it, each a string in its own payload.
    QString joined;
    const QVector<Piece> found = pieces(roomId, parts,
        QStringLiteral("SELECT seq, unpack(payload) FROM events WHERE room_id = ? AND message_id = ? AND kind = ? AND "
                       "seq != ? AND typeof(unpack(payload)) = 'text' ORDER BY seq"),
        { roomId, messageId, kind, index }, &joined);
    if (joined != text) {
        throw StoreError(m_ws.path(), QStringLiteral("event ") + QString::number(index),
            QStringLiteral("its text is not the sum of its parts: redact it in the rows that hold it (the raw rows, R)"));
    }
    Redactions out = redactPieces(roomId, found, start, length, reason, author);
    out.append(redactText(roomId, index, start, length, reason, author));
    return out;
}

Redactions RedactionStore::redactArguments(qint64 roomId, qint64 index, qint64 start, qint64 length,
    const QString& reason, const QString& author, const QVector<qint64>& parts)
{
    const QString why = reason.simplified();
    if (why.isEmpty())
        throw StoreError(m_ws.path(), {}, QStringLiteral("a redaction needs a reason"));
    const QString place = QStringLiteral("event ") + QString::number(index);
    QSqlQuery call = m_ws.exec(QStringLiteral("SELECT c.id, c.tool_name, c.tool_id, unpack(c.arguments), e.id, unpack(e.text), "
                                              "unpack(s.arguments) FROM tool_calls c JOIN events e ON e.room_id = c.room_id AND "
                                              "e.seq = c.start_seq LEFT JOIN search_text s ON s.event_id = e.id WHERE "
                                              "c.room_id = ? AND c.start_seq = ?"),
        { roomId, index });
    if (!call.next())
        throw StoreError(m_ws.path(), place, QStringLiteral("no call starts there"));
    const qint64 callId = call.value(0).toLongLong();
    const QString name = call.value(1).toString();
    const QString toolId = call.value(2).toString();
    const QString arguments = call.value(3).toString();
    const qint64 startRow = call.value(4).toLongLong();
    const QString text = call.value(5).toString();
    const QVariant searched = call.value(6);
    call.finish();
    if (start < 0 || length <= 0 || start + length > arguments.size()) {
        throw StoreError(m_ws.path(), place,
            QStringLiteral("characters %1 to %2 are not in its arguments of %3").arg(start).arg(start + length).arg(arguments.size()));
    }
    JsonStrings::wholeCharacters(arguments, start, length);
    QString joined;
    const QVector<Piece> found = pieces(roomId, parts,
        QStringLiteral("SELECT seq, unpack(payload) FROM events WHERE room_id = ? AND tool_id = ? AND type IN "
                       "(SELECT code FROM words WHERE name IN ('TOOL_CALL_ARGS', 'TOOL_CALL_CHUNK')) AND "
                       "typeof(unpack(payload)) = 'text' ORDER BY seq"),
        { roomId, toolId }, &joined);
    if (found.isEmpty() || joined != arguments) {
        throw StoreError(m_ws.path(), place,
            QStringLiteral("its arguments are not the sum of its deltas: redact them in the rows that hold them (the raw rows, R)"));
    }
    const QString removed = arguments.mid(start, length);
    const QString shown = placeholder(why);
    Redactions out = redactPieces(roomId, found, start, length, why, author);
    // What the call shows of them: its arguments (the deltas' sum again), and its start row's text and search text.
    const qint64 undo = out.last().id;
    const QString after = arguments.left(start) + shown + arguments.mid(start + length);
    write(undo, QStringLiteral("tool_calls.arguments"), callId, arguments, after);
    const QString shownText = text == name + QLatin1Char('(') + JsonText::clip(arguments) + QLatin1Char(')')
        ? name + QLatin1Char('(') + JsonText::clip(after) + QLatin1Char(')')
        : QString(text).replace(removed, shown);
    if (shownText != text)
        write(undo, QStringLiteral("events.text"), startRow, text, shownText);
    if (!searched.isNull()) {
        const QString before = searched.toString();
        const QString cut = before == arguments ? after : QString(before).replace(removed, shown);
        if (cut != before)
            write(undo, QStringLiteral("search_text.arguments"), startRow, before, cut);
    }
    markRedacted(undo, startRow);
    return out;
}

bool RedactionStore::reassemble(qint64 roomId)
{
    // The messages and calls whose deltas a redaction cut. Their rows' flags say which of them still show what
    // the deltas held: a row read again from the source comes without the Redacted flag.
    QSqlQuery q = m_ws.exec(QStringLiteral("SELECT DISTINCT e.message_id, e.tool_id, (SELECT w.name FROM words w WHERE w.code = e.type) "
                                           "FROM redactions x JOIN events e ON "
                                           "e.room_id = x.room_id AND e.seq = x.seq WHERE x.room_id = ? AND x.present = 1 "
                                           "AND x.path = '$.delta'"),
        { roomId });
    QStringList messages, calls;
    while (q.next()) {
        const QString type = q.value(2).toString();
        if (type == QLatin1String("TOOL_CALL_ARGS") || type == QLatin1String("TOOL_CALL_CHUNK"))
            calls << q.value(1).toString();
        else if (!q.value(0).toString().isEmpty())
            messages << q.value(0).toString();
    }
    q.finish();
    if (messages.isEmpty() && calls.isEmpty())
        return false;
    const auto list = [](const QStringList& ids) {
        QJsonArray a;
        for (const QString& id : ids)
            a.append(id);
        return QString::fromUtf8(QJsonDocument(a).toJson(QJsonDocument::Compact));
    };
    // One pass over the room's rows of those messages and calls.
    QSqlQuery rows = m_ws.exec(QStringLiteral("SELECT e.id, e.seq, (SELECT w.name FROM words w WHERE w.code = e.type), e.kind, e.message_id, "
                                              "e.tool_id, e.flags, unpack(e.payload), "
                                              "unpack(e.text), unpack(s.body) FROM events e LEFT JOIN search_text s ON s.event_id = e.id "
                                              "WHERE e.room_id = ? AND (e.message_id IN (SELECT value FROM json_each(?)) OR "
                                              "(e.tool_id IN (SELECT value FROM json_each(?)) AND e.type IN (SELECT code FROM "
                                              "words WHERE name IN ('TOOL_CALL_ARGS', 'TOOL_CALL_CHUNK')))) AND typeof(unpack(e.payload)) = 'text' ORDER BY e.seq"),
        { roomId, list(messages), list(calls) });
    struct Item
    {
        qint64 id = 0;
        qint64 flags = 0;
        QString text, body;
        QString joined;
        bool redactedPart = false;
    };
    QHash<QString, Item> items; // message id and kind -> the row showing its text, and its deltas' sum
    QHash<QString, QString> arguments; // tool id -> its deltas' sum
    while (rows.next()) {
        const QString type = rows.value(2).toString();
        const auto delta = JsonStrings::valueAt(rows.value(7).toString(), QStringLiteral("$.delta"));
        const bool redacted = rows.value(6).toLongLong() & EventFlags::Redacted;
        if (type == QLatin1String("TOOL_CALL_ARGS") || type == QLatin1String("TOOL_CALL_CHUNK")) {
            if (delta)
                arguments[rows.value(5).toString()] += delta->value;
            continue;
        }
        Item& item = items[rows.value(4).toString() + QLatin1Char('\n') + rows.value(3).toString()];
        if (delta) {
            item.joined += delta->value;
            item.redactedPart = item.redactedPart || redacted;
        } else if (item.id == 0 && !(rows.value(6).toLongLong() & EventFlags::Folded)) {
            // The row that shows the message: not its END, nor a reasoning phase's START shown in it.
            item.id = rows.value(0).toLongLong();
            item.flags = rows.value(6).toLongLong();
            item.text = rows.value(8).toString();
            item.body = rows.value(9).toString();
        }
    }
    rows.finish();
    bool again = false;
    for (const Item& item : std::as_const(items)) {
        if (item.id == 0 || !item.redactedPart || (item.flags & EventFlags::Redacted) || item.text == item.joined)
            continue;
        m_ws.exec(updateOf(QStringLiteral("events.text")), { item.joined, item.id });
        m_ws.exec(updateOf(QStringLiteral("search_text.body")), { searchable(item.joined), item.id });
        markRedacted(0, item.id);
        again = true;
    }
    for (auto it = arguments.cbegin(); it != arguments.cend(); ++it)
        again = reassembleArguments(0, roomId, it.key(), *it) || again;
    return again;
}

bool RedactionStore::reassembleArguments(qint64 redactionId, qint64 roomId, const QString& toolId, const QString& joined)
{
    QSqlQuery c = m_ws.exec(QStringLiteral("SELECT c.id, c.tool_name, unpack(c.arguments), e.id, unpack(e.text), unpack(s.arguments) "
                                           "FROM tool_calls c JOIN events e ON e.room_id = c.room_id AND e.seq = c.start_seq "
                                           "LEFT JOIN search_text s ON s.event_id = e.id WHERE c.room_id = ? AND c.tool_id = ?"),
        { roomId, toolId });
    if (!c.next() || c.value(2).toString() == joined)
        return false;
    const qint64 callId = c.value(0).toLongLong();
    const QString before = c.value(2).toString();
    const QString name = c.value(1).toString();
    const qint64 startRow = c.value(3).toLongLong();
    const QString text = c.value(4).toString();
    const QVariant searched = c.value(5);
    c.finish();
    write(redactionId, QStringLiteral("tool_calls.arguments"), callId, before, joined);
    const QString shown = name + QLatin1Char('(') + JsonText::clip(joined) + QLatin1Char(')');
    if (shown != text)
        write(redactionId, QStringLiteral("events.text"), startRow, text, shown);
    if (!searched.isNull() && searched.toString() != joined)
        write(redactionId, QStringLiteral("search_text.arguments"), startRow, searched, joined);
    markRedacted(redactionId, startRow);
    return true;
}

std::optional<RedactionMatch> RedactionStore::copyInCall(qint64 roomId, qint64 index, const QString& text)
{
    if (text.isEmpty())
        return std::nullopt;
    QSqlQuery call = m_ws.exec(QStringLiteral("SELECT start_seq, end_seq, result_seq FROM tool_calls WHERE room_id = ? AND "
                                              "(start_seq = ? OR end_seq = ? OR result_seq = ?)"),
        { roomId, index, index, index });
    QVector<qint64> rows;
    while (call.next()) {
        for (int c = 0; c < 3; ++c) {
            if (!call.value(c).isNull() && !rows.contains(call.value(c).toLongLong()))
                rows.append(call.value(c).toLongLong());
        }
    }
    call.finish();
    std::sort(rows.begin(), rows.end());
    for (const qint64 at : std::as_const(rows)) {
        QSqlQuery row = m_ws.exec(QStringLiteral("SELECT unpack(payload), typeof(unpack(payload)) FROM events WHERE room_id = "
                                                 "? AND seq = ?"),
            { roomId, at });
        if (!row.next() || row.value(1).toString() != QLatin1String("text"))
            continue;
        const QString payload = row.value(0).toString();
        row.finish();
        const std::optional<QVector<JsonStrings::Token>> strings = JsonStrings::values(payload);
        if (!strings)
            continue;
        for (const JsonStrings::Token& token : *strings) {
            const qsizetype found = token.value.indexOf(text);
            if (found < 0)
                continue;
            RedactionMatch m;
            m.roomId = roomId;
            m.index = at;
            m.path = token.path;
            m.start = found;
            m.length = text.size();
            return m;
        }
    }
    return std::nullopt;
}

Redaction RedactionStore::redactNote(qint64 noteId, qint64 start, qint64 length, const QString& reason, const QString& author)
{
    const QString why = reason.simplified();
    if (why.isEmpty())
        throw StoreError(m_ws.path(), {}, QStringLiteral("a redaction needs a reason"));
    QSqlQuery q = m_ws.exec(QStringLiteral("SELECT room_id, seq, value FROM annotations WHERE id = ? AND kind = 'note' AND present = 1"),
        { noteId });
    if (!q.next())
        throw StoreError(m_ws.path(), {}, QStringLiteral("there is no note ") + QString::number(noteId));
    const qint64 roomId = q.value(0).toLongLong();
    const QVariant seq = q.value(1);
    const QString text = q.value(2).toString();
    q.finish();
    if (start < 0 || length <= 0 || start + length > text.size()) {
        throw StoreError(m_ws.path(), QStringLiteral("note ") + QString::number(noteId),
            QStringLiteral("characters %1 to %2 are not in its text of %3").arg(start).arg(start + length).arg(text.size()));
    }
    JsonStrings::wholeCharacters(text, start, length);
    const QString removed = text.mid(start, length);
    const QString shown = placeholder(why);
    Redaction r;
    r.roomId = roomId;
    r.index = seq.isNull() ? -1 : seq.toLongLong(); // -1: a note on the room itself
    r.path = QStringLiteral("@note");
    r.start = start;
    r.length = length;
    m_ws.secret(true);
    r.digest = digest(removed);
    r.reason = why;
    r.author = author;
    r.atMs = QDateTime::currentMSecsSinceEpoch();
    QSqlQuery insert = m_ws.exec(QStringLiteral("INSERT INTO redactions(room_id, seq, fingerprint, path, start, length, digest, "
                                                "reason, author, at_ms) VALUES (?, ?, NULL, '@note', ?, ?, ?, ?, ?, ?)"),
        { roomId, r.index, start, length, r.digest, why, author, r.atMs });
    r.id = insert.lastInsertId().toLongLong();
    insert.finish();
    write(r.id, QStringLiteral("annotations.value"), noteId, text, QString(text.left(start) + shown + text.mid(start + length)));
    // The journal's record of the note (added, removed) holds its text too.
    QSqlQuery journal = m_ws.exec(QStringLiteral("SELECT id, before, after FROM journal WHERE room_id = ? AND seq IS ? AND action "
                                                 "LIKE 'note%'"),
        { roomId, seq });
    QVector<std::tuple<QString, qint64, QString, QString>> changes;
    while (journal.next()) {
        for (int c = 1; c <= 2; ++c) {
            const QString before = journal.value(c).toString();
            const QString after = QString(before).replace(removed, shown);
            if (!journal.value(c).isNull() && after != before)
                changes.append({ c == 1 ? QStringLiteral("journal.before") : QStringLiteral("journal.after"),
                    journal.value(0).toLongLong(), before, after });
        }
    }
    journal.finish();
    for (const auto& [target, id, before, after] : changes)
        write(r.id, target, id, before, after);
    return r;
}

bool RedactionStore::reapply(qint64 roomId, std::optional<std::pair<qint64, qint64>> written)
{
    bool again = false;
    // The redactions of the room, saved or not (one not saved yet must hold while it is undoable too), in the
    // order they were made (each span is where the ones before it left the string).
    QSqlQuery q = m_ws.exec(QStringLiteral("SELECT id, seq, fingerprint, path, start, length, digest, reason, part FROM "
                                           "redactions WHERE room_id = ? AND present = 1 ORDER BY id"),
        { roomId });
    struct Saved
    {
        qint64 id, seq;
        QString fingerprint, path;
        qint64 start, length;
        QString digest, reason;
        int part; // Part
    };
    QVector<Saved> saved;
    while (q.next()) {
        saved.append({ q.value(0).toLongLong(), q.value(1).toLongLong(), q.value(2).toString(), q.value(3).toString(),
            q.value(4).toLongLong(), q.value(5).toLongLong(), q.value(6).toString(), q.value(7).toString(),
            q.value(8).toInt() });
    }
    q.finish();
    if (saved.isEmpty())
        return false;
    std::optional<QHash<QString, qint64>> byFingerprint; // made once, when an event moved
    QVector<Saved*> unplaced; // neither where it was nor found by its payload
    for (Saved& r : saved) {
        if (r.path == QLatin1String("@note"))
            continue; // a reviewer's note: no import writes it again
        if (r.path == QLatin1String("@text")) {
            // An assembled message's text, which a sync may write again from its parts.
            QSqlQuery row = m_ws.exec(QStringLiteral("SELECT e.id, unpack(e.text), unpack(s.body) FROM events e LEFT JOIN search_text s ON "
                                                     "s.event_id = e.id WHERE e.room_id = ? AND e.seq = ?"),
                { roomId, r.seq });
            if (!row.next())
                continue;
            const qint64 eventId = row.value(0).toLongLong();
            const QString text = row.value(1).toString();
            const QString body = row.value(2).toString();
            row.finish();
            if (text.mid(r.start).startsWith(placeholder(r.reason)) || r.start + r.length > text.size()
                || r.digest.isEmpty() || digest(text.mid(r.start, r.length)) != r.digest)
                continue;
            const auto [cut, searched] = cutDisplay(text, body, r.start, r.length, placeholder(r.reason));
            m_ws.exec(updateOf(QStringLiteral("events.text")), { cut, eventId });
            markRedacted(0, eventId);
            m_ws.exec(updateOf(QStringLiteral("search_text.body")), { searchable(searched), eventId });
            again = true;
            continue;
        }
        bool placed = false;
        for (int attempt = 0; attempt < 2 && !placed; ++attempt) {
            QSqlQuery row = m_ws.exec(QStringLiteral("SELECT id, unpack(payload), message_id, flags FROM events WHERE room_id = ? "
                                                     "AND seq = ? AND typeof(unpack(payload)) = 'text'"),
                { roomId, r.seq });
            // No row there: after the room is whole, its event is gone from the source; while rows are written (a
            // batch), its event may be among them at another index.
            if (!row.next()) {
                if (!written || attempt > 0)
                    break;
            } else {
                const qint64 eventId = row.value(0).toLongLong();
                const QString payload = row.value(1).toString();
                const QString messageId = row.value(2).toString();
                const bool flagged = row.value(3).toLongLong() & EventFlags::Redacted;
                row.finish();
                const std::optional<JsonStrings::Token> token = JsonStrings::stringAt(payload, r.path);
                const bool fits = token && r.start >= 0 && r.start + r.length <= token->value.size();
                // A piece after the first of an assembled text's span lost its text and shows no placeholder: its
                // row's flag says whether it is still cut (a row read again from the source comes without it).
                const bool rest = r.part == int(Part::Rest);
                if (rest && flagged) {
                    placed = true;
                    break;
                }
                if (!rest && fits && token->value.mid(r.start).startsWith(placeholder(r.reason))) {
                    // Still redacted; but a call the import settled in this batch was made from the row as the source
                    // wrote it (its arguments, its result), and may hold the text again.
                    if (written && scrubCalls(roomId, r.seq, r.length, r.digest, placeholder(r.reason), *written))
                        again = true;
                    placed = true;
                    break;
                }
                if (fits && !r.digest.isEmpty() && digest(token->value.mid(r.start, r.length)) == r.digest) {
                    // Read again from the source: redacted again before anyone reads it.
                    rewrite(0, roomId, r.seq, eventId, r.part != int(Part::Whole) ? QString() : messageId, payload,
                        *token, r.start, r.length, rest ? QString() : placeholder(r.reason));
                    again = true;
                    placed = true;
                    break;
                }
                if (attempt > 0 || m_ws.fingerprint(payload.toUtf8()) == r.fingerprint)
                    break;
            }
            // The event moved (a rotated log read again): found by the payload the source wrote, among the rows
            // just written when a batch is being committed, else among all of the room's.
            if (!byFingerprint) {
                QSet<QString> prints;
                for (const Saved& s : std::as_const(saved))
                    prints.insert(s.fingerprint);
                byFingerprint = m_ws.findFingerprints(roomId, prints, written);
            }
            const auto moved = byFingerprint->constFind(r.fingerprint);
            if (moved == byFingerprint->constEnd())
                break;
            r.seq = *moved;
            m_ws.exec(QStringLiteral("UPDATE redactions SET seq = ? WHERE id = ?"), { r.seq, r.id });
        }
        if (!placed)
            unplaced.append(&r);
    }
    // Not where it was, and no row the source wrote byte for byte the same (a log rewritten with its timestamps
    // shifted, its lines moved): found by what it removed, the same span of the same string of a row just written
    // whose text there has the redaction's digest. One pass over those rows for all of them.
    if (!unplaced.isEmpty() && written && written->first <= written->second && !digest(QString()).isEmpty()) {
        QSqlQuery rows = m_ws.exec(QStringLiteral("SELECT id, seq, unpack(payload), message_id FROM events WHERE room_id = ? AND seq "
                                                  "BETWEEN ? AND ? AND typeof(unpack(payload)) = 'text' ORDER BY seq"),
            { roomId, written->first, written->second });
        struct Found
        {
            Saved* r;
            qint64 eventId;
            QString payload, messageId;
            JsonStrings::Token token;
        };
        QVector<Found> found;
        while (rows.next() && found.size() < unplaced.size()) {
            const QString payload = rows.value(2).toString();
            for (Saved*& r : unplaced) {
                if (!r)
                    continue;
                const std::optional<JsonStrings::Token> token = JsonStrings::stringAt(payload, r->path);
                if (!token || r->start < 0 || r->start + r->length > token->value.size()
                    || digest(token->value.mid(r->start, r->length)) != r->digest)
                    continue;
                r->seq = rows.value(1).toLongLong();
                found.append({ r, rows.value(0).toLongLong(), payload, rows.value(3).toString(), *token });
                r = nullptr;
            }
        }
        rows.finish();
        for (const Found& f : std::as_const(found)) {
            m_ws.exec(QStringLiteral("UPDATE redactions SET seq = ? WHERE id = ?"), { f.r->seq, f.r->id });
            rewrite(0, roomId, f.r->seq, f.eventId, f.r->part != int(Part::Whole) ? QString() : f.messageId, f.payload,
                f.token, f.r->start, f.r->length, f.r->part == int(Part::Rest) ? QString() : placeholder(f.r->reason));
            again = true;
        }
    }
    if (!written) {
        for (const Saved* r : std::as_const(unplaced)) {
            if (r)
                m_unplaced << r->id;
        }
    }
    // The room's own fields come from the source again at every sync (its title may be its first message): any
    // text in them whose SHA-256 a redaction of the room keeps is redacted again.
    QHash<qsizetype, QHash<QString, QString>> wanted; // length -> digest -> placeholder
    for (const Saved& r : std::as_const(saved))
        wanted[r.length].insert(r.digest, placeholder(r.reason));
    // The room is whole: a message or call whose row was read again from the source shows its deltas' sum.
    if (!written && reassemble(roomId))
        again = true;
    if (digest(QString()).isEmpty())
        return again; // no secret (a copy handed on): nothing can be recognised
    auto removedIn = [&](const QString& text) {
        QVector<std::pair<QString, QString>> found; // text removed, placeholder
        for (auto l = wanted.cbegin(); l != wanted.cend(); ++l) {
            for (qsizetype i = 0; i + l.key() <= text.size(); ++i) {
                const QString piece = text.mid(i, l.key());
                const auto hit = l->constFind(digest(piece));
                if (hit != l->constEnd())
                    found.append({ piece, *hit });
            }
        }
        return found;
    };
    QSqlQuery room = m_ws.exec(
        QStringLiteral("SELECT title, summary, participants, native_json, details_json FROM rooms WHERE id = ?"), { roomId });
    if (room.next()) {
        const QStringList columns { QStringLiteral("title"), QStringLiteral("summary"), QStringLiteral("participants"),
            QStringLiteral("native_json"), QStringLiteral("details_json") };
        QVector<std::pair<QString, QString>> updates;
        for (int c = 0; c < columns.size(); ++c) {
            const QString before = room.value(c).toString();
            const bool json = c >= 3;
            QVector<std::pair<QString, QString>> found;
            if (json) {
                for (const JsonStrings::Token& t : JsonStrings::values(before).value_or(QVector<JsonStrings::Token> {}))
                    found += removedIn(t.value);
            } else {
                found = removedIn(before);
            }
            QString after = before;
            for (const auto& [removed, shown] : found) {
                if (json)
                    after.replace(JsonStrings::escaped(removed), JsonStrings::escaped(shown));
                after.replace(removed, shown);
            }
            if (after != before)
                updates.append({ QStringLiteral("rooms.") + columns[c], after });
        }
        room.finish();
        for (const auto& [target, value] : updates) {
            m_ws.exec(updateOf(target), { value, roomId });
            again = true;
        }
    }
    return again;
}

bool RedactionStore::scrubCalls(qint64 roomId, qint64 index, qint64 length, const QString& removedDigest,
    const QString& shown, std::pair<qint64, qint64> written)
{
    if (removedDigest.isEmpty() || length <= 0)
        return false;
    QSqlQuery q = m_ws.exec(QStringLiteral("SELECT id, unpack(arguments), unpack(result), error FROM tool_calls WHERE room_id = ? AND (start_seq = ? "
                                           "OR end_seq = ? OR result_seq = ?) AND (coalesce(start_seq, -1) BETWEEN ? AND ? OR "
                                           "coalesce(end_seq, -1) BETWEEN ? AND ? OR coalesce(result_seq, -1) BETWEEN ? AND ?)"),
        { roomId, index, index, index, written.first, written.second, written.first, written.second, written.first,
            written.second });
    const QStringList targets { QStringLiteral("tool_calls.arguments"), QStringLiteral("tool_calls.result"),
        QStringLiteral("tool_calls.error") };
    QVector<std::tuple<QString, qint64, QString, QString>> changes;
    while (q.next()) {
        for (int c = 0; c < targets.size(); ++c) {
            const QString before = q.value(c + 1).toString();
            // Found by its keyed digest: every span of its length (a call's texts are short; this runs only for
            // the calls a batch wrote at a redacted row).
            QSet<QString> found;
            for (qsizetype i = 0; i + length <= before.size(); ++i) {
                const QString piece = before.mid(i, length);
                if (!found.contains(piece) && digest(piece) == removedDigest)
                    found.insert(piece);
            }
            QString after = before;
            for (const QString& removed : std::as_const(found)) {
                after.replace(JsonStrings::escaped(removed), JsonStrings::escaped(shown));
                after.replace(removed, shown);
            }
            if (after != before)
                changes.append({ targets[c], q.value(0).toLongLong(), before, after });
        }
    }
    q.finish();
    for (const auto& [target, id, before, after] : changes)
        write(0, target, id, before, after);
    return !changes.isEmpty();
}

void RedactionStore::apply(qint64 redactionId, bool redo)
{
    QSqlQuery q = m_ws.exec(QStringLiteral("SELECT target, row_id, before, after FROM redaction_undo WHERE redaction_id = ? "
                                           "ORDER BY id ")
            + (redo ? QStringLiteral("ASC") : QStringLiteral("DESC")),
        { redactionId });
    QVector<std::tuple<QString, qint64, QVariant>> writes;
    while (q.next())
        writes.append({ q.value(0).toString(), q.value(1).toLongLong(), q.value(redo ? 3 : 2) });
    q.finish();
    if (writes.isEmpty()) {
        QSqlQuery saved = m_ws.exec(QStringLiteral("SELECT saved FROM redactions WHERE id = ?"), { redactionId });
        if (saved.next() && saved.value(0).toBool())
            throw StoreError(m_ws.path(), {}, QStringLiteral("a saved redaction cannot be undone: its text is gone"));
    }
    for (const auto& [target, rowId, value] : writes) {
        m_ws.exec(updateOf(target), { value, rowId });
        forgetCounted(target, rowId);
    }
}

bool RedactionStore::save()
{
    QSqlQuery q = m_ws.exec(QStringLiteral("SELECT count(*) FROM redactions WHERE saved = 0 AND present = 1"));
    const bool any = q.next() && q.value(0).toLongLong() > 0;
    q.finish();
    // secure_delete (Workspace): the copies' cells and pages are zeroed as they go.
    m_ws.exec(QStringLiteral("DELETE FROM redaction_undo WHERE redaction_id IN (SELECT id FROM redactions WHERE saved = 0)"));
    return any;
}

void RedactionStore::discard()
{
    QSqlQuery q = m_ws.exec(
        QStringLiteral("SELECT id FROM redactions WHERE saved = 0 AND present = 1 ORDER BY id DESC"));
    QVector<qint64> ids;
    while (q.next())
        ids.append(q.value(0).toLongLong());
    q.finish();
    for (qint64 id : ids)
        apply(id, false);
}

void RedactionStore::forget()
{
    // The full-text index drops a row's words with a delete marker in a newer segment; merging every segment into
    // one leaves them out of the index's pages, and the freed pages are zeroed (secure_delete).
    m_ws.exec(QStringLiteral("INSERT INTO events_fts(events_fts) VALUES ('optimize')"));
    // secure_delete zeroes what a delete frees, but not the copy a page keeps in its unused middle when SQLite
    // lays the page out anew (a row rewritten longer or shorter, a page split or merged): one such copy of a
    // redacted text was found in a live page of `events`, in no row. Only writing every page anew leaves none:
    // VACUUM builds the file again from the rows as they are now (in the log first, emptied just below).
    m_ws.exec(QStringLiteral("VACUUM"));
    // Done: an import killed before it got here left the mark for the next one (ImportWriter).
    m_ws.exec(QStringLiteral("DELETE FROM pending WHERE name = 'forget'"));
    QSqlQuery q = m_ws.exec(QStringLiteral("PRAGMA wal_checkpoint(TRUNCATE)"));
    if (q.next() && q.value(0).toInt() != 0) {
        throw StoreError(m_ws.path(), {},
            QStringLiteral("saved, but another reader kept the write-ahead log from being emptied: the redacted text "
                           "stays in its -wal file until every window on this workspace is closed"));
    }
}

RedactionMatches RedactionStore::find(qint64 roomId, const QVector<RedactionPatterns::Pattern>& patterns, int limit)
{
    QString sql = QStringLiteral("SELECT e.room_id, r.native_id, e.seq, unpack(e.payload), (SELECT w.name FROM words w "
                                 "WHERE w.code = e.type), e.kind, e.message_id, "
                                 "e.tool_id, unpack(e.text) FROM events e JOIN rooms r ON r.id = e.room_id WHERE "
                                 "typeof(unpack(e.payload)) = 'text'");
    QVariantList binds;
    if (roomId != 0) {
        sql += QStringLiteral(" AND e.room_id = ?");
        binds << roomId;
    }
    QSqlQuery q = m_ws.exec(sql + QStringLiteral(" ORDER BY e.room_id, e.seq"), binds);
    RedactionMatches out;
    auto match = [&](qint64 room, const QString& native, qint64 seq, const QString& path, const QString& value,
                     const QVector<qint64>& parts) {
        for (const RedactionPatterns::Match& m : RedactionPatterns::find(value, patterns)) {
            const qsizetype from = std::max<qsizetype>(0, m.start - 24);
            const qsizetype to = std::min<qsizetype>(value.size(), m.start + m.length + 24);
            const QString context = (from > 0 ? QStringLiteral("…") : QString()) + value.mid(from, m.start - from)
                + QLatin1Char('[') + value.mid(m.start, m.length) + QLatin1Char(']')
                + value.mid(m.start + m.length, to - m.start - m.length) + (to < value.size() ? QStringLiteral("…") : QString());
            out.append({ room, native, seq, path, m.start, m.length, value.mid(m.start, m.length), m.pattern,
                QString(context).replace(QLatin1Char('\n'), QLatin1Char(' ')), parts });
        }
    };

    // What a reader sees assembled from deltas (an AG-UI message's text at its start row, a call's arguments) is
    // matched as a whole: a secret split across two deltas is one match there, and its redaction cuts every delta
    // and every place the whole was copied to. The deltas' own strings are held back until their whole is known;
    // when it is not theirs (a row edited, a chunked message), each is matched alone as before.
    struct Delta
    {
        qint64 seq;
        QString path, value;
    };
    struct Assembly
    {
        qint64 item = -1; // the row showing the whole: a message's start row, a call's start
        QString text; // what that row shows (a message) or the call's arguments
        QVector<Delta> deltas;
    };
    QHash<QString, Assembly> messages; // message id and kind
    QHash<QString, Assembly> calls; // tool id
    qint64 currentRoom = 0;
    QString currentNative;
    auto settle = [&](Assembly& a, const QString& path) {
        QString joined;
        QVector<qint64> parts;
        for (const Delta& d : std::as_const(a.deltas)) {
            joined += d.value;
            parts << d.seq;
        }
        if (a.item >= 0 && !a.deltas.isEmpty() && joined == a.text) {
            match(currentRoom, currentNative, a.item, path, joined, parts);
        } else {
            for (const Delta& d : std::as_const(a.deltas))
                match(currentRoom, currentNative, d.seq, d.path, d.value, {});
        }
    };
    auto settleRoom = [&] {
        if (!calls.isEmpty()) {
            // The calls' arguments as the workspace assembled them, by the id their deltas name.
            QSqlQuery c = m_ws.exec(QStringLiteral("SELECT tool_id, start_seq, unpack(arguments) FROM tool_calls WHERE room_id = ? "
                                                   "AND start_seq IS NOT NULL AND arguments IS NOT NULL"),
                { currentRoom });
            while (c.next()) {
                const auto it = calls.find(c.value(0).toString());
                if (it != calls.end() && it->item < 0) {
                    it->item = c.value(1).toLongLong();
                    it->text = c.value(2).toString();
                }
            }
        }
        for (Assembly& a : messages)
            settle(a, QStringLiteral("@message"));
        for (Assembly& a : calls)
            settle(a, QStringLiteral("@arguments"));
        messages.clear();
        calls.clear();
    };
    while (q.next() && out.size() < limit) {
        const qint64 room = q.value(0).toLongLong();
        if (room != currentRoom) {
            settleRoom();
            currentRoom = room;
            currentNative = q.value(1).toString();
        }
        const qint64 seq = q.value(2).toLongLong();
        const QString payload = q.value(3).toString();
        const QString type = q.value(4).toString();
        const QString messageId = q.value(6).toString();
        const QString toolId = q.value(7).toString();
        const bool argumentsDelta = type == QLatin1String("TOOL_CALL_ARGS") && !toolId.isEmpty();
        const QString messageKey = messageId.isEmpty() ? QString() : messageId + QLatin1Char('\n') + q.value(5).toString();
        // A payload that is not JSON (a CraftBot record, a malformed row) is one string, at the empty path.
        const auto tokens = JsonStrings::values(payload).value_or(QVector<JsonStrings::Token> { JsonStrings::plain(payload) });
        bool hasDelta = false;
        for (const JsonStrings::Token& t : tokens) {
            if (t.path == QLatin1String("$.delta") && (argumentsDelta || !messageKey.isEmpty())) {
                hasDelta = true;
                (argumentsDelta ? calls[toolId] : messages[messageKey]).deltas.append({ seq, t.path, t.value });
                continue;
            }
            match(room, currentNative, seq, t.path, t.value, {});
        }
        if (!hasDelta && !messageKey.isEmpty() && !argumentsDelta && messages.value(messageKey).item < 0
            && messages.value(messageKey).deltas.isEmpty()) {
            // The row that shows the message: the first of its id and kind, before its deltas.
            Assembly& a = messages[messageKey];
            a.item = seq;
            a.text = q.value(8).toString();
        }
        // A message or call that ended is settled at once, so a long thread is not held in memory to its end.
        if (type == QLatin1String("TEXT_MESSAGE_END") && messages.contains(messageKey)) {
            settle(messages[messageKey], QStringLiteral("@message"));
            messages.remove(messageKey);
        }
    }
    q.finish();
    settleRoom();
    // What reviewers wrote: a message's text as they edited it (its row's display text; what the payload still
    // holds was matched there), and their notes.
    QString revised = QStringLiteral("SELECT e.room_id, r.native_id, e.seq, unpack(e.text), unpack(e.payload) FROM events e JOIN rooms r ON "
                                     "r.id = e.room_id WHERE (e.flags & %1) != 0").arg(EventFlags::Revised);
    QString notes = QStringLiteral("SELECT a.room_id, r.native_id, a.seq, a.value, a.id FROM annotations a JOIN rooms r ON r.id = "
                                   "a.room_id WHERE a.kind = 'note' AND a.present = 1");
    if (roomId != 0) {
        revised += QStringLiteral(" AND e.room_id = ?");
        notes += QStringLiteral(" AND a.room_id = ?");
    }
    QSqlQuery edited = m_ws.exec(revised + QStringLiteral(" ORDER BY e.room_id, e.seq"), binds);
    while (edited.next() && out.size() < limit) {
        const QString payload = edited.value(4).toString();
        const qsizetype before = out.size();
        match(edited.value(0).toLongLong(), edited.value(1).toString(), edited.value(2).toLongLong(), QStringLiteral("@text"),
            edited.value(3).toString(), {});
        // A text the payload still holds is redacted there, and from the display text with it.
        out.erase(std::remove_if(out.begin() + before, out.end(), [&](const RedactionMatch& m) { return payload.contains(m.text); }),
            out.end());
    }
    edited.finish();
    QSqlQuery note = m_ws.exec(notes + QStringLiteral(" ORDER BY a.room_id, a.id"), binds);
    while (note.next() && out.size() < limit) {
        const qsizetype before = out.size();
        match(note.value(0).toLongLong(), note.value(1).toString(), note.value(2).isNull() ? -1 : note.value(2).toLongLong(),
            QStringLiteral("@note"), note.value(3).toString(), {});
        for (qsizetype i = before; i < out.size(); ++i)
            out[i].noteId = note.value(4).toLongLong();
    }
    note.finish();
    std::stable_sort(out.begin(), out.end(), [](const RedactionMatch& a, const RedactionMatch& b) {
        return std::tie(a.roomId, a.index) < std::tie(b.roomId, b.index);
    });
    if (out.size() > limit)
        out.resize(limit);
    return out;
}

Redactions RedactionStore::ledger(qint64 roomId)
{
    QString sql = QStringLiteral("SELECT x.id, x.room_id, r.native_id, x.seq, x.path, x.start, x.length, x.digest, x.reason, "
                                 "x.author, x.at_ms, x.saved FROM redactions x JOIN rooms r ON r.id = x.room_id "
                                 "WHERE x.present = 1");
    QVariantList binds;
    if (roomId != 0) {
        sql += QStringLiteral(" AND x.room_id = ?");
        binds << roomId;
    }
    QSqlQuery q = m_ws.exec(sql + QStringLiteral(" ORDER BY x.id"), binds);
    Redactions out;
    while (q.next()) {
        Redaction r;
        r.id = q.value(0).toLongLong();
        r.roomId = q.value(1).toLongLong();
        r.room = q.value(2).toString();
        r.index = q.value(3).toLongLong();
        r.path = q.value(4).toString();
        r.start = q.value(5).toLongLong();
        r.length = q.value(6).toLongLong();
        r.digest = q.value(7).toString();
        r.reason = q.value(8).toString();
        r.author = q.value(9).toString();
        r.atMs = q.value(10).toLongLong();
        r.saved = q.value(11).toBool();
        out.append(r);
    }
    return out;
}
