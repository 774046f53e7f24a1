#pragma once
// Random first-order arc scores and arc masks for the dependency tests (Eisner, hypergraph
// max-marginals, cube pruning): deterministic given the stream.
#include "core/dep/ArcMask.h"
#include "core/dep/Eisner.h"
#include "core/util/Random.h"

namespace prunescope::testdata {
// Every arc (h, m), h != m, uniform in [-5, 5).
ArcScores randomArcScores(int n, SplitMix64& rng);
// Every arc kept with probability `keep`.
ArcMask randomArcMask(int n, double keep, SplitMix64& rng);
// Sibling scores from a hash of (h, q, m, seed), uniform in [-2, 2): arbitrary but fixed.
struct HashSiblings : SiblingScorer {
    std::uint64_t seed;
    explicit HashSiblings(std::uint64_t s) : seed(s) {}
    float sibling(int h, int q, int m) const override;
};
} // namespace prunescope::testdata
