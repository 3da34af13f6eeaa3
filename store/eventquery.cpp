#include "eventquery.h"

#include "eventflags.h"
#include "eventkind.h"
#include "facetcounter.h"
#include "recordreader.h"
#include "storeerror.h"
#include "wordcodes.h"

#include <climits>
#include <QStringList>


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

const QString folded = QStringLiteral("(events.flags & %1)").arg(int(EventFlags::Folded));

} // namespace

QString EventQuery::outcomeOf(const QString& t)
{
    // A call's outcome is a fact of each of its rows: the row that settled it holds it, and its start takes it from
    // the call. So a card (its start standing for the call) and the raw rows give one answer: a note or a label on
    // the start meets outcome: there (`is:noted outcome:refused` showed the card while "showing 0 events" and the
    // panes and `events --query` found none), and so do the words of its arguments.
    return QStringLiteral("coalesce(%1.outcome, CASE WHEN %1.kind = %2 THEN (SELECT c.outcome FROM "
                          "tool_calls c WHERE c.room_id = %1.room_id AND c.start_seq = %1.seq) END)")
        .arg(t, EventKinds::literal(EventKind::ToolCall));
}

QString EventQuery::callValue(const QString& t, const QString& expression)
{
    // The call row `t` is one of: its start, end or result, so that pairing:, duration: and outcome: meet on every
    // row of the call, and a card (its start, or its end when it has none) and the raw rows give one answer. Each
    // a seek on an index of tool_calls (schema steps 1 and 6).
    return QStringLiteral("(CASE WHEN %1.kind = %3 THEN coalesce((SELECT %2 FROM tool_calls c WHERE "
                          "c.room_id = %1.room_id AND c.start_seq = %1.seq), (SELECT %2 FROM tool_calls c WHERE "
                          "c.room_id = %1.room_id AND c.end_seq = %1.seq), (SELECT %2 FROM tool_calls c WHERE "
                          "c.room_id = %1.room_id AND c.result_seq = %1.seq)) END)")
        .arg(t, expression, EventKinds::literal(EventKind::ToolCall));
}

QString EventQuery::annotated(const QString& t, const QString& field, const QStringList& values, QVariantList& binds)
{
    // Whether row `t` has one of `values`: a seek per row on annotations(room_id, seq, kind), only when the
    // filter asks. A detached annotation's event is gone from the source: it marks no other row.
    auto exists = [&t](const QString& condition) {
        return QStringLiteral("EXISTS (SELECT 1 FROM annotations a WHERE a.room_id = %1.room_id AND a.seq = %1.seq "
                              "AND a.present = 1 AND a.detached = 0 AND %2)")
            .arg(t, condition);
    };
    if (field == QLatin1String("label")) { // names are kept in lower case
        QStringList names;
        for (const QString& v : values)
            names << v.toLower();
        // (Built in steps: GCC's -O3 warns about a QStringBuilder chain of a literal and a call here.)
        QString condition = QStringLiteral("a.kind = 'label' AND a.value IN (");
        condition += placeholders(names, binds);
        condition += QLatin1Char(')');
        return exists(condition);
    }
    if (field == QLatin1String("note")) {
        QStringList any;
        for (QString word : values) {
            word.replace(QLatin1Char('\\'), QStringLiteral("\\\\"))
                .replace(QLatin1Char('%'), QStringLiteral("\\%"))
                .replace(QLatin1Char('_'), QStringLiteral("\\_"));
            any << QStringLiteral("a.value LIKE ? ESCAPE '\\'");
            binds << QString(QLatin1Char('%') + word + QLatin1Char('%'));
        }
        QString condition = QStringLiteral("a.kind = 'note' AND (");
        condition += any.join(QStringLiteral(" OR "));
        condition += QLatin1Char(')');
        return exists(condition);
    }
    // is: a state each, its kind of annotation.
    QStringList kinds;
    for (const QString& state : values) {
        if (state == QLatin1String("marked"))
            kinds << QStringLiteral("'mark'");
        else if (state == QLatin1String("noted"))
            kinds << QStringLiteral("'note'");
        else if (state == QLatin1String("labelled"))
            kinds << QStringLiteral("'label'");
    }
    // redacted: a flag of the row itself (RedactionStore), no annotation.
    QStringList either;
    if (values.contains(QLatin1String("redacted")))
        either << QStringLiteral("(%1.flags & %2) != 0").arg(t).arg(int(EventFlags::Redacted));
    // edited: likewise, a flag of the row a reviewer edited (EditStore).
    if (values.contains(QLatin1String("edited")))
        either << QStringLiteral("(%1.flags & %2) != 0").arg(t).arg(int(EventFlags::Revised));
    // warned: what the source's protocol says is wrong on the row (events.warning).
    if (values.contains(QLatin1String("warned")))
        either << QStringLiteral("%1.warning IS NOT NULL").arg(t);
    if (!kinds.isEmpty()) {
        QString condition = QStringLiteral("a.kind IN (");
        condition += kinds.join(QLatin1Char(','));
        condition += QLatin1Char(')');
        either << exists(condition);
    }
    if (either.isEmpty())
        return QStringLiteral("0");
    QString any = QStringLiteral("(");
    any += either.join(QStringLiteral(" OR "));
    any += QLatin1Char(')');
    return any;
}

