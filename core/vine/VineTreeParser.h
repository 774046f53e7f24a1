#pragma once
// The tree-constrained vine parser (Eisner & Smith 2005's vine grammar with Rush & Petrov 2012's
// outer parts, sec. 3) as a Hypergraph builder: an alternative first pass to VineParser.h's
// per-token vine, with the same parts, labels and scores (VineScores).
//
// A parse is a projective dependency tree over 0..n whose arcs are either short (h >= 1, |h - m| <=
// b) or "vine arcs" from 0: the root arc 0 -> m, or an outer arc LEFT -> m / RIGHT -> m (m's head
// lies more than b away on that side; needs such a position). The root may have any number of vine
// children; with singleRoot exactly one of them takes the root arc, otherwise at least one. Every
// token h also takes or not, per side, its outer-head part, independently of the tree (as in
// VineParser.h). A projective tree's vine projection (vineProjection) is always such a parse: a
// long arc h -> m of a projective tree has no short arc over m (it would cross h -> m), so m's
// subtree without its long arcs is a block the vine can take; tests/vine/test_vine_tree.cpp
// checks it and the max-marginals against brute force.
// Size: O(n^2) complete items built by O(b) splits each, plus the vine's O(n^2): O(n^2 b) edges.
#include "core/vine/VineParser.h"

namespace prunescope {

Hypergraph buildVineTreeHypergraph(const VineScores& scores, bool singleRoot);

} // namespace prunescope
