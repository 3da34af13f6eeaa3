// One filter, one answer: a table of filters run on every room of every fixture source, asked everywhere a
// user can ask it (the raw rows and the timeline as the store pages them, their row index and "X of Y", the
// filter panes' counts, the event model the window shows, and the CLI's `events --json` and `events --count`),
// and every answer compared with a reference the test computes from the rows themselves.

#include "annotationstore.h"
#include "eventflags.h"
#include "jsonstrings.h"
#include "cli.h"
#include "eventlistmodel.h"
#include "eventquery.h"
#include "filterquery.h"
#include "sources/importer.h"
#include "storeclient.h"
#include "testsupport.h"
#include "timeutil.h"
#include "workspace.h"

#include <algorithm>
#include <QAbstractItemModelTester>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTest>
#include <QSet>
#include <QSqlQuery>
#include <QRegularExpression>

using namespace TestSupport;

namespace {

// What the test knows of a room: every row, blocked ones included, and every call.
struct Room
{
    RoomSummary summary;
    EventRecords rows;
    QHash<qint64, ToolCallRecord> callByStart;
    // What reviewers added, by index: label names, note texts, and the marked rows.
    QHash<qint64, QStringList> labels, notes;
    QSet<qint64> marked;
    QHash<qint64, ToolCallRecord> callByCard; // where its card is: its start, or its end when it has none
    QHash<qint64, ToolCallRecord> callByRow; // each row of a call: its start, end and result
    // The timeline item that shows a folded row: a call's end or result its card, a message's deltas the message.
    QHash<qint64, qint64> itemOfRow;
    QHash<qint64, const EventRecord*> byIndex; // into rows
};

QString valueOf(const EventRecord& r, const QString& field)
{
    if (field == QLatin1String("type"))
        return r.type;
    if (field == QLatin1String("kind"))
        return EventKinds::name(r.kind);
    if (field == QLatin1String("channel"))
        return r.channelId;
    if (field == QLatin1String("channel_type"))
        return r.channelType;
    if (field == QLatin1String("participant"))
        return r.participantId;
    if (field == QLatin1String("tool"))
        return r.toolName;
    if (field == QLatin1String("group"))
        return r.groupId;
    qFatal("no field %s", qPrintable(field));
}

// The reference: the filter's meaning as the README states it, in plain code over the rows.
class Reference
{
public:
    // `hits`: the rows that hold the filter's words, as the full-text index says (which rows hold a word is
    // SQLite's FTS5 to say; what the test checks is everything made of them: cards, messages, counts).
    Reference(const Room& room, const EventFilter& f, const QSet<qint64>& hits = {})
        : m_room(room)
        , m_f(f)
        , m_hits(hits)
    {
    }

    // A row's outcome: its own; for a call's start, its call's (a call's outcome is a fact of each of its rows).
    QString outcomeOf(const EventRecord& r) const
    {
        if (r.outcome != Outcome::None || EventKinds::name(r.kind) != QLatin1String("tool_call"))
            return Outcomes::name(r.outcome);
        const auto call = m_room.callByStart.find(r.index);
        return call == m_room.callByStart.end() ? QString() : Outcomes::name(call->outcome);
    }

    // `asItem`: as a timeline item, where blocked:only also shows the card of a blocked call (its start is not
    // a blocked row; its end, folded into the card, is).
    bool inScope(const EventRecord& r, bool asItem = false) const
    {
        const bool blocked = r.isBlocked() || (asItem && outcomeOf(r) == QLatin1String("blocked"));
        if (m_f.blockedOnly ? !blocked : (m_f.hidesBlocked() && r.isBlocked()))
            return false;
        if (m_f.afterMicros && !(r.createdMicros > *m_f.afterMicros))
            return false;
        if (m_f.beforeMicros && !(r.createdMicros < *m_f.beforeMicros))
            return false;
        return true;
    }

