#include "annotationstore.h"

#include "editstore.h"
#include "journal.h"
#include "jsonstrings.h"
#include "eventflags.h"
#include "eventkind.h"
#include "redactionstore.h"
#include "storeerror.h"
#include "team/teamannotation.h"
#include "workspace.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QRegularExpression>
#include <QSqlQuery>
#include <QVariant>

namespace {

QVariant orNull(const std::optional<qint64>& v)
{
    return v ? QVariant(*v) : QVariant();
}

// Colours told apart by people with the common colour vision deficiencies (Okabe and Ito), then more.
const char* const palette[] = { "#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7",
    "#999999", "#8C564B", "#17BECF" };

Annotation annotationOf(const QSqlQuery& q)
{
    // SELECT id, room_id, seq, kind, value, author, at_ms, saved, detached
    Annotation a;
    a.id = q.value(0).toLongLong();
    a.roomId = q.value(1).toLongLong();
    if (!q.value(2).isNull())
        a.index = q.value(2).toLongLong();
    a.kind = Annotation::kindFromName(q.value(3).toString()).value_or(Annotation::Kind::Note);
    a.value = q.value(4).toString();
    a.author = q.value(5).toString();
    a.atMs = q.value(6).toLongLong();
    a.saved = q.value(7).toBool();
    a.detached = q.value(8).toBool();
    return a;
}

const QString columns = QStringLiteral("id, room_id, seq, kind, value, author, at_ms, saved, detached");

} // namespace

QString Annotation::kindName(Kind kind)
{
    switch (kind) {
    case Kind::Note:
        return QStringLiteral("note");
    case Kind::Label:
        return QStringLiteral("label");
    case Kind::Mark:
        return QStringLiteral("mark");
    case Kind::Review:
        return QStringLiteral("review");
    }
    return {};
}

std::optional<Annotation::Kind> Annotation::kindFromName(const QString& name)
{
    for (Kind k : { Kind::Note, Kind::Label, Kind::Mark, Kind::Review }) {
        if (kindName(k) == name)
            return k;
    }
    return std::nullopt;
}

AnnotationStore::AnnotationStore(Workspace& workspace)
    : m_ws(workspace)
{
}


const char* AnnotationStore::tableName(int table)
{
    switch (EditStep::Table(table)) {
    case EditStep::Journal:
        return "journal";
    case EditStep::Redactions:
        return "redactions";
    case EditStep::Edits:
        return "edits";
    case EditStep::Annotations:
        break;
    }
    return "annotations";
}

template<typename Work> EditSteps AnnotationStore::transaction(Work&& work)
{
    // Inside a caller's transaction (many notes written at once) a savepoint, undone alone on failure.
    return m_ws.writeTransaction(std::forward<Work>(work));
}

void AnnotationStore::requireEvent(qint64 roomId, std::optional<qint64> index)
{
    QSqlQuery room = m_ws.exec(QStringLiteral("SELECT 1 FROM rooms WHERE id = ?"), { roomId });
    if (!room.next())
        throw StoreError(m_ws.path(), {}, QStringLiteral("there is no room %1 in the workspace").arg(roomId));
    if (!index)
        return;
    QSqlQuery q = m_ws.exec(QStringLiteral("SELECT 1 FROM events WHERE room_id = ? AND seq = ?"), { roomId, *index });
    if (!q.next())
        throw StoreError(m_ws.path(), {}, QStringLiteral("the room has no event at index %1").arg(*index));
}

qint64 AnnotationStore::insert(qint64 roomId, std::optional<qint64> index, Annotation::Kind kind,
    const QString& value, const QString& author)
{
    requireEvent(roomId, index);
    QSqlQuery q = m_ws.exec(
        QStringLiteral("INSERT INTO annotations(room_id, seq, fingerprint, kind, value, author, at_ms) VALUES (?, ?, "
                       "?, ?, ?, ?, ?)"),
        { roomId, orNull(index), fingerprintAt(roomId, index), Annotation::kindName(kind),
            value.isNull() ? QVariant() : QVariant(value), author, QDateTime::currentMSecsSinceEpoch() });
    return q.lastInsertId().toLongLong();
}

QVariant AnnotationStore::fingerprintAt(qint64 roomId, std::optional<qint64> index)
{
    if (index) {
        if (const std::optional<QString> source = m_ws.sourceFingerprint(roomId, *index))
            return *source;
    }
    return {};
}

void AnnotationStore::colourLabel(const QString& name)
{
    QSqlQuery known = m_ws.exec(QStringLiteral("SELECT count(*), sum(name = ?) FROM labels"), { name });
    known.next();
    const int count = known.value(0).toInt();
    const bool exists = known.value(1).toInt() > 0;
    known.finish();
    if (!exists)
        m_ws.exec(QStringLiteral("INSERT INTO labels(name, color) VALUES (?, ?)"),
            { name, QString::fromLatin1(palette[count % std::size(palette)]) });
}

