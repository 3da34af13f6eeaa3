#include "aguimessageassembler.h"

#include "../eventflags.h"
#include "../timeutil.h"
#include "aguijson.h"
#include "aguirows.h"
#include "aguiruntracker.h"

using AguiJson::str;

AguiMessage* AguiMessageAssembler::message(const QString& key)
{
    const auto it = m_messageAt.constFind(key);
    return it == m_messageAt.constEnd() ? nullptr : &m_messages[*it];
}

AguiMessage& AguiMessageAssembler::startMessage(
    AguiRows& rows, const AguiRunTracker& runs, qint64 i, QString id, const QString& role, bool reasoning)
{
    m_streamed.insert(id);
    if (id.isEmpty()) {
        rows.problem(i, QStringLiteral("a message without a messageId"));
        id = QStringLiteral("message@%1").arg(i);
    } else if (AguiMessage* before = message(id)) {
        const bool runEnded = runs.runEndedSince(before->firstIndex);
        if (reasoning && before->reasoning && before->complete && !runEnded) {
            // A reasoning message started again after its end, in the same run: the client keeps one message and
            // adds the new parts to it (defaultApplyEvents), so the message goes on, shown at its first row.
            before->complete = false;
            before->lastIndex = i;
            rows.rec(i).flags |= EventFlags::Folded;
            joinPhase(rows, runs, before->messageId);
            return *before;
        }
        // The protocol lets an id be used again once its message ended, or its run did: a new message.
        const bool ended = before->complete || runEnded;
        if (!ended)
            rows.problem(i, QStringLiteral("a second message with messageId %1 while the first is still open").arg(id));
        if (ended)
            m_messageAt.remove(id); // its later deltas are the new message's
        else
            id = QStringLiteral("%1@%2").arg(id, QString::number(i));
    }
    AguiMessage m;
    m.messageId = id;
    m.role = role;
    m.reasoning = reasoning;
    m.firstIndex = m.lastIndex = i;
    m_messages.append(m);
    m_messageAt.insert(id, m_messages.size() - 1);
    m_messageByFirst.insert(i, m_messages.size() - 1);
    if (reasoning)
        joinPhase(rows, runs, id);
    return m_messages.last();
}

void AguiMessageAssembler::joinPhase(AguiRows& rows, const AguiRunTracker& runs, const QString& id)
{
    if (m_phase && runs.runEndedSince(m_phase->start))
        m_phase.reset(); // a phase its run left open frames nothing after it
    if (!m_phase)
        return;
    // The phase's START shows in its first message: its own id names the phase, not a message, and under it the row
    // was folded into no item (a filter on it showed "1 event as 0 items").
    if (m_phase->message.isEmpty()) {
        EventRecord& start = rows.rec(m_phase->start);
        start.messageId = id;
        start.flags |= EventFlags::Folded;
    }
    m_phase->message = id;
}

// The message a delta or end belongs to; one is started when the log never opened it.
AguiMessage& AguiMessageAssembler::messageFor(
    AguiRows& rows, const AguiRunTracker& runs, qint64 i, const QString& id, bool reasoning)
{
    if (AguiMessage* m = message(id))
        return *m;
    rows.problem(i,
        id.isEmpty() ? QStringLiteral("a message delta without a messageId")
                     : QStringLiteral("messageId %1 was never started").arg(id));
    return startMessage(rows, runs, i, id, reasoning ? QStringLiteral("reasoning") : QStringLiteral("assistant"), reasoning);
}

void AguiMessageAssembler::addDelta(AguiRows& rows, qint64 i, AguiMessage& m, const QString& delta)
{
    m.text += delta;
    ++m.deltas;
    m.lastIndex = i;
    EventRecord& r = rows.rec(i);
    r.messageId = m.messageId;
    r.role = m.role;
    r.text = delta;
    if (i != m.firstIndex)
        r.flags |= EventFlags::Folded; // shown in its message, at the row that starts it
}

void AguiMessageAssembler::closeChunkMessage()
{
    if (AguiMessage* m = message(m_chunkMessage))
        m->complete = true;
    m_chunkMessage.clear();
}

void AguiMessageAssembler::takeText(AguiRows& rows, const AguiRunTracker& runs, qint64 i, const QJsonObject& e, bool reasoning)
{
    EventRecord& r = rows.rec(i);
    const QString& t = r.type;
    const QString id = str(e, "messageId");
    const QString defaultRole = reasoning ? QStringLiteral("reasoning") : QStringLiteral("assistant");
    if (t.endsWith(QLatin1String("_MESSAGE_START"))) {
        QString role = str(e, "role");
        AguiMessage& m = startMessage(rows, runs, i, id, role.isEmpty() ? defaultRole : role, reasoning);
        r.messageId = m.messageId;
        r.role = m.role;
    } else if (t.endsWith(QLatin1String("_MESSAGE_CONTENT"))) {
        addDelta(rows, i, messageFor(rows, runs, i, id, reasoning), str(e, "delta"));
    } else if (t.endsWith(QLatin1String("_MESSAGE_END"))) {
        AguiMessage& m = messageFor(rows, runs, i, id, reasoning);
        m.complete = true;
        m.lastIndex = i;
        // A user's message streamed whole (a runtime with no notes of its own and no snapshot): the thread's title
        // when nothing better names it.
        if (m_firstStreamedUserText.isEmpty() && m.role == QLatin1String("user") && !m.text.trimmed().isEmpty())
            m_firstStreamedUserText = m.text;
        r.messageId = m.messageId;
        r.role = m.role;
        if (i != m.firstIndex)
            r.flags |= EventFlags::Folded;
    } else if (t.endsWith(QLatin1String("_MESSAGE_CHUNK"))) {
        // messageId is required on the first chunk only; a new id ends the previous chunked message.
        if (!id.isEmpty() && id != m_chunkMessage) {
            closeChunkMessage();
            if (AguiMessage* existing = message(id)) {
                m_chunkMessage = existing->messageId;
            } else {
                const QString role = str(e, "role");
                m_chunkMessage = startMessage(rows, runs, i, id, role.isEmpty() ? defaultRole : role, reasoning).messageId;
            }
        } else if (id.isEmpty() && m_chunkMessage.isEmpty()) {
            m_chunkMessage = startMessage(rows, runs, i, QString(), defaultRole, reasoning).messageId;
        }
        addDelta(rows, i, *message(m_chunkMessage), str(e, "delta"));
    }
}

