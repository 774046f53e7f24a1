#pragma once
// The arc filter (Cherry & Bergsma 2011, eq. 1 and sec. 3): one weight vector w-bar over every
// event's features; arc a is filtered iff  f(Z_a) - w-bar.Phi(None_a) > threshold,  with
// f(Z_a) = max_{z in Z_a} w-bar.Phi(z). The paper's rule is threshold 0; the threshold moves the
// operating point along the coverage/reduction curve (chosen on dev), and +infinity keeps every
// arc. Independent filters (Bergsma & Cherry 2010) are the same model with None's weights 0.
#include "core/dep/ArcMask.h"
#include "core/dep/DepTree.h"
#include "core/filters/FilterEvents.h"
#include "core/filters/FilterFeatures.h"
#include "core/util/HugePageAllocator.h"

#include <limits>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace prunescope {

enum class ArcFilterKind { Independent, Joint };
const char* arcFilterKindName(ArcFilterKind k);            // "independent" | "joint"
ArcFilterKind arcFilterKindFromName(const std::string& s); // throws std::invalid_argument

struct ArcFilter {
    ArcFilterKind kind = ArcFilterKind::Joint;
    int hashBits = 20;
    bool useRoot = true, useVine = true, useNone = true; // which events take part
    HugeFloatVector weights; // 2^hashBits (huge pages: util/HugePageAllocator.h)
    double threshold = 0;    // the operating point (chosen on dev); +inf keeps every arc
    nlohmann::json training =
        nlohmann::json::object(); // how it was made (costs, dev coverage, ...)

    static ArcFilter zeros(ArcFilterKind kind, int hashBits);
    float weight(std::uint64_t key) const { return weights[featureBucket(key, hashBits)]; }
};

// Every event score of one sentence and the filter margin of every arc.
class ArcFilterScorer {
  public:
    ArcFilterScorer(const ArcFilter& f, const DepSentence& s);
    int size() const { return n_; }
    // w-bar.Phi of a role event (t in [1, n]) and of the arc events.
    float role(FilterEventKind r, int t) const {
        return role_[static_cast<std::size_t>(r) * static_cast<std::size_t>(n_ + 1) +
                     static_cast<std::size_t>(t)];
    }
    float vine(int h, int m) const { return vine_[idx(h, m)]; }
    float none(int h, int m) const { return none_[idx(h, m)]; }
    float score(const FilterEvent& z) const;
    // margin(h, m) = f(Z_a) - none(h, m); -inf if Z_a is empty. The arg max event in best.
    float margin(int h, int m, FilterEvent* best = nullptr) const {
        if (best) *best = best_[idx(h, m)];
        return margin_[idx(h, m)];
    }
    // Keeps the arcs with margin <= threshold.
    ArcMask mask(double threshold) const;

  private:
    std::size_t idx(int h, int m) const {
        return static_cast<std::size_t>(h) * static_cast<std::size_t>(n_ + 1) +
               static_cast<std::size_t>(m);
    }
    int n_ = 0;
    std::vector<float> role_, vine_, none_, margin_;
    std::vector<FilterEvent> best_;
};

// The fast margins above against the definition: max over filteringEvents() (for tests).
float naiveMargin(const ArcFilterScorer& s, const ArcFilter& f, int h, int m);

} // namespace prunescope
