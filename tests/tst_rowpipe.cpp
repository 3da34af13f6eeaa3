// The pipe between an import's reading thread and its writer: every row arrives once and in order, a read
// error arrives after the rows read before it, and a writer that stops early never waits on the reader.

#include "sources/rowpipe.h"
#include "storeerror.h"

#include <atomic>
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

QTEST_GUILESS_MAIN(TestRowPipe)
#include "tst_rowpipe.moc"
