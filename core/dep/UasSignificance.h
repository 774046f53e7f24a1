#pragma once
// Significance of UAS differences between two parsers on the same sentences: the paired
// approximate-randomization test of core/stats/PairedPermutation.h (each permutation swaps the two
// systems' records of a sentence with probability 1/2, and the corpus statistic is recomputed),
// here over attachment counts (UAS without punctuation, core/dep/DepEval.h); and Holm's step-down
// correction for a table that tests many rows.
#include "core/dep/DepEval.h"
#include "core/stats/Holm.h"

#include <cstdint>
#include <span>
#include <vector>

namespace prunescope {

struct UasTestResult {
    double uasA = 0, uasB = 0; // corpus UAS (punctuation excluded)
    double difference = 0;     // A - B, points
    double pValue = 1;         // two-sided (core/stats/PairedPermutation.h)
    int permutations = 0;
};

// a[i] and b[i] are the two systems' scores of sentence i (same gold). Deterministic given seed.
// Throws std::invalid_argument if the sizes or the scored token counts of a sentence differ.
UasTestResult pairedUasPermutationTest(std::span<const AttachmentScore> a,
                                       std::span<const AttachmentScore> b, int permutations = 10000,
                                       std::uint64_t seed = 1);

} // namespace prunescope
