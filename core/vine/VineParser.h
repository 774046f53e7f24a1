#pragma once
// The vine parser (Eisner & Smith 2005) as a Hypergraph builder, the first pass of the vine-pruning
// cascade (Rush & Petrov 2012, sec. 3 "Vine parsing" and the outer arcs of its Figure 2).
//
// A vine parse covers tokens 1..n with consecutive spans, one per "vine child" v; v heads a
// projective subtree of its span whose tokens all lie within `band` b of v (so every item of the
// chart has width <= b and every arc inside has length <= b). Each vine child attaches to the
// vine in one of three ways, each a part with its own score and label:
//   - the root arc 0 -> v (label arcLabel(n, 0, v)),
//   - an outer arc LEFT -> v: v's head lies more than b to its left (needs v - b - 1 >= 1),
//   - an outer arc RIGHT -> v: v's head lies more than b to its right (needs v + b + 1 <= n).
// With singleRoot exactly one vine child takes the root arc, otherwise at least one.
// Size: O(n b^2) edges (linear in n for a fixed band). Labels: arcLabel(n, h, m) for the arcs, then
// vineOuterLabel(n, m, side) for the outer arcs. Max-marginals: the generic max-plus
// inside-outside (core/dep/Hypergraph.h); contract: equal to the best vine parse containing the
// part by brute force (tests/vine/test_vine_parser.cpp, every parse of <= 7 words).
//
// A tree's "vine projection" (its parts in the vine's vocabulary: arcs of length <= b and root
// arcs as themselves, a longer arc h -> m as the outer arc of m on h's side) is what the cascade
// trainer scores as gold (vineProjection); it need not be a vine parse.
#include "core/dep/ArcMask.h"
#include "core/dep/Eisner.h"
#include "core/dep/EisnerHypergraph.h"
#include "core/dep/Hypergraph.h"

#include <vector>

namespace prunescope {

enum class VineSide { Left = 0, Right = 1 };  // where the far head lies

inline int vineOuterLabel(int n, int m, VineSide side) { return (n + 1) * (n + 1) + 2 * m + static_cast<int>(side); }
inline int vineLabelCount(int n) { return (n + 1) * (n + 1) + 2 * (n + 1); }
// Whether arc h -> m is inside the band (or a root arc): a part of the vine itself.
inline bool vineShortArc(int band, int h, int m) { return h == 0 || (h > m ? h - m : m - h) <= band; }
inline bool vineOuterExists(int n, int band, int m, VineSide side) {
    return side == VineSide::Left ? m - band - 1 >= 1 : m + band + 1 <= n;
}

// Scores of the vine's parts: arcs (only root arcs and arcs of length <= band are read; -inf =
// absent) and outer arcs outer[2 * m + side] (m in 1..n).
struct VineScores {
    int n = 0;
    int band = 3;
    ArcScores arcs;
    std::vector<float> outer;  // size 2 * (n + 1)
    float outerScore(int m, VineSide side) const { return outer[static_cast<std::size_t>(2 * m + static_cast<int>(side))]; }
};

Hypergraph buildVineHypergraph(const VineScores& scores, bool singleRoot);

// The vine projection of heads (size n + 1, heads[0] = -1): one label per token.
std::vector<int> vineProjection(int n, int band, const std::vector<int>& heads);

} // namespace prunescope