void AguiMessageAssembler::takeReasoning(AguiRows& rows, const AguiRunTracker& runs, qint64 i, const QJsonObject& e)
{
    EventRecord& r = rows.rec(i);
    r.role = QStringLiteral("reasoning");
    const QString& t = r.type;
    if (t.startsWith(QLatin1String("THINKING_TEXT_MESSAGE_"))) {
        // The deprecated THINKING_* events carry no ids: one thinking message at a time.
        QJsonObject withId = e;
        if (t == QLatin1String("THINKING_TEXT_MESSAGE_START"))
            m_thinking = QStringLiteral("thinking@%1").arg(i);
        if (m_thinking.isEmpty())
            m_thinking = QStringLiteral("thinking@%1").arg(i);
        withId.insert(QStringLiteral("messageId"), m_thinking);
        const QString mapped = QString(t).replace(QLatin1String("THINKING_TEXT"), QLatin1String("REASONING"));
        const QString original = r.type;
        r.type = mapped;
        takeText(rows, runs, i, withId, true);
        r.type = original;
        if (t == QLatin1String("THINKING_TEXT_MESSAGE_END"))
            m_thinking.clear();
    } else if (t.startsWith(QLatin1String("REASONING_MESSAGE_"))) {
        takeText(rows, runs, i, e, true);
    } else if (t == QLatin1String("REASONING_ENCRYPTED_VALUE")) {
        r.text = QStringLiteral("(encrypted %1 %2)").arg(str(e, "subtype"), str(e, "entityId"));
    } else if (t == QLatin1String("REASONING_START") || t == QLatin1String("THINKING_START")) {
        // A phase frames the reasoning messages inside it: its START shows in the first (joinPhase), its END in the
        // last. A phase with no message shows as lines of its own, under its own id.
        r.messageId = str(e, "messageId");
        r.text = str(e, "title");
        m_phase = ReasoningPhase { i, {} };
    } else if (t == QLatin1String("REASONING_END") || t == QLatin1String("THINKING_END")) {
        r.messageId = str(e, "messageId");
        if (m_phase && !m_phase->message.isEmpty() && !runs.runEndedSince(m_phase->start)) {
            r.messageId = m_phase->message;
            r.flags |= EventFlags::Folded;
        }
        m_phase.reset();
    }
}

void AguiMessageAssembler::takeUserNote(EventRecord& r, qint64 i, const QJsonObject& value)
{
    r.kind = EventKind::Message;
    r.role = value.value(QLatin1String("role")).toString(QStringLiteral("user"));
    r.messageId = value.value(QLatin1String("messageId")).toString();
    const QJsonValue created = value.value(QLatin1String("createdAt"));
    if (created.isDouble())
        r.createdMicros = TimeUtil::millisToMicros(created.toDouble());
    // Its text comes from a run's input or a messages snapshot, possibly later.
    m_userRows.append({ i, r.messageId });
    m_userIdAt.insert(i, r.messageId);
}

void AguiMessageAssembler::rememberUserMessages(const QJsonArray& messages)
{
    for (const QJsonValue& m : messages) {
        const QJsonObject message = m.toObject();
        if (message.value(QLatin1String("role")).toString() == QLatin1String("user"))
            m_userText.insert(
                message.value(QLatin1String("id")).toString(), AguiJson::contentText(message.value(QLatin1String("content"))));
    }
}

void AguiMessageAssembler::finalize(StoredEvent& row)
{
    const qint64 p = row.record.index;
    EventRecord& r = row.record;
    if (const auto it = m_messageByFirst.constFind(p); it != m_messageByFirst.constEnd()) {
        AguiMessage& m = m_messages[*it];
        r.text = m.text;
        // Searchable as far as it has streamed: a later sync that reads the rest indexes it again.
        row.body = m.text;
        m.settledDeltas = m.deltas;
    }
    if (const auto it = m_userIdAt.constFind(p); it != m_userIdAt.constEnd()) {
        r.text = m_userText.value(*it);
        row.body = r.text;
        m_userSettled.insert(p, r.text);
    }
}

void AguiMessageAssembler::recallChanged(AguiRows& rows) const
{
    for (const AguiMessage& m : m_messages) {
        if (m.settledDeltas >= 0 && m.settledDeltas != m.deltas)
            rows.row(m.firstIndex);
    }
    for (auto it = m_userSettled.cbegin(); it != m_userSettled.cend(); ++it) {
        if (it.value() != m_userText.value(m_userIdAt.value(it.key())))
            rows.row(it.key());
    }
}

QString AguiMessageAssembler::firstNotedUserText() const
{
    for (const auto& [row, id] : m_userRows) {
        const QString text = m_userText.value(id);
        if (!text.isEmpty())
            return text;
    }
    return {};
}
