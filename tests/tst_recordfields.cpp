// Each record's one field table (RecordFields): every member of the record is in it, every column of its workspace
// table is, and a record goes through the workspace, the JSON Lines report and the CLI's --json with each field as it
// was. A field added to a record and forgotten in the table fails the first test; one forgotten in a column list, a
// bind, a read or a JSON key can no longer be, since all of them are made from the table.
#include "eventserializer.h"
#include "jsonfields.h"
#include "recordfields.h"
#include "sources/roomnumbers.h"
#include "wordcodes.h"
#include "workspace.h"

#include <QFile>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSet>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

namespace {

// The data members a header declares for `record`, by their names (what a maintainer adds a field to).
QStringList declaredMembers(const QString& header, const QString& record)
{
    QFile file(QStringLiteral(SIGHTLINE_SOURCE_DIR "/store/") + header);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const QString text = QString::fromUtf8(file.readAll());
    const qsizetype start = text.indexOf(QStringLiteral("struct ") + record + QStringLiteral("\n{"));
    const qsizetype end = text.indexOf(QStringLiteral("\n};"), start);
    if (start < 0 || end < 0)
        return {};
    QStringList names;
    // "    Type name;" or "    Type name = value;" (a comment may follow); a line with a parenthesis before its
    // semicolon is a function.
    static const QRegularExpression member(QStringLiteral(R"(^    [\w:<>, ]+?\s+(\w+)(\s*=\s*[^;(]+)?;)"),
        QRegularExpression::MultilineOption);
    auto it = member.globalMatch(text.mid(start, end - start));
    while (it.hasNext())
        names << it.next().captured(1);
    return names;
}

template <class Record>
QStringList tableNames(const Fields<Record>& fields)
{
    QStringList names;
    for (const Field<Record>& f : fields)
        names << QLatin1String(f.name);
    return names;
}

template <class Record>
QStringList jsonKeys(const Fields<Record>& fields)
{
    QStringList keys;
    for (const Field<Record>& f : fields) {
        if (f.json)
            keys << QLatin1String(f.json);
    }
    return keys;
}

// A record whose every field holds a value of its own (not its default, not another field's): a field read from
// another's column or key shows. Text that would be packed is long.
template <class Record>
Record distinct(const Fields<Record>& fields)
{
    Record r;
    int i = 0;
    for (const Field<Record>& f : fields) {
        ++i;
        std::visit(
            [&](auto member) {
                using T = std::remove_reference_t<decltype(r.*member)>;
                T& v = r.*member;
                if constexpr (std::is_same_v<T, QString>)
                    v = (f.rules & FieldRule::Packed ? QString(400, QLatin1Char('w')) : QString())
                        + QStringLiteral("%1 of field %2").arg(QLatin1String(f.name)).arg(i);
                else if constexpr (std::is_same_v<T, qint64>)
                    v = 1000 + i;
                else if constexpr (std::is_same_v<T, int>)
                    v = 1 << (i % 20);
                else if constexpr (std::is_same_v<T, std::optional<qint64>>)
                    v = 2000 + i;
                else if constexpr (std::is_same_v<T, bool>)
                    v = true;
                else if constexpr (std::is_same_v<T, std::optional<bool>>)
                    v = false; // neither the default (none) nor what `true` would hide
                else if constexpr (std::is_same_v<T, EventKind>)
                    v = EventKind::Reasoning;
                else if constexpr (std::is_same_v<T, Outcome>)
                    v = Outcome::Refused;
                else
                    v = Pairing::Guessed;
            },
            f.member);
    }
    return r;
}

// The fields that differ between two records (a null text against an empty one too, where that differs).
template <class Record>
QStringList differences(const Record& a, const Record& b, const Fields<Record>& fields, bool (*compared)(const Field<Record>&))
{
    QStringList out;
    for (const Field<Record>& f : fields) {
        if (!compared(f))
            continue;
        const bool same = std::visit(
            [&](auto member) {
                if constexpr (std::is_same_v<std::remove_cvref_t<decltype(a.*member)>, QString>) {
                    if ((f.rules & FieldRule::NullIsNone) && (a.*member).isNull() != (b.*member).isNull())
                        return false;
                }
                return a.*member == b.*member;
            },
            f.member);
        if (!same)
            out << QLatin1String(f.name);
    }
    return out;
}

template <class Record>
bool storedField(const Field<Record>& f)
{
    return f.stored();
}

template <class Record>
bool reportedField(const Field<Record>& f)
{
    return f.json != nullptr;
}

QStringList tableColumns(Workspace& ws, const QString& table)
{
    QStringList columns;
    QSqlQuery q = ws.exec(QStringLiteral("SELECT name FROM pragma_table_info(?) ORDER BY cid"), { table });
    while (q.next())
        columns << q.value(0).toString();
    return columns;
}

QJsonObject parsed(const QByteArray& json)
{
    return QJsonDocument::fromJson(json).object();
}

template <class Record>
Record throughJson(const Record& r, const Fields<Record>& fields)
{
    JsonLine line;
    JsonFields::write(line, r, fields);
    Record back;
    FieldTable::readJson(parsed(line.text()), back, fields);
    return back;
}

} // namespace

