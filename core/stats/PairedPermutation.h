#pragma once
// The one paired permutation (approximate randomization) test behind every comparison of two
// systems on the same sentences: parsers by reward (Vieira & Eisner 2017 sec. 7, Fig. 3), UAS
// (cube pruning, vine cascades), arc filters (Cherry & Bergsma 2011 sec. 5) and randomized vs
// fixed masks (Bouchard-Cote, Petrov & Klein 2009). Callers supply only their statistic.
//
// The draws: permutation p swaps the two systems' records of sentence i iff bit (i mod 64) of the
// (i / 64)-th 64-bit draw of p is set, all draws taken in order from one splitmix64 stream started
// at `seed` (core/util/Random.h). Deterministic given the seed, independent of threads.
// The tie rule: a permuted difference counts as at least as extreme as the observed one iff
//   |d_perm| >= |d_obs| - 1e-12 * (1 + |d_obs|),
// so identical configurations summed in another order still tie; statistics of integer counts
// (UAS) return them as exact doubles, so there the rule is exact.
// p = (1 + #extreme) / (1 + permutations) (never 0; 1 with no permutation).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace prunescope {

// Which sentences a permutation swaps: bit i of the words.
class SwapSet {
  public:
    bool operator[](std::size_t i) const { return (words_[i >> 6] >> (i & 63)) & 1u; }
    std::span<const std::uint64_t> words() const { return words_; }
    std::vector<std::uint64_t>& mutableWords() { return words_; }

  private:
    std::vector<std::uint64_t> words_;
};

struct PairedTestResult {
    double observed = 0; // the statistic with nothing swapped (A minus B)
    double pValue = 1;   // two-sided, by the tie rule above
    int permutations = 0;
};

// `difference(swaps)` returns the statistic of A minus B after exchanging the two systems' records
// of every sentence i with swaps[i]; it is called once with no swap (the observed value), then once
// per permutation. permutations < 0 counts as 0.
PairedTestResult pairedPermutationTest(std::size_t sentences, int permutations, std::uint64_t seed,
                                       const std::function<double(const SwapSet&)>& difference);

// The additive case: the statistic is sum_i d_i, a swap negates d_i (a sign-flip test of
// mean(a - b) = 0 on paired per-sentence values).
PairedTestResult pairedSignFlipTest(std::span<const double> d, int permutations,
                                    std::uint64_t seed);

// true iff |permuted| counts as at least as extreme as |observed| (the tie rule above).
bool atLeastAsExtreme(double permuted, double observed);

} // namespace prunescope
