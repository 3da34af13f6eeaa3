#pragma once

#include <QString>

// Writes one long AG-UI thread log (JSON Lines, as kaboo-runtime writes a thread) for the benchmark: the lines of
// real kaboo threads (the fixture threads in `templateDir`: runs, streamed text and reasoning deltas, tool calls
// with streamed arguments, parallel calls, snapshots, a stopped run and failures) repeated with fresh run, message
// and call ids and times moved on, until the log holds `events` lines, every one of them in one thread.
namespace AguiLogGenerator {
void write(const QString& path, qint64 events, const QString& templateDir);
}
