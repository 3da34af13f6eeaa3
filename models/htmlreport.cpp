#include "htmlreport.h"

#include "durationtext.h"
#include "eventkind.h"
#include "journal.h"
#include "jsontext.h"
#include "presentation.h"
#include "redactionstore.h"
#include "reportroom.h"
#include "reporttext.h"
#include "timeutil.h"
#include "workspace.h"

#include <functional>
#include <QDateTime>
#include <QIODevice>
#include <QMap>

namespace {

QString esc(const QString& text)
{
    return ReportText::shown(text).toHtmlEscaped(); // a bidi override or a NUL as its code point
}

// On paper a value is cut at a few pages' worth (ReportRoom::onPaper); in HTML it is whole.
QString onPaper(const QString& text, bool printable)
{
    return printable ? ReportRoom::onPaper(text) : text;
}

const char* const style = R"CSS(
body { font-family: "DejaVu Sans", system-ui, sans-serif; margin: 0 auto; max-width: 60em; padding: 1em; color: #1b1b1b; }
h1 { font-size: 1.5em; border-bottom: 2px solid #1565c0; } h2 { font-size: 1.2em; margin-top: 1.5em; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .2em 1em; } dt { font-weight: bold; }
.event { border-left: 3px solid #ccc; padding: .2em .6em; margin: .5em 0; }
.event.user { border-color: #999; } .event.assistant { border-color: #1565c0; }
.meta { color: #555; font-size: .85em; } .text { white-space: pre-wrap; overflow-wrap: anywhere; }
details.call, table.call { border: 1px solid #757575; border-radius: 6px; padding: .3em .6em; margin: .5em 0; width: 100%;
  box-sizing: border-box; }
summary { cursor: pointer; } pre { white-space: pre-wrap; overflow-wrap: anywhere; background: #f5f5f5; padding: .4em; }
.pill { border: 1px solid #1565c0; border-radius: 1em; padding: 0 .5em; font-size: .8em; color: #1565c0; margin-left: .3em; }
table.grid { border-collapse: collapse; } table.grid td, table.grid th { border: 1px solid #ccc; padding: .2em .5em; text-align: left; }
@media print { details.call { break-inside: avoid; } body { max-width: none; } }
)CSS";

// The calls by outcome in the order of the outcomes' names, and the most of any (a chart's full bar).
QMap<QString, int> byName(const QHash<QString, int>& outcomes, int& most)
{
    QMap<QString, int> sorted;
    for (auto it = outcomes.cbegin(); it != outcomes.cend(); ++it) {
        sorted.insert(it.key(), it.value());
        most = std::max(most, it.value());
    }
    return sorted;
}

// Calls by outcome as bars, drawn by Sightline: a reader looks rather than reads.
QString outcomeChart(const QHash<QString, int>& outcomes)
{
    if (outcomes.isEmpty())
        return {};
    int most = 1;
    const QMap<QString, int> sorted = byName(outcomes, most);
    const int row = 22;
    QString svg = QStringLiteral("<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" width=\"420\" height=\"%1\" "
                                 "aria-label=\"tool calls by outcome\">")
                      .arg(row * sorted.size() + 4);
    int y = 2;
    for (auto it = sorted.cbegin(); it != sorted.cend(); ++it, y += row) {
        const int width = std::max(2, 260 * it.value() / most);
        svg += QStringLiteral("<text x=\"0\" y=\"%1\" font-size=\"13\">%2</text>").arg(y + 15).arg(esc(it.key()));
        svg += QStringLiteral("<rect x=\"90\" y=\"%1\" width=\"%2\" height=\"16\" fill=\"%3\"/>")
                   .arg(y + 2)
                   .arg(width)
                   .arg(Presentation::outcomeColour(Outcomes::fromName(it.key()), false).name());
        svg += QStringLiteral("<text x=\"%1\" y=\"%2\" font-size=\"13\">%3</text>").arg(96 + width).arg(y + 15).arg(it.value());
    }
    return svg + QStringLiteral("</svg>");
}

// One bar of a chart on paper (QTextDocument draws no SVG, and sizes a column, not a cell, so each bar is a
// table of its own): a label, coloured cells as wide as their shares of `span` percent, the rest empty, and a figure.
// In the PDF each coloured cell is a filled rectangle, a vector like the text beside it.
QString printableBar(const QString& label, int labelPercent, const QVector<QPair<int, QString>>& parts, int span,
    const QString& figure)
{
    QString row = QStringLiteral("<table cellspacing=\"0\" cellpadding=\"1\" width=\"100%\"><tr><td width=\"%1%\">%2</td>")
                      .arg(labelPercent)
                      .arg(esc(label));
    int used = 0;
    for (const auto& [percent, colour] : parts) {
        if (percent <= 0)
            continue;
        row += QStringLiteral("<td width=\"%1%\" bgcolor=\"%2\">&nbsp;</td>").arg(percent).arg(colour);
        used += percent;
    }
    if (span - used > 0)
        row += QStringLiteral("<td width=\"%1%\">&nbsp;</td>").arg(span - used);
    return row + QStringLiteral("<td width=\"%1%\">&nbsp;%2</td></tr></table>\n").arg(100 - labelPercent - span).arg(esc(figure));
}

QString printableOutcomeChart(const QHash<QString, int>& outcomes)
{
    if (outcomes.isEmpty())
        return {};
    int most = 1;
    const QMap<QString, int> sorted = byName(outcomes, most);
    QString chart;
    const int span = 55;
    for (auto it = sorted.cbegin(); it != sorted.cend(); ++it) {
        chart += printableBar(it.key(), 15,
            { { std::max(1, span * it.value() / most), Presentation::outcomeColour(Outcomes::fromName(it.key()), false).name() } },
            span, QString::number(it.value()));
    }
    return chart;
}

// Durations per tool, as bars on one scale: the median (dark), the 95th percentile (lighter) and the longest
// (lightest), so a slow tool and a tool with a slow tail both stand out. Only tools whose calls have durations.
QString durationChart(const QVector<ReportRoom::Tool>& tools, bool printable)
{
    qint64 longest = 0;
    QVector<const ReportRoom::Tool*> timed;
    for (const ReportRoom::Tool& t : tools) {
        if (t.max) {
            timed << &t;
            longest = std::max(longest, *t.max);
        }
    }
    if (timed.isEmpty() || longest <= 0)
        return {};
    const QString dark = QStringLiteral("#1565c0"), mid = QStringLiteral("#64b5f6"), light = QStringLiteral("#bbdefb");
    auto label = [](const ReportRoom::Tool& t) {
        return QStringLiteral("p50 %1 · p95 %2 · max %3 ms").arg(*t.p50).arg(*t.p95).arg(*t.max);
    };
    if (printable) {
        QString chart = QStringLiteral("<p>Durations per tool: the median (dark), the 95th percentile and the longest "
                                       "(lightest) of its calls.</p>\n");
        const int span = 38;
        for (const ReportRoom::Tool* t : timed) {
            auto share = [&](qint64 ms) { return int(span * ms / longest); };
            const int a = std::max(1, share(*t->p50));
            const int b = std::max(0, share(*t->p95) - a);
            const int c = std::max(0, share(*t->max) - a - b);
            chart += printableBar(t->name, 25, { { a, dark }, { b, mid }, { c, light } }, span, label(*t));
        }
        return chart;
    }
    const int row = 22, scale = 240, left = 170;
    QString svg = QStringLiteral("<p class=\"meta\">Durations per tool: the median (dark), the 95th percentile and the longest "
                                 "(lightest) of its calls.</p>\n")
        + QStringLiteral("<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" width=\"640\" height=\"%1\" "
                                 "aria-label=\"durations per tool: median, 95th percentile and longest\">")
                      .arg(row * timed.size() + 4);
    int y = 2;
    for (const ReportRoom::Tool* t : timed) {
        auto x = [&](qint64 ms) { return std::max(1, int(scale * ms / longest)); };
        svg += QStringLiteral("<text x=\"0\" y=\"%1\" font-size=\"13\">%2</text>").arg(y + 15).arg(esc(t->name));
        for (const auto& [ms, colour] : { std::pair { *t->max, light }, std::pair { *t->p95, mid }, std::pair { *t->p50, dark } })
            svg += QStringLiteral("<rect x=\"%1\" y=\"%2\" width=\"%3\" height=\"16\" fill=\"%4\"/>").arg(left).arg(y + 2).arg(x(ms)).arg(colour);
        svg += QStringLiteral("<text x=\"%1\" y=\"%2\" font-size=\"12\">%3</text>")
                   .arg(left + x(*t->max) + 6)
                   .arg(y + 15)
                   .arg(esc(label(*t)));
        y += row;
    }
    return svg + QStringLiteral("</svg>\n");
}

} // namespace

qint64 HtmlReport::write(Workspace& ws, const ReportScope& scope, QIODevice& out, const Options& options,
    Sha256* events)
{
    auto put = [&out](const QString& text) { out.write(text.toUtf8()); };
    const QString generated = QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
    put(QStringLiteral("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/>"
                       "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/><title>"));
    QStringList names;
    for (qint64 id : scope.roomIds) {
        if (const std::optional<RoomSummary> r = ws.room(id))
            names << r->nativeId;
    }
    put(esc(QStringLiteral("Sightline report: ") + names.join(QStringLiteral(", "))));
    // A card's border in its outcome's colour, from the one table every view and report takes it from.
    QString outcomeStyle;
    for (const Outcome o : Outcomes::all()) {
        outcomeStyle += QStringLiteral("details.call.%1 { border-color: %2; }\n")
                            .arg(Outcomes::name(o), Presentation::outcomeColour(o, false).name());
    }
    put(QStringLiteral("</title><style>") + QString::fromUtf8(style) + outcomeStyle + QStringLiteral("</style></head><body>\n"));
    qint64 total = 0;
    for (qint64 roomId : scope.roomIds) {
        const std::optional<ReportRoom> read = ReportRoom::read(ws, roomId, true, options.printable);
        if (!read)
            continue;
        const ReportRoom& r = *read;
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
        total += count;
        // The anchor names the room for the PDF's page headers (PdfReport finds where each room starts): by its title
        // when it has one, as a person calls it.
        put(QStringLiteral("<section class=\"room\"><h1><a name=\"room:%1\">Room %2</a></h1>\n")
                .arg(esc(r.room.name()), esc(r.room.nativeId)));
        if (!r.room.title.isEmpty())
            put(QStringLiteral("<p>%1</p>\n").arg(esc(r.room.title)));
        put(QStringLiteral("<dl class=\"facts\">"));
        auto fact = [&](const QString& name, const QString& value) {
            put(QStringLiteral("<dt>%1</dt><dd>%2</dd>").arg(esc(name), esc(value)));
        };
        if (!scope.source.isEmpty())
            fact(QStringLiteral("Source"), scope.shownSource());
        if (r.room.firstMicros)
            fact(QStringLiteral("Time span"), TimeUtil::formatMicros(r.room.firstMicros) + QStringLiteral(" to ")
                    + TimeUtil::formatMicros(r.room.lastMicros));
        fact(QStringLiteral("Filter"), scope.filterText.isEmpty() ? QStringLiteral("none (every event but blocked rows)") : scope.filterText);
        fact(QStringLiteral("Events"), QStringLiteral("%1 in this report").arg(count));
        fact(QStringLiteral("Review"),
            r.review ? r.review->value + QStringLiteral(" (") + r.review->author + QLatin1Char(')') : QStringLiteral("unreviewed"));
        fact(QStringLiteral("Generated"),
            generated + QStringLiteral(" by ") + (scope.author.isEmpty() ? QStringLiteral("(unknown)") : scope.author)
                + QStringLiteral(" with Sightline ") + scope.version);
        put(QStringLiteral("</dl>\n<h2>Summary</h2>\n<p>"));
        QStringList byKind;
        for (auto it = kinds.cbegin(); it != kinds.cend(); ++it)
            byKind << QStringLiteral("%1 %2").arg(it.value()).arg(it.key());
        QStringList byOutcome;
        QStringList ends = r.outcomes.keys();
        ends.sort();
        for (const QString& o : std::as_const(ends))
            byOutcome << QStringLiteral("%1 %2").arg(r.outcomes.value(o)).arg(o);
        put(esc((count == 1 ? QStringLiteral("1 event") : QStringLiteral("%1 events").arg(count))
            + (byKind.isEmpty() ? QString() : QStringLiteral(": ") + byKind.join(QStringLiteral(", "))) + QStringLiteral(".")));
        // The calls are the room's whole, whatever the filter: said so, beside what the filter let through.
        put(QStringLiteral("</p>\n<p>") + esc(QStringLiteral("The room's tool calls, whatever the filter: %1%2.")
                                                .arg(r.cards.size())
                                                .arg(byOutcome.isEmpty() ? QString() : QStringLiteral(" (") + byOutcome.join(QStringLiteral(", ")) + QLatin1Char(')')))
            + QStringLiteral("</p>\n"));
        put(options.printable ? printableOutcomeChart(r.outcomes) : outcomeChart(r.outcomes));
        if (!r.tools.isEmpty()) {
            put(QStringLiteral("<table class=\"grid tools\"><tr><th>Tool</th><th>Calls</th><th>Failed, refused or unanswered</th>"
                               "<th>p50 ms</th><th>p95 ms</th><th>Longest ms</th></tr>"));
            auto ms = [](const std::optional<qint64>& v) { return v ? QString::number(*v) : QStringLiteral("—"); };
            for (const ReportRoom::Tool& t : r.tools) {
                put(QStringLiteral("<tr><td>%1</td><td>%2</td><td>%3</td><td>%4</td><td>%5</td><td>%6</td></tr>")
                        .arg(esc(t.name), QString::number(t.calls), QString::number(t.failures), ms(t.p50), ms(t.p95),
                            ms(t.max)));
            }
            put(QStringLiteral("</table>\n"));
            put(durationChart(r.tools, options.printable));
        }
        if (!r.roomNotes.isEmpty()) {
            put(QStringLiteral("<h2>Notes on the room</h2><ul>"));
            for (const QString& n : r.roomNotes)
                put(QStringLiteral("<li>%1</li>").arg(esc(n)));
            put(QStringLiteral("</ul>\n"));
        }

        put(QStringLiteral("<h2>Timeline</h2>\n"));
        EventFilter items = scope.filter;
        items.timelineItems = true;
        ws.forEachEvent(roomId, items, all, [&](const EventRecord& e) {
            QString pills;
            // On paper (QTextDocument draws no border round a span) a pill is a word after a separator.
            auto pill = [&pills, &options](const QString& text) {
                pills += options.printable ? QStringLiteral(" · <b>%1</b>").arg(esc(text))
                                           : QStringLiteral("<span class=\"pill\">%1</span>").arg(esc(text));
            };
            if (r.marked.contains(e.index))
                pill(QStringLiteral("marked"));
            for (const QString& l : r.labels.value(e.index))
                pill(l);
            if (e.flags & EventFlags::Revised)
                pill(QStringLiteral("edited"));
            if (e.flags & EventFlags::Redacted)
                pill(QStringLiteral("redacted"));
            if (e.isBlocked())
                pill(QStringLiteral("blocked by ") + e.blockedBy);
            QString notes;
            for (const QString& n : r.notes.value(e.index))
                notes += QStringLiteral("<p class=\"meta\">Note: ") + esc(onPaper(n, options.printable)) + QStringLiteral("</p>");
            const QString when = e.createdMicros ? TimeUtil::formatMicros(e.createdMicros) : QString();
            const auto call = r.cards.constFind(e.index);
            if (e.kind == EventKind::ToolCall && call != r.cards.constEnd()) {
                const ToolCallRecord& c = *call;
                QString head = QStringLiteral("<b>%1</b> · %2").arg(esc(c.toolName), esc(Outcomes::name(c.outcome)));
                if (c.durationMs)
                    head += QStringLiteral(" · ") + esc(DurationText::full(c));
                head += QStringLiteral(" · <span class=\"meta\">event %1 · %2</span>").arg(e.index).arg(esc(when)) + pills;
                // On paper the call's values come cut already (ReportRoom::read).
                QString body = QStringLiteral("<h4>Arguments</h4><pre>") + esc(JsonText::editable(c.arguments, false))
                    + QStringLiteral("</pre>");
                if (!c.result.isEmpty())
                    body += QStringLiteral("<h4>Result</h4><pre>") + esc(JsonText::editable(c.result, false)) + QStringLiteral("</pre>");
                if (!c.error.isEmpty())
                    body += QStringLiteral("<p>Error: ") + esc(c.error) + QStringLiteral("</p>");
                if (options.printable) {
                    put(QStringLiteral("<table class=\"call\" border=\"1\" cellpadding=\"4\" width=\"100%\"><tr><td>%1%2%3</td></tr></table>\n")
                            .arg(head, body, notes));
                } else {
                    put(QStringLiteral("<details class=\"call %1\"%2><summary>%3</summary>%4%5</details>\n")
                            .arg(esc(Outcomes::name(c.outcome)), options.expanded ? QStringLiteral(" open=\"open\"") : QString(), head, body, notes));
                }
                scope.written();
                return;
            }
            // On paper the header line is marked to keep with its text (an anchor QTextDocument keeps: PdfReport's pages
            // move it to the next page rather than leave it alone at a page's foot).
            put(QStringLiteral("<div class=\"event %1\"><div class=\"meta\">%2%3 · %4 · %5%6%7%8</div><div class=\"text\">%9</div>%10</div>\n")
                    .arg(esc(e.role), options.printable ? QStringLiteral("<a name=\"keep\">") : QString(), QString::number(e.index),
                        esc(when),
                        esc(e.participantId.isEmpty() ? e.type : e.participantId + QStringLiteral(" · ") + e.type),
                        e.channelId.isEmpty() ? QString() : QStringLiteral(" · ") + esc(e.channelId), pills,
                        options.printable ? QStringLiteral("</a>") : QString(), esc(onPaper(e.text, options.printable)), notes));
            scope.written();
        });

        // A table's rows, its header again every PaperTableRows rows on paper: Qt lays out a table that runs over
        // many pages in time that grows with the square of its rows (a ledger of 701 redactions took a PDF from 5 s to
        // 30 s), and short tables, each on its page, take no longer than their rows.
        const auto table = [&](const QString& header, qsizetype rows, const std::function<QString(qsizetype)>& row) {
            constexpr qsizetype PaperTableRows = 40;
            for (qsizetype i = 0; i < rows; ++i) {
                if (i == 0 || (options.printable && i % PaperTableRows == 0)) {
                    if (i > 0)
                        put(QStringLiteral("</table>\n"));
                    put(QStringLiteral("<table class=\"grid\">") + header);
                }
                put(row(i));
            }
            put(QStringLiteral("</table>\n"));
        };
        const Redactions ledger = RedactionStore(ws).ledger(roomId);
        if (!ledger.isEmpty()) {
            put(QStringLiteral("<h2>Redactions</h2>"));
            table(QStringLiteral("<tr><th>When</th><th>Who</th><th>Event</th><th>Where</th><th>Reason</th><th>Keyed digest of "
                                 "what went</th></tr>"),
                ledger.size(), [&](qsizetype i) {
                    const Redaction& x = ledger.at(i);
                    // One arg() with every value: chained, a path holding "%5" had the next value put into it.
                    return QStringLiteral("<tr><td>%1</td><td>%2</td><td>%3</td><td>%4 [%5, %6)</td><td>%7</td><td>%8</td></tr>")
                        .arg(QDateTime::fromMSecsSinceEpoch(x.atMs, Qt::UTC).toString(Qt::ISODate), esc(x.author),
                            QString::number(x.index), esc(x.path.isEmpty() ? QStringLiteral("the text") : x.path),
                            QString::number(x.start), QString::number(x.start + x.length), esc(x.reason),
                            x.digest.left(16) + QStringLiteral("…"));
                });
        }
        const JournalEntries journal = Journal(ws).entries(roomId);
        if (!journal.isEmpty()) {
            put(QStringLiteral("<h2>Edit journal</h2>"));
            table(QStringLiteral("<tr><th>When</th><th>Who</th><th>Event</th><th>What</th></tr>"), journal.size(),
                [&](qsizetype i) {
                    const JournalEntry& j = journal.at(i);
                    return QStringLiteral("<tr><td>%1</td><td>%2</td><td>%3</td><td>%4</td></tr>")
                        .arg(QDateTime::fromMSecsSinceEpoch(j.atMs, Qt::UTC).toString(Qt::ISODate), esc(j.author),
                            j.index ? QString::number(*j.index) : QStringLiteral("the room"), esc(Journal::describe(j)));
                });
        }
        put(QStringLiteral("</section>\n"));
    }
    put(QStringLiteral("</body></html>\n"));
    return total;
}
