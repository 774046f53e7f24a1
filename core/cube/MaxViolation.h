#pragma once
// Choosing where to update under inexact search (Zhang, Huang, Zhao & McDonald 2013, sec. 2): over
// the gold tree's nodes, each with the violation v(n) = w.f(y'_n) - w.f(yhat_n) between the Viterbi
// subtree y'_n (the best item of n's beam) and the gold subtree yhat_n,
//   s-max: the single node with the largest violation over all gold nodes;
//   p-max: the max-violation frontier ft(root), with
//          ft(n) = {n}                         if n = maxv(n)
//                  U_{n_i in children(n)} ft(n_i)  otherwise,
//          maxv(n) = the node with the largest violation in the subtree rooted at n.
// Reading of the garbled extraction (docs/cube.md): "absolute maximum violation" is the largest
// signed v (not |v|), which makes the paper's "the violation is >= 0 because the leaves have 0"
// true. Ties: at equal violation a node whose subtrees differ beats one whose subtrees agree (a tie
// between two different subtrees is a violation worth fixing; agreeing subtrees have nothing to
// fix), then maxv(n) prefers n itself over its descendants (the larger subtree fixes more at
// once), then the earlier child. Generic over any tree of nodes, so tests hold it on hand-built
// hypergraphs (the paper's Figure 1).
#include <vector>

namespace prunescope {

struct ViolationNode {
    std::vector<int> children; // indices into the node vector, left to right
    double violation = 0;      // v(n); leaves (whose subtrees cannot differ) have 0
    bool differs = false;      // y'_n != yhat_n (agreeing subtrees: nothing to update there)
};

// maxv(n) for every node reachable from root (-1 for the others); children must not form cycles.
std::vector<int> maxViolationNodes(const std::vector<ViolationNode>& nodes, int root);
// s-max: maxv(root).
int singleMaxViolation(const std::vector<ViolationNode>& nodes, int root);
// p-max: ft(root), left to right. Non-overlapping; covers every leaf under root exactly once.
std::vector<int> maxViolationFrontier(const std::vector<ViolationNode>& nodes, int root);

} // namespace prunescope
