// JsonLine writes what QJsonDocument::Compact writes for the same object: the same key order and escapes, over
// seeded random objects whose strings hold quotes, backslashes, control characters, non-ASCII, emoji and
// unpaired surrogates.

#include "jsonline.h"

#include <limits>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QTest>

class TestJsonLine : public QObject
{
    Q_OBJECT

private slots:
    void matchesQJsonDocument()
    {
        const quint32 seed = qEnvironmentVariableIsSet("SIGHTLINE_FUZZ_SEED")
            ? quint32(qEnvironmentVariableIntValue("SIGHTLINE_FUZZ_SEED"))
            : 20261130u;
        QRandomGenerator random(seed);
        static const char* const keys[] = { "index", "id", "type", "kind", "status", "blocked_by", "channel_id", "text",
            "tool_name", "outcome", "a", "b_c", "synthetic", "line", "zz", "created_at" };
        const char16_t pieces[] = { u'"', u'\\', u'/', u'\n', u'\r', u'\t', u'\b', u'\f', 0x01, 0x1f, 0x7f, u'a', u' ',
            0xe9, 0x5d0, 0x627, 0x200f, 0xfeff, 0xd83d, 0xde00, 0xdc00 };
        auto randomString = [&] {
            QString s;
            const int n = int(random.bounded(12));
            for (int i = 0; i < n; ++i)
                s += QChar(pieces[random.bounded(int(std::size(pieces)))]);
            return s;
        };
        JsonLine kept; // as a report writes: one JsonLine for every line, its buffers and key order kept
        for (int round = 0; round < 5000; ++round) {
            JsonLine fresh;
            JsonLine& line = round % 2 ? kept : fresh;
            QJsonObject object;
            const int members = int(random.bounded(int(std::size(keys))));
            QStringList used;
            for (int m = 0; m < members; ++m) {
                const char* key = keys[random.bounded(int(std::size(keys)))];
                if (used.contains(QLatin1String(key)))
                    continue;
                used << QLatin1String(key);
                const QString name = QLatin1String(key);
                switch (random.bounded(5)) {
                case 0: {
                    const QString s = randomString();
                    line.add(key, s);
                    object.insert(name, s);
                    break;
                }
                case 1: {
                    const QString s = randomString();
                    line.addOrNull(key, s);
                    object.insert(name, s.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(s));
                    break;
                }
                case 2: {
                    const qint64 v = qint64(random.generate64() >> random.bounded(64)) * (random.bounded(2) ? 1 : -1);
                    line.add(key, v);
                    object.insert(name, v);
                    break;
                }
                case 3: {
                    const bool v = random.bounded(2);
                    line.add(key, v);
                    object.insert(name, v);
                    break;
                }
                default:
                    line.addNull(key);
                    object.insert(name, QJsonValue(QJsonValue::Null));
                }
            }
            const QByteArray expected = QJsonDocument(object).toJson(QJsonDocument::Compact);
            const QByteArray actual = line.text();
            if (actual != expected)
                QFAIL(qPrintable(QStringLiteral("seed %1, round %2:\n  %3\n  %4")
                                     .arg(seed)
                                     .arg(round)
                                     .arg(QString::fromUtf8(expected), QString::fromUtf8(actual))));
        }
    }

    void oneLineWritesManyLines()
    {
        // The same keys in the same order (the order found before is used), in another order, fewer of them, a
        // value of 2 MB (its room is not kept) and the extreme integers: each line as QJsonDocument writes it.
        JsonLine line;
        auto check = [&](const QJsonObject& object) {
            QCOMPARE(line.text(), QJsonDocument(object).toJson(QJsonDocument::Compact));
        };
        for (int i = 0; i < 3; ++i) {
            line.add("type", QStringLiteral("message"));
            line.add("index", qint64(i));
            line.addNull("blocked_by");
            check({ { QStringLiteral("type"), QStringLiteral("message") }, { QStringLiteral("index"), i },
                { QStringLiteral("blocked_by"), QJsonValue::Null } });
        }
        line.add("index", qint64(7));
        line.add("type", QStringLiteral("tool_call_start"));
        line.add("blocked_by", QStringLiteral("hook"));
        check({ { QStringLiteral("type"), QStringLiteral("tool_call_start") }, { QStringLiteral("index"), 7 },
            { QStringLiteral("blocked_by"), QStringLiteral("hook") } });
        const QString big(2 * 1024 * 1024, QLatin1Char('x'));
        line.add("text", big);
        line.add("index", std::numeric_limits<qint64>::min());
        check({ { QStringLiteral("text"), big }, { QStringLiteral("index"), std::numeric_limits<qint64>::min() } });
        line.add("index", std::numeric_limits<qint64>::max());
        line.add("synthetic", false);
        check({ { QStringLiteral("index"), std::numeric_limits<qint64>::max() }, { QStringLiteral("synthetic"), false } });
        line.add("index", qint64(0));
        check({ { QStringLiteral("index"), 0 } });
        QCOMPARE(line.text(), QByteArray("{}"));
    }

    void emptyAfterText()
    {
        JsonLine line;
        line.add("a", qint64(1));
        QCOMPARE(line.text(), QByteArray("{\"a\":1}"));
        QCOMPARE(line.text(), QByteArray("{}"));
    }
};

QTEST_GUILESS_MAIN(TestJsonLine)
#include "tst_jsonline.moc"
