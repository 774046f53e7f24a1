#pragma once
// The four perceptron update strategies of Zhang, Huang, Zhao & McDonald 2013 (sec. 2, sec. 3.2)
// for one training sentence, given the gold derivation in the cube-pruned chart:
//   standard: update at the root, y'(root) vs yhat — even when it is not a violation (an "invalid"
//             update: the prediction scores below gold because search lost gold);
//   skip:     the same, but skip non-violations (Zhang & McDonald 2012);
//   s-max:    the single gold node with the largest violation (MaxViolation.h);
//   p-max:    every node of the max-violation frontier ft(root), their subtree pairs at once.
// The update moves the weights toward the chosen gold subtrees and away from their Viterbi
// subtrees: delta = sum_n phi(yhat_n) - phi(y'_n) over the chosen nodes whose subtrees differ.
// A violation is v >= 0 with y' != yhat (a tie is a violation: from zero weights everything ties).
#include "core/cube/GoldDerivation.h"
#include "core/dep/HashedWeights.h"

#include <string>
#include <vector>

namespace prunescope {

enum class CubeUpdateStrategy { Standard, Skip, SMax, PMax };
const char* cubeUpdateName(CubeUpdateStrategy s);            // "standard", "skip", "smax", "pmax"
CubeUpdateStrategy parseCubeUpdate(const std::string& name); // std::invalid_argument

struct CubeUpdateChoice {
    std::vector<int> nodes; // gold nodes whose subtree pairs the update uses (differing ones only)
    std::vector<int> frontier;  // p-max: all of ft(root), including nodes whose subtrees agree
    int smaxNode = -1;          // maxv(root), whatever the strategy (the explorer draws it)
    double violation = 0;       // sum of v(n) over `nodes`
    bool rootWrong = false;     // y'(root) != yhat(root): the parse is wrong
    bool rootViolation = false; // ... and v(root) >= 0
    bool update = false;        // the strategy updates on this sentence
    bool invalid = false;       // the update is a non-violation (standard at a non-violating root)
};

// Which nodes the strategy updates at (no weights touched).
CubeUpdateChoice chooseCubeUpdate(const GoldDerivation& gold, CubeUpdateStrategy strategy);

// The feature keys of the chosen pairs: plus = gold subtrees' parts, minus = Viterbi subtrees'.
struct CubeUpdatePairs {
    CubeParts goldParts, viterbiParts;      // summed over the chosen nodes (with repeats)
    std::vector<std::uint64_t> plus, minus; // their feature keys
};
CubeUpdatePairs cubeUpdatePairs(const CubeChart& chart, const CubeScorer& scorer,
                                const GoldDerivation& gold, const std::vector<int>& nodes);

} // namespace prunescope
