#include "craftbotshape.h"

#include "../eventflags.h"
#include "../timeutil.h"
#include "craftbotaction.h"
#include "craftbotassembler.h"

#include <deque>
#include <map>
#include <QJsonObject>
#include <QRegularExpression>

qint32 CraftBotShape::Strings::id(const QString& s)
{
    const auto it = ids.constFind(s);
    if (it != ids.constEnd())
        return it.value();
    const qint32 id = qint32(list.size());
    list.append(s);
    ids.insert(s, id);
    return id;
}

void CraftBotShape::take(const EventMdRecord& record, const CraftBotAction* action)
{
    static const QRegularExpression created(
        QStringLiteral("^Created task: '(.*)'\\s*$"), QRegularExpression::DotMatchesEverythingOption);
    static const QRegularExpression ended(QStringLiteral("^Task ended with status '([^']*)'\\.?\\s*(.*)$"),
        QRegularExpression::DotMatchesEverythingOption);
    Record r;
    r.micros = record.micros;
    if (record.micros && !record.wholeSeconds)
        m_wholeSeconds = false;
    if (record.partial) {
        r.kind = Kind::Partial;
        m_records.push_back(r);
        return;
    }
    if (CraftBotAssembler::canonicalKind(record.kind) == EventKind::ToolCall) {
        const CraftBotAction parsedHere = action ? CraftBotAction() : CraftBotAction::parse(record.kind, record.message);
        const CraftBotAction& a = action ? *action : parsedHere;
        if (a.part != CraftBotAction::Part::None) {
            Action kept;
            kept.start = a.part == CraftBotAction::Part::Start;
            kept.gui = a.gui;
            kept.valid = a.valid;
            kept.name = intern(a.name);
            const bool task = a.name == QLatin1String("task_start");
            if (kept.start) {
                kept.session = intern(a.sessionId);
                if (task)
                    kept.task = intern(a.taskName);
            } else {
                if (task)
                    kept.task = intern(a.taskId);
                kept.outcome = a.outcome;
                if (kept.outcome != Outcome::Served)
                    kept.error = intern(a.error);
            }
            r.action = qint32(m_actions.size());
            m_actions.push_back(kept);
        }
    } else if (record.kind.startsWith(QLatin1String("user message"))) {
        r.kind = Kind::UserMessage;
    } else if (record.kind == QLatin1String("task_start")) {
        if (const QRegularExpressionMatch m = created.match(record.message); m.hasMatch()) {
            r.kind = Kind::TaskCreated;
            r.first = intern(m.captured(1));
        }
    } else if (record.kind == QLatin1String("task_started")) {
        static const QLatin1String started("Started task: ");
        if (record.message.startsWith(started)) {
            r.kind = Kind::TaskStarted;
            r.first = intern(record.message.mid(started.size()).trimmed());
        }
    } else if (record.kind == QLatin1String("task_end")) {
        if (const QRegularExpressionMatch m = ended.match(record.message); m.hasMatch()) {
            r.kind = Kind::TaskEnded;
            r.first = intern(m.captured(1));
            r.second = intern(m.captured(2).trimmed());
        }
    }
    m_records.push_back(r);
}

void CraftBotShape::dropLast()
{
    if (m_records.empty())
        return;
    if (m_records.back().action >= 0)
        m_actions.pop_back();
    m_records.pop_back(); // its strings stay: the record, written whole, names them again
}

CraftBotShape CraftBotShape::unfinished() const
{
    CraftBotShape out;
    // Room for the records to come: a million are not moved again by the first one taken.
    out.m_records.reserve(m_records.size() + m_records.size() / 8 + 1024);
    out.m_records = m_records;
    out.m_actions.reserve(m_actions.size() + m_actions.size() / 8 + 1024);
    out.m_actions = m_actions;
    out.m_strings = m_strings;
    out.m_wholeSeconds = m_wholeSeconds;
    return out;
}

CraftBotShape CraftBotShape::takeUnfinished()
{
    CraftBotShape out;
    out.m_records = std::move(m_records);
    out.m_actions = std::move(m_actions);
    out.m_strings = m_strings; // kept here too: agrees() reads the names of the calls
    out.m_wholeSeconds = m_wholeSeconds;
    m_records.clear();
    m_actions.clear();
    // Room for the records to come, when there is none: grown by an eighth once, not doubled by the first one.
    if (out.m_records.capacity() < out.m_records.size() + 1024)
        out.m_records.reserve(out.m_records.size() + out.m_records.size() / 8 + 1024);
    if (out.m_actions.capacity() < out.m_actions.size() + 1024)
        out.m_actions.reserve(out.m_actions.size() + out.m_actions.size() / 8 + 1024);
    return out;
}

