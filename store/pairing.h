#pragma once

#include <optional>
#include <QString>
#include <QStringList>

// How a call's start and end were put together (SOURCES.md §4.3), as ToolCallRecord::pairing holds it. Stored
// and filtered (pairing:guessed) by its name.
enum class Pairing : quint8 {
    Exact, // same correlation and tool id
    IdOnly, // same tool id, another correlation
    NameOnly, // no ids: same name, oldest open start
    Guessed, // CraftBot: by name and order, nothing else to go on
    StartOnly, // nothing closed it
    EndOnly, // nothing opened it
    Manual, // a reviewer linked the end to the start (PairFixer)
};

namespace Pairings {
QString name(Pairing pairing); // exact, id_only, name_only, guessed, start_only, end_only, manual
std::optional<Pairing> fromName(const QString& name);
QStringList names(); // every name, in the enum's order
} // namespace Pairings
