#include "roomkitstoregenerator.h"

#include "storeerror.h"
#include "timeutil.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <sqlite3.h>

namespace {

const char* const schema = R"SQL(
PRAGMA user_version = 3;
CREATE TABLE rooms(id TEXT PRIMARY KEY, created_ts REAL NOT NULL, organization_id TEXT, status TEXT NOT NULL,
  delivered_index INTEGER NOT NULL DEFAULT -1, data TEXT NOT NULL);
CREATE TABLE events(id TEXT PRIMARY KEY, room_id TEXT NOT NULL, idx INTEGER NOT NULL, type TEXT NOT NULL,
  visibility TEXT NOT NULL, source_channel_id TEXT, source_channel_type TEXT, participant_id TEXT,
  correlation_id TEXT, parent_event_id TEXT, idempotency_key TEXT, created_ts REAL NOT NULL, data TEXT NOT NULL);
CREATE TABLE bindings(room_id TEXT NOT NULL, channel_id TEXT NOT NULL, participant_id TEXT, channel_type TEXT,
  data TEXT NOT NULL, PRIMARY KEY(room_id, channel_id));
CREATE TABLE participants(room_id TEXT NOT NULL, id TEXT NOT NULL, data TEXT NOT NULL, PRIMARY KEY(room_id, id));
CREATE VIRTUAL TABLE events_fts USING fts5(text, event_id UNINDEXED, room_id UNINDEXED);
)SQL";

// Made once every row is in: a B-tree built from sorted keys, where inserting ten million rows into it one by one
// walks it at random.
const char* const indexes = R"SQL(
CREATE INDEX idx_events_room ON events(room_id);
CREATE UNIQUE INDEX idx_events_room_idx ON events(room_id, idx);
)SQL";

const char* const userLines[]
    = { "Hi, my order hasn't arrived yet.", "Can I get a refund for order %1?", "The app crashes when I log in.",
          "Where is my invoice?", "Please change my delivery address.", "¿Pueden ayudarme con mi pedido %1?",
          "Merci pour votre aide 🙏", "I was charged twice this month.", "هل يمكنني تغيير كلمة المرور؟" };
const char* const aiLines[] = { "Let me look that up for you.", "I found your order; checking the shipment now.",
    "I've opened a ticket and emailed you the details.", "Here is what I found: the refund was issued on %1.",
    "Sorry about that! Let me check your account." };
const char* const tools[] = { "search_orders", "lookup_customer", "web_search", "create_ticket", "send_email" };

class Writer
{
public:
    Writer(sqlite3* db, quint32 seed)
        : m_db(db)
        , m_random(seed)
    {
        sqlite3_prepare_v2(db,
            "INSERT INTO events(id, room_id, idx, type, visibility, source_channel_id, "
            "source_channel_type, participant_id, correlation_id, parent_event_id, idempotency_key, "
            "created_ts, data) VALUES (?, ?, ?, ?, 'all', ?, ?, ?, ?, NULL, NULL, ?, ?)",
            -1, &m_insert, nullptr);
        sqlite3_prepare_v2(db, "INSERT INTO events_fts(text, event_id, room_id) VALUES (?, ?, ?)", -1, &m_fts, nullptr);
    }
    ~Writer()
    {
        sqlite3_finalize(m_insert);
        sqlite3_finalize(m_fts);
    }

    void room(const QString& id)
    {
        m_room = id;
        m_index = 0;
        m_time = 1772366400.0 + m_random.bounded(86400);
        const QJsonObject room { { QStringLiteral("id"), id }, { QStringLiteral("status"), QStringLiteral("active") },
            { QStringLiteral("metadata"), QJsonObject { { QStringLiteral("topic"), QStringLiteral("support") } } } };
        exec(QStringLiteral("INSERT INTO rooms(id, created_ts, status, data) VALUES ('%1', %2, 'active', '%3')")
                 .arg(id)
                 .arg(m_time, 0, 'f', 6)
                 .arg(QString::fromUtf8(QJsonDocument(room).toJson(QJsonDocument::Compact))));
    }

