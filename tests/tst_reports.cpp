// Reports: CSV parsed back to the rows it was made from (RFC 4180, formulas neutralised), Markdown with its
// facts and every hostile value shown as text, no redacted string in either, and a manifest whose verify passes
// on an untouched report and fails, naming the file, on one changed byte.

#include "annotationstore.h"
#include "callsalong.h"
#include "roomfields.h"
#include "storedtexts.h"
#include "csvreport.h"
#include "eventserializer.h"
#include "htmlreport.h"
#include "journal.h"
#include "markdownreport.h"
#include "pdfreport.h"
#include "roomkitstoregenerator.h"
#include "reportexport.h"
#include "reportpreview.h"
#include "reportmanifest.h"
#include "reportroom.h"
#include "sources/importer.h"
#include "testsupport.h"
#include "workspace.h"
#include "writebehind.h"

#include <QBuffer>
#include <QColor>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QXmlStreamReader>
#include <QTest>

using namespace TestSupport;

namespace {

// RFC 4180, as a spreadsheet reads it: quoted fields may hold commas, quotes (doubled) and line breaks.
QVector<QStringList> parseCsv(const QString& text)
{
    QVector<QStringList> rows;
    QStringList row;
    QString field;
    bool quoted = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (quoted) {
            if (c == QLatin1Char('"') && i + 1 < text.size() && text.at(i + 1) == QLatin1Char('"')) {
                field += c;
                ++i;
            } else if (c == QLatin1Char('"')) {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == QLatin1Char('"')) {
            quoted = true;
        } else if (c == QLatin1Char(',')) {
            row << field;
            field.clear();
        } else if (c == QLatin1Char('\r') && i + 1 < text.size() && text.at(i + 1) == QLatin1Char('\n')) {
            row << field;
            rows << row;
            row.clear();
            field.clear();
            ++i;
        } else {
            field += c;
        }
    }
    return rows;
}

QByteArray report(Workspace& ws, const ReportScope& scope, bool csv, qint64* count = nullptr)
{
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    const qint64 n = csv ? CsvReport::write(ws, scope, buffer) : MarkdownReport::write(ws, scope, buffer);
    if (count)
        *count = n;
    return buffer.data();
}

// A room as a reader of the workspace finds it, room by room: its fields, every event (the blocked ones too) with its
// derived columns, flags, payload and search text, every call and every run. What a lossless export must give back.
QMap<QString, QStringList> everything(Workspace& ws)
{
    QMap<QString, QStringList> rooms;
    for (const RoomSummary& r : ws.rooms()) {
        QStringList& out = rooms[r.nativeId];
        out << QStringList { r.title, r.status, r.owner, r.agentId, r.summary, QString::number(r.createdMicros),
            QString::number(r.eventCount), QString::number(r.blockedCount), QString::number(r.toolCalls),
            QString::number(r.failed), QString::number(r.refused), QString::number(r.unserved) }
                   .join(QLatin1Char('|'));
        EventFilter all;
        all.includeBlocked = true;
        PageRequest page;
        page.limit = 1000000;
        for (const EventRecord& e : ws.listEvents(r.id, all, page)) {
            QSqlQuery text = ws.exec(QStringLiteral("SELECT unpack(body), unpack(arguments), unpack(result) FROM search_text WHERE event_id = ?"), { e.rowId });
            const QString search = text.next() ? text.value(0).toString() + QLatin1Char('|') + text.value(1).toString()
                    + QLatin1Char('|') + text.value(2).toString()
                                               : QString();
            out << QString::fromUtf8(EventSerializer::eventJson(e)) + QLatin1Char('|') + QString::number(e.flags)
                    + QLatin1Char('|') + QString::number(e.createdMicros) + QLatin1Char('|') + e.parentId + QLatin1Char('|')
                    + e.role + QLatin1Char('|') + QString::fromLatin1(ws.payload(e.rowId).toBase64()) + QLatin1Char('|') + search;
        }
        for (const ToolCallRecord& c : ws.toolCalls(r.id))
            out << QString::fromUtf8(EventSerializer::callJson(c)) + QLatin1Char('|') + c.arguments + QLatin1Char('|') + c.result;
        for (const RunRecord& run : ws.runs(r.id)) {
            out << QStringList { run.groupId, run.kind, run.name, run.parentGroupId, QString::number(run.firstIndex.value_or(-1)),
                QString::number(run.lastIndex.value_or(-1)), QString::number(run.startMicros.value_or(-1)),
                QString::number(run.endMicros.value_or(-1)), run.outcome, run.detail, run.synthetic ? QStringLiteral("synthetic") : QString(),
                run.usageJson, run.interruptsJson }
                       .join(QLatin1Char('|'));
        }
    }
    return rooms;
}

// A PDF report of `scope` written to `path`, as pdftotext reads it with `options` (pages split by form feeds).
QString pdfText(Workspace& ws, const ReportScope& scope, const QString& path, const QStringList& options)
{
    QFile out(path);
    if (!out.open(QIODevice::WriteOnly))
        return {};
    PdfReport::write(ws, scope, out);
    out.close();
    QProcess text;
    text.start(QStandardPaths::findExecutable(QStringLiteral("pdftotext")), options + QStringList { path, QStringLiteral("-") });
    text.waitForFinished(60000);
    return QString::fromUtf8(text.readAllStandardOutput());
}

} // namespace

// A file that takes `room` bytes and then fails, as a full disk does.
class FullDevice : public QIODevice
{
public:
    explicit FullDevice(qint64 room)
        : m_room(room)
    {
        open(QIODevice::WriteOnly);
    }
    QByteArray written;

protected:
    qint64 readData(char*, qint64) override { return -1; }
    qint64 writeData(const char* data, qint64 size) override
    {
        if (written.size() + size > m_room) {
            setErrorString(QStringLiteral("No space left on device"));
            return -1;
        }
        written.append(data, size);
        return size;
    }

private:
    qint64 m_room;
};

class TestReports : public QObject
{
    Q_OBJECT

private slots:
    void writeBehindWritesInOrderAndSaysAFailure()
    {
        // The report's bytes reach the file in order, whole, over many chunks and writes of every size.
        QByteArray expected;
        QBuffer file;
        file.open(QIODevice::WriteOnly);
        {
            WriteBehind behind(file, 4096);
            for (int i = 0; i < 20000; ++i) {
                const QByteArray line = QByteArray::number(i).repeated(1 + i % 37) + '\n';
                QCOMPARE(behind.write(line), qint64(line.size()));
                expected += line;
            }
            QVERIFY(behind.finish());
        }
        QCOMPARE(file.data().size(), expected.size());
        QCOMPARE(file.data(), expected);
        // A file that fills up: the writes after it fail, nothing more is held, and finish() says why.
        FullDevice full(100000);
        WriteBehind behind(full, 4096);
        const QByteArray block(1000, 'x');
        int failedAt = -1;
        for (int i = 0; i < 1000 && failedAt < 0; ++i) {
            if (behind.write(block) < 0)
                failedAt = i;
        }
        QVERIFY2(failedAt > 0, "a write after the file filled up said nothing");
        QCOMPARE(behind.write(block), qint64(-1));
        QVERIFY(!behind.finish());
        QCOMPARE(behind.errorString(), QStringLiteral("No space left on device"));
        QVERIFY(full.written.size() <= 100000);
    }

