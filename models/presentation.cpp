#include "presentation.h"

#include "outcome.h"

#include <array>
#include <QCoreApplication>
#include <QPalette>

namespace Presentation {

namespace {
struct Entry
{
    Outcome outcome;
    Look look;
};

const std::array<Entry, 6>& looks()
{
    static const std::array<Entry, 6> table { {
        { Outcome::Served, { Outcomes::name(Outcome::Served), QStringLiteral("✓"), QColor(0x2e, 0x7d, 0x32),
                               QStringLiteral("Served: the tool ran and answered.") } },
        { Outcome::Failed, { Outcomes::name(Outcome::Failed), QStringLiteral("✗"), QColor(0xc6, 0x28, 0x28),
                               QStringLiteral("Failed: the tool ran and reported an error.") } },
        { Outcome::Refused, { Outcomes::name(Outcome::Refused), QStringLiteral("⊘"), QColor(0xd8, 0x5b, 0x00),
                               QStringLiteral("Refused: a gate or the handler turned the call down before it ran.") } },
        { Outcome::Blocked, { Outcomes::name(Outcome::Blocked), QStringLiteral("⊗"), QColor(0x7b, 0x1f, 0xa2),
                               QStringLiteral("Blocked: a hook stopped the call's end from reaching anyone.") } },
        { Outcome::Unserved, { Outcomes::name(Outcome::Unserved), QStringLiteral("…"), QColor(0x75, 0x75, 0x75),
                               QStringLiteral("Unserved: nothing ever answered the call.") } },
        { Outcome::Cancelled, { Outcomes::name(Outcome::Cancelled), QStringLiteral("■"), QColor(0x45, 0x5a, 0x64),
                               QStringLiteral("Cancelled: the call was stopped before it ended.") } },
    } };
    return table;
}
} // namespace

Look outcome(Outcome outcome)
{
    for (const Entry& entry : looks()) {
        if (entry.outcome == outcome)
            return entry.look;
    }
    return { QString(), QString(), QColor(0x75, 0x75, 0x75), QString() };
}

QString outcomeMeaning(Outcome value)
{
    return outcome(value).meaning;
}

QString outcomeLabel(Outcome value)
{
    const Look look = outcome(value);
    return look.symbol.isEmpty() ? look.word : look.symbol + QLatin1Char(' ') + look.word;
}

QColor outcomeColour(Outcome value, bool dark)
{
    const QColor c = outcome(value).light;
    return dark ? c.lighter(165) : c;
}

QColor problemColour(bool dark)
{
    const QColor c(0xc0, 0x39, 0x2b);
    return dark ? c.lighter(150) : c;
}

bool isProblem(Outcome outcome)
{
    return outcome == Outcome::Failed || outcome == Outcome::Refused || outcome == Outcome::Unserved;
}

QString errorLine(const QString& error)
{
    if (error.startsWith(QLatin1String("error"), Qt::CaseInsensitive))
        return error;
    return QCoreApplication::translate("Presentation", "Error: %1").arg(error);
}

bool isDark(const QPalette& palette)
{
    return palette.color(QPalette::Base).lightness() < 128;
}

} // namespace Presentation
