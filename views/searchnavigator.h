#pragma once

#include <optional>
#include <QVector>

// Find in the room (F3, Shift+F3): the indexes of the rows that hold the words, ascending, and where a step from
// the current row lands, wrapping at the ends. Plain arithmetic over the matches the store found, so that every
// edge (no current row, the first and last match, a current row that is no match) is checked without a window.
class SearchNavigator
{
public:
    enum class Wrap { None, FromTop, FromBottom };
    struct Step
    {
        qint64 target = -1;
        Wrap wrap = Wrap::None; // the step went round: said in the status bar
    };

    void setMatches(const QVector<qint64>& ascending) { m_matches = ascending; }
    void clear() { m_matches.clear(); }
    const QVector<qint64>& matches() const { return m_matches; }
    bool isEmpty() const { return m_matches.isEmpty(); }

    // Which match `current` is (0-based), or -1 when it is none of them.
    int position(qint64 current) const;
    // The next match after `current` (forward) or before it; -1 for current: no row, so the first (or last) match.
    std::optional<Step> step(qint64 current, bool forward) const;
    // The first match at or after `current` (a new search starts where the reader is), else the first one.
    std::optional<qint64> firstFrom(qint64 current) const;

private:
    QVector<qint64> m_matches;
};
