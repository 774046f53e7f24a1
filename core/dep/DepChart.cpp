// The dependency chart.
#include "core/dep/DepChart.h"

#include <algorithm>

namespace prunescope {

void DepChart::reset(int len, int ord) {
    n = len;
    order = ord;
    const std::size_t cells = static_cast<std::size_t>(n + 1) * static_cast<std::size_t>(n + 1);
    complete.assign(cells, kDepNegInf);
    incomplete.assign(cells, kDepNegInf);
    completeW.assign(cells, -1);
    incompleteW.assign(cells, -1);
    if (order >= 2) {
        sibling.assign(cells, kDepNegInf);
        siblingW.assign(cells, -1);
    } else {
        sibling.clear();
        siblingW.clear();
    }
    for (int s = 0; s <= n; ++s)
        complete[at(s, s)] = 0.0f;
    rootScore = kDepNegInf;
}

std::size_t DepChart::bytesFor(int len, int ord) {
    const std::size_t cells = static_cast<std::size_t>(len + 1) * static_cast<std::size_t>(len + 1);
    const std::size_t perCell = 2 * (sizeof(float) + sizeof(std::int32_t));
    return cells * (perCell + (ord >= 2 ? sizeof(float) + sizeof(std::int32_t) : 0));
}

} // namespace prunescope
