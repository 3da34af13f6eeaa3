#pragma once

#include <QString>

// Who makes a change or a report, by one rule for the window and the command line: the name the reviewer gave
// (Edit ▸ Set Your Name, kept in the settings as editor/author), else the system's login name of the user the
// process runs as. $USER is not that rule: cron, containers and systemd units run without it, and a change
// must never be refused, or a report left unsigned, for want of it.
class Reviewer
{
public:
    // The name given, else loginName().
    static QString name();
    // The login name of the effective user (getpwuid), else $USER or $LOGNAME; empty only when none is known.
    static QString loginName();
};
