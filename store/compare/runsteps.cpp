#include "runsteps.h"

#include "../eventfilter.h"
#include "../workspace.h"

#include <algorithm>
#include <climits>
#include <future>
#include <optional>
#include <QHashFunctions>
#include <QJsonDocument>
#include <QSet>

namespace {

// A fixed seed: the same step hashes the same in both runs (Qt's own hashes are seeded per process).
constexpr size_t seed = 0x5167'6874'6c69'6e65ULL;

void key(RunStep& s)
{
    if (s.kind == RunStep::Kind::ToolCall) {
        s.weak = quint64(qHashMulti(seed, 1, s.tool));
        s.strong = quint64(qHashMulti(seed, 1, s.tool, s.arguments));
    } else {
        s.weak = quint64(qHashMulti(seed, 2, s.role));
        s.strong = quint64(qHashMulti(seed, 2, s.role, s.text));
    }
}

} // namespace

namespace RunSteps {

QString normalised(const QString& text)
{
    const QString trimmed = text.trimmed();
    if (trimmed.isEmpty())
        return trimmed;
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(trimmed.toUtf8(), &error);
    if (error.error == QJsonParseError::NoError && (doc.isObject() || doc.isArray()))
        return QString::fromUtf8(doc.toJson(QJsonDocument::Compact)); // QJsonObject keeps its keys in order
    return trimmed;
}

RunStepList read(Workspace& workspace, qint64 roomId, const EventFilter* filter)
{
    RunStepList steps;
    for (const ToolCallRecord& c : workspace.toolCalls(roomId)) {
        RunStep s;
        s.kind = RunStep::Kind::ToolCall;
        s.index = c.startIndex.value_or(c.endIndex.value_or(c.resultIndex.value_or(0)));
        s.tool = c.toolName;
        s.arguments = normalised(c.arguments);
        s.result = normalised(c.result);
        s.outcome = Outcomes::name(c.outcome);
        s.durationMs = c.durationMs;
        key(s);
        steps.append(s);
    }
    for (const EventRecord& e : workspace.conversation(roomId, INT_MAX)) {
        RunStep s;
        s.kind = RunStep::Kind::Message;
        s.index = e.index;
        s.role = e.role;
        s.text = e.text.trimmed();
        key(s);
        steps.append(s);
    }
    if (filter) {
        // The timeline's items under the filter, by index: a call by its card, a message once.
        EventFilter items = *filter;
        items.timelineItems = true;
        PageRequest all;
        all.limit = INT_MAX;
        QSet<qint64> shown;
        for (const EventRecord& e : workspace.listEvents(roomId, items, all))
            shown.insert(e.index);
        steps.erase(std::remove_if(steps.begin(), steps.end(), [&](const RunStep& s) { return !shown.contains(s.index); }),
            steps.end());
    }
    // In the order they show; a message and a call at one index (an AG-UI row that holds both): the message first.
    std::stable_sort(steps.begin(), steps.end(), [](const RunStep& x, const RunStep& y) {
        return x.index != y.index ? x.index < y.index : x.kind == RunStep::Kind::Message && y.kind != RunStep::Kind::Message;
    });
    return steps;
}

std::pair<RunStepList, RunStepList> readBoth(Workspace& a, qint64 roomA, const QString& pathB, qint64 roomB,
    const EventFilter* filter)
{
    const std::optional<EventFilter> copy = filter ? std::optional<EventFilter>(*filter) : std::nullopt;
    // A workspace's connection belongs to the thread that opened it: B's is opened, used and closed on its own.
    auto b = std::async(std::launch::async, [pathB, roomB, copy] {
        Workspace other(pathB);
        return read(other, roomB, copy ? &*copy : nullptr);
    });
    RunStepList stepsA = read(a, roomA, filter);
    return { std::move(stepsA), b.get() };
}

} // namespace RunSteps
