#include "facetcounter.h"

#include "eventflags.h"
#include "eventkind.h"
#include "eventquery.h"
#include "wordcodes.h"

#include <algorithm>
#include <sqlite3.h>

namespace {
// By Column: a column added to one and not the other reads another field's values.
const char* const columns[] = { "type", "kind", "channel_id", "channel_type", "participant_id", "tool_name", "outcome",
    "blocked", "created_us", nullptr, "seq", "flags" };
static_assert(std::size(columns) == FacetCounter::Flags + 1);
} // namespace

QString FacetCounter::selectList(const QString& failed)
{
    QStringList out;
    for (int c = Type; c <= Flags; ++c)
        out << (c == Failed ? failed : QLatin1String(columns[c]));
    return out.join(QStringLiteral(", "));
}

FacetCounter::FacetCounter(qint64 roomId, std::optional<std::pair<qint64, qint64>> span, int bins,
    const QHash<QByteArray, QString>& words)
    : m_words(words)
    , m_toolCall(QByteArray::number(EventKinds::code(EventKind::ToolCall)))
    , m_fields { {
          { "type", EventQuery::TypeBit, KindOf, {}, {} },
          { "kind", EventQuery::KindBit, -1, {}, {} },
          { "channel", EventQuery::ChannelBit, ChannelType, {}, {} },
          { "channel_type", EventQuery::ChannelTypeBit, -1, {}, {} },
          { "participant", EventQuery::ParticipantBit, -1, {}, {} },
          { "tool", EventQuery::ToolBit, -1, {}, {} },
          { "outcome", EventQuery::OutcomeBit, -1, {}, {} },
      } }
{
    m_out.roomId = roomId;
    if (span) {
        m_out.firstMicros = span->first;
        m_out.lastMicros = span->second;
        m_out.histogram.fill(0, std::max(1, bins));
    }
    m_binWidth = double(m_out.lastMicros - m_out.firstMicros + 1) / std::max(1, bins);
}

void FacetCounter::addAdded(qint64 seq, Added what, const QByteArray& label)
{
    m_addedAt[seq] |= what;
    if (what == Labelled && !m_labelsAt[seq].contains(label))
        m_labelsAt[seq].append(label);
}

void FacetCounter::setCallStart(qint64 seq, const QByteArray& outcome)
{
    qsizetype name = m_outcomeNames.indexOf(outcome);
    if (name < 0) {
        name = m_outcomeNames.size();
        m_outcomeNames << QByteArray(outcome.constData(), outcome.size()); // a deep copy: `outcome` may be a view
    }
    // In order of their starts (Workspace::facets asks so); a second call at a start already given (no rule of the
    // schema forbids one) is left out: the start carries the first's outcome.
    if (!m_startSeqs.isEmpty() && seq <= m_startSeqs.constLast())
        return;
    m_startSeqs << seq;
    m_startOutcomes << quint8(name);
}

const QByteArray* FacetCounter::callOutcome(qint64 seq)
{
    // Forward along the rows; a row before the last one asked (rows in another order) is sought.
    if (m_nextStart > 0 && m_startSeqs.at(m_nextStart - 1) >= seq)
        m_nextStart = std::lower_bound(m_startSeqs.cbegin(), m_startSeqs.cend(), seq) - m_startSeqs.cbegin();
    while (m_nextStart < m_startSeqs.size() && m_startSeqs.at(m_nextStart) < seq)
        ++m_nextStart;
    if (m_nextStart == m_startSeqs.size() || m_startSeqs.at(m_nextStart) != seq)
        return nullptr;
    return &m_outcomeNames.at(m_startOutcomes.at(m_nextStart++));
}