void AnnotationStore::restore(qint64 roomId, const Annotations& annotations, const JournalEntries& journal)
{
    for (const Annotation& a : annotations) {
        const QString kind = Annotation::kindName(a.kind);
        const QVariant index = orNull(a.index);
        const QVariant value = a.value.isNull() ? QVariant() : QVariant(a.value);
        QSqlQuery had = m_ws.exec(QStringLiteral("SELECT 1 FROM annotations WHERE room_id = ? AND seq IS ? AND kind = ? AND "
                                                 "value IS ? AND author = ? AND at_ms = ?"),
            { roomId, index, kind, value, a.author, a.atMs });
        const bool known = had.next();
        had.finish();
        if (known)
            continue;
        if (a.kind == Annotation::Kind::Label)
            colourLabel(a.value);
        m_ws.exec(QStringLiteral("INSERT INTO annotations(room_id, seq, fingerprint, detached, kind, value, author, at_ms, "
                                 "saved, present) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, 1)"),
            { roomId, index, fingerprintAt(roomId, a.index), a.detached ? 1 : 0, kind, value, a.author, a.atMs });
    }
    for (const JournalEntry& j : journal) {
        const QVariant index = orNull(j.index);
        const QVariant before = j.before.isNull() ? QVariant() : QVariant(j.before);
        const QVariant after = j.after.isNull() ? QVariant() : QVariant(j.after);
        QSqlQuery had = m_ws.exec(QStringLiteral("SELECT 1 FROM journal WHERE room_id = ? AND seq IS ? AND action = ? AND "
                                                 "author = ? AND at_ms = ? AND before IS ? AND after IS ?"),
            { roomId, index, j.action, j.author, j.atMs, before, after });
        const bool known = had.next();
        had.finish();
        if (!known)
            m_ws.exec(QStringLiteral("INSERT INTO journal(at_ms, author, action, room_id, seq, before, after, saved, present) "
                                     "VALUES (?, ?, ?, ?, ?, ?, ?, 1, 1)"),
                { j.atMs, j.author, j.action, roomId, index, before, after });
    }
}

void AnnotationStore::adopt(qint64 roomId, const TeamAnnotation& a)
{
    const QVariant value = a.value.isNull() ? QVariant() : QVariant(a.value);
    QSqlQuery had = m_ws.exec(QStringLiteral("SELECT id FROM annotations WHERE room_id = ? AND team_id = ?"), { roomId, a.id });
    const std::optional<qint64> local = had.next() ? std::optional<qint64>(had.value(0).toLongLong()) : std::nullopt;
    had.finish();
    if (local) {
        m_ws.exec(QStringLiteral("UPDATE annotations SET value = ?, present = ?, saved = 1 WHERE id = ?"),
            { value, a.present ? 1 : 0, *local });
        return;
    }
    if (!a.present)
        return;
    if (a.kind == Annotation::Kind::Label)
        colourLabel(a.value);
    m_ws.exec(QStringLiteral("INSERT INTO annotations(room_id, seq, fingerprint, kind, value, author, at_ms, saved, present, "
                             "team_id) VALUES (?, ?, ?, ?, ?, ?, ?, 1, 1, ?)"),
        { roomId, orNull(a.seq), fingerprintAt(roomId, a.seq), Annotation::kindName(a.kind), value, a.author, a.atMs,
            a.id });
}

std::optional<qint64> AnnotationStore::find(
    qint64 roomId, std::optional<qint64> index, Annotation::Kind kind, const QString& value)
{
    QString sql = QStringLiteral("SELECT id FROM annotations WHERE room_id = ? AND kind = ? AND present = 1 AND ");
    QVariantList binds { roomId, Annotation::kindName(kind) };
    if (index) {
        sql += QStringLiteral("seq = ?");
        binds << *index;
    } else {
        sql += QStringLiteral("seq IS NULL");
    }
    if (!value.isNull()) {
        sql += QStringLiteral(" AND value = ?");
        binds << value;
    }
    QSqlQuery q = m_ws.exec(sql + QStringLiteral(" ORDER BY id LIMIT 1"), binds);
    return q.next() ? std::optional<qint64>(q.value(0).toLongLong()) : std::nullopt;
}

