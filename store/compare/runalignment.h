#pragma once

#include "runstep.h"
#include "steppair.h"

// Two runs' steps aligned the way a good diff aligns lines. First the steps that are the same in both (a call's name
// and arguments, a message's role and text): a patience diff (the steps that occur once in each side anchor, their
// longest common order by patience sorting, then the same between anchors, with the common ends trimmed first); a
// step that matches may still differ in its result or outcome (changed). Then, between those, the same again over
// the weaker key (a call's name, a message's role): a call whose arguments differ pairs as changed, not as one
// removed and one added. What is left is only in A or only in B. Memory grows with the steps, never with their
// product: where a stretch has no unique anchor, a plain LCS runs only while it is small, else the steps of the
// stretch are paired in order.
namespace RunAlignment {
StepPairs align(const RunStepList& a, const RunStepList& b);
} // namespace RunAlignment
