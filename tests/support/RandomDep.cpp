#include "support/RandomDep.h"

namespace prunescope::testdata {

ArcScores randomArcScores(int n, SplitMix64& rng) {
    ArcScores s;
    s.reset(n);
    for (int h = 0; h <= n; ++h)
        for (int m = 1; m <= n; ++m)
            if (h != m) s.at(h, m) = static_cast<float>(rng.uniform() * 10.0 - 5.0);
    return s;
}

ArcMask randomArcMask(int n, double keep, SplitMix64& rng) {
    ArcMask mask = ArcMask::allKeep(n);
    for (int h = 0; h <= n; ++h)
        for (int m = 1; m <= n; ++m)
            if (h != m && rng.uniform() > keep) mask.set(h, m, false);
    return mask;
}

float HashSiblings::sibling(int h, int q, int m) const {
    SplitMix64 r(seed, static_cast<std::uint64_t>(h * 10007 + q * 101 + m), 7);
    return static_cast<float>(r.uniform() * 4.0 - 2.0);
}

} // namespace prunescope::testdata
