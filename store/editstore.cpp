#include "editstore.h"

#include "eventflags.h"
#include "eventkind.h"
#include "jsontext.h"
#include "outcome.h"
#include "pairfixer.h"
#include "storeerror.h"
#include "workspace.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QSqlQuery>
#include <QVariant>

namespace {

QVariant orNull(const std::optional<qint64>& v)
{
    return v ? QVariant(*v) : QVariant();
}

std::optional<qint64> optionalOf(const QVariant& v)
{
    return v.isNull() ? std::nullopt : std::optional<qint64>(v.toLongLong());
}

// Two snapshots of the same calls (PairFixer) say the same, whatever order their keys were written in.
bool sameCalls(const QString& a, const QString& b)
{
    return QJsonDocument::fromJson(a.toUtf8()) == QJsonDocument::fromJson(b.toUtf8());
}

const QString editColumns = QStringLiteral(
    "x.id, x.room_id, r.native_id, x.seq, x.other_seq, x.field, x.original, x.value, x.author, x.at_ms, x.saved");

Edit editOf(const QSqlQuery& q)
{
    Edit e;
    e.id = q.value(0).toLongLong();
    e.roomId = q.value(1).toLongLong();
    e.room = q.value(2).toString();
    e.index = q.value(3).toLongLong();
    e.otherIndex = optionalOf(q.value(4));
    e.field = Edit::fieldFromName(q.value(5).toString()).value_or(Edit::Field::Text);
    e.original = q.value(6).toString();
    e.value = q.value(7).toString();
    e.author = q.value(8).toString();
    e.atMs = q.value(9).toLongLong();
    e.saved = q.value(10).toBool();
    return e;
}

} // namespace

QString Edit::fieldName(Field field)
{
    switch (field) {
    case Field::Text:
        return QStringLiteral("text");
    case Field::Arguments:
        return QStringLiteral("arguments");
    case Field::Result:
        return QStringLiteral("result");
    case Field::Outcome:
        return QStringLiteral("outcome");
    case Field::Link:
        return QStringLiteral("link");
    case Field::Unlink:
        return QStringLiteral("unlink");
    }
    return {};
}

std::optional<Edit::Field> Edit::fieldFromName(const QString& name)
{
    for (Field f : { Field::Text, Field::Arguments, Field::Result, Field::Outcome, Field::Link, Field::Unlink }) {
        if (fieldName(f) == name)
            return f;
    }
    return std::nullopt;
}

EditStore::EditStore(Workspace& workspace)
    : m_ws(workspace)
{
}

std::optional<EditStore::Call> EditStore::callAt(qint64 roomId, qint64 index)
{
    QSqlQuery q = m_ws.exec(QStringLiteral("SELECT id, start_seq, end_seq, result_seq, unpack(arguments), outcome, unpack(result) FROM "
                                           "tool_calls WHERE room_id = ? AND (start_seq = ? OR end_seq = ? OR result_seq "
                                           "= ?) ORDER BY start_seq = ? DESC LIMIT 1"),
        { roomId, index, index, index, index });
    if (!q.next())
        return std::nullopt;
    Call c;
    c.id = q.value(0).toLongLong();
    c.start = optionalOf(q.value(1));
    c.end = optionalOf(q.value(2));
    c.result = optionalOf(q.value(3));
    c.card = c.start ? *c.start : c.end ? *c.end : c.result.value_or(index);
    c.arguments = q.value(4).toString();
    c.outcome = q.value(5).toString();
    c.resultText = q.value(6).toString();
    return c;
}

