// Change propagation (sec. 5.2, Alg. 3 lines 18-22): RECOMPUTE of the pending pre vertices of one
// width, batched per cell where many of a cell's vertices are pending.
#include "core/rollout/ChangePropagator.h"

namespace prunescope {

// Called when the agenda reaches the pre layer of a width, before any of its vertices is popped.
// All their inputs (post vertices of narrower spans) are final then and nothing relaxes a pre
// vertex of this width until the layer is done, so RECOMPUTE may run now instead of at each pop.
// A cell whose pending vertices have many incoming rules in total is refilled once with the
// parser's left-child loop (fillCell: same expressions, same order, so the same value and
// smallest-key witness for every symbol as recompute()); its pending vertices take that result.
// Others are left for recompute() at their pop. Returns the number of vertices recomputed here.
long ChangePropagator::recomputeBatched(const std::vector<std::uint32_t>& bucket) {
    const Grammar& g = *g_;
    pendingCells_.clear();
    for (const std::uint32_t v : bucket) {
        if (chart_.preWitness[v] != kPending) continue;
        const std::uint32_t c = v / N_, x = v % N_;
        if (pendingRules_[c] == 0) pendingCells_.push_back(c);
        pendingRules_[c] += 1 + g.binaryByParentBegin[x + 1] - g.binaryByParentBegin[x];
    }
    long done = 0;
    for (const std::uint32_t c : pendingCells_) {
        const bool batch = pendingRules_[c] >= batchRules_ && mask_.keep(cellI_[c], cellK_[c]);
        pendingRules_[c] = 0;
        if (!batch) continue;
        work_ += fillCell(cellI_[c], cellK_[c], scratch_.data(), scratchW_.data());
        const std::uint32_t base = c * N_;
        for (int x = 0; x < N_; ++x) {
            if (chart_.preWitness[base + x] == kPending) {
                chart_.pre[base + x] = scratch_[x];
                setWitness(base + x, scratchW_[x]);
                ++done;
            }
            scratch_[x] = kNegInf;
            scratchW_[x] = kNoWitness;
        }
    }
    lastBatched_ += done;
    return done;
}

} // namespace prunescope
