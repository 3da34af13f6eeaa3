#include "craftbotassembler.h"

#include "../eventflags.h"
#include "../jsontext.h"
#include "craftbotaction.h"

#include <QRegularExpression>

using JsonText::clip;
using JsonText::compact;

EventKind CraftBotAssembler::canonicalKind(const QString& k)
{
    if (k.startsWith(QLatin1String("user message")) || k.startsWith(QLatin1String("agent message")))
        return EventKind::Message;
    if (k == QLatin1String("agent reasoning"))
        return EventKind::Reasoning;
    if (k == QLatin1String("action_start") || k == QLatin1String("action_end")
        || k.startsWith(QLatin1String("GUI action")))
        return EventKind::ToolCall;
    if (k == QLatin1String("task_start") || k == QLatin1String("task_end"))
        return EventKind::Run;
    if (k == QLatin1String("todos"))
        return EventKind::State;
    if (k == QLatin1String("waiting_for_user"))
        return EventKind::Lifecycle;
    if (k == QLatin1String("error") || k == QLatin1String("action_error"))
        return EventKind::Error;
    if (k == QLatin1String("system") || k == QLatin1String("internal") || k == QLatin1String("warning")
        || k == QLatin1String("loop_detection_warning"))
        return EventKind::System;
    return EventKind::Custom;
}

CraftBotAssembler::CraftBotAssembler(const CraftBotShape& shape)
    : m_shape(shape)
{
}

void CraftBotAssembler::startAt(qint64 index, const std::function<QString(qint64)>& storedArguments)
{
    const QVector<CraftBotShape::Call>& calls = m_shape.calls();
    for (qint32 k = 0; k < calls.size(); ++k) {
        if (calls[k].start >= 0 && calls[k].start < index && calls[k].end >= index)
            m_started.insert(k, storedArguments(calls[k].start));
    }
}

StoredEvent CraftBotAssembler::row(const EventMdRecord& rec, qint64 i, QStringList* problems)
{
    StoredEvent out = rowAlone(m_shape, rec, i, problems);
    settle(out);
    return out;
}

StoredEvent CraftBotAssembler::rowAlone(const CraftBotShape& shape, const EventMdRecord& rec, qint64 i, QStringList* problems)
{
    const auto problem = [problems](const QString& what) {
        if (problems)
            problems->append(what);
    };
    StoredEvent row;
    EventRecord& r = row.record;
    r.index = i;
    r.sourceLine = rec.firstLine;
    r.createdMicros = rec.micros;
    r.type = rec.kind;
    r.kind = rec.partial ? EventKind::Custom : canonicalKind(rec.kind);
    r.status = rec.severity;
    r.flags = rec.flags | (rec.partial ? int(EventFlags::Partial) : 0);
    row.payload = rec.raw;
    r.text = clip(rec.message);
    if (rec.flags & EventFlags::InvalidUtf8)
        problem(QStringLiteral("invalid UTF-8 (kept byte for byte)"));
    if (rec.partial) {
        problem(QStringLiteral("the file starts inside a record: rotation cut its first lines "
                               "(kept as one partial record)"));
        return row;
    }
    static const QRegularExpression platform(QStringLiteral("^(user message from|agent message to) platform: (.*)$"));
    const QRegularExpressionMatch p = platform.match(rec.kind);
    if (p.hasMatch())
        r.channelId = p.captured(2);
    if (rec.kind.startsWith(QLatin1String("user message"))) {
        r.role = QStringLiteral("user");
        row.body = rec.message;
    } else if (rec.kind.startsWith(QLatin1String("agent message"))) {
        r.role = QStringLiteral("assistant");
        row.body = rec.message;
    } else if (r.kind == EventKind::Reasoning) {
        r.role = QStringLiteral("reasoning");
        row.body = rec.message;
    } else if (r.kind == EventKind::ToolCall) {
        r.role = QStringLiteral("assistant");
    } else {
        r.role = QStringLiteral("system");
    }
    const CraftBotShape::Row& shaped = shape.row(i);
    r.groupId = shape.group(shaped.group);
    r.flags |= shaped.flags;
    if (r.kind != EventKind::ToolCall)
        return row;
    const CraftBotAction a = CraftBotAction::parse(rec.kind, rec.message);
    if (a.part == CraftBotAction::Part::None) {
        problem(QStringLiteral("an %1 record that does not name its action").arg(rec.kind));
        return row;
    }
    r.toolName = a.name;
    if (!rec.message.trimmed().endsWith(QLatin1Char('.')) || !a.valid) {
        problem(QStringLiteral("the %1 of %2 never closes or does not parse (a record without its closing line?)")
                    .arg(a.part == CraftBotAction::Part::Start ? QStringLiteral("input") : QStringLiteral("output"),
                        a.name));
    }
    // Shown as written, keys in the agent's order: newer CraftBot's JSON verbatim, an older Python literal as the
    // JSON it stands for.
    const QString value = a.json || !a.valid ? a.valueText : compact(*a.value);
    const QString oneLine = a.json ? a.valueText.simplified() : value;
    if (a.part == CraftBotAction::Part::Start) {
        r.text = clip(a.name + QLatin1Char('(') + oneLine + QLatin1Char(')'));
        row.arguments = value;
    } else {
        r.text = clip(oneLine);
        row.result = value;
    }
    const qint32 k = shaped.call;
    if (k < 0)
        return row;
    const CraftBotShape::Call& call = shape.calls()[k];
    r.toolId = shape.toolId(k);
    if (i == call.end)
        r.outcome = call.outcome;
    return row;
}