EditSteps AnnotationStore::addNote(qint64 roomId, std::optional<qint64> index, const QString& text, const QString& author)
{
    const QString note = text.trimmed();
    if (note.isEmpty())
        throw StoreError(m_ws.path(), {}, QStringLiteral("a note needs some text"));
    return transaction([&] {
        const qint64 id = insert(roomId, index, Annotation::Kind::Note, note, author);
        const qint64 entry = Journal(m_ws).record(Journal::Action::NoteAdded, roomId, index, {}, note, author, id);
        return EditSteps { { EditStep::Annotations, id, true }, { EditStep::Journal, entry, true } };
    });
}

EditSteps AnnotationStore::remove(qint64 annotationId, const QString& author)
{
    return transaction([&] {
        QSqlQuery q = m_ws.exec(
            QStringLiteral("SELECT ") + columns + QStringLiteral(" FROM annotations WHERE id = ? AND present = 1"),
            { annotationId });
        if (!q.next())
            throw StoreError(m_ws.path(), {}, QStringLiteral("there is no annotation %1").arg(annotationId));
        const Annotation a = annotationOf(q);
        q.finish();
        m_ws.exec(QStringLiteral("UPDATE annotations SET present = 0 WHERE id = ?"), { annotationId });
        Journal::Action action = Journal::Action::NoteRemoved;
        if (a.kind == Annotation::Kind::Label)
            action = Journal::Action::LabelRemoved;
        else if (a.kind == Annotation::Kind::Mark)
            action = Journal::Action::Unmarked;
        else if (a.kind == Annotation::Kind::Review)
            action = Journal::Action::Review;
        const qint64 entry = Journal(m_ws).record(action, a.roomId, a.index, a.value, {}, author, annotationId);
        return EditSteps { { EditStep::Annotations, annotationId, false }, { EditStep::Journal, entry, true } };
    });
}

EditSteps AnnotationStore::setMarked(qint64 roomId, qint64 index, bool marked, const QString& author)
{
    return transaction([&] {
        const std::optional<qint64> mark = find(roomId, index, Annotation::Kind::Mark, {});
        if (marked == mark.has_value())
            return EditSteps {};
        Journal journal(m_ws);
        if (marked) {
            const qint64 id = insert(roomId, index, Annotation::Kind::Mark, {}, author);
            const qint64 entry = journal.record(Journal::Action::Marked, roomId, index, {}, {}, author, id);
            return EditSteps { { EditStep::Annotations, id, true }, { EditStep::Journal, entry, true } };
        }
        m_ws.exec(QStringLiteral("UPDATE annotations SET present = 0 WHERE id = ?"), { *mark });
        const qint64 entry = journal.record(Journal::Action::Unmarked, roomId, index, {}, {}, author, *mark);
        return EditSteps { { EditStep::Annotations, *mark, false }, { EditStep::Journal, entry, true } };
    });
}

EditSteps AnnotationStore::addLabel(
    qint64 roomId, std::optional<qint64> index, const QString& name, const QString& author)
{
    const QString label = name.trimmed().toLower();
    if (label.isEmpty() || label.contains(QLatin1Char(' ')) || label.contains(QLatin1Char(':')))
        throw StoreError(m_ws.path(), {}, QStringLiteral("a label is one word without a colon: \"%1\"").arg(name));
    return transaction([&] {
        if (find(roomId, index, Annotation::Kind::Label, label))
            return EditSteps {};
        colourLabel(label);
        const qint64 id = insert(roomId, index, Annotation::Kind::Label, label, author);
        const qint64 entry = Journal(m_ws).record(Journal::Action::LabelAdded, roomId, index, {}, label, author, id);
        return EditSteps { { EditStep::Annotations, id, true }, { EditStep::Journal, entry, true } };
    });
}

EditSteps AnnotationStore::removeLabel(
    qint64 roomId, std::optional<qint64> index, const QString& name, const QString& author)
{
    const std::optional<qint64> id = find(roomId, index, Annotation::Kind::Label, name.trimmed().toLower());
    return id ? remove(*id, author) : EditSteps {};
}

EditSteps AnnotationStore::setReview(qint64 roomId, const QString& status, const QString& author)
{
    if (!ReviewStatus::all().contains(status)) {
        throw StoreError(m_ws.path(), {},
            QStringLiteral("\"%1\" is no review status (%2)").arg(status, ReviewStatus::all().join(QStringLiteral(", "))));
    }
    return transaction([&] {
        requireEvent(roomId, std::nullopt);
        const std::optional<Annotation> before = review(roomId);
        const QString was = before ? before->value : ReviewStatus::Unreviewed;
        if (was == status)
            return EditSteps {};
        EditSteps steps;
        // One review row a room: the status before is taken out, so a room's review is the row present.
        if (before) {
            m_ws.exec(QStringLiteral("UPDATE annotations SET present = 0 WHERE id = ?"), { before->id });
            steps.append({ EditStep::Annotations, before->id, false });
        }
        const qint64 id = insert(roomId, std::nullopt, Annotation::Kind::Review, status, author);
        steps.append({ EditStep::Annotations, id, true });
        steps.append({ EditStep::Journal,
            Journal(m_ws).record(Journal::Action::Review, roomId, std::nullopt, was, status, author, id), true });
        return steps;
    });
}

