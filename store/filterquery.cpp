#include "filterquery.h"

#include "eventkind.h"

#include <algorithm>
#include <QDateTime>
#include <QTimeZone>

namespace {

const QStringList outcomeValues { QStringLiteral("served"), QStringLiteral("failed"), QStringLiteral("refused"),
    QStringLiteral("blocked"), QStringLiteral("unserved"), QStringLiteral("cancelled") };
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

std::optional<qint64> parseTime(const QString& value)
{
    // ISO 8601 as people type it: a date, a date and time to the minute, second or millisecond; local time
    // unless it says Z or an offset.
    for (const Qt::DateFormat format : { Qt::ISODateWithMs, Qt::ISODate }) {
        QDateTime t = QDateTime::fromString(value, format);
        if (t.isValid())
            return t.toMSecsSinceEpoch() * 1000;
    }
    const QDate day = QDate::fromString(value, Qt::ISODate);
    if (day.isValid())
        return day.startOfDay().toMSecsSinceEpoch() * 1000;
    return std::nullopt;
}

QString formatTime(qint64 micros)
{
    const QDateTime t = QDateTime::fromMSecsSinceEpoch(micros / 1000);
    if (micros % 1000000 != 0)
        return t.toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss.zzz"));
    if (t.time().second() != 0)
        return t.toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss"));
    return t.toString(QStringLiteral("yyyy-MM-ddTHH:mm"));
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

QStringList FilterQuery::fields()
{
    QStringList names;
    for (const EventFilterList& list : eventFilterLists())
        names << QLatin1String(list.name);
    return names
        + QStringList { QStringLiteral("group"), QStringLiteral("after"), QStringLiteral("before"),
              QStringLiteral("blocked"), QStringLiteral("text") };
}

QStringList FilterQuery::valuesOf(const QString& field)
{
    const QString f = canonicalField(field);
    if (f == QLatin1String("outcome"))
        return outcomeValues;
    if (f == QLatin1String("blocked"))
        return blockedValues;
    if (f == QLatin1String("kind"))
        return EventKind::all();
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
    bool sawBlocked = false;
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
        if (j > i && j < text.size() && text.at(j) == QLatin1Char(':')) {
            t.field = canonicalField(text.mid(i, j - i));
            i = j + 1;
            if (!readValue(text, i, t.value, error)) {
                t.length = i - t.position;
                return fail(t, error);
            }
        } else if (!readValue(text, i, t.value, error)) {
            t.length = i - t.position;
            return fail(t, error);
        }
        t.length = i - t.position;

        const QString& v = t.value;
        if (t.field.isEmpty() || t.field == QLatin1String("text")) {
            if (v.isEmpty())
                return fail(t, QStringLiteral("an empty phrase matches nothing"));
            (t.negated ? f.excludeWords : f.words) << v;
            continue;
        }
        if (!fields().contains(t.field)) {
            return fail(t,
                QStringLiteral("unknown field \"%1\"; the fields are %2")
                    .arg(text.mid(t.position + (t.negated ? 1 : 0), j - t.position - (t.negated ? 1 : 0)),
                        fields().join(QStringLiteral(", "))));
        }
        if (v.isEmpty())
            return fail(t, QStringLiteral("%1: needs a value").arg(t.field));
        const QStringList fixed = valuesOf(t.field);
        if (!fixed.isEmpty() && !fixed.contains(v))
            return fail(t, QStringLiteral("%1: is one of %2").arg(t.field, fixed.join(QStringLiteral(", "))));
        const auto list = std::find_if(eventFilterLists().cbegin(), eventFilterLists().cend(),
            [&](const EventFilterList& l) { return t.field == QLatin1String(l.name); });
        if (list != eventFilterLists().cend())
            (f.*(t.negated ? list->none : list->any)) << v;
        else if (t.negated) // the rest say one thing: no "not" form
            return fail(t, QStringLiteral("%1: cannot be negated").arg(t.field));
        else if (t.field == QLatin1String("group")) {
            if (!f.groupId.isEmpty())
                return fail(t, QStringLiteral("group: give one"));
            f.groupId = v;
        } else if (t.field == QLatin1String("after") || t.field == QLatin1String("before")) {
            const auto micros = parseTime(v);
            if (!micros)
                return fail(
                    t, QStringLiteral("%1: expects a date or a date and time, such as 2026-07-17T10:00").arg(t.field));
            (t.field == QLatin1String("after") ? f.afterMicros : f.beforeMicros) = micros;
        } else if (t.field == QLatin1String("blocked")) {
            if (sawBlocked)
                return fail(t, QStringLiteral("blocked: give one"));
            sawBlocked = true;
            f.includeBlocked = v != QLatin1String("hide");
            f.blockedOnly = v == QLatin1String("only");
        }
    }
    if (f.afterMicros && f.beforeMicros && *f.afterMicros >= *f.beforeMicros) {
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
    if (!f.groupId.isEmpty())
        terms << QStringLiteral("group:") + quoted(f.groupId);
    if (f.afterMicros)
        terms << QStringLiteral("after:") + formatTime(*f.afterMicros);
    if (f.beforeMicros)
        terms << QStringLiteral("before:") + formatTime(*f.beforeMicros);
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