std::optional<Edit> EditStore::record(qint64 roomId, qint64 index, std::optional<qint64> other, Edit::Field field,
    const QString& original, const QString& value, const QString& author)
{
    const std::optional<QString> print = m_ws.sourceFingerprint(roomId, index);
    if (!print)
        throw StoreError(m_ws.path(), {}, QStringLiteral("the room has no event at index %1").arg(index));
    Edit e;
    e.roomId = roomId;
    e.index = index;
    e.otherIndex = other;
    e.field = field;
    e.original = original;
    e.value = value;
    e.author = author;
    e.atMs = QDateTime::currentMSecsSinceEpoch();
    QSqlQuery insert = m_ws.exec(QStringLiteral("INSERT INTO edits(room_id, seq, other_seq, fingerprint, field, original, "
                                                "value, author, at_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"),
        { roomId, index, orNull(other), *print, Edit::fieldName(field), original, value, author, e.atMs });
    e.id = insert.lastInsertId().toLongLong();
    return e;
}

std::optional<Edit> EditStore::editText(qint64 roomId, qint64 index, const QString& text, const QString& author)
{
    QSqlQuery q = m_ws.exec(QStringLiteral("SELECT kind, unpack(text) FROM events WHERE room_id = ? AND seq = ?"), { roomId, index });
    if (!q.next())
        throw StoreError(m_ws.path(), {}, QStringLiteral("the room has no event at index %1").arg(index));
    const EventKind kind = EventKinds::fromCode(q.value(0).toLongLong());
    const QString now = q.value(1).toString();
    q.finish();
    if (kind == EventKind::ToolCall) {
        throw StoreError(m_ws.path(), QStringLiteral("event %1").arg(index),
            QStringLiteral("it is a tool call: edit its arguments or its result"));
    }
    if (text == now)
        return std::nullopt;
    // What the source said: the first edit of the text kept it.
    QSqlQuery first = m_ws.exec(QStringLiteral("SELECT original FROM edits WHERE room_id = ? AND seq = ? AND field = 'text' "
                                               "ORDER BY id LIMIT 1"),
        { roomId, index });
    const QString original = first.next() ? first.value(0).toString() : now;
    first.finish();
    std::optional<Edit> e = record(roomId, index, std::nullopt, Edit::Field::Text, original, text, author);
    e->previous = now;
    settle(roomId, index, Edit::Field::Text);
    return e;
}

std::optional<Edit> EditStore::editCall(
    qint64 roomId, qint64 index, Edit::Field field, const QString& json, const QString& author)
{
    if (field != Edit::Field::Arguments && field != Edit::Field::Result)
        throw StoreError(m_ws.path(), {}, QStringLiteral("only a call's arguments or result are JSON"));
    const std::optional<Call> call = callAt(roomId, index);
    if (!call)
        throw StoreError(m_ws.path(), QStringLiteral("event %1").arg(index), QStringLiteral("it is no tool call"));
    const QString name = Edit::fieldName(field);
    if (const std::optional<QString> problem = JsonText::whereNotJson(json)) {
        throw StoreError(m_ws.path(), QStringLiteral("event %1, %2").arg(index).arg(name),
            QStringLiteral("not JSON: ") + *problem);
    }
    // Kept as importers keep it: compact, a result that is a string as its text; arguments are JSON themselves.
    const QJsonValue parsed = JsonText::parse(json);
    QString value = JsonText::compact(parsed);
    if (parsed.isNull())
        value = QStringLiteral("null");
    else if (parsed.isString() && field == Edit::Field::Arguments)
        value = JsonText::editable(parsed.toString(), true);
    const QString now = field == Edit::Field::Arguments ? call->arguments : call->resultText;
    if (value == now)
        return std::nullopt;
    QSqlQuery first = m_ws.exec(QStringLiteral("SELECT original FROM edits WHERE room_id = ? AND seq = ? AND field = ? "
                                               "ORDER BY id LIMIT 1"),
        { roomId, call->card, name });
    const QString original = first.next() ? first.value(0).toString() : now;
    first.finish();
    std::optional<Edit> e = record(roomId, call->card, std::nullopt, field, original, value, author);
    e->previous = now;
    settle(roomId, call->card, field);
    return e;
}

