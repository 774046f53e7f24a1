#pragma once
// Expected binarized recall by inside-outside over the pruned chart (paper sec. 5.3, eq. 2-3,
// footnote 11): Z = Σ_d p̃(d), r̃ = Σ_d p̃(d) r(d), r̄ = r̃/Z, and for every prunable span (i,k)
// the partial derivatives ∂Z/∂m_ik and ∂r̃/∂m_ik, so that one inside and one outside pass give
// the r̄ of every single-bit flip (eq. 3). See docs/rollouts.md.
//
// Numerics: real-space double precision with one binary scale per cell (inside values of cell c
// are stored as mantissas times 2^S_c, outside values as mantissas times 2^T_c, with integer S, T
// chosen so that the cell's largest mantissa is in [1,2)). Rescaling by powers of two is exact,
// so the only rounding is in the mantissa sums and products, which stay near 1: nothing under- or
// overflows at any sentence length, and ratios such as ∂Z/∂m / Z carry no error from the scales.
// Eq. 3 subtracts for a keep→prune flip; when most of Z (or r̃) flows through the span the
// difference loses digits, and gradient() reports the flip as ill-conditioned so that callers can
// recompute it exactly.
#include "core/grammar/Grammar.h"
#include "core/parse/Chart.h"
#include "core/parse/PruningMask.h"
#include "core/parse/ScaledInside.h"
#include "core/treebank/Tree.h"

#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <vector>

namespace prunescope {

// The gold nodes that expected recall counts (footnote 11): the nodes of the binarized gold tree
// except the ROOT node, width-1 nodes and children of unary rules (X -> Y below ROOT). That leaves
// at most one node per span: its topmost label. A derivation recalls the node (i,k,X) when it uses
// the post-layer vertex (i,k,X), i.e. X is the topmost label of the derivation over (i,k).
struct RecallGold {
    static constexpr std::uint32_t kNone = 0xFFFFFFFFu;
    int n = 0;
    int count = 0;                     // G: number of counted gold nodes
    std::vector<std::uint32_t> symbol; // [i*(n+1)+k]: grammar symbol of the node, kNone if no
                                       // node (or its label is not a grammar symbol)
    std::uint32_t at(int i, int k) const {
        return symbol[static_cast<std::size_t>(i) * (n + 1) + k];
    }
};
// gold: the normalized n-ary gold tree; it is binarized as g's training trees were.
RecallGold recallGold(const Grammar& g, const Tree& normalizedGold);

// r̄ = r̃/Z of one mask. r(d) = (counted gold nodes in d)/G; a sentence with G = 0 has r(d) = 1.
// A mask under which no derivation exists (Z = 0) has recall 0.
struct ExpectedRecall {
    bool success = false; // Z > 0
    double logZ = -std::numeric_limits<double>::infinity();
    double recall = 0; // r̄ in [0,1]
};

// ∂Z/∂m_ik and ∂r̃/∂m_ik of one span as natural logs (-inf for 0; r̃ here is G·r̃, the expected
// number of recalled nodes times Z), and whether eq. 3 is ill-conditioned for its flip.
struct SpanGradient {
    double logDZ = -std::numeric_limits<double>::infinity();
    double logDR = -std::numeric_limits<double>::infinity();
    bool illConditioned = false; // keep→prune removes > 1 - kCancellation of Z or of r̃
};

class InsideOutside {
  public:
    // A keep→prune flip whose Z' / Z or r̃' / r̃ falls below this is flagged ill-conditioned:
    // eq. 3's relative rounding error is then about 1e-16 / kCancellation times the chart depth.
    static constexpr double kCancellation = 1e-5;

    explicit InsideOutside(const Grammar& g);

    // Inside pass over the kept cells only: r̄ under mask (the naive reference for rDP).
    ExpectedRecall inside(std::span<const std::string> words, const PruningMask& mask,
                          const RecallGold& gold);

    // Sec. 5.3: the inside pass, the outside pass, and the inside values of the pruned cells as if
    // kept (for the prune→keep direction). After run(), current(), gradient() and flipped() answer.
    void run(std::span<const std::string> words, const PruningMask& mask, const RecallGold& gold);
    ExpectedRecall current() const;
    SpanGradient gradient(int i, int k) const;
    // Eq. 3: r̄ if the bit of prunable span (i,k) were flipped (all other bits as in run()).
    ExpectedRecall flipped(int i, int k) const;

