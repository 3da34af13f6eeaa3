#pragma once

#include <QString>

// Writes one long CraftBot EVENT.md for the benchmark: the records of CraftBot's own log (the fixture EVENT.md at
// `templateFile`: user and agent messages, reasoning, actions with pretty-printed JSON input and output, parallel
// calls, tasks created and ended) repeated with fresh task and session ids and times moved on a day each time,
// until the log holds `records` records. The repetitions are numbered from `firstRound` (their ids' suffix and days
// on): a log of records to append to another starts after that log's last.
namespace EventMdGenerator {
void write(const QString& path, qint64 records, const QString& templateFile, qint64 firstRound = 0);
}