void CraftBotShape::finish()
{
    const qint64 n = qint64(m_records.size());
    m_rows = QVector<Row>(n);
    m_groups = Strings();
    m_calls.clear();
    m_runs.clear();
    const auto action = [this](qint64 i) -> const Action* {
        return m_records[i].action >= 0 ? &m_actions[m_records[i].action] : nullptr;
    };
    const auto session = [&](qint64 i) -> const QString& {
        const Action* a = action(i);
        return text(a && a->start ? a->session : 0);
    };

    // Pair each end with the oldest open start of its name; calls of one name running at once are ambiguous.
    QHash<qint64, std::deque<qint32>> open; // family and name -> positions in m_calls
    for (qint64 i = 0; i < n; ++i) {
        const Action* a = action(i);
        if (!a)
            continue;
        std::deque<qint32>& queue = open[qint64(a->name) * 2 + (a->gui ? 1 : 0)];
        if (a->start) {
            Call c;
            c.start = i;
            c.name = a->name;
            c.argumentsValid = a->valid;
            if (!queue.empty()) {
                c.ambiguous = true;
                for (qint32 at : queue)
                    m_calls[at].ambiguous = true;
            }
            queue.push_back(qint32(m_calls.size()));
            m_rows[i].call = qint32(m_calls.size());
            m_calls.append(c);
            continue;
        }
        qint32 k = -1;
        if (!queue.empty()) {
            k = queue.front();
            queue.pop_front();
            m_calls[k].pairing = Pairing::Guessed;
        } else {
            Call orphan; // its start was summarised or rotated away: end_only says so, no warning
            orphan.name = a->name;
            orphan.pairing = Pairing::EndOnly;
            k = qint32(m_calls.size());
            m_calls.append(orphan);
        }
        Call& c = m_calls[k];
        c.end = i;
        c.outcome = a->outcome;
        c.error = a->error;
        m_rows[i].call = k;
        // A task that has ended runs nothing more: its calls still open never finished (the agent was stopped
        // in them), and a later end of the same name is another task's. Left open, one such call would pair every
        // later call of its name with the one before, across tasks and days. Only when which task ended is known:
        // two task_end calls at once pair by guess.
        const qint32 ended = c.start >= 0 && !c.ambiguous && text(a->name) == QLatin1String("task_end")
            ? action(c.start)->session
            : 0;
        if (ended > 0) {
            for (std::deque<qint32>& calls : open) {
                std::erase_if(calls, [&](qint32 at) {
                    return m_calls[at].start >= 0 && action(m_calls[at].start)->session == ended;
                });
            }
        }
    }

    // A task_start that nothing ends but whose task a later record says was made ran: its end went elsewhere.
    QHash<qint32, qint64> lastMade; // task name -> the last record saying it was created or started
    for (qint64 i = 0; i < n; ++i) {
        if (m_records[i].kind == Kind::TaskCreated || m_records[i].kind == Kind::TaskStarted)
            lastMade.insert(m_records[i].first, i);
    }
    for (Call& c : m_calls) {
        if (c.end < 0 && c.start >= 0 && text(c.name) == QLatin1String("task_start")
            && lastMade.value(action(c.start)->task, -1) > c.start) {
            c.endElsewhere = true;
            c.outcome = Outcome::Served;
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
    for (const Call& c : std::as_const(m_calls)) {
        if (text(c.name) != QLatin1String("task_start") || c.start < 0)
            continue;
        Task t;
        t.name = text(action(c.start)->task);
        if (c.end >= 0)
            t.id = text(action(c.end)->task);
        if (t.id.isEmpty())
            t.id = QStringLiteral("task:") + t.name;
        if (!taskById.contains(t.id)) {
            taskById.insert(t.id, tasks.size());
            tasks.append(t);
        }
    }
    // A task_end action's _session_id is a task's id, even when the task began before this file does (rotation)
    // or without a task_start action: such a task is known by id first, and named if its start shows up.
    QHash<QString, qint64> firstAction; // session -> first action_start row
    for (qint64 i = n - 1; i >= 0; --i) {
        if (!session(i).isEmpty())
            firstAction.insert(session(i), i);
    }
    for (qint64 i = 0; i < n; ++i) {
        const Action* a = action(i);
        const QString s = session(i);
        if (a && text(a->name) == QLatin1String("task_end") && !s.isEmpty() && !taskById.contains(s)) {
            Task t;
            t.id = s;
            taskById.insert(s, tasks.size());
            tasks.append(t);
        }
    }

    // The tasks a "Created task" record can start, found without going through every task at every such record
    // (quadratic: 30,000 tasks in a log of a million records took seconds): by name, in order, and those known by
    // id alone by the row of their first action. Entries of tasks started since are skipped as they are met.
    QHash<QString, std::deque<qsizetype>> unstartedByName;
    std::map<qint64, qsizetype> namelessByFirstAction;
    for (qsizetype k = 0; k < tasks.size(); ++k) {
        unstartedByName[tasks[k].name].push_back(k);
        const qint64 first = firstAction.value(tasks[k].id, -1);
        if (tasks[k].name.isEmpty() && first >= 0)
            namelessByFirstAction.emplace(first, k);
    }

    // Each record's task: an action's own _session_id when it names a task; a task_start or task_end record
    // the task it starts or ends; anything else the task of the last record that had one.
    std::deque<QString> pendingEnds; // task ids of task_end actions not yet matched to a task_end record
    QVector<qsizetype> openTasks;
    QHash<QString, QString> aliases; // "task:NAME" -> the id its first action gave
    qsizetype unbound = -1; // a task still known by name only
    int ambiguousEnds = 0;
    QString current;
    for (qint64 i = 0; i < n; ++i) {
        const Record& record = m_records[i];
        if (record.kind == Kind::Partial)
            continue;
        const Action* a = action(i);
        QString group = current;
        if (a && a->start) {
            const QString& s = text(a->session);
            const QString& name = text(a->name);
            if (name == QLatin1String("task_start")) {
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
            if (name == QLatin1String("task_end") && taskById.contains(s))
                pendingEnds.push_back(s);
            current = group;
        } else if (a) {
            // An end is logged where its start was, but for the two that move between the conversation and a task:
            // a task_start's end goes to the task its output names, a task_end's back to the conversation.
            const qint32 k = m_rows[i].call;
            const QString& name = text(a->name);
            if (name == QLatin1String("task_start") && a->task > 0)
                group = text(a->task);
            else if (name == QLatin1String("task_end"))
                group = QString();
            else
                group = k >= 0 && m_calls[k].start >= 0 ? this->group(m_rows[m_calls[k].start].group) : current;
        } else if (record.kind == Kind::TaskCreated) {
            const QString& name = text(record.first);
            bool found = false;
            // The first task of that name not started yet.
            if (const auto named = unstartedByName.find(name); named != unstartedByName.end()) {
                std::deque<qsizetype>& waiting = named.value();
                while (!waiting.empty() && tasks[waiting.front()].startRecord >= 0)
                    waiting.pop_front();
                if (!waiting.empty()) {
                    Task& t = tasks[waiting.front()];
                    waiting.pop_front();
                    t.startRecord = i;
                    group = t.id;
                    found = true;
                }
            }
            // A task known by id alone whose first action follows: this record starts it (the nearest).
            qsizetype nameless = -1;
            if (!found) {
                auto next = namelessByFirstAction.upper_bound(i);
                while (next != namelessByFirstAction.end()
                    && (tasks[next->second].startRecord >= 0 || !tasks[next->second].name.isEmpty()))
                    next = namelessByFirstAction.erase(next);
                if (next != namelessByFirstAction.end())
                    nameless = next->second;
            }
            if (nameless >= 0) {
                tasks[nameless].name = name;
                tasks[nameless].startRecord = i;
                group = tasks[nameless].id;
                found = true;
            }
            if (!found) {
                // A task whose task_start action is not in this stream (rotated away, or another stream).
                Task t;
                t.name = name;
                t.id = QStringLiteral("task:") + t.name;
                t.startRecord = i;
                taskById.insert(t.id, tasks.size());
                unbound = tasks.size();
                tasks.append(t);
                group = t.id;
            }
            openTasks.append(taskById.value(group));
            current = group;
            // CraftBot logs the user's message that asked for the task again, in the task, just before creating it.
            if (i > 0 && m_records[i - 1].kind == Kind::UserMessage)
                m_rows[i - 1].group = groupId(group);
        } else if (record.kind == Kind::TaskEnded) {
            qsizetype at = -1;
            if (!pendingEnds.empty()) {
                // Two tasks ending at once write alike records: which is which is a guess, and said so.
                if (pendingEnds.size() >= 2)
                    ambiguousEnds = int(pendingEnds.size());
                if (ambiguousEnds > 0) {
                    m_rows[i].flags |= EventFlags::Ambiguous;
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
                t.status = text(record.first);
                t.note = text(record.second);
                group = t.id;
                openTasks.removeAll(at);
                current = QString(); // what follows a task's end is the conversation's again
            }
        }
        m_rows[i].group = groupId(group);
    }
    // A task known by name first is known by its id everywhere.
    for (QString& group : m_groups.list) {
        const auto alias = aliases.constFind(group);
        if (alias != aliases.constEnd())
            group = alias.value();
    }
    for (Call& c : m_calls) {
        c.group = m_rows[c.start >= 0 ? c.start : c.end].group;
        const int flags = (c.pairing == Pairing::Guessed ? int(EventFlags::Guessed) : 0)
            | (c.ambiguous ? int(EventFlags::Ambiguous) : 0);
        if (c.start >= 0)
            m_rows[c.start].flags |= flags;
        if (c.end >= 0)
            m_rows[c.end].flags |= flags | (c.start >= 0 ? int(EventFlags::Folded) : 0); // shown in its card
    }
    QHash<QString, qint64> firstRow;
    for (qint64 i = 0; i < n; ++i) {
        const QString& group = this->group(m_rows[i].group);
        if (!group.isEmpty() && !firstRow.contains(group))
            firstRow.insert(group, i);
    }
    for (const Task& t : std::as_const(tasks)) {
        RunRecord run;
        run.groupId = t.id;
        run.kind = QStringLiteral("task");
        run.name = t.name;
        const qint64 first = t.startRecord >= 0 ? t.startRecord : firstRow.value(t.id, -1);
        if (first >= 0) {
            run.firstIndex = first;
            if (m_records[first].micros)
                run.startMicros = m_records[first].micros;
        }
        if (t.endRecord >= 0) {
            run.lastIndex = t.endRecord;
            if (m_records[t.endRecord].micros)
                run.endMicros = m_records[t.endRecord].micros;
        }
        run.outcome = t.endRecord >= 0 ? t.status : QStringLiteral("running");
        run.detail = t.note;
        m_runs.append(run);
    }
    std::stable_sort(m_runs.begin(), m_runs.end(), [](const RunRecord& a, const RunRecord& b) {
        return a.firstIndex.value_or(LLONG_MAX) < b.firstIndex.value_or(LLONG_MAX);
    });
}

bool CraftBotShape::agrees(const CraftBotShape& other, qint64 index) const
{
    const Row& a = m_rows[index];
    const Row& b = other.m_rows[index];
    if (a.flags != b.flags || (a.call < 0) != (b.call < 0) || group(a.group) != other.group(b.group))
        return false;
    if (a.call < 0)
        return true;
    const Call& x = m_calls[a.call];
    const Call& y = other.m_calls[b.call];
    // toolId()'s parts, without making the string for each of a million rows.
    return x.start == y.start && x.end == y.end && x.outcome == y.outcome && group(x.group) == other.group(y.group)
        && text(x.name) == other.text(y.name);
}

QString CraftBotShape::toolId(qint32 call) const
{
    const Call& c = m_calls[call];
    const QString& group = this->group(c.group);
    // One arg() with every value: chained, a tool name holding "%3" had the record's number put into it.
    return QStringLiteral("%1:%2:%3")
        .arg(group.isEmpty() ? QStringLiteral("main") : group, text(c.name), QString::number(c.start >= 0 ? c.start : c.end));
}

ToolCallRecord CraftBotShape::callRecord(qint32 call, const QString& arguments, const QString& result) const
{
    const Call& c = m_calls[call];
    ToolCallRecord r;
    r.toolName = text(c.name);
    r.groupId = group(c.group);
    r.toolId = toolId(call);
    r.pairing = c.pairing;
    r.ambiguous = c.ambiguous;
    r.outcome = c.outcome;
    if (c.start >= 0) {
        r.startIndex = c.start;
        if (m_records[c.start].micros)
            r.startMicros = m_records[c.start].micros;
        r.arguments = arguments;
        r.argumentsValid = c.argumentsValid;
        r.status = c.endElsewhere ? QStringLiteral("completed") : QStringLiteral("running");
    }
    if (c.end >= 0) {
        r.endIndex = c.end;
        r.resultIndex = c.end;
        if (m_records[c.end].micros)
            r.endMicros = m_records[c.end].micros;
        r.result = result;
        r.status = c.outcome == Outcome::Served ? QStringLiteral("completed") : Outcomes::name(c.outcome);
        if (c.outcome != Outcome::Served)
            r.error = text(c.error);
    }
    if (r.startMicros && r.endMicros) {
        r.durationMs = TimeUtil::durationMs(*r.startMicros, *r.endMicros);
        if (r.durationMs)
            r.durationSource = m_wholeSeconds ? DurationSource::Seconds : DurationSource::Timestamps;
    }
    return r;
}