void FacetCounter::add(sqlite3_stmt* st)
{
    auto text = [st](int column) {
        // A view of SQLite's own buffer, valid until the next step: a lookup copies nothing.
        const char* p = reinterpret_cast<const char*>(sqlite3_column_text(st, column));
        return p ? QByteArray::fromRawData(p, sqlite3_column_bytes(st, column)) : QByteArray();
    };
    const int failed = sqlite3_column_int(st, Failed);
    if (failed == 0)
        ++m_out.shown;
    // A facet counts the row when the row fails nothing but the facet's own field.
    auto passesBut = [failed](int bit) { return (failed & ~(1 << bit)) == 0; };
    for (int c = 0; c < int(m_fields.size()); ++c) {
        Field& field = m_fields[c];
        // A value of a row the rest of the filter leaves out is listed too, with 0: the panes show what the
        // room holds under any filter (a filter carried over left them empty headers).
        const bool counted = passesBut(field.bit);
        QByteArray value = text(c);
        if (value.isNull() && c == OutcomeOf && !m_startSeqs.isEmpty() && text(KindOf) == m_toolCall) {
            if (const QByteArray* outcome = callOutcome(sqlite3_column_int64(st, Seq)))
                value = *outcome;
        }
        if (value.isNull())
            continue;
        auto it = field.counts.find(value);
        if (it != field.counts.end()) {
            *it += counted ? 1 : 0;
            continue;
        }
        const QByteArray key(value.constData(), value.size()); // a deep copy: the view dies with the step
        field.counts.insert(key, counted ? 1 : 0);
        if (field.groupColumn >= 0) {
            const QByteArray group = text(field.groupColumn);
            field.groups.insert(key, QByteArray(group.constData(), group.size()));
        }
    }
    // Labels and states: several to a row, each counted.
    const qint64 seq = sqlite3_column_int64(st, Seq);
    const int flags = sqlite3_column_int(st, Flags);
    const int added = m_addedAt.isEmpty() ? 0 : m_addedAt.value(seq);
    if (added & Labelled) {
        const bool counted = passesBut(EventQuery::LabelBit);
        for (const QByteArray& label : m_labelsAt.value(seq))
            m_labelCounts[label] += counted ? 1 : 0;
    }
    if (added != 0 || (flags & (EventFlags::Redacted | EventFlags::Revised))) {
        const bool counted = passesBut(EventQuery::StateBit);
        const std::pair<int, const char*> states[] = { { added & Marked, "marked" }, { added & Noted, "noted" },
            { added & Labelled, "labelled" }, { flags & EventFlags::Redacted, "redacted" },
            { flags & EventFlags::Revised, "edited" } };
        for (const auto& [has, state] : states) {
            if (has)
                m_stateCounts[QByteArray::fromRawData(state, qstrlen(state))] += counted ? 1 : 0;
        }
    }
    if (passesBut(EventQuery::BlockedBit))
        ++(sqlite3_column_int(st, Blocked) ? m_out.blocked : m_out.unblocked);
    if (passesBut(EventQuery::TimeBit) && !m_out.histogram.isEmpty() && sqlite3_column_type(st, Created) != SQLITE_NULL) {
        const qint64 bin = qint64((sqlite3_column_int64(st, Created) - m_out.firstMicros) / m_binWidth);
        ++m_out.histogram[std::clamp<qint64>(bin, 0, m_out.histogram.size() - 1)];
    }
}

void FacetCounter::merge(const FacetCounter& other)
{
    for (size_t f = 0; f < m_fields.size(); ++f) {
        Field& field = m_fields[f];
        const Field& theirs = other.m_fields[f];
        for (auto it = theirs.counts.cbegin(); it != theirs.counts.cend(); ++it)
            field.counts[it.key()] += it.value();
        // A value's group is that of the first row holding it, as one thread counting both halves in turn keeps it:
        // this counter's rows come first.
        for (auto it = theirs.groups.cbegin(); it != theirs.groups.cend(); ++it) {
            if (!field.groups.contains(it.key()))
                field.groups.insert(it.key(), it.value());
        }
    }
    for (auto it = other.m_labelCounts.cbegin(); it != other.m_labelCounts.cend(); ++it)
        m_labelCounts[it.key()] += it.value();
    for (auto it = other.m_stateCounts.cbegin(); it != other.m_stateCounts.cend(); ++it)
        m_stateCounts[it.key()] += it.value();
    m_out.shown += other.m_out.shown;
    m_out.blocked += other.m_out.blocked;
    m_out.unblocked += other.m_out.unblocked;
    for (qsizetype i = 0; i < m_out.histogram.size() && i < other.m_out.histogram.size(); ++i)
        m_out.histogram[i] += other.m_out.histogram.at(i);
}

FacetCounts FacetCounter::result(int limit) const
{
    FacetCounts out = m_out;
    // A type, a kind and a tool were counted by their words' codes (schema step 26): named here, once a value.
    auto named = [this](const QByteArray& code) { return m_words.value(code, QString::fromUtf8(code)); };
    auto emitField = [&](const char* name, const QHash<QByteArray, qint64>& counts,
                         const QHash<QByteArray, QByteArray>& groups, bool coded, bool codedGroups) {
        QVector<FacetValue> values;
        values.reserve(counts.size());
        for (auto it = counts.cbegin(); it != counts.cend(); ++it) {
            const QByteArray group = groups.value(it.key());
            values.append({ coded ? named(it.key()) : QString::fromUtf8(it.key()), it.value(),
                codedGroups && !group.isNull() ? named(group) : QString::fromUtf8(group) });
        }
        std::sort(values.begin(), values.end(), [](const FacetValue& a, const FacetValue& b) {
            return a.count != b.count ? a.count > b.count : a.value < b.value;
        });
        qint64 more = 0;
        for (qsizetype i = limit; i < values.size(); ++i)
            more += values.at(i).count;
        if (values.size() > limit)
            values.resize(limit);
        out.fields.insert(QString::fromLatin1(name), values);
        if (more > 0)
            out.more.insert(QString::fromLatin1(name), more);
    };
    // A field's place is its column's (add() reads field c from column c).
    for (size_t c = 0; c < m_fields.size(); ++c) {
        const Field& field = m_fields[c];
        emitField(field.name, field.counts, field.groups, WordCodes::holdsWords(columns[c]),
            field.groupColumn >= 0 && WordCodes::holdsWords(columns[field.groupColumn]));
    }
    emitField("label", m_labelCounts, {}, false, false);
    emitField("is", m_stateCounts, {}, false, false);
    return out;
}