std::optional<Edit> EditStore::setOutcome(qint64 roomId, qint64 index, const QString& outcome, const QString& author)
{
    if (!Outcomes::isKnown(outcome)) {
        throw StoreError(m_ws.path(), {},
            QStringLiteral("\"%1\" is no outcome (served, refused, failed, blocked, unserved, cancelled)").arg(outcome));
    }
    const std::optional<Call> call = callAt(roomId, index);
    if (!call)
        throw StoreError(m_ws.path(), QStringLiteral("event %1").arg(index), QStringLiteral("it is no tool call"));
    if (call->outcome == outcome)
        return std::nullopt;
    QSqlQuery first = m_ws.exec(QStringLiteral("SELECT original FROM edits WHERE room_id = ? AND seq = ? AND field = "
                                               "'outcome' ORDER BY id LIMIT 1"),
        { roomId, call->card });
    const QString original = first.next() ? first.value(0).toString() : call->outcome;
    first.finish();
    std::optional<Edit> e = record(roomId, call->card, std::nullopt, Edit::Field::Outcome, original, outcome, author);
    e->previous = call->outcome;
    settle(roomId, call->card, Edit::Field::Outcome);
    return e;
}

Edit EditStore::unlink(qint64 roomId, qint64 index, const QString& author)
{
    const std::optional<Call> call = callAt(roomId, index);
    if (!call || !call->start || !(call->end || call->result)) {
        throw StoreError(m_ws.path(), QStringLiteral("event %1").arg(index),
            QStringLiteral("it is no call with both a start and an end: there is nothing to unlink"));
    }
    const qint64 start = *call->start;
    const qint64 end = call->end ? *call->end : *call->result;
    PairFixer fixer(m_ws);
    const QByteArray before = fixer.snapshot(roomId, start, end);
    fixer.unlink(roomId, start, end);
    const std::optional<Edit> e = record(roomId, start, end, Edit::Field::Unlink, QString::fromUtf8(before),
        QString::fromUtf8(fixer.snapshot(roomId, start, end)), author);
    markRevised(roomId, start);
    markRevised(roomId, end);
    return *e;
}

Edit EditStore::link(qint64 roomId, qint64 start, qint64 end, const QString& author)
{
    PairFixer fixer(m_ws);
    const QByteArray before = fixer.snapshot(roomId, start, end);
    fixer.link(roomId, start, end);
    const std::optional<Edit> e = record(roomId, start, end, Edit::Field::Link, QString::fromUtf8(before),
        QString::fromUtf8(fixer.snapshot(roomId, start, end)), author);
    markRevised(roomId, start);
    markRevised(roomId, end);
    return *e;
}

void EditStore::apply(qint64 editId, bool present)
{
    const std::optional<Edit> e = edit(editId);
    if (!e)
        throw StoreError(m_ws.path(), {}, QStringLiteral("there is no edit %1").arg(editId));
    if (e->isPair()) {
        // Put back exactly: only over the calls as the change found (or left) them.
        PairFixer fixer(m_ws);
        const qint64 end = e->otherIndex.value_or(e->index);
        const QString now = QString::fromUtf8(fixer.snapshot(e->roomId, e->index, end));
        if (!sameCalls(now, present ? e->original : e->value)) {
            throw StoreError(m_ws.path(), QStringLiteral("events %1 and %2").arg(e->index).arg(end),
                QStringLiteral("these calls were changed again since: undo or revert that change first"));
        }
        fixer.restore(e->roomId, e->index, end, (present ? e->value : e->original).toUtf8());
        m_ws.exec(QStringLiteral("UPDATE edits SET present = ? WHERE id = ?"), { present ? 1 : 0, editId });
        markRevised(e->roomId, e->index);
        markRevised(e->roomId, end);
        return;
    }
    m_ws.exec(QStringLiteral("UPDATE edits SET present = ? WHERE id = ?"), { present ? 1 : 0, editId });
    settle(e->roomId, e->index, e->field);
}

