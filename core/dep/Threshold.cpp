// t_alpha = alpha * max + (1 - alpha) * mean (Rush & Petrov 2012 sec. 4).
#include "core/dep/Threshold.h"

#include <algorithm>
#include <cmath>

namespace prunescope {

CascadeThreshold cascadeThreshold(std::span<const double> mm, double alpha) {
    CascadeThreshold t;
    double sum = 0;
    for (double v : mm) {
        if (!std::isfinite(v)) continue;
        sum += v;
        t.max = std::max(t.max, v);
        ++t.parts;
    }
    if (t.parts == 0) return t;
    t.mean = sum / static_cast<double>(t.parts);
    if (alpha == -std::numeric_limits<double>::infinity())
        t.value = -std::numeric_limits<double>::infinity();
    else
        t.value = alpha * t.max + (1.0 - alpha) * t.mean;
    return t;
}

} // namespace prunescope
