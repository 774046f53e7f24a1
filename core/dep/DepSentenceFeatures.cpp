// Per-sentence arc feature keys shared by a pipeline's stages (Rush & Petrov 2012 sec. 3).
#include "core/dep/DepSentenceFeatures.h"

#include <stdexcept>

namespace prunescope {

void DepSentenceFeatures::init() {
    const auto N = static_cast<std::size_t>(atoms_->size() + 1);
    begin_.assign(N * N, kNone);
    end_.assign(N * N, kNone);
}

std::span<const std::uint64_t> DepSentenceFeatures::arcKeys(int h, int m) {
    const std::size_t a = arcIndex(h, m);
    if (begin_[a] == kNone) {
        const std::size_t b = keys_.size();
        arcFeatureKeys(*atoms_, h, m, keys_);
        if (keys_.size() >= kNone) throw std::length_error("DepSentenceFeatures: too many cached keys");
        begin_[a] = static_cast<std::uint32_t>(b);
        end_[a] = static_cast<std::uint32_t>(keys_.size());
        ++cachedArcs_;
    }
    return {keys_.data() + begin_[a], static_cast<std::size_t>(end_[a] - begin_[a])};
}

float DepSentenceFeatures::arcScore(const HashedWeights& w, int h, int m, bool cache) {
    if (cache || begin_[arcIndex(h, m)] != kNone) return w.score(arcKeys(h, m));
    scratch_.clear();
    arcFeatureKeys(*atoms_, h, m, scratch_);
    return w.score(scratch_);
}

void DepSentenceFeatures::arcScores(const HashedWeights& w, const ArcMask* mask, ArcScores& out, bool cache) {
    const int n = size();
    if (mask && mask->n != n) throw std::invalid_argument("DepSentenceFeatures: mask length differs from the sentence");
    out.reset(n);
    for (int h = 0; h <= n; ++h)
        for (int m = 1; m <= n; ++m)
            if (h != m && (!mask || mask->keep(h, m))) out.at(h, m) = arcScore(w, h, m, cache);
}

} // namespace prunescope
