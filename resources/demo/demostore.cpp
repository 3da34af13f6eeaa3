#include "demo/demostore.h"

#include "storeerror.h"
#include "timeutil.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QStandardPaths>

namespace {

// RoomKit's SQLiteStore schema, version 3 (SOURCES.md §1.7).
const char* const roomKitSchema[] = {
    "CREATE TABLE rooms(id TEXT PRIMARY KEY, created_ts REAL NOT NULL, organization_id TEXT, status TEXT NOT NULL, "
    "delivered_index INTEGER NOT NULL DEFAULT -1, data TEXT NOT NULL)",
    "CREATE TABLE events(id TEXT PRIMARY KEY, room_id TEXT NOT NULL, idx INTEGER NOT NULL, type TEXT NOT NULL, "
    "visibility TEXT NOT NULL, source_channel_id TEXT, source_channel_type TEXT, participant_id TEXT, "
    "correlation_id TEXT, parent_event_id TEXT, idempotency_key TEXT, created_ts REAL NOT NULL, data TEXT NOT NULL)",
    "CREATE INDEX idx_events_room ON events(room_id)",
    "CREATE UNIQUE INDEX idx_events_room_idx ON events(room_id, idx)",
    "CREATE TABLE bindings(room_id TEXT NOT NULL, channel_id TEXT NOT NULL, participant_id TEXT, channel_type TEXT, "
    "data TEXT NOT NULL, PRIMARY KEY(room_id, channel_id))",
    "CREATE TABLE participants(room_id TEXT NOT NULL, id TEXT NOT NULL, data TEXT NOT NULL, PRIMARY KEY(room_id, id))",
    "PRAGMA user_version = 3",
};

struct Channel
{
    const char* id;
    const char* type;
    const char* participant;
};

const Channel web { "ws-web", "websocket", "u-ana" };
const Channel sms { "sms-twilio", "sms", "+15550100" };
const Channel ai { "ai-support", "ai", nullptr };
const Channel human { "ws-agent", "websocket", "agent-lea" };
const Channel sys { "system", "system", nullptr };

class Writer
{
public:
    explicit Writer(QSqlDatabase& db)
        : m_db(db)
    {
    }

    void room(const QString& id, const QJsonObject& metadata, const QList<Channel>& channels)
    {
        m_room = id;
        m_index = 0;
        m_serial = 0;
        m_time = m_base;
        m_base += qint64(86400) * 1000000; // one room a day
        const QString created = TimeUtil::formatMicros(m_time);
        QJsonObject room { { QStringLiteral("id"), id }, { QStringLiteral("organization_id"), QJsonValue() },
            { QStringLiteral("status"), QStringLiteral("active") }, { QStringLiteral("created_at"), created },
            { QStringLiteral("metadata"), metadata } };
        exec(QStringLiteral("INSERT INTO rooms(id, created_ts, status, data) VALUES (?, ?, 'active', ?)"),
            { id, double(m_time) / 1e6, json(room) });
        for (const Channel& c : channels) {
            QJsonObject binding { { QStringLiteral("channel_id"), QLatin1String(c.id) },
                { QStringLiteral("room_id"), id }, { QStringLiteral("channel_type"), QLatin1String(c.type) },
                { QStringLiteral("category"),
                    QLatin1String(qstrcmp(c.type, "ai") == 0 ? "intelligence" : "transport") },
                { QStringLiteral("access"), QStringLiteral("read_write") } };
            exec(QStringLiteral("INSERT INTO bindings(room_id, channel_id, channel_type, data) VALUES (?, ?, ?, ?)"),
                { id, QLatin1String(c.id), QLatin1String(c.type), json(binding) });
        }
    }

    void say(const Channel& from, const QString& body, int afterSeconds = 20, const char* blockedBy = nullptr,
        const QString& correlation = {})
    {
        event(QStringLiteral("message"), from,
            QJsonObject { { QStringLiteral("type"), QStringLiteral("text") }, { QStringLiteral("body"), body } },
            afterSeconds * 1000, blockedBy, correlation);
    }

    void system(const QString& type, const QString& body)
    {
        event(type, sys,
            QJsonObject { { QStringLiteral("type"), QStringLiteral("system") }, { QStringLiteral("body"), body },
                { QStringLiteral("code"), type } },
            50);
    }

    QString newCorrelation()
    {
        return QStringLiteral("c%1%2")
            .arg(m_room.size(), 4, 10, QLatin1Char('0'))
            .arg(++m_serial, 27, 10, QLatin1Char('0'));
    }