    // Every list field: one of its values when it has any, none of its excluded ones. `skip`: a field left out
    // (a pane counts its own field's values under the rest of the filter).
    bool matches(const EventRecord& r, const QString& skip = {}) const
    {
        for (const EventFilterList& list : eventFilterLists()) {
            const QString field = QLatin1String(list.name);
            if (field == skip)
                continue;
            if (field == QLatin1String("label") || field == QLatin1String("note") || field == QLatin1String("is")) {
                if (!annotationsMatch(r, field, m_f.*list.any, m_f.*list.none))
                    return false;
                continue;
            }
            const QString v = field == QLatin1String("outcome") ? outcomeOf(r)
                : field == QLatin1String("pairing")             ? pairingAt(r)
                                                                : valueOf(r, field);
            const QStringList& any = m_f.*list.any;
            const QStringList& none = m_f.*list.none;
            if (!any.isEmpty() && (v.isEmpty() || !any.contains(v)))
                return false;
            if (!v.isEmpty() && none.contains(v))
                return false;
        }
        // Durations: a call's, at its card's row.
        const std::optional<qint64> d = EventKinds::name(r.kind) == QLatin1String("tool_call") ? callAt(r).durationMs : std::nullopt;
        auto within = [&d](const QVector<NumberRange>& ranges) {
            return d && std::any_of(ranges.cbegin(), ranges.cend(),
                [&](const NumberRange& range) { return *d >= range.min && *d <= range.max; });
        };
        if (!m_f.durations.isEmpty() && !within(m_f.durations))
            return false;
        if (!m_f.excludeDurations.isEmpty() && within(m_f.excludeDurations))
            return false;
        // Indexes: the row's own.
        auto holds = [&r](const QVector<NumberRange>& ranges) {
            return std::any_of(ranges.cbegin(), ranges.cend(),
                [&](const NumberRange& range) { return r.index >= range.min && r.index <= range.max; });
        };
        if (!m_f.indexes.isEmpty() && !holds(m_f.indexes))
            return false;
        if (holds(m_f.excludeIndexes))
            return false;
        if (!m_f.words.isEmpty() && !m_hits.contains(r.index))
            return false;
        return true;
    }

    QStringList statesOf(const EventRecord& r) const
    {
        QStringList mine;
        if (m_room.marked.contains(r.index))
            mine << QStringLiteral("marked");
        if (m_room.notes.contains(r.index))
            mine << QStringLiteral("noted");
        if (m_room.labels.contains(r.index))
            mine << QStringLiteral("labelled");
        if (r.flags & EventFlags::Redacted)
            mine << QStringLiteral("redacted");
        if (r.flags & EventFlags::Revised)
            mine << QStringLiteral("edited");
        return mine;
    }

    // A row's annotations of `field` (several labels, several notes, its states): one of `any` when there are
    // any, none of `none`. A note matches a word it contains, in either case.
    bool annotationsMatch(const EventRecord& r, const QString& field, const QStringList& any, const QStringList& none) const
    {
        QStringList mine;
        if (field == QLatin1String("label"))
            mine = m_room.labels.value(r.index);
        if (field == QLatin1String("is"))
            mine = statesOf(r);
        auto has = [&](const QString& value) {
            if (field != QLatin1String("note"))
                return mine.contains(value, Qt::CaseInsensitive);
            const QStringList notes = m_room.notes.value(r.index);
            return std::any_of(notes.cbegin(), notes.cend(),
                [&](const QString& n) { return n.contains(value, Qt::CaseInsensitive); });
        };
        if (!any.isEmpty() && std::none_of(any.cbegin(), any.cend(), has))
            return false;
        return std::none_of(none.cbegin(), none.cend(), has);
    }

    // A call's pairing and duration: on each row of the call (its start, end and result), as its outcome is, so
    // that a card and its rows give one answer.
    QString pairingAt(const EventRecord& r) const
    {
        const ToolCallRecord c = callAt(r);
        return c.startIndex || c.endIndex || c.resultIndex ? Pairings::name(c.pairing) : QString();
    }

    ToolCallRecord callAt(const EventRecord& r) const
    {
        if (EventKinds::name(r.kind) != QLatin1String("tool_call"))
            return {};
        return m_room.callByRow.value(r.index);
    }

    QVector<qint64> rawRows() const
    {
        QVector<qint64> out;
        for (const EventRecord& r : m_room.rows) {
            if (inScope(r) && matches(r))
                out << r.index;
        }
        return out;
    }