namespace {
// A redaction's journal entry: before, the keyed digest of what went; after, the placeholder and where it is.
qint64 journalRedaction(Workspace& ws, const Redaction& r, const QString& author)
{
    return Journal(ws).record(Journal::Action::Redacted, r.roomId, r.index,
        QStringLiteral("hmac-sha256:%1 (%2 characters)").arg(r.digest, QString::number(r.length)),
        // One arg() with every value: a reason or a path holding "%3" took the next value in before.
        QStringLiteral("%1 at %2 [%3, %4)")
            .arg(RedactionStore::placeholder(r.reason),
                r.path.isEmpty()                     ? QStringLiteral("the text")
                    : r.path == QLatin1String("@text") ? QStringLiteral("the message's text")
                                                       : r.path,
                QString::number(r.start), QString::number(r.start + r.length)),
        author);
}
} // namespace

EditSteps AnnotationStore::redact(qint64 roomId, qint64 index, const QString& path, qint64 start, qint64 length,
    const QString& reason, const QString& author)
{
    return transaction([&] {
        RedactionStore redactions(m_ws);
        // The text as it is before the cut: the same text in the call's other rows goes with it.
        QString removed;
        if (!path.startsWith(QLatin1Char('@'))) {
            QSqlQuery row = m_ws.exec(QStringLiteral("SELECT unpack(payload) FROM events WHERE room_id = ? AND seq = ?"),
                { roomId, index });
            if (row.next()) {
                if (const auto token = JsonStrings::stringAt(row.value(0).toString(), path)) {
                    qsizetype from = start;
                    qsizetype count = length;
                    JsonStrings::wholeCharacters(token->value, from, count);
                    removed = token->value.mid(from, count);
                }
            }
        }
        const Redaction r = redactions.redact(roomId, index, path, start, length, reason, author);
        EditSteps steps { { EditStep::Redactions, r.id, true }, { EditStep::Journal, journalRedaction(m_ws, r, author), true } };
        // A tool call's rows repeat what it was sent (a RoomKit end row its arguments) and its result may hold the same
        // value: each copy is redacted too, in the ledger each, so nothing of the call still shows the text. A value,
        // not a letter: a span shorter than CopiedValueMin (a character, "id") is cut where it was selected alone,
        // or every "a" of the call would go.
        constexpr qsizetype CopiedValueMin = 4;
        if (removed.size() < CopiedValueMin)
            removed.clear();
        for (int copies = 0; copies < 1000; ++copies) {
            const std::optional<RedactionMatch> copy = redactions.copyInCall(roomId, index, removed);
            if (!copy)
                break;
            const Redaction c = redactions.redact(copy->roomId, copy->index, copy->path, copy->start, copy->length, reason, author);
            steps.append({ EditStep::Redactions, c.id, true });
            steps.append({ EditStep::Journal, journalRedaction(m_ws, c, author), true });
        }
        return steps;
    });
}

EditSteps AnnotationStore::redactMessage(
    qint64 roomId, qint64 index, qint64 start, qint64 length, const QString& reason, const QString& author)
{
    return transaction([&] {
        EditSteps steps;
        for (const Redaction& r : RedactionStore(m_ws).redactMessage(roomId, index, start, length, reason, author)) {
            steps.append({ EditStep::Redactions, r.id, true });
            steps.append({ EditStep::Journal, journalRedaction(m_ws, r, author), true });
        }
        return steps;
    });
}

namespace {
// A field that says what an event is rather than what was said in it: a whole event's redaction leaves it. Only
// in the event's envelope ($.type, $.content.type); deeper (a call's arguments, its result) everything is said.
bool isStructural(const QString& path)
{
    if (path.count(QLatin1Char('.')) + path.count(QLatin1Char('[')) > 2)
        return false;
    static const QRegularExpression last(QStringLiteral("(?:\\.([^.\\[]+)|\\[\"([^\"]+)\"\\])$"));
    const QRegularExpressionMatch m = last.match(path);
    if (!m.hasMatch())
        return false;
    const QString name = m.captured(1).isEmpty() ? m.captured(2) : m.captured(1);
    const QString key = name.toLower();
    static const QStringList keys { QStringLiteral("type"), QStringLiteral("event_type"), QStringLiteral("kind"),
        QStringLiteral("role"), QStringLiteral("status"), QStringLiteral("id"), QStringLiteral("timestamp"),
        QStringLiteral("created_at"), QStringLiteral("updated_at"), QStringLiteral("ts"), QStringLiteral("channel_type"),
        QStringLiteral("direction"), QStringLiteral("visibility") };
    return keys.contains(key) || key.endsWith(QLatin1String("_id")) || name.endsWith(QLatin1String("Id"));
}
} // namespace