    void toolStart(const QString& correlation, const QString& tool, const QString& toolId, const QJsonObject& args,
        int afterMs = 120)
    {
        event(QStringLiteral("tool_call_start"), ai, toolContent(tool, toolId, args, QJsonValue(), "pending", -1),
            afterMs, nullptr, correlation);
    }

    void toolEnd(const QString& correlation, const QString& tool, const QString& toolId, const QJsonObject& args,
        const QJsonValue& result, const char* status, int durationMs, const char* blockedBy = nullptr)
    {
        event(QStringLiteral("tool_call_end"), ai, toolContent(tool, toolId, args, result, status, durationMs),
            durationMs, blockedBy, correlation);
    }

private:
    static QString json(const QJsonObject& o)
    {
        return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
    }

    static QJsonObject toolContent(const QString& tool, const QString& toolId, const QJsonObject& args,
        const QJsonValue& result, const char* status, int durationMs)
    {
        return { { QStringLiteral("type"), QStringLiteral("tool_call") }, { QStringLiteral("tool_name"), tool },
            { QStringLiteral("tool_id"), toolId }, { QStringLiteral("arguments"), args },
            { QStringLiteral("result"), result }, { QStringLiteral("status"), QLatin1String(status) },
            { QStringLiteral("duration_ms"), durationMs < 0 ? QJsonValue() : QJsonValue(durationMs) },
            { QStringLiteral("error"), qstrcmp(status, "failed") == 0 ? result : QJsonValue() } };
    }

    void event(const QString& type, const Channel& from, const QJsonObject& content, int afterMs,
        const char* blockedBy = nullptr, const QString& correlation = {})
    {
        m_time += qint64(afterMs) * 1000 + 137; // never two events in the same microsecond
        // RoomKit ids are uuid4().hex; these are as long, and the same on every run.
        const QString id = QString::fromLatin1(
            QCryptographicHash::hash((m_room + QString::number(m_index)).toUtf8(), QCryptographicHash::Md5).toHex());
        const QJsonValue participant = from.participant ? QJsonValue(QLatin1String(from.participant)) : QJsonValue();
        QJsonObject source { { QStringLiteral("channel_id"), QLatin1String(from.id) },
            { QStringLiteral("channel_type"), QLatin1String(from.type) },
            { QStringLiteral("direction"), QStringLiteral("inbound") },
            { QStringLiteral("participant_id"), participant } };
        QJsonObject event { { QStringLiteral("id"), id }, { QStringLiteral("room_id"), m_room },
            { QStringLiteral("type"), type }, { QStringLiteral("source"), source },
            { QStringLiteral("content"), content },
            { QStringLiteral("status"), blockedBy ? QStringLiteral("blocked") : QStringLiteral("delivered") },
            { QStringLiteral("blocked_by"), blockedBy ? QJsonValue(QLatin1String(blockedBy)) : QJsonValue() },
            { QStringLiteral("visibility"), QStringLiteral("all") }, { QStringLiteral("index"), m_index },
            { QStringLiteral("chain_depth"), qstrcmp(from.type, "ai") == 0 ? 1 : 0 },
            { QStringLiteral("parent_event_id"), QJsonValue() },
            { QStringLiteral("correlation_id"), correlation.isEmpty() ? QJsonValue() : QJsonValue(correlation) },
            { QStringLiteral("created_at"), TimeUtil::formatMicros(m_time) },
            { QStringLiteral("metadata"), QJsonObject() } };
        exec(QStringLiteral("INSERT INTO events(id, room_id, idx, type, visibility, source_channel_id, "
                            "source_channel_type, participant_id, correlation_id, created_ts, data) "
                            "VALUES (?, ?, ?, ?, 'all', ?, ?, ?, ?, ?, ?)"),
            { id, m_room, m_index, type, QLatin1String(from.id), QLatin1String(from.type), participant.toVariant(),
                correlation.isEmpty() ? QVariant() : QVariant(correlation), double(m_time) / 1e6, json(event) });
        ++m_index;
    }

    void exec(const QString& sql, const QVariantList& binds)
    {
        QSqlQuery q(m_db);
        q.prepare(sql);
        for (const QVariant& v : binds)
            q.addBindValue(v);
        if (!q.exec())
            throw StoreError(
                m_db.databaseName(), {}, QStringLiteral("cannot write the demo store: ") + q.lastError().text());
    }