    // One exchange: a user's message, the AI's answer with 0-3 rounds of tool calls, and its closing message.
    qint64 exchange()
    {
        const int k = int(m_random.bounded(1000000));
        const QString user = QStringLiteral("p-%1").arg(m_random.bounded(1, 10000));
        const double r = m_random.generateDouble();
        if (r < 0.03) {
            event(QStringLiteral("message"), QStringLiteral("ws-user"), QStringLiteral("websocket"), user, {},
                text(QStringLiteral("spam spam http://bad.example/%1").arg(k)), QStringLiteral("moderation"));
            return 1;
        }
        if (r < 0.05) {
            event(QStringLiteral("system"), QStringLiteral("system"), QStringLiteral("system"), {}, {},
                QJsonObject { { QStringLiteral("type"), QStringLiteral("system") },
                    { QStringLiteral("body"), QStringLiteral("Agent handoff %1").arg(k) },
                    { QStringLiteral("code"), QStringLiteral("handoff") } });
            return 1;
        }
        qint64 n = 0;
        event(QStringLiteral("message"), QStringLiteral("ws-user"), QStringLiteral("websocket"), user, {},
            text(QString::fromUtf8(userLines[m_random.bounded(int(std::size(userLines)))])
                     .replace(QStringLiteral("%1"), QString::number(k))));
        const QString corr = hex(32);
        event(QStringLiteral("message"), QStringLiteral("ai-assistant"), QStringLiteral("ai"), {}, corr,
            text(QString::fromUtf8(aiLines[m_random.bounded(int(std::size(aiLines)))])
                     .replace(QStringLiteral("%1"), QString::number(k))));
        n += 2;
        static const int roundChoices[] = { 0, 1, 1, 1, 2, 3 };
        static const int callChoices[] = { 1, 1, 1, 2, 3 };
        for (int round = roundChoices[m_random.bounded(6)]; round > 0; --round) {
            const int calls = callChoices[m_random.bounded(5)];
            QStringList names, ids;
            for (int c = 0; c < calls; ++c) {
                names << QLatin1String(tools[m_random.bounded(int(std::size(tools)))]);
                ids << QStringLiteral("toolu_") + hex(24);
                event(QStringLiteral("tool_call_start"), QStringLiteral("ai-assistant"), QStringLiteral("ai"), {}, corr,
                    tool(names.last(), ids.last(), k, QJsonValue(), QStringLiteral("pending"), -1));
            }
            for (int c = 0; c < calls; ++c) {
                const double q = m_random.generateDouble();
                n += 2;
                if (q < 0.01) {
                    --n; // never answered: a start without an end
                    continue;
                }
                QJsonObject content;
                if (q < 0.05)
                    content
                        = tool(names[c], ids[c], k, QStringLiteral("Error executing tool %1: timeout").arg(names[c]),
                            QStringLiteral("failed"), m_random.bounded(5000, 30000));
                else if (q < 0.07)
                    content = tool(names[c], ids[c], k,
                        QStringLiteral("{\"error\": \"Tool '%1' denied by pre-execution hook.\"}").arg(names[c]),
                        QStringLiteral("completed"), 0);
                else
                    content = tool(names[c], ids[c], k,
                        QJsonObject { { QStringLiteral("id"), QStringLiteral("R-%1").arg(k) },
                            { QStringLiteral("status"), QStringLiteral("shipped") },
                            { QStringLiteral("total"), 42.5 } },
                        QStringLiteral("completed"), m_random.bounded(20, 3000));
                event(QStringLiteral("tool_call_end"), QStringLiteral("ai-assistant"), QStringLiteral("ai"), {}, corr,
                    content);
            }
        }
        event(QStringLiteral("message"), QStringLiteral("ai-assistant"), QStringLiteral("ai"), {}, corr,
            text(QString::fromUtf8(aiLines[m_random.bounded(int(std::size(aiLines)))])
                     .replace(QStringLiteral("%1"), QString::number(k))));
        return n + 1;
    }

