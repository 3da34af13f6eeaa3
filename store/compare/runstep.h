#pragma once

#include <optional>
#include <QString>
#include <QVector>

// One step of a run, as a comparison aligns it (RunAlignment): a tool call (its name, its arguments and result
// written the same way whatever the source wrote: JSON with its keys in order, its outcome and duration) or a
// message (its role and text). Read from a room of any format (RunSteps).
struct RunStep
{
    enum class Kind { ToolCall, Message };

    Kind kind = Kind::ToolCall;
    qint64 index = 0; // where it shows in its room: a call's card, a message's row
    QString tool; // a call's name
    QString role; // a message's: user, assistant, system
    QString arguments; // normalised (RunSteps::normalised)
    QString result;
    QString outcome; // served, failed, ... (Outcome's name)
    std::optional<qint64> durationMs;
    QString text; // a message's
    quint64 strong = 0; // what makes two steps the same step: a call's name and arguments, a message's role and text
    quint64 weak = 0; // what makes them the same step changed: a call's name, a message's role

    QString kindName() const { return kind == Kind::ToolCall ? QStringLiteral("tool_call") : QStringLiteral("message"); }
};

using RunStepList = QVector<RunStep>;
