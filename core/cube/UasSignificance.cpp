// Paired permutation test on UAS and Holm's correction (UasSignificance.h).
#include "core/cube/UasSignificance.h"

#include "core/util/Random.h"

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
    r.permutations = std::max(0, permutations);
    // The statistic is a difference of integer counts over a fixed total, so compare counts
    // exactly.
    const long observed = std::labs(ca - cb);
    std::uint64_t state = seed;
    long extreme = 0;
    for (int p = 0; p < r.permutations; ++p) {
        long d = 0;
        std::uint64_t bits = 0;
        int left = 0;
        for (std::size_t i = 0; i < a.size(); ++i) {
            if (left == 0) {
                bits = splitmix64(state);
                left = 64;
            }
            const long di = a[i].scoredCorrect - b[i].scoredCorrect;
            d += (bits & 1u) ? -di : di;
            bits >>= 1;
            --left;
        }
        if (std::labs(d) >= observed) ++extreme;
    }
    r.pValue = static_cast<double>(extreme + 1) / static_cast<double>(r.permutations + 1);
    return r;
}

} // namespace prunescope
