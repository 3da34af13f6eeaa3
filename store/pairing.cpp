#include "pairing.h"

#include <array>

namespace {
// In the enum's order.
const std::array<const char*, 7> Names { "exact", "id_only", "name_only", "guessed", "start_only", "end_only", "manual" };
} // namespace

namespace Pairings {

QString name(Pairing pairing)
{
    return QLatin1String(Names[size_t(pairing)]);
}

std::optional<Pairing> fromName(const QString& name)
{
    for (size_t i = 0; i < Names.size(); ++i) {
        if (name == QLatin1String(Names[i]))
            return Pairing(i);
    }
    return std::nullopt;
}

QStringList names()
{
    QStringList all;
    for (const char* n : Names)
        all << QLatin1String(n);
    return all;
}

} // namespace Pairings
