#include "reviewer.h"

#include "settings.h"

#include <pwd.h>
#include <unistd.h>

QString Reviewer::name()
{
    const QString given = Settings::author();
    return given.isEmpty() ? loginName() : given;
}

QString Reviewer::loginName()
{
    // The password database names the user the process runs as, whatever its environment says.
    if (const passwd* entry = ::getpwuid(::geteuid()); entry && entry->pw_name && *entry->pw_name)
        return QString::fromLocal8Bit(entry->pw_name);
    return qEnvironmentVariable("USER", qEnvironmentVariable("LOGNAME"));
}