    // A timeline item (a row not folded into another) matches by its own row, a card by its call's outcome, or
    // by a row folded into it: a call's end or result, a message's deltas.
    QVector<qint64> timelineItems() const
    {
        QHash<qint64, const EventRecord*> byIndex;
        QMultiHash<QString, const EventRecord*> foldedByMessage;
        // A card's folded rows: its end, its result, its streamed arguments.
        QMultiHash<qint64, qint64> foldedInto;
        for (auto it = m_room.itemOfRow.cbegin(); it != m_room.itemOfRow.cend(); ++it) {
            if (m_room.callByStart.contains(it.value()))
                foldedInto.insert(it.value(), it.key());
        }
        for (const EventRecord& r : m_room.rows) {
            byIndex.insert(r.index, &r);
            if ((r.flags & EventFlags::Folded) && !r.messageId.isEmpty())
                foldedByMessage.insert(r.messageId + QLatin1Char('/') + EventKinds::name(r.kind), &r);
        }
        QVector<qint64> out;
        for (const EventRecord& r : m_room.rows) {
            if ((r.flags & EventFlags::Folded) || !inScope(r, true))
                continue;
            bool match = matches(r);
            if (!match && EventKinds::name(r.kind) == QLatin1String("tool_call")) {
                for (const qint64 folded : foldedInto.values(r.index))
                    match = match || matches(*byIndex.value(folded));
            }
            if (!match && !r.messageId.isEmpty()
                && (EventKinds::name(r.kind) == QLatin1String("message") || EventKinds::name(r.kind) == QLatin1String("reasoning"))) {
                for (const EventRecord* folded : foldedByMessage.values(r.messageId + QLatin1Char('/') + EventKinds::name(r.kind)))
                    match = match || matches(*folded);
            }
            if (match)
                out << r.index;
        }
        return out;
    }

    // The timeline item that shows row `index`: itself when it is not folded, else the card or message it is folded
    // into, when the rows say which.
    std::optional<qint64> itemOf(qint64 index) const
    {
        if (const auto it = m_room.itemOfRow.constFind(index); it != m_room.itemOfRow.cend())
            return *it;
        if (const auto r = m_room.byIndex.constFind(index); r != m_room.byIndex.cend() && !((*r)->flags & EventFlags::Folded))
            return index;
        return std::nullopt;
    }

    // The panes' counts of `field`: every row the rest of the filter lets through, by its value.
    QMap<QString, qint64> paneCounts(const QString& field) const
    {
        QMap<QString, qint64> out;
        for (const EventRecord& r : m_room.rows) {
            if (!inScope(r) || !matches(r, field))
                continue;
            // Several to a row: its labels, its states.
            if (field == QLatin1String("label") || field == QLatin1String("is")) {
                for (const QString& v : field == QLatin1String("label") ? QSet<QString>(m_room.labels.value(r.index).cbegin(), m_room.labels.value(r.index).cend()).values() : statesOf(r))
                    ++out[v];
                continue;
            }
            const QString v = field == QLatin1String("outcome") ? outcomeOf(r) : valueOf(r, field);
            if (!v.isEmpty())
                ++out[v];
        }
        return out;
    }

private:
    const Room& m_room;
    const EventFilter& m_f;
    QSet<qint64> m_hits;
};

} // namespace

