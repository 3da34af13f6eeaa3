#include "pairfixer.h"

#include "eventflags.h"
#include "recordfields.h"
#include "storeerror.h"
#include "textpacker.h"
#include "timeutil.h"
#include "toolcallrecord.h"
#include "workspace.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QVariant>

namespace {

// The flags that say how a row was paired: what link and unlink change, and all that a snapshot keeps of a row.
constexpr int pairingFlags = EventFlags::Folded | EventFlags::Guessed | EventFlags::Ambiguous;

const QString touching = QStringLiteral(
    "room_id = ? AND (start_seq IN (?, ?) OR end_seq IN (?, ?) OR result_seq IN (?, ?))");

QJsonValue jsonOf(const QVariant& v)
{
    if (v.isNull())
        return QJsonValue::Null;
    if (v.typeId() == QMetaType::LongLong || v.typeId() == QMetaType::Int)
        return QJsonValue(v.toLongLong());
    if (v.typeId() == QMetaType::Double)
        return QJsonValue(v.toDouble());
    return QJsonValue(v.toString());
}

QVariant variantOf(const QJsonValue& v)
{
    if (v.isNull() || v.isUndefined())
        return QVariant();
    if (v.isDouble())
        return v.toVariant().toLongLong() == v.toDouble() ? QVariant(v.toVariant().toLongLong()) : QVariant(v.toDouble());
    return QVariant(v.toString());
}

} // namespace

PairFixer::PairFixer(Workspace& workspace)
    : m_ws(workspace)
{
}

void PairFixer::setPairingFlags(qint64 roomId, qint64 index, int flags)
{
    m_ws.exec(QStringLiteral("UPDATE events SET flags = (flags & ?) | ? WHERE room_id = ? AND seq = ?"),
        { ~pairingFlags, flags & pairingFlags, roomId, index });
}

void PairFixer::unlink(qint64 roomId, qint64 start, qint64 end)
{
    QSqlQuery q = m_ws.exec(QStringLiteral("SELECT id, end_seq, result_seq, duration_source FROM tool_calls WHERE "
                                           "room_id = ? AND start_seq = ? AND (end_seq = ? OR result_seq = ?)"),
        { roomId, start, end, end });
    if (!q.next()) {
        throw StoreError(m_ws.path(), QStringLiteral("events %1 and %2").arg(start).arg(end),
            QStringLiteral("no call pairs them: there is nothing to unlink"));
    }
    const qint64 id = q.value(0).toLongLong();
    const QVariant endSeq = q.value(1);
    const QVariant resultSeq = q.value(2);
    const bool recorded = q.value(3).toString() == DurationSource::Recorded;
    q.finish();
    // The end goes on as a call of its own, with all the end said (how it went, its result, the duration it
    // recorded); the start waits as if nothing had answered it.
    // Every column of the call copied but those of its start, its duration unless the end recorded it, its pairing
    // and its overlap.
    const Fields<ToolCallRecord>& fields = RecordFields::calls();
    const QString recordedOnly = QStringLiteral("CASE WHEN ? THEN %1 END");
    m_ws.exec(QStringLiteral("INSERT INTO tool_calls(room_id, %1) SELECT room_id, %2 FROM tool_calls WHERE id = ?")
                  .arg(FieldTable::storedColumns(fields).join(QStringLiteral(", ")),
                      FieldTable::copyList(fields,
                          { { QStringLiteral("start_seq"), QStringLiteral("NULL") },
                              { QStringLiteral("started_us"), QStringLiteral("NULL") },
                              { QStringLiteral("arguments"), QStringLiteral("NULL") },
                              { QStringLiteral("arguments_valid"), QStringLiteral("NULL") },
                              { QStringLiteral("duration_ms"), recordedOnly.arg(QStringLiteral("duration_ms")) },
                              { QStringLiteral("duration_source"), recordedOnly.arg(QStringLiteral("duration_source")) },
                              { QStringLiteral("pairing"), QStringLiteral("?") },
                              { QStringLiteral("ambiguous"), QStringLiteral("0") } })),
        // Bound in the order the placeholders stand: the duration (twice), the pairing, the call.
        { recorded ? 1 : 0, recorded ? 1 : 0, Pairings::name(Pairing::EndOnly), id });
    m_ws.exec(QStringLiteral("UPDATE tool_calls SET end_seq = NULL, ended_us = NULL, duration_ms = NULL, duration_source = "
                             "NULL, status = 'pending', outcome = ?, pairing = ?, error = NULL, result = NULL, result_seq "
                             "= NULL, synthetic = 0, ambiguous = 0 WHERE id = ?"),
        { QStringLiteral("unserved"), Pairings::name(Pairing::StartOnly), id });
    setPairingFlags(roomId, start, 0);
    for (const QVariant& at : { endSeq, resultSeq }) {
        if (!at.isNull())
            setPairingFlags(roomId, at.toLongLong(), 0); // shown on its own again
    }
    recount(roomId);
}

