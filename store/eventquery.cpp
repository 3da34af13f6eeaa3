#include "eventquery.h"

#include "eventflags.h"
#include "storeerror.h"

#include <QStringList>

const QString EventQuery::columns = QStringLiteral(
    "id, seq, native_id, type, kind, status, blocked_by, channel_id, channel_type, participant_id, correlation_id, "
    "parent_id, created_us, role, tool_name, tool_id, outcome, text, flags, group_id, message_id, source_line");

namespace {

QString placeholders(const QStringList& values, QVariantList& binds)
{
    QStringList marks;
    for (const QString& value : values) {
        marks << QStringLiteral("?");
        binds << value;
    }
    return marks.join(QLatin1Char(','));
}

} // namespace

QString EventQuery::where(const EventFilter& f, QVariantList& binds)
{
    QString sql;
    if (!f.includeBlocked)
        sql += QStringLiteral(" AND blocked = 0");
    if (!f.types.isEmpty())
        sql += QStringLiteral(" AND type IN (") + placeholders(f.types, binds) + QLatin1Char(')');
    if (!f.kinds.isEmpty())
        sql += QStringLiteral(" AND kind IN (") + placeholders(f.kinds, binds) + QLatin1Char(')');
    if (!f.excludeTypes.isEmpty())
        sql += QStringLiteral(" AND type NOT IN (") + placeholders(f.excludeTypes, binds) + QLatin1Char(')');
    auto equals = [&](const char* column, const QString& value) {
        if (!value.isEmpty()) {
            sql += QStringLiteral(" AND ") + QLatin1String(column) + QStringLiteral(" = ?");
            binds << value;
        }
    };
    equals("channel_id", f.channelId);
    equals("channel_type", f.channelType);
    equals("participant_id", f.participantId);
    equals("correlation_id", f.correlationId);
    equals("group_id", f.groupId);
    if (f.timelineItems)
        sql += QStringLiteral(" AND (flags & %1) = 0").arg(int(EventFlags::Folded));
    if (f.topLevelOnly)
        sql += QStringLiteral(" AND parent_id IS NULL");
    if (f.afterMicros) {
        sql += QStringLiteral(" AND created_us > ?");
        binds << *f.afterMicros;
    }
    if (f.beforeMicros) {
        sql += QStringLiteral(" AND created_us < ?");
        binds << *f.beforeMicros;
    }
    return sql;
}

EventQuery EventQuery::page(qint64 roomId, const EventFilter& filter, const PageRequest& page)
{
    if (page.afterIndex && page.beforeIndex)
        throw StoreError({}, {}, QStringLiteral("after_index and before_index are mutually exclusive"));
    if (page.newestFirst && (page.afterIndex || page.beforeIndex))
        throw StoreError({}, {}, QStringLiteral("newest_first applies only without an index cursor"));
    if (page.limit < 0 || page.offset < 0)
        throw StoreError({}, {}, QStringLiteral("limit and offset must not be negative"));

    EventQuery q;
    q.binds << roomId;
    QString where = QStringLiteral("room_id = ?") + EventQuery::where(filter, q.binds);
    // The tail windows (newest_first, before_index) read backwards and are turned around outside SQL.
    bool descending = page.newestFirst;
    if (page.afterIndex) {
        where += QStringLiteral(" AND seq > ?");
        q.binds << *page.afterIndex;
    } else if (page.beforeIndex) {
        where += QStringLiteral(" AND seq < ?");
        q.binds << *page.beforeIndex;
        descending = true;
    }
    q.sql = QStringLiteral("SELECT ") + columns + QStringLiteral(" FROM events WHERE ") + where
        + QStringLiteral(" ORDER BY seq ") + (descending ? QStringLiteral("DESC") : QStringLiteral("ASC"))
        + QStringLiteral(" LIMIT ? OFFSET ?");
    q.binds << page.limit << page.offset;
    if (descending)
        q.sql = QStringLiteral("SELECT * FROM (") + q.sql + QStringLiteral(") ORDER BY seq ASC");
    return q;
}

EventQuery EventQuery::count(qint64 roomId, const EventFilter* filter)
{
    EventQuery q;
    q.binds << roomId;
    q.sql = QStringLiteral("SELECT count(*) FROM events WHERE room_id = ?");
    if (filter)
        q.sql += where(*filter, q.binds);
    return q;
}

EventQuery EventQuery::conversation(qint64 roomId, int limit, std::optional<qint64> afterIndex)
{
    if (limit < 0)
        throw StoreError({}, {}, QStringLiteral("limit must not be negative"));
    EventQuery q;
    q.binds << roomId;
    const QString base
        = QStringLiteral("SELECT ") + columns + QStringLiteral(" FROM events WHERE room_id = ? AND type = 'message'");
    if (afterIndex) {
        q.sql = base + QStringLiteral(" AND seq > ? ORDER BY seq ASC LIMIT ?");
        q.binds << *afterIndex << limit;
    } else {
        q.sql
            = QStringLiteral("SELECT * FROM (") + base + QStringLiteral(" ORDER BY seq DESC LIMIT ?) ORDER BY seq ASC");
        q.binds << limit;
    }
    return q;
}