    QSqlDatabase& m_db;
    QString m_room;
    qint64 m_index = 0;
    int m_serial = 0;
    qint64 m_base = *TimeUtil::parseIsoToMicros(u"2026-03-02T09:00:00Z");
    qint64 m_time = 0;
};

QJsonObject args(std::initializer_list<std::pair<QString, QJsonValue>> values)
{
    QJsonObject o;
    for (const auto& [k, v] : values)
        o.insert(k, v);
    return o;
}

void writeRooms(Writer& w)
{
    const QString lookup = QStringLiteral("lookup_order");

    w.room(QStringLiteral("demo-late-delivery"),
        { { QStringLiteral("title"), QStringLiteral("Where are my three parcels?") } }, { web, ai, sys });
    w.system(QStringLiteral("channel_attached"), QStringLiteral("ws-web attached"));
    w.system(QStringLiteral("channel_attached"), QStringLiteral("ai-support attached"));
    w.say(web, QStringLiteral("Hi, I ordered three things last week (A-101, A-102, A-103) and nothing has arrived."));
    QString c = w.newCorrelation();
    w.say(ai, QStringLiteral("Let me look up all three orders at once."), 3, nullptr, c);
    // Three parallel calls of one tool: three starts, then three ends in another order.
    const QStringList orders { QStringLiteral("A-101"), QStringLiteral("A-102"), QStringLiteral("A-103") };
    for (int i = 0; i < 3; ++i)
        w.toolStart(c, lookup, QStringLiteral("toolu_demo_par_%1").arg(i),
            args({ { QStringLiteral("order_id"), orders[i] } }), 40);
    const int finishOrder[] = { 1, 2, 0 };
    const char* const states[] = { "shipped", "processing", "delivered" };
    for (int i : finishOrder) {
        w.toolEnd(c, lookup, QStringLiteral("toolu_demo_par_%1").arg(i),
            args({ { QStringLiteral("order_id"), orders[i] } }),
            QStringLiteral("{\"order_id\": \"%1\", \"status\": \"%2\"}").arg(orders[i], QLatin1String(states[i])),
            "completed", 180 + 90 * i);
    }
    w.toolStart(c, QStringLiteral("get_tracking"), QStringLiteral("toolu_demo_track"),
        args({ { QStringLiteral("order_id"), QStringLiteral("A-101") } }));
    // A long result: the carrier's full scan history.
    QJsonArray scans;
    for (int i = 0; i < 400; ++i) {
        scans.append(QJsonObject { { QStringLiteral("seq"), i },
            { QStringLiteral("at"), TimeUtil::formatMicros(1772000000000000LL + qint64(i) * 3600000000LL) },
            { QStringLiteral("where"), QStringLiteral("Hub %1").arg(i % 17) },
            { QStringLiteral("what"),
                i % 5 == 0 ? QStringLiteral("arrived at facility") : QStringLiteral("in transit") } });
    }
    w.toolEnd(c, QStringLiteral("get_tracking"), QStringLiteral("toolu_demo_track"),
        args({ { QStringLiteral("order_id"), QStringLiteral("A-101") } }),
        QString::fromUtf8(QJsonDocument(
            QJsonObject { { QStringLiteral("carrier"), QStringLiteral("UPS") }, { QStringLiteral("scans"), scans } })
                              .toJson(QJsonDocument::Compact)),
        "completed", 950);
    w.say(ai,
        QStringLiteral(
            "A-103 was delivered on Friday, A-101 is in transit (400 scans so far) and A-102 is still being packed."),
        2, nullptr, c);
    w.say(web, QStringLiteral("Thanks!"));

    w.room(QStringLiteral("demo-refund-trouble"),
        { { QStringLiteral("title"), QStringLiteral("Refund request that went wrong") } }, { web, ai, sys });
    w.system(QStringLiteral("channel_attached"), QStringLiteral("ws-web attached"));
    w.say(web, QStringLiteral("I want a refund for A-200 and my card is 4111 1111 1111 1111"), 20, "pii_guard");
    w.say(web, QStringLiteral("I want a refund for order A-200 please."));
    c = w.newCorrelation();
    w.say(ai, QStringLiteral("Checking the order first."), 2, nullptr, c);
    w.toolStart(c, QStringLiteral("get_tracking"), QStringLiteral("toolu_demo_fail"),
        args({ { QStringLiteral("order_id"), QStringLiteral("A-200") } }));
    w.toolEnd(c, QStringLiteral("get_tracking"), QStringLiteral("toolu_demo_fail"),
        args({ { QStringLiteral("order_id"), QStringLiteral("A-200") } }),
        QStringLiteral("Error executing tool 'get_tracking': carrier API timed out after 30s"), "failed", 30000);
    w.toolStart(c, QStringLiteral("issue_refund"), QStringLiteral("toolu_demo_refuse"),
        args({ { QStringLiteral("order_id"), QStringLiteral("A-200") }, { QStringLiteral("amount"), 59.9 } }));
    w.toolEnd(c, QStringLiteral("issue_refund"), QStringLiteral("toolu_demo_refuse"),
        args({ { QStringLiteral("order_id"), QStringLiteral("A-200") }, { QStringLiteral("amount"), 59.9 } }),
        QStringLiteral("{\"error\": \"Tool 'issue_refund' denied by pre-execution hook.\"}"), "completed", 4);
    w.toolStart(c, QStringLiteral("find_warehouse"), QStringLiteral("toolu_demo_unknown"),
        args({ { QStringLiteral("zip"), QStringLiteral("10115") } }));
    w.toolEnd(c, QStringLiteral("find_warehouse"), QStringLiteral("toolu_demo_unknown"),
        args({ { QStringLiteral("zip"), QStringLiteral("10115") } }),
        QStringLiteral("{\"error\": \"Unknown tool 'find_warehouse': it is not declared\"}"), "completed", 1);
    w.toolStart(
        c, lookup, QStringLiteral("toolu_demo_pii"), args({ { QStringLiteral("order_id"), QStringLiteral("A-200") } }));
    w.toolEnd(c, lookup, QStringLiteral("toolu_demo_pii"),
        args({ { QStringLiteral("order_id"), QStringLiteral("A-200") } }),
        QStringLiteral("{\"order_id\": \"A-200\", \"card\": \"4111 1111 1111 1111\"}"), "completed", 210, "pii_guard");
    w.toolStart(c, QStringLiteral("notify_warehouse"), QStringLiteral("toolu_demo_hang"),
        args({ { QStringLiteral("order_id"), QStringLiteral("A-200") } }));
    w.say(ai, QStringLiteral("I could not issue the refund myself; a colleague will take over."), 5, nullptr, c);
    w.system(QStringLiteral("participant_joined"), QStringLiteral("agent-lea joined"));
    w.say(human, QStringLiteral("Hi, Léa from billing here. I have refunded A-200."));

    w.room(QStringLiteral("demo-unicode"),
        { { QStringLiteral("title"), QStringLiteral("Unicode, emoji and right-to-left") } }, { sms, ai });
    w.say(sms, QStringLiteral("مرحبا، أين طلبي رقم ٤٥٦؟"));
    w.say(ai, QStringLiteral("שלום! ההזמנה שלך בדרך 🚚 — תגיע מחר."));
    w.say(sms, QStringLiteral("谢谢！👍🏽 Zoë's café: naïve façade, ﬁnal ǅ"));
    c = w.newCorrelation();
    w.toolStart(c, QStringLiteral("translate"), QStringLiteral("toolu_demo_rtl"),
        args({ { QStringLiteral("text"), QStringLiteral("أين طلبي") },
            { QStringLiteral("to"), QStringLiteral("en") } }));
    w.toolEnd(c, QStringLiteral("translate"), QStringLiteral("toolu_demo_rtl"),
        args(
            { { QStringLiteral("text"), QStringLiteral("أين طلبي") }, { QStringLiteral("to"), QStringLiteral("en") } }),
        QStringLiteral("{\"text\": \"Where is my order\"}"), "completed", 320);
    w.say(ai, QStringLiteral("Your order is on its way."), 1, nullptr, c);

    w.room(QStringLiteral("demo-empty"),
        { { QStringLiteral("title"), QStringLiteral("A room nothing happened in yet") } }, { web });
}

} // namespace

namespace DemoStore {

void write(const QString& path)
{
    QFile::remove(path);
    const QString connection = QStringLiteral("sightline-demo-writer");
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), connection);
        db.setDatabaseName(path);
        if (!db.open())
            throw StoreError(path, {}, QStringLiteral("cannot create the demo store: ") + db.lastError().text());
        db.transaction();
        for (const char* sql : roomKitSchema)
            QSqlQuery(db).exec(QLatin1String(sql));
        Writer writer(db);
        writeRooms(writer);
        db.commit();
        db.close();
    }
    QSqlDatabase::removeDatabase(connection);
}

QString ensureStore()
{
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::CacheLocation) + QStringLiteral("/demo");
    QDir().mkpath(dir);
    // Versioned name: a newer Sightline writes its own demo rather than showing an older one's.
    const QString store = dir + QStringLiteral("/demo-%1-roomkit.sqlite").arg(QLatin1String(SIGHTLINE_VERSION));
    if (!QFile::exists(store))
        write(store);
    return store;
}

} // namespace DemoStore
