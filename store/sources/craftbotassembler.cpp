#include "craftbotassembler.h"

#include "../eventflags.h"
#include "../eventkind.h"
#include "../timeutil.h"
#include "../jsontext.h"
#include "../outcome.h"
#include "pyliteral.h"

#include <deque>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

namespace {

using JsonText::clip;
using JsonText::compact;

// An action's input or output: JSON as newer CraftBot writes it, or a Python literal as older CraftBot does.
std::optional<QJsonValue> parseValue(const QString& text)
{
    if (JsonText::parsesAsJson(text))
        return QJsonDocument::fromJson(QByteArray("[") + text.toUtf8() + QByteArray("]")).array().first();
    return PyLiteral::toJson(text);
}

enum class ActionPart { None, Start, End };

struct Action
{
    ActionPart part = ActionPart::None;
    QString family; // "action" or "GUI action": each pairs only with its own
    QString name;
    QString valueText; // the input or output as written
    std::optional<QJsonValue> value;
};

Action parseAction(const QString& kind, const QString& message)
{
    static const QRegularExpression start(
        QStringLiteral("^Running action (\\S+) with input: (.*)$"), QRegularExpression::DotMatchesEverythingOption);
    static const QRegularExpression end(
        QStringLiteral("^Action (\\S+) completed with output: (.*)$"), QRegularExpression::DotMatchesEverythingOption);
    Action a;
    const bool gui = kind.startsWith(QLatin1String("GUI action"));
    if (kind == QLatin1String("action_start") || kind == QLatin1String("GUI action start"))
        a.part = ActionPart::Start;
    else if (kind == QLatin1String("action_end") || kind == QLatin1String("GUI action end"))
        a.part = ActionPart::End;
    else
        return a;
    a.family = gui ? QStringLiteral("GUI action") : QStringLiteral("action");
    const QRegularExpressionMatch m = (a.part == ActionPart::Start ? start : end).match(message);
    if (!m.hasMatch()) {
        a.part = ActionPart::None;
        return a;
    }
    a.name = m.captured(1);
    a.valueText = m.captured(2).trimmed();
    if (a.valueText.endsWith(QLatin1Char('.')))
        a.valueText.chop(1);
    a.value = parseValue(a.valueText);
    return a;
}

Outcome outcomeOf(const std::optional<QJsonValue>& output)
{
    const QJsonObject o = output ? output->toObject() : QJsonObject();
    if (o.value(QLatin1String("error_code")).toString() == QLatin1String("cancelled"))
        return Outcome::Cancelled;
    const QString status = o.value(QLatin1String("status")).toString();
    if (status == QLatin1String("error") || status == QLatin1String("failed"))
        return Outcome::Failed;
    const QJsonValue error = o.value(QLatin1String("error"));
    if (!error.isUndefined() && !error.isNull() && error != QJsonValue(false) && error != QJsonValue(QString()))
        return Outcome::Failed;
    return Outcome::Served;
}

struct Call
{
    ToolCallRecord record;
    qint64 startRow = -1;
};

} // namespace

