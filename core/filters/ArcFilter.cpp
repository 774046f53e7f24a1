// The arc filter's decision rule (Cherry & Bergsma 2011, eq. 1, sec. 3).
#include "core/filters/ArcFilter.h"

#include "core/filters/ArcMaxEvent.h"

#include <stdexcept>

namespace prunescope {

const char* arcFilterKindName(ArcFilterKind k) {
    return k == ArcFilterKind::Independent ? "independent" : "joint";
}

ArcFilterKind arcFilterKindFromName(const std::string& s) {
    if (s == "independent") return ArcFilterKind::Independent;
    if (s == "joint") return ArcFilterKind::Joint;
    throw std::invalid_argument("unknown filter kind '" + s + "' (independent or joint)");
}

ArcFilter ArcFilter::zeros(ArcFilterKind kind, int hashBits) {
    if (hashBits < 10 || hashBits > 26) throw std::invalid_argument("hashBits must be in [10, 26]");
    ArcFilter f;
    f.kind = kind;
    f.hashBits = hashBits;
    f.weights.assign(std::size_t{1} << hashBits, 0.0f);
    if (kind == ArcFilterKind::Independent) f.useNone = false;
    return f;
}

ArcFilterScorer::ArcFilterScorer(const ArcFilter& f, const DepSentence& s) : n_(s.size()) {
    const SentenceAtoms atoms(s);
    const auto N = static_cast<std::size_t>(n_ + 1);
    role_.assign(kTokenRoleCount * N, 0.0f);
    std::vector<std::uint64_t> keys;
    for (int t = 1; t <= n_; ++t) {
        keys.clear();
        tokenFeatureKeys(atoms, t, keys);
        for (int r = 0; r < kTokenRoleCount; ++r) {
            float sum = 0.0f;
            for (const std::uint64_t k : keys)
                sum += f.weight(eventKey(k, static_cast<FilterEventKind>(r)));
            role_[static_cast<std::size_t>(r) * N + static_cast<std::size_t>(t)] = sum;
        }
    }
    vine_.assign(N * N, 0.0f);
    none_.assign(N * N, 0.0f);
    for (int h = 0; h <= n_; ++h)
        for (int m = 1; m <= n_; ++m) {
            if (h == m) continue;
            if (f.useVine) {
                const ArcLengthFeatures v = arcLengthFeatures(atoms, h, m, FilterEventKind::Vine);
                vine_[idx(h, m)] = f.weight(v.biasKey) + v.length * f.weight(v.pairKey);
            }
            if (f.useNone) {
                const ArcLengthFeatures v = arcLengthFeatures(atoms, h, m, FilterEventKind::None);
                none_[idx(h, m)] = f.weight(v.biasKey) + v.length * f.weight(v.pairKey);
            }
        }
    // margins: f(Z_a) - None_a (ArcMaxEvent.h)
    margin_.assign(N * N, -std::numeric_limits<float>::infinity());
    best_.assign(N * N, FilterEvent{});
    forEachArcMaxEvent<float>(
        n_, f.useRoot, f.useVine, [this](FilterEventKind r, int t) { return role(r, t); },
        [this](int h, int m) { return vine(h, m); },
        [this](int h, int m, float best, const FilterEvent& arg) {
            margin_[idx(h, m)] = best - none(h, m);
            best_[idx(h, m)] = arg;
        });
}

float ArcFilterScorer::score(const FilterEvent& z) const {
    switch (z.kind) {
    case FilterEventKind::Vine:
        return vine(z.head, z.mod);
    case FilterEventKind::None:
        return none(z.head, z.mod);
    default:
        return role(z.kind, z.token);
    }
}

ArcMask ArcFilterScorer::mask(double threshold) const {
    ArcMask mask = ArcMask::allKeep(n_);
    for (int h = 0; h <= n_; ++h)
        for (int m = 1; m <= n_; ++m)
            if (h != m && static_cast<double>(margin_[idx(h, m)]) > threshold)
                mask.set(h, m, false);
    return mask;
}

float naiveMargin(const ArcFilterScorer& s, const ArcFilter& f, int h, int m) {
    float best = -std::numeric_limits<float>::infinity();
    for (const FilterEvent& z : filteringEvents(s.size(), h, m, f.useRoot, f.useVine))
        best = std::max(best, s.score(z));
    return best - s.none(h, m);
}

} // namespace prunescope
