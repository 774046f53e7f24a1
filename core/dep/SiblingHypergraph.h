#pragma once
// The second-order Eisner chart (siblings, McDonald & Pereira 2006 sec. 3.2) under an arc mask as
// an explicit Hypergraph, for the max-marginals of the vine cascade's second-order stage (Rush &
// Petrov 2012 sec. 5: vine -> first -> second -> third order). Nodes and edges mirror
// EisnerParser::parse(scores, siblings, mask): the same items, the same single-root rule, so the
// Viterbi derivation is second-order Eisner's tree (tests/dep/test_sibling_hypergraph.cpp).
//
// Labels are sibling parts (h, q, m) (q == h: m is h's closest modifier on its side), numbered in
// the order their edges are built; the edge building I(h, m) through q carries the arc's score plus
// the sibling part's. An arc's max-marginal is the best over its sibling parts' (arcValue).
#include "core/dep/ArcMask.h"
#include "core/dep/Eisner.h"
#include "core/dep/Hypergraph.h"

#include <array>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace prunescope {

struct SiblingHypergraph {
    int n = 0;
    Hypergraph graph;
    std::vector<std::array<int, 3>> parts;           // label -> (h, q, m)
    std::unordered_map<std::int64_t, int> partLabel; // siblingPartKey(n, h, q, m) -> label

    // The label of a part, added (without edges) if the graph has none: a gold part the mask
    // prunes still has features.
    int labelOf(int h, int q, int m);
};

inline std::int64_t siblingPartKey(int n, int h, int q, int m) {
    const std::int64_t N = n + 1;
    return (static_cast<std::int64_t>(h) * N + q) * N + m;
}

SiblingHypergraph buildSiblingHypergraph(const ArcScores& scores, const SiblingScorer& siblings,
                                         const ArcMask* mask, bool singleRoot);

// Per arc, the best max-marginal over its sibling parts ([h * (n + 1) + m], -inf if none), from
// label max-marginals of the graph.
std::vector<double> siblingArcMaxMarginals(const SiblingHypergraph& sh,
                                           const std::vector<double>& labelValue);

} // namespace prunescope
