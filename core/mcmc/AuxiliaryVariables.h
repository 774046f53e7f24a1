#pragma once
// The auxiliary variables of randomized pruning (Bouchard-Côté, Petrov & Klein 2009, sec. 2.3 and
// 3.1-3.2): one binary variable A_ι = [ι is a constituent of T] per prunable span ι, the assignment
// vector a, the selection vector s, the deterministic mask m(s, a) of Alg. 2, and the selection
// chain k* of sec. 3.2. docs/randomized-pruning.md gives the reading of the garbled formulas.
//
// Conventions. Spans are the prunable ones (1 < k-i < n): width-1 spans and the whole sentence
// are constituents of every tree, so their variables carry no information. Following the paper, a
// *selected* variable (ι ∈ s) is conditioned on and constrains the mask; an *excluded* one is
// resampled with the tree. s = ∅ prunes nothing (one iteration is exact inside-outside); s = all
// spans fixes the bracketing of the current tree.
#include "core/parse/PruningMask.h"
#include "core/treebank/Tree.h"
#include "core/util/Random.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace prunescope {

using SpanList = std::vector<std::pair<int, int>>;

// Whether spans (i,k) and (a,b) cross: they overlap and neither contains the other.
inline bool spansCross(int i, int k, int a, int b) {
    return (i < a && a < k && k < b) || (a < i && i < b && b < k);
}

// The assignment vector of a tree: [i*(n+1)+k] = 1 (+) for each prunable span of t, 0 (−)
// otherwise.
std::vector<std::uint8_t> assignmentOf(const Tree& t);

// Alg. 2, CreateMask(s, a): a selected span with a = − is pruned; every span crossing a selected
// span with a = + is pruned ("all of the spans κ such that neither ι ⊆ κ nor κ ⊆ ι"); every other
// span is kept. When a is the assignment of a tree t, t survives the mask, and the trees that do
// are exactly those that agree with a on every selected variable.
PruningMask createMask(int n, const SpanList& selected,
                       const std::vector<std::uint8_t>& assignment);

// |s| = ⌊f·|M'|⌋ with the selection fraction f (the paper's 2/3 by default).
enum class SelectionKind {
    Rotate, // sec. 3.2: s' = (M' \ s) ∪ R, R ⊂ s uniform with |R| = 2|s| − |M'| (needs f >= 1/2)
    Independent, // a fresh uniform subset of M' of size |s| every iteration (a mixture of kernels)
    None,        // s = ∅ always: nothing is pruned, every iteration is exact inside-outside
};
const char* selectionName(SelectionKind k);               // "rotate", "independent", "none"
SelectionKind selectionFromName(const std::string& name); // throws std::invalid_argument

// k*: a Markov chain on selection vectors, supported on subsets of M' (the support, spans a
// simpler model believes likely). It never looks at the assignment vector (sec. 3.2: adaptive
// schemes would not leave the posterior invariant).
class SelectionChain {
  public:
    SelectionChain() = default;
    // Throws std::invalid_argument for a fraction outside (0, 1), or below 1/2 for Rotate.
    SelectionChain(SelectionKind kind, SpanList support, double fraction = 2.0 / 3.0);

    // The initial selection: a uniform subset of M' of size ⌊f·|M'|⌋ (empty for None).
    void initialize(SplitMix64& rng);
    // One transition of k*.
    void next(SplitMix64& rng);

    SelectionKind kind() const { return kind_; }
    const SpanList& support() const { return support_; }
    const SpanList& selected() const { return selected_; } // in support order
    // ⌊f·|M'|⌋, at most |M'| − 1 (0 for None, and whenever |M'| < 2), so that every variable is
    // excluded infinitely often (the paper's irreducibility condition, sec. 3.1).
    int selectionSize() const;
    double fraction() const { return fraction_; }

  private:
    void drawUniform(SplitMix64& rng);
    void rebuildSelected();
    SelectionKind kind_ = SelectionKind::None;
    double fraction_ = 2.0 / 3.0;
    SpanList support_;
    std::vector<std::uint8_t> in_; // per support index: selected
    SpanList selected_;
};

} // namespace prunescope
