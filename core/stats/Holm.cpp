// Holm (1979) step-down adjusted p-values.
#include "core/stats/Holm.h"

#include <algorithm>
#include <cstddef>
#include <numeric>

namespace prunescope {

std::vector<double> holmAdjust(const std::vector<double>& p) {
    const std::size_t m = p.size();
    std::vector<std::size_t> order(m);
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t x, std::size_t y) { return p[x] < p[y]; });
    std::vector<double> out(m);
    double running = 0;
    for (std::size_t i = 0; i < m; ++i) {
        running = std::max(running, std::min(1.0, static_cast<double>(m - i) * p[order[i]]));
        out[order[i]] = running;
    }
    return out;
}

} // namespace prunescope
