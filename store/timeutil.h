#pragma once

#include <optional>
#include <QString>
#include <QStringView>

// Times are kept as microseconds since the Unix epoch (UTC): RoomKit writes microsecond precision,
// which QDateTime (milliseconds) would lose.
namespace TimeUtil {

// Parses ISO 8601 as RoomKit and the other sources write it: "2026-03-01T12:00:05.123456Z",
// "2026-03-02T08:41:07Z", "2026-04-30T18:02:11.532114+00:00", or with a space instead of 'T'.
// A time without an offset is read as UTC. Returns nullopt for anything else.
std::optional<qint64> parseIsoToMicros(QStringView text);

// Formats as "2026-03-01T12:00:05.123456Z" (fraction left out when it is zero).
QString formatMicros(qint64 micros);

// A time as a person types it, in the filter bar and on the command line alike, so that the same text means
// the same instant everywhere: a date (its first instant), or a date and a time to the minute, second or
// microsecond; in local time unless it ends in Z or an offset. Or a time before now: "-30m", "-12h", "-7d", "-2w".
std::optional<qint64> parseUserTime(QStringView text);
// What parseUserTime reads back to `micros`: local time, as short as the value allows ("2026-03-01T12:00",
// "…:05", "…:05.123", "…:05.123456").
QString formatUserTime(qint64 micros);

// The times a source may hold: from year 1 to year 9999. A number outside them (1e32, NaN) is not a time, and
// converting it to an integer would be undefined behaviour.
constexpr qint64 MinMicros = -62135596800LL * 1000000;
constexpr qint64 MaxMicros = 253402300799LL * 1000000;

// Epoch seconds as a double (RoomKit's created_ts) to microseconds, rounded; 0 (no time) when it is out of
// range, with `outOfRange` set.
qint64 secondsToMicros(double seconds, bool* outOfRange = nullptr);
// Epoch milliseconds as a double (AG-UI's timestamp) to microseconds, rounded; 0 when out of range, likewise.
qint64 millisToMicros(double millis, bool* outOfRange = nullptr);
// A number of milliseconds a source wrote (a duration), when it is a whole number of them that fits; nullopt
// for NaN, infinities and what no duration can be (more than ten thousand years).
std::optional<qint64> toMillis(double millis);
// The milliseconds from one time to another; nullopt when the difference does not fit (times out of range).
std::optional<qint64> durationMs(qint64 fromMicros, qint64 toMicros);

} // namespace TimeUtil
