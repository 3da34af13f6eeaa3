#pragma once

#include <QStringList>
#include <QTextStream>

// The headless verbs of the `sightline` binary: import, rooms, events, tools. No display needed.
// Exit codes: 0 success, 1 an error (named file and what is wrong on stderr), 2 a usage error.
namespace Cli {
constexpr int Ok = 0;
constexpr int Error = 1;
constexpr int Usage = 2;

// Whether argv names a verb (or --help/--version) rather than files for the GUI to open.
bool isCliInvocation(const QStringList& arguments);
int run(const QStringList& arguments, QTextStream& out, QTextStream& err);
// The man page, in roff, made from the same option definitions the verbs parse with.
QString manPage();
} // namespace Cli
