#include "runalignment.h"

#include <algorithm>
#include <array>
#include <unordered_map>
#include <vector>

namespace {

using Keys = std::vector<quint64>;
using Matches = std::vector<std::pair<int, int>>;

// A stretch with no anchor is aligned by a plain LCS only up to this many cells of its table (4 MB); a bigger one
// is left unmatched here (its steps then pair by name, in order, or stand alone).
constexpr qint64 lcsCells = 1'000'000;

// The longest common subsequence of a[a0, a1) and b[b0, b1), by its table.
void lcs(const Keys& a, const Keys& b, int a0, int a1, int b0, int b1, Matches& out)
{
    const int n = a1 - a0, m = b1 - b0;
    std::vector<int> table(size_t(n + 1) * size_t(m + 1), 0);
    const auto at = [&](int i, int j) -> int& { return table[size_t(i) * size_t(m + 1) + size_t(j)]; };
    for (int i = n - 1; i >= 0; --i) {
        for (int j = m - 1; j >= 0; --j)
            at(i, j) = a[size_t(a0 + i)] == b[size_t(b0 + j)] ? at(i + 1, j + 1) + 1 : std::max(at(i + 1, j), at(i, j + 1));
    }
    for (int i = 0, j = 0; i < n && j < m;) {
        if (a[size_t(a0 + i)] == b[size_t(b0 + j)]) {
            out.push_back({ a0 + i, b0 + j });
            ++i;
            ++j;
        } else if (at(i + 1, j) >= at(i, j + 1)) {
            ++i;
        } else {
            ++j;
        }
    }
}

// Patience diff of a[a0, a1) against b[b0, b1): the matched positions, in order.
void patience(const Keys& a, const Keys& b, int a0, int a1, int b0, int b1, Matches& out)
{
    while (a0 < a1 && b0 < b1 && a[size_t(a0)] == b[size_t(b0)]) {
        out.push_back({ a0, b0 });
        ++a0;
        ++b0;
    }
    Matches tail;
    while (a0 < a1 && b0 < b1 && a[size_t(a1 - 1)] == b[size_t(b1 - 1)]) {
        --a1;
        --b1;
        tail.push_back({ a1, b1 });
    }
    if (a0 < a1 && b0 < b1) {
        // The keys that occur once in each side: [count in a, position in a, count in b, position in b].
        std::unordered_map<quint64, std::array<int, 4>> seen;
        seen.reserve(size_t(a1 - a0));
        for (int i = a0; i < a1; ++i) {
            auto& s = seen[a[size_t(i)]];
            ++s[0];
            s[1] = i;
        }
        for (int j = b0; j < b1; ++j) {
            const auto it = seen.find(b[size_t(j)]);
            if (it != seen.end()) {
                ++it->second[2];
                it->second[3] = j;
            }
        }
        Matches unique;
        for (const auto& [k, s] : seen) {
            if (s[0] == 1 && s[2] == 1)
                unique.push_back({ s[1], s[3] });
        }
        if (!unique.empty()) {
            std::sort(unique.begin(), unique.end());
            // Patience sorting: the longest run of them whose b positions rise too.
            std::vector<int> tops; // per pile, the index into `unique` of its top
            std::vector<int> back(unique.size(), -1);
            for (int u = 0; u < int(unique.size()); ++u) {
                const auto pile = std::lower_bound(tops.begin(), tops.end(), unique[size_t(u)].second,
                    [&](int top, int bpos) { return unique[size_t(top)].second < bpos; });
                if (pile != tops.begin())
                    back[size_t(u)] = *(pile - 1);
                if (pile == tops.end())
                    tops.push_back(u);
                else
                    *pile = u;
            }
            Matches anchors;
            for (int u = tops.back(); u >= 0; u = back[size_t(u)])
                anchors.push_back(unique[size_t(u)]);
            std::reverse(anchors.begin(), anchors.end());
            int pa = a0, pb = b0;
            for (const auto& [ai, bi] : anchors) {
                patience(a, b, pa, ai, pb, bi, out);
                out.push_back({ ai, bi });
                pa = ai + 1;
                pb = bi + 1;
            }
            patience(a, b, pa, a1, pb, b1, out);
        } else if (qint64(a1 - a0) * qint64(b1 - b0) <= lcsCells) {
            lcs(a, b, a0, a1, b0, b1, out);
        }
    }
    out.insert(out.end(), tail.rbegin(), tail.rend());
}

// What differs between two steps aligned: the same name (or role) by then, so a strong key that differs is the
// arguments (or text) that do.
QStringList differences(const RunStep& x, const RunStep& y)
{
    QStringList fields;
    if (x.kind == RunStep::Kind::Message) {
        if (x.strong != y.strong)
            fields << QStringLiteral("text");
        return fields;
    }
    if (x.strong != y.strong)
        fields << QStringLiteral("arguments");
    if (x.resultDigest != y.resultDigest)
        fields << QStringLiteral("result");
    if (x.outcome != y.outcome)
        fields << QStringLiteral("outcome");
    return fields;
}

} // namespace

namespace RunAlignment {

StepPairs align(const RunStepList& a, const RunStepList& b)
{
    Keys strongA, strongB, weakA, weakB;
    for (const RunStep& s : a) {
        strongA.push_back(s.strong);
        weakA.push_back(s.weak);
    }
    for (const RunStep& s : b) {
        strongB.push_back(s.strong);
        weakB.push_back(s.weak);
    }
    Matches same;
    patience(strongA, strongB, 0, int(a.size()), 0, int(b.size()), same);
    // Between the same steps, the same steps changed: by name (a call) or role (a message).
    Matches all;
    int pa = 0, pb = 0;
    const auto between = [&](int ai, int bi) {
        if (pa < ai && pb < bi)
            patience(weakA, weakB, pa, ai, pb, bi, all);
    };
    for (const auto& [ai, bi] : same) {
        between(ai, bi);
        all.push_back({ ai, bi });
        pa = ai + 1;
        pb = bi + 1;
    }
    between(int(a.size()), int(b.size()));

    StepPairs out;
    out.reserve(qsizetype(std::max(a.size(), b.size())));
    int ia = 0, ib = 0;
    const auto alone = [&](int ai, int bi) {
        for (; ia < ai; ++ia)
            out.append({ ia, std::nullopt, StepPair::Change::OnlyA, {} });
        for (; ib < bi; ++ib)
            out.append({ std::nullopt, ib, StepPair::Change::OnlyB, {} });
    };
    for (const auto& [ai, bi] : all) {
        alone(ai, bi);
        const QStringList fields = differences(a.at(ai), b.at(bi));
        out.append({ ai, bi, fields.isEmpty() ? StepPair::Change::Same : StepPair::Change::Changed, fields });
        ia = ai + 1;
        ib = bi + 1;
    }
    alone(int(a.size()), int(b.size()));
    return out;
}

} // namespace RunAlignment