class TestOneAnswer : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QStringList m_workspaces;
    int m_asked = 0;

    // The filters of the table for a room: each field alone with values the room has, negated, with blocked
    // rows hidden, included and alone, a field repeated, and each with a time bound that cuts the room.
    static QStringList filtersFor(const Room& room)
    {
        QStringList base { QString(), QStringLiteral("blocked:include"), QStringLiteral("blocked:only") };
        QMap<QString, QStringList> values;
        for (const EventRecord& r : room.rows) {
            for (const char* field : { "type", "kind", "channel", "channel_type", "participant", "tool", "group" }) {
                const QString v = valueOf(r, QLatin1String(field));
                QStringList& seen = values[QLatin1String(field)];
                if (!v.isEmpty() && !seen.contains(v) && seen.size() < 2)
                    seen << v;
            }
        }
        for (auto it = values.cbegin(); it != values.cend(); ++it) {
            for (const QString& v : it.value()) {
                base << FilterQuery::term(it.key(), v) << FilterQuery::term(it.key(), v, true)
                     << FilterQuery::term(it.key(), v) + QStringLiteral(" blocked:include");
            }
            if (it.value().size() == 2) // the same field twice: either value
                base << FilterQuery::term(it.key(), it.value().at(0)) + QLatin1Char(' ')
                        + FilterQuery::term(it.key(), it.value().at(1));
        }
        for (const QString& outcome : FilterQuery::valuesOf(QStringLiteral("outcome")))
            base << QStringLiteral("outcome:") + outcome << QStringLiteral("-outcome:") + outcome;
        // The call fields: every pairing the room has, and durations on either side of its median call.
        QStringList pairings;
        QVector<qint64> durations;
        for (const ToolCallRecord& c : room.callByCard) {
            if (!pairings.contains(Pairings::name(c.pairing)))
                pairings << Pairings::name(c.pairing);
            if (c.durationMs)
                durations << *c.durationMs;
        }
        for (const QString& p : pairings)
            base << QStringLiteral("pairing:") + p << QStringLiteral("-pairing:") + p;
        if (!durations.isEmpty()) {
            std::sort(durations.begin(), durations.end());
            const QString median = QString::number(durations.at(durations.size() / 2));
            base << QStringLiteral("duration:>") + median + QStringLiteral(" outcome:failed")
                 << QStringLiteral("pairing:exact outcome:served") << QStringLiteral("duration:>") + median
                 << QStringLiteral("duration:<=") + median
                 << QStringLiteral("-duration:>") + median << QStringLiteral("duration:0..") + median
                 << QStringLiteral("duration:<10 duration:>") + median;
        }
        base << QStringLiteral("outcome:failed outcome:refused blocked:include");
        // What reviewers added: labels, words of notes, states, alone, negated, twice, and with other fields.
        base << QStringLiteral("label:pii") << QStringLiteral("-label:pii") << QStringLiteral("label:PII label:bug")
             << QStringLiteral("-label:bug kind:tool_call") << QStringLiteral("note:refund") << QStringLiteral("-note:refund")
             << QStringLiteral("note:refund note:nothing-like-it") << QStringLiteral("is:marked")
             << QStringLiteral("-is:marked") << QStringLiteral("is:noted is:labelled")
             << QStringLiteral("is:marked label:pii blocked:include") << QStringLiteral("-is:labelled outcome:failed")
             << QStringLiteral("is:redacted") << QStringLiteral("-is:redacted kind:message") << QStringLiteral("is:redacted is:marked")
             << QStringLiteral("is:edited") << QStringLiteral("-is:edited kind:tool_call") << QStringLiteral("is:edited outcome:failed")
             // What a reviewer added to a card (on its start) with its call's outcome, and a word of its arguments.
             << QStringLiteral("is:noted outcome:failed") << QStringLiteral("label:pii outcome:served")
             << QStringLiteral("is:marked -outcome:served kind:tool_call") << QStringLiteral("type:TOOL_CALL_ARGS")
             << QStringLiteral("pairing:manual") << QStringLiteral("pairing:end_only is:edited");
        // Words: two of a message's, and one of a call's arguments (a card found by its start or its end).
        QStringList words;
        for (const EventRecord& r : room.rows) {
            for (const QString& w : r.text.split(QRegularExpression(QStringLiteral("[^\\w]+")), Qt::SkipEmptyParts)) {
                if (w.size() >= 4 && !words.contains(w) && words.size() < 2)
                    words << w;
            }
        }
        for (const QString& w : words)
            base << w << w + QStringLiteral(" kind:tool_call") << w + QStringLiteral(" blocked:include");
        if (room.rows.size() < 2)
            return base;
        // Index ranges: a quarter to three quarters of the room, its complement, and with other fields (a card
        // whose start is before the range and whose end is in it shows in the timeline, as for every field).
        const QString quarter = QString::number(room.rows.at(room.rows.size() / 4).index);
        const QString threeQuarters = QString::number(room.rows.at(room.rows.size() * 3 / 4).index);
        base << QStringLiteral("index:%1..%2").arg(quarter, threeQuarters) << QStringLiteral("-index:%1..%2").arg(quarter, threeQuarters)
             << QStringLiteral("index:>=%1 kind:tool_call").arg(quarter) << QStringLiteral("index:<%1 outcome:failed").arg(threeQuarters);
        // Time bounds: one that holds everything, and ones that cut the room in the middle, each way.
        const qint64 middle = room.rows.at(room.rows.size() / 2).createdMicros;
        const QStringList bounds { QStringLiteral("after:2000-01-01T00:00Z"),
            QStringLiteral("after:") + TimeUtil::formatUserTime(middle),
            QStringLiteral("before:") + TimeUtil::formatUserTime(middle),
            QStringLiteral("-after:") + TimeUtil::formatUserTime(middle) };
        QStringList all = base;
        for (const QString& bound : bounds) {
            for (const QString& other : base)
                all << QString(other + QLatin1Char(' ') + bound).trimmed();
        }
        return all;
    }

    // Waits for `done` while the store's threads answer, a millisecond at a time (QTRY's 50 ms steps made a
    // table of thousands of questions take minutes).
    template<typename Done>
    static bool settles(Done done)
    {
        QElapsedTimer timer;
        timer.start();
        while (!done()) {
            if (timer.elapsed() > 20000)
                return false;
            QTest::qWait(1);
        }
        return true;
    }

    // The rows of the room that hold every word of the filter, by the full-text index itself.
    static QSet<qint64> hitsOf(Workspace& ws, qint64 room, const EventFilter& f)
    {
        QSet<qint64> hits;
        if (f.words.isEmpty())
            return hits;
        QSqlQuery q = ws.exec(QStringLiteral("SELECT seq FROM events WHERE room_id = ? AND id IN (SELECT rowid FROM "
                                             "events_fts WHERE events_fts MATCH ?)"),
            { room, EventQuery::ftsMatch(f.words, false) });
        while (q.next())
            hits.insert(q.value(0).toLongLong());
        return hits;
    }

    static Room roomOf(Workspace& ws, const RoomSummary& summary)
    {
        Room room;
        room.summary = summary;
        EventFilter everything;
        everything.includeBlocked = true;
        PageRequest all;
        all.limit = 1000000;
        room.rows = ws.listEvents(summary.id, everything, all);
        for (const Annotation& a : AnnotationStore(ws).annotations(summary.id)) {
            if (!a.index)
                continue;
            if (a.kind == Annotation::Kind::Label)
                room.labels[*a.index] << a.value;
            else if (a.kind == Annotation::Kind::Note)
                room.notes[*a.index] << a.value;
            else if (a.kind == Annotation::Kind::Mark)
                room.marked.insert(*a.index);
        }
        for (const ToolCallRecord& c : ws.toolCalls(summary.id)) {
            if (c.startIndex)
                room.callByStart.insert(*c.startIndex, c);
            if (const std::optional<qint64> card = c.startIndex ? c.startIndex : c.endIndex ? c.endIndex : c.resultIndex)
                room.callByCard.insert(*card, c);
            for (const std::optional<qint64>& row : { c.startIndex, c.endIndex, c.resultIndex }) {
                if (row)
                    room.callByRow.insert(*row, c);
            }
        }
        QHash<QString, qint64> messageItems;
        for (const EventRecord& r : room.rows) {
            if (!(r.flags & EventFlags::Folded) && !r.messageId.isEmpty())
                messageItems.insert(r.messageId + QLatin1Char('/') + EventKinds::name(r.kind), r.index);
        }
        for (const EventRecord& r : room.rows) {
            const QString kind = EventKinds::name(r.kind);
            if (!(r.flags & EventFlags::Folded) || r.messageId.isEmpty()
                || (kind != QLatin1String("message") && kind != QLatin1String("reasoning")))
                continue;
            const auto item = messageItems.constFind(r.messageId + QLatin1Char('/') + kind);
            if (item != messageItems.cend())
                room.itemOfRow.insert(r.index, *item);
        }
        QHash<qint64, const EventRecord*>& byIndex = room.byIndex;
        for (const EventRecord& r : room.rows)
            byIndex.insert(r.index, &r);
        for (const ToolCallRecord& c : room.callByCard) {
            if (!c.startIndex && c.endIndex && c.resultIndex && byIndex.contains(*c.resultIndex)
                && (byIndex.value(*c.resultIndex)->flags & EventFlags::Folded))
                room.itemOfRow.insert(*c.resultIndex, *c.endIndex); // a call without its start: its card is its end
        }
        for (const ToolCallRecord& c : room.callByStart) {
            for (const std::optional<qint64>& row : { c.endIndex, c.resultIndex }) {
                if (row && byIndex.contains(*row) && (byIndex.value(*row)->flags & EventFlags::Folded))
                    room.itemOfRow.insert(*row, *c.startIndex); // (a result a snapshot brought is a row of its own)
            }
            // Its streamed arguments: folded rows of its id between its start and its end (its run's last row when
            // nothing answered it).
            std::optional<qint64> end = c.endIndex ? c.endIndex : c.resultIndex;
            if (!end && !c.groupId.isEmpty()) {
                for (const EventRecord& r : room.rows) {
                    if (r.groupId == c.groupId)
                        end = std::max(end.value_or(r.index + 1), r.index + 1);
                }
            }
            for (qint64 i = *c.startIndex + 1; end && i < *end; ++i) {
                const EventRecord* r = byIndex.value(i);
                if (r && (r->flags & EventFlags::Folded) && EventKinds::name(r->kind) == QLatin1String("tool_call")
                    && r->toolId == c.toolId)
                    room.itemOfRow.insert(i, *c.startIndex);
            }
        }
        return room;
    }

    static QVector<qint64> cli(const QStringList& args, QString* error = nullptr)
    {
        QString out, err;
        QTextStream o(&out), e(&err);
        const int code = Cli::run(QStringList { QStringLiteral("sightline") } + args, o, e);
        o.flush();
        e.flush();
        if (code != Cli::Ok)
            qFatal("sightline %s: %s", qPrintable(args.join(QLatin1Char(' '))), qPrintable(err));
        if (error)
            *error = err;
        QVector<qint64> indexes;
        for (const QString& line : out.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
            const QJsonObject o = QJsonDocument::fromJson(line.toUtf8()).object();
            indexes << (o.isEmpty() ? line.toLongLong() : o.value(QLatin1String("index")).toInteger());
        }
        return indexes;
    }

