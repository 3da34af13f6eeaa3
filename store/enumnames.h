#pragma once

#include <array>
#include <optional>
#include <QString>
#include <QStringList>

// The names an enum is stored and filtered by, one per value in the enum's order (EventKind, Outcome, Pairing):
// the lookups each of them needs, written once.
namespace EnumNames {
template<typename Enum, size_t N> QString name(const std::array<const char*, N>& names, Enum value)
{
    return QLatin1String(names[size_t(value)]);
}

// The value of that name, from the `first` name on; nullopt for a name the table does not hold.
template<typename Enum, size_t N>
std::optional<Enum> value(const std::array<const char*, N>& names, const QString& name, size_t first = 0)
{
    for (size_t i = first; i < N; ++i) {
        if (name == QLatin1String(names[i]))
            return Enum(i);
    }
    return std::nullopt;
}

template<size_t N> QStringList all(const std::array<const char*, N>& names, size_t first = 0)
{
    QStringList out;
    for (size_t i = first; i < N; ++i)
        out << QLatin1String(names[i]);
    return out;
}
} // namespace EnumNames
