// Change propagation for rCP rollouts (sec. 5.2 and the runtime-only variant the paper suggests
// at the end of sec. 5.3): when a flip provably cannot change the best tree, propagate only which
// constituents are built (||β||_0); otherwise run the exact Alg. 3.
#include "core/rollout/ChangePropagator.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace prunescope {

namespace {
constexpr double kNegInfD = -std::numeric_limits<double>::infinity();
} // namespace

// Finiteness-only RECOMPUTE: any incoming hyperedge whose children are all built keeps the vertex
// built (its value is then left as an upper bound; the flip is undone before anyone reads it).
void ChangePropagator::findSupport(std::uint32_t v, int i, int k, int layer) {
    const Grammar& g = *g_;
    const std::uint32_t x = (layer == 0 ? v : v - postBase_) % N_;
    if (layer == 0) {
        if (mask_.keep(i, k)) {
            const ParentRule* rb = parentRules_.data() + g.binaryByParentBegin[x];
            const ParentRule* re = parentRules_.data() + g.binaryByParentBegin[x + 1];
            for (int j = i + 1; j < k; ++j) {
                if (cellBuilt_[chart_.cell(i, j)] == 0 || cellBuilt_[chart_.cell(j, k)] == 0) continue;
                const float* L = chart_.postRow(i, j);
                const float* R = chart_.postRow(j, k);
                for (const ParentRule* pr = rb; pr != re; ++pr)
                    if (L[pr->left] != kNegInf && R[pr->right] != kNegInf) {
                        setWitness(v, (static_cast<std::uint32_t>(j - i) << 20) | pr->rule);
                        return;
                    }
            }
        }
    } else {
        const float* pre = chart_.preRow(i, k);
        if (pre[x] != kNegInf) return setWitness(v, 0);
        for (std::uint32_t b = g.unaryByParentBegin[x]; b < g.unaryByParentBegin[x + 1]; ++b)
            if (pre[g.unary[g.unaryByParent[b]].child] != kNegInf) return setWitness(v, g.unaryByParent[b] + 1);
    }
    value(v) = kNegInf;
    setWitness(v, kNoWitness);
}

// Max-product outside scores of the current chart (double), top-down, pulled from kept parents with
// a kept, built sibling; pruned cells get theirs too but pass nothing down. Only the rows of cells
// that have an outside at all are written (outCell_); the others read as -inf.
void ChangePropagator::computeOutside() {
    const Grammar& g = *g_;
    const int n = chart_.n, cells = chart_.numCells();
    const std::size_t N = N_;
    outPost_.ensure(static_cast<std::size_t>(cells) * N);
    outPre_.ensure(static_cast<std::size_t>(cells) * N);
    outCell_.assign(cells, 0);
    listBegin_.assign(cells + 1, 0); // built post symbols per cell
    list_.clear();
    for (int c = 0; c < cells; ++c) {
        if (cellBuilt_[c] > 0) {
            const float* row = chart_.post.data() + c * N;
            for (std::uint32_t x = 0; x < N; ++x)
                if (row[x] != kNegInf) list_.push_back(x);
        }
        listBegin_[c + 1] = static_cast<std::uint32_t>(list_.size());
    }
    auto finish = [&](int c) { // outPre = max(outPost, unary parents)
        const double* op = outPost_.data.get() + c * N;
        double* oq = outPre_.data.get() + c * N;
        for (std::uint32_t y = 0; y < N; ++y) {
            double best = op[y];
            for (std::uint32_t u = g.unaryByChildBegin[y]; u < g.unaryByChildBegin[y + 1]; ++u)
                best = std::max(best, op[g.unary[u].parent] + g.unary[u].logProb);
            oq[y] = best;
        }
        outCell_[c] = 1;
    };
    const int top = chart_.cell(0, n);
    for (std::uint32_t x = 0; x < N; ++x) outPost_[top * N + x] = g.rootLogProb[x];
    finish(top);
    for (int w = n - 1; w >= 2; --w)
        for (int i = 0; i + w <= n; ++i) {
            const int j = i + w, c = chart_.cell(i, j);
            double* out = outPost_.data.get() + c * N;
            bool any = false;
            for (int k = j + 1; k <= n; ++k) { // left child of (i,k), sibling (j,k)
                const int par = chart_.cell(i, k), sib = chart_.cell(j, k);
                if (!mask_.keep(i, k) || !mask_.keep(j, k) || !outCell_[par] || cellBuilt_[sib] == 0) continue;
                if (!any) std::fill(out, out + N, kNegInfD), any = true;
                const double* oq = outPre_.data.get() + par * N;
                for (std::uint32_t li = listBegin_[sib]; li < listBegin_[sib + 1]; ++li) {
                    const std::uint32_t z = list_[li];
                    const double rz = chart_.post[sib * N + z];
                    for (std::uint32_t b = g.binaryByRightBegin[z]; b < g.binaryByRightBegin[z + 1]; ++b) {
                        const BinaryRule& r = g.binary[g.binaryByRight[b]];
                        out[r.left] = std::max(out[r.left], oq[r.parent] + r.logProb + rz);
                    }
                }
            }
            for (int h = 0; h < i; ++h) { // right child of (h,j), sibling (h,i)
                const int par = chart_.cell(h, j), sib = chart_.cell(h, i);
                if (!mask_.keep(h, j) || !mask_.keep(h, i) || !outCell_[par] || cellBuilt_[sib] == 0) continue;
                if (!any) std::fill(out, out + N, kNegInfD), any = true;
                const double* oq = outPre_.data.get() + par * N;
                for (std::uint32_t li = listBegin_[sib]; li < listBegin_[sib + 1]; ++li) {
                    const std::uint32_t z = list_[li];
                    const double lz = chart_.post[sib * N + z];
                    for (std::uint32_t gi = g.groupsByLeftBegin[z]; gi < g.groupsByLeftBegin[z + 1]; ++gi) {
                        const RuleGroup& grp = g.groups[gi];
                        for (std::uint32_t r = grp.begin; r < grp.end; ++r)
                            out[grp.right] = std::max(out[grp.right], oq[g.binary[r].parent] + g.binary[r].logProb + lz);
                    }
                }
            }
            if (any) finish(c);
        }
    outsideValid_ = true;
}

