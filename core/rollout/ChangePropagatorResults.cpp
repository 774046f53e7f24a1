// Change propagation (sec. 5.2): exact push accounting after a flip and the rCP reward
// ingredients (best tree, per-sentence F1, ||β||_0).
#include "core/rollout/ChangePropagator.h"

#include "core/eval/Evalb.h"
#include "core/parse/Parser.h"
#include "core/util/VectorState.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace prunescope {

void ChangePropagator::addCellPushes(int c, long delta) {
    if (delta == 0) return;
    if (binaryPushes_[c] == kUnknownPushes) { // (a recomputed flip left it unknown) stays unknown
        pushes_ += delta;
        return;
    }
    log_.recordCell(c, binaryPushes_[c]);
    binaryPushes_[c] += delta;
    pushes_ += delta;
}

// After the agenda is empty: the binary pushes change exactly for the (left, right) group hits in
// which a post vertex changed between built and not built, counted once per pair (a pair of two
// changed vertices is counted from its left member), plus the flipped cell itself (builtPushes:
// what fillCell counted when it was rebuilt).
void ChangePropagator::accountBinaryPushes(int fi, int fk, bool nowKept, long builtPushes) {
    const Grammar& g = *g_;
    const int n = chart_.n;
    auto changed = [&](std::uint32_t v) {
        return log_.touched(v) && log_.entryOf(v).finiteChanged;
    };
    for (const std::uint32_t v : changedPost_) {
        const std::uint32_t c = (v - postBase_) / N_, y = (v - postBase_) % N_;
        const int i = cellI_[c], j = cellK_[c];
        const bool yNow = chart_.post[v - postBase_] != kNegInf, yBefore = !yNow;
        for (int k = j + 1; k <= n; ++k) { // as the left child of (i,k)
            if (!mask_.keep(i, k)) continue;
            const std::uint32_t rc = static_cast<std::uint32_t>(chart_.cell(j, k));
            long delta = 0;
            for (std::uint32_t gi = g.groupsByLeftBegin[y]; gi < g.groupsByLeftBegin[y + 1]; ++gi) {
                const RuleGroup& grp = g.groups[gi];
                const std::uint32_t z = postBase_ + rc * N_ + grp.right;
                const bool zNow = chart_.post[z - postBase_] != kNegInf;
                const bool zBefore = changed(z) ? !zNow : zNow;
                delta += (static_cast<long>(yNow && zNow) - static_cast<long>(yBefore && zBefore)) *
                         static_cast<long>(grp.end - grp.begin);
            }
            addCellPushes(chart_.cell(i, k), delta);
        }
        for (int h = 0; h < i; ++h) { // as the right child of (h,j)
            if (!mask_.keep(h, j)) continue;
            const std::uint32_t lc = static_cast<std::uint32_t>(chart_.cell(h, i));
            long delta = 0;
            for (std::uint32_t b = g.binaryByRightBegin[y]; b < g.binaryByRightBegin[y + 1]; ++b) {
                const std::uint32_t z = postBase_ + lc * N_ + g.binary[g.binaryByRight[b]].left;
                if (chart_.post[z - postBase_] == kNegInf || changed(z)) continue;
                delta += yNow ? 1 : -1;
            }
            addCellPushes(chart_.cell(h, j), delta);
        }
    }
    const int fc = chart_.cell(fi, fk);
    if (nowKept) {
        addCellPushes(fc, builtPushes); // from 0: a pruned cell's count is always known
    } else {
        // The cell's children are unchanged by pruning it, so an unknown count is still theirs.
        const long old =
            binaryPushes_[fc] == kUnknownPushes ? scanBinaryPushes(fi, fk) : binaryPushes_[fc];
        log_.recordCell(fc, binaryPushes_[fc]);
        binaryPushes_[fc] = 0;
        pushes_ -= old;
    }
}

void ChangePropagator::setGold(const Tree& normalizedGold) {
    gold_ = normalizedGold;
    hasGold_ = true;
    f1Valid_ = baseValid_ = false;
}