    // What the report writers read beyond the read contract, in store/ (models/ writes no SQL): a room's calls by
    // each of their rows as the rows go by, an event's stored bytes and search text, a room's own fields.
    void callsAlongFindEachRowsCallInIndexOrder()
    {
        QTemporaryDir dir;
        auto ws = importFixture(dir, QStringLiteral("edge_cases.sqlite"));
        const qint64 room = ws->findRooms(QStringLiteral("edge-parallel-same-tool")).first();
        const ToolCallRecords calls = ws->toolCalls(room);
        QVERIFY(calls.size() >= 2);
        QMap<qint64, const ToolCallRecord*> byRow;
        for (const ToolCallRecord& c : calls) {
            for (const std::optional<qint64>& row : { c.startIndex, c.endIndex, c.resultIndex }) {
                if (row)
                    byRow.insert(*row, &c);
            }
        }
        CallsAlong along(*ws, room);
        int found = 0;
        for (qint64 index = 0; index <= ws->room(room)->eventCount; ++index) {
            const ToolCallRecord* call = along.at(index);
            const ToolCallRecord* expected = byRow.value(index);
            QCOMPARE(call != nullptr, expected != nullptr);
            if (call) {
                QCOMPARE(call->toolId, expected->toolId);
                QCOMPARE(call->startIndex, expected->startIndex);
                ++found;
            }
        }
        QCOMPARE(found, byRow.size());
    }

    void storedTextsAreAnEventsBytesAndSearchText()
    {
        QTemporaryDir dir;
        auto ws = importFixture(dir, QStringLiteral("support.sqlite"));
        const qint64 room = ws->findRooms(QStringLiteral("sup-duplicate-charge")).first();
        const EventRecords rows = ws->listEvents(room, {}, PageRequest { 5, 0, false, 5, {} });
        StoredTexts stored(*ws);
        for (const EventRecord& e : rows) {
            const std::optional<StoredTexts::Texts> texts = stored.of(e.rowId);
            QVERIFY(texts);
            QCOMPARE(texts->payload, ws->payload(e.rowId));
            QVERIFY(!texts->payload.isEmpty());
        }
        QVERIFY(!stored.of(-1));
        // A message's search body is its text.
        int messages = 0;
        for (const EventRecord& e : rows) {
            if (e.kind == EventKind::Message && !e.text.isEmpty()) {
                QCOMPARE(stored.of(e.rowId)->body, e.text);
                ++messages;
            }
        }
        QVERIFY(messages > 0);
    }

    void roomFieldsAreTheRoomsAndItsSources()
    {
        QTemporaryDir dir;
        auto ws = importFixture(dir, QStringLiteral("support.sqlite"));
        const qint64 room = ws->findRooms(QStringLiteral("sup-duplicate-charge")).first();
        const std::optional<RoomFields> r = RoomFields::read(*ws, room);
        QVERIFY(r);
        QCOMPARE(r->room.nativeId, QStringLiteral("sup-duplicate-charge"));
        QCOMPARE(r->room.title, ws->room(room)->title);
        QCOMPARE(r->sourceSystem, QStringLiteral("roomkit"));
        QVERIFY(r->sourceFormat.startsWith(QLatin1String("roomkit.sqlite.v")));
        QVERIFY(r->sourceOrigin.endsWith(QLatin1String("support.sqlite")));
        QVERIFY(r->room.nativeJson.startsWith('{'));
        QVERIFY(r->room.createdMicros > 0);
        QVERIFY(!RoomFields::read(*ws, -1));
    }

    void csvParsesBackToTheRows()
    {
        QTemporaryDir dir;
        auto ws = importFixture(dir, QStringLiteral("support.sqlite"));
        const qint64 room = ws->findRooms(QStringLiteral("sup-duplicate-charge")).first();
        AnnotationStore store(*ws);
        // Hostile and awkward values: a formula, a quote, a comma and a line break, a label and a note.
        store.editText(room, 4, QStringLiteral("=HYPERLINK(\"http://evil\",\"click\")"), QStringLiteral("ana"));
        store.editText(room, 5, QStringLiteral("He said \"no\", then\nleft"), QStringLiteral("ana"));
        store.addLabel(room, 5, QStringLiteral("pii"), QStringLiteral("ana"));
        store.addNote(room, 5, QStringLiteral("call back"), QStringLiteral("ana"));
        store.setMarked(room, 8, true, QStringLiteral("ana"));
        store.redact(room, 8, QStringLiteral("$.content.body"), 0, 5, QStringLiteral("personal data"), QStringLiteral("ana"));
        const QString removed = QStringLiteral("I can");
        ReportScope scope;
        scope.roomIds = { room };
        qint64 count = 0;
        const QByteArray bytes = report(*ws, scope, true, &count);
        QVERIFY(bytes.endsWith("\r\n"));
        const QVector<QStringList> rows = parseCsv(QString::fromUtf8(bytes));
        QCOMPARE(rows.first(), CsvReport::header());
        QCOMPARE(rows.size() - 1, count);
        QCOMPARE(count, ws->countEvents(room, &scope.filter)); // the rows `events` lists: blocked ones hidden
        const int text = int(CsvReport::header().indexOf(QStringLiteral("text")));
        const int index = int(CsvReport::header().indexOf(QStringLiteral("index")));
        QHash<qint64, QStringList> byIndex;
        for (const QStringList& r : rows.mid(1)) {
            QCOMPARE(r.size(), CsvReport::header().size());
            byIndex.insert(r.at(index).toLongLong(), r);
        }
        QCOMPARE(byIndex.value(4).at(text), QStringLiteral("'=HYPERLINK(\"http://evil\",\"click\")")); // text, never a formula
        QCOMPARE(byIndex.value(5).at(text), QStringLiteral("He said \"no\", then\nleft"));
        const QStringList& five = byIndex.value(5);
        QCOMPARE(five.at(int(CsvReport::header().indexOf(QStringLiteral("labels")))), QStringLiteral("pii"));
        const QString note = five.at(int(CsvReport::header().indexOf(QStringLiteral("notes"))));
        QVERIFY2(note.startsWith(QLatin1String("ana (")) && note.endsWith(QLatin1String("): call back")), qPrintable(note));
        QCOMPARE(five.at(int(CsvReport::header().indexOf(QStringLiteral("edited")))), QStringLiteral("yes"));
        QCOMPARE(byIndex.value(8).at(int(CsvReport::header().indexOf(QStringLiteral("marked")))), QStringLiteral("yes"));
        QCOMPARE(byIndex.value(8).at(int(CsvReport::header().indexOf(QStringLiteral("redacted")))), QStringLiteral("yes"));
        QVERIFY(!bytes.contains(QByteArray(removed.toUtf8() + " see")));
        QVERIFY(byIndex.value(8).at(text).startsWith(QLatin1String("[redacted: personal data]")));
        // A tool row says how its call went: the refused refund's start and end both carry its outcome, its
        // duration and the error the hook gave.
        auto column = [](const char* name) { return int(CsvReport::header().indexOf(QLatin1String(name))); };
        for (qint64 at : { 16, 17 }) {
            QCOMPARE(byIndex.value(at).at(column("outcome")), QStringLiteral("refused"));
            QCOMPARE(byIndex.value(at).at(column("duration_ms")), QStringLiteral("2"));
            QVERIFY(byIndex.value(at).at(column("error")).contains(QLatin1String("denied by pre-execution hook")));
        }
        QCOMPARE(byIndex.value(5).at(column("role")), QStringLiteral("assistant"));
        // A cell that starts with any of the spreadsheet's formula characters.
        for (const QString& risky : { QStringLiteral("=1+1"), QStringLiteral("+1"), QStringLiteral("-1"),
                 QStringLiteral("@SUM(A1)"), QStringLiteral("\t=1"), QStringLiteral("\r=1") })
            QVERIFY2(CsvReport::cell(risky).remove(QLatin1Char('"')).startsWith(QLatin1Char('\'')), qPrintable(risky));
    }

