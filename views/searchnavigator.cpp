#include "searchnavigator.h"

#include <algorithm>

int SearchNavigator::position(qint64 current) const
{
    const auto it = std::lower_bound(m_matches.cbegin(), m_matches.cend(), current);
    return (it != m_matches.cend() && *it == current) ? int(it - m_matches.cbegin()) : -1;
}

std::optional<SearchNavigator::Step> SearchNavigator::step(qint64 current, bool forward) const
{
    if (m_matches.isEmpty())
        return std::nullopt;
    Step s;
    if (forward) {
        const auto it = std::upper_bound(m_matches.cbegin(), m_matches.cend(), current);
        s.target = it == m_matches.cend() ? m_matches.first() : *it;
        if (it == m_matches.cend() && current >= 0)
            s.wrap = Wrap::FromTop;
    } else {
        const auto it = std::lower_bound(m_matches.cbegin(), m_matches.cend(), current);
        s.target = (it == m_matches.cbegin() || current < 0) ? m_matches.last() : *(it - 1);
        if (it == m_matches.cbegin() && current >= 0)
            s.wrap = Wrap::FromBottom;
    }
    return s;
}

std::optional<qint64> SearchNavigator::firstFrom(qint64 current) const
{
    if (m_matches.isEmpty())
        return std::nullopt;
    const auto it = std::lower_bound(m_matches.cbegin(), m_matches.cend(), std::max<qint64>(current, 0));
    return it == m_matches.cend() ? m_matches.first() : *it;
}