QString EventQuery::ftsMatch(const QStringList& words, bool any)
{
    QStringList terms;
    for (QString word : words) {
        word.replace(QLatin1Char('"'), QStringLiteral("\"\""));
        terms << QLatin1Char('"') + word + QLatin1Char('"');
    }
    return terms.join(any ? QStringLiteral(" OR ") : QStringLiteral(" "));
}

QString EventQuery::scope(qint64 roomId, const EventFilter& f, QVariantList& binds)
{
    QString sql;
    // group_id and correlation_id have no index (scattered keys, schema step 4): a RoomKit turn's AI response
    // spans every row of its correlation id (its group), so the rows are sought by (room_id, seq) within it.
    // Other systems' runs need not hold all of their group's rows, nor have they AI responses: there the room
    // is read.
    if (f.groups.size() == 1) {
        sql += QStringLiteral(" AND events.seq BETWEEN coalesce((SELECT min(first_seq) FROM runs WHERE room_id = ? "
                              "AND group_id = ? AND kind = 'ai_response'), -9223372036854775807) AND "
                              "coalesce((SELECT max(last_seq) FROM runs WHERE room_id = ? AND group_id = ? AND "
                              "kind = 'ai_response'), 9223372036854775807)");
        binds << roomId << f.groups.first() << roomId << f.groups.first();
    }
    if (f.blockedOnly && f.timelineItems) {
        // A blocked call's card: its start is not a blocked row, its end (folded into the card) is.
        sql += QStringLiteral(" AND (events.blocked = 1 OR ") + outcomeOf(QStringLiteral("events"))
            + QStringLiteral(" = 'blocked')");
    } else if (f.blockedOnly) {
        sql += QStringLiteral(" AND events.blocked = 1");
    } else if (f.hidesBlocked() && !f.words.isEmpty() && !f.timelineItems) {
        // A search in the raw rows finds the words a card shows, its blocked end's result too (the timeline's item
        // is matched by its folded rows: itemMatch).
        sql += QStringLiteral(" AND ") + readable(QStringLiteral("events"));
    } else if (f.hidesBlocked()) {
        sql += QStringLiteral(" AND events.blocked = 0");
    }
    if (f.topLevelOnly)
        sql += QStringLiteral(" AND events.parent_id IS NULL");
    if (f.afterMicros) {
        sql += QStringLiteral(" AND events.created_us > ?");
        binds << *f.afterMicros;
    }
    if (f.beforeMicros) {
        sql += QStringLiteral(" AND events.created_us < ?");
        binds << *f.beforeMicros;
    }
    return sql;
}