    void markdownHoldsTheFactsAndNoMarkup()
    {
        QTemporaryDir dir;
        auto ws = importFixture(dir, QStringLiteral("support.sqlite"));
        const qint64 room = ws->findRooms(QStringLiteral("sup-duplicate-charge")).first();
        AnnotationStore store(*ws);
        store.editText(room, 4, QStringLiteral("<script>alert(1)</script> \"><img onerror=x> ```"), QStringLiteral("ana"));
        store.addNote(room, std::nullopt, QStringLiteral("refund approved"), QStringLiteral("ben"));
        store.setReview(room, ReviewStatus::Done, QStringLiteral("ben"));
        store.redact(room, 8, QStringLiteral("$.content.body"), 0, 5, QStringLiteral("personal data"), QStringLiteral("ana"));
        ReportScope scope;
        scope.roomIds = { room };
        scope.author = QStringLiteral("ben");
        scope.version = QStringLiteral("9.9");
        qint64 count = 0;
        const QString md = QString::fromUtf8(report(*ws, scope, false, &count));
        QCOMPARE(count, ws->countEvents(room, &scope.filter));
        QVERIFY(md.startsWith(QLatin1String("# Room sup-duplicate-charge\n")));
        QVERIFY(md.contains(QLatin1String("Generated ")) && md.contains(QLatin1String("by ben with Sightline 9.9")));
        QVERIFY(md.contains(QStringLiteral("%1 events").arg(count)));
        QVERIFY(md.contains(QLatin1String("Review: done (ben)")));
        // Every call of the room as a block, with its outcome (the refused refund among them).
        for (const ToolCallRecord& c : ws->toolCalls(room))
            QVERIFY2(md.contains(QStringLiteral("**%1** · %2").arg(MarkdownReport::escaped(c.toolName), Outcomes::name(c.outcome))), qPrintable(c.toolName));
        QVERIFY(md.contains(QLatin1String("\"order_id\": \"A-10533\"")));
        // Hostile text shows as text: no tag, and the code blocks cannot be closed by it.
        QVERIFY(!md.contains(QLatin1String("<script>")));
        QVERIFY(!md.contains(QLatin1String("<img")));
        QVERIFY(md.contains(QLatin1String("&lt;script&gt;")));
        QCOMPARE(MarkdownReport::codeBlock(QStringLiteral("a ```` b"), QStringLiteral("json")).left(6), QStringLiteral("`````j"));
        // Notes, the ledger and the journal; never the redacted text.
        QVERIFY(md.contains(QLatin1String("## Notes on the room")) && md.contains(QLatin1String("refund approved")));
        QVERIFY(md.contains(QLatin1String("## Redactions")) && md.contains(QLatin1String("personal data")));
        QVERIFY(md.contains(QLatin1String("## Edit journal")));
        QVERIFY(!md.contains(QLatin1String("I can see two")));
    }

    // HTML: one file, well-formed (an XML parser reads it whole), every hostile value text, cards that open without
    // script, the chart and the per-tool table; PDF: what pdftotext reads of it, a page number on every page.
    void htmlAndPdf()
    {
        QTemporaryDir dir;
        auto ws = importFixture(dir, QStringLiteral("support.sqlite"));
        const qint64 room = ws->findRooms(QStringLiteral("sup-duplicate-charge")).first();
        AnnotationStore store(*ws);
        const QString hostile = QStringLiteral("<script>alert(1)</script> \"><img src=x onerror=alert(2)> </details>");
        store.editText(room, 4, hostile, QStringLiteral("ana"));
        store.addLabel(room, 4, QStringLiteral("pii"), QStringLiteral("ana"));
        store.redact(room, 8, QStringLiteral("$.content.body"), 0, 5, QStringLiteral("personal data"), QStringLiteral("ana"));
        ReportScope scope;
        scope.roomIds = { room };
        scope.author = QStringLiteral("ben");
        scope.version = QStringLiteral("9.9");
        QBuffer html;
        html.open(QIODevice::WriteOnly);
        const qint64 count = HtmlReport::write(*ws, scope, html, {});
        QCOMPARE(count, ws->countEvents(room, &scope.filter));
        // Well-formed: every value escaped, so the hostile text is text inside one element.
        QXmlStreamReader xml(html.data());
        int details = 0, scripts = 0, images = 0, fetches = 0;
        QString shown;
        while (!xml.atEnd()) {
            if (xml.readNext() != QXmlStreamReader::StartElement)
                continue;
            details += xml.name() == QLatin1String("details");
            scripts += xml.name() == QLatin1String("script");
            images += xml.name() == QLatin1String("img");
            // Nothing fetched: no element names a file or an address to load.
            fetches += xml.name() == QLatin1String("link") || xml.attributes().hasAttribute(QLatin1String("src"))
                || xml.attributes().hasAttribute(QLatin1String("href"));
            if (xml.name() == QLatin1String("div") && xml.attributes().value(QLatin1String("class")) == QLatin1String("text")) {
                const QString text = xml.readElementText(QXmlStreamReader::IncludeChildElements);
                if (text.contains(QLatin1String("alert")))
                    shown = text;
            }
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString() + QStringLiteral(" at line %1").arg(xml.lineNumber())));
        QCOMPARE(scripts, 0);
        QCOMPARE(images, 0);
        QCOMPARE(shown, hostile);
        QCOMPARE(details, int(ws->toolCalls(room).size())); // every call a card
        const QString page = QString::fromUtf8(html.data());
        QVERIFY(!page.contains(QLatin1String("<details class=\"call served\" open")));
        QVERIFY(page.contains(QLatin1String("<svg")) && page.contains(QLatin1String("aria-label=\"tool calls by outcome\"")));
        QVERIFY(page.contains(QLatin1String("<td>issue_refund</td><td>2</td><td>1</td>")));
        // Durations per tool as bars: the median, the 95th percentile and the longest of each tool's calls.
        QVERIFY(page.contains(QLatin1String("aria-label=\"durations per tool: median, 95th percentile and longest\"")));
        int timed = 0;
        const std::optional<ReportRoom> summary = ReportRoom::read(*ws, room);
        QVERIFY(summary);
        for (const ReportRoom::Tool& t : summary->tools) {
            if (!t.max)
                continue;
            ++timed;
            QVERIFY2(page.contains(QStringLiteral("p50 %1 · p95 %2 · max %3 ms").arg(*t.p50).arg(*t.p95).arg(*t.max)), qPrintable(t.name));
        }
        QVERIFY(timed > 0);
        QCOMPARE(fetches, 0);
        // The summary says what the filter let through, and the room's calls for what they are: the room's.
        QVERIFY(page.contains(QStringLiteral("%1 events: ").arg(count)));
        QVERIFY(page.contains(QLatin1String("The room's tool calls, whatever the filter: 4 (1 refused, 3 served).")));
        QVERIFY(page.contains(QLatin1String("<dt>Review</dt><dd>unreviewed</dd>")));
        QVERIFY(!page.contains(QLatin1String("I can see two")));
        QBuffer opened;
        opened.open(QIODevice::WriteOnly);
        HtmlReport::Options expanded;
        expanded.expanded = true;
        HtmlReport::write(*ws, scope, opened, expanded);
        QVERIFY(opened.data().contains("open=\"open\""));