    void exec(const QString& sql)
    {
        char* error = nullptr;
        if (sqlite3_exec(m_db, sql.toUtf8().constData(), nullptr, nullptr, &error) != SQLITE_OK) {
            const QString message = QString::fromUtf8(error);
            sqlite3_free(error);
            throw StoreError(QString::fromUtf8(sqlite3_db_filename(m_db, "main")), {}, message);
        }
    }

private:
    static QJsonObject text(const QString& body)
    {
        return { { QStringLiteral("type"), QStringLiteral("text") }, { QStringLiteral("body"), body },
            { QStringLiteral("language"), QJsonValue() } };
    }

    static QJsonObject tool(
        const QString& name, const QString& id, int k, const QJsonValue& result, const QString& status, int duration)
    {
        return { { QStringLiteral("type"), QStringLiteral("tool_call") }, { QStringLiteral("tool_name"), name },
            { QStringLiteral("tool_id"), id },
            { QStringLiteral("arguments"),
                QJsonObject { { QStringLiteral("customer_id"), QStringLiteral("C-%1").arg(k) },
                    { QStringLiteral("q"), QStringLiteral("refund policy %1").arg(k) } } },
            { QStringLiteral("result"), result }, { QStringLiteral("status"), status },
            { QStringLiteral("duration_ms"), duration < 0 ? QJsonValue() : QJsonValue(duration) },
            { QStringLiteral("error"),
                status == QLatin1String("failed") ? QJsonValue(QStringLiteral("timeout")) : QJsonValue() },
            { QStringLiteral("structured_content"), QJsonValue() } };
    }

    QString hex(int digits)
    {
        QString out;
        while (out.size() < digits)
            out += QString::number(m_random.generate(), 16).rightJustified(8, QLatin1Char('0'));
        return out.left(digits);
    }

    void event(const QString& type, const QString& channel, const QString& channelType, const QString& participant,
        const QString& correlation, const QJsonObject& content, const QString& blockedBy = {})
    {
        m_time += 0.05 + m_random.generateDouble() * 3.95;
        const QString id = hex(32);
        const qint64 micros = TimeUtil::secondsToMicros(m_time);
        const QJsonObject source { { QStringLiteral("channel_id"), channel },
            { QStringLiteral("channel_type"), channelType }, { QStringLiteral("direction"), QStringLiteral("inbound") },
            { QStringLiteral("participant_id"), participant.isEmpty() ? QJsonValue() : QJsonValue(participant) },
            { QStringLiteral("external_id"), QJsonValue() }, { QStringLiteral("provider"), QJsonValue() },
            { QStringLiteral("raw_payload"), QJsonObject() }, { QStringLiteral("provider_message_id"), QJsonValue() } };
        const QJsonObject e { { QStringLiteral("id"), id }, { QStringLiteral("room_id"), m_room },
            { QStringLiteral("type"), type }, { QStringLiteral("source"), source },
            { QStringLiteral("content"), content },
            { QStringLiteral("status"), blockedBy.isEmpty() ? QStringLiteral("delivered") : QStringLiteral("blocked") },
            { QStringLiteral("blocked_by"), blockedBy.isEmpty() ? QJsonValue() : QJsonValue(blockedBy) },
            { QStringLiteral("visibility"), QStringLiteral("all") }, { QStringLiteral("index"), m_index },
            { QStringLiteral("chain_depth"), channelType == QLatin1String("ai") ? 1 : 0 },
            { QStringLiteral("parent_event_id"), QJsonValue() },
            { QStringLiteral("correlation_id"), correlation.isEmpty() ? QJsonValue() : QJsonValue(correlation) },
            { QStringLiteral("idempotency_key"), QJsonValue() },
            { QStringLiteral("created_at"), TimeUtil::formatMicros(micros) },
            { QStringLiteral("metadata"), QJsonObject() }, { QStringLiteral("delivery_results"), QJsonObject() } };
        const QByteArray data = QJsonDocument(e).toJson(QJsonDocument::Compact);
        auto bind = [this](int column, const QString& value) {
            if (value.isEmpty())
                sqlite3_bind_null(m_insert, column);
            else {
                const QByteArray utf8 = value.toUtf8();
                sqlite3_bind_text(m_insert, column, utf8.constData(), int(utf8.size()), SQLITE_TRANSIENT);
            }
        };
        bind(1, id);
        bind(2, m_room);
        sqlite3_bind_int64(m_insert, 3, m_index);
        bind(4, type);
        bind(5, channel);
        bind(6, channelType);
        bind(7, participant);
        bind(8, correlation);
        sqlite3_bind_double(m_insert, 9, m_time);
        sqlite3_bind_text(m_insert, 10, data.constData(), int(data.size()), SQLITE_TRANSIENT);
        sqlite3_step(m_insert);
        sqlite3_reset(m_insert);
        const QString body = content.value(QLatin1String("body")).toString();
        if (!body.isEmpty()) {
            const QByteArray b = body.toUtf8(), i = id.toUtf8(), r = m_room.toUtf8();
            sqlite3_bind_text(m_fts, 1, b.constData(), int(b.size()), SQLITE_TRANSIENT);
            sqlite3_bind_text(m_fts, 2, i.constData(), int(i.size()), SQLITE_TRANSIENT);
            sqlite3_bind_text(m_fts, 3, r.constData(), int(r.size()), SQLITE_TRANSIENT);
            sqlite3_step(m_fts);
            sqlite3_reset(m_fts);
        }
        ++m_index;
    }

