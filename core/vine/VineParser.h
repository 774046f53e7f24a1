#pragma once
// The vine parser (Eisner & Smith 2005) as a Hypergraph builder, the first pass of the vine-pruning
// cascade (Rush & Petrov 2012, sec. 3 "Vine parsing" and the outer arcs of its Figure 2).
//
// A vine parse gives every token m exactly one "vine head" part, each with its own score and label:
//   - an arc h -> m of length <= band b (label arcLabel(n, h, m)), h >= 1,
//   - the root arc 0 -> m, at any distance (label arcLabel(n, 0, m)),
//   - an outer arc LEFT -> m: m's head lies more than b to its left (needs m - b - 1 >= 1),
//   - an outer arc RIGHT -> m: m's head lies more than b to its right (needs m + b + 1 <= n);
// with singleRoot exactly one token takes the root arc, otherwise at least one. In addition every
// token h (h >= 1) independently takes or not, per side, the outer-head part "h has a modifier
// more than b away on that side" (h -> RIGHT needs h + b + 1 <= n, h -> LEFT needs h - b - 1 >= 1;
// not taking it scores 0 and has no label). Rush & Petrov's outer arcs are of both kinds (their
// Figure 2: "LEFT -> m" and "h -> RIGHT"); the pruner (CascadeStage) keeps a long arc h -> m only
// when m's outer arc on h's side AND h's outer-head part on m's side both survive. The two kinds
// are not coupled (a parse may take LEFT -> m with no h -> RIGHT): a relaxation, so max-marginals
// stay exact in O(n b) and every tree's projection is still a parse.
// Departure from Eisner & Smith's vine grammar (documented in docs/results.md): no projective-tree
// constraint among the short arcs. Our first version required each vine child's subtree to lie
// within b of it (all chart items of width <= b), which is linear but excludes most gold trees
// (a chain of short arcs reaches past b), so gold arcs were pruned at every alpha. The
// tree-constrained vine that keeps wide chains is VineTreeParser.h (VineStructure::Tree, vine-train
// --vine-structure tree); on the sample's dev split it prunes no better (docs/results.md). Without
// the tree constraint every tree's vine projection is a vine parse, so the structured cascade's
// guarantee (a gold part's max-marginal >= the gold score) holds. Size: O(n b) nodes and edges
// (linear in n). Labels: arcLabel(n, h, m) for the arcs, then vineOuterLabel(n, m, side) for the
// outer arcs, then vineOuterHeadLabel(n, h, side). Max-marginals: the generic max-plus
// inside-outside (core/dep/Hypergraph.h); contract: equal to the best vine parse containing the
// part by brute force (tests/vine/test_vine_parser.cpp).
//
// A tree's "vine projection" (its parts in the vine's vocabulary: arcs of length <= b and root
// arcs as themselves, a longer arc h -> m as the outer arc of m on h's side plus the outer-head
// part of h on m's side, once per head and side) is what the cascade trainer scores as gold
// (vineProjection); it is always a vine parse.
#include "core/dep/ArcMask.h"
#include "core/dep/Eisner.h"
#include "core/dep/EisnerHypergraph.h"
#include "core/dep/Hypergraph.h"

#include <string>
#include <vector>

namespace prunescope {

enum class VineSide {
    Left = 0,
    Right = 1
}; // where the far head (outer arc) or far modifier (outer head) lies

// Which vine the first pass parses: this file's per-token vine (every token picks one vine-head
// part, no tree constraint; linear in n), or the tree-constrained vine of VineTreeParser.h (a
// projective tree of short arcs and vine arcs; O(n^2 b)). The parts, labels and features are the
// same.
enum class VineStructure { PerToken = 0, Tree = 1 };
inline const char* vineStructureName(VineStructure s) {
    return s == VineStructure::Tree ? "tree" : "token";
}
// "token" | "tree"; false for anything else.
inline bool vineStructureFromName(const std::string& name, VineStructure& out) {
    if (name == "token")
        out = VineStructure::PerToken;
    else if (name == "tree")
        out = VineStructure::Tree;
    else
        return false;
    return true;
}

inline int vineOuterLabel(int n, int m, VineSide side) {
    return (n + 1) * (n + 1) + 2 * m + static_cast<int>(side);
}
inline int vineOuterHeadLabel(int n, int h, VineSide side) {
    return (n + 1) * (n + 1) + 2 * (n + 1) + 2 * h + static_cast<int>(side);
}
inline int vineLabelCount(int n) {
    return (n + 1) * (n + 1) + 4 * (n + 1);
}
// Whether arc h -> m is inside the band (or a root arc): a part of the vine itself.
inline bool vineShortArc(int band, int h, int m) {
    return h == 0 || (h > m ? h - m : m - h) <= band;
}
inline bool vineOuterExists(int n, int band, int m, VineSide side) {
    return side == VineSide::Left ? m - band - 1 >= 1 : m + band + 1 <= n;
}
// The same positions admit an outer-head part: a modifier more than band away on that side.
inline bool vineOuterHeadExists(int n, int band, int h, VineSide side) {
    return h >= 1 && vineOuterExists(n, band, h, side);
}

// Scores of the vine's parts: arcs (only root arcs and arcs of length <= band are read; -inf =
// absent), outer arcs outer[2 * m + side] and outer-head parts outerHead[2 * h + side] (1..n; -inf
// = absent).
struct VineScores {
    int n = 0;
    int band = 3;
    ArcScores arcs;
    std::vector<float> outer;     // size 2 * (n + 1)
    std::vector<float> outerHead; // size 2 * (n + 1)
    float outerScore(int m, VineSide side) const {
        return outer[static_cast<std::size_t>(2 * m + static_cast<int>(side))];
    }
    float outerHeadScore(int h, VineSide side) const {
        return outerHead[static_cast<std::size_t>(2 * h + static_cast<int>(side))];
    }
};

Hypergraph buildVineHypergraph(const VineScores& scores, bool singleRoot);
// Token h's outer-head parts after `node` (the newest node; -1 = unbuildable, returned as is): per
// side a new node reached by two edges, "not taken" (unlabeled, score 0) and "taken" (its label and
// score). Returns the last node. Shared by both vines.
int appendVineOuterHeadChoices(Hypergraph& g, const VineScores& scores, int h, int node);
// Throws std::invalid_argument unless n >= 1, band >= 1 and the score arrays have n's sizes.
void checkVineScores(const VineScores& scores);

// The vine projection of heads (size n + 1, heads[0] = -1): one label per token (in token order),
// then the outer-head labels (by head, left before right).
std::vector<int> vineProjection(int n, int band, const std::vector<int>& heads);

} // namespace prunescope
