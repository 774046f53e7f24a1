// Change propagation with a work budget (issue 45): a flip whose Alg. 3 propagation passes the
// budget is undone from its undo list and redone by recomputing, with the roll-in parse's code,
// every cell that contains the flipped span; the other cells cannot change. Each changed value and
// witness is recorded in the undo list, so undo() stays bit exact.
#include "core/rollout/ChangePropagator.h"

#include "core/parse/Parser.h"

#include <algorithm>

namespace prunescope {

namespace {
CellChange changeKind(float before, float after) {
    return before == kNegInf  ? CellChange::Appeared
           : after == kNegInf ? CellChange::Vanished
           : after > before   ? CellChange::Rose
                              : CellChange::Fell;
}
} // namespace

// Cell (i,k) as Parser::parse builds it under the current mask (its narrower cells are final): the
// pre layer by fillCell, the post layer by Parser::applyUnaries, exactly as reset() does. Changed
// vertices get an undo entry, an event and their counters' deltas (as the agenda's pops do).
void ChangePropagator::recomputeCell(int i, int k, std::vector<ChangeEvent>& postEvents) {
    const Grammar& g = *g_;
    const int n = chart_.n;
    const int c = chart_.cell(i, k);
    const std::size_t base = static_cast<std::size_t>(c) * N_;
    float* pre = chart_.pre.data() + base;
    float* post = chart_.post.data() + base;
    std::uint32_t* preW = chart_.preWitness.data() + base;
    std::uint32_t* postW = chart_.postWitness.data() + base;
    std::copy(pre, pre + N_, oldPre_.begin());
    std::copy(preW, preW + N_, oldPreW_.begin());
    std::copy(post, post + N_, oldPost_.begin());
    std::copy(postW, postW + N_, oldPostW_.begin());
    std::fill(pre, pre + N_, kNegInf);
    std::fill(preW, preW + N_, kNoWitness);
    const long binary = mask_.keep(i, k) ? fillCell(i, k, pre, preW) : 0;
    Parser::applyUnaries(g, chart_, i, k);
    for (int x = 0; x < N_; ++x) {
        const std::uint32_t v = static_cast<std::uint32_t>(base) + x;
        if (pre[x] != oldPre_[x] || preW[x] != oldPreW_[x]) {
            // The undo entry holds the old value; the users' lists follow the witness.
            if (onBest_[v]) log_.top().bestTouched = true;
            const std::uint32_t e = log_.record(v, oldPre_[x], oldPreW_[x]);
            linkUser(v, oldPreW_[x], false);
            linkUser(v, preW[x], true);
            if (pre[x] != oldPre_[x]) {
                events_.push_back(ChangeEvent{i, k, static_cast<std::uint32_t>(x), 0,
                                              changeKind(oldPre_[x], pre[x]), oldPre_[x], pre[x]});
                if ((oldPre_[x] == kNegInf) != (pre[x] == kNegInf)) {
                    log_[e].finiteChanged = 1;
                    const long sign = pre[x] != kNegInf ? 1 : -1;
                    pushes_ += sign * (g.unaryByChildBegin[x + 1] - g.unaryByChildBegin[x]);
                }
            }
        }
        if (post[x] != oldPost_[x] || postW[x] != oldPostW_[x]) {
            const std::uint32_t pv = postBase_ + v;
            if (onBest_[pv]) log_.top().bestTouched = true;
            const std::uint32_t e = log_.record(pv, oldPost_[x], oldPostW_[x]);
            if (post[x] != oldPost_[x]) {
                postEvents.push_back(ChangeEvent{i, k, static_cast<std::uint32_t>(x), 1,
                                                 changeKind(oldPost_[x], post[x]), oldPost_[x],
                                                 post[x]});
                if ((oldPost_[x] == kNegInf) != (post[x] == kNegInf)) {
                    log_[e].finiteChanged = 1;
                    const long sign = post[x] != kNegInf ? 1 : -1;
                    constituents_ += sign;
                    cellBuilt_[c] += static_cast<int>(sign);
                    if (k - i == n) pushes_ += sign * (rootBegin_[x + 1] - rootBegin_[x]);
                }
            }
        }
    }
    addCellPushes(c, binary - binaryPushes_[c]);
}

void ChangePropagator::recomputeFlip(int i, int k) {
    const Grammar& g = *g_;
    const int n = chart_.n;
    const long pops = lastPops_, recomputes = lastRecomputes_, batched = lastBatched_, work = work_;
    undo(); // the partial propagation; restores the mask, counters and chart bit for bit
    log_.open(UndoLog::Frame{i, k, 0, 0, chart_.rootScore, chart_.rootWitness, pushes_,
                             constituents_, spansKept_, !baseValid_});
    events_.clear();
    changedPost_.clear();
    rootQueued_ = false;
    lastPops_ = pops, lastRecomputes_ = recomputes, lastBatched_ = batched, work_ = work;
    lastFellBack_ = true;
    ++fallbacks_;
    const bool nowKeep = !mask_.keep(i, k);
    mask_.set(i, k, nowKeep);
    spansKept_ += nowKeep ? 1 : -1;
    if (oldPre_.size() != static_cast<std::size_t>(N_)) {
        oldPre_.resize(N_), oldPost_.resize(N_);
        oldPreW_.resize(N_), oldPostW_.resize(N_);
    }
    // The cells containing (i,k), narrower first; per width the pre events before the post ones.
    for (int w = k - i; w <= n; ++w) {
        postEvents_.clear();
        for (int a = std::max(0, k - w); a <= std::min(i, n - w); ++a)
            recomputeCell(a, a + w, postEvents_);
        events_.insert(events_.end(), postEvents_.begin(), postEvents_.end());
    }
    // ROOT as the roll-in parse computes it.
    float best = kNegInf;
    std::uint32_t bestW = kNoWitness;
    const float* top = chart_.postRow(0, n);
    for (std::uint32_t r = 0; r < g.rootRules.size(); ++r) {
        const float s = top[g.rootRules[r].child];
        if (s == kNegInf) continue;
        const float cand = s + g.rootRules[r].logProb;
        if (cand > best) best = cand, bestW = r;
    }
    chart_.rootScore = best, chart_.rootWitness = bestW;
    const UndoLog::Frame& f = log_.top();
    if (f.rootScore != best)
        events_.push_back(
            ChangeEvent{0, n, g.root, 2, changeKind(f.rootScore, best), f.rootScore, best});
    if (best != f.rootScore || bestW != f.rootWitness) log_.top().bestTouched = true;
}

} // namespace prunescope