QString EventQuery::readable(const QString& t)
{
    return QStringLiteral("(%1.blocked = 0 OR ((%1.flags & %2) != 0 AND EXISTS (SELECT 1 FROM tool_calls c JOIN events s ON "
                          "s.room_id = c.room_id AND s.seq = c.start_seq WHERE c.room_id = %1.room_id AND %1.seq IN "
                          "(c.end_seq, c.result_seq) AND s.blocked = 0)))")
        .arg(t)
        .arg(int(EventFlags::Folded));
}

QString EventQuery::predicate(const EventFilter& f, const QString& t, QVariantList& binds)
{
    QString sql;
    auto in = [&](const char* column, const QStringList& values, bool negate) {
        if (values.isEmpty())
            return;
        if (qstrcmp(column, "label") == 0 || qstrcmp(column, "note") == 0 || qstrcmp(column, "is") == 0) {
            sql += QStringLiteral(" AND ") + (negate ? QStringLiteral("NOT ") : QString())
                + annotated(t, QLatin1String(column), values, binds);
            return;
        }
        if (qstrcmp(column, "group_id") == 0) {
            // A row holds its room's number for its group (schema step 24): the numbers of the ids asked for, of
            // every room, are found once (the subquery does not depend on the row), where reading each row's id
            // was a seek a row (a filter over 900,000 rows 0.15 -> 0.5 s).
            const QString numbered = QStringLiteral("(%1.room_id, %1.group_id) %2 (SELECT g.room_id, g.number FROM turns g "
                                                    "WHERE g.native IN (")
                                         .arg(t, negate ? QStringLiteral("NOT IN") : QStringLiteral("IN"))
                + placeholders(values, binds) + QStringLiteral("))");
            if (negate)
                sql += QStringLiteral(" AND (%1.group_id IS NULL OR ").arg(t) + numbered + QLatin1Char(')');
            else
                sql += QStringLiteral(" AND ") + numbered;
            return;
        }
        QString c = t + QLatin1Char('.') + QLatin1String(column);
        if (qstrcmp(column, "outcome") == 0)
            c = outcomeOf(t);
        else if (qstrcmp(column, "pairing") == 0)
            c = callValue(t, QStringLiteral("c.pairing"));
        QString list = placeholders(values, binds);
        if (WordCodes::holdsWords(column)) {
            // Kept as its word's code (schema step 26): the code of each name asked for, found once a statement. As
            // a list of values, one subquery each, as the names were: SQLite seeks the type index for one of them
            // (`=`), where a list made by one subquery read the whole room for a type it lacks (0 -> 170 ms at a
            // million events). Excluded: the codes there are, so that a name with none excludes nothing.
            if (negate) {
                list = QStringLiteral("SELECT code FROM words WHERE name IN (") + list + QLatin1Char(')');
            } else {
                QStringList each;
                for (qsizetype i = 0; i < values.size(); ++i)
                    each << QStringLiteral("(SELECT code FROM words WHERE name = ?)");
                if (values.size() == 1) {
                    sql += QStringLiteral(" AND ") + c + QStringLiteral(" = ") + each.first();
                    return;
                }
                list = each.join(QLatin1Char(','));
            }
        }
        // NOT IN is unknown on NULL: a row without the column is not one of the excluded values.
        if (negate) {
            sql += QStringLiteral(" AND (") + c + QStringLiteral(" IS NULL OR ") + c + QStringLiteral(" NOT IN (")
                + list + QStringLiteral("))");
        } else {
            sql += QStringLiteral(" AND ") + c + QStringLiteral(" IN (") + list + QLatin1Char(')');
        }
    };
    for (const EventFilterList& list : eventFilterLists()) {
        in(list.column, f.*list.any, false);
        in(list.column, f.*list.none, true);
    }
    // Durations and indexes: one of the spans, none of the excluded ones; a row of no call has no duration.
    auto spans = [&](const QVector<NumberRange>& ranges, bool negate, const QString& d) {
        if (ranges.isEmpty())
            return;
        QStringList any;
        for (const NumberRange& r : ranges) {
            any << d + QStringLiteral(" BETWEEN ? AND ?");
            binds << r.min << r.max;
        }
        const QString either = QLatin1Char('(') + any.join(QStringLiteral(" OR ")) + QLatin1Char(')');
        if (negate)
            sql += QStringLiteral(" AND (") + d + QStringLiteral(" IS NULL OR NOT ") + either + QLatin1Char(')');
        else
            sql += QStringLiteral(" AND ") + either;
    };
    const QString duration = callValue(t, QStringLiteral("c.duration_ms"));
    spans(f.durations, false, duration);
    spans(f.excludeDurations, true, duration);
    // Indexes: the row's own (seq is never NULL, so an excluded range is a plain NOT).
    spans(f.indexes, false, t + QStringLiteral(".seq"));
    spans(f.excludeIndexes, true, t + QStringLiteral(".seq"));
    // The rows holding the words, as a list made once. On the rows folded into a card or a message (a correlated
    // subquery, run once per card) the list must not drive the loop: without statistics SQLite would walk every
    // hit for every card (minutes at a million events). The unary + keeps it a check on the row found.
    const QString id = (t == QLatin1String("events") ? QString() : QStringLiteral("+")) + t + QStringLiteral(".id");
    if (!f.words.isEmpty()) {
        sql += QStringLiteral(" AND ") + id + QStringLiteral(" IN (SELECT rowid FROM events_fts WHERE events_fts MATCH ?)");
        binds << ftsMatch(f.words, false);
    }
    if (!f.excludeWords.isEmpty()) {
        sql += QStringLiteral(" AND ") + id
            + QStringLiteral(" NOT IN (SELECT rowid FROM events_fts WHERE events_fts MATCH ?)");
        binds << ftsMatch(f.excludeWords, true);
    }
    return sql;
}

