#include "markdownreport.h"

#include "durationtext.h"
#include "eventkind.h"
#include "journal.h"
#include "jsontext.h"
#include "redactionstore.h"
#include "reportroom.h"
#include "reporttext.h"
#include "timeutil.h"
#include "workspace.h"

#include <QDateTime>
#include <QHash>
#include <QIODevice>
#include <QMap>
#include <QRegularExpression>

QString MarkdownReport::escaped(const QString& raw)
{
    const QString text = ReportText::shown(raw); // a bidi override or a NUL as its code point
    QString out;
    out.reserve(text.size());
    for (const QChar c : text) {
        if (c == QLatin1Char('<'))
            out += QStringLiteral("&lt;");
        else if (c == QLatin1Char('>'))
            out += QStringLiteral("&gt;");
        else if (c == QLatin1Char('&'))
            out += QStringLiteral("&amp;");
        else if (QStringLiteral("\\`*[]#|").contains(c)) // an underscore inside a word is no emphasis: left
            out += QLatin1Char('\\') + c;
        else
            out += c;
    }
    return out;
}

QString MarkdownReport::codeBlock(const QString& raw, const QString& language)
{
    const QString text = ReportText::shown(raw);
    // A fence one backtick longer than the longest run inside: the block cannot be closed early.
    static const QRegularExpression runs(QStringLiteral("`+"));
    qsizetype longest = 2;
    for (auto it = runs.globalMatch(text); it.hasNext();)
        longest = std::max(longest, it.next().capturedLength());
    const QString fence(longest + 1, QLatin1Char('`'));
    return fence + language + QLatin1Char('\n') + text + QLatin1Char('\n') + fence + QLatin1Char('\n');
}