class TestRecordFields : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        QVERIFY(m_dir.isValid());
        m_ws = std::make_unique<Workspace>(m_dir.filePath(QStringLiteral("ws%1.sqlite").arg(++m_made)));
        m_ws->exec(QStringLiteral("INSERT INTO sources(id, system, format, origin, first_import_ms, last_sync_ms) "
                                  "VALUES (1, 'roomkit', 'roomkit.sqlite.v3', '/nowhere', 0, 0)"));
        m_ws->exec(QStringLiteral("INSERT INTO rooms(id, source_id, native_id) VALUES (7, 1, 'room-a')"));
    }
    void cleanup() { m_ws.reset(); }

    void everyMemberIsInItsTable_data()
    {
        QTest::addColumn<QString>("header");
        QTest::addColumn<QString>("record");
        QTest::addColumn<QStringList>("table");
        QTest::newRow("event") << QStringLiteral("eventrecord.h") << QStringLiteral("EventRecord") << tableNames(RecordFields::events());
        QTest::newRow("call") << QStringLiteral("toolcallrecord.h") << QStringLiteral("ToolCallRecord") << tableNames(RecordFields::calls());
        QTest::newRow("run") << QStringLiteral("runrecord.h") << QStringLiteral("RunRecord") << tableNames(RecordFields::runs());
    }
    void everyMemberIsInItsTable()
    {
        QFETCH(QString, header);
        QFETCH(QString, record);
        QFETCH(QStringList, table);
        const QStringList members = declaredMembers(header, record);
        QVERIFY2(members.size() >= 10, qPrintable(header + QStringLiteral(": its members were not found")));
        // The same names, and each once: a member missing from the table, or one listed twice, fails here.
        QCOMPARE(QSet<QString>(table.begin(), table.end()).size(), table.size());
        QStringList sortedMembers = members, sortedTable = table;
        sortedMembers.sort();
        sortedTable.sort();
        QCOMPARE(sortedTable, sortedMembers);
    }

    void everyColumnIsInItsTable_data()
    {
        QTest::addColumn<QString>("table");
        QTest::addColumn<QStringList>("fields");
        QTest::addColumn<QStringList>("besides"); // what the writer puts beside the record's own fields
        auto columns = [](const auto& fields) {
            QStringList out;
            for (const auto& f : fields) {
                if (f.column)
                    out << QLatin1String(f.column);
            }
            return out;
        };
        QTest::newRow("events") << QStringLiteral("events") << columns(RecordFields::events())
                                << QStringList { QStringLiteral("room_id"), QStringLiteral("blocked"), QStringLiteral("payload") };
        QTest::newRow("tool_calls") << QStringLiteral("tool_calls") << columns(RecordFields::calls())
                                    << QStringList { QStringLiteral("id"), QStringLiteral("room_id") };
        QTest::newRow("runs") << QStringLiteral("runs") << columns(RecordFields::runs()) << QStringList { QStringLiteral("room_id") };
    }
    void everyColumnIsInItsTable()
    {
        QFETCH(QString, table);
        QFETCH(QStringList, fields);
        QFETCH(QStringList, besides);
        QStringList expected = tableColumns(*m_ws, table);
        QVERIFY(!expected.isEmpty());
        for (const QString& column : besides)
            QVERIFY2(expected.removeOne(column), qPrintable(column));
        QStringList got = fields;
        expected.sort();
        got.sort();
        // A column the schema gained that no field reads, or a field naming a column there is not, fails here.
        QCOMPARE(got, expected);
    }

    void anEventGoesThroughTheWorkspaceWhole()
    {
        const Fields<EventRecord>& fields = RecordFields::events();
        EventRecord e = distinct(fields);
        e.status = QStringLiteral("blocked");
        const QStringList columns = FieldTable::storedColumns(fields);
        SqliteStatement insert(m_ws->handle(),
            QStringLiteral("INSERT INTO events(room_id, %1, blocked, payload) VALUES (7%2, 1, '{}')")
                .arg(columns.join(QStringLiteral(", ")), QStringLiteral(", ?").repeated(columns.size()))
                .toUtf8()
                .constData());
        RoomNumbers messages(m_ws->handle(), "messages"), turns(m_ws->handle(), "turns");
        WordCodes words(m_ws->handle());
        const int next = FieldTable::bind(insert, 1, e, fields, m_ws->packer(), [&](const char* column, const QString& id) {
            if (qstrcmp(column, "type") == 0 || qstrcmp(column, "role") == 0 || qstrcmp(column, "tool_name") == 0)
                return words.code(id);
            return (qstrcmp(column, "group_id") == 0 ? turns : messages).number(7, id);
        });
        QCOMPARE(next, int(columns.size()) + 1);
        insert.step();
        e.rowId = sqlite3_last_insert_rowid(m_ws->handle());
        // The message's and the group's ids are kept once for the room; the row holds the room's number for each.
        QSqlQuery numbered = m_ws->exec(QStringLiteral("SELECT e.message_id, m.native, e.group_id, t.native FROM events e "
                                                       "JOIN messages m ON m.room_id = e.room_id AND m.number = e.message_id "
                                                       "JOIN turns t ON t.room_id = e.room_id AND t.number = e.group_id"));
        QVERIFY(numbered.next());
        QCOMPARE(numbered.value(0).toString(), QStringLiteral("1"));
        QCOMPARE(numbered.value(1).toString(), e.messageId);
        QCOMPARE(numbered.value(2).toString(), QStringLiteral("1"));
        QCOMPARE(numbered.value(3).toString(), e.groupId);
        numbered.finish();
        // The type, kind, role and tool's name are kept as their words' codes: the kind's fixed, the others' given
        // from 16 on.
        QSqlQuery coded = m_ws->exec(QStringLiteral("SELECT e.type, t.name, e.kind, k.name, e.role, r.name, n.name FROM events e "
                                                    "JOIN words t ON t.code = e.type JOIN words k ON k.code = e.kind "
                                                    "JOIN words r ON r.code = e.role JOIN words n ON n.code = e.tool_name"));
        QVERIFY(coded.next());
        QVERIFY(coded.value(0).toInt() >= EventKinds::FirstWord);
        QCOMPARE(coded.value(1).toString(), e.type);
        QCOMPARE(coded.value(2).toLongLong(), EventKinds::code(e.kind));
        QCOMPARE(coded.value(3).toString(), EventKinds::name(e.kind));
        QVERIFY(coded.value(4).toInt() >= EventKinds::FirstWord);
        QCOMPARE(coded.value(5).toString(), e.role);
        QCOMPARE(coded.value(6).toString(), e.toolName);
        coded.finish();
        // The long text is kept packed, and read back as text.
        QSqlQuery packed = m_ws->exec(QStringLiteral("SELECT typeof(text) FROM events"));
        QVERIFY(packed.next());
        QCOMPARE(packed.value(0).toString(), QStringLiteral("blob"));
        packed.finish();

        SqliteStatement select(m_ws->handle(),
            (QStringLiteral("SELECT ") + FieldTable::selectList(fields) + QStringLiteral(" FROM events")).toUtf8().constData());
        QVERIFY(select.step());
        EventRecord back;
        FieldTable::read(select, 0, back, fields);
        QCOMPARE(differences(e, back, fields, +[](const Field<EventRecord>&) { return true; }), QStringList());
    }

    void aCallAndARunGoThroughTheWorkspaceWhole()
    {
        const Fields<ToolCallRecord>& calls = RecordFields::calls();
        ToolCallRecord c = distinct(calls);
        c.result = QString(); // none: NULL, not an empty text
        c.arguments = QStringLiteral(""); // sent empty: kept as an empty text
        const QStringList columns = FieldTable::storedColumns(calls);
        SqliteStatement insert(m_ws->handle(),
            QStringLiteral("INSERT INTO tool_calls(room_id, %1) VALUES (7%2)")
                .arg(columns.join(QStringLiteral(", ")), QStringLiteral(", ?").repeated(columns.size()))
                .toUtf8()
                .constData());
        FieldTable::bind(insert, 1, c, calls, m_ws->packer());
        insert.step();
        QSqlQuery nulls = m_ws->exec(QStringLiteral("SELECT result IS NULL, arguments IS NULL FROM tool_calls"));
        QVERIFY(nulls.next());
        QCOMPARE(nulls.value(0).toInt(), 1);
        QCOMPARE(nulls.value(1).toInt(), 0);
        nulls.finish();
        SqliteStatement select(m_ws->handle(),
            (QStringLiteral("SELECT ") + FieldTable::selectList(calls) + QStringLiteral(" FROM tool_calls")).toUtf8().constData());
        QVERIFY(select.step());
        ToolCallRecord back;
        FieldTable::read(select, 0, back, calls);
        QCOMPARE(differences(c, back, calls, &storedField<ToolCallRecord>), QStringList());

        const Fields<RunRecord>& runs = RecordFields::runs();
        const RunRecord r = distinct(runs);
        const QStringList runColumns = FieldTable::storedColumns(runs);
        SqliteStatement insertRun(m_ws->handle(),
            QStringLiteral("INSERT INTO runs(room_id, %1) VALUES (7%2)")
                .arg(runColumns.join(QStringLiteral(", ")), QStringLiteral(", ?").repeated(runColumns.size()))
                .toUtf8()
                .constData());
        FieldTable::bind(insertRun, 1, r, runs, m_ws->packer());
        insertRun.step();
        SqliteStatement selectRun(m_ws->handle(),
            (QStringLiteral("SELECT ") + FieldTable::selectList(runs) + QStringLiteral(" FROM runs")).toUtf8().constData());
        QVERIFY(selectRun.step());
        RunRecord runBack;
        FieldTable::read(selectRun, 0, runBack, runs);
        QCOMPARE(differences(r, runBack, runs, &storedField<RunRecord>), QStringList());
        QVERIFY(FieldTable::same(r, runBack, runs));
        runBack.detail += QLatin1Char('!');
        QVERIFY(!FieldTable::same(r, runBack, runs));
    }

    void anUpdateWritesEveryStoredColumn()
    {
        // What ImportWriter writes over a call settled again: every column from its parameter.
        const Fields<ToolCallRecord>& calls = RecordFields::calls();
        m_ws->exec(QStringLiteral("INSERT INTO tool_calls(room_id, pairing) VALUES (7, 'start_only')"));
        const ToolCallRecord c = distinct(calls);
        const int n = int(FieldTable::storedColumns(calls).size());
        SqliteStatement update(m_ws->handle(),
            QStringLiteral("UPDATE tool_calls SET %1 WHERE id = ?%2")
                .arg(FieldTable::assignments(calls, 1))
                .arg(n + 1)
                .toUtf8()
                .constData());
        FieldTable::bind(update, 1, c, calls, m_ws->packer());
        update.bind(n + 1, qint64(1));
        update.step();
        SqliteStatement select(m_ws->handle(),
            (QStringLiteral("SELECT ") + FieldTable::selectList(calls) + QStringLiteral(" FROM tool_calls")).toUtf8().constData());
        QVERIFY(select.step());
        ToolCallRecord back;
        FieldTable::read(select, 0, back, calls);
        QCOMPARE(differences(c, back, calls, &storedField<ToolCallRecord>), QStringList());
    }

    void everyRecordGoesThroughTheReportWhole()
    {
        const EventRecord e = distinct(RecordFields::events());
        QCOMPARE(differences(e, throughJson(e, RecordFields::events()), RecordFields::events(),
                     &reportedField<EventRecord>),
            QStringList());
        ToolCallRecord c = distinct(RecordFields::calls());
        c.result = QString();
        c.arguments = QStringLiteral("");
        QCOMPARE(differences(c, throughJson(c, RecordFields::calls()), RecordFields::calls(),
                     &reportedField<ToolCallRecord>),
            QStringList());
        const RunRecord r = distinct(RecordFields::runs());
        QCOMPARE(differences(r, throughJson(r, RecordFields::runs()), RecordFields::runs(), &reportedField<RunRecord>),
            QStringList());
        // Each key once: a key written for two fields would lose one.
        for (const QStringList& keys : { jsonKeys(RecordFields::events()), jsonKeys(RecordFields::calls()),
                 jsonKeys(RecordFields::runs()) })
            QCOMPARE(QSet<QString>(keys.begin(), keys.end()).size(), keys.size());
    }

    void theCliSaysEachFieldAsTheReportDoes_data()
    {
        QTest::addColumn<QByteArray>("cli");
        QTest::addColumn<QByteArray>("report");
        QTest::addColumn<QStringList>("ownWay"); // the report's keys the CLI says its own way, or not at all
        QTest::addColumn<QStringList>("cliOwn"); // the CLI's keys the report does not have
        EventRecord e = distinct(RecordFields::events());
        e.kind = EventKind::ToolCall;
        e.flags = EventFlags::Synthetic | EventFlags::Redacted;
        JsonLine event;
        JsonFields::write(event, e, RecordFields::events());
        QTest::newRow("event") << EventSerializer::eventJson(e) << event.text()
                               << QStringList { QStringLiteral("parent_id"), QStringLiteral("created_us"), QStringLiteral("flags") }
                               << QStringList { QStringLiteral("created_at"), QStringLiteral("synthetic"), QStringLiteral("redacted") };
        const ToolCallRecord c = distinct(RecordFields::calls());
        JsonLine call;
        JsonFields::write(call, c, RecordFields::calls());
        QTest::newRow("call") << EventSerializer::callJson(c) << call.text()
                              << QStringList { QStringLiteral("group_id"), QStringLiteral("started_us"), QStringLiteral("ended_us"), QStringLiteral("arguments"), QStringLiteral("result") }
                              << QStringList { QStringLiteral("correlation_id"), QStringLiteral("edited") };
    }
    void theCliSaysEachFieldAsTheReportDoes()
    {
        QFETCH(QByteArray, cli);
        QFETCH(QByteArray, report);
        QFETCH(QStringList, ownWay);
        QFETCH(QStringList, cliOwn);
        const QJsonObject c = parsed(cli);
        const QJsonObject r = parsed(report);
        QVERIFY(!c.isEmpty() && !r.isEmpty());
        for (const QString& key : r.keys()) {
            if (ownWay.contains(key)) {
                QVERIFY2(!c.contains(key), qPrintable(key));
                continue;
            }
            // A field added to the table is said by the CLI too, as the report says it.
            QVERIFY2(c.contains(key), qPrintable(key + QStringLiteral(" is not in the CLI's --json")));
            QCOMPARE(c.value(key), r.value(key));
        }
        QStringList extra;
        for (const QString& key : c.keys()) {
            if (!r.contains(key))
                extra << key;
        }
        extra.sort();
        cliOwn.sort();
        QCOMPARE(extra, cliOwn);
    }

private:
    QTemporaryDir m_dir;
    int m_made = 0;
    std::unique_ptr<Workspace> m_ws;
};

QTEST_GUILESS_MAIN(TestRecordFields)
#include "tst_recordfields.moc"
