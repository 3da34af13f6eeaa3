#pragma once

#include "../outcome.h"

#include <optional>
#include <QJsonValue>
#include <QString>

// One CraftBot action record (SOURCES.md §2): "Running action NAME with input: VALUE." or "Action NAME completed
// with output: VALUE.", the value JSON (newer CraftBot) or a Python literal (older).
struct CraftBotAction
{
    enum class Part { None, Start, End };
    Part part = Part::None;
    bool gui = false; // a "GUI action" pairs only with GUI actions
    QString name;
    QString valueText; // the input or output as written
    std::optional<QJsonValue> value;
    bool json = false; // the value is a JSON object or array (newer CraftBot): shown as written

    // The action a record of `kind` says, Part::None when it is not one (or does not name its action).
    static CraftBotAction parse(const QString& kind, const QString& message);
    // What an output says of its call: error_code "cancelled" is cancelled, status "error" or an error key failed.
    Outcome outcome() const;
    QString error() const; // for a call that did not serve: the output's error, else its message
};