void EditStore::settle(qint64 roomId, qint64 index, Edit::Field field)
{
    const QString name = Edit::fieldName(field);
    // The latest in the team's order when the workspace shares its review (a teammate's edit that came down after
    // one made here went up is older there), then those made here and not sent yet, in the order made.
    QSqlQuery q = m_ws.exec(QStringLiteral("SELECT (SELECT value FROM edits WHERE room_id = ? AND seq = ? AND field = ? AND "
                                           "present = 1 ORDER BY team_id IS NULL DESC, team_id DESC, id DESC LIMIT 1), "
                                           "(SELECT original FROM edits WHERE "
                                           "room_id = ? AND seq = ? AND field = ? ORDER BY id LIMIT 1)"),
        { roomId, index, name, roomId, index, name });
    q.next();
    if (q.value(0).isNull() && q.value(1).isNull())
        return; // never edited
    const QString value = q.value(0).isNull() ? q.value(1).toString() : q.value(0).toString();
    q.finish();
    auto eventId = [&](std::optional<qint64> at) -> std::optional<qint64> {
        if (!at)
            return std::nullopt;
        QSqlQuery row = m_ws.exec(QStringLiteral("SELECT id FROM events WHERE room_id = ? AND seq = ?"), { roomId, *at });
        return row.next() ? std::optional<qint64>(row.value(0).toLongLong()) : std::nullopt;
    };
    if (field == Edit::Field::Text) {
        if (const auto id = eventId(index)) {
            m_ws.exec(QStringLiteral("UPDATE events SET text = ? WHERE id = ?"), { value, *id });
            setSearchText(*id, "body", value);
        }
    } else if (const std::optional<Call> call = callAt(roomId, index)) {
        if (field == Edit::Field::Arguments) {
            m_ws.exec(QStringLiteral("UPDATE tool_calls SET arguments = ?, arguments_valid = json_valid(?) WHERE id = ?"),
                { value, value, call->id });
            if (const auto id = eventId(call->start))
                setSearchText(*id, "arguments", value);
            // The call's rows show them in their text ("issue_refund({...})"), which every list and verb prints.
            if (!call->arguments.isEmpty() && call->arguments != value) {
                m_ws.exec(QStringLiteral("UPDATE events SET text = replace(unpack(text), ?, ?) WHERE room_id = ? AND seq IN (?, ?, ?) "
                                         "AND kind = ?"),
                    { call->arguments, value, roomId, orNull(call->start), orNull(call->end), orNull(call->result),
                        EventKinds::code(EventKind::ToolCall) });
            }
        } else if (field == Edit::Field::Result) {
            m_ws.exec(QStringLiteral("UPDATE tool_calls SET result = ? WHERE id = ?"), { value, call->id });
            if (const auto id = eventId(call->result ? call->result : call->end))
                setSearchText(*id, "result", value);
        } else if (field == Edit::Field::Outcome) {
            m_ws.exec(QStringLiteral("UPDATE tool_calls SET outcome = ? WHERE id = ?"), { value, call->id });
            // The rows that settled the call carry its outcome as stored; its start takes it from the call
            // (EventQuery::outcomeOf).
            m_ws.exec(QStringLiteral("UPDATE events SET outcome = ? WHERE room_id = ? AND seq IN (?, ?) AND outcome IS "
                                     "NOT NULL"),
                { value, roomId, orNull(call->end), orNull(call->result) });
            PairFixer(m_ws).recount(roomId);
        }
        // Every row of the call says it was edited, so that is:edited meets outcome: and pairing: on each of its
        // rows, as the timeline's card does.
        for (const std::optional<qint64>& at : { call->start, call->end, call->result }) {
            if (at && *at != index)
                markRevised(roomId, *at, index);
        }
    }
    markRevised(roomId, index);
}

void EditStore::setSearchText(qint64 eventId, const char* column, const QString& text)
{
    // The column is one of three fixed names. The index forgets the old words by the trigger on search_text.
    const QLatin1String name(column);
    QSqlQuery updated = m_ws.exec(QStringLiteral("UPDATE search_text SET %1 = ? WHERE event_id = ?").arg(name), { text, eventId });
    if (updated.numRowsAffected() > 0)
        return;
    m_ws.exec(QStringLiteral("INSERT INTO search_text(event_id, %1) VALUES (?, ?)").arg(name), { eventId, text });
    m_ws.exec(QStringLiteral("INSERT INTO events_fts(rowid, %1) VALUES (?, ?)").arg(name), { eventId, text });
}