private slots:
    void initTestCase()
    {
        const QStringList sources { QStringLiteral("roomkit/edge_cases.sqlite"), QStringLiteral("roomkit/support.sqlite"),
            QStringLiteral("roomkit/many_rooms.sqlite"), QStringLiteral("agui"), QStringLiteral("craftbot/EVENT.md"),
            QStringLiteral("craftbot/sessions.db") };
        for (const QString& source : sources) {
            const QString path = m_dir.filePath(QString(source).replace(QLatin1Char('/'), QLatin1Char('_')) + QStringLiteral(".sightline"));
            Workspace ws(path);
            Importer::import(ws, dataFile(source));
            // Reviewers' labels, notes and marks on rows of every kind, folded ones (a call's end) included.
            AnnotationStore store(ws);
            ws.exec(QStringLiteral("BEGIN"));
            for (const RoomSummary& room : ws.rooms()) {
                QSqlQuery q = ws.exec(QStringLiteral("SELECT seq FROM events WHERE room_id = ?"), { room.id });
                QVector<qint64> indexes;
                while (q.next())
                    indexes << q.value(0).toLongLong();
                for (qint64 i : indexes) {
                    if (i % 7 == 3)
                        store.addLabel(room.id, i, QStringLiteral("pii"), QStringLiteral("test"));
                    if (i % 11 == 5)
                        store.addLabel(room.id, i, QStringLiteral("bug"), QStringLiteral("test"));
                    if (i % 5 == 1)
                        store.addNote(room.id, i, QStringLiteral("Check the REFUND %1").arg(i), QStringLiteral("test"));
                    if (i % 3 == 0)
                        store.setMarked(room.id, i, true, QStringLiteral("test"));
                }
                // One string of one row of every fourth event redacted: is:redacted finds those rows.
                for (qint64 i : indexes) {
                    if (i % 4 != 2)
                        continue;
                    QSqlQuery p = ws.exec(QStringLiteral("SELECT unpack(payload) FROM events WHERE room_id = ? AND seq = ? AND "
                                                         "typeof(unpack(payload)) = 'text'"), { room.id, i });
                    if (!p.next())
                        continue;
                    const QString payload = p.value(0).toString();
                    p.finish();
                    const auto strings = JsonStrings::values(payload).value_or(QVector<JsonStrings::Token> { JsonStrings::plain(payload) });
                    for (const JsonStrings::Token& t : strings) {
                        if (!t.value.isEmpty() && !t.value.at(0).isSurrogate()) {
                            store.redact(room.id, i, t.path, 0, 1, QStringLiteral("test"), QStringLiteral("test"));
                            break;
                        }
                    }
                }
                // What reviewers changed: a message's text, a call's outcome, a pair unlinked and one linked again.
                for (qint64 i : indexes) {
                    const std::optional<EventRecord> e = ws.event(room.id, i);
                    if (i % 13 == 6 && e && EventKinds::name(e->kind) != QLatin1String("tool_call") && !(e->flags & EventFlags::Folded))
                        store.editText(room.id, i, e->text + QStringLiteral(" amended"), QStringLiteral("test"));
                }
                int unlinked = 0;
                for (const ToolCallRecord& c : ws.toolCalls(room.id)) {
                    if (c.startIndex && *c.startIndex % 10 == 7)
                        store.setOutcome(room.id, *c.startIndex, QStringLiteral("failed"), QStringLiteral("test"));
                    if (c.startIndex && (c.endIndex || c.resultIndex) && unlinked < 2) {
                        store.unlink(room.id, *c.startIndex, QStringLiteral("test"));
                        if (unlinked++ == 1)
                            store.link(room.id, *c.startIndex, c.endIndex ? *c.endIndex : *c.resultIndex, QStringLiteral("test"));
                    }
                }
            }
            ws.exec(QStringLiteral("COMMIT"));
            m_workspaces << path;
        }
    }

    void everyPathAgrees_data()
    {
        QTest::addColumn<QString>("workspace");
        for (const QString& path : m_workspaces)
            QTest::newRow(qPrintable(QFileInfo(path).completeBaseName())) << path;
    }

    // The store's answers (pages, counts, row index, panes) and the CLI's, for every filter on every room.
    void everyPathAgrees()
    {
        QFETCH(QString, workspace);
        Workspace ws(workspace);
        int rooms = 0;
        for (const RoomSummary& summary : ws.rooms()) {
            const Room room = roomOf(ws, summary);
            ++rooms;
            for (const QString& text : filtersFor(room)) {
                const FilterQuery::Result parsed = FilterQuery::parse(text);
                QVERIFY2(parsed.ok(), qPrintable(text + QStringLiteral(": ") + parsed.error));
                EventFilter f = parsed.filter;
                const Reference ref(room, f, hitsOf(ws, summary.id, f));
                const QVector<qint64> raw = ref.rawRows();
                const QVector<qint64> items = ref.timelineItems();
                // One answer between the two: the timeline shows an item when, and only when, the raw rows show a row
                // of it (so that "showing N events as M items" never says 0 events as 1 item). Time bounds apply to
                // an item's own row, so a card that starts before after: and ends after it shows its end alone.
                // Every row is in an item (an AG-UI reasoning phase's START and END in the messages they frame).
                if (!f.afterMicros && !f.beforeMicros) {
                    QSet<qint64> owners;
                    for (qint64 row : raw) {
                        const std::optional<qint64> item = ref.itemOf(row);
                        QVERIFY2(item, qPrintable(summary.nativeId + QStringLiteral(" | ") + text
                                + QStringLiteral(": row %1 is in no timeline item").arg(row)));
                        owners.insert(*item);
                    }
                    const QSet<qint64> shown(items.cbegin(), items.cend());
                    if (shown != owners) {
                        QList<qint64> a = (shown - owners).values(), b = (owners - shown).values();
                        std::sort(a.begin(), a.end());
                        std::sort(b.begin(), b.end());
                        qWarning() << "items not owning a raw row" << a.mid(0, 10) << "owners not shown" << b.mid(0, 10);
                    }
                    QVERIFY2(shown == owners, qPrintable(summary.nativeId + QStringLiteral(" | ") + text
                            + QStringLiteral(" (timeline items against the raw rows' items)")));
                }
                const QString where = summary.nativeId + QStringLiteral(" | ") + text;
                PageRequest all;
                all.limit = 1000000;
                // The raw rows: the page, its count, its row index.
                QVERIFY2(indices(ws.listEvents(summary.id, f, all)) == raw, qPrintable(where + QStringLiteral(" (raw rows)")));
                QVERIFY2(ws.countEvents(summary.id, &f) == raw.size(), qPrintable(where + QStringLiteral(" (count)")));
                const RowIndex rawIndex = ws.indexRows(summary.id, f, 64);
                QVERIFY2(rawIndex.rows == raw.size() && rawIndex.shown == raw.size(), qPrintable(where + QStringLiteral(" (raw index)")));
                // The timeline: its items, and "showing X of Y" counting the events the filter lets through.
                EventFilter timeline = f;
                timeline.timelineItems = true;
                QVERIFY2(indices(ws.listEvents(summary.id, timeline, all)) == items,
                    qPrintable(where + QStringLiteral(" (timeline items)")));
                const RowIndex itemIndex = ws.indexRows(summary.id, timeline, 64);
                QVERIFY2(itemIndex.rows == items.size(), qPrintable(where + QStringLiteral(" (timeline index)")));
                QVERIFY2(itemIndex.shown == raw.size(), qPrintable(where + QStringLiteral(" (timeline: events shown)")));
                // The panes: the events shown, and each field's counts under the rest of the filter.
                const FacetCounts facets = ws.facets(summary.id, f, 4, 1000);
                QVERIFY2(facets.shown == raw.size(), qPrintable(where + QStringLiteral(" (panes: shown)")));
                for (const char* field : { "type", "tool", "outcome", "channel", "label", "is" }) {
                    const QMap<QString, qint64> want = ref.paneCounts(QLatin1String(field));
                    QMap<QString, qint64> got;
                    for (const FacetValue& v : facets.fields.value(QLatin1String(field))) {
                        if (v.count > 0)
                            got.insert(v.value, v.count);
                    }
                    QVERIFY2(got == want, qPrintable(where + QStringLiteral(" (pane %1)").arg(QLatin1String(field))));
                }
                // The command line, as a user types it.
                const QStringList args { QStringLiteral("events"), workspace, QStringLiteral("--format"),
                    QStringLiteral("workspace"), QStringLiteral("--room"), summary.nativeId, QStringLiteral("--query"),
                    text.isEmpty() ? QStringLiteral("blocked:hide") : text };
                QVERIFY2(cli(args + QStringList { QStringLiteral("--json") }) == raw, qPrintable(where + QStringLiteral(" (CLI --json)")));
                QVERIFY2(cli(args + QStringList { QStringLiteral("--count") }) == QVector<qint64> { raw.size() },
                    qPrintable(where + QStringLiteral(" (CLI --count)")));
                ++m_asked;
            }
        }
        QVERIFY(rooms > 0);
    }

    // The event model the window shows, in both modes, under QAbstractItemModelTester: its rows and its
    // "X of Y" for the table's filters on the rooms of the RoomKit edge cases and the AG-UI threads.
    void theWindowsModelAgrees_data()
    {
        QTest::addColumn<QString>("workspace");
        QTest::newRow("edge_cases") << m_workspaces.at(0);
        QTest::newRow("agui") << m_workspaces.at(3);
        QTest::newRow("craftbot") << m_workspaces.at(4);
    }

    void theWindowsModelAgrees()
    {
        QFETCH(QString, workspace);
        StoreClient store;
        QSignalSpy opened(&store, &StoreClient::workspaceOpened);
        store.open(workspace);
        QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 20000);
        EventListModel model(&store);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        Workspace ws(workspace);
        for (const RoomSummary& summary : ws.rooms()) {
            const Room room = roomOf(ws, summary);
            const QStringList filters = filtersFor(room);
            // Every fifth filter of the table: each kind of term comes up in every room.
            for (int i = 0; i < filters.size(); i += 5) {
                const EventFilter f = FilterQuery::parse(filters.at(i)).filter;
                const Reference ref(room, f, hitsOf(ws, summary.id, f));
                for (const EventListModel::Mode mode : { EventListModel::Mode::Raw, EventListModel::Mode::Timeline }) {
                    const QString where = summary.nativeId + QStringLiteral(" | ") + filters.at(i)
                        + (mode == EventListModel::Mode::Raw ? QStringLiteral(" (raw)") : QStringLiteral(" (timeline)"));
                    const QVector<qint64> want = mode == EventListModel::Mode::Raw ? ref.rawRows() : ref.timelineItems();
                    model.setMode(mode);
                    model.setRoom(summary.id, f);
                    QVERIFY2(settles([&] { return model.isIndexed() && !model.isLoading(); }), qPrintable(where));
                    QVERIFY2(model.rowCount() == want.size(), qPrintable(where + QStringLiteral(": %1 rows").arg(model.rowCount())));
                    QVERIFY2(model.shownCount() == ref.rawRows().size(), qPrintable(where + QStringLiteral(" shown")));
                    QVERIFY2(model.totalCount() == room.rows.size(), qPrintable(where + QStringLiteral(" total")));
                    if (want.isEmpty())
                        continue;
                    model.fetchRows(0, model.rowCount() - 1);
                    QVERIFY2(settles([&] { return !model.isLoading(); }), qPrintable(where));
                    QVector<qint64> got;
                    for (int row = 0; row < model.rowCount(); ++row)
                        got << model.loadedRecord(row)->index;
                    QVERIFY2(got == want, qPrintable(where));
                }
            }
        }
    }

    void cleanupTestCase() { qInfo("%d filters asked of every path", m_asked); }
};

QTEST_GUILESS_MAIN(TestOneAnswer)
#include "tst_oneanswer.moc"
