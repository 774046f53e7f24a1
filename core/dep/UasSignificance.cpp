// Paired permutation test on UAS and Holm's correction (UasSignificance.h).
#include "core/dep/UasSignificance.h"

#include "core/stats/PairedPermutation.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace prunescope {

UasTestResult pairedUasPermutationTest(std::span<const AttachmentScore> a,
                                       std::span<const AttachmentScore> b, int permutations,
                                       std::uint64_t seed) {
    if (a.size() != b.size())
        throw std::invalid_argument(
            "paired UAS test: the systems scored different numbers of sentences");
    long total = 0, ca = 0, cb = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (a[i].scoredTokens != b[i].scoredTokens)
            throw std::invalid_argument("paired UAS test: sentence " + std::to_string(i) +
                                        " has different scored token counts");
        total += a[i].scoredTokens;
        ca += a[i].scoredCorrect;
        cb += b[i].scoredCorrect;
    }
    UasTestResult r;
    const double scale = total ? 100.0 / static_cast<double>(total) : 0.0;
    r.uasA = static_cast<double>(ca) * scale;
    r.uasB = static_cast<double>(cb) * scale;
    r.difference = r.uasA - r.uasB;
    // The statistic in attachment counts (exact doubles): the tie rule is then exact.
    const std::size_t n = a.size();
    const PairedTestResult t = pairedPermutationTest(n, permutations, seed, [&](const SwapSet& s) {
        long d = 0;
        for (std::size_t i = 0; i < n; ++i) {
            const long di = a[i].scoredCorrect - b[i].scoredCorrect;
            d += s[i] ? -di : di;
        }
        return static_cast<double>(d);
    });
    r.permutations = t.permutations;
    r.pValue = t.pValue;
    return r;
}

} // namespace prunescope
