#pragma once
// Why an arc filter filters what it does, for one sentence (Cherry & Bergsma 2011, eq. 1 and
// Figure 1): per arc the event that filtered it (the arg max of Z_a) and its margin, on demand
// every event of Z_a with its score; per token the roles detected at the threshold; the sentence's
// coverage (gold arcs kept / gold arcs) and reduction (arcs filtered / n^2). Shown by the
// dependency view (app/gui/dep/DepExplorerPanel.h); tests/filters/test_filter_explanation.cpp.
//
// A token role r of token t is "detected" iff it filters at least one arc by itself:
//   exists arc a = (h, m) with roleFilters(r, t, h, m) and  w.Phi(r_t) - w.Phi(None_a) > threshold.
// For an independent filter (None's weights 0) that is  w.Phi(r_t) > threshold  whenever r_t
// filters any arc at all.
#include "core/filters/ArcFilter.h"

#include <utility>
#include <vector>

namespace prunescope {

struct ArcFilterExplanation {
    int n = 0;
    double threshold = 0;
    ArcMask mask;                      // = ArcFilterScorer(f, s).mask(threshold)
    std::vector<FilterEvent> maxEvent; // per arc [h * (n + 1) + m]: arg max of Z_a
    std::vector<float> margin;         // per arc: f(Z_a) - none(a); -inf if Z_a is empty
    std::vector<std::vector<FilterEventKind>>
        roles; // per token [0, n] (row 0 empty): detected roles
    // Coverage and reduction of this sentence (gold counts 0 without a tree).
    long goldArcs = 0, goldKept = 0, filtered = 0, totalArcs = 0;

    std::size_t idx(int h, int m) const {
        return static_cast<std::size_t>(h) * static_cast<std::size_t>(n + 1) +
               static_cast<std::size_t>(m);
    }
    bool isFiltered(int h, int m) const { return !mask.keep(h, m); }
    const FilterEvent& maxEventAt(int h, int m) const { return maxEvent[idx(h, m)]; }
};

ArcFilterExplanation explainArcFilter(const ArcFilter& f, const DepSentence& s, double threshold);
inline ArcFilterExplanation explainArcFilter(const ArcFilter& f, const DepSentence& s) {
    return explainArcFilter(f, s, f.threshold);
}

// Every event of Z_a (filteringEvents with the filter's Root/Vine switches) with its score
// w.Phi(z), then None_a with its score last; O(n) per arc (for tooltips).
std::vector<std::pair<FilterEvent, float>>
arcFilterEventScores(const ArcFilter& f, const ArcFilterScorer& s, int h, int m);

} // namespace prunescope
