#pragma once
// The first-order Eisner chart under an arc mask as an explicit Hypergraph, for max-marginals of
// every arc (the first-order pass of the vine cascade, Rush & Petrov 2012; the explorer's colours).
// Nodes and edges mirror EisnerParser::parse(scores, mask) exactly (same items, same
// single-root rule), so the Viterbi derivation is Eisner's tree and edgesVisited = its pushes.
// Label of the edges building I(h, m): the arc id h * (n + 1) + m.
#include "core/dep/ArcMask.h"
#include "core/dep/Eisner.h"
#include "core/dep/Hypergraph.h"

#include <vector>

namespace prunescope {

inline int arcLabel(int n, int h, int m) {
    return h * (n + 1) + m;
}

// The single-root rule of EisnerParser's items, shared by the hypergraph and
// EisnerMaxMarginalSolver: the last split r of I(h, m) over the span [s, t] (the root's only
// modifier: r = 0 when s = 0),
inline int eisnerLastSplit(int s, int t, bool singleRoot) {
    return (s == 0 && singleRoot) ? 0 : t - 1;
}
// and whether the rightward complete item C(s, t) exists (C(0, t) only for t = n).
inline bool eisnerRightComplete(int s, int t, int n, bool singleRoot) {
    return !(s == 0 && singleRoot && t != n);
}

// The complete items of span (s, t) over a chart's node tables ([a * (n + 1) + b] -> node, -1 =
// not built): C(s, t) = I(s, m) + C(m, t) (if eisnerRightComplete) and, for s > 0, C(t, s) =
// I(t, m) + C(m, s), smallest m first; shared by the first- and second-order chart hypergraphs.
void addEisnerCompleteNodes(Hypergraph& g, int n, int s, int t, bool singleRoot,
                            const std::vector<int>& incompleteNode, std::vector<int>& completeNode);

struct EisnerHypergraph {
    int n = 0;
    Hypergraph graph;
    std::vector<int> completeNode, incompleteNode; // [s * (n + 1) + t] -> node id, -1 if not built
};

EisnerHypergraph buildEisnerHypergraph(const ArcScores& scores, const ArcMask* mask,
                                       bool singleRoot);

// Max-marginal of every arc as an (n + 1) x (n + 1) matrix (row = head); -inf for arcs that no
// tree under the mask uses. Equal to the best tree containing the arc by brute force (tests).
struct ArcMaxMarginals {
    int n = 0;
    double best = kHyperNegInf; // the best tree's score
    std::vector<double> value;  // [h * (n + 1) + m]
    double operator()(int h, int m) const {
        return value[static_cast<std::size_t>(h) * static_cast<std::size_t>(n + 1) +
                     static_cast<std::size_t>(m)];
    }
    long pushes = 0;
};
// By EisnerMaxMarginalSolver (EisnerMaxMarginals.h): the same doubles as the generic route below.
ArcMaxMarginals arcMaxMarginals(const ArcScores& scores, const ArcMask* mask, bool singleRoot);
// The generic route, the reference: buildEisnerHypergraph, then maxMarginals (Hypergraph.h).
ArcMaxMarginals arcMaxMarginalsByHypergraph(const ArcScores& scores, const ArcMask* mask,
                                            bool singleRoot);

} // namespace prunescope
