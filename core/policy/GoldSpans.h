#pragma once
// Gold spans: the spans of the binarized gold tree (every node, including the '@'
// intermediate nodes of binarization), the supervision of the asymmetric-weighting
// baseline (paper sec. 3) and the "gold vs non-gold" split of the regret analysis (sec. 7.3).
#include "core/parse/PruningMask.h"
#include "core/treebank/Tree.h"

#include <utility>
#include <vector>

namespace prunescope {

// Distinct prunable spans (1 < k-i < n) of a tree, sorted.
std::vector<std::pair<int, int>> prunableSpans(const Tree& t);
// A mask that keeps exactly the prunable spans of t (plus the always-kept ones).
PruningMask spanMask(const Tree& t);
// n x n lookup: isGold[i*(n+1)+k] for the prunable spans of t.
std::vector<std::uint8_t> spanIndicator(const Tree& t);

} // namespace prunescope
