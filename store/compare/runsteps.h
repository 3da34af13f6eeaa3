#pragma once

#include "runstep.h"

class Workspace;

// A room's steps, in the order they show: its tool calls (by their card) and its messages, from any source format.
namespace RunSteps {
RunStepList read(Workspace& workspace, qint64 roomId);
// JSON written one way (compact, an object's keys in order), so that two sources' spacing and key order do not
// make a difference; other text trimmed.
QString normalised(const QString& text);
} // namespace RunSteps
