#pragma once
// The truth of every token role in a gold tree (Cherry & Bergsma 2011, sec. 2; Bergsma & Cherry
// 2010): the labels of the independent token-role classifiers, and of Figure 1's "(T)/(F)".
#include "core/filters/FilterEvents.h"

#include <array>
#include <vector>

namespace prunescope {

struct TokenRoleEvents {
    int n = 0;
    // truth[t][r]: role r of token t holds in the tree (t in [1, n]; row 0 unused).
    std::vector<std::array<bool, kTokenRoleCount>> truth;
    bool holds(FilterEventKind role, int t) const {
        return truth[static_cast<std::size_t>(t)][static_cast<std::size_t>(role)];
    }
};

// heads: size n + 1, heads[0] = -1, a tree. A role holds iff detecting it filters no gold arc.
TokenRoleEvents tokenRoleEvents(const std::vector<int>& heads);

} // namespace prunescope
