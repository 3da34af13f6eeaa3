#include "filterquery.h"

#include "eventkind.h"
#include "outcome.h"
#include "pairing.h"
#include "timeutil.h"

#include <algorithm>
#include <climits>
#include <QDateTime>
#include <QTimeZone>

namespace {

const QStringList blockedValues { QStringLiteral("hide"), QStringLiteral("include"), QStringLiteral("only") };

struct Token
{
    bool negated = false;
    QString field; // empty for a word or phrase
    QString value;
    int position = 0;
    int length = 0;
};

// Reads a value at `i`: "quoted" (with \" and \\ inside) or up to the next space.
bool readValue(const QString& text, int& i, QString& value, QString& error)
{
    value.clear();
    if (i < text.size() && text.at(i) == QLatin1Char('"')) {
        for (++i; i < text.size(); ++i) {
            const QChar c = text.at(i);
            if (c == QLatin1Char('\\') && i + 1 < text.size()) {
                value += text.at(++i);
            } else if (c == QLatin1Char('"')) {
                ++i;
                return true;
            } else {
                value += c;
            }
        }
        error = QStringLiteral("the quote is not closed");
        return false;
    }
    while (i < text.size() && !text.at(i).isSpace())
        value += text.at(i++);
    return true;
}

// A duration or index term's value: >N, >=N, <N, <=N, N or A..B (milliseconds, or event indexes).
std::optional<NumberRange> parseRange(const QString& value)
{
    auto number = [](QStringView text) -> std::optional<qint64> {
        bool ok = false;
        const qint64 n = text.toLongLong(&ok);
        return ok && n >= 0 && !text.startsWith(QLatin1Char('+')) ? std::optional(n) : std::nullopt;
    };
    const QStringView v(value);
    NumberRange r;
    if (const qsizetype dots = v.indexOf(QLatin1String("..")); dots > 0) {
        const auto a = number(v.left(dots)), b = number(v.mid(dots + 2));
        if (!a || !b || *a > *b)
            return std::nullopt;
        r.min = *a;
        r.max = *b;
        return r;
    }
    for (const auto& [op, skip] : { std::pair { ">=", 2 }, std::pair { "<=", 2 }, std::pair { ">", 1 },
             std::pair { "<", 1 } }) {
        if (!v.startsWith(QLatin1String(op)))
            continue;
        const auto n = number(v.mid(skip));
        if (!n)
            return std::nullopt;
        if (op[0] == '>') {
            if (skip == 1 && *n == LLONG_MAX)
                return std::nullopt;
            r.min = skip == 2 ? *n : *n + 1;
        } else {
            if (skip == 1 && *n == 0)
                return std::nullopt; // nothing lasts less than nothing
            r.max = skip == 2 ? *n : *n - 1;
        }
        return r;
    }
    const auto n = number(v);
    if (!n)
        return std::nullopt;
    r.min = r.max = *n;
    return r;
}

QString formatRange(const NumberRange& r)
{
    if (r.min == r.max)
        return QString::number(r.min);
    // As people write them: >100 rather than >=101.
    if (r.max == LLONG_MAX)
        return r.min > 0 ? QStringLiteral(">") + QString::number(r.min - 1) : QStringLiteral(">=0");
    if (r.min == 0)
        return QStringLiteral("<=") + QString::number(r.max);
    return QString::number(r.min) + QStringLiteral("..") + QString::number(r.max);
}

QString quoted(const QString& value)
{
    bool plain = !value.isEmpty() && !value.startsWith(QLatin1Char('-'));
    for (const QChar c : value) {
        if (c.isSpace() || c == QLatin1Char('"') || c == QLatin1Char('\\'))
            plain = false;
    }
    if (plain)
        return value;
    QString out = value;
    out.replace(QLatin1Char('\\'), QStringLiteral("\\\\"));
    out.replace(QLatin1Char('"'), QStringLiteral("\\\""));
    return QLatin1Char('"') + out + QLatin1Char('"');
}

// A word that would read as a field (has a colon) is quoted so that it stays a word.
QString quotedWord(const QString& word)
{
    const QString q = quoted(word);
    return q == word && word.contains(QLatin1Char(':')) ? QLatin1Char('"') + word + QLatin1Char('"') : q;
}

QString canonicalField(const QString& name)
{
    static const QHash<QString, QString> aliases { { QStringLiteral("from"), QStringLiteral("participant") },
        { QStringLiteral("ctype"), QStringLiteral("channel_type") },
        { QStringLiteral("correlation"), QStringLiteral("group") },
        { QStringLiteral("text"), QStringLiteral("text") } };
    const QString lower = name.toLower();
    return aliases.value(lower, lower);
}

} // namespace

