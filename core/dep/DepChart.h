#pragma once
// The dependency chart (Eisner 1996/2000; second order: McDonald & Pereira 2006, sec. 3.2), the
// dependency sibling of the CKY Chart: values and witnesses as flat arrays with documented meaning,
// shared by the Eisner parsers, the hypergraph builders (max-marginals) and the explorer.
//
// Positions 0..n (0 = root), N = n + 1. Every array is N x N, indexed [s * N + t]:
//   complete[s,t]   C(s,t): head s with all its descendants between s and t on t's side, finished
//                   (s < t: right-facing, s > t: left-facing); C(s,s) = 0.
//   incomplete[s,t] I(s,t): the arc s -> t (t a modifier of s) with everything strictly between s
//   and
//                   t attached; includes the arc's score (and, second order, its sibling score).
//   sibling[a,b]    S(a,b), a < b, second order only: C(a,r) + C(b,r+1) for the best split r, two
//                   adjacent modifiers' facing halves (direction-free, shared by both sides).
// Scores are floats (log-linear model scores); -inf means "not built" (a pruned arc, or no
// derivation under the mask). Witnesses (int32, -1 = none):
//   complete  : the modifier m of the last arc: C(s,t) = I(s,m) + C(m,t)
//   incomplete: first order: the split r, I(s,t) = C(min,r) + C(max,r+1) + arc;
//               second order: the previous sibling q (q == s: t is s's closest modifier on that
//               side, I(s,t) = C(t, s±1) + ...; otherwise I(s,t) = I(s,q) + S(q,t) + ...)
//   sibling   : the split r.
// Ties: among equal candidates the smallest split r / modifier m / sibling q wins (strict '>' over
// increasing indices), in every algorithm over this chart.
#include <cstdint>
#include <limits>
#include <vector>

namespace prunescope {

constexpr float kDepNegInf = -std::numeric_limits<float>::infinity();
constexpr int kMaxDepSentenceLength = 4095;

// The best split r in [a, b) of C(a, r) + C(b, r + 1), given the two complete rows (rowA[r] =
// C(a, r), rowB[r] = C(b, r)); each candidate with both halves built counts one push. Score -inf
// and r = -1 if none; ties keep the smallest r. The sibling item of second order, S(a, b), and of
// third order, S^h(a, b), are this over their own charts.
struct SplitBest {
    float score = kDepNegInf;
    int r = -1;
};
inline SplitBest bestSiblingSplit(const float* rowA, const float* rowB, int a, int b,
                                  long& pushes) {
    SplitBest out;
    for (int r = a; r < b; ++r) {
        const float x = rowA[r], y = rowB[r + 1];
        if (x == kDepNegInf || y == kDepNegInf) continue;
        ++pushes;
        const float v = x + y;
        if (v > out.score) {
            out.score = v;
            out.r = r;
        }
    }
    return out;
}

struct DepChart {
    int n = 0;
    int order = 1;
    std::vector<float> complete, incomplete, sibling;
    std::vector<std::int32_t> completeW, incompleteW, siblingW;
    float rootScore = kDepNegInf; // best tree's score (= C(0, n)), -inf if no tree under the mask

    int N() const { return n + 1; }
    std::size_t at(int s, int t) const {
        return static_cast<std::size_t>(s) * static_cast<std::size_t>(n + 1) +
               static_cast<std::size_t>(t);
    }
    float C(int s, int t) const { return complete[at(s, t)]; }
    float I(int s, int t) const { return incomplete[at(s, t)]; }
    bool parsed() const { return rootScore != kDepNegInf; }
    // Sizes for a sentence (reusing capacity) and clears every value to -inf (C(s,s) = 0).
    void reset(int n, int order);
    // Bytes a chart of this length and order holds (the memory figure of docs/benchmarks.md).
    static std::size_t bytesFor(int n, int order);
    std::size_t memoryBytes() const { return bytesFor(n, order); }
};

} // namespace prunescope