void CraftBotAssembler::settle(const StoredEvent& row)
{
    // The call this row starts or ends: handed over once its last row has gone by.
    const qint64 i = row.record.index;
    if (row.record.kind != EventKind::ToolCall)
        return;
    const qint32 k = m_shape.row(i).call;
    if (k < 0 || row.record.toolName.isEmpty())
        return;
    const CraftBotShape::Call& call = m_shape.calls()[k];
    if (i == call.start && call.end >= 0) {
        m_started.insert(k, row.arguments);
    } else {
        m_readyArguments.insert(k, i == call.start ? row.arguments : m_started.take(k));
        m_readyResults.insert(k, row.result);
        m_ready.append(k);
    }
}

ToolCallRecords CraftBotAssembler::takeCalls()
{
    ToolCallRecords out;
    out.reserve(m_ready.size());
    for (qint32 k : std::as_const(m_ready))
        out.append(m_shape.callRecord(k, m_readyArguments.take(k), m_readyResults.take(k)));
    m_ready.clear();
    return out;
}

ToolCallRecords CraftBotAssembler::takeStarted()
{
    ToolCallRecords out;
    for (auto it = m_started.cbegin(); it != m_started.cend(); ++it) {
        ToolCallRecord c = m_shape.callRecord(it.key(), it.value(), QString());
        // Its end is not in the room: the call is open there.
        c.endIndex.reset();
        c.resultIndex.reset();
        c.endMicros.reset();
        c.durationMs.reset();
        c.durationSource.clear();
        c.pairing = Pairing::StartOnly;
        c.outcome = Outcome::Unserved;
        c.status = QStringLiteral("running");
        c.error.clear();
        out.append(c);
    }
    m_started.clear();
    return out;
}

CraftBotAssembly CraftBotAssembler::assemble(const QVector<EventMdRecord>& records)
{
    CraftBotShape shape;
    for (const EventMdRecord& r : records)
        shape.take(r);
    shape.finish();
    CraftBotAssembler rows(shape);
    CraftBotAssembly out;
    out.rows.reserve(records.size());
    ToolCallRecords calls;
    for (qint64 i = 0; i < records.size(); ++i) {
        QStringList problems;
        out.rows.append(rows.row(records[i], i, &problems));
        for (const QString& p : std::as_const(problems))
            out.problems.append({ i, p });
        calls += rows.takeCalls();
    }
    std::sort(calls.begin(), calls.end(), [](const ToolCallRecord& a, const ToolCallRecord& b) {
        return a.startIndex.value_or(a.endIndex.value_or(0)) < b.startIndex.value_or(b.endIndex.value_or(0));
    });
    out.calls = calls;
    out.runs = shape.runs();
    return out;
}