QString EventQuery::where(qint64 roomId, const EventFilter& f, QVariantList& binds)
{
    QString sql = scope(roomId, f, binds);
    if (!f.timelineItems)
        return sql + predicate(f, QStringLiteral("events"), binds);
    // An item is a row not folded into another; it matches when it does, or when a row of its card does.
    return sql + QStringLiteral(" AND ") + folded + QStringLiteral(" = 0 AND ") + itemMatch(roomId, f, binds);
}

QString EventQuery::wordCandidates(qint64 roomId, const EventFilter& f, QVariantList& binds)
{
    // An item matches by a row of its own that holds every word (itemMatch: the row itself, its card's end or
    // result, its streamed arguments, its message's deltas), so only the items that own a hit can: the hits
    // themselves, the cards their ends and results close, the messages their deltas build, and (AG-UI) the calls
    // their arguments stream into. Found from the hits, a seek or two each, the room's rows are then sought by
    // seq instead of each row's EXISTS being run: finding a word in a room of a million events took 0.75 s, nearly
    // all of it cards without the word. For the passes over a whole room (counts, the row index) only: a page
    // stops at its first rows, and making the list first took its first screen of a common word from 60 to 490 ms
    // (115,000 hits). CROSS JOIN keeps the hits first: left to choose, SQLite walked the room's
    // calls and looked each one up among the hits.
    if (f.words.isEmpty())
        return {};
    binds << ftsMatch(f.words, false) << roomId << roomId << roomId << roomId << roomId << roomId;
    return QStringLiteral(
        " AND events.seq IN (WITH h AS MATERIALIZED (SELECT e.seq, e.kind, e.message_id, e.tool_id FROM (SELECT rowid "
        "AS id FROM events_fts WHERE events_fts MATCH ?) x CROSS JOIN events e ON e.id = x.id AND e.room_id = ?) "
        "SELECT seq FROM h "
        "UNION ALL SELECT c.start_seq FROM h CROSS JOIN tool_calls c ON c.room_id = ? AND c.end_seq = h.seq "
        "UNION ALL SELECT c.start_seq FROM h CROSS JOIN tool_calls c ON c.room_id = ? AND c.result_seq = h.seq "
        "UNION ALL SELECT m.seq FROM h CROSS JOIN events m INDEXED BY events_room_message ON m.room_id = ? AND "
        "m.message_id = h.message_id AND m.kind = h.kind WHERE h.message_id IS NOT NULL AND (m.flags & %1) = 0 "
        "UNION ALL SELECT c.start_seq FROM tool_calls c WHERE (SELECT s.system FROM rooms r JOIN sources s ON s.id = "
        "r.source_id WHERE r.id = ?) = 'agui' AND c.room_id = ? AND c.tool_id IN (SELECT tool_id FROM h WHERE kind = "
        "%2 AND tool_id IS NOT NULL))")
        .arg(int(EventFlags::Folded))
        .arg(EventKinds::literal(EventKind::ToolCall));
}

