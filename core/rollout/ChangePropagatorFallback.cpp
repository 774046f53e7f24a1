// Change propagation with a work budget (issue 45): a flip whose Alg. 3 propagation passes the
// budget is undone from its undo list, the sentence is parsed under the flipped mask by
// Parser::parse into the parser's own chart (bit for bit the chart this class builds, which
// test_rollouts holds), and the cells containing the flipped span (the others cannot change) are
// diffed against it: every changed value and witness gets an undo entry and is installed, so
// undo() stays bit exact.
#include "core/rollout/ChangePropagator.h"

#include "core/parse/Parser.h"

#include <algorithm>
#include <stdexcept>

namespace prunescope {

namespace {
CellChange changeKind(float before, float after) {
    return before == kNegInf  ? CellChange::Appeared
           : after == kNegInf ? CellChange::Vanished
           : after > before   ? CellChange::Rose
                              : CellChange::Fell;
}
} // namespace

ChangePropagator::~ChangePropagator() = default;

void ChangePropagator::setWorkBudget(double budget) {
    if (!(budget >= 0)) throw std::invalid_argument("change propagation work budget must be >= 0");
    workBudget_ = budget;
}

// Installs the parser's cell (i,k) (its entries ascending by symbol) into the dense chart:
// changed vertices get an undo entry, the users' lists, cellBuilt_ and the constituent count
// follow, and every changed value an event (pre ones to events_, post ones to postEvents).
void ChangePropagator::installCell(int i, int k, std::span<const ChartEntry> entries,
                                   std::vector<ChangeEvent>& postEvents) {
    const int c = chart_.cell(i, k);
    const std::size_t base = static_cast<std::size_t>(c) * N_;
    const ChartEntry none{};
    const ChartEntry* e = entries.data();
    const ChartEntry* end = e + entries.size();
    for (int x = 0; x < N_; ++x) {
        const bool built = e != end && e->symbol == static_cast<std::uint32_t>(x);
        const ChartEntry& now = built ? *e++ : none;
        const std::uint32_t v = static_cast<std::uint32_t>(base) + x;
        const float pre = chart_.pre[v], post = chart_.post[v];
        const std::uint32_t preW = chart_.preWitness[v], postW = chart_.postWitness[v];
        if (pre != now.pre || preW != now.preWitness) {
            if (onBest_[v]) log_.top().bestTouched = true;
            const std::uint32_t at = log_.record(v, pre, preW);
            chart_.pre[v] = now.pre;
            setWitness(v, now.preWitness);
            if (pre != now.pre) {
                events_.push_back(ChangeEvent{i, k, static_cast<std::uint32_t>(x), 0,
                                              changeKind(pre, now.pre), pre, now.pre});
                log_[at].finiteChanged = (pre == kNegInf) != (now.pre == kNegInf);
            }
        }
        if (post != now.post || postW != now.postWitness) {
            const std::uint32_t pv = postBase_ + v;
            if (onBest_[pv]) log_.top().bestTouched = true;
            const std::uint32_t at = log_.record(pv, post, postW);
            chart_.post[v] = now.post;
            chart_.postWitness[v] = now.postWitness;
            if (post != now.post) {
                postEvents.push_back(ChangeEvent{i, k, static_cast<std::uint32_t>(x), 1,
                                                 changeKind(post, now.post), post, now.post});
                if ((post == kNegInf) != (now.post == kNegInf)) {
                    log_[at].finiteChanged = 1;
                    const int sign = now.post != kNegInf ? 1 : -1;
                    cellBuilt_[c] += sign;
                    constituents_ += sign;
                }
            }
        }
    }
}

void ChangePropagator::recomputeFlip(int i, int k) {
    const Grammar& g = *g_;
    const int n = chart_.n;
    const long pops = lastPops_, recomputes = lastRecomputes_, batched = lastBatched_, work = work_;
    undo(); // the partial propagation; restores the mask, counters and chart bit for bit
    // Parsed first: if the parser throws (its memory budget), the flip is simply not made.
    if (!parser_) parser_ = std::make_unique<Parser>(g);
    PruningMask flipped = mask_;
    flipped.flip(i, k);
    const ParseStats st = parser_->parse(words_, &flipped);
    const Chart& fresh = parser_->chart();
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
    // The cells containing (i,k), narrower first; per width the pre events before the post ones.
    for (int w = k - i; w <= n; ++w) {
        postEvents_.clear();
        for (int a = std::max(0, k - w); a <= std::min(i, n - w); ++a) {
            installCell(a, a + w, fresh.entries(a, a + w), postEvents_);
            // The parser does not report per-cell pushes: a kept cell's become unknown (counted
            // again if a later flip prunes it), a pruned cell's are 0.
            if (!trackPushes_) continue;
            const int c = chart_.cell(a, a + w);
            const long now = mask_.keep(a, a + w) ? kUnknownPushes : 0;
            if (binaryPushes_[c] != now)
                log_.recordCell(c, binaryPushes_[c]), binaryPushes_[c] = now;
        }
        events_.insert(events_.end(), postEvents_.begin(), postEvents_.end());
    }
    chart_.rootScore = fresh.rootScore, chart_.rootWitness = fresh.rootWitness;
    const UndoLog::Frame& f = log_.top();
    if (f.rootScore != fresh.rootScore)
        events_.push_back(ChangeEvent{0, n, g.root, 2, changeKind(f.rootScore, fresh.rootScore),
                                      f.rootScore, fresh.rootScore});
    if (fresh.rootScore != f.rootScore || fresh.rootWitness != f.rootWitness)
        log_.top().bestTouched = true;
    pushes_ = st.pushes;
}

} // namespace prunescope
