// Platform-independent random streams.
#include "core/util/Random.h"

#include <algorithm>

namespace prunescope {

std::vector<std::uint32_t> sampleIndices(std::size_t population, std::size_t count,
                                         std::uint64_t seed, std::uint64_t a, std::uint64_t b) {
    count = std::min(count, population);
    std::vector<std::uint32_t> idx(population);
    for (std::size_t x = 0; x < population; ++x)
        idx[x] = static_cast<std::uint32_t>(x);
    SplitMix64 rng(seed, a, b);
    for (std::size_t x = 0; x < count; ++x)
        std::swap(idx[x], idx[x + rng.below(population - x)]);
    idx.resize(count);
    std::sort(idx.begin(), idx.end());
    return idx;
}

} // namespace prunescope
