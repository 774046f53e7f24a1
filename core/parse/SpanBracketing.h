#pragma once
// Whether the spans a pruning mask keeps (Alg. 1's m) admit a binary bracketing of the sentence.
// Every derivation of the pruned chart is one (its binary nodes are kept spans), so without one Z =
// 0 whatever the grammar; the DP rollouts use it to answer keep→prune flips that leave no parse
// (docs/rollouts.md).
#include "core/parse/PruningMask.h"

#include <cstdint>
#include <vector>

namespace prunescope {

class SpanBracketing {
  public:
    // True when some binary tree over (0, n) has every node a span the mask keeps (width-1 spans
    // and the whole sentence are always kept). An empty sentence has none. O(n² ⌈(n+1)/64⌉) word
    // operations, bottom-up by width; the scratch is reused, so calls after the first for the same
    // n do not allocate.
    bool exists(const PruningMask& mask);

  private:
    int n_ = -1, words_ = 0;
    // Bracketable spans found so far: startsAt_[i] has bit k for (i,k), endsAt_[k] has bit i for
    // (i,k).
    std::vector<std::uint64_t> startsAt_, endsAt_;
};

} // namespace prunescope
