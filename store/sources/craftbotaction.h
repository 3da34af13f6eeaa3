#pragma once

#include "../outcome.h"

#include <optional>
#include <QJsonValue>
#include <QString>

// One CraftBot action record (SOURCES.md §2): "Running action NAME with input: VALUE." or "Action NAME completed
// with output: VALUE.", the value JSON (newer CraftBot) or a Python literal (older).
//
// A JSON object or array, most values, is checked by simdjson and only the few top-level strings the stream's shape
// and the call's outcome need are read from it: an import reads every action twice (its shape, then its rows), and
// Qt's parser building each whole value was most of a CraftBot import. Anything else (a Python literal, a JSON
// scalar, text simdjson refuses) is parsed as before, by Qt's parser or PyLiteral.
struct CraftBotAction
{
    enum class Part { None, Start, End };
    Part part = Part::None;
    bool gui = false; // a "GUI action" pairs only with GUI actions
    QString name;
    QString valueText; // the input or output as written
    bool valid = false; // the value parses: JSON, or a Python literal
    bool json = false; // the value is a JSON object or array (newer CraftBot): shown as written
    std::optional<QJsonValue> value; // the value parsed, when it is not a JSON object or array
    // Of an object value, its top-level strings the shape reads (empty when missing or not strings).
    QString sessionId; // _session_id
    QString taskName, taskId; // task_name (a task_start's input), task_id (its output)
    // What an output says of its call: error_code "cancelled" is cancelled, status "error" or "failed" or an error
    // key that is not null, false or "" failed; else served.
    Outcome outcome = Outcome::Served;
    QString error; // for a call that did not serve: the output's error (as compact JSON), else its message

    // The action a record of `kind` says, Part::None when it is not one (or does not name its action).
    static CraftBotAction parse(const QString& kind, const QString& message);
};
