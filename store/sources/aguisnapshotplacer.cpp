#include "aguisnapshotplacer.h"

#include "../eventflags.h"
#include "../jsontext.h"
#include "aguicallassembler.h"
#include "aguijson.h"
#include "aguimessageassembler.h"
#include "aguirows.h"

#include <algorithm>
#include <QCryptographicHash>
#include <QJsonDocument>

using AguiJson::contentText;
using AguiJson::str;
using JsonText::clip;

// A run's input repeats the whole conversation so far: only what no earlier snapshot brought is kept.
void AguiSnapshotPlacer::remember(AguiRows& rows, qint64 i, const QJsonArray& messages)
{
    QJsonArray fresh;
    for (const QJsonValue& v : messages) {
        const QByteArray key
            = QCryptographicHash::hash(QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact), QCryptographicHash::Md5);
        if (m_seen.contains(key))
            continue;
        m_seen.insert(key);
        fresh.append(v);
    }
    if (!fresh.isEmpty())
        m_snapshots.append({ i, rows.rec(i).groupId, QJsonDocument(fresh).toJson(QJsonDocument::Compact) });
}

// As the protocol's client applies them, a message is new when its id is not known yet: shown once, at the row that
// brought it first, and never when it streamed anywhere in the log, kaboo's message_meta placed it, or a call's result
// already holds it.
void AguiSnapshotPlacer::place(AguiRows& rows, AguiCallAssembler& calls, const AguiMessageAssembler& messages)
{
    if (m_snapshots.isEmpty())
        return;
    QSet<QString> placed = messages.streamed();
    for (const auto& [row, id] : messages.userRows())
        placed.insert(id);
    for (qsizetype k = 0; k < calls.slotCount(); ++k)
        m_callsById[calls.calls()[k].record.toolId].append(k);
    for (const Snapshot& snapshot : std::as_const(m_snapshots)) {
        for (const QJsonValue& v : QJsonDocument::fromJson(snapshot.messages).array()) {
            const QJsonObject m = v.toObject();
            const QString role = str(m, "role");
            if (role == QLatin1String("assistant")) {
                for (const QJsonValue& tc : m.value(QLatin1String("toolCalls")).toArray())
                    placeCall(rows, calls, snapshot, tc.toObject());
            } else if (role == QLatin1String("tool") && answerCall(calls, snapshot.row, m)) {
                continue;
            }
            if (role == QLatin1String("activity"))
                continue; // shown by its ACTIVITY_SNAPSHOT rows
            QString text = contentText(m.value(QLatin1String("content")));
            // Its calls are written in it, as it sent them: the row shows the message, not a card.
            for (const QJsonValue& tc : m.value(QLatin1String("toolCalls")).toArray()) {
                const QJsonObject function = tc.toObject().value(QLatin1String("function")).toObject();
                text += (text.isEmpty() ? QString() : QStringLiteral("\n")) + str(function, "name") + QLatin1Char('(')
                    + clip(str(function, "arguments")) + QLatin1Char(')');
            }
            const QString id = str(m, "id");
            const QString key = id.isEmpty() ? role + QLatin1Char('\n') + text : id;
            if (text.isEmpty() || placed.contains(key))
                continue; // an empty message, or one shown already
            placed.insert(key);
            m_brought[snapshot.row].append({ id, role.isEmpty() ? QStringLiteral("user") : role, text });
        }
    }
}

// The call a snapshot's tool message or tool call names: the last one started at or before `row`, else one the log
// streams later (it is known, not new).
std::optional<qsizetype> AguiSnapshotPlacer::knownCall(const AguiCallAssembler& calls, const QString& id, qint64 row) const
{
    const QVector<qsizetype> found = m_callsById.value(id);
    std::optional<qsizetype> later;
    for (auto k = found.crbegin(); k != found.crend(); ++k) {
        const AguiCallAssembler::Call& c = calls.calls()[*k];
        if (c.merged)
            continue;
        if (AguiCallAssembler::firstRow(c) <= row)
            return *k;
        later = *k;
    }
    return later;
}