qint64 MarkdownReport::write(Workspace& ws, const ReportScope& scope, QIODevice& out, Sha256* events)
{
    auto put = [&out](const QString& text) { out.write(text.toUtf8()); };
    qint64 written = 0;
    const QString generated = QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
    for (qint64 roomId : scope.roomIds) {
        const std::optional<ReportRoom> read = ReportRoom::read(ws, roomId);
        if (!read)
            continue;
        const ReportRoom& r = *read;
        const RoomSummary* room = &r.room;
        put(QStringLiteral("# Room %1\n\n").arg(escaped(room->nativeId)));
        if (!room->title.isEmpty())
            put(escaped(room->title) + QStringLiteral("\n\n"));
        QStringList facts;
        if (!scope.source.isEmpty())
            facts << QStringLiteral("- Source: %1").arg(escaped(scope.shownSource()));
        if (room->firstMicros)
            facts << QStringLiteral("- Time span: %1 to %2")
                         .arg(TimeUtil::formatMicros(room->firstMicros), TimeUtil::formatMicros(room->lastMicros));
        facts << QStringLiteral("- Filter: %1").arg(scope.filterText.isEmpty() ? QStringLiteral("none (every event but blocked rows)")
                                                                              : QLatin1Char('`') + scope.filterText + QLatin1Char('`'));
        facts << QStringLiteral("- Generated %1 by %2 with Sightline %3")
                     .arg(generated, escaped(scope.author.isEmpty() ? QStringLiteral("(unknown)") : scope.author), scope.version);
        facts << (r.review ? QStringLiteral("- Review: %1 (%2)").arg(escaped(r.review->value), escaped(r.review->author))
                           : QStringLiteral("- Review: unreviewed"));
        put(facts.join(QLatin1Char('\n')) + QStringLiteral("\n\n"));
        const auto& labels = r.labels;
        const auto& notes = r.notes;
        const auto& marked = r.marked;
        const auto& cards = r.cards;
        const auto& roomNotes = r.roomNotes;
        QMap<QString, int> outcomes;
        for (auto it = r.outcomes.cbegin(); it != r.outcomes.cend(); ++it)
            outcomes.insert(it.key(), it.value());

        // The events of the scope, each counted once; then the summary, then the transcript, streamed.
        QMap<QString, int> kinds;
        qint64 count = 0;
        PageRequest all;
        all.limit = std::numeric_limits<int>::max();
        ws.forEachEvent(roomId, scope.filter, all, [&](const EventRecord& e) {
            ++kinds[EventKinds::name(e.kind)];
            ++count;
            r.digest(events, e);
            scope.written();
        });
        written += count;

        put(QStringLiteral("## Summary\n\n%1 events").arg(count));
        QStringList byKind;
        for (auto it = kinds.cbegin(); it != kinds.cend(); ++it)
            byKind << QString::number(it.value()) + QLatin1Char(' ') + it.key();
        if (!byKind.isEmpty())
            put(QStringLiteral(" (") + byKind.join(QStringLiteral(", ")) + QLatin1Char(')'));
        QStringList byOutcome;
        for (auto it = outcomes.cbegin(); it != outcomes.cend(); ++it)
            byOutcome << QString::number(it.value()) + QLatin1Char(' ') + it.key();
        put(QStringLiteral(". %1 tool calls in the room%2.\n\n")
                .arg(cards.size())
                .arg(byOutcome.isEmpty() ? QString() : QStringLiteral(": ") + byOutcome.join(QStringLiteral(", "))));
        if (!roomNotes.isEmpty()) {
            put(QStringLiteral("## Notes on the room\n\n"));
            for (const QString& n : roomNotes)
                put(QStringLiteral("- ") + escaped(n) + QLatin1Char('\n'));
            put(QStringLiteral("\n"));
        }
        put(QStringLiteral("## Timeline\n\n"));
        EventFilter items = scope.filter;
        items.timelineItems = true;
        ws.forEachEvent(roomId, items, all, [&](const EventRecord& e) {
            QStringList head { QString::number(e.index) };
            if (e.createdMicros)
                head << TimeUtil::formatMicros(e.createdMicros);
            const auto call = cards.constFind(e.index);
            if (e.kind == EventKind::ToolCall && call != cards.constEnd()) {
                head << QStringLiteral("**%1**").arg(escaped(call->toolName)) << Outcomes::name(call->outcome);
                if (call->durationMs)
                    head << DurationText::full(*call);
            } else {
                head << escaped(e.participantId.isEmpty() ? e.type : e.participantId + QStringLiteral(" · ") + e.type);
            }
            if (!e.channelId.isEmpty())
                head << escaped(e.channelId);
            if (marked.contains(e.index))
                head << QStringLiteral("marked");
            for (const QString& l : labels.value(e.index))
                head << QStringLiteral("label: %1").arg(escaped(l));
            if (e.flags & EventFlags::Revised)
                head << QStringLiteral("edited");
            if (e.flags & EventFlags::Redacted)
                head << QStringLiteral("redacted");
            if (e.isBlocked())
                head << QStringLiteral("blocked by %1").arg(escaped(e.blockedBy));
            QString transcript = QStringLiteral("### ") + head.join(QStringLiteral(" · ")) + QStringLiteral("\n\n");
            if (e.kind == EventKind::ToolCall && call != cards.constEnd()) {
                transcript += QStringLiteral("Arguments:\n\n") + codeBlock(JsonText::editable(call->arguments, false), QStringLiteral("json"));
                if (!call->result.isEmpty())
                    transcript += QStringLiteral("\nResult:\n\n") + codeBlock(JsonText::editable(call->result, false), QStringLiteral("json"));
                if (!call->error.isEmpty())
                    transcript += QStringLiteral("\nError: ") + escaped(call->error) + QLatin1Char('\n');
            } else if (!e.text.isEmpty()) {
                for (const QString& line : e.text.split(QLatin1Char('\n')))
                    transcript += QStringLiteral("> ") + escaped(line) + QLatin1Char('\n');
            }
            for (const QString& n : notes.value(e.index))
                transcript += QStringLiteral("\n- Note: ") + escaped(n);
            transcript += QStringLiteral("\n\n");
            put(transcript);
            scope.written();
        });

        const Redactions ledger = RedactionStore(ws).ledger(roomId);
        if (!ledger.isEmpty()) {
            put(QStringLiteral("## Redactions\n\n| when | who | event | where | reason | keyed digest of what went |\n|---|---|---|---|---|---|\n"));
            for (const Redaction& r : ledger) {
                // One arg() with every value: chained, a path or a name holding "%5" had the next value put into it.
                put(QStringLiteral("| %1 | %2 | %3 | %4 [%5, %6) | %7 | %8 |\n")
                        .arg(QDateTime::fromMSecsSinceEpoch(r.atMs, Qt::UTC).toString(Qt::ISODate), escaped(r.author),
                            QString::number(r.index), escaped(r.path.isEmpty() ? QStringLiteral("the text") : r.path),
                            QString::number(r.start), QString::number(r.start + r.length), escaped(r.reason),
                            r.digest.left(16) + QStringLiteral("…")));
            }
            put(QStringLiteral("\n"));
        }
        const JournalEntries journal = Journal(ws).entries(roomId);
        if (!journal.isEmpty()) {
            put(QStringLiteral("## Edit journal\n\n| when | who | event | what |\n|---|---|---|---|\n"));
            for (const JournalEntry& j : journal) {
                put(QStringLiteral("| %1 | %2 | %3 | %4 |\n")
                        .arg(QDateTime::fromMSecsSinceEpoch(j.atMs, Qt::UTC).toString(Qt::ISODate), escaped(j.author),
                            j.index ? QString::number(*j.index) : QStringLiteral("the room"),
                            escaped(Journal::describe(j)).replace(QLatin1Char('\n'), QLatin1Char(' '))));
            }
            put(QStringLiteral("\n"));
        }
    }
    return written;
}