void EditStore::markRevised(qint64 roomId, qint64 index, std::optional<qint64> card)
{
    const qint64 item = card.value_or(index);
    m_ws.exec(QStringLiteral("UPDATE events SET flags = CASE WHEN EXISTS (SELECT 1 FROM edits WHERE room_id = ? AND "
                             "present = 1 AND (seq = ? OR other_seq = ? OR seq = ?)) THEN flags | ? ELSE flags & ? END "
                             "WHERE room_id = ? AND seq = ?"),
        { roomId, index, index, item, int(EventFlags::Revised), ~int(EventFlags::Revised), roomId, index });
}

void EditStore::reapply(qint64 roomId)
{
    QSqlQuery q = m_ws.exec(QStringLiteral("SELECT x.id, x.seq, x.other_seq, x.fingerprint, x.field, unpack(e.payload), (SELECT "
                                           "r.fingerprint FROM redactions r WHERE r.room_id = x.room_id AND r.seq = x.seq "
                                           "AND r.present = 1 ORDER BY r.id LIMIT 1) FROM edits x LEFT JOIN events e ON "
                                           "e.room_id = x.room_id AND e.seq = x.seq WHERE x.room_id = ? AND x.present = 1 "
                                           "ORDER BY x.id"),
        { roomId });
    struct Kept
    {
        qint64 id, seq;
        std::optional<qint64> other;
        QString fingerprint;
        Edit::Field field;
        bool moved;
    };
    QVector<Kept> kept;
    const QString prefix = m_ws.fingerprintPrefix();
    while (q.next()) {
        const QString print = q.value(3).toString();
        // Made under another secret (a copy handed on got a new one): nothing can be told, it stays where it is.
        const bool comparable = !prefix.isEmpty() && print.startsWith(prefix);
        const bool moved = comparable
            && (q.value(5).isNull()
                || (m_ws.fingerprint(q.value(5).toByteArray()) != print && q.value(6).toString() != print));
        kept.append({ q.value(0).toLongLong(), q.value(1).toLongLong(), optionalOf(q.value(2)), print,
            Edit::fieldFromName(q.value(4).toString()).value_or(Edit::Field::Text), moved });
    }
    q.finish();
    if (kept.isEmpty())
        return;
    if (std::any_of(kept.cbegin(), kept.cend(), [](const Kept& k) { return k.moved; })) {
        // A rotated log read again: each event is found by the payload the source wrote, and a link's end moves
        // with its start.
        QSet<QString> prints;
        for (const Kept& k : std::as_const(kept)) {
            if (k.moved)
                prints.insert(k.fingerprint);
        }
        const QHash<QString, qint64> found = m_ws.findFingerprints(roomId, prints);
        for (Kept& k : kept) {
            const auto at = found.constFind(k.fingerprint);
            if (!k.moved || at == found.constEnd())
                continue;
            if (k.other)
                k.other = *k.other + (*at - k.seq);
            k.seq = *at;
            m_ws.exec(QStringLiteral("UPDATE edits SET seq = ?, other_seq = ? WHERE id = ?"), { k.seq, orNull(k.other), k.id });
        }
    }
    PairFixer fixer(m_ws);
    QSet<std::pair<qint64, int>> settled;
    for (const Kept& k : std::as_const(kept)) {
        if (k.field != Edit::Field::Link && k.field != Edit::Field::Unlink) {
            if (!settled.contains({ k.seq, int(k.field) })) {
                settled.insert({ k.seq, int(k.field) });
                settle(roomId, k.seq, k.field);
            }
            continue;
        }
        const qint64 end = k.other.value_or(k.seq);
        const std::optional<Edit> e = edit(k.id);
        const QByteArray before = fixer.snapshot(roomId, k.seq, end);
        if (sameCalls(QString::fromUtf8(before), e->value))
            continue; // the rows it changed were not read again
        try {
            if (k.field == Edit::Field::Link)
                fixer.link(roomId, k.seq, end);
            else
                fixer.unlink(roomId, k.seq, end);
        } catch (const StoreError&) {
            continue; // the source pairs them otherwise now: the edit no longer applies, and changes nothing
        }
        m_ws.exec(QStringLiteral("UPDATE edits SET original = ?, value = ? WHERE id = ?"),
            { QString::fromUtf8(before), QString::fromUtf8(fixer.snapshot(roomId, k.seq, end)), k.id });
        markRevised(roomId, k.seq);
        markRevised(roomId, end);
    }
}

