// Paired permutation test over per-sentence records (paper sec. 7, Fig. 3).
#include "core/eval/PermutationTest.h"

#include "core/util/Random.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace prunescope {

namespace {

struct Totals {
    long matched = 0, gold = 0, test = 0;
    double runtime = 0;
    void add(const SentenceScore& s) {
        matched += s.counts.matched;
        gold += s.counts.gold;
        test += s.counts.test;
        runtime += s.runtime;
    }
    double reward(const CorpusReward& r, std::size_t n) const {
        BracketCounts c{matched, gold, test};
        const double meanRuntime = n ? runtime / static_cast<double>(n) : 0.0;
        return 100.0 * c.f1() - r.lambda * meanRuntime / r.runtimeScale;
    }
};

} // namespace

double CorpusReward::operator()(std::span<const SentenceScore> s) const {
    Totals t;
    for (const auto& x : s)
        t.add(x);
    return t.reward(*this, s.size());
}

PermutationTestResult pairedPermutationTest(std::span<const SentenceScore> a,
                                            std::span<const SentenceScore> b,
                                            const CorpusReward& reward, int permutations,
                                            std::uint64_t seed) {
    if (a.size() != b.size())
        throw std::invalid_argument("pairedPermutationTest: systems differ in size");
    PermutationTestResult r;
    r.statisticA = reward(a);
    r.statisticB = reward(b);
    r.difference = r.statisticA - r.statisticB;
    r.permutations = std::max(0, permutations);
    const std::size_t n = a.size();
    // Tolerance for "as extreme as observed": permuted statistics are computed from the same
    // integer counts, so identical configurations give identical doubles; eps guards summation
    // order.
    const double observed = std::abs(r.difference) - 1e-12;
    std::uint64_t state = seed;
    long extreme = 0;
    for (int p = 0; p < r.permutations; ++p) {
        Totals ta, tb;
        std::uint64_t bits = 0;
        int left = 0;
        for (std::size_t s = 0; s < n; ++s) {
            if (left == 0) {
                bits = splitmix64(state);
                left = 64;
            }
            const bool swap = bits & 1u;
            bits >>= 1;
            --left;
            ta.add(swap ? b[s] : a[s]);
            tb.add(swap ? a[s] : b[s]);
        }
        const double d = ta.reward(reward, n) - tb.reward(reward, n);
        if (std::abs(d) >= observed) ++extreme;
    }
    r.pValue = static_cast<double>(extreme + 1) / static_cast<double>(r.permutations + 1);
    return r;
}

} // namespace prunescope
