// Min, median and max of a sample.
#include "core/util/Spread.h"

#include <algorithm>

namespace prunescope {

Spread spreadOf(std::vector<double> v) {
    if (v.empty()) return {};
    std::sort(v.begin(), v.end());
    const std::size_t h = v.size() / 2;
    return {v.front(), v.size() % 2 ? v[h] : 0.5 * (v[h - 1] + v[h]), v.back()};
}

nlohmann::json spreadJson(const Spread& s) {
    return {{"min", s.min}, {"median", s.median}, {"max", s.max}};
}

} // namespace prunescope
