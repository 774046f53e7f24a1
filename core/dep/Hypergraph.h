#pragma once
// A weighted hypergraph with labeled edges and max-plus (Viterbi) inside-outside over it: the
// generic algorithm behind every max-marginal in the dependency mode (Rush & Petrov 2012: "can
// compute using inside-outside ... generic algorithm using hypergraph parsing"). Builders turn a
// dynamic program into one: the Eisner chart under a mask (EisnerHypergraph.h), the vine parser
// (core/vine/VineParser.h).
//
// Layout (flat arrays): nodes are 0..numNodes-1 in topological order (every tail < its head);
// edges are stored grouped by head in increasing head order (addEdge enforces it), tails in CSR
// form. An edge with no tails is an axiom. A node without incoming edges is unbuildable
// (inside = -inf). A label names what an edge "is" (an arc, an outer arc); several edges may carry
// one label, and a label's max-marginal is the best over them.
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <span>
#include <vector>

namespace prunescope {

constexpr double kHyperNegInf = -std::numeric_limits<double>::infinity();

struct Hypergraph {
    int numNodes = 0;
    int numLabels = 0;
    int goal = -1;
    std::vector<int> edgeHead;     // per edge
    std::vector<int> tailBegin{0}; // per edge + 1: tails[tailBegin[e], tailBegin[e + 1])
    std::vector<int> tails;
    std::vector<float> edgeWeight; // per edge
    std::vector<int> edgeLabel;    // per edge, -1 = none
    std::vector<int> firstEdge{0}; // per node + 1: incoming edges [firstEdge[v], firstEdge[v + 1])

    int numEdges() const { return static_cast<int>(edgeHead.size()); }
    int addNode();
    // Adds an edge into `head`, which must be the newest node (edges arrive grouped by head in
    // topological order); every tail must be < head. Returns the edge index.
    int addEdge(int head, std::span<const int> tailNodes, float weight, int label = -1);
    int addEdge(int head, std::initializer_list<int> tailNodes, float weight, int label = -1) {
        return addEdge(head, std::span<const int>(tailNodes.begin(), tailNodes.size()), weight,
                       label);
    }
    std::span<const int> tailsOf(int e) const {
        return {tails.data() + tailBegin[static_cast<std::size_t>(e)],
                static_cast<std::size_t>(tailBegin[static_cast<std::size_t>(e) + 1] -
                                         tailBegin[static_cast<std::size_t>(e)])};
    }
};

struct MaxMarginals {
    std::vector<double> inside, outside; // per node (max-plus); -inf = none
    std::vector<int> insideEdge; // per node: the best incoming edge (smallest index among ties), -1
    std::vector<int> outsideEdge; // per node: the edge through which its outside is best, -1
    double best = kHyperNegInf;   // inside[goal]: the best derivation's score
    std::vector<double> label;    // per label: max over its edges of edgeMarginal(e); -inf if none
    std::vector<int> labelEdge; // per label: the edge attaining it (smallest index among ties), -1
    long edgesVisited = 0;      // non-axiom edges whose tails are all built (pushes)
};

// inside, outside, and label max-marginals: mm(e) = outside[head] + w(e) + sum inside[tails],
// the score of the best derivation of the goal that uses e. Computed in double.
MaxMarginals maxMarginals(const Hypergraph& g);
double edgeMarginal(const Hypergraph& g, const MaxMarginals& mm, int e);

// The edges of the best derivation that uses edge e: e, the best inside derivations of its tails
// and the best outside derivation of its head (the witness of mm(e)); empty if mm(e) = -inf.
std::vector<int> witnessEdges(const Hypergraph& g, const MaxMarginals& mm, int e);

// count[k] = number of labels l (with a finite max-marginal) whose witness derivation
// (witnessEdges(labelEdge[l])) contains an edge labeled k, counted with multiplicity: the
// coefficients of (1/|L|) sum_l phi(witness_l), the mean max-marginal's subgradient of the
// structured cascade (Weiss & Taskar 2010). O(edges); equal to counting witnessEdges for every
// label (tests/dep/test_hypergraph.cpp).
std::vector<double> witnessLabelCounts(const Hypergraph& g, const MaxMarginals& mm);

} // namespace prunescope