QString FilterQuery::term(const QString& field, const QString& value, bool negated)
{
    return (negated ? QStringLiteral("-") : QString()) + field + QLatin1Char(':') + quoted(value);
}

QStringList FilterQuery::fields()
{
    QStringList names;
    for (const EventFilterList& list : eventFilterLists())
        names << QLatin1String(list.name);
    return names
        + QStringList { QStringLiteral("duration"), QStringLiteral("index"), QStringLiteral("after"), QStringLiteral("before"),
              QStringLiteral("blocked"), QStringLiteral("text") };
}

QStringList FilterQuery::valuesOf(const QString& field)
{
    const QString f = canonicalField(field);
    if (f == QLatin1String("outcome"))
        return Outcomes::names();
    if (f == QLatin1String("blocked"))
        return blockedValues;
    if (f == QLatin1String("kind"))
        return EventKinds::names();
    if (f == QLatin1String("pairing"))
        return Pairings::names();
    if (f == QLatin1String("is"))
        return { QStringLiteral("marked"), QStringLiteral("noted"), QStringLiteral("labelled"), QStringLiteral("redacted"),
            QStringLiteral("edited"), QStringLiteral("warned") };
    return {};
}

FilterQuery::Result FilterQuery::parse(const QString& text)
{
    Result r;
    EventFilter& f = r.filter;
    auto fail = [&r](const Token& t, const QString& message) {
        r.error = message;
        r.position = t.position;
        r.length = std::max(1, t.length);
        r.filter = {};
        return r;
    };
    // Times and blocked: the same field twice means either, a negated one none of them (as for every field).
    std::optional<qint64> after, notAfter, before, notBefore;
    enum : int { Unblocked = 1, Blocked = 2 };
    int blockedAny = 0, blockedNone = 0;
    Token lastBlocked;
    int i = 0;
    while (i < text.size()) {
        if (text.at(i).isSpace()) {
            ++i;
            continue;
        }
        Token t;
        t.position = i;
        if (text.at(i) == QLatin1Char('-') && i + 1 < text.size() && !text.at(i + 1).isSpace()) {
            t.negated = true;
            ++i;
        }
        // A field is letters and underscores before a colon; anything else is a word.
        int j = i;
        while (j < text.size() && (text.at(j).isLetter() || text.at(j) == QLatin1Char('_')))
            ++j;
        QString error;
        if (j > i && j < text.size() && text.at(j) == QLatin1Char(':')
            && fields().contains(canonicalField(text.mid(i, j - i)))) {
            t.field = canonicalField(text.mid(i, j - i));
            i = j + 1;
            if (!readValue(text, i, t.value, error)) {
                t.length = i - t.position;
                return fail(t, error);
            }
        } else {
            // Not a field (a URL, a time of day, a typo): the whole of it is searched as text, and the bar says so.
            if (j > i && j < text.size() && text.at(j) == QLatin1Char(':') && r.note.isEmpty()) {
                r.note = QStringLiteral("\"%1\" is not a field, so \"%1:\" is searched as text; the fields are %2")
                             .arg(text.mid(i, j - i), fields().join(QStringLiteral(", ")));
            }
            if (!readValue(text, i, t.value, error)) {
                t.length = i - t.position;
                return fail(t, error);
            }
        }
        t.length = i - t.position;

        const QString& v = t.value;
        if (t.field.isEmpty() || t.field == QLatin1String("text")) {
            if (v.isEmpty())
                return fail(t, QStringLiteral("an empty phrase matches nothing"));
            (t.negated ? f.excludeWords : f.words) << v;
            continue;
        }
        if (v.isEmpty())
            return fail(t, QStringLiteral("%1: needs a value").arg(t.field));
        const QStringList fixed = valuesOf(t.field);
        if (!fixed.isEmpty() && !fixed.contains(v))
            return fail(t, QStringLiteral("%1: is one of %2").arg(t.field, fixed.join(QStringLiteral(", "))));
        const auto list = std::find_if(eventFilterLists().cbegin(), eventFilterLists().cend(),
            [&](const EventFilterList& l) { return t.field == QLatin1String(l.name); });
        if (list != eventFilterLists().cend()) {
            QStringList& values = f.*(t.negated ? list->none : list->any);
            if (!values.contains(v))
                values << v;
        } else if (t.field == QLatin1String("duration")) {
            const std::optional<NumberRange> range = parseRange(v);
            if (!range) {
                return fail(t,
                    QStringLiteral("duration: expects milliseconds, such as >5000, <=100, 250 or 200..800"));
            }
            QVector<NumberRange>& ranges = t.negated ? f.excludeDurations : f.durations;
            if (!ranges.contains(*range))
                ranges << *range;
        } else if (t.field == QLatin1String("index")) {
            const std::optional<NumberRange> range = parseRange(v);
            if (!range)
                return fail(t, QStringLiteral("index: expects event indexes, such as 100..250, >=1000, <50 or 42"));
            QVector<NumberRange>& ranges = t.negated ? f.excludeIndexes : f.indexes;
            if (!ranges.contains(*range))
                ranges << *range;
        } else if (t.field == QLatin1String("after") || t.field == QLatin1String("before")) {
            const auto micros = TimeUtil::parseUserTime(v);
            if (!micros) {
                return fail(t,
                    QStringLiteral("%1: expects a date or a date and time, such as 2026-07-17 or 2026-07-17T10:00 "
                                   "(local time unless it ends in Z or an offset), or a time before now such as -7d or -12h")
                        .arg(t.field));
            }
            // Either of two lower bounds is the earlier; either of two upper bounds the later; none of several
            // the tightest.
            auto keep = [](std::optional<qint64>& bound, qint64 value, bool lowest) {
                bound = bound ? (lowest ? std::min(*bound, value) : std::max(*bound, value)) : value;
            };
            if (t.field == QLatin1String("after"))
                t.negated ? keep(notAfter, *micros, true) : keep(after, *micros, true);
            else
                t.negated ? keep(notBefore, *micros, false) : keep(before, *micros, false);
        } else if (t.field == QLatin1String("blocked")) {
            const int rows = v == QLatin1String("hide") ? Unblocked : v == QLatin1String("only") ? Blocked
                                                                                                 : Unblocked | Blocked;
            (t.negated ? blockedNone : blockedAny) |= rows;
            lastBlocked = t;
        }
    }
    // Different fields all apply: a lower bound and a negated upper one (not before X: from X on), the later.
    if (after || notBefore)
        f.afterMicros = std::max(after.value_or(LLONG_MIN), notBefore ? *notBefore - 1 : LLONG_MIN);
    if (before || notAfter)
        f.beforeMicros = std::min(before.value_or(LLONG_MAX), notAfter ? *notAfter + 1 : LLONG_MAX);
    if (blockedAny || blockedNone) {
        const int rows = (blockedAny ? blockedAny : Unblocked | Blocked) & ~blockedNone;
        if (rows == 0)
            return fail(lastBlocked, QStringLiteral("blocked: leaves no row, blocked or not"));
        f.includeBlocked = rows != Unblocked;
        f.blockedOnly = rows == Blocked;
    }
    if (f.afterMicros && f.beforeMicros && *f.afterMicros >= *f.beforeMicros - 1) {
        Token whole;
        whole.length = int(text.size());
        return fail(whole, QStringLiteral("after: is not before before:, so nothing can match"));
    }
    return r;
}

