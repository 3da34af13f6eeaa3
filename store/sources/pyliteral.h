#pragma once

#include <optional>
#include <QJsonValue>
#include <QStringView>

// Reads a Python literal as repr() writes it (older CraftBot logs action inputs and outputs this way):
// dicts, lists, tuples, strings in either quote with their escapes, numbers, True, False and None.
// Returns nullopt for anything else; never throws, never reads past the text.
namespace PyLiteral {
std::optional<QJsonValue> toJson(QStringView text);
}