namespace CraftBotAssembler {

EventKind canonicalKind(const QString& k)
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

CraftBotAssembly assemble(const QVector<EventMdRecord>& records)
{
    CraftBotAssembly out;
    const qsizetype n = records.size();
    QVector<Action> actions(n);
    out.rows.resize(n);

    // Rows, and each record's action.
    for (qsizetype i = 0; i < n; ++i) {
        const EventMdRecord& rec = records[i];
        StoredEvent& row = out.rows[i];
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
            out.problems.append({ i, QStringLiteral("invalid UTF-8 (kept byte for byte)") });
        if (rec.partial) {
            out.problems.append({ i,
                QStringLiteral("the file starts inside a record: rotation cut its first lines "
                               "(kept as one partial record)") });
            continue;
        }
        static const QRegularExpression platform(
            QStringLiteral("^(user message from|agent message to) platform: (.*)$"));
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
        if (r.kind != EventKind::ToolCall)
            continue;
        Action& a = actions[i];
        a = parseAction(rec.kind, rec.message);
        if (a.part == ActionPart::None) {
            out.problems.append({ i, QStringLiteral("an %1 record that does not name its action").arg(rec.kind) });
            continue;
        }
        r.toolName = a.name;
        if (!rec.message.trimmed().endsWith(QLatin1Char('.')) || !a.value) {
            out.problems.append({ i,
                QStringLiteral("the %1 of %2 never closes or does not parse (a record without its "
                               "closing line?)")
                    .arg(a.part == ActionPart::Start ? QStringLiteral("input") : QStringLiteral("output"), a.name) });
        }
        // Shown as written, keys in the agent's order: newer CraftBot's JSON verbatim, an older Python literal
        // as the JSON it stands for.
        const bool json = !QJsonDocument::fromJson(a.valueText.toUtf8()).isNull();
        const QString value = json || !a.value ? a.valueText : compact(*a.value);
        const QString oneLine = json ? a.valueText.simplified() : value;
        if (a.part == ActionPart::Start) {
            r.text = clip(a.name + QLatin1Char('(') + oneLine + QLatin1Char(')'));
            row.arguments = value;
        } else {
            r.text = clip(oneLine);
            row.result = value;
        }
    }

    // Pair each end with the oldest open start of its name; calls of one name running at once are ambiguous.
    QVector<Call> calls;
    QHash<QString, std::deque<qsizetype>> open; // family:name -> positions in calls
    for (qsizetype i = 0; i < n; ++i) {
        const Action& a = actions[i];
        if (a.part == ActionPart::None)
            continue;
        const QString key = a.family + QLatin1Char(':') + a.name;
        std::deque<qsizetype>& queue = open[key];
        if (a.part == ActionPart::Start) {
            Call c;
            c.startRow = i;
            c.record.toolName = a.name;
            c.record.startIndex = i;
            if (records[i].micros)
                c.record.startMicros = records[i].micros;
            c.record.arguments = out.rows[i].arguments;
            c.record.argumentsValid = a.value.has_value();
            c.record.pairing = Pairing::StartOnly;
            c.record.outcome = Outcome::Unserved;
            c.record.status = QStringLiteral("running");
            if (!queue.empty()) {
                c.record.ambiguous = true;
                for (qsizetype at : queue)
                    calls[at].record.ambiguous = true;
            }
            queue.push_back(calls.size());
            calls.append(c);
            continue;
        }
        Call* c = nullptr;
        if (!queue.empty()) {
            c = &calls[queue.front()];
            queue.pop_front();
            c->record.pairing = Pairing::Guessed;
        } else {
            Call orphan;
            orphan.record.toolName = a.name;
            orphan.record.pairing = Pairing::EndOnly;
            calls.append(orphan); // its start was summarised or rotated away: end_only says so, no warning
            c = &calls.last();
        }
        c->record.endIndex = i;
        c->record.resultIndex = i;
        if (records[i].micros)
            c->record.endMicros = records[i].micros;
        c->record.result = out.rows[i].result;
        c->record.outcome = outcomeOf(a.value);
        c->record.status = c->record.outcome == Outcome::Served ? QStringLiteral("completed") : Outcomes::name(c->record.outcome);
        if (c->record.outcome != Outcome::Served) {
            const QJsonObject o = a.value ? a.value->toObject() : QJsonObject();
            c->record.error = o.contains(QLatin1String("error")) ? compact(o.value(QLatin1String("error")))
                                                                 : o.value(QLatin1String("message")).toString();
        }
        if (c->record.startMicros && c->record.endMicros) {
            c->record.durationMs = TimeUtil::durationMs(*c->record.startMicros, *c->record.endMicros);
            if (c->record.durationMs)
                c->record.durationSource = DurationSource::Timestamps;
        }
    }

    // Tasks: a task_start action's input names the task, its output gives the id.
    struct Task
    {
        QString id;
        QString name;
        qint64 startRecord = -1;
        qint64 endRecord = -1;
        QString status;
        QString note;
    };
    QVector<Task> tasks;
    QHash<QString, qsizetype> taskById;
    for (const Call& c : calls) {
        if (c.record.toolName != QLatin1String("task_start") || c.startRow < 0)
            continue;
        Task t;
        t.name = actions[c.startRow].value
            ? actions[c.startRow].value->toObject().value(QLatin1String("task_name")).toString()
            : QString();
        if (c.record.endIndex && actions[*c.record.endIndex].value)
            t.id = actions[*c.record.endIndex].value->toObject().value(QLatin1String("task_id")).toString();
        if (t.id.isEmpty())
            t.id = QStringLiteral("task:") + t.name;
        if (!taskById.contains(t.id)) {
            taskById.insert(t.id, tasks.size());
            tasks.append(t);
        }
    }
    auto session = [&](qsizetype row) -> QString {
        const Action& a = actions[row];
        return a.part == ActionPart::Start && a.value
            ? a.value->toObject().value(QLatin1String("_session_id")).toString()
            : QString();
    };
    // A task_end action's _session_id is a task's id, even when the task began before this file does (rotation)
    // or without a task_start action: such a task is known by id first, and named if its start shows up.
    QHash<QString, qsizetype> firstAction; // session -> first action_start row
    for (qsizetype i = n - 1; i >= 0; --i) {
        if (actions[i].part == ActionPart::Start && !session(i).isEmpty())
            firstAction.insert(session(i), i);
    }
    for (qsizetype i = 0; i < n; ++i) {
        const QString s = session(i);
        if (actions[i].name == QLatin1String("task_end") && !s.isEmpty() && !taskById.contains(s)) {
            Task t;
            t.id = s;
            taskById.insert(s, tasks.size());
            tasks.append(t);
        }
    }

    // Each record's task: an action's own _session_id when it names a task; a task_start or task_end record
    // the task it starts or ends; anything else the task of the last record that had one.
    static const QRegularExpression created(
        QStringLiteral("^Created task: '(.*)'\\s*$"), QRegularExpression::DotMatchesEverythingOption);
    static const QRegularExpression ended(QStringLiteral("^Task ended with status '([^']*)'\\.?\\s*(.*)$"),
        QRegularExpression::DotMatchesEverythingOption);
    QHash<qsizetype, qsizetype> callOfRow;
    for (qsizetype k = 0; k < calls.size(); ++k) {
        if (calls[k].record.startIndex)
            callOfRow.insert(*calls[k].record.startIndex, k);
        if (calls[k].record.endIndex)
            callOfRow.insert(*calls[k].record.endIndex, k);
    }
    std::deque<QString> pendingEnds; // task ids of task_end actions not yet matched to a task_end record
    QVector<qsizetype> openTasks;
    QHash<QString, QString> aliases; // "task:NAME" -> the id its first action gave
    qsizetype unbound = -1; // a task still known by name only
    int ambiguousEnds = 0;
    QString current;
    for (qsizetype i = 0; i < n; ++i) {
        EventRecord& r = out.rows[i].record;
        if (records[i].partial)
            continue;
        const Action& a = actions[i];
        QString group = current;
        if (a.part == ActionPart::Start) {
            const QString s = session(i);
            if (a.name == QLatin1String("task_start")) {
                group = QString(); // creating a task happens in the conversation, under the new task's id
            } else if (taskById.contains(s)) {
                group = s;
            } else if (unbound >= 0 && !s.isEmpty()) {
                // A task created without a task_start action (CraftBot's own memory task): its first action
                // tells its id.
                aliases.insert(tasks[unbound].id, s);
                tasks[unbound].id = s;
                taskById.insert(s, unbound);
                unbound = -1;
                group = s;
            } else {
                group = QString();
            }
            if (a.name == QLatin1String("task_end") && taskById.contains(s))
                pendingEnds.push_back(s);
            current = group;
        } else if (a.part == ActionPart::End) {
            const qsizetype k = callOfRow.value(i, -1);
            group
                = k >= 0 && calls[k].record.startIndex ? out.rows[*calls[k].record.startIndex].record.groupId : current;
        } else if (const QRegularExpressionMatch m = created.match(records[i].message);
                   r.type == QLatin1String("task_start") && m.hasMatch()) {
            bool found = false;
            for (Task& t : tasks) {
                if (t.startRecord < 0 && t.name == m.captured(1)) {
                    t.startRecord = i;
                    group = t.id;
                    found = true;
                    break;
                }
            }
            // A task known by id alone whose first action follows: this record starts it.
            qsizetype nameless = -1;
            for (qsizetype k = 0; !found && k < tasks.size(); ++k) {
                const qsizetype first = firstAction.value(tasks[k].id, -1);
                if (tasks[k].name.isEmpty() && tasks[k].startRecord < 0 && first > i
                    && (nameless < 0 || first < firstAction.value(tasks[nameless].id)))
                    nameless = k;
            }
            if (nameless >= 0) {
                tasks[nameless].name = m.captured(1);
                tasks[nameless].startRecord = i;
                group = tasks[nameless].id;
                found = true;
            }
            if (!found) {
                // A task whose task_start action is not in this stream (rotated away, or another stream).
                Task t;
                t.name = m.captured(1);
                t.id = QStringLiteral("task:") + t.name;
                t.startRecord = i;
                taskById.insert(t.id, tasks.size());
                unbound = tasks.size();
                tasks.append(t);
                group = t.id;
            }
            openTasks.append(taskById.value(group));
            current = group;
        } else if (const QRegularExpressionMatch m = ended.match(records[i].message);
                   r.type == QLatin1String("task_end") && m.hasMatch()) {
            qsizetype at = -1;
            if (!pendingEnds.empty()) {
                // Two tasks ending at once write alike records: which is which is a guess, and said so.
                if (pendingEnds.size() >= 2)
                    ambiguousEnds = int(pendingEnds.size());
                if (ambiguousEnds > 0) {
                    r.flags |= EventFlags::Ambiguous;
                    --ambiguousEnds;
                }
                at = taskById.value(pendingEnds.front(), -1);
                pendingEnds.pop_front();
            } else if (!openTasks.isEmpty()) {
                at = openTasks.first(); // without its task_end action, the oldest open task
            }
            if (at >= 0) {
                Task& t = tasks[at];
                t.endRecord = i;
                t.status = m.captured(1);
                t.note = m.captured(2).trimmed();
                group = t.id;
                openTasks.removeAll(at);
            }
        }
        r.groupId = group;
    }
    for (StoredEvent& row : out.rows) {
        if (aliases.contains(row.record.groupId))
            row.record.groupId = aliases.value(row.record.groupId);
    }
    for (Call& c : calls) {
        if (c.record.startIndex)
            c.record.groupId = out.rows[*c.record.startIndex].record.groupId;
        else if (c.record.endIndex)
            c.record.groupId = out.rows[*c.record.endIndex].record.groupId;
        // CraftBot has no action ids: the key says where the call ran, what it was, and which of its kind.
        c.record.toolId
            = QStringLiteral("%1:%2:%3")
                  .arg(c.record.groupId.isEmpty() ? QStringLiteral("main") : c.record.groupId, c.record.toolName)
                  .arg(c.record.startIndex ? *c.record.startIndex : *c.record.endIndex);
        const int flags = (c.record.pairing == Pairing::Guessed ? int(EventFlags::Guessed) : 0)
            | (c.record.ambiguous ? int(EventFlags::Ambiguous) : 0);
        for (const std::optional<qint64>& at : { c.record.startIndex, c.record.endIndex }) {
            if (!at)
                continue;
            EventRecord& r = out.rows[*at].record;
            r.toolId = c.record.toolId;
            r.flags |= flags;
            if (at == c.record.endIndex) {
                r.outcome = c.record.outcome;
                if (c.record.startIndex)
                    r.flags |= EventFlags::Folded; // shown in its call's card
            }
        }
        out.calls.append(c.record);
    }
    QHash<QString, qint64> firstRow;
    for (const StoredEvent& row : out.rows) {
        if (!row.record.groupId.isEmpty() && !firstRow.contains(row.record.groupId))
            firstRow.insert(row.record.groupId, row.record.index);
    }
    for (const Task& t : tasks) {
        RunRecord run;
        run.groupId = t.id;
        run.kind = QStringLiteral("task");
        run.name = t.name;
        const qint64 first = t.startRecord >= 0 ? t.startRecord : firstRow.value(t.id, -1);
        if (first >= 0) {
            run.firstIndex = first;
            if (records[first].micros)
                run.startMicros = records[first].micros;
        }
        if (t.endRecord >= 0) {
            run.lastIndex = t.endRecord;
            if (records[t.endRecord].micros)
                run.endMicros = records[t.endRecord].micros;
        }
        run.outcome = t.endRecord >= 0 ? t.status : QStringLiteral("running");
        run.detail = t.note;
        out.runs.append(run);
    }
    std::stable_sort(out.runs.begin(), out.runs.end(), [](const RunRecord& a, const RunRecord& b) {
        return a.firstIndex.value_or(LLONG_MAX) < b.firstIndex.value_or(LLONG_MAX);
    });
    return out;
}

} // namespace CraftBotAssembler