Edits EditStore::edits(qint64 roomId, std::optional<qint64> index)
{
    QString sql = QStringLiteral("SELECT ") + editColumns
        + QStringLiteral(" FROM edits x JOIN rooms r ON r.id = x.room_id WHERE x.present = 1");
    QVariantList binds;
    if (roomId != 0) {
        sql += QStringLiteral(" AND x.room_id = ?");
        binds << roomId;
    }
    if (index) {
        sql += QStringLiteral(" AND (x.seq = ? OR x.other_seq = ?)");
        binds << *index << *index;
    }
    QSqlQuery q = m_ws.exec(sql + QStringLiteral(" ORDER BY x.id"), binds);
    Edits out;
    while (q.next())
        out.append(editOf(q));
    return out;
}

std::optional<Edit> EditStore::edit(qint64 editId)
{
    QSqlQuery q = m_ws.exec(
        QStringLiteral("SELECT ") + editColumns + QStringLiteral(" FROM edits x JOIN rooms r ON r.id = x.room_id WHERE x.id = ?"),
        { editId });
    return q.next() ? std::optional<Edit>(editOf(q)) : std::nullopt;
}

ToolCallRecords EditStore::linkCandidates(qint64 roomId, qint64 index, int limit)
{
    QSqlQuery q = m_ws.exec(QStringLiteral("SELECT start_seq, end_seq, result_seq, tool_name FROM tool_calls WHERE room_id "
                                           "= ? AND (start_seq = ? OR (start_seq IS NULL AND coalesce(end_seq, result_seq) "
                                           "= ?)) LIMIT 1"),
        { roomId, index, index });
    if (!q.next())
        return {};
    const bool loneEnd = q.value(0).isNull();
    const bool openStart = !loneEnd && q.value(1).isNull() && q.value(2).isNull();
    const QString tool = q.value(3).toString();
    q.finish();
    if (!loneEnd && !openStart)
        return {};
    QSqlQuery c = m_ws.exec(loneEnd
            ? QStringLiteral("SELECT start_seq, started_us, tool_name, unpack(arguments) FROM tool_calls WHERE room_id = ? AND "
                             "pairing = 'start_only' AND start_seq < ? AND coalesce(tool_name, '') = ? ORDER BY "
                             "start_seq DESC LIMIT ?")
            : QStringLiteral("SELECT coalesce(end_seq, result_seq), ended_us, tool_name, unpack(result) FROM tool_calls WHERE "
                             "room_id = ? AND start_seq IS NULL AND coalesce(end_seq, result_seq) > ? AND "
                             "coalesce(tool_name, '') = ? ORDER BY coalesce(end_seq, result_seq) LIMIT ?"),
        { roomId, index, tool, limit });
    ToolCallRecords out;
    while (c.next()) {
        ToolCallRecord r;
        r.toolName = c.value(2).toString();
        if (loneEnd) {
            r.startIndex = c.value(0).toLongLong();
            r.startMicros = optionalOf(c.value(1));
            r.arguments = c.value(3).toString();
            r.pairing = Pairing::StartOnly;
        } else {
            r.endIndex = c.value(0).toLongLong();
            r.endMicros = optionalOf(c.value(1));
            r.result = c.value(3).toString();
            r.pairing = Pairing::EndOnly;
        }
        out.append(r);
    }
    return out;
}
