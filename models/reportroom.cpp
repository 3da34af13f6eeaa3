#include "reportroom.h"

#include "annotationstore.h"
#include "eventserializer.h"
#include "workspace.h"

#include <algorithm>
#include <QDateTime>
#include <QMap>

QString ReportRoom::onPaper(const QString& text)
{
    if (text.size() <= PaperLimit)
        return text;
    qsizetype keep = PaperLimit;
    if (text.at(keep - 1).isHighSurrogate())
        --keep; // never half an emoji
    return text.left(keep) + QStringLiteral("\n… ") + QString::number(text.size() - keep)
        + QStringLiteral(" more characters: whole in the JSON Lines report");
}

std::optional<ReportRoom> ReportRoom::read(Workspace& ws, qint64 roomId, bool keepCalls, bool paper)
{
    const std::optional<RoomSummary> summary = ws.room(roomId);
    if (!summary)
        return std::nullopt;
    ReportRoom r;
    r.room = *summary;
    for (const Annotation& a : AnnotationStore(ws).annotations(roomId)) {
        if (a.detached)
            continue;
        const QString note = QStringLiteral("%1 (%2): %3")
                                 .arg(a.author, QDateTime::fromMSecsSinceEpoch(a.atMs, Qt::UTC).toString(Qt::ISODate), a.value);
        if (!a.index) {
            if (a.kind == Annotation::Kind::Note)
                r.roomNotes << note;
            else if (a.kind == Annotation::Kind::Review)
                r.review = a;
        } else if (a.kind == Annotation::Kind::Label) {
            r.labels[*a.index] << a.value;
        } else if (a.kind == Annotation::Kind::Note) {
            r.notes[*a.index] << note;
        } else if (a.kind == Annotation::Kind::Mark) {
            r.marked.insert(*a.index);
        }
    }
    QMap<QString, QVector<qint64>> durations;
    QMap<QString, Tool> tools;
    ws.forEachToolCall(roomId, [&](const ToolCallRecord& whole) {
        ToolCallRecord cut;
        if (paper) {
            cut = whole;
            cut.arguments = onPaper(whole.arguments);
            cut.result = onPaper(whole.result);
            cut.error = onPaper(whole.error);
        }
        const ToolCallRecord& c = paper ? cut : whole;
        if (keepCalls) {
            if (const std::optional<qint64> at = c.startIndex ? c.startIndex : c.endIndex ? c.endIndex : c.resultIndex)
                r.cards.insert(*at, c);
            for (const std::optional<qint64>& at : { c.startIndex, c.endIndex, c.resultIndex }) {
                if (at)
                    r.callOf.insert(*at, c);
            }
        }
        ++r.outcomes[Outcomes::name(c.outcome)];
        Tool& t = tools[c.toolName];
        t.name = c.toolName;
        ++t.calls;
        if (c.outcome == Outcome::Failed || c.outcome == Outcome::Refused || c.outcome == Outcome::Unserved
            || c.outcome == Outcome::Blocked)
            ++t.failures;
        if (c.durationMs)
            durations[c.toolName] << *c.durationMs;
    });
    for (Tool& t : tools) {
        QVector<qint64> d = durations.value(t.name);
        if (!d.isEmpty()) {
            std::sort(d.begin(), d.end());
            // Nearest rank: the smallest duration at or above the share of calls.
            auto rank = [&d](double p) { return d.at(std::clamp<qsizetype>(qsizetype(std::ceil(p * double(d.size()))) - 1, 0, d.size() - 1)); };
            t.p50 = rank(0.50);
            t.p95 = rank(0.95);
            t.max = d.last();
        }
        r.tools << t;
    }
    std::stable_sort(r.tools.begin(), r.tools.end(), [](const Tool& a, const Tool& b) { return a.calls > b.calls; });
    return r;
}

void ReportRoom::digest(Sha256* events, const EventRecord& e) const
{
    if (!events)
        return;
    events->addData(room.nativeId.toUtf8());
    events->addData("\t");
    events->addData(EventSerializer::eventJson(e));
    events->addData("\n");
}