        const QString pdf = dir.filePath(QStringLiteral("report.pdf"));
        QFile out(pdf);
        QVERIFY(out.open(QIODevice::WriteOnly));
        QCOMPARE(PdfReport::write(*ws, scope, out), count);
        out.close();
        const QString pdftotext = QStandardPaths::findExecutable(QStringLiteral("pdftotext"));
        QVERIFY2(!pdftotext.isEmpty(), "pdftotext (poppler-utils, which packaging/install-deps.sh installs) is needed");
        QProcess text;
        text.start(pdftotext, { QStringLiteral("-layout"), pdf, QStringLiteral("-") });
        QVERIFY(text.waitForFinished(30000));
        const QString read = QString::fromUtf8(text.readAllStandardOutput());
        QVERIFY(read.contains(QLatin1String("Room sup-duplicate-charge")));
        QVERIFY(read.contains(QLatin1String("Sightline report")));
        QVERIFY(read.contains(QLatin1String("Durations per tool")));
        for (const ToolCallRecord& c : ws->toolCalls(room))
            QVERIFY2(read.contains(c.toolName), qPrintable(c.toolName));
        QVERIFY(read.contains(QLatin1String("A-10533")));
        QVERIFY(read.contains(QLatin1String("<script>alert(1)</script>"))); // shown as the text it is
        QVERIFY(!read.contains(QLatin1String("I can see two")));
        const int pages = int(read.count(QLatin1Char('\f'))) + (read.endsWith(QLatin1Char('\f')) ? 0 : 1);
        QVERIFY(pages >= 2);
        QVERIFY2(read.contains(QStringLiteral("Page %1 of %1").arg(pages)), qPrintable(read.right(300)));
    }

    // Data with "%1"-like text in it (a reviewer's name, a reason): the redaction ledger of HTML and Markdown shows
    // it as it is; chained arg() calls put the next value into it ("$.discount%5" came out "$.discount3").
    void percentSignsInDataStayAsTheyAre()
    {
        QTemporaryDir dir;
        auto ws = importFixture(dir, QStringLiteral("support.sqlite"));
        const qint64 room = ws->findRooms(QStringLiteral("sup-duplicate-charge")).first();
        AnnotationStore(*ws).redact(room, 8, QStringLiteral("$.content.body"), 0, 5, QStringLiteral("card %1 or %2 on file"),
            QStringLiteral("ana%3"));
        ReportScope scope;
        scope.roomIds = { room };
        for (const QString& format : { QStringLiteral("md"), QStringLiteral("html") }) {
            QBuffer out;
            out.open(QIODevice::WriteOnly);
            ReportExport::write(*ws, scope, format, false, out);
            const QString text = QString::fromUtf8(out.data());
            // The ledger's row: who, the event, where, why, each in its own cell.
            const QString row = format == QLatin1String("md")
                ? QStringLiteral("| ana%3 | 8 | $.content.body [0, 5) | card %1 or %2 on file |")
                : QStringLiteral("<td>ana%3</td><td>8</td><td>$.content.body [0, 5)</td><td>card %1 or %2 on file</td>");
            QVERIFY2(text.contains(row), qPrintable(format + QLatin1Char('\n') + text.right(1500)));
        }
    }

    // A right-to-left override makes "invoice <RLO>fdp.exe" read as "invoice exe.pdf"; a NUL hides what follows it
    // in many viewers. Every report a person reads writes them as their code point; JSON Lines keeps them as data.
    void bidiOverridesAndNulAreShown()
    {
        QTemporaryDir dir;
        auto ws = importFixture(dir, QStringLiteral("support.sqlite"));
        const qint64 room = ws->findRooms(QStringLiteral("sup-duplicate-charge")).first();
        const QString hostile = QStringLiteral("invoice ") + QChar(0x202E) + QStringLiteral("fdp.exe and") + QChar(0)
            + QStringLiteral("hidden");
        AnnotationStore(*ws).editText(room, 4, hostile, QStringLiteral("ana"));
        ReportScope scope;
        scope.roomIds = { room };
        for (const QString& format : { QStringLiteral("csv"), QStringLiteral("md"), QStringLiteral("html") }) {
            QBuffer out;
            out.open(QIODevice::WriteOnly);
            ReportExport::write(*ws, scope, format, false, out);
            const QString text = QString::fromUtf8(out.data());
            // (Markdown escapes the brackets, which it shows as brackets.)
            const QString shown = format == QLatin1String("md") ? QStringLiteral("invoice \\[U+202E\\]fdp.exe and\\[U+0000\\]hidden")
                                                                : QStringLiteral("invoice [U+202E]fdp.exe and[U+0000]hidden");
            QVERIFY2(text.contains(shown), qPrintable(format));
            QVERIFY2(!text.contains(QChar(0x202E)) && !text.contains(QChar(0)), qPrintable(format));
        }
        const QString pdf = dir.filePath(QStringLiteral("bidi.pdf"));
        ReportExport::run(*ws, scope, QStringLiteral("pdf"), false, pdf);
        QProcess text;
        text.start(QStandardPaths::findExecutable(QStringLiteral("pdftotext")), { pdf, QStringLiteral("-") });
        QVERIFY(text.waitForFinished(60000));
        QVERIFY(QString::fromUtf8(text.readAllStandardOutput()).contains(QLatin1String("[U+202E]fdp.exe")));
        QBuffer jsonl;
        jsonl.open(QIODevice::WriteOnly);
        ReportExport::write(*ws, scope, QStringLiteral("jsonl"), false, jsonl);
        QVERIFY(QString::fromUtf8(jsonl.data()).contains(QChar(0x202E))); // lossless
    }

    // A fetched web page of 2 MB with no line break, as a call's result and as a message: on paper each is cut at a
    // few pages' worth and says how much more the JSON Lines report holds (the PDF took 3 minutes and 375 pages);
    // the HTML and the JSON Lines report keep it whole.
    void aValueTooLongForPaperIsCut()
    {
        QTemporaryDir dir;
        const QString thread = dir.filePath(QStringLiteral("th_big.jsonl"));
        QString page;
        page.reserve(2 * 1024 * 1024);
        while (page.size() < 2 * 1024 * 1024)
            page += QStringLiteral("lorem<ipsum&dolor\"sit") + QString::number(page.size());
        {
            QFile f(thread);
            QVERIFY(f.open(QIODevice::WriteOnly));
            auto line = [&f](const QJsonObject& o) { f.write(QJsonDocument(o).toJson(QJsonDocument::Compact) + '\n'); };
            line({ { QStringLiteral("type"), QStringLiteral("RUN_STARTED") }, { QStringLiteral("runId"), QStringLiteral("r1") },
                { QStringLiteral("threadId"), QStringLiteral("th_big") }, { QStringLiteral("timestamp"), 1784016877000LL } });
            line({ { QStringLiteral("type"), QStringLiteral("TOOL_CALL_START") }, { QStringLiteral("toolCallId"), QStringLiteral("c1") },
                { QStringLiteral("toolCallName"), QStringLiteral("fetch") }, { QStringLiteral("timestamp"), 1784016877400LL } });
            line({ { QStringLiteral("type"), QStringLiteral("TOOL_CALL_END") }, { QStringLiteral("toolCallId"), QStringLiteral("c1") },
                { QStringLiteral("timestamp"), 1784016877600LL } });
            line({ { QStringLiteral("type"), QStringLiteral("TOOL_CALL_RESULT") }, { QStringLiteral("toolCallId"), QStringLiteral("c1") },
                { QStringLiteral("messageId"), QStringLiteral("c1-result") }, { QStringLiteral("content"), page },
                { QStringLiteral("timestamp"), 1784016878000LL } });
            line({ { QStringLiteral("role"), QStringLiteral("assistant") }, { QStringLiteral("type"), QStringLiteral("TEXT_MESSAGE_START") },
                { QStringLiteral("messageId"), QStringLiteral("a1") }, { QStringLiteral("timestamp"), 1784016879000LL } });
            line({ { QStringLiteral("type"), QStringLiteral("TEXT_MESSAGE_CONTENT") }, { QStringLiteral("messageId"), QStringLiteral("a1") },
                { QStringLiteral("delta"), page }, { QStringLiteral("timestamp"), 1784016879100LL } });
            line({ { QStringLiteral("type"), QStringLiteral("TEXT_MESSAGE_END") }, { QStringLiteral("messageId"), QStringLiteral("a1") },
                { QStringLiteral("timestamp"), 1784016879200LL } });
        }
        Workspace ws(dir.filePath(QStringLiteral("big.sightline")));
        Importer::import(ws, thread);
        ReportScope scope;
        scope.roomIds = { ws.findRooms(QStringLiteral("th_big")).first() };
        const QString pdf = dir.filePath(QStringLiteral("big.pdf"));
        ReportExport::run(ws, scope, QStringLiteral("pdf"), false, pdf);
        QProcess text;
        text.start(QStandardPaths::findExecutable(QStringLiteral("pdftotext")), { pdf, QStringLiteral("-") });
        QVERIFY(text.waitForFinished(60000));
        const QString read = QString::fromUtf8(text.readAllStandardOutput());
        const QString more = QString::number(page.size() - ReportRoom::PaperLimit)
            + QStringLiteral(" more characters: whole in the JSON Lines report");
        QVERIFY2(read.count(more) == 2, qPrintable(read.split(QLatin1Char(QChar::LineFeed)).filter(QStringLiteral("more characters")).join(QLatin1Char(QChar::LineFeed)))); // the result and the message
        QVERIFY(read.contains(QLatin1String("lorem<ipsum&dolor")));
        const int pages = int(read.count(QLatin1Char('\f')));
        QVERIFY2(pages <= 8, qPrintable(QString::number(pages)));
        // Whole where there is no paper.
        const QString jsonl = dir.filePath(QStringLiteral("big.jsonl"));
        ReportExport::run(ws, scope, QStringLiteral("jsonl"), false, jsonl);
        QVERIFY(fileBytes(jsonl).contains(page.mid(page.lastIndexOf(QLatin1String("sit"))).toUtf8())); // its very end
        QVERIFY(!fileBytes(jsonl).contains("more characters: whole in"));
    }

    // Every room in one PDF: each page's header names the rooms on it, and a card never starts on one page and ends
    // on the next (a page starts with a card's head, never inside its JSON).
    void aPdfOfEveryRoomNamesItsRoomsAndKeepsCardsWhole()
    {
        QTemporaryDir dir;
        auto ws = importFixture(dir, QStringLiteral("support.sqlite"));
        ReportScope scope;
        // Every room whose cards each fit on a page (the order history export's result runs over two pages,
        // and a card that long is cut where the page ends).
        QStringList headings;
        QHash<QString, QString> names; // a heading, and what the page header calls its room: its title, else its id
        for (const RoomSummary& r : ws->rooms()) {
            if (r.nativeId == QLatin1String("sup-order-history-export"))
                continue;
            scope.roomIds << r.id;
            headings << QStringLiteral("Room ") + r.nativeId;
            names.insert(headings.last(), r.name().normalized(QString::NormalizationForm_KC));
        }
        const QString pdf = dir.filePath(QStringLiteral("all.pdf"));
        QFile out(pdf);
        QVERIFY(out.open(QIODevice::WriteOnly));
        PdfReport::write(*ws, scope, out);
        out.close();
        QProcess text;
        text.start(QStandardPaths::findExecutable(QStringLiteral("pdftotext")), { pdf, QStringLiteral("-") });
        QVERIFY(text.waitForFinished(30000));
        // NFKC: the fonts' ligatures (ﬀ in "handoff") read as their letters.
        QStringList pages = QString::fromUtf8(text.readAllStandardOutput()).normalized(QString::NormalizationForm_KC).split(QLatin1Char('\f'));
        if (pages.last().trimmed().isEmpty())
            pages.removeLast();
        QVERIFY(pages.size() > scope.roomIds.size());
        QString current;
        int cardsStarted = 0;
        for (int i = 0; i < pages.size(); ++i) {
            QStringList lines;
            for (const QString& l : pages[i].split(QLatin1Char('\n'))) {
                if (!l.trimmed().isEmpty())
                    lines << l.trimmed();
            }
            QVERIFY(lines.size() > 2);
            const QString header = lines.first();
            QVERIFY2(header.startsWith(QStringLiteral("Sightline report · ")), qPrintable(header));
            const QStringList named = header.mid(19).split(QStringLiteral(", "));
            // The room a page goes on with, and every room that starts on it.
            QStringList expected;
            const QStringList body = lines.mid(1);
            if (!headings.contains(body.first()))
                expected << current;
            for (const QString& l : body) {
                if (headings.contains(l)) {
                    expected << names.value(l);
                    current = names.value(l);
                }
            }
            QVERIFY2(named == expected, qPrintable(QStringLiteral("page %1: %2 / %3").arg(i + 1).arg(named.join(QLatin1Char('|')), expected.join(QLatin1Char('|')))));
            const QString first = body.first();
            for (const char* inside : { "\"", "}", "]", "Result", "Arguments" })
                QVERIFY2(!first.startsWith(QLatin1String(inside)), qPrintable(QStringLiteral("page %1 starts inside a card: %2").arg(i + 1).arg(first)));
            if (first.contains(QStringLiteral(" · served · ")))
                ++cardsStarted;
        }
        QVERIFY(cardsStarted > 0); // cards that would have straddled a page start the next one
    }

    // A room is named as a person calls it: a thread's pages say its title (its first user message), not its id.
    void aPdfNamesItsRoomByItsTitle()
    {
        QTemporaryDir dir;
        Workspace ws(dir.filePath(QStringLiteral("titled.sightline")));
        Importer::import(ws, dataFile(QStringLiteral("agui/threads/sam.ng__th_z0ty1x96ffscr9je4q57.jsonl")));
        const RoomSummary room = ws.rooms().first();
        QVERIFY(!room.title.isEmpty() && room.name() == room.title);
        ReportScope scope;
        scope.roomIds << room.id;
        const QString first = pdfText(ws, scope, dir.filePath(QStringLiteral("titled.pdf")), { QStringLiteral("-l"), QStringLiteral("1") })
                                  .section(QLatin1Char('\n'), 0, 0);
        QVERIFY2(first.startsWith(QStringLiteral("Sightline report · ") + room.title.left(20)), qPrintable(first));
        QVERIFY2(!first.contains(room.nativeId), qPrintable(first));
    }

    // A message's header line never ends a page with its text on the next, nor a heading its section's: each moves to
    // the next page with what follows it. A generated room of a thousand events, some hundred pages.
    void aPdfKeepsHeadersWithWhatFollows()
    {
        QTemporaryDir dir;
        const QString store = dir.filePath(QStringLiteral("pages.sqlite"));
        RoomKitStoreGenerator::write(store, 2200, 2, 0.5, 11);
        Workspace ws(dir.filePath(QStringLiteral("pages.sightline")));
        Importer::import(ws, store);
        ReportScope scope;
        scope.roomIds << ws.findRooms(QStringLiteral("room-big")).first();
        QStringList pages = pdfText(ws, scope, dir.filePath(QStringLiteral("pages.pdf")), { QStringLiteral("-layout") })
                                .split(QLatin1Char('\f'));
        if (pages.last().trimmed().isEmpty())
            pages.removeLast();
        QVERIFY2(pages.size() > 20, qPrintable(QString::number(pages.size())));
        // A message's header: "12 · 2026-03-02T06:03:03.259447Z · message · ai-assistant".
        static const QRegularExpression header(QStringLiteral("^\\d+ · \\d{4}-\\d\\d-\\d\\dT"));
        static const QStringList headings { QStringLiteral("Summary"), QStringLiteral("Timeline"), QStringLiteral("Notes on the room") };
        int headersSeen = 0;
        for (int i = 0; i + 1 < pages.size(); ++i) {
            QStringList lines;
            for (const QString& l : pages[i].split(QLatin1Char('\n'))) {
                if (!l.trimmed().isEmpty() && !l.trimmed().startsWith(QLatin1String("Page ")))
                    lines << l.trimmed();
            }
            for (const QString& l : lines)
                headersSeen += header.match(l).hasMatch() ? 1 : 0;
            const QString last = lines.last();
            QVERIFY2(!header.match(last).hasMatch(), qPrintable(QStringLiteral("page %1 ends with a header: %2").arg(i + 1).arg(last)));
            QVERIFY2(!headings.contains(last), qPrintable(QStringLiteral("page %1 ends with a heading: %2").arg(i + 1).arg(last)));
        }
        QVERIFY(headersSeen > 200);
    }

    void jsonLinesOpenAgainAsTheSameEvents_data()
    {
        QTest::addColumn<QString>("source");
        QTest::newRow("roomkit") << QStringLiteral("roomkit/support.sqlite");
        QTest::newRow("roomkit edge cases") << QStringLiteral("roomkit/edge_cases.sqlite");
        QTest::newRow("agui") << QStringLiteral("agui/threads");
        QTest::newRow("craftbot") << QStringLiteral("craftbot/EVENT.md");
        QTest::newRow("craftbot sessions") << QStringLiteral("craftbot/sessions.db");
    }

    void jsonLinesOpenAgainAsTheSameEvents()
    {
        QFETCH(QString, source);
        QTemporaryDir dir;
        Workspace ws(dir.filePath(QStringLiteral("original.sightline")));
        Importer::import(ws, dataFile(source));
        const RoomSummaries rooms = ws.rooms();
        QVERIFY(!rooms.isEmpty());
        // A reviewer's work goes with it: a redacted string is in no line of the report.
        const qint64 first = rooms.first().id;
        const QByteArray payload = ws.payload(ws.listEvents(first, {}, {}).first().rowId);
        AnnotationStore store(ws);
        const qint64 firstIndex = ws.listEvents(first, {}, {}).first().index;
        store.addNote(first, firstIndex, QStringLiteral("seen"), QStringLiteral("ana"));
        store.addLabel(first, firstIndex, QStringLiteral("pii"), QStringLiteral("ana"));
        store.setMarked(first, firstIndex, true, QStringLiteral("bo"));
        store.addNote(first, std::nullopt, QStringLiteral("the whole room, looked at"), QStringLiteral("bo"));
        store.setReview(first, ReviewStatus::Done, QStringLiteral("bo"));
        store.save();
        ReportScope scope;
        for (const RoomSummary& r : rooms)
            scope.roomIds << r.id;
        scope.filter.includeBlocked = true;
        scope.filterText = QStringLiteral("blocked:include");
        const QString path = dir.filePath(QStringLiteral("everything.jsonl"));
        const ReportExport::Result written = ReportExport::run(ws, scope, QStringLiteral("jsonl"), false, path);
        qint64 total = 0;
        for (const RoomSummary& r : rooms)
            total += r.eventCount;
        QCOMPARE(written.events, total);
        QVERIFY(ReportManifest::verify(path).ok);
        QCOMPARE(Importer::detect(path), Importer::Format::SightlineJsonl);

        // Opened again as a source: the same rooms, events, payloads, search text, calls and runs.
        Workspace again(dir.filePath(QStringLiteral("again.sightline")));
        const ImportReport report = Importer::import(again, path);
        QVERIFY2(report.problems.isEmpty(), qPrintable(report.problems.join(QLatin1Char('\n'))));
        const QMap<QString, QStringList> before = everything(ws);
        const QMap<QString, QStringList> after = everything(again);
        QCOMPARE(after.keys(), before.keys());
        for (const QString& room : before.keys()) {
            const QStringList& a = before.value(room);
            const QStringList& b = after.value(room);
            QCOMPARE(b.size(), a.size());
            for (int i = 0; i < a.size(); ++i)
                QCOMPARE(b.at(i), a.at(i));
        }
        // The review came with it (a report that lost it was not lossless): notes, the label with a colour, the mark,
        // the review status and the journal, each by its author and time, saved; read again, none twice.
        const auto review = [](Workspace& w, qint64 roomId) {
            QStringList out;
            for (const Annotation& a : AnnotationStore(w).annotations(roomId))
                out << QStringLiteral("%1|%2|%3|%4|%5|%6").arg(Annotation::kindName(a.kind), a.index ? QString::number(*a.index) : QStringLiteral("room"), a.value, a.author).arg(a.atMs).arg(a.saved);
            for (const JournalEntry& j : Journal(w).entries(roomId))
                out << QStringLiteral("%1|%2|%3|%4|%5|%6").arg(j.action, j.index ? QString::number(*j.index) : QStringLiteral("room"), j.before, j.after, j.author).arg(j.atMs);
            return out;
        };
        const qint64 firstAgain = again.findRooms(rooms.first().nativeId).value(0);
        QVERIFY(firstAgain != 0);
        const QStringList reviewed = review(ws, first);
        QCOMPARE(reviewed.size(), 10);
        QCOMPARE(review(again, firstAgain), reviewed);
        QCOMPARE(AnnotationStore(again).review(firstAgain)->value, ReviewStatus::Done);
        QVERIFY(QColor(AnnotationStore(again).labelColors().value(QStringLiteral("pii"))).isValid());
        QCOMPARE(AnnotationStore(again).unsavedChanges(), 0);
        {
            Workspace third(dir.filePath(QStringLiteral("third.sightline")));
            Importer::import(third, path);
            Importer::import(third, path);
            QCOMPARE(review(third, third.findRooms(rooms.first().nativeId).value(0)), reviewed);
        }
        // Every line is one JSON object that says what it is; the note is among them.
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QSet<QString> records;
        while (!file.atEnd()) {
            const QJsonObject o = QJsonDocument::fromJson(file.readLine()).object();
            QVERIFY(!o.isEmpty());
            records << o.value(QLatin1String("record")).toString();
            if (o.value(QLatin1String("record")).toString() == QLatin1String("annotation") && o.value(QLatin1String("kind")).toString() == QLatin1String("note") && !o.value(QLatin1String("index")).isNull())
                QCOMPARE(o.value(QLatin1String("value")).toString(), QStringLiteral("seen"));
        }
        QVERIFY(records.contains(QStringLiteral("report")) && records.contains(QStringLiteral("room"))
            && records.contains(QStringLiteral("event")) && records.contains(QStringLiteral("annotation")));
        QVERIFY(!payload.isEmpty());
    }

    // A JSON Lines report opened again, the import killed at a random moment and run again: the same workspace as one
    // clean import of it.
    void aKilledImportOfJsonLinesEndsAsACleanOne()
    {
        QTemporaryDir dir;
        Workspace ws(dir.filePath(QStringLiteral("original.sightline")));
        Importer::import(ws, dataFile(QStringLiteral("agui/threads")));
        // A review in every room (notes on its first and last rows and on the room, a label, its status), so that a
        // kill lands between a row and its note: the report's review comes back whole, once.
        AnnotationStore store(ws);
        for (const RoomSummary& r : ws.rooms()) {
            PageRequest all;
            all.limit = 100000;
            const EventRecords rows = ws.listEvents(r.id, {}, all);
            store.addNote(r.id, rows.first().index, QStringLiteral("first of ") + r.nativeId, QStringLiteral("ana"));
            store.addNote(r.id, rows.last().index, QStringLiteral("last of ") + r.nativeId, QStringLiteral("ana"));
            store.addLabel(r.id, rows.last().index, QStringLiteral("checked"), QStringLiteral("bo"));
            store.addNote(r.id, std::nullopt, QStringLiteral("the room"), QStringLiteral("bo"));
            store.setReview(r.id, ReviewStatus::Done, QStringLiteral("bo"));
        }
        store.save();
        const auto review = [](Workspace& w) {
            QStringList out;
            for (const RoomSummary& r : w.rooms()) {
                for (const Annotation& a : AnnotationStore(w).annotations(r.id))
                    out << QStringLiteral("%1|%2|%3|%4|%5").arg(r.nativeId, Annotation::kindName(a.kind), a.index ? QString::number(*a.index) : QStringLiteral("room"), a.value, a.author);
                for (const JournalEntry& j : Journal(w).entries(r.id))
                    out << QStringLiteral("%1|%2|%3|%4").arg(r.nativeId, j.action, j.index ? QString::number(*j.index) : QStringLiteral("room"), j.after);
            }
            out.sort();
            return out;
        };
        ReportScope scope;
        for (const RoomSummary& r : ws.rooms())
            scope.roomIds << r.id;
        scope.filter.includeBlocked = true;
        const QString path = dir.filePath(QStringLiteral("threads.jsonl"));
        ReportExport::run(ws, scope, QStringLiteral("jsonl"), false, path);
        const QString clean = dir.filePath(QStringLiteral("clean.sightline"));
        {
            Workspace once(clean);
            Importer::import(once, path);
        }
        Workspace once(clean);
        const QMap<QString, QStringList> expected = everything(once);
        const QStringList reviewed = review(once);
        QCOMPARE(reviewed, review(ws));
        int killed = 0;
        for (int round = 0; round < 8; ++round) {
            const QString again = dir.filePath(QStringLiteral("again-%1.sightline").arg(round));
            killed += importKilledMidway(again, path, 40) ? 1 : 0;
            Workspace resumed(again);
            Importer::import(resumed, path); // run again, to its end
            QCOMPARE(everything(resumed), expected);
            QCOMPARE(review(resumed), reviewed);
        }
        QVERIFY(killed > 0);
    }

    // The dialog's preview is the report's own beginning, and only that: of a room of 20,000 events it stops early,
    // and its summary holds the whole room's figures.
    void aPreviewIsTheReportsBeginning()
    {
        QTemporaryDir dir;
        const QString store = growSupportRoom(dir, 20000);
        Workspace ws(dir.filePath(QStringLiteral("grown.sightline")));
        Importer::import(ws, store);
        ReportScope scope;
        for (const RoomSummary& r : ws.rooms()) {
            if (r.nativeId == QLatin1String("sup-late-delivery"))
                scope.roomIds << r.id;
        }
        QCOMPARE(scope.roomIds.size(), 1);
        for (const QString& format : { QStringLiteral("csv"), QStringLiteral("jsonl"), QStringLiteral("md") }) {
            QBuffer whole;
            whole.open(QIODevice::WriteOnly);
            ReportExport::write(ws, scope, format, false, whole);
            const ReportPreview preview = ReportPreview::make(ws, scope, format, false, 400);
            QVERIFY(preview.page.isNull());
            QVERIFY2(preview.text.size() > 2000 && preview.text.size() < 20000, qPrintable(format));
            QVERIFY(preview.text.endsWith(QLatin1Char('\n')));
            if (format == QLatin1String("md")) {
                // Its summary counts the whole room (the time it was generated aside).
                QVERIFY(preview.text.contains(QStringLiteral("## Summary\n\n%1 events").arg(ws.countEvents(scope.roomIds.first(), &scope.filter))));
                continue;
            }
            // From its second line on (JSON Lines' first says when it was generated).
            const QString report = QString::fromUtf8(whole.data());
            QVERIFY2(report.mid(report.indexOf(QLatin1Char('\n'))).startsWith(preview.text.mid(preview.text.indexOf(QLatin1Char('\n')))),
                qPrintable(format));
        }
        // The PDF's first page: an A4 sheet (its height √2 its width) with something on it.
        const ReportPreview pdf = ReportPreview::make(ws, scope, QStringLiteral("pdf"), false, 400);
        QCOMPARE(pdf.page.width(), 400);
        QVERIFY(qAbs(pdf.page.height() - 400 * 297 / 210) <= 1);
        QVERIFY(pdf.text.isEmpty());
        // HTML: the page's beginning as it prints, a sheet with ink on it (a text view of it read "failed1served2").
        const ReportPreview html = ReportPreview::make(ws, scope, QStringLiteral("html"), false, 400);
        QCOMPARE(html.page.size(), pdf.page.size());
        QVERIFY(html.text.isEmpty());
        int ink = 0;
        for (int y = 0; y < html.page.height(); y += 2) {
            for (int x = 0; x < html.page.width(); x += 2)
                ink += qGray(html.page.pixel(x, y)) < 128 ? 1 : 0;
        }
        QVERIFY2(ink > 500, qPrintable(QString::number(ink)));
    }

    void jsonLinesUnderAFilterAndWithBadLines()
    {
        QTemporaryDir dir;
        auto ws = importFixture(dir, QStringLiteral("support.sqlite"));
        const qint64 room = ws->findRooms(QStringLiteral("sup-duplicate-charge")).first();
        AnnotationStore store(*ws);
        store.redact(room, 8, QStringLiteral("$.content.body"), 0, 5, QStringLiteral("personal data"), QStringLiteral("ana"));
        ReportScope scope;
        scope.roomIds = { room };
        scope.filterText = QStringLiteral("kind:tool_call");
        scope.filter.kinds = { QStringLiteral("tool_call") };
        const QString path = dir.filePath(QStringLiteral("calls.jsonl"));
        const ReportExport::Result written = ReportExport::run(*ws, scope, QStringLiteral("jsonl"), false, path);
        QCOMPARE(written.events, ws->countEvents(room, &scope.filter));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray bytes = file.readAll();
        QVERIFY(!bytes.contains("I can see")); // redacted: not even in the ledger, which keeps a digest
        QVERIFY(bytes.contains("\"record\":\"redaction\""));
        file.close();
        Workspace again(dir.filePath(QStringLiteral("again.sightline")));
        Importer::import(again, path);
        const qint64 copy = again.rooms().first().id;
        QCOMPARE(again.countEvents(copy, nullptr), written.events);
        QCOMPARE(again.toolCalls(copy).size(), ws->toolCalls(room).size()); // every call has a row among them

        // A line changed by hand into something that is not JSON: named, left out, the rest read.
        QVERIFY(file.open(QIODevice::ReadOnly));
        QList<QByteArray> lines = file.readAll().split('\n');
        file.close();
        int cut = 0;
        for (int i = 0; i < lines.size(); ++i) {
            if (lines[i].contains("\"record\":\"event\"")) {
                lines[i] = lines[i].left(lines[i].size() / 2) + "\"record\":\"event\",";
                cut = i + 1;
                break;
            }
        }
        const QString broken = dir.filePath(QStringLiteral("broken.jsonl"));
        QFile out(broken);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(lines.join('\n'));
        out.close();
        Workspace third(dir.filePath(QStringLiteral("third.sightline")));
        const ImportReport report = Importer::import(third, broken);
        QCOMPARE(report.problems.size(), 1);
        QVERIFY2(report.problems.first().contains(QStringLiteral("broken.jsonl line %1").arg(cut)), qPrintable(report.problems.first()));
        QCOMPARE(third.countEvents(third.rooms().first().id, nullptr), written.events - 1);

        // An event line without its type, one without its index, and one whose index the room already has (a
        // line pasted twice): each named by its line, the first of the repeated index kept, the rest read.
        QVERIFY(file.open(QIODevice::ReadOnly));
        lines = file.readAll().split('\n');
        file.close();
        QVector<int> events;
        for (int i = 0; i < lines.size(); ++i) {
            if (lines[i].contains("\"record\":\"event\""))
                events << i;
        }
        QVERIFY(events.size() >= 4);
        static const QRegularExpression type(QStringLiteral(",\"type\":\"[^\"]*\""));
        static const QRegularExpression index(QStringLiteral("\"index\":\\d+,"));
        QString untyped = QString::fromUtf8(lines[events[0]]);
        QVERIFY(untyped.contains(type));
        lines[events[0]] = untyped.remove(type).toUtf8();
        QString unindexed = QString::fromUtf8(lines[events[1]]);
        QVERIFY(unindexed.contains(index));
        lines[events[1]] = unindexed.remove(index).toUtf8();
        lines.insert(events[3] + 1, lines[events[2]]); // the third event again, after the fourth
        const QString odd = dir.filePath(QStringLiteral("odd.jsonl"));
        QFile oddFile(odd);
        QVERIFY(oddFile.open(QIODevice::WriteOnly));
        oddFile.write(lines.join('\n'));
        oddFile.close();
        Workspace fourth(dir.filePath(QStringLiteral("fourth.sightline")));
        const ImportReport said = Importer::import(fourth, odd);
        const QString all = said.problems.join(QLatin1Char('\n'));
        QCOMPARE(said.problems.size(), 3);
        QVERIFY2(all.contains(QStringLiteral("odd.jsonl line %1").arg(events[0] + 1)) && all.contains(QLatin1String("has no \"type\"")), qPrintable(all));
        QVERIFY2(all.contains(QStringLiteral("odd.jsonl line %1").arg(events[1] + 1)) && all.contains(QLatin1String("without an \"index\"")), qPrintable(all));
        QVERIFY2(all.contains(QStringLiteral("odd.jsonl line %1").arg(events[3] + 2)) && all.contains(QLatin1String("appears a second time")), qPrintable(all));
        QCOMPARE(fourth.countEvents(fourth.rooms().first().id, nullptr), written.events - 2);
    }

    // A database named with its password (in the user part, and as libpq's ?password=): no report says it, in
    // any format, while each still names the database it came from.
    void aDatabasePasswordIsInNoReport()
    {
        QTemporaryDir dir;
        auto ws = importFixture(dir, QStringLiteral("support.sqlite"));
        ReportScope scope;
        scope.roomIds = { ws->findRooms(QStringLiteral("sup-duplicate-charge")).first() };
        scope.author = QStringLiteral("ben");
        scope.source = QStringLiteral(
            "postgresql://reader:hunter2@db.example.com:5432/roomkit?sslmode=require&password=hunter3&sslpassword=hunter4");
        const QString shown = QStringLiteral("postgresql://reader@db.example.com:5432/roomkit?sslmode=require");
        const QString pdftotext = QStandardPaths::findExecutable(QStringLiteral("pdftotext"));
        QVERIFY2(!pdftotext.isEmpty(), "pdftotext (poppler-utils) is needed");
        for (const QString& format : ReportExport::formats()) {
            const QString path = dir.filePath(QStringLiteral("report") + ReportExport::suffix(format));
            ReportExport::run(*ws, scope, format, false, path);
            QByteArray text;
            if (format == QLatin1String("pdf")) {
                QProcess p;
                p.start(pdftotext, { path, QStringLiteral("-") });
                QVERIFY(p.waitForFinished(60000));
                text = p.readAllStandardOutput();
            } else {
                QFile f(path);
                QVERIFY(f.open(QIODevice::ReadOnly));
                text = f.readAll();
            }
            QVERIFY2(!text.contains("hunter"), qPrintable(format));
            // CSV has no header to name the source in; the others do, stripped.
            if (format != QLatin1String("csv"))
                QVERIFY2(text.contains(shown.toUtf8()) || text.contains(shown.toHtmlEscaped().toUtf8()), qPrintable(format));
        }
    }

    void aManifestTellsWhatChanged()
    {
        QTemporaryDir dir;
        auto ws = importFixture(dir, QStringLiteral("support.sqlite"));
        ReportScope scope;
        for (const RoomSummary& r : ws->rooms())
            scope.roomIds << r.id;
        const QString path = dir.filePath(QStringLiteral("all rooms.csv"));
        QFile out(path);
        QVERIFY(out.open(QIODevice::WriteOnly));
        Sha256 events;
        const qint64 count = CsvReport::write(*ws, scope, out, &events);
        out.close();
        ReportManifest::Content content;
        content.format = QStringLiteral("csv");
        content.events = count;
        content.eventsSha256 = events.result().toHex();
        const QString manifest = ReportManifest::write({ path }, content);
        QCOMPARE(manifest, dir.filePath(QStringLiteral("all rooms.csv.manifest.json")));
        QVERIFY(ReportManifest::verify(path).ok);
        QVERIFY(ReportManifest::verify(manifest).ok);
        // The same events make the same digest: the list a report was made from can be checked again.
        Sha256 again;
        QBuffer sink;
        sink.open(QIODevice::WriteOnly);
        CsvReport::write(*ws, scope, sink, &again);
        QCOMPARE(again.result().toHex(), content.eventsSha256);
        // One byte changed: said, with the file's name.
        QVERIFY(out.open(QIODevice::ReadWrite));
        out.seek(out.size() / 2);
        const char was = out.peek(1).at(0);
        out.write(QByteArray(1, char(was ^ 1)));
        out.close();
        const ReportManifest::Check changed = ReportManifest::verify(path);
        QVERIFY(!changed.ok);
        QCOMPARE(changed.changed, QStringList { path });
        // Gone, or a manifest that is not one: said too.
        QVERIFY(QFile::remove(path));
        QVERIFY(!ReportManifest::verify(manifest).ok);
        QFile bad(manifest);
        QVERIFY(bad.open(QIODevice::WriteOnly | QIODevice::Truncate));
        bad.write("{\"files\": []}");
        bad.close();
        QVERIFY(!ReportManifest::verify(manifest).error.isEmpty());
    }
};

QTEST_MAIN(TestReports) // a QGuiApplication: the PDF lays out text
#include "tst_reports.moc"
