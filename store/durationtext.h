#pragma once

#include "toolcallrecord.h"

#include <QString>

// A call's duration as people read it, said once for the cards, the details, the CLI and the reports. A duration
// from timestamps stamped to the second is a range, not a figure: "0 ms" would claim a precision the source
// never had.
namespace DurationText {
// For a card's line: "1234 ms", "1234 ms (timestamps)", "< 1 s", "≈ 4 s". Empty without a duration.
QString brief(const ToolCallRecord& call);
// For the details and the reports: "1234 ms", "1234 ms (from timestamps)", "under 1 s (timestamps to the
// second)", "4 s ± 1 s (timestamps to the second)". Empty without a duration.
QString full(const ToolCallRecord& call);
} // namespace DurationText