void PairFixer::link(qint64 roomId, qint64 start, qint64 end)
{
    if (end <= start) {
        throw StoreError(m_ws.path(), QStringLiteral("events %1 and %2").arg(start).arg(end),
            QStringLiteral("an end is linked to a start before it"));
    }
    QSqlQuery open = m_ws.exec(QStringLiteral("SELECT id, tool_name, started_us FROM tool_calls WHERE room_id = ? AND "
                                              "start_seq = ? AND end_seq IS NULL AND result_seq IS NULL"),
        { roomId, start });
    if (!open.next()) {
        throw StoreError(m_ws.path(), QStringLiteral("event %1").arg(start),
            QStringLiteral("it is no call's start that nothing closed"));
    }
    const qint64 startId = open.value(0).toLongLong();
    const QString startTool = open.value(1).toString();
    const QVariant startedUs = open.value(2);
    open.finish();
    QSqlQuery lone = m_ws.exec(QStringLiteral("SELECT id, tool_name, end_seq, result_seq, ended_us, duration_ms, "
                                              "duration_source FROM tool_calls WHERE room_id = ? AND start_seq IS NULL "
                                              "AND coalesce(end_seq, result_seq) = ?"),
        { roomId, end });
    if (!lone.next()) {
        throw StoreError(m_ws.path(), QStringLiteral("event %1").arg(end),
            QStringLiteral("it is no call's end that nothing opened"));
    }
    const qint64 endId = lone.value(0).toLongLong();
    const QString endTool = lone.value(1).toString();
    const QVariant endSeq = lone.value(2);
    const QVariant resultSeq = lone.value(3);
    const QVariant endedUs = lone.value(4);
    QVariant duration = lone.value(5);
    QVariant source = lone.value(6);
    lone.finish();
    if (!startTool.isEmpty() && !endTool.isEmpty() && startTool != endTool) {
        throw StoreError(m_ws.path(), QStringLiteral("events %1 and %2").arg(start).arg(end),
            QStringLiteral("event %1 calls %2, event %3 ends %4")
                .arg(QString::number(start), startTool, QString::number(end), endTool));
    }
    if (source.toString() != DurationSource::Recorded) {
        // The time between them, when both have one.
        const std::optional<qint64> ms = startedUs.isNull() || endedUs.isNull() || startedUs.toLongLong() == 0
            ? std::nullopt
            : TimeUtil::durationMs(startedUs.toLongLong(), endedUs.toLongLong());
        duration = ms ? QVariant(*ms) : QVariant();
        // As the room's other calls are timed: a log stamped to the second (an EVENT.md) gives "4 s ± 1 s", never
        // "4000 ms (from timestamps)" as if measured.
        QSqlQuery seconds = m_ws.exec(QStringLiteral("SELECT 1 FROM tool_calls WHERE room_id = ? AND duration_source = ? LIMIT 1"),
            { roomId, DurationSource::Seconds });
        const bool wholeSeconds = seconds.next();
        seconds.finish();
        source = ms ? QVariant(wholeSeconds ? DurationSource::Seconds : DurationSource::Timestamps) : QVariant();
    }
    m_ws.exec(QStringLiteral("UPDATE tool_calls SET (tool_name, tool_id, group_id, end_seq, ended_us, status, outcome, "
                             "error, result, result_seq, synthetic) = (SELECT coalesce(s.tool_name, e.tool_name), "
                             "coalesce(s.tool_id, e.tool_id), coalesce(s.group_id, e.group_id), e.end_seq, e.ended_us, "
                             "e.status, e.outcome, e.error, e.result, e.result_seq, e.synthetic FROM tool_calls s, "
                             "tool_calls e WHERE s.id = ? AND e.id = ?), duration_ms = ?, duration_source = ?, pairing = "
                             "?, ambiguous = 0 WHERE id = ?"),
        { startId, endId, duration, source, Pairings::name(Pairing::Manual), startId });
    m_ws.exec(QStringLiteral("DELETE FROM tool_calls WHERE id = ?"), { endId });
    setPairingFlags(roomId, start, 0);
    for (const QVariant& at : { endSeq, resultSeq }) {
        if (!at.isNull())
            setPairingFlags(roomId, at.toLongLong(), EventFlags::Folded); // shown in its card now
    }
    recount(roomId);
}