EditSteps AnnotationStore::redactAll(
    qint64 roomId, qint64 index, const QString& path, const QString& reason, const QString& author)
{
    return transaction([&] {
        EditSteps steps;
        QVector<qint64> rows { index };
        if (path.isEmpty()) {
            QSqlQuery call = m_ws.exec(
                QStringLiteral("SELECT end_seq, result_seq FROM tool_calls WHERE room_id = ? AND start_seq = ?"), { roomId, index });
            while (call.next()) {
                for (int c = 0; c < 2; ++c) {
                    if (!call.value(c).isNull() && !rows.contains(call.value(c).toLongLong()))
                        rows.append(call.value(c).toLongLong());
                }
            }
            call.finish();
            QSqlQuery row = m_ws.exec(QStringLiteral("SELECT unpack(text), message_id, kind, flags FROM events WHERE room_id = ? AND seq = ?"),
                { roomId, index });
            if (row.next() && !row.value(1).toString().isEmpty() && EventKinds::fromCode(row.value(2).toLongLong()) != EventKind::ToolCall
                && !(row.value(3).toInt() & EventFlags::Folded) && !row.value(0).toString().isEmpty()) {
                const qint64 length = row.value(0).toString().size();
                row.finish();
                try {
                    steps += redactMessage(roomId, index, 0, length, reason, author);
                } catch (const StoreError&) {
                    // Not the sum of its parts: its rows' own strings below are what there is.
                }
            }
        }
        for (qint64 at : std::as_const(rows)) {
            QSqlQuery q = m_ws.exec(QStringLiteral("SELECT unpack(payload) FROM events WHERE room_id = ? AND seq = ? AND typeof(unpack(payload)) = 'text'"),
                { roomId, at });
            if (!q.next())
                continue;
            const QString payload = q.value(0).toString();
            q.finish();
            QStringList paths;
            for (const JsonStrings::Token& t :
                JsonStrings::values(payload).value_or(QVector<JsonStrings::Token> { JsonStrings::plain(payload) })) {
                const bool under = path.isEmpty() ? !isStructural(t.path)
                                                  : t.path == path || t.path.startsWith(path + QLatin1Char('.'))
                        || t.path.startsWith(path + QLatin1Char('['));
                if (under && !t.value.isEmpty() && t.value != RedactionStore::placeholder(reason))
                    paths << t.path;
            }
            for (const QString& p : std::as_const(paths)) {
                // Read again: a string of the row that held the same text was cut with it.
                QSqlQuery now = m_ws.exec(QStringLiteral("SELECT unpack(payload) FROM events WHERE room_id = ? AND seq = ?"), { roomId, at });
                const std::optional<JsonStrings::Token> t = now.next() ? JsonStrings::stringAt(now.value(0).toString(), p) : std::nullopt;
                now.finish();
                if (t && !t->value.isEmpty() && !t->value.startsWith(QLatin1String("[redacted: ")))
                    steps += redact(roomId, at, p, 0, t->value.size(), reason, author);
            }
        }
        if (steps.isEmpty()) {
            throw StoreError(m_ws.path(), QStringLiteral("event %1").arg(index),
                path.isEmpty() ? QStringLiteral("it holds no text to redact") : QStringLiteral("%1 holds no text to redact").arg(path));
        }
        return steps;
    });
}