    int length() const { return n_; }

    // Reference mode for tests: the outside pass over every symbol of every cell by the sibling
    // walk alone, as before the pass was restricted to what a derivative uses. Both modes give the
    // same derivatives to rounding (tests/rollout/test_rollouts.cpp, fastOutsideEqualsFull).
    void setFullOutside(bool full) { fullOutside_ = full; }

  private:
    void prepare(std::span<const std::string> words, const PruningMask& mask,
                 const RecallGold& gold);
    // Some split of (i,k) has both children kept and with an inside value (as insideCell requires).
    bool hasKeptChildren(int i, int k) const;
    void insidePass(bool asIfKept);
    // The kernel's cell (i,k) with the gold node of (i,k) counted (footnote 11).
    void insideCell(int i, int k);
    void outsideCell(int i, int k);
    // OutsidePull.cpp: the terms of Ω_c (scratch, units of 2^Tc) from one kept parent and its kept
    // sibling, c being the left (x -> y z) or right (x -> z y) child; walks whichever is shorter,
    // the sibling's symbols or c's needed ones.
    void pullAsLeft(int c, int par, int sib, int Tc);
    void pullAsRight(int c, int par, int sib, int Tc);
    void touch(std::uint32_t y) {
        if (!mark_[y]) mark_[y] = 1, touched_.push_back(y);
    }
    void finishOutside(int i, int k);
    // InsideOutsideNeed.cpp: the symbols whose outside a derivative can use.
    void neededSymbols();
    bool needed(int c, std::uint32_t y) const {
        return (need_[static_cast<std::size_t>(c) * needWords_ + (y >> 6)] >> (y & 63)) & 1u;
    }
    void clearScratch();
    void outsidePass();
    void clearOutside();
    int cell(int i, int k) const { return in_.cell(i, k); }
    int S(int c) const { return in_.scale(c); }
    static constexpr int kEmpty = ScaledInside<InsidePair>::kEmpty; // scale of an empty cell

    const Grammar* g_;
    int N_ = 0;
    int n_ = 0;
    const RecallGold* gold_ = nullptr;
    // Inside (α, ρ) per cell, core/parse/ScaledInside: scale S, pre-layer values in list order,
    // dense post-layer rows (pruned cells hold their as-if-kept values α̂; parents never read them).
    ScaledInside<InsidePair> in_;
    // Outside, per cell: binary scale T (kEmpty = no outside) and the symbols with a nonzero
    // pre-layer outside value.
    std::vector<int> T_;
    std::vector<std::uint32_t> outBegin_, outEnd_, outSym_;
    // Per cell, bitsets of needWords_ words over the post-layer symbols: the symbols whose outside
    // a derivative can use (neededSymbols), and what the cell offers its parents under one flip.
    std::size_t needWords_ = 0;
    std::vector<std::uint64_t> need_, extra_, preBits_;
    std::vector<std::uint8_t> hasExtra_;
    bool fullOutside_ = false;
    // Per cell, in binary rules visited: walking its needed symbols as a left child (their rule
    // groups) or right child (their rules by right child), and walking its built symbols as a
    // sibling on the right (rules by right child) or on the left (rule groups).
    std::vector<long> needLeftCost_, needRightCost_, sibRightCost_, sibLeftCost_;
    // Dense [cell*N + x] arrays, zero outside the lists above (cleared through them).
    std::vector<double> oPre_, pPre_; // outside Ω = ∂Z/∂α_pre and Ψ = ∂r̃/∂α_pre
    // Scratch over the symbols of one cell.
    std::vector<double> sa_, sr_;
    std::vector<std::uint32_t> touched_;
    std::vector<std::uint8_t> mark_;

    // Results: Z = zMant·2^S_top, r̃·G = rMant·2^S_top; per cell ∂Z/∂m = dZ·2^(S_c+T_c), same for
    // dR.
    double zMant_ = 0, rMant_ = 0;
    std::vector<double> dZ_, dR_;
    bool outsideDone_ = false;
};

} // namespace prunescope