QByteArray PairFixer::snapshot(qint64 roomId, qint64 start, qint64 end)
{
    QJsonArray calls;
    QSqlQuery q = m_ws.exec(QStringLiteral("SELECT * FROM tool_calls WHERE ") + touching + QStringLiteral(" ORDER BY id"),
        { roomId, start, end, start, end, start, end });
    QVector<qint64> rows { start, end };
    while (q.next()) {
        const QSqlRecord record = q.record();
        QJsonObject call;
        for (int c = 0; c < record.count(); ++c) {
            // A packed argument or result (TextPacker) is kept as its text: the snapshot is JSON, and restored it is
            // stored as text, which reads the same.
            const QVariant value = q.value(c);
            call.insert(record.fieldName(c),
                value.typeId() == QMetaType::QByteArray ? QJsonValue(QString::fromUtf8(m_ws.packer().unpack(value.toByteArray())))
                                                        : jsonOf(value));
        }
        for (const char* column : { "start_seq", "end_seq", "result_seq" }) {
            const QJsonValue at = call.value(QLatin1String(column));
            if (at.isDouble() && !rows.contains(at.toInteger()))
                rows.append(at.toInteger());
        }
        calls.append(call);
    }
    q.finish();
    QJsonObject flags;
    for (qint64 at : std::as_const(rows)) {
        QSqlQuery f = m_ws.exec(QStringLiteral("SELECT flags FROM events WHERE room_id = ? AND seq = ?"), { roomId, at });
        if (f.next())
            flags.insert(QString::number(at), f.value(0).toInt() & pairingFlags);
    }
    return QJsonDocument(QJsonObject { { QStringLiteral("calls"), calls }, { QStringLiteral("flags"), flags } })
        .toJson(QJsonDocument::Compact);
}

void PairFixer::restore(qint64 roomId, qint64 start, qint64 end, const QByteArray& snapshot)
{
    const QJsonObject taken = QJsonDocument::fromJson(snapshot).object();
    m_ws.exec(QStringLiteral("DELETE FROM tool_calls WHERE ") + touching, { roomId, start, end, start, end, start, end });
    for (const QJsonValue& value : taken.value(QLatin1String("calls")).toArray()) {
        const QJsonObject call = value.toObject();
        QStringList columns;
        QStringList marks;
        QVariantList binds;
        for (auto it = call.constBegin(); it != call.constEnd(); ++it) {
            columns << it.key();
            marks << QStringLiteral("?");
            binds << variantOf(it.value());
        }
        // The column names are those SELECT * gave, and a snapshot is only ever one this class made.
        m_ws.exec(QStringLiteral("INSERT OR REPLACE INTO tool_calls(") + columns.join(QLatin1Char(','))
                + QStringLiteral(") VALUES (") + marks.join(QLatin1Char(',')) + QLatin1Char(')'),
            binds);
    }
    const QJsonObject flags = taken.value(QLatin1String("flags")).toObject();
    for (auto it = flags.constBegin(); it != flags.constEnd(); ++it)
        setPairingFlags(roomId, it.key().toLongLong(), it.value().toInt());
    recount(roomId);
}

void PairFixer::recount(qint64 roomId)
{
    m_ws.exec(QStringLiteral("UPDATE rooms SET tool_calls = (SELECT count(*) FROM tool_calls WHERE room_id = ?), "
                             "failed = (SELECT count(*) FROM tool_calls WHERE room_id = ? AND outcome = 'failed'), "
                             "refused = (SELECT count(*) FROM tool_calls WHERE room_id = ? AND outcome = 'refused'), "
                             "unserved = (SELECT count(*) FROM tool_calls WHERE room_id = ? AND outcome = 'unserved') "
                             "WHERE id = ?"),
        { roomId, roomId, roomId, roomId, roomId });
}