// An assistant message's tool call the log never streamed: a call of its own, started at the row that brought it (it
// has no time of its own).
void AguiSnapshotPlacer::placeCall(
    AguiRows& rows, AguiCallAssembler& calls, const Snapshot& snapshot, const QJsonObject& toolCall)
{
    const QString id = str(toolCall, "id");
    if (id.isEmpty() || knownCall(calls, id, snapshot.row))
        return;
    const QJsonObject function = toolCall.value(QLatin1String("function")).toObject();
    AguiCallAssembler::Call c;
    c.fromSnapshot = true;
    c.open = false;
    c.record.toolId = id;
    c.record.toolName = str(function, "name");
    c.record.groupId = snapshot.groupId;
    c.record.startIndex = snapshot.row;
    if (function.contains(QLatin1String("arguments"))) {
        c.fragments << str(function, "arguments");
        ++c.fragmentCount;
    }
    // The row names the tool (tool:, the Tools pane) when every call it brought is of that tool.
    EventRecord& r = rows.rec(snapshot.row);
    const bool first = !m_callRows.contains(snapshot.row);
    m_callRows.insert(snapshot.row);
    r.toolName = first || r.toolName == c.record.toolName ? c.record.toolName : QString();
    const qsizetype k = calls.add(c);
    m_callsById[id].append(k);
    calls.touch(k, -1);
}

// A tool message answers the call it names, when no TOOL_CALL_RESULT did. True when it is a call's answer, so not a
// message of its own.
bool AguiSnapshotPlacer::answerCall(AguiCallAssembler& calls, qint64 row, const QJsonObject& message)
{
    const QString toolCallId = str(message, "toolCallId");
    const QString id = str(message, "id");
    // An answer some call of that id has already (by its message id): brought again, whichever call is the latest.
    if (!id.isEmpty()) {
        for (qsizetype k : m_callsById.value(toolCallId)) {
            if (calls.calls()[k].answerIds.contains(id))
                return true;
        }
    }
    const std::optional<qsizetype> k = knownCall(calls, toolCallId, row);
    if (!k)
        return false;
    const AguiCallAssembler::Call& known = calls.calls()[*k];
    const std::optional<qint64> answeredAt = known.record.resultIndex ? known.record.resultIndex : known.snapshotResultAt;
    // Without an id nothing tells it from the answer the call has: that one, brought again. With an id of its own it is
    // another answer (a client's message list keeps every id): the call's, settling it when it is the later one.
    if (answeredAt && (id.isEmpty() || *answeredAt > row))
        return true;
    AguiCallAssembler::Call& c = calls.at(*k);
    c.snapshotResultAt = row;
    AguiCallAssembler::answer(c.record, contentText(message.value(QLatin1String("content"))), message);
    c.resultReleased = false;
    if (!id.isEmpty())
        c.answerIds << id;
    calls.touch(*k, -1);
    return true;
}

void AguiSnapshotPlacer::showCalls(AguiRows& rows, const AguiCallAssembler& calls) const
{
    for (const AguiCallAssembler::Call& c : calls.calls()) {
        if (!c.fromSnapshot)
            continue;
        QString& arguments = rows.row(*c.record.startIndex).arguments;
        arguments += (arguments.isEmpty() ? QString() : QStringLiteral("\n")) + c.fragments.join(QString());
    }
}

void AguiSnapshotPlacer::showMessages(AguiRows& rows) const
{
    for (auto it = m_brought.cbegin(); it != m_brought.cend(); ++it) {
        const QVector<Brought>& brought = it.value();
        StoredEvent& stored = rows.row(it.key());
        EventRecord& r = stored.record;
        // Its kind stays its type's (a RUN_STARTED is a run's row, whatever it brought): the flag makes it the
        // messages' bubble, so that the Types pane's counts add up under each kind.
        r.flags |= EventFlags::FromSnapshot;
        r.messageId = brought.first().id;
        const bool oneRole = std::all_of(
            brought.begin(), brought.end(), [&](const Brought& m) { return m.role == brought.first().role; });
        r.role = oneRole ? brought.first().role : QStringLiteral("system");
        QStringList parts;
        for (const Brought& m : brought)
            parts << (brought.size() == 1 ? m.text : m.role + QStringLiteral(": ") + m.text);
        r.text = parts.join(QStringLiteral("\n\n"));
        stored.body = r.text;
    }
}

QString AguiSnapshotPlacer::firstUserText() const
{
    for (auto it = m_brought.cbegin(); it != m_brought.cend(); ++it) {
        for (const Brought& m : it.value()) {
            if (m.role == QLatin1String("user"))
                return m.text;
        }
    }
    return {};
}
