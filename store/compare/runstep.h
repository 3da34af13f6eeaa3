#pragma once

#include <optional>
#include <QString>
#include <QVector>

// One step of a run, as a comparison aligns it (RunAlignment): a tool call (its name, the digests of its arguments
// and result written the same way whatever the source wrote: JSON with its keys in order, its outcome and duration)
// or a message (its role, the digest of its text and the start of it). Read from a room of any format (RunSteps).
// A step holds digests, not texts: two rooms of a hundred thousand calls are compared in a few tens of megabytes,
// and the texts of the step a person looks at are read again when they do (RunSteps::text).
struct RunStep
{
    enum class Kind { ToolCall, Message };

    Kind kind = Kind::ToolCall;
    qint64 index = 0; // where it shows in its room: a call's card, a message's row
    qint64 callId = 0; // a call's row (what RunSteps::text reads it by); 0 for a message
    QString tool; // a call's name
    QString role; // a message's: user, assistant, system
    QString outcome; // served, failed, ... (Outcome's name)
    std::optional<qint64> durationMs;
    QString preview; // a message's text, simplified, its first 120 characters: what a row says of it
    bool fromSnapshot = false; // an AG-UI snapshot or a run's input brought it, not the run's own events
    bool shown = true; // under the comparison's filter; a pair is kept when either of its steps is
    quint64 strong = 0; // what makes two steps the same step: a call's name and arguments, a message's role and text
    quint64 weak = 0; // what makes them the same step changed: a call's name, a message's role
    quint64 resultDigest = 0; // a call's result (same call, another result: changed [result])

    QString kindName() const { return kind == Kind::ToolCall ? QStringLiteral("tool_call") : QStringLiteral("message"); }
};

using RunStepList = QVector<RunStep>;

// What a step says in full, read when it is shown (RunSteps::text): a call's arguments and result (normalised), a
// message's text.
struct StepText
{
    QString arguments;
    QString result;
    QString text;
};
