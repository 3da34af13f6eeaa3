#include "runsteps.h"

#include "../eventfilter.h"
#include "../eventflags.h"
#include "../eventquery.h"
#include "../outcome.h"
#include "../sqlitestatement.h"
#include "../workspace.h"

#include <algorithm>
#include <climits>
#include <QHash>
#include <QHashFunctions>
#include <QJsonDocument>
#include <QSet>
#include <QSqlQuery>

namespace {

// A fixed seed: the same step hashes the same in both runs (Qt's own hashes are seeded per process).
constexpr size_t seed = 0x5167'6874'6c69'6e65ULL;

bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

QByteArrayView trimmed(QByteArrayView text)
{
    while (!text.isEmpty() && isSpace(text.front()))
        text = text.sliced(1);
    while (!text.isEmpty() && isSpace(text.back()))
        text.chop(1);
    return text;
}

// The digest of a text as normalised() writes it, from its UTF-8 bytes: a JSON object or array parsed and written
// compact (its keys in order), anything else trimmed.
quint64 digest(QByteArrayView text)
{
    text = trimmed(text);
    if (!text.isEmpty() && (text.front() == '{' || text.front() == '[')) {
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromRawData(text.data(), text.size()), &error);
        if (error.error == QJsonParseError::NoError && (doc.isObject() || doc.isArray()))
            return quint64(qHash(QByteArrayView(doc.toJson(QJsonDocument::Compact)), seed));
    }
    return quint64(qHash(text, seed));
}

QByteArrayView column(const SqliteStatement& q, int c)
{
    const auto* data = reinterpret_cast<const char*>(sqlite3_column_text(q.handle(), c));
    return data ? QByteArrayView(data, sqlite3_column_bytes(q.handle(), c)) : QByteArrayView();
}

// The start of a message as a row says it: simplified, its first 120 characters (cut at a character, not a byte).
QString preview(QByteArrayView text)
{
    qsizetype n = std::min<qsizetype>(text.size(), 2000);
    while (n < text.size() && n > 0 && (uchar(text.at(n)) & 0xC0) == 0x80)
        --n; // not inside a character's bytes
    return QString::fromUtf8(text.first(n)).simplified().left(120);
}

// Names met again and again (a tool's, a role's, an outcome's) held once: a hundred thousand calls of ten tools
// hold ten strings.
class Names
{
public:
    QString operator()(QByteArrayView bytes)
    {
        const auto it = m_names.constFind(bytes.toByteArray());
        if (it != m_names.cend())
            return *it;
        const QString name = QString::fromUtf8(bytes);
        m_names.insert(bytes.toByteArray(), name);
        return name;
    }

private:
    QHash<QByteArray, QString> m_names;
};

// Whether the room's messages are put together from several rows (every system but RoomKit).
bool assembled(Workspace& workspace, qint64 roomId)
{
    QSqlQuery system
        = workspace.exec(QStringLiteral("SELECT s.system FROM rooms r JOIN sources s ON s.id = r.source_id WHERE r.id = ?"), { roomId });
    return system.next() && system.value(0).toString() != QLatin1String("roomkit");
}

} // namespace