    sqlite3* m_db;
    sqlite3_stmt* m_insert = nullptr;
    sqlite3_stmt* m_fts = nullptr;
    QRandomGenerator m_random;
    QString m_room;
    qint64 m_index = 0;
    double m_time = 0;
};

} // namespace

namespace RoomKitStoreGenerator {

void write(const QString& path, qint64 events, int rooms, double bigRoomShare, quint32 seed)
{
    // Written under another name and renamed when whole: a run stopped half-way leaves no store that looks done.
    const QString part = path + QStringLiteral(".part");
    QFile::remove(path);
    QFile::remove(part);
    sqlite3* db = nullptr;
    if (sqlite3_open(part.toUtf8().constData(), &db) != SQLITE_OK)
        throw StoreError(path, {}, QStringLiteral("cannot create the store"));
    // Written with no journal and no syncs, a store that nobody reads until it is whole (a failed run leaves a file
    // to delete, not one to recover), in transactions of a bounded size: one transaction over ten million rows kept
    // a write-ahead log of more than ten gigabytes. The store is put in WAL mode at the end, as RoomKit leaves it.
    const auto exec = [db, &path](const char* sql) {
        char* error = nullptr;
        if (sqlite3_exec(db, sql, nullptr, nullptr, &error) != SQLITE_OK) {
            const QString message = QString::fromUtf8(error);
            sqlite3_free(error);
            sqlite3_close(db);
            throw StoreError(path, {}, message);
        }
    };
    exec("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -1048576");
    // The tables first: the writer prepares its statements against them.
    exec(schema);
    {
        Writer w(db, seed);
        const qint64 big = qint64(double(events) * bigRoomShare);
        const int width = rooms > 1000 ? 4 : 3;
        qint64 sinceCommit = 0;
        exec("BEGIN");
        for (int r = 0; r < rooms; ++r) {
            w.room(r == 0 ? QStringLiteral("room-big") : QStringLiteral("room-%1").arg(r, width, 10, QLatin1Char('0')));
            const qint64 budget = r == 0 ? big : (events - big) / std::max(1, rooms - 1);
            for (qint64 n = 0; n < budget;) {
                const qint64 written = w.exchange();
                n += written;
                sinceCommit += written;
                if (sinceCommit >= 200000) {
                    exec("COMMIT; BEGIN");
                    sinceCommit = 0;
                }
            }
        }
        exec("COMMIT");
    }
    exec(indexes);
    exec("PRAGMA journal_mode = WAL");
    sqlite3_close(db);
    if (!QFile::rename(part, path))
        throw StoreError(path, {}, QStringLiteral("cannot rename %1 to it").arg(part));
}

} // namespace RoomKitStoreGenerator
