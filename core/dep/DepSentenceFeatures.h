#pragma once
// One sentence's feature atoms and the keys of every arc scored so far, shared by the stages of a
// DepPipeline and its final parse (Rush & Petrov 2012 sec. 3: the vine, first-order and
// second-order passes score the same arcs, each under its own weights), so that an arc's keys
// (arcFeatureKeys) are built once per sentence. Scores equal DepScorer's bit for bit (the same
// keys in the same order, summed by HashedWeights::score). Not thread-safe: one per sentence and
// thread; not copyable (it may refer to atoms it owns).
#include "core/dep/ArcFeatures.h"
#include "core/dep/ArcMask.h"
#include "core/dep/Eisner.h"
#include "core/dep/HashedWeights.h"

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace prunescope {

class DepSentenceFeatures {
  public:
    explicit DepSentenceFeatures(const DepSentence& s) : own_(std::in_place, s), atoms_(&*own_) {
        init();
    }
    // Refers to `atoms`, which must outlive this object.
    explicit DepSentenceFeatures(const SentenceAtoms& atoms) : atoms_(&atoms) { init(); }
    DepSentenceFeatures(const DepSentenceFeatures&) = delete;
    DepSentenceFeatures& operator=(const DepSentenceFeatures&) = delete;

    const SentenceAtoms& atoms() const { return *atoms_; }
    int size() const { return atoms_->size(); }

    // The keys of arc h -> m in arcFeatureKeys' order, built on first request; valid until the
    // next call on this object.
    std::span<const std::uint64_t> arcKeys(int h, int m);
    // w.score(arcKeys(h, m)). With cache = false an arc not cached yet is scored from a scratch
    // buffer and not stored (for the last consumer, the final parse).
    float arcScore(const HashedWeights& w, int h, int m, bool cache = true);
    // Every arc the mask keeps (all without a mask), -inf elsewhere: DepScorer::arcScores.
    void arcScores(const HashedWeights& w, const ArcMask* mask, ArcScores& out, bool cache = true);
    // out.at(h, m) = arcScore(w, h, m, cache) for each arc of `arcs` (indices h * (n + 1) + m, as
    // in ArcScores::s). The same sums in the same order; the weights of the next arc are prefetched
    // while one arc is summed, since the sums wait on random reads of a table larger than the
    // cache.
    void scoreArcs(const HashedWeights& w, std::span<const std::uint32_t> arcs, ArcScores& out,
                   bool cache = true);
    std::uint32_t arcId(int h, int m) const { return static_cast<std::uint32_t>(arcIndex(h, m)); }

    long cachedArcs() const { return cachedArcs_; }

  private:
    void init();
    // Arc a's cached keys, or (not cached) its keys built into buf.
    std::span<const std::uint64_t> keysOrBuild(std::uint32_t a, std::vector<std::uint64_t>& buf);
    std::size_t arcIndex(int h, int m) const {
        return static_cast<std::size_t>(h) * static_cast<std::size_t>(size() + 1) +
               static_cast<std::size_t>(m);
    }

    std::optional<SentenceAtoms> own_;
    const SentenceAtoms* atoms_;
    static constexpr std::uint32_t kNone = 0xffffffffu;
    std::vector<std::uint32_t> begin_,
        end_; // per arc h * (n + 1) + m: [begin, end) in keys_, kNone = not built
    static constexpr int kAhead = 2; // arcs prefetched ahead of the one summed
    std::vector<std::uint64_t> keys_,
        scratch_[kAhead + 1]; // scratch_: keys of arcs scored without caching
    std::vector<std::uint32_t> todo_;
    long cachedArcs_ = 0;
};

} // namespace prunescope