QString EventQuery::itemMatch(qint64 roomId, const EventFilter& f, QVariantList& binds)
{
    // By its own row, a card's start standing for its call (its outcome is the call's); or, for a card or an
    // assembled message (AG-UI), by a row folded into it: its end or result, its deltas.
    const QString direct
        = QStringLiteral("(1") + predicate(f, QStringLiteral("events"), binds) + QLatin1Char(')');
    QVariantList inner;
    const QString p = predicate(f, QStringLiteral("f"), inner);
    if (p.isEmpty())
        return direct;
    binds += inner;
    binds << roomId;
    binds += inner;
    binds += inner;
    // CASE, not OR: in a select list SQLite evaluates both sides of AND and OR, and each EXISTS is a seek per
    // row. A card holds its call's end and result when they are folded into it (a result a snapshot brought is a
    // row of its own), and its streamed arguments (AG-UI TOOL_CALL_ARGS): between its start and its end (its run's
    // end when nothing answered it), under its id, a range of the room's rows that is empty where the end follows
    // the start. Only an AG-UI call streams its arguments: elsewhere the range is not read (a RoomKit card's range
    // holds its parallel calls' rows, and its seeks made the tool statistics under a filter twice as slow at a
    // million events; the room's system is read once, a subquery on no row's column). A tool call names the
    // message it answers in its message id (AG-UI parentMessageId): a message's own rows are those of its kind.
    // INDEXED BY: without statistics SQLite would rather scan the room's covering index than seek the message's rows.
    const QString foldedF = QString(folded).replace(QLatin1String("events."), QLatin1String("f."));
    const QString toolCall = EventKinds::literal(EventKind::ToolCall);
    return QStringLiteral("(CASE WHEN ") + direct
        + QStringLiteral(" THEN 1 WHEN events.kind = ") + toolCall + QStringLiteral(" THEN (CASE WHEN EXISTS (SELECT 1 FROM tool_calls c JOIN events f "
                         "ON f.room_id = c.room_id AND f.seq IN (c.end_seq, c.result_seq) WHERE c.room_id = "
                         "events.room_id AND c.start_seq = events.seq AND ")
        + foldedF + QStringLiteral(" != 0") + p
        + QStringLiteral(") THEN 1 WHEN (SELECT s.system FROM rooms r JOIN sources s ON s.id = r.source_id WHERE r.id = ?) "
                         "= 'agui' THEN EXISTS (SELECT 1 FROM tool_calls c JOIN events f ON f.room_id = c.room_id AND f.seq > "
                         "c.start_seq AND f.seq < coalesce(c.end_seq, c.result_seq, (SELECT max(r.last_seq) + 1 FROM runs r WHERE "
                         "r.room_id = c.room_id AND r.group_id = c.group_id), c.start_seq) WHERE c.room_id = events.room_id AND "
                         "c.start_seq = events.seq AND f.kind = ") + toolCall + QStringLiteral(" AND f.tool_id = c.tool_id AND ")
        + foldedF + QStringLiteral(" != 0") + p
        + QStringLiteral(") ELSE 0 END) WHEN events.kind IN (%1, %2) AND events.message_id IS NOT NULL THEN ")
              .arg(EventKinds::literal(EventKind::Message), EventKinds::literal(EventKind::Reasoning))
        + QStringLiteral("EXISTS (SELECT 1 FROM events f INDEXED BY events_room_message WHERE f.room_id = "
                         "events.room_id AND f.message_id IS NOT NULL AND f.message_id = events.message_id AND "
                         "f.kind = events.kind AND ")
        + foldedF + QStringLiteral(" != 0") + p + QStringLiteral(") ELSE 0 END)");
}