EditSteps AnnotationStore::redactMatches(const RedactionMatches& matches, const QString& reason, const QString& author)
{
    RedactionMatches ordered = matches;
    std::sort(ordered.begin(), ordered.end(), [](const RedactionMatch& a, const RedactionMatch& b) {
        return std::tie(a.roomId, a.index, a.path, b.start) < std::tie(b.roomId, b.index, b.path, a.start);
    });
    return transaction([&] {
        EditSteps steps;
        for (const RedactionMatch& m : ordered) {
            // Text assembled from deltas: each delta, and every place the whole shows.
            if (m.path == QLatin1String("@message") || m.path == QLatin1String("@arguments")) {
                RedactionStore redactions(m_ws);
                const Redactions made = m.path == QLatin1String("@message")
                    ? redactions.redactMessage(m.roomId, m.index, m.start, m.length, reason, author, m.parts)
                    : redactions.redactArguments(m.roomId, m.index, m.start, m.length, reason, author, m.parts);
                for (const Redaction& r : made) {
                    steps.append({ EditStep::Redactions, r.id, true });
                    steps.append({ EditStep::Journal, journalRedaction(m_ws, r, author), true });
                }
                continue;
            }
            if (m.path == QLatin1String("@note")) {
                const Redaction r = RedactionStore(m_ws).redactNote(m.noteId, m.start, m.length, reason, author);
                steps.append({ EditStep::Redactions, r.id, true });
                steps.append({ EditStep::Journal, journalRedaction(m_ws, r, author), true });
                continue;
            }
            // Each match alone: every copy in a call's rows is a match of its own here.
            const Redaction r = RedactionStore(m_ws).redact(m.roomId, m.index, m.path, m.start, m.length, reason, author);
            steps.append({ EditStep::Redactions, r.id, true });
            steps.append({ EditStep::Journal, journalRedaction(m_ws, r, author), true });
        }
        return steps;
    });
}

namespace {
Journal::Action journalAction(Edit::Field field)
{
    switch (field) {
    case Edit::Field::Text:
        return Journal::Action::TextEdited;
    case Edit::Field::Arguments:
        return Journal::Action::ArgumentsEdited;
    case Edit::Field::Result:
        return Journal::Action::ResultEdited;
    case Edit::Field::Outcome:
        return Journal::Action::OutcomeChanged;
    case Edit::Field::Link:
        return Journal::Action::Linked;
    case Edit::Field::Unlink:
        return Journal::Action::Unlinked;
    }
    return Journal::Action::TextEdited;
}

QString pairText(const Edit& e)
{
    return QStringLiteral("start %1, end %2").arg(e.index).arg(e.otherIndex.value_or(e.index));
}

EditSteps journalEdit(Workspace& ws, const std::optional<Edit>& e, const QString& author)
{
    if (!e)
        return {};
    const qint64 entry = e->isPair()
        ? Journal(ws).record(journalAction(e->field), e->roomId, e->index,
              e->field == Edit::Field::Unlink ? pairText(*e) : QString(),
              e->field == Edit::Field::Link ? pairText(*e) : QString(), author)
        : Journal(ws).record(journalAction(e->field), e->roomId, e->index, e->previous, e->value, author);
    // The entry names its edit (what goes up to a team store for it, TeamSync) and the one of the same field that
    // showed when it was made (a team store that has another there keeps both, as a conflict).
    ws.exec(QStringLiteral("UPDATE journal SET edit_id = ?, replaces_edit_id = (SELECT id FROM edits WHERE room_id = ? AND "
                           "seq = ? AND field = ? AND present = 1 AND id <> ? ORDER BY team_id IS NULL DESC, team_id DESC, id "
                           "DESC LIMIT 1) WHERE id = ?"),
        { e->id, e->roomId, e->index, Edit::fieldName(e->field), e->id, entry });
    return { { EditStep::Edits, e->id, true }, { EditStep::Journal, entry, true } };
}
} // namespace

EditSteps AnnotationStore::editText(qint64 roomId, qint64 index, const QString& text, const QString& author)
{
    return transaction([&] { return journalEdit(m_ws, EditStore(m_ws).editText(roomId, index, text, author), author); });
}

EditSteps AnnotationStore::editCall(
    qint64 roomId, qint64 index, Edit::Field field, const QString& json, const QString& author)
{
    return transaction(
        [&] { return journalEdit(m_ws, EditStore(m_ws).editCall(roomId, index, field, json, author), author); });
}

EditSteps AnnotationStore::setOutcome(qint64 roomId, qint64 index, const QString& outcome, const QString& author)
{
    return transaction(
        [&] { return journalEdit(m_ws, EditStore(m_ws).setOutcome(roomId, index, outcome, author), author); });
}

EditSteps AnnotationStore::unlink(qint64 roomId, qint64 index, const QString& author)
{
    return transaction([&] { return journalEdit(m_ws, EditStore(m_ws).unlink(roomId, index, author), author); });
}

EditSteps AnnotationStore::link(qint64 roomId, qint64 start, qint64 end, const QString& author)
{
    return transaction([&] { return journalEdit(m_ws, EditStore(m_ws).link(roomId, start, end, author), author); });
}

