#pragma once
// The λ-choice of a frontier computed directly, as the frontier views' tests check it against
// (independent of core/frontier's bestForLambda).
#include "core/frontier/Frontier.h"

#include <cstddef>
#include <vector>

namespace prunescope::testdata {

// argmax accuracy - lambda * runtime, ties to the lower runtime, then the lower index; -1 if empty.
inline int directBest(const std::vector<FrontierPoint>& pts, double lambda) {
    int best = -1;
    for (int i = 0; i < static_cast<int>(pts.size()); ++i) {
        if (best < 0) {
            best = i;
            continue;
        }
        const auto& a = pts[static_cast<std::size_t>(i)];
        const auto& b = pts[static_cast<std::size_t>(best)];
        const double ra = a.accuracy - lambda * a.runtime, rb = b.accuracy - lambda * b.runtime;
        if (ra > rb || (ra == rb && a.runtime < b.runtime)) best = i;
    }
    return best;
}

} // namespace prunescope::testdata