EventQuery EventQuery::rowIndex(qint64 roomId, const EventFilter& f)
{
    // One pass: each row says whether it is a row of the list (`item`) and whether it is an event the filter
    // lets through (`direct`). In the timeline a card's folded end is an event but not a row, and a card is a
    // row when its end matches even though its start does not.
    EventFilter rows = f;
    rows.timelineItems = false;
    // Placeholders bind in the order they appear in the text: the select list, then the WHERE clause.
    auto direct = [&](QVariantList& binds) -> QString {
        // An event shown is a row of the raw rows: under blocked:only a blocked card's start is not one.
        return QStringLiteral("(1") + predicate(rows, QStringLiteral("events"), binds)
            + (f.blockedOnly ? QStringLiteral(" AND events.blocked = 1") : QString()) + QLatin1Char(')');
    };
    auto item = [&](QVariantList& binds) -> QString {
        return QStringLiteral("(CASE WHEN ") + folded + QStringLiteral(" != 0 THEN 0 ELSE ") + itemMatch(roomId, rows, binds)
            + QStringLiteral(" END)");
    };
    // Each part is made in its own statement: the operands of one `+` chain are evaluated in no set order, and
    // two parts that append binds in one expression bound them out of order (a time bound with a channel counted
    // nothing).
    EventQuery q;
    const QString itemExpr = f.timelineItems ? item(q.binds) : QStringLiteral("1");
    const QString directExpr = direct(q.binds);
    q.binds << roomId;
    QString scoped = scope(roomId, f, q.binds);
    if (f.timelineItems)
        scoped += wordCandidates(roomId, f, q.binds);
    const QString directWhere = direct(q.binds);
    const QString itemWhere = f.timelineItems ? QStringLiteral(" OR ") + item(q.binds) : QString();
    q.sql = QStringLiteral("SELECT seq, ") + itemExpr + QStringLiteral(", ") + directExpr
        + QStringLiteral(" FROM events WHERE room_id = ?") + scoped + QStringLiteral(" AND (") + directWhere
        + itemWhere + QStringLiteral(") ORDER BY seq");
    return q;
}