EditSteps AnnotationStore::revertEdit(qint64 editId, const QString& author)
{
    return transaction([&] {
        EditStore edits(m_ws);
        const std::optional<Edit> e = edits.edit(editId);
        if (!e)
            throw StoreError(m_ws.path(), {}, QStringLiteral("there is no edit %1").arg(editId));
        edits.apply(editId, false);
        const QString what = Edit::fieldName(e->field);
        const qint64 entry = Journal(m_ws).record(Journal::Action::EditReverted, e->roomId, e->index,
            e->isPair() ? what + QStringLiteral(" ") + pairText(*e) : what + QStringLiteral(": ") + e->value,
            e->isPair() ? QString() : e->original, author);
        // The entry names the edit, and its id in a team store once it went up there (a save deletes the edit's row:
        // what goes up then is taking that one back).
        m_ws.exec(QStringLiteral("UPDATE journal SET edit_id = ?, team_annotation_id = (SELECT team_id FROM edits WHERE id = ?) "
                                 "WHERE id = ?"),
            { editId, editId, entry });
        return EditSteps { { EditStep::Edits, editId, false }, { EditStep::Journal, entry, true } };
    });
}

void AnnotationStore::apply(const EditSteps& steps, bool redo)
{
    transaction([&] {
        // Undone newest first: a later change to the same row goes before an earlier one comes back.
        EditSteps ordered = steps;
        if (!redo)
            std::reverse(ordered.begin(), ordered.end());
        for (const EditStep& s : ordered) {
            if (s.table == EditStep::Redactions)
                RedactionStore(m_ws).apply(s.id, redo == s.present);
            if (s.table == EditStep::Edits)
                EditStore(m_ws).apply(s.id, redo == s.present);
            const char* table = tableName(s.table);
            m_ws.exec(QStringLiteral("UPDATE %1 SET present = ? WHERE id = ?").arg(QLatin1String(table)),
                { redo == s.present ? 1 : 0, s.id });
        }
        return EditSteps {};
    });
}

Annotations AnnotationStore::annotations(qint64 roomId)
{
    QSqlQuery q = m_ws.exec(QStringLiteral("SELECT ") + columns
            + QStringLiteral(" FROM annotations WHERE room_id = ? AND present = 1 ORDER BY seq IS NOT NULL, seq, id"),
        { roomId });
    Annotations out;
    while (q.next())
        out.append(annotationOf(q));
    return out;
}

Annotations AnnotationStore::notes(qint64 roomId)
{
    QString sql = QStringLiteral("SELECT ") + columns
        + QStringLiteral(" FROM annotations WHERE kind = 'note' AND present = 1");
    QVariantList binds;
    if (roomId != 0) {
        sql += QStringLiteral(" AND room_id = ?");
        binds << roomId;
    }
    QSqlQuery q = m_ws.exec(sql + QStringLiteral(" ORDER BY room_id, seq IS NOT NULL, seq, id"), binds);
    Annotations out;
    while (q.next())
        out.append(annotationOf(q));
    return out;
}

std::optional<Annotation> AnnotationStore::review(qint64 roomId)
{
    QSqlQuery q = m_ws.exec(QStringLiteral("SELECT ") + columns
            + QStringLiteral(" FROM annotations WHERE room_id = ? AND seq IS NULL AND kind = 'review' AND present = 1 "
                             "ORDER BY id DESC LIMIT 1"),
        { roomId });
    return q.next() ? std::optional<Annotation>(annotationOf(q)) : std::nullopt;
}

QMap<QString, QString> AnnotationStore::labelColors()
{
    QSqlQuery q = m_ws.exec(QStringLiteral("SELECT name, color FROM labels ORDER BY name"));
    QMap<QString, QString> out;
    while (q.next())
        out.insert(q.value(0).toString(), q.value(1).toString());
    return out;
}

int AnnotationStore::unsavedChanges()
{
    QSqlQuery q = m_ws.exec(QStringLiteral("SELECT count(*) FROM journal WHERE saved != present"));
    return q.next() ? q.value(0).toInt() : 0;
}

void AnnotationStore::save()
{
    bool redacted = false;
    transaction([&] {
        redacted = RedactionStore(m_ws).save();
        for (const char* table : { "annotations", "journal", "redactions", "edits" }) {
            m_ws.exec(QStringLiteral("DELETE FROM %1 WHERE present = 0").arg(QLatin1String(table)));
            m_ws.exec(QStringLiteral("UPDATE %1 SET saved = 1 WHERE saved = 0").arg(QLatin1String(table)));
        }
        return EditSteps {};
    });
    if (redacted)
        RedactionStore(m_ws).forget();
}

EditSteps AnnotationStore::redactMatchesAndSave(
    const QVector<RedactionMatch>& matches, const QString& reason, const QString& author)
{
    // One transaction for the redactions and their save: a process killed after it leaves them final, one killed
    // before it leaves nothing; never redactions unsaved with undo rows holding the text, which nothing would save.
    bool redacted = false;
    EditSteps steps;
    transaction([&] {
        steps = redactMatches(matches, reason, author);
        redacted = markSaved(steps);
        return EditSteps {};
    });
    if (redacted)
        RedactionStore(m_ws).forget();
    return steps;
}

