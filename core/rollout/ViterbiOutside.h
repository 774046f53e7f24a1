#pragma once
// Max-product (Viterbi) outside scores of a parsed chart under its pruning mask, in double
// precision: the best score of a completion from ROOT down to each vertex (i,k,x), post and pre
// layer. ChangePropagator::probeFlip (paper sec. 5.2; docs/rollouts.md, "The rollout fast path")
// uses them to prove that a prune→keep flip cannot change the best tree. Computed top-down, each
// cell pulling from its kept parents whose sibling is kept and built; pruned cells get an outside
// too but pass nothing down. Only the rows of cells with an outside are written.
#include "core/grammar/Grammar.h"
#include "core/parse/DenseChart.h"
#include "core/parse/PruningMask.h"
#include "core/rollout/UninitializedBuffer.h"

#include <cstdint>
#include <span>
#include <vector>

namespace prunescope {

class ViterbiOutside {
  public:
    // chart: values of every cell under mask; cellBuilt[c]: built post symbols of cell c.
    void compute(const Grammar& g, const DenseChart& chart, const PruningMask& mask,
                 std::span<const int> cellBuilt);
    bool valid() const { return valid_; }
    void invalidate() { valid_ = false; }
    // Whether cell c lies on some whole derivation's frame (else every outside of it is -inf).
    bool has(std::size_t cell) const { return cell_[cell] != 0; }
    // Outside of the vertex cell*N + x (only for cells with has(cell)).
    double pre(std::size_t at) const { return pre_[at]; }
    double post(std::size_t at) const { return post_[at]; }
    const double* postRow(std::size_t cell) const { return post_.data.get() + cell * numSymbols_; }

  private:
    std::size_t numSymbols_ = 0;
    bool valid_ = false;
    UninitializedBuffer<double> post_, pre_;      // [cell*N + x], rows of cells with cell_ set
    std::vector<std::uint8_t> cell_;              // per cell: has an outside
    std::vector<std::uint32_t> listBegin_, list_; // built post symbols per cell
};

} // namespace prunescope
