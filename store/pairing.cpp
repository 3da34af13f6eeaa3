#include "pairing.h"

#include "enumnames.h"

namespace {
// In the enum's order.
const std::array<const char*, 7> Names { "exact", "id_only", "name_only", "guessed", "start_only", "end_only", "manual" };
} // namespace

namespace Pairings {

QString name(Pairing pairing)
{
    return EnumNames::name(Names, pairing);
}

std::optional<Pairing> fromName(const QString& name)
{
    return EnumNames::value<Pairing>(Names, name);
}

QStringList names()
{
    return EnumNames::all(Names);
}

} // namespace Pairings
