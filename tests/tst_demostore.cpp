// The bundled demo: a RoomKit-format store the project writes itself, imported like any user's store.

#include "demo/demostore.h"
#include "sources/importer.h"
#include "testsupport.h"
#include "workspace.h"

#include <QFileInfo>
#include <QMap>
#include <QTest>

class TestDemoStore : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<Workspace> m_ws;

    qint64 room(const char* id) { return m_ws->findRooms(QLatin1String(id)).value(0); }

    QMap<QString, int> outcomes(qint64 roomId)
    {
        QMap<QString, int> out;
        for (const ToolCallRecord& c : m_ws->toolCalls(roomId))
            ++out[Outcomes::name(c.outcome)];
        return out;
    }

private slots:
    void initTestCase()
    {
        const QString store = m_dir.filePath(QStringLiteral("demo.sqlite"));
        DemoStore::write(store);
        QCOMPARE(Importer::detect(store), Importer::Format::RoomKitSqlite);
        m_ws = std::make_unique<Workspace>(m_dir.filePath(QStringLiteral("demo.sightline")));
        const ImportReport report = Importer::import(*m_ws, store);
        QVERIFY2(report.problems.isEmpty(), qPrintable(report.problems.join(QLatin1Char('\n'))));
    }

    void rooms()
    {
        QStringList ids;
        for (const RoomSummary& r : m_ws->rooms()) {
            ids << r.nativeId;
            QVERIFY(!r.title.isEmpty());
        }
        QCOMPARE(ids,
            (QStringList { QStringLiteral("demo-late-delivery"), QStringLiteral("demo-refund-trouble"),
                QStringLiteral("demo-unicode"), QStringLiteral("demo-empty") }));
        QCOMPARE(m_ws->room(room("demo-empty"))->eventCount, 0);
    }

    void parallelCallsPairExactly()
    {
        const ToolCallRecords calls = m_ws->toolCalls(room("demo-late-delivery"));
        int lookups = 0;
        for (const ToolCallRecord& c : calls) {
            QCOMPARE(c.pairing, Pairing::Exact);
            if (c.toolName == QLatin1String("lookup_order"))
                ++lookups;
        }
        QCOMPARE(lookups, 3);
        // The three starts come first, their ends after in another order.
        QVERIFY(*calls[0].endIndex > *calls[2].startIndex);
        QVERIFY(*calls[0].endIndex > *calls[1].endIndex);
    }

    void longResult()
    {
        const qint64 id = room("demo-late-delivery");
        const ToolCallRecords calls = m_ws->toolCalls(id);
        const auto tracking = std::find_if(calls.begin(), calls.end(),
            [](const ToolCallRecord& c) { return c.toolName == QLatin1String("get_tracking"); });
        QVERIFY(tracking != calls.end());
        EventFilter f;
        f.types = { QStringLiteral("tool_call_end") };
        for (const EventRecord& e : m_ws->listEvents(id, f, {})) {
            if (e.index == *tracking->endIndex)
                QVERIFY(m_ws->payload(e.rowId).size() > 30000);
        }
    }

    void everyOutcomeAndBlockedRows()
    {
        const qint64 id = room("demo-refund-trouble");
        const QMap<QString, int> expected { { QStringLiteral("failed"), 1 }, { QStringLiteral("refused"), 1 },
            { QStringLiteral("unserved"), 2 }, { QStringLiteral("blocked"), 1 } };
        QCOMPARE(outcomes(id), expected);
        const RoomSummary summary = *m_ws->room(id);
        QCOMPARE(summary.blockedCount, 2); // an inbound message and a tool result
        QCOMPARE(summary.failed, 1);
        QCOMPARE(summary.refused, 1);
        QCOMPARE(summary.unserved, 2);
    }

    void unicodeAndRightToLeft()
    {
        const EventRecords events = m_ws->listEvents(room("demo-unicode"), {}, {});
        bool arabic = false, hebrew = false, emoji = false;
        for (const EventRecord& e : events) {
            for (const QChar c : e.text) {
                arabic = arabic || (c.unicode() >= 0x0600 && c.unicode() <= 0x06FF);
                hebrew = hebrew || (c.unicode() >= 0x0590 && c.unicode() <= 0x05FF);
                emoji = emoji || c.isHighSurrogate();
            }
        }
        QVERIFY(arabic);
        QVERIFY(hebrew);
        QVERIFY(emoji);
        QCOMPARE(m_ws->search(room("demo-unicode"), QStringLiteral("café"), 10, false).size(), 1);
    }

    void ensureStoreIsWrittenOnce()
    {
        const QString path = DemoStore::ensureStore();
        QVERIFY(QFileInfo::exists(path));
        const QDateTime made = QFileInfo(path).lastModified();
        QCOMPARE(DemoStore::ensureStore(), path);
        QCOMPARE(QFileInfo(path).lastModified(), made);
        Workspace ws(m_dir.filePath(QStringLiteral("ensured.sightline")));
        Importer::import(ws, path);
        QCOMPARE(ws.rooms().size(), 4);
    }
};

QTEST_GUILESS_MAIN(TestDemoStore)
#include "tst_demostore.moc"