// The best score of a derivation through the pruned cell (i,k) if it were kept: its would-be
// post values (the parser's own float arithmetic) plus their outside scores.
double ChangePropagator::bestThrough(int i, int k) {
    const Grammar& g = *g_;
    fillCell(i, k, scratch_.data(), scratchW_.data());
    if (!outCell_[chart_.cell(i, k)]) { // on no whole derivation
        for (int y = 0; y < N_; ++y) scratch_[y] = kNegInf, scratchW_[y] = kNoWitness;
        return kNegInfD;
    }
    const double* op = outPost_.data.get() + static_cast<std::size_t>(chart_.cell(i, k)) * N_;
    double best = kNegInfD;
    for (int y = 0; y < N_; ++y) {
        const float s = scratch_[y];
        if (s == kNegInf) continue;
        best = std::max(best, op[y] + s);
        for (std::uint32_t u = g.unaryByChildBegin[y]; u < g.unaryByChildBegin[y + 1]; ++u)
            best = std::max(best, op[g.unary[u].parent] + static_cast<float>(s + g.unary[u].logProb));
    }
    for (int y = 0; y < N_; ++y) scratch_[y] = kNegInf, scratchW_[y] = kNoWitness;
    return best;
}

ChangePropagator::Probe ChangePropagator::probeFlip(int i, int k) {
    if (!frames_.empty()) throw std::logic_error("ChangePropagator::probeFlip needs the roll-in state (no pending flips)");
    if (!hasGold_) throw std::logic_error("ChangePropagator::probeFlip needs a gold tree");
    const int n = chart_.n;
    if (!PruningMask::prunable(n, i, k))
        throw std::invalid_argument("span (" + std::to_string(i) + "," + std::to_string(k) + ") is not prunable");
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
        if (!outsideValid_) computeOutside();
        through_ = bestThrough(i, k);
        const double root = chart_.rootScore;
        margin_ = 1e-6 * n * (std::abs(root) + std::abs(through_ == kNegInfD ? 0.0 : through_) + 10.0);
        full = through_ != kNegInfD && (root == kNegInfD || through_ >= root - margin_);
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
    if (lazy) {
        si_ = i, sk_ = k;
        ++probeId_;
        exactRoot();
        f1Valid_ = false;
    }
    if (full) p.f1 = currentF1();
    undo();
    return p;
}

} // namespace prunescope
