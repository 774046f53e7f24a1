// Paired permutation test over per-sentence records (paper sec. 7, Fig. 3).
#include "core/eval/PermutationTest.h"

#include "core/stats/PairedPermutation.h"

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
    const std::size_t n = a.size();
    const PairedTestResult t =
        prunescope::pairedPermutationTest(n, permutations, seed, [&](const SwapSet& swaps) {
            Totals ta, tb;
            for (std::size_t s = 0; s < n; ++s) {
                ta.add(swaps[s] ? b[s] : a[s]);
                tb.add(swaps[s] ? a[s] : b[s]);
            }
            return ta.reward(reward, n) - tb.reward(reward, n);
        });
    r.difference = r.statisticA - r.statisticB;
    r.pValue = t.pValue;
    r.permutations = t.permutations;
    return r;
}

} // namespace prunescope