// The witnesses met walking the best derivation from ROOT, in preorder (equal signatures mean
// equal best trees), and optionally the vertex ids visited.
void ChangePropagator::derivationSignature(std::vector<std::uint32_t>& out,
                                           std::vector<std::uint32_t>* vertices) const {
    out.clear();
    out.push_back(chart_.rootWitness);
    if (!chart_.parsed()) return;
    struct Item {
        int i, k;
        std::uint32_t x;
        bool post;
    };
    Item stack[2 * (kMaxSentenceLength + 1) + 8]; // depth-first: at most two pending per level
    int top = 0;
    stack[top++] = Item{0, chart_.n, g_->rootRules[chart_.rootWitness].child, true};
    while (top > 0) {
        const Item it = stack[--top];
        const std::uint32_t v = static_cast<std::uint32_t>(chart_.at(it.i, it.k, it.x));
        if (it.post) {
            const std::uint32_t w = chart_.postWitness[v];
            out.push_back(w);
            if (vertices) vertices->push_back(postBase_ + v);
            stack[top++] = Item{it.i, it.k, w == 0 ? it.x : g_->unary[w - 1].child, false};
            continue;
        }
        const std::uint32_t w = chart_.preWitness[v];
        out.push_back(w);
        if (vertices) vertices->push_back(v);
        if (w == kLexicalWitness) continue;
        const int j = it.i + witnessSplitOffset(w);
        const BinaryRule& r = g_->binary[witnessRule(w)];
        stack[top++] = Item{j, it.k, r.right, true};
        stack[top++] = Item{it.i, j, r.left, true};
    }
}

double ChangePropagator::currentF1() {
    if (!hasGold_) return std::numeric_limits<double>::quiet_NaN();
    if (!log_.hasFrames() && !baseValid_) { // the roll-in: compute once and mark its derivation
        for (const std::uint32_t v : bestVertices_)
            onBest_[v] = 0;
        bestVertices_.clear();
        derivationSignature(signature_, &bestVertices_);
        bestSpan_.assign(static_cast<std::size_t>(chart_.n + 1) * (chart_.n + 1), 0);
        for (const std::uint32_t v : bestVertices_) {
            onBest_[v] = 1;
            const std::uint32_t c = (v >= postBase_ ? v - postBase_ : v) / N_;
            bestSpan_[static_cast<std::size_t>(cellI_[c]) * (chart_.n + 1) + cellK_[c]] = 1;
        }
        baseF1_ = sentenceF1(gold_, bestTree(*g_, chart_, words_));
        baseValid_ = true;
    }
    if (baseValid_ && std::none_of(log_.frames().begin(), log_.frames().end(),
                                   [](const UndoLog::Frame& f) { return f.bestTouched; }))
        return baseF1_;
    derivationSignature(signature_);
    if (f1Valid_ && signature_ == f1Signature_) return f1_;
    f1_ = sentenceF1(gold_, bestTree(*g_, chart_, words_));
    f1Signature_.swap(signature_);
    f1Valid_ = true;
    return f1_;
}

void ChangePropagator::fillResult(FlipResult& r, bool withEvents) const {
    if (withEvents)
        r.events = events_;
    else
        r.events.clear();
    r.success = chart_.parsed();
    r.logProb = r.success ? chart_.rootScore : 0.0;
    r.tree = bestTree(*g_, chart_, words_);
    r.f1 = hasGold_ ? sentenceF1(gold_, r.tree) : std::numeric_limits<double>::quiet_NaN();
    r.constituents = constituents_;
    r.pushes = pushes();
    r.spansKept = spansKept_;
}

FlipResult ChangePropagator::flip(int i, int k) {
    clearUpperVectorState(); // runs on the GUI thread in the explorer (core/util/VectorState.h)
    flipOnly(i, k);
    FlipResult r;
    fillResult(r, true);
    return r;
}

FlipResult ChangePropagator::current() const {
    FlipResult r;
    fillResult(r, false);
    return r;
}

} // namespace prunescope
