// Token-role truth values of a gold tree (Cherry & Bergsma 2011, sec. 2).
#include "core/filters/TokenRoleEvents.h"

namespace prunescope {

TokenRoleEvents tokenRoleEvents(const std::vector<int>& heads) {
    TokenRoleEvents e;
    e.n = static_cast<int>(heads.size()) - 1;
    e.truth.assign(heads.size(), {});
    for (int t = 1; t <= e.n; ++t)
        for (int r = 0; r < kTokenRoleCount; ++r) {
            bool ok = true; // the role holds iff it filters none of the gold arcs
            for (int m = 1; m <= e.n && ok; ++m)
                if (roleFilters(static_cast<FilterEventKind>(r), t,
                                heads[static_cast<std::size_t>(m)], m))
                    ok = false;
            e.truth[static_cast<std::size_t>(t)][static_cast<std::size_t>(r)] = ok;
        }
    return e;
}

} // namespace prunescope
