// The paired permutation test (PairedPermutation.h).
#include "core/stats/PairedPermutation.h"

#include "core/util/Random.h"

#include <algorithm>
#include <cmath>

namespace prunescope {

bool atLeastAsExtreme(double permuted, double observed) {
    const double obs = std::abs(observed);
    return std::abs(permuted) >= obs - 1e-12 * (1.0 + obs);
}

PairedTestResult pairedPermutationTest(std::size_t sentences, int permutations, std::uint64_t seed,
                                       const std::function<double(const SwapSet&)>& difference) {
    PairedTestResult r;
    r.permutations = std::max(0, permutations);
    SwapSet swaps;
    auto& words = swaps.mutableWords();
    words.assign((sentences + 63) / 64, 0);
    r.observed = difference(swaps);
    std::uint64_t state = seed;
    long extreme = 0;
    for (int p = 0; p < r.permutations; ++p) {
        for (auto& w : words)
            w = splitmix64(state);
        if (sentences % 64 != 0 && !words.empty()) // bits past the last sentence stay clear
            words.back() &= (std::uint64_t{1} << (sentences % 64)) - 1;
        if (atLeastAsExtreme(difference(swaps), r.observed)) ++extreme;
    }
    r.pValue = static_cast<double>(extreme + 1) / static_cast<double>(r.permutations + 1);
    return r;
}

PairedTestResult pairedSignFlipTest(std::span<const double> d, int permutations,
                                    std::uint64_t seed) {
    return pairedPermutationTest(d.size(), permutations, seed, [&](const SwapSet& s) {
        double sum = 0;
        for (std::size_t i = 0; i < d.size(); ++i)
            sum += s[i] ? -d[i] : d[i];
        return sum;
    });
}

} // namespace prunescope
