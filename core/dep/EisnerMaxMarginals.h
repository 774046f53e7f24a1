#pragma once
// First-order arc max-marginals straight on the Eisner chart (Rush & Petrov 2012 sec. 4): max-plus
// inside-outside over the items of EisnerParser::parse(scores, mask), in four (n + 1)^2 arrays,
// without building the explicit Hypergraph of EisnerHypergraph.h.
// Contract: the same doubles as the generic route arcMaxMarginalsByHypergraph (every arc's value,
// best, pushes): each candidate is summed in the hypergraph's order and maxima are exact. Held by
// tests/dep/test_hypergraph.cpp (memcmp on random scores and masks, and on real sentences).
#include "core/dep/ArcMask.h"
#include "core/dep/Eisner.h"
#include "core/dep/EisnerHypergraph.h"

#include <cstdint>
#include <vector>

namespace prunescope {

class EisnerMaxMarginalSolver {
  public:
    // out.value is (n + 1) x (n + 1), row = head; -inf for arcs no tree under the mask uses.
    // mask == nullptr keeps every arc; its n must equal scores.n.
    void solve(const ArcScores& scores, const ArcMask* mask, bool singleRoot, ArcMaxMarginals& out);

  private:
    // [a * (n + 1) + b]: complete / incomplete items headed by a, ending at b (inside and outside)
    std::vector<double> cin_, iin_, cout_, iout_;
    // Per head h, [sideBegin_[2h], sideBegin_[2h + 1]): its allowed modifiers to the right,
    // ascending; [sideBegin_[2h + 1], sideBegin_[2h + 2]): to the left, descending.
    std::vector<std::uint32_t> sideBegin_;
    std::vector<int> sideMods_;
};

} // namespace prunescope
