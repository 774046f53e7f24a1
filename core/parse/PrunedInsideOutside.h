#pragma once
// Sum-product inside and outside over the span-pruned CKY chart — PrunedInside (Bouchard-Côté,
// Petrov & Klein 2009, Alg. 3) and the PrunedOutside the paper omits — giving E_m[f] (span
// posteriors and expected rule counts under mask m) and exact samples of a derivation from
// P(d | m) ∝ p(d) (sec. 2.3, "a tree t is sampled from the chart computed by PrunedInside").
//
// Contracts (tests/mcmc/test_pruned_inside_outside.cpp):
//   * inside() visits exactly the hyperedges Parser::parse(words, &mask) visits: same pushes.
//   * Z, the posteriors and the rule counts equal explicit enumeration of the mask's derivations;
//     with an all-keep mask they are the exact (unpruned) inside-outside expectations.
//   * sample() draws derivations with probability p(d)/Z_m (checked by enumeration).
//
// Numerics: the inside pass is core/parse/ScaledInside (shared with core/rollout's InsideOutside):
// inside values of cell c are mantissas × 2^S_c with the cell's largest mantissa in [1,2). Outside
// values are stored *posterior-normalised*: Ω(c,x) = ω(c,x)·Z·2^-S_c, so ω·α̃ is a posterior (≤ 1)
// and every hyperedge's posterior is a product of mantissas and one exact power of two — nothing
// under- or overflows at any sentence length.
#include "core/grammar/Grammar.h"
#include "core/parse/Chart.h"
#include "core/parse/Expectations.h"
#include "core/parse/PruningMask.h"
#include "core/parse/ScaledInside.h"
#include "core/treebank/Tree.h"
#include "core/util/Progress.h"
#include "core/util/Random.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <vector>

namespace prunescope {

struct PrunedInsideStats {
    long pushes = 0;      // hyperedges visited (lexical, binary, unary, root): Parser's unit
    int spansKept = 0;    // ||m||_0 over the prunable spans
    bool success = false; // Z_m > 0
    double logZ = -std::numeric_limits<double>::infinity();
};

class PrunedInsideOutside {
  public:
    // Dense per-cell arrays (3 doubles per cell and symbol) may not exceed this: with the
    // 1206-symbol treebank grammar that is about 270 words. Longer sentences get a clear error, not
    // a crash.
    static constexpr std::size_t kMemoryBudget = std::size_t{1} << 30;

    explicit PrunedInsideOutside(const Grammar& g);

    // PrunedInside: the inside pass over the kept cells. Throws std::invalid_argument for an empty
    // sentence, one whose arrays would exceed kMemoryBudget, or a mask of another length; polls
    // `progress` once per chart width
    // (throws Cancelled).
    PrunedInsideStats inside(std::span<const std::string> words, const PruningMask& mask,
                             const Progress& progress = {});
    // PrunedOutside after inside(): E_m[f] into `out` (reset to this sentence; all zero if Z_m =
    // 0).
    void outside(Expectations& out);
    // A derivation drawn from P(d | m) = p(d)/Z_m with the inside values of the last inside(): the
    // binarized tree (grammar labels; a unary X -> Y is a node X over Y). Requires success.
    Tree sample(SplitMix64& rng) const;

    // After outside(): the posterior P(e ∈ d | m) of every hyperedge e of kept cell (i,k), the
    // quantity outside() sums into rule counts, here per anchoring (max-rule decoding reads it):
    //   v.unary(u, p)       unary rule u on top of the cell (the identity path is not a rule);
    //   v.lexical(tag, p)   width 1: the word's lexical entry of that tag;
    //   v.binary(j, ri, p)  width >= 2: binary rule ri with split point j.
    // Sums of p over a cell's hyperedges and its identity paths give the span posterior.
    template <class Visit> void cellPosteriors(int i, int k, Visit&& v) const;
    // After outside(): the posterior of root rule r (g.rootRules[r]) over the whole sentence.
    double rootPosterior(std::size_t r) const;

    const PrunedInsideStats& stats() const { return stats_; }
    const PruningMask& mask() const { return in_.mask(); }
    int length() const { return n_; }

