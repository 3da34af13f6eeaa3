#pragma once

#include "outcome.h"

#include <QColor>
#include <QString>

// How an outcome looks wherever it is shown (the timeline's badges, the raw rows, the room list, the reports):
// a word, a symbol and a colour of its own, so that no outcome is told by colour alone. One table, so the
// timeline and a report never disagree.
namespace Presentation {
struct Look
{
    QString word; // as stored and filtered: served, failed, ...
    QString symbol; // ✓ ✗ ⊘ ⊗ … ■
    QColor light; // on a light background
    QString meaning; // in a sentence: a badge's tooltip, a report's legend
};

// Its look; None has no word, no symbol, and grey.
Look outcome(Outcome outcome);
QString outcomeLabel(Outcome outcome); // "✓ served"
// What it means, in a sentence (a badge's tooltip, a report's legend).
QString outcomeMeaning(Outcome outcome);
// A call's error as a line to read: "Error: " before it, unless it says so itself ("Error executing …" read
// "Error: Error executing …").
QString errorLine(const QString& error);
// Whether a palette is dark (its base darker than mid grey): the colours above have a light and a dark form.
bool isDark(const QPalette& palette);
QColor outcomeColour(Outcome outcome, bool dark);
// The colour of something that went wrong (a failed call in the raw rows, a room with failed calls, a block
// that could not be read), on a light or a dark background.
QColor problemColour(bool dark = false);
// Failed, refused or never answered: what ] and [ step through and the room list counts.
bool isProblem(Outcome outcome);
} // namespace Presentation
