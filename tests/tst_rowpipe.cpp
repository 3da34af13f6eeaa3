// The pipe between an import's reading thread and its writer: every row arrives once and in order, a read
// error arrives after the rows read before it, and a writer that stops early never waits on the reader. And what
// those threads free goes back to the system (FreedMemory), which glibc's allocator would otherwise keep.

#include "sources/rowpipe.h"
#include "freedmemory.h"
#include "storeerror.h"

#include <atomic>
#include <thread>
#include <vector>
#include <QFile>
#include <QString>
#include <QTest>

class TestRowPipe : public QObject
{
    Q_OBJECT

private slots:
    void everyRowInOrder_data()
    {
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("batchRows");
        QTest::addColumn<int>("capacity");
        QTest::newRow("none") << 0 << 256 << 8;
        QTest::newRow("less than a batch") << 5 << 256 << 8;
        QTest::newRow("whole batches") << 1024 << 256 << 8;
        QTest::newRow("a last part batch") << 100001 << 256 << 2;
        QTest::newRow("one row a batch, one batch waiting") << 3000 << 1 << 1;
    }

    void everyRowInOrder()
    {
        QFETCH(int, rows);
        QFETCH(int, batchRows);
        QFETCH(int, capacity);
        RowPipe<QString> pipe(
            [rows](auto&& put) {
                for (int i = 0; i < rows; ++i) {
                    if (!put(QString::number(i)))
                        return;
                }
            },
            batchRows, capacity);
        int seen = 0;
        while (QString* row = pipe.next()) {
            QCOMPARE(*row, QString::number(seen));
            ++seen;
        }
        QCOMPARE(seen, rows);
        QCOMPARE(pipe.next(), nullptr); // the end stays the end
    }

    // A source that fails at row 700 (a corrupt page, say): the writer gets rows 0..699, then the error.
    void heavyRowsMakeSmallerBatches()
    {
        // Rows weighed (an AG-UI line of a megabyte): a batch ends at its weight, so few heavy rows are in flight,
        // and every row still arrives once and in order.
        std::atomic<int> read = 0;
        int written = 0;
        {
            RowPipe<QByteArray> pipe(
                [&read](auto&& put) {
                    for (int i = 0; i < 200; ++i) {
                        ++read;
                        if (!put(QByteArray(i % 10 == 0 ? 1 << 20 : 100, char('a' + i % 26))))
                            return;
                    }
                },
                256, 1, [](const QByteArray& row) { return qint64(row.size()); }, qint64(1) << 20);
            const QByteArray* first = pipe.next();
            QVERIFY(first);
            QCOMPARE(first->size(), 1 << 20);
            // The reader is held by the one batch waiting: at most two batches past the one read, of ten rows each
            // (a batch ends at the next megabyte row), are read.
            QTest::qWait(200);
            QVERIFY2(read.load() <= 40, qPrintable(QString::number(read.load())));
            ++written;
            while (const QByteArray* row = pipe.next()) {
                QCOMPARE(row->at(0), char('a' + written % 26));
                QCOMPARE(row->size(), written % 10 == 0 ? 1 << 20 : 100);
                ++written;
            }
        }
        QCOMPARE(written, 200);
    }

    void anErrorComesAfterTheRowsBeforeIt()
    {
        RowPipe<int> pipe([](auto&& put) {
            for (int i = 0;; ++i) {
                if (i == 700)
                    throw StoreError(QStringLiteral("store.sqlite"), QStringLiteral("row 700"),
                        QStringLiteral("database disk image is malformed"));
                put(int(i));
            }
        });
        int seen = 0;
        try {
            while (int* row = pipe.next()) {
                QCOMPARE(*row, seen);
                ++seen;
            }
            QFAIL("the error was lost");
        } catch (const StoreError& e) {
            QCOMPARE(seen, 700);
            QVERIFY2(e.toString().contains(QLatin1String("store.sqlite")), qPrintable(e.toString()));
        }
    }

    // Cancel: the writer stops after a few rows while the reader has far more to give. Destroying the pipe stops
    // the reader at its next row instead of reading the whole source.
    void freedMemoryGoesBack();

    void aWriterThatStopsStopsTheReader()
    {
        std::atomic<int> produced = 0;
        {
            RowPipe<int> pipe(
                [&produced](auto&& put) {
                    for (int i = 0; i < 10'000'000; ++i) {
                        ++produced;
                        if (!put(int(i)))
                            return;
                    }
                },
                64, 2);
            for (int i = 0; i < 10; ++i)
                QCOMPARE(*pipe.next(), i);
        }
        // What was read is what fits in the batches waiting, the one being filled and the writer's own.
        QVERIFY2(produced.load() <= 64 * 4 + 1, qPrintable(QString::number(produced.load())));
    }
};

namespace {

qint64 residentKb()
{
    QFile statm(QStringLiteral("/proc/self/statm"));
    if (!statm.open(QIODevice::ReadOnly))
        return -1;
    const QList<QByteArray> fields = statm.readAll().split(' ');
    return fields.size() > 1 ? fields.at(1).toLongLong() * 4 : -1; // pages of 4 KB
}

} // namespace

void TestRowPipe::freedMemoryGoesBack()
{
#if !defined(__GLIBC__)
    QSKIP("malloc_trim is glibc's");
#endif
    // A thread's arena left full of holes, as batches of rows leave it: 64 MB in blocks of 48 KB, nine in ten freed,
    // every tenth kept so that the heap's top cannot shrink by itself.
    std::vector<char*> kept;
    std::thread([&kept] {
        std::vector<char*> blocks;
        for (int i = 0; i < 1400; ++i) {
            blocks.push_back(static_cast<char*>(malloc(48 * 1024)));
            memset(blocks.back(), 1, 48 * 1024); // resident, not only reserved
        }
        for (size_t i = 0; i < blocks.size(); ++i)
            i % 10 == 9 ? kept.push_back(blocks[i]) : free(blocks[i]);
    }).join();
    const qint64 before = residentKb();
    FreedMemory freed(60000);
    freed.giveBack();
    const qint64 after = residentKb();
    QVERIFY2(before - after > 40 * 1024, qPrintable(QStringLiteral("%1 KB resident before, %2 KB after").arg(before).arg(after)));
    // Not again before the interval is over: a commit a few milliseconds after the last pays nothing.
    freed.giveBack();
    QCOMPARE(freed.trims(), 1);
    for (char* block : kept)
        free(block);
}

QTEST_GUILESS_MAIN(TestRowPipe)
#include "tst_rowpipe.moc"
