// Per-sentence arc feature keys shared by a pipeline's stages (Rush & Petrov 2012 sec. 3).
#include "core/dep/DepSentenceFeatures.h"

#include <algorithm>
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
        if (keys_.size() >= kNone)
            throw std::length_error("DepSentenceFeatures: too many cached keys");
        begin_[a] = static_cast<std::uint32_t>(b);
        end_[a] = static_cast<std::uint32_t>(keys_.size());
        ++cachedArcs_;
    }
    return {keys_.data() + begin_[a], static_cast<std::size_t>(end_[a] - begin_[a])};
}

std::span<const std::uint64_t> DepSentenceFeatures::keysOrBuild(std::uint32_t a,
                                                                std::vector<std::uint64_t>& buf) {
    if (begin_[a] != kNone)
        return {keys_.data() + begin_[a], static_cast<std::size_t>(end_[a] - begin_[a])};
    const auto N = static_cast<std::uint32_t>(size() + 1);
    buf.clear();
    arcFeatureKeys(*atoms_, static_cast<int>(a / N), static_cast<int>(a % N), buf);
    return buf;
}

float DepSentenceFeatures::arcScore(const HashedWeights& w, int h, int m, bool cache) {
    return w.score(cache ? arcKeys(h, m) : keysOrBuild(arcId(h, m), scratch_[0]));
}

void DepSentenceFeatures::arcScores(const HashedWeights& w, const ArcMask* mask, ArcScores& out,
                                    bool cache) {
    const int n = size();
    if (mask && mask->n != n)
        throw std::invalid_argument("DepSentenceFeatures: mask length differs from the sentence");
    out.reset(n);
    todo_.clear();
    for (int h = 0; h <= n; ++h)
        for (int m = 1; m <= n; ++m)
            if (h != m && (!mask || mask->keep(h, m))) todo_.push_back(arcId(h, m));
    scoreArcs(w, todo_, out, cache);
}

void DepSentenceFeatures::scoreArcs(const HashedWeights& w, std::span<const std::uint32_t> arcs,
                                    ArcScores& out, bool cache) {
    if (out.n != size())
        throw std::invalid_argument("DepSentenceFeatures: scores of the wrong length");
    const auto N = static_cast<std::uint32_t>(size() + 1);
    if (cache) { // build every missing key first: keys_ does not move while the sums below read it
        // One allocation for them (growing keys_ key by key copied it ~log2(size) times a
        // sentence).
        std::size_t more = 0;
        for (const std::uint32_t a : arcs)
            if (begin_[a] == kNone)
                more +=
                    arcFeatureKeysBound(*atoms_, static_cast<int>(a / N), static_cast<int>(a % N));
        if (keys_.size() + more > keys_.capacity())
            keys_.reserve(std::max(keys_.size() + more, 2 * keys_.capacity()));
        for (const std::uint32_t a : arcs)
            arcKeys(static_cast<int>(a / N), static_cast<int>(a % N));
    }
    // A window of kAhead + 1 arcs, each with its own scratch buffer (cache == false): arc j is
    // summed while the weights of arc j + kAhead are fetched.
    std::span<const std::uint64_t> window[kAhead + 1];
    const std::size_t count = arcs.size();
    for (std::size_t j = 0; j < count + kAhead; ++j) {
        if (j < count) {
            const std::size_t slot = j % (kAhead + 1);
            window[slot] = keysOrBuild(arcs[j], scratch_[slot]);
            w.prefetch(window[slot]);
        }
        if (j >= kAhead) out.s[arcs[j - kAhead]] = w.score(window[(j - kAhead) % (kAhead + 1)]);
    }
}

} // namespace prunescope
