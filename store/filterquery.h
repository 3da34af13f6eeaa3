#pragma once

#include "eventfilter.h"

#include <QString>
#include <QStringList>

// The filter bar's one-line language, read into an EventFilter and written back from one, so that the panes
// and the bar say the same thing:
//
//   type:tool_call_end tool:web_search outcome:failed -channel:sms after:2026-07-17T10:00 blocked:only "exact phrase"
//
// A term is `field:value`, `-field:value` (not that value), a word or a "quoted phrase" (full-text, all of them
// must match; `-word` must not). The same field twice means either value. Values with spaces are quoted. Times
// are ISO 8601 dates or date-times, in local time unless they carry Z or an offset; both bounds are exclusive.
struct FilterQuery
{
    struct Result
    {
        EventFilter filter;
        QString error; // empty when the text parsed
        int position = -1; // where the error starts in the text
        int length = 0; // how much of the text it covers
        bool ok() const { return error.isEmpty(); }
    };

    static Result parse(const QString& text);
    // The text that parses back to `filter` (the fields the language has; the rest is dropped).
    static QString format(const EventFilter& filter);
    // The field names, for completion and for the error that names them.
    static QStringList fields();
    // The values a field takes when they are a fixed set (outcome, blocked, kind), else empty.
    static QStringList valuesOf(const QString& field);
};