EventQuery EventQuery::facets(qint64 roomId, const EventFilter& f)
{
    EventQuery q;
    QStringList parts;
    // Placeholders bind in the order they appear in the text: the mask's parts in turn, then the room.
    auto add = [&](const QString& condition, int bit) {
        if (!condition.isEmpty())
            parts << QStringLiteral("((NOT coalesce(") + condition + QStringLiteral(", 0)) << ") + QString::number(bit)
                    + QLatin1Char(')');
    };
    // The fields with a pane of their own, each its own bit; every other part of the filter is the rest.
    const std::pair<const char*, int> panes[] = { { "type", TypeBit }, { "kind", KindBit },
        { "channel", ChannelBit }, { "channel_type", ChannelTypeBit }, { "participant", ParticipantBit },
        { "tool", ToolBit }, { "outcome", OutcomeBit }, { "label", LabelBit }, { "is", StateBit } };
    EventFilter rest = f;
    for (const auto& [name, bit] : panes) {
        EventFilter only;
        for (const EventFilterList& list : eventFilterLists()) {
            if (qstrcmp(list.name, name) == 0) {
                only.*list.any = f.*list.any;
                only.*list.none = f.*list.none;
                (rest.*list.any).clear();
                (rest.*list.none).clear();
            }
        }
        QVariantList binds;
        const QString p = predicate(only, QStringLiteral("events"), binds);
        if (!p.isEmpty()) {
            q.binds += binds;
            add(QStringLiteral("(1") + p + QLatin1Char(')'), bit);
        }
    }
    if (f.blockedOnly)
        add(QStringLiteral("events.blocked = 1"), BlockedBit);
    else if (f.hidesBlocked())
        add(QStringLiteral("events.blocked = 0"), BlockedBit);
    if (f.afterMicros || f.beforeMicros) {
        EventFilter time;
        time.includeBlocked = true;
        time.afterMicros = f.afterMicros;
        time.beforeMicros = f.beforeMicros;
        add(QStringLiteral("(1") + scope(roomId, time, q.binds) + QLatin1Char(')'), TimeBit);
    }
    // The rest (words, AI responses, pairings, durations, thread replies): predicate() reads no time or blocked
    // rows, which have bits of their own above.
    QVariantList binds;
    QString other = predicate(rest, QStringLiteral("events"), binds);
    if (f.topLevelOnly)
        other += QStringLiteral(" AND events.parent_id IS NULL");
    if (!other.isEmpty()) {
        q.binds += binds;
        add(QStringLiteral("(1") + other + QLatin1Char(')'), OtherBit);
    }
    q.binds << roomId;
    // The outcome as stored: a call's start carries its call's, which the reader of this statement finds by seq
    // among the room's calls (a subquery per row here made every pane's count twice as slow).
    q.sql = QStringLiteral("SELECT ")
        + FacetCounter::selectList(parts.isEmpty() ? QStringLiteral("0") : parts.join(QStringLiteral(" | ")))
        + QStringLiteral(" FROM events WHERE room_id = ?");
    return q;
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
    QString where = QStringLiteral("room_id = ?") + EventQuery::where(roomId, filter, q.binds);
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
    q.sql = QStringLiteral("SELECT ") + RecordReader::EventColumns + QStringLiteral(" FROM events WHERE ") + where
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
    if (filter && filter->timelineItems)
        q.sql += wordCandidates(roomId, *filter, q.binds);
    if (filter)
        q.sql += where(roomId, *filter, q.binds);
    return q;
}

EventQuery EventQuery::count(qint64 roomId, const EventFilter& filter, const PageRequest& window)
{
    if (!window.afterIndex && !window.beforeIndex && window.offset == 0 && window.limit == INT_MAX)
        return count(roomId, &filter); // the whole of it: a count over the indexes, no row read
    EventQuery q = page(roomId, filter, window);
    q.sql = QStringLiteral("SELECT count(*) FROM (") + q.sql + QLatin1Char(')');
    return q;
}

QString EventQuery::messageRows(bool assembled)
{
    // RoomKit's get_conversation: its rows of type message. Elsewhere a message is assembled from several rows
    // (AG-UI deltas): the rows that show one, and those that show messages a snapshot or a run's input brought.
    return assembled ? QStringLiteral("(kind = %3 OR (flags & %1) != 0) AND (flags & %2) = 0")
                           .arg(int(EventFlags::FromSnapshot))
                           .arg(int(EventFlags::Folded))
                           .arg(EventKinds::literal(EventKind::Message))
                     : QStringLiteral("type = (SELECT code FROM words WHERE name = 'message')");
}

EventQuery EventQuery::conversation(qint64 roomId, int limit, std::optional<qint64> afterIndex, bool assembled)
{
    if (limit < 0)
        throw StoreError({}, {}, QStringLiteral("limit must not be negative"));
    EventQuery q;
    q.binds << roomId;
    const QString messages = messageRows(assembled);
    const QString base = QStringLiteral("SELECT ") + RecordReader::EventColumns
        + QStringLiteral(" FROM events WHERE room_id = ? AND ") + messages;
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
