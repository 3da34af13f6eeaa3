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
// must match; `-word` must not). One rule for every field: different fields all apply; the same field twice
// means either value, and its negated values none of them. Values with spaces are quoted. A word with a colon
// whose first part is no field (a URL) is text. Times are ISO 8601 dates or date-times, in local time unless
// they carry Z or an offset (TimeUtil::parseUserTime); both bounds are exclusive.
struct FilterQuery
{
    struct Result
    {
        EventFilter filter;
        QString error; // empty when the text parsed
        int position = -1; // where the error starts in the text
        int length = 0; // how much of the text it covers
        QString note; // what the text was read as that its writer may not have meant (a word taken for text)
        bool ok() const { return error.isEmpty(); }
    };

    static Result parse(const QString& text);
    // The text that parses back to `filter` (the fields the language has; the rest is dropped).
    static QString format(const EventFilter& filter);
    // One term: `field:value` (`-field:value` when `negated`), the value quoted when it needs to be.
    static QString term(const QString& field, const QString& value, bool negated = false);
    // The field names, for completion and for the error that names them.
    static QStringList fields();
    // The values a field takes when they are a fixed set (outcome, blocked, kind), else empty.
    static QStringList valuesOf(const QString& field);
};
