#pragma once
// Platform-independent random streams (splitmix64). Every randomized algorithm in core (the rCP
// span sample, minibatches, permutation tests, MCMC masks) draws from these, so results depend only
// on the seed and never on the standard library or the thread count.
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace prunescope {

// One splitmix64 step on `state` (Steele, Lea & Flood 2014).
inline std::uint64_t splitmix64(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// A deterministic stream for one (seed, a, b), e.g. (seed, iteration, sentence).
class SplitMix64 {
  public:
    explicit SplitMix64(std::uint64_t seed, std::uint64_t a = 0, std::uint64_t b = 0)
        : state_(seed) {
        state_ = next() ^ (a * 0xD1B54A32D192ED03ull);
        state_ = next() ^ (b * 0x8CB92BA72F3D8DD7ull);
    }
    std::uint64_t next() { return splitmix64(state_); }
    // Uniform in [0, n) by rejection (unbiased, platform independent); n > 0.
    std::size_t below(std::size_t n) {
        const std::uint64_t limit = UINT64_MAX - UINT64_MAX % n;
        std::uint64_t x;
        do
            x = next();
        while (x >= limit);
        return static_cast<std::size_t>(x % n);
    }
    // Uniform in [0, 1) with 53 random bits.
    double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

  private:
    std::uint64_t state_;
};

// Fisher-Yates shuffle in place with draws from rng (for i = n..2: swap v[i-1] with v[below(i)]),
// so a shuffle depends only on the stream, never on the standard library.
template <typename T> void shuffleInPlace(std::vector<T>& v, SplitMix64& rng) {
    for (std::size_t i = v.size(); i > 1; --i)
        std::swap(v[i - 1], v[rng.below(i)]);
}

// `count` distinct indices of [0, population) drawn uniformly (partial Fisher-Yates on a
// SplitMix64(seed, a, b) stream), returned ascending.
std::vector<std::uint32_t> sampleIndices(std::size_t population, std::size_t count,
                                         std::uint64_t seed, std::uint64_t a, std::uint64_t b);

} // namespace prunescope
