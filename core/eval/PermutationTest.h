#pragma once
// Paired permutation test for comparing two parsers on the same test sentences (paper sec. 7,
// Fig. 3: "testing significance with a paired permutation test"). The statistic is a corpus-level
// reward, so each permutation swaps the two systems' per-sentence records and recomputes it.
#include "core/eval/Evalb.h"

#include <cstdint>
#include <span>

namespace prunescope {

// One system's result on one sentence.
struct SentenceScore {
    BracketCounts counts; // EVALB bracket counts
    double runtime = 0;   // e.g. pushes (the true reward's runtime is mean mega-pushes)
};

// True reward of a corpus (paper sec. 7): 100 * corpus F1 - lambda * mean(runtime) / runtimeScale.
// With runtime = pushes and runtimeScale = 1e6 this is "F1 percentage - lambda * mpush".
struct CorpusReward {
    double lambda = 0;
    double runtimeScale = 1e6;
    double operator()(std::span<const SentenceScore> s) const;
};

struct PermutationTestResult {
    double statisticA = 0, statisticB = 0; // reward of A and of B
    double difference = 0;                 // A - B
    double pValue = 1;                     // two-sided: P(|permuted difference| >= |observed|)
    int permutations = 0;
};

// Paired (approximate) permutation test on the reward: core/stats/PairedPermutation.h (its draws
// and tie rule), the statistic recomputed from the swapped records. Deterministic given seed. a and
// b must have the same size (else std::invalid_argument).
PermutationTestResult pairedPermutationTest(std::span<const SentenceScore> a,
                                            std::span<const SentenceScore> b,
                                            const CorpusReward& reward, int permutations = 10000,
                                            std::uint64_t seed = 1);

} // namespace prunescope
