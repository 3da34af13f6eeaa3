#include "timeutil.h"

#include <cmath>
#include <QDate>
#include <QDateTime>
#include <QHash>

namespace {

bool readDigits(QStringView text, qsizetype& pos, int count, int& out)
{
    if (pos + count > text.size())
        return false;
    int value = 0;
    for (int i = 0; i < count; ++i) {
        const QChar c = text[pos + i];
        if (!c.isDigit() || c.unicode() > '9')
            return false;
        value = value * 10 + (c.unicode() - '0');
    }
    pos += count;
    out = value;
    return true;
}

bool expect(QStringView text, qsizetype& pos, char16_t c)
{
    if (pos >= text.size() || text[pos] != QChar(c))
        return false;
    ++pos;
    return true;
}

} // namespace

namespace TimeUtil {

std::optional<qint64> parseIsoToMicros(QStringView text)
{
    text = text.trimmed();
    qsizetype pos = 0;
    int year, month, day, hour, minute, second = 0;
    if (!readDigits(text, pos, 4, year) || !expect(text, pos, u'-') || !readDigits(text, pos, 2, month)
        || !expect(text, pos, u'-') || !readDigits(text, pos, 2, day))
        return std::nullopt;
    if (pos >= text.size() || (text[pos] != QLatin1Char('T') && text[pos] != QLatin1Char(' ')))
        return std::nullopt;
    ++pos;
    if (!readDigits(text, pos, 2, hour) || !expect(text, pos, u':') || !readDigits(text, pos, 2, minute))
        return std::nullopt;
    if (pos < text.size() && text[pos] == QLatin1Char(':') && !(++pos, readDigits(text, pos, 2, second)))
        return std::nullopt;
    qint64 fraction = 0;
    if (pos < text.size() && text[pos] == QLatin1Char('.')) {
        ++pos;
        int digits = 0;
        while (pos < text.size() && text[pos].isDigit() && text[pos].unicode() <= '9') {
            if (digits < 6)
                fraction = fraction * 10 + (text[pos].unicode() - '0');
            ++digits;
            ++pos;
        }
        if (digits == 0)
            return std::nullopt;
        for (int i = digits; i < 6; ++i)
            fraction *= 10;
    }
    qint64 offsetSeconds = 0;
    if (pos < text.size()) {
        const QChar sign = text[pos];
        if (sign == QLatin1Char('Z') || sign == QLatin1Char('z')) {
            ++pos;
        } else if (sign == QLatin1Char('+') || sign == QLatin1Char('-')) {
            ++pos;
            int oh, om = 0;
            if (!readDigits(text, pos, 2, oh))
                return std::nullopt;
            if (pos < text.size() && text[pos] == QLatin1Char(':'))
                ++pos;
            if (pos < text.size() && !readDigits(text, pos, 2, om))
                return std::nullopt;
            offsetSeconds = (oh * 3600 + om * 60) * (sign == QLatin1Char('-') ? -1 : 1);
        }
    }
    if (pos != text.size())
        return std::nullopt;
    const QDate date(year, month, day);
    if (!date.isValid() || hour > 23 || minute > 59 || second > 60)
        return std::nullopt;
    const qint64 days = date.toJulianDay() - QDate(1970, 1, 1).toJulianDay();
    const qint64 seconds = days * 86400 + hour * 3600 + minute * 60 + second - offsetSeconds;
    return seconds * 1000000 + fraction;
}

QString formatMicros(qint64 micros)
{
    qint64 seconds = micros / 1000000;
    qint64 fraction = micros % 1000000;
    if (fraction < 0) {
        fraction += 1000000;
        --seconds;
    }
    const QDateTime dt = QDateTime::fromSecsSinceEpoch(seconds, Qt::UTC);
    QString out = dt.toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss"));
    if (fraction != 0)
        out += QLatin1Char('.') + QString::number(fraction).rightJustified(6, QLatin1Char('0'));
    return out + QLatin1Char('Z');
}

namespace {

// Splits micros into whole milliseconds (floored) and the microseconds left.
std::pair<qint64, qint64> splitMillis(qint64 micros)
{
    qint64 millis = micros / 1000;
    qint64 rest = micros % 1000;
    if (rest < 0) {
        rest += 1000;
        --millis;
    }
    return { millis, rest };
}

} // namespace

std::optional<qint64> parseUserTime(QStringView text)
{
    text = text.trimmed();
    // "-7d": so long before now (minutes, hours, days, weeks), as a queue's filter says "the last week".
    if (text.size() >= 3 && text.front() == QLatin1Char('-')) {
        static const QHash<QChar, qint64> units { { QLatin1Char('m'), 60 }, { QLatin1Char('h'), 3600 },
            { QLatin1Char('d'), 86400 }, { QLatin1Char('w'), 7 * 86400 } };
        bool ok = false;
        const qint64 n = text.mid(1, text.size() - 2).toLongLong(&ok);
        const auto unit = units.constFind(text.back());
        if (!ok || n < 0 || n > 100000 || unit == units.constEnd() || !text.at(1).isDigit())
            return std::nullopt;
        return QDateTime::currentMSecsSinceEpoch() * 1000 - n * *unit * 1000000;
    }
    QString full = text.toString();
    if (full.size() == 10)
        full += QStringLiteral("T00:00"); // a plain date: its first instant
    const std::optional<qint64> asUtc = parseIsoToMicros(full);
    if (!asUtc || full.size() < 11)
        return std::nullopt;
    // After the date, a zone is the only place a letter Z, a plus or a minus can be.
    const QStringView clock = QStringView(full).mid(11);
    if (clock.contains(QLatin1Char('Z')) || clock.contains(QLatin1Char('z')) || clock.contains(QLatin1Char('+'))
        || clock.contains(QLatin1Char('-')))
        return asUtc;
    // No zone: the same wall-clock reading in local time (QDateTime knows the offset of that day, DST included).
    const auto [millis, rest] = splitMillis(*asUtc);
    const QDateTime wall = QDateTime::fromMSecsSinceEpoch(millis, Qt::UTC);
    const QDateTime local(wall.date(), wall.time(), Qt::LocalTime);
    return local.toMSecsSinceEpoch() * 1000 + rest;
}

QString formatUserTime(qint64 micros)
{
    const auto [millis, rest] = splitMillis(micros);
    const QDateTime t = QDateTime::fromMSecsSinceEpoch(millis, Qt::LocalTime);
    if (rest != 0) {
        return t.toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss."))
            + QString::number(t.time().msec() * 1000 + rest).rightJustified(6, QLatin1Char('0'));
    }
    if (t.time().msec() != 0)
        return t.toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss.zzz"));
    if (t.time().second() != 0)
        return t.toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss"));
    return t.toString(QStringLiteral("yyyy-MM-ddTHH:mm"));
}

namespace {
qint64 scaledToMicros(double value, double scale, bool* outOfRange)
{
    const double micros = value * scale;
    const bool bad = !std::isfinite(micros) || micros < double(MinMicros) || micros > double(MaxMicros);
    if (outOfRange)
        *outOfRange = bad;
    return bad ? 0 : static_cast<qint64>(std::llround(micros));
}
} // namespace

qint64 secondsToMicros(double seconds, bool* outOfRange)
{
    return scaledToMicros(seconds, 1e6, outOfRange);
}

qint64 millisToMicros(double millis, bool* outOfRange)
{
    return scaledToMicros(millis, 1e3, outOfRange);
}

std::optional<qint64> toMillis(double millis)
{
    constexpr double limit = double(MaxMicros - MinMicros) / 1000;
    if (!std::isfinite(millis) || millis < -limit || millis > limit)
        return std::nullopt;
    return static_cast<qint64>(millis);
}

std::optional<qint64> durationMs(qint64 fromMicros, qint64 toMicros)
{
    qint64 difference = 0;
    if (__builtin_sub_overflow(toMicros, fromMicros, &difference))
        return std::nullopt;
    return difference / 1000;
}

} // namespace TimeUtil