QString FilterQuery::format(const EventFilter& f)
{
    QStringList terms;
    for (const EventFilterList& list : eventFilterLists()) {
        for (const QString& v : f.*list.any)
            terms << QLatin1String(list.name) + QLatin1Char(':') + quoted(v);
        for (const QString& v : f.*list.none)
            terms << QLatin1Char('-') + QLatin1String(list.name) + QLatin1Char(':') + quoted(v);
    }
    for (const NumberRange& r : f.durations)
        terms << QStringLiteral("duration:") + formatRange(r);
    for (const NumberRange& r : f.excludeDurations)
        terms << QStringLiteral("-duration:") + formatRange(r);
    for (const NumberRange& r : f.indexes)
        terms << QStringLiteral("index:") + formatRange(r);
    for (const NumberRange& r : f.excludeIndexes)
        terms << QStringLiteral("-index:") + formatRange(r);
    if (f.afterMicros)
        terms << QStringLiteral("after:") + TimeUtil::formatUserTime(*f.afterMicros);
    if (f.beforeMicros)
        terms << QStringLiteral("before:") + TimeUtil::formatUserTime(*f.beforeMicros);
    if (f.blockedOnly)
        terms << QStringLiteral("blocked:only");
    else if (f.includeBlocked)
        terms << QStringLiteral("blocked:include");
    for (const QString& w : f.words)
        terms << quotedWord(w);
    for (const QString& w : f.excludeWords)
        terms << QLatin1Char('-') + quotedWord(w);
    return terms.join(QLatin1Char(' '));
}
