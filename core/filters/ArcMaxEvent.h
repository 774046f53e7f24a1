#pragma once
// f(Z_a) = max_{z in Z_a} w-bar.Phi(z) for every arc of a sentence in O(n^2) (Cherry & Bergsma
// 2011, eq. 1): role events by their filtering rule, Root over the spanned tokens by running
// maxima, Root for the root arcs by the two best Root scores. Shared by the filter (float scores)
// and the joint trainer (double scores). Contract: equals the max over filteringEvents()
// (FilterEvents.h); tests/filters hold it to that.
#include "core/filters/FilterEvents.h"

#include <limits>
#include <vector>

namespace prunescope {

// role(r, t) -> score of role event r of token t; vine(h, m) -> score of Vine_a;
// visit(h, m, best, argmax) for every arc (best = -inf if Z_a is empty).
template <typename S, typename RoleFn, typename VineFn, typename Visit>
void forEachArcMaxEvent(int n, bool useRoot, bool useVine, const RoleFn& role, const VineFn& vine,
                        Visit&& visit) {
    constexpr S kNeg = -std::numeric_limits<S>::infinity();
    auto consider = [](S& best, FilterEvent& arg, S v, const FilterEvent& z) {
        if (v > best) {
            best = v;
            arg = z;
        }
    };
    int r1 = -1, r2 = -1; // the two best Root tokens
    if (useRoot)
        for (int t = 1; t <= n; ++t) {
            const S v = role(FilterEventKind::Root, t);
            if (r1 < 0 || v > role(FilterEventKind::Root, r1)) {
                r2 = r1;
                r1 = t;
            } else if (r2 < 0 || v > role(FilterEventKind::Root, r2))
                r2 = t;
        }
    std::vector<S> spanMax(static_cast<std::size_t>(n + 1),
                           kNeg); // per m: max Root strictly between h and m
    std::vector<int> spanArg(static_cast<std::size_t>(n + 1), -1);
    for (int h = 0; h <= n; ++h) {
        if (useRoot && h > 0) {
            for (int dir = -1; dir <= 1; dir += 2) {
                S run = kNeg;
                int arg = -1;
                for (int m = h + dir; m >= 1 && m <= n; m += dir) {
                    spanMax[static_cast<std::size_t>(m)] = run;
                    spanArg[static_cast<std::size_t>(m)] = arg;
                    const S v = role(FilterEventKind::Root, m);
                    if (v > run) {
                        run = v;
                        arg = m;
                    }
                }
            }
        }
        for (int m = 1; m <= n; ++m) {
            if (m == h) continue;
            S best = kNeg;
            FilterEvent arg{};
            if (h > 0)
                consider(best, arg, role(FilterEventKind::NaH, h),
                         {FilterEventKind::NaH, h, -1, -1});
            for (int r = static_cast<int>(FilterEventKind::HtL1);
                 r <= static_cast<int>(FilterEventKind::HtRStar); ++r) {
                const auto kind = static_cast<FilterEventKind>(r);
                if (roleFilters(kind, m, h, m))
                    consider(best, arg, role(kind, m), {kind, m, -1, -1});
            }
            if (useRoot) {
                if (h == 0) {
                    const int t = r1 != m ? r1 : r2;
                    if (t > 0)
                        consider(best, arg, role(FilterEventKind::Root, t),
                                 {FilterEventKind::Root, t, -1, -1});
                } else {
                    consider(best, arg, role(FilterEventKind::Root, m),
                             {FilterEventKind::Root, m, -1, -1});
                    const int t = spanArg[static_cast<std::size_t>(m)];
                    if (t > 0)
                        consider(best, arg, spanMax[static_cast<std::size_t>(m)],
                                 {FilterEventKind::Root, t, -1, -1});
                }
            }
            if (useVine) consider(best, arg, vine(h, m), {FilterEventKind::Vine, -1, h, m});
            visit(h, m, best, arg);
        }
    }
}

} // namespace prunescope
