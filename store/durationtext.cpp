#include "durationtext.h"

#include <QCoreApplication>

namespace {
QString tr(const char* text) { return QCoreApplication::translate("DurationText", text); }

qint64 wholeSeconds(qint64 ms) { return (ms + 500) / 1000; }
} // namespace

QString DurationText::brief(const ToolCallRecord& call)
{
    if (!call.durationMs)
        return {};
    const qint64 ms = *call.durationMs;
    if (call.durationSource == DurationSource::Seconds)
        return ms < 1000 ? tr("< 1 s") : tr("≈ %1 s").arg(wholeSeconds(ms));
    if (call.durationSource == DurationSource::Timestamps)
        return tr("%1 ms (timestamps)").arg(ms);
    return tr("%1 ms").arg(ms);
}

QString DurationText::full(const ToolCallRecord& call)
{
    if (!call.durationMs)
        return {};
    const qint64 ms = *call.durationMs;
    if (call.durationSource == DurationSource::Seconds)
        return ms < 1000 ? tr("under 1 s (timestamps to the second)")
                         : tr("%1 s ± 1 s (timestamps to the second)").arg(wholeSeconds(ms));
    if (call.durationSource == DurationSource::Timestamps)
        return tr("%1 ms (from timestamps)").arg(ms);
    return tr("%1 ms").arg(ms);
}
