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

// Epoch seconds as a double (RoomKit's created_ts) to microseconds, rounded.
qint64 secondsToMicros(double seconds);

} // namespace TimeUtil
