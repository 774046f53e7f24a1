#pragma once
// The naive reference the Eisner parsers, the hypergraph max-marginals and the cascades are held
// to: every projective tree under a mask, enumerated (only for tiny sentences, n <= 10).
#include "core/dep/ArcMask.h"

#include <functional>
#include <vector>

namespace prunescope {

// Calls fn(heads) for every projective tree (heads size n + 1, heads[0] = -1) whose arcs the mask
// keeps (nullptr = all arcs), with exactly one root modifier if singleRoot. Throws
// std::invalid_argument for n > 10.
void forEachProjectiveTree(int n, const ArcMask* mask, bool singleRoot,
                           const std::function<void(const std::vector<int>&)>& fn);

} // namespace prunescope