  private:
    static constexpr int kEmpty = ScaledInside<InsideValue>::kEmpty; // scale of an empty cell
    int cell(int i, int k) const { return in_.cell(i, k); }
    int S(int c) const { return in_.scale(c); }
    bool usable(int i, int k) const { return in_.built(i, k); } // kept and built
    void outsideCell(int i, int k, Expectations& out);
    // The pre layer's ω of cell c into oPre (its post ω through the unary layer), calling
    // onUnary(u, posterior) for every unary hyperedge; returns the span's posterior μ.
    template <class OnUnary> double preLayerOutside(int c, double* oPre, OnUnary&& onUnary) const;
    // 2^(S_l + S_r - S_c) of split j of cell (i,k), which turns the children's mantissas into the
    // parent's scale; 0 when a child is not usable (or the factor underflows).
    double splitFactor(int i, int j, int k) const {
        if (!usable(i, j) || !usable(j, k)) return 0.0;
        return std::ldexp(1.0, S(cell(i, j)) + S(cell(j, k)) - S(cell(i, k)));
    }
    Tree samplePost(SplitMix64& rng, int i, int k, std::uint32_t x) const;
    Tree samplePre(SplitMix64& rng, int i, int k, std::uint32_t x) const;
    void clearOutside();

    const Grammar* g_;
    int N_ = 0, n_ = 0;
    PrunedInsideStats stats_;
    // Inside α per kept cell: core/parse/ScaledInside (scale S, pre list, dense post rows).
    ScaledInside<InsideValue> in_;
    std::vector<double> aPre_; // dense [cell*N + x] pre-layer α̃ (the kernel's lists, for sampling)
    std::vector<double> oPost_; // dense [cell*N + x] posterior-normalised outside ω (post layer)
    std::vector<double> oPre_;  // ω of the pre layer of the cell being processed
    mutable std::vector<double> oPreVisit_; // the same for cellPosteriors (kept zero between)
    double zMant_ = 0;                      // Z = zMant_ · 2^S_top
};

template <class OnUnary>
double PrunedInsideOutside::preLayerOutside(int c, double* oPre, OnUnary&& onUnary) const {
    const Grammar& g = *g_;
    const std::size_t N = static_cast<std::size_t>(N_);
    const double* aP = aPre_.data() + c * N;
    const double* oQ = oPost_.data() + c * N;
    double mu = 0;
    for (std::uint32_t li = in_.preRange(c).first; li < in_.preRange(c).second; ++li) {
        const std::uint32_t y = in_.preSym(li);
        double o = oQ[y];
        for (std::uint32_t u = g.unaryByChildBegin[y]; u < g.unaryByChildBegin[y + 1]; ++u) {
            const double ox = oQ[g.unary[u].parent];
            if (ox == 0.0) continue;
            o += in_.unaryProb(u) * ox;
            onUnary(u, in_.unaryProb(u) * ox * aP[y]);
        }
        oPre[y] = o;
        mu += o * aP[y];
    }
    return mu;
}

template <class Visit> void PrunedInsideOutside::cellPosteriors(int i, int k, Visit&& v) const {
    if (!stats_.success || !usable(i, k)) return;
    const Grammar& g = *g_;
    const std::size_t N = static_cast<std::size_t>(N_);
    const int c = cell(i, k);
    if (oPreVisit_.size() < N) oPreVisit_.assign(N, 0.0);
    double* oPre = oPreVisit_.data();
    preLayerOutside(c, oPre, [&](std::uint32_t u, double p) { v.unary(u, p); });
    if (k - i == 1) {
        const auto entries = in_.lexical(i);
        for (std::size_t e = 0; e < entries.size(); ++e) {
            const double p = oPre[entries[e].tag] *
                             std::ldexp(std::exp(static_cast<double>(entries[e].logProb)), -S(c));
            if (p > 0) v.lexical(entries[e].tag, p);
        }
    } else {
        for (int j = i + 1; j < k; ++j) {
            const double f = splitFactor(i, j, k);
            if (f == 0.0) continue;
            const int l = cell(i, j);
            const InsideValue* aR = in_.post(cell(j, k));
            const InsideValue* aL = in_.post(l);
            for (std::uint32_t li = in_.postRange(l).first; li < in_.postRange(l).second; ++li) {
                const std::uint32_t y = in_.postSym(li);
                const double left = f * aL[y].a;
                for (std::uint32_t gi = g.groupsByLeftBegin[y]; gi < g.groupsByLeftBegin[y + 1];
                     ++gi) {
                    const RuleGroup& grp = g.groups[gi];
                    const double edge = left * aR[grp.right].a;
                    if (edge == 0.0) continue;
                    for (std::uint32_t ri = grp.begin; ri < grp.end; ++ri) {
                        const double o = oPre[g.binary[ri].parent];
                        if (o != 0.0) v.binary(j, ri, o * in_.binaryProb(ri) * edge);
                    }
                }
            }
        }
    }
    for (std::uint32_t li = in_.preRange(c).first; li < in_.preRange(c).second; ++li)
        oPre[in_.preSym(li)] = 0.0;
}

} // namespace prunescope
