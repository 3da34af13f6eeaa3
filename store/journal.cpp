#include "journal.h"

#include "team/teamjournalentry.h"

#include "workspace.h"

#include <QDateTime>
#include <QSqlQuery>
#include <QVariant>

Journal::Journal(Workspace& workspace)
    : m_ws(workspace)
{
}

QString Journal::name(Action action)
{
    switch (action) {
    case Action::NoteAdded:
        return QStringLiteral("note_added");
    case Action::NoteRemoved:
        return QStringLiteral("note_removed");
    case Action::LabelAdded:
        return QStringLiteral("label_added");
    case Action::LabelRemoved:
        return QStringLiteral("label_removed");
    case Action::Marked:
        return QStringLiteral("marked");
    case Action::Unmarked:
        return QStringLiteral("unmarked");
    case Action::Review:
        return QStringLiteral("review");
    case Action::Redacted:
        return QStringLiteral("redacted");
    case Action::TextEdited:
        return QStringLiteral("text_edited");
    case Action::ArgumentsEdited:
        return QStringLiteral("arguments_edited");
    case Action::ResultEdited:
        return QStringLiteral("result_edited");
    case Action::OutcomeChanged:
        return QStringLiteral("outcome_changed");
    case Action::Linked:
        return QStringLiteral("linked");
    case Action::Unlinked:
        return QStringLiteral("unlinked");
    case Action::EditReverted:
        return QStringLiteral("edit_reverted");
    }
    return {};
}

QString Journal::describe(const JournalEntry& e)
{
    QString what = e.action;
    what.replace(QLatin1Char('_'), QLatin1Char(' '));
    if (e.action == name(Action::Review))
        return QStringLiteral("review: %1 → %2").arg(e.before.isEmpty() ? QStringLiteral("unreviewed") : e.before, e.after);
    if (e.action == name(Action::Redacted)) // before: only the keyed digest of what was removed
        return QStringLiteral("redacted: %1 (was %2)").arg(e.after, e.before);
    if (e.action == name(Action::TextEdited) || e.action == name(Action::ArgumentsEdited)
        || e.action == name(Action::ResultEdited) || e.action == name(Action::OutcomeChanged)
        || e.action == name(Action::EditReverted)) {
        auto clip = [](const QString& t) {
            const QString line = t.simplified();
            return line.size() > 80 ? line.left(79) + QChar(0x2026) : line;
        };
        return what + QStringLiteral(": ") + clip(e.before) + QStringLiteral(" → ") + clip(e.after);
    }
    if (e.action == name(Action::Linked) || e.action == name(Action::Unlinked))
        return what + QStringLiteral(": ") + (e.after.isEmpty() ? e.before : e.after);
    if (e.action == name(Action::NoteAdded) || e.action == name(Action::LabelAdded))
        return what + QStringLiteral(": ") + e.after;
    if (e.action == name(Action::NoteRemoved) || e.action == name(Action::LabelRemoved))
        return what + QStringLiteral(": ") + e.before;
    return what;
}

qint64 Journal::record(Action action, qint64 roomId, std::optional<qint64> index, const QString& before,
    const QString& after, const QString& author, std::optional<qint64> annotationId)
{
    QSqlQuery q = m_ws.exec(
        QStringLiteral("INSERT INTO journal(at_ms, author, action, room_id, seq, before, after, annotation_id, "
                       "team_annotation_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, (SELECT team_id FROM annotations WHERE id = ?))"),
        { QDateTime::currentMSecsSinceEpoch(), author, name(action), roomId,
            index ? QVariant(*index) : QVariant(), before.isNull() ? QVariant() : QVariant(before),
            after.isNull() ? QVariant() : QVariant(after), annotationId ? QVariant(*annotationId) : QVariant(),
            annotationId ? QVariant(*annotationId) : QVariant() });
    return q.lastInsertId().toLongLong();
}

bool Journal::adopt(qint64 roomId, const TeamJournalEntry& e)
{
    QSqlQuery had = m_ws.exec(QStringLiteral("SELECT 1 FROM journal WHERE room_id = ? AND team_id = ?"), { roomId, e.id });
    const bool known = had.next();
    had.finish();
    if (known) {
        // This copy's own review entry, as the store took it: its `before` is what the team had then (another
        // reviewer's status this copy had not seen yet), so every copy's journal says the same of it.
        if (e.action == QLatin1String("review")) {
            m_ws.exec(QStringLiteral("UPDATE journal SET before = ? WHERE room_id = ? AND team_id = ? AND came_down = 0"),
                { e.before.isNull() ? QVariant() : QVariant(e.before), roomId, e.id });
        }
        return false;
    }
    m_ws.exec(QStringLiteral("INSERT INTO journal(at_ms, author, action, room_id, seq, before, after, saved, present, team_id, "
                             "came_down) VALUES (?, ?, ?, ?, ?, ?, ?, 1, 1, ?, 1)"),
        { e.atMs, e.author, e.action, roomId, e.seq ? QVariant(*e.seq) : QVariant(),
            e.before.isNull() ? QVariant() : QVariant(e.before), e.after.isNull() ? QVariant() : QVariant(e.after), e.id });
    return true;
}

JournalEntries Journal::entries(qint64 roomId)
{
    QString sql = QStringLiteral(
        "SELECT j.id, j.at_ms, j.author, j.action, j.room_id, r.native_id, j.seq, j.before, j.after, j.saved "
        "FROM journal j LEFT JOIN rooms r ON r.id = j.room_id WHERE j.present = 1");
    QVariantList binds;
    if (roomId != 0) {
        sql += QStringLiteral(" AND j.room_id = ?");
        binds << roomId;
    }
    QSqlQuery q = m_ws.exec(sql + QStringLiteral(" ORDER BY j.id"), binds);
    JournalEntries out;
    while (q.next()) {
        JournalEntry e;
        e.id = q.value(0).toLongLong();
        e.atMs = q.value(1).toLongLong();
        e.author = q.value(2).toString();
        e.action = q.value(3).toString();
        e.roomId = q.value(4).toLongLong();
        e.room = q.value(5).toString();
        if (!q.value(6).isNull())
            e.index = q.value(6).toLongLong();
        e.before = q.value(7).toString();
        e.after = q.value(8).toString();
        e.saved = q.value(9).toBool();
        out.append(e);
    }
    return out;
}