bool AnnotationStore::markSaved(const EditSteps& steps)
{
    bool redacted = false;
    for (const EditStep& step : steps) {
        if (step.table == EditStep::Redactions && step.present) {
            const RedactionStore secure(m_ws); // secure_delete on for what follows
            m_ws.exec(QStringLiteral("DELETE FROM redaction_undo WHERE redaction_id = ?"), { step.id });
            redacted = true;
        }
        const QLatin1String table(tableName(step.table));
        if (step.present)
            m_ws.exec(QStringLiteral("UPDATE %1 SET saved = 1 WHERE id = ?").arg(table), { step.id });
        else
            m_ws.exec(QStringLiteral("DELETE FROM %1 WHERE id = ?").arg(table), { step.id });
    }
    return redacted;
}

void AnnotationStore::saveOnly(const EditSteps& steps)
{
    bool redacted = false;
    transaction([&] {
        redacted = markSaved(steps);
        return EditSteps {};
    });
    if (redacted)
        RedactionStore(m_ws).forget();
}

void AnnotationStore::discard()
{
    transaction([&] {
        RedactionStore(m_ws).discard();
        // Edits made since go, newest first; those saved and taken out since come back, oldest first.
        EditStore edits(m_ws);
        for (const auto& [sql, present] : { std::pair(QStringLiteral("SELECT id FROM edits WHERE saved = 0 AND present = 1 "
                                                                     "ORDER BY id DESC"),
                                                false),
                 std::pair(QStringLiteral("SELECT id FROM edits WHERE saved = 1 AND present = 0 ORDER BY id"), true) }) {
            QSqlQuery q = m_ws.exec(sql);
            QVector<qint64> ids;
            while (q.next())
                ids.append(q.value(0).toLongLong());
            q.finish();
            for (qint64 id : ids)
                edits.apply(id, present);
        }
        for (const char* table : { "annotations", "journal", "redactions", "edits" }) {
            m_ws.exec(QStringLiteral("DELETE FROM %1 WHERE saved = 0").arg(QLatin1String(table)));
            m_ws.exec(QStringLiteral("UPDATE %1 SET present = 1 WHERE present = 0").arg(QLatin1String(table)));
        }
        return EditSteps {};
    });
}

void AnnotationStore::relink(qint64 roomId)
{
    transaction([&] {
        QSqlQuery q = m_ws.exec(QStringLiteral("SELECT a.id, a.seq, a.fingerprint, unpack(e.payload), (SELECT x.fingerprint FROM redactions x "
                                               "WHERE x.room_id = a.room_id AND x.seq = a.seq AND x.present = 1 ORDER BY "
                                               "x.id LIMIT 1) FROM annotations a LEFT JOIN events e ON e.room_id = "
                                               "a.room_id AND e.seq = a.seq WHERE a.room_id = ? AND a.seq IS NOT NULL "
                                               "AND a.fingerprint IS NOT NULL"),
            { roomId });
        QHash<QString, QVector<qint64>> moved; // fingerprint -> annotations no longer at their index
        const QString prefix = m_ws.fingerprintPrefix();
        while (q.next()) {
            const QString print = q.value(2).toString();
            // Made under another secret (a copy handed on got a new one): nothing can be told; left where it is.
            if (prefix.isEmpty() || !print.startsWith(prefix))
                continue;
            // A redacted row's payload changed on purpose: its first redaction keeps the source's fingerprint.
            if (q.value(3).isNull()
                || (m_ws.fingerprint(q.value(3).toByteArray()) != print && q.value(4).toString() != print))
                moved[print].append(q.value(0).toLongLong());
        }
        q.finish();
        if (moved.isEmpty())
            return EditSteps {};
        // Rare (a rotated log re-read): one pass over the room's payloads finds where each event went.
        const QStringList keys = moved.keys();
        const QHash<QString, qint64> found = m_ws.findFingerprints(roomId, QSet<QString>(keys.cbegin(), keys.cend()));
        for (auto it = moved.cbegin(); it != moved.cend(); ++it) {
            for (qint64 id : it.value()) {
                if (found.contains(it.key())) {
                    m_ws.exec(QStringLiteral("UPDATE annotations SET seq = ?, detached = 0 WHERE id = ?"),
                        { found.value(it.key()), id });
                } else {
                    m_ws.exec(QStringLiteral("UPDATE annotations SET detached = 1 WHERE id = ?"), { id });
                }
            }
        }
        return EditSteps {};
    });
}