namespace RunSteps {

QString normalised(const QString& text)
{
    const QString trimmedText = text.trimmed();
    if (trimmedText.isEmpty())
        return trimmedText;
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(trimmedText.toUtf8(), &error);
    if (error.error == QJsonParseError::NoError && (doc.isObject() || doc.isArray()))
        return QString::fromUtf8(doc.toJson(QJsonDocument::Compact)); // QJsonObject keeps its keys in order
    return trimmedText;
}

void key(RunStep& s, QByteArrayView arguments, QByteArrayView result)
{
    const quint64 kind = s.kind == RunStep::Kind::ToolCall ? 1 : 2;
    const QString& name = s.kind == RunStep::Kind::ToolCall ? s.tool : s.role;
    s.weak = quint64(qHashMulti(seed, kind, name));
    s.strong = quint64(qHashMulti(seed, kind, name, digest(arguments)));
    s.resultDigest = s.kind == RunStep::Kind::ToolCall ? digest(result) : 0;
}

RunStepList read(Workspace& workspace, qint64 roomId, const EventFilter* filter, int first)
{
    RunStepList steps;
    Names names;
    const QByteArray limit = first > 0 ? QByteArray::number(first) : QByteArrayLiteral("-1");
    // The calls: a row each, with whether a snapshot brought it: the row its card is at is then the AG-UI snapshot's
    // (or the run's start whose input brought it), not a call's own.
    {
        const QByteArray sql = "SELECT c.id, coalesce(c.start_seq, c.end_seq, c.result_seq), c.tool_name, unpack(c.arguments), "
                               "unpack(c.result), c.outcome, c.duration_ms, e.type IN (SELECT code FROM words WHERE name "
                               "IN ('MESSAGES_SNAPSHOT', 'RUN_STARTED')) "
                               "FROM tool_calls c LEFT JOIN events e "
                               "ON e.room_id = c.room_id AND e.seq = coalesce(c.start_seq, c.end_seq, c.result_seq) "
                               "WHERE c.room_id = ? "
            + QByteArray(first > 0 ? "ORDER BY 2, c.id " : "") + "LIMIT " + limit;
        SqliteStatement q(workspace.handle(), sql.constData());
        q.bind(1, roomId);
        while (q.step()) {
            RunStep s;
            s.kind = RunStep::Kind::ToolCall;
            s.callId = q.int64(0);
            s.index = q.isNull(1) ? 0 : q.int64(1);
            s.tool = names(column(q, 2));
            s.outcome = Outcomes::name(Outcomes::fromName(names(column(q, 5))));
            if (!q.isNull(6))
                s.durationMs = q.int64(6);
            s.fromSnapshot = !q.isNull(7) && q.int64(7) != 0;
            key(s, column(q, 3), column(q, 4));
            steps.append(s);
        }
    }
    {
        // The messages a reader sees: a hook's blocked ones left out, as every verb leaves them out, unless the filter
        // asks for them (blocked:include). A call whose end was blocked stays, as its card does in the timeline.
        const bool blocked = filter && !filter->hidesBlocked();
        const QByteArray sql = "SELECT seq, CASE WHEN role IS NOT NULL THEN (SELECT w.name FROM words w WHERE w.code = "
                               "events.role) END, unpack(text), flags FROM events WHERE room_id = ? AND "
            + EventQuery::messageRows(assembled(workspace, roomId)).toUtf8() + (blocked ? "" : " AND blocked = 0")
            + (first > 0 ? " ORDER BY seq" : "") + " LIMIT " + limit;
        SqliteStatement q(workspace.handle(), sql.constData());
        q.bind(1, roomId);
        while (q.step()) {
            RunStep s;
            s.kind = RunStep::Kind::Message;
            s.index = q.int64(0);
            s.role = names(column(q, 1));
            const QByteArrayView text = column(q, 2);
            s.preview = preview(trimmed(text));
            s.fromSnapshot = (q.int64(3) & int(EventFlags::FromSnapshot)) != 0;
            key(s, text);
            steps.append(s);
        }
    }
    // In the order they show; a message and a call at one index (an AG-UI row that holds both): the message first.
    std::sort(steps.begin(), steps.end(), [](const RunStep& x, const RunStep& y) {
        if (x.index != y.index)
            return x.index < y.index;
        if (x.kind != y.kind)
            return x.kind == RunStep::Kind::Message;
        return x.callId < y.callId;
    });
    if (first > 0 && steps.size() > first)
        steps.resize(first);
    if (filter) {
        // The timeline's items under the filter, by index: a call by its card, a message once.
        EventFilter items = *filter;
        items.timelineItems = true;
        PageRequest all;
        all.limit = INT_MAX;
        if (first > 0 && !steps.isEmpty())
            all.beforeIndex = steps.last().index + 1;
        QSet<qint64> shown;
        for (const EventRecord& e : workspace.listEvents(roomId, items, all))
            shown.insert(e.index);
        for (RunStep& s : steps)
            s.shown = shown.contains(s.index);
    }
    return steps;
}

StepText text(Workspace& workspace, qint64 roomId, const RunStep& step)
{
    StepText out;
    if (step.kind == RunStep::Kind::ToolCall) {
        QSqlQuery q = workspace.exec(QStringLiteral("SELECT unpack(arguments), unpack(result) FROM tool_calls WHERE id = ?"), { step.callId });
        if (q.next()) {
            out.arguments = normalised(q.value(0).toString());
            out.result = normalised(q.value(1).toString());
        }
    } else {
        QSqlQuery q = workspace.exec(QStringLiteral("SELECT unpack(text) FROM events WHERE room_id = ? AND seq = ?"), { roomId, step.index });
        if (q.next())
            out.text = q.value(0).toString().trimmed();
    }
    return out;
}

} // namespace RunSteps
