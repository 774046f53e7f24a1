// Token and arc-length features of the filtering events (Cherry & Bergsma 2011, sec. 2-3).
#include "core/filters/FilterFeatures.h"

#include "core/util/FeatureHash.h"

#include <cstdlib>

namespace prunescope {

namespace {
// Template ids, fixed forever for feature set "filters-v1".
enum Template : std::uint64_t {
    kBias = 1,
    kW,
    kT,
    kP,
    kC,
    kWT,
    kTm1,
    kTp1,
    kTm2,
    kTp2,
    kWm1,
    kWp1,
    kTm1T,
    kTTp1,
    kTm1TTp1,
    kTm2Tm1T,
    kTTp1Tp2,
    kWTm1,
    kWTp1,
    kLeftDist,
    kRightDist,
    kLeftDistT,
    kRightDistT,
    kLen,
    kCoarseLeft,
    kCoarseRight,
    kCoarseLeftT,
    kCoarseRightT,
    kArcBias = 50,
    kArcPair,
};

int bucketOf(int d) {
    return distanceBucket(d);
}
} // namespace

void tokenFeatureKeys(const SentenceAtoms& a, int t, std::vector<std::uint64_t>& out) {
    const int n = a.size();
    const TokenAtoms& x = a.at(t);
    const TokenAtoms& l1 = a.at(t - 1);
    const TokenAtoms& r1 = a.at(t + 1);
    // +-2 beyond the padding: the padding atom again (positions -1 and n + 1 are <s>, </s>).
    const TokenAtoms& l2 = a.at(t - 2 >= -1 ? t - 2 : -1);
    const TokenAtoms& r2 = a.at(t + 2 <= n + 1 ? t + 2 : n + 1);
    out.push_back(featureKey(kBias));
    out.push_back(featureKey(kW, x.word));
    out.push_back(featureKey(kT, x.tag));
    out.push_back(featureKey(kP, x.prefix));
    out.push_back(featureKey(kC, x.coarse));
    out.push_back(featureKey(kWT, x.word, x.tag));
    out.push_back(featureKey(kTm1, l1.tag));
    out.push_back(featureKey(kTp1, r1.tag));
    out.push_back(featureKey(kTm2, l2.tag));
    out.push_back(featureKey(kTp2, r2.tag));
    out.push_back(featureKey(kWm1, l1.word));
    out.push_back(featureKey(kWp1, r1.word));
    out.push_back(featureKey(kTm1T, l1.tag, x.tag));
    out.push_back(featureKey(kTTp1, x.tag, r1.tag));
    out.push_back(featureKey(kTm1TTp1, l1.tag, x.tag, r1.tag));
    out.push_back(featureKey(kTm2Tm1T, l2.tag, l1.tag, x.tag));
    out.push_back(featureKey(kTTp1Tp2, x.tag, r1.tag, r2.tag));
    out.push_back(featureKey(kWTm1, x.word, l1.tag));
    out.push_back(featureKey(kWTp1, x.word, r1.tag));
    const int left = bucketOf(t), right = bucketOf(n + 1 - t);
    out.push_back(featureKey(kLeftDist, left));
    out.push_back(featureKey(kRightDist, right));
    out.push_back(featureKey(kLeftDistT, left, x.tag));
    out.push_back(featureKey(kRightDistT, right, x.tag));
    out.push_back(featureKey(kLen, bucketOf(n), x.coarse));
    for (int c = 0; c < a.distinctCoarse(); ++c) {
        const std::uint64_t ca = a.coarseAtom(c);
        if (a.coarseBetween(c, 0, t)) {
            out.push_back(featureKey(kCoarseLeft, ca));
            out.push_back(featureKey(kCoarseLeftT, ca, x.tag));
        }
        if (a.coarseBetween(c, t, n + 1)) {
            out.push_back(featureKey(kCoarseRight, ca));
            out.push_back(featureKey(kCoarseRightT, ca, x.tag));
        }
    }
}

ArcLengthFeatures arcLengthFeatures(const SentenceAtoms& a, int h, int m, FilterEventKind kind) {
    ArcLengthFeatures f;
    const std::uint64_t k = 0xA5C0ull + static_cast<std::uint64_t>(kind);
    f.biasKey = featureKey(kArcBias, k);
    f.pairKey = featureKey(kArcPair, k, a.at(h).tag, a.at(m).tag, h < m ? 1u : 2u);
    f.length = static_cast<float>(std::abs(h - m));
    return f;
}

} // namespace prunescope
