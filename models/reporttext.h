#pragma once

#include <QString>

// Text as a report shows it to a person: characters that would change what the text appears to say are written
// as their code point, "[U+202E]". Bidi overrides and isolates reorder what follows them ("invoice \u202Efdp.exe"
// read as "invoice exe.pdf"), and NUL and other control characters are invisible or cut a line short in viewers.
// Tabs and line breaks stay. JSON Lines keeps every character as it was: it is data, not a page.
class ReportText
{
public:
    static QString shown(const QString& text);
    static bool isHidden(char32_t c); // what shown() writes as its code point
    // Where a position of shown(text) is in `text`, for a selection made in what is shown: a position inside a
    // code point's marker is before that character (`end` false: a selection's start) or after it (`end` true).
    static qsizetype sourcePosition(const QString& text, qsizetype shownPosition, bool end);
};
