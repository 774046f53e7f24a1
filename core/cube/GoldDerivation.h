#pragma once
// The gold tree inside the cube-pruned chart (Zhang et al. 2013, sec. 2, Figure 1): its nodes are
// the cells of the gold derivation in Eisner's hypergraph; at each one, the gold subtree yhat_n
// (built with the same scoring as the search, so the scores are comparable bit for bit), the
// Viterbi subtree y'_n (the best item of the cell's beam, which need not lie on the final Viterbi
// tree), the gold item's rank in the beam or "fell off the beam", and the violation
// v(n) = score(y'_n) - score(yhat_n). Leaves C(h, h) have v = 0.
#include "core/cube/CubePruner.h"
#include "core/cube/MaxViolation.h"

#include <string>
#include <vector>

namespace prunescope {

struct GoldNode {
    CubeCell cell;
    int cellId = -1;
    int goldItem = -1;    // arena id of yhat_n (a beam item for leaves, else built by buildItem)
    int viterbiItem = -1; // arena id of y'_n = the beam's best item
    int rank = -1;        // the gold item's position in the beam; -1 = it fell off the beam
    double violation = 0; // score(y'_n) - score(yhat_n); exactly 0 when rank == 0
    int parent = -1;      // index of the parent node, -1 for the root
    std::vector<int> children; // indices of the child nodes (none for leaves), left to right

    bool leaf() const { return children.empty(); }
    bool correct() const { return rank == 0; } // y'_n == yhat_n
    bool fellOff() const { return rank < 0; }
};

struct GoldDerivation {
    std::vector<GoldNode> nodes; // children before parents; the root (C(0, n)) last
    std::string problem;         // why the gold tree is not in the hypergraph ("" = it is)

    bool reachable() const { return problem.empty(); }
    int root() const { return static_cast<int>(nodes.size()) - 1; }
    int fellOffCount() const;
    // The nodes as the generic max-violation input (MaxViolation.h).
    std::vector<ViolationNode> violationTree() const;
    // Index of the node of a cell, -1 if the cell is not on the gold derivation.
    int nodeOfCell(int cellId) const;
};

// Builds the gold derivation of `gold` (size n + 1, heads[0] = -1) in the chart the pruner's last
// parse() filled with this scorer, appending the gold items to its arena. If the tree cannot be
// derived (not projective, not single-rooted under singleRoot, an arc the mask prunes), returns no
// nodes and says why.
GoldDerivation goldDerivation(CubePruner& pruner, const CubeScorer& scorer,
                              const std::vector<int>& gold);

// The projective tree nearest to heads by lifting (Kahane et al. 1998; Zhang et al. 2013 sec. 3.3
// "flattening"): while an arc is non-projective, the shortest such arc's modifier is re-attached to
// its head's head. Projective trees come back unchanged.
std::vector<int> liftToProjective(std::vector<int> heads);

} // namespace prunescope
