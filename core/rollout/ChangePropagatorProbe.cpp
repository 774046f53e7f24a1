// Change propagation for rCP rollouts (sec. 5.2 and the runtime-only variant the paper suggests
// at the end of sec. 5.3): when a flip provably cannot change the best tree, propagate only which
// constituents are built (||β||_0); otherwise run the exact Alg. 3.
#include "core/rollout/ChangePropagator.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace prunescope {

// Finiteness-only RECOMPUTE: any incoming hyperedge whose children are all built keeps the vertex
// built (its value is then left as an upper bound; the flip is undone before anyone reads it).
void ChangePropagator::findSupport(std::uint32_t v, int i, int k, int layer) {
    const Grammar& g = *g_;
    const std::uint32_t x = (layer == 0 ? v : v - postBase_) % N_;
    ++work_;
    if (layer == 0) {
        bool found = false;
        if (mask_.keep(i, k))
            forEachBinaryEdge(i, k, x, [&](int j, const ParentRule& pr, float, float) {
                setWitness(v, packBinaryWitness(j - i, pr.rule));
                return found = true;
            });
        if (found) return;
    } else {
        const float* pre = chart_.preRow(i, k);
        if (pre[x] != kNegInf) return setWitness(v, 0);
        for (std::uint32_t b = g.unaryByParentBegin[x]; b < g.unaryByParentBegin[x + 1]; ++b)
            if (pre[g.unary[g.unaryByParent[b]].child] != kNegInf)
                return setWitness(v, g.unaryByParent[b] + 1);
    }
    value(v) = kNegInf;
    setWitness(v, kNoWitness);
}

// The best score of a derivation through the pruned cell (i,k) if it were kept: its would-be
// post values (the parser's own float arithmetic) plus their outside scores.
double ChangePropagator::bestThrough(int i, int k) {
    const Grammar& g = *g_;
    fillCell(i, k, scratch_.data(), scratchW_.data());
    if (!outside_.has(chart_.cell(i, k))) { // on no whole derivation
        for (int y = 0; y < N_; ++y)
            scratch_[y] = kNegInf, scratchW_[y] = kNoWitness;
        return kNegInfD;
    }
    const double* op = outside_.postRow(chart_.cell(i, k));
    double best = kNegInfD;
    for (int y = 0; y < N_; ++y) {
        const float s = scratch_[y];
        if (s == kNegInf) continue;
        best = std::max(best, op[y] + s);
        for (std::uint32_t u = g.unaryByChildBegin[y]; u < g.unaryByChildBegin[y + 1]; ++u)
            best =
                std::max(best, op[g.unary[u].parent] + static_cast<float>(s + g.unary[u].logProb));
    }
    for (int y = 0; y < N_; ++y)
        scratch_[y] = kNegInf, scratchW_[y] = kNoWitness;
    return best;
}

ChangePropagator::Probe ChangePropagator::probeFlip(int i, int k) {
    if (log_.hasFrames())
        throw std::logic_error(
            "ChangePropagator::probeFlip needs the roll-in state (no pending flips)");
    if (!hasGold_) throw std::logic_error("ChangePropagator::probeFlip needs a gold tree");
    const int n = chart_.n;
    if (!PruningMask::prunable(n, i, k))
        throw std::invalid_argument("span (" + std::to_string(i) + "," + std::to_string(k) +
                                    ") is not prunable");
    const double baseF1 = currentF1(); // also marks the roll-in's best spans
    bool full;
    if (mask_.keep(i, k)) {
        // Pruning lowers values only. A span off the best derivation leaves that derivation, its
        // values and (the set of maxima only shrinking) its smallest-key witnesses intact.
        full = bestSpan_[static_cast<std::size_t>(i) * (n + 1) + k] != 0;
    } else {
        // Keeping adds derivations, all through (i,k). If the best of them is below the best parse
        // by more than the float rounding of CKY sums (< 4n ops, each off by <= 2^-24 of at most
        // |score|), nothing on the best derivation can change.
        if (!outside_.valid()) outside_.compute(*g_, chart_, mask_, cellBuilt_);
        const double through = bestThrough(i, k);
        const double root = chart_.rootScore;
        margin_ =
            1e-6 * n * (std::abs(root) + std::abs(through == kNegInfD ? 0.0 : through) + 10.0);
        full = through != kNegInfD && (root == kNegInfD || through >= root - margin_);
    }
    Probe p{baseF1, 0, full};
    // keep→prune on the best derivation: finiteness-only propagation, then the exact best tree on
    // demand (ChangePropagatorLazy.cpp). prune→keep that may win: Alg. 3 with rises filtered.
    const bool lazy = full && mask_.keep(i, k);
    boolMode_ = !full || lazy;
    filterRises_ = full && !lazy;
    try {
        flipOnly(i, k);
    } catch (...) {
        boolMode_ = filterRises_ = false;
        throw;
    }
    boolMode_ = filterRises_ = false;
    p.constituents = constituents_;
    if (lazy && !lastFellBack_) { // (recomputed past the budget: the chart is exact already)
        si_ = i, sk_ = k;
        ++probeId_;
        lazyOverBudget_ = false;
        exactRoot(); // its work counts against the flip's budget too
        f1Valid_ = false;
        if (lazyOverBudget_) recomputeFlip(i, k);
    }
    if (full) p.f1 = currentF1();
    undo();
    return p;
}

} // namespace prunescope
