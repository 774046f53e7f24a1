// Change propagation (paper sec. 5.2, Alg. 3) with an undo list (footnote 5).
#include "core/rollout/ChangePropagator.h"

#include "core/parse/Parser.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace prunescope {

std::uint32_t ChangePropagator::touch(std::uint32_t v) {
    if (log_.touched(v)) return log_.indexOf(v);
    if (onBest_[v]) log_.top().bestTouched = true;
    return log_.record(v, value(v), witness(v));
}

void ChangePropagator::enqueue(std::uint32_t v, int width, int layer) {
    UndoLog::Entry& e = log_[touch(v)];
    if (e.queued) return;
    e.queued = 1;
    buckets_[2 * width + layer].push_back(v);
}

// Offers the hyperedge `key` with score s to head (Alg. 3 lines 11-17), keeping the CKY's witness:
// the smallest key among the maxima.
void ChangePropagator::relax(std::uint32_t head, float s, std::uint32_t key, int width, int layer) {
    ++work_;
    float& hv = value(head);
    const std::uint32_t hw = witness(head);
    if (boolMode_) { // only built / not built matters: a vanished witness child, or an appearance
        if (s == kNegInf) {
            if (hw == key) enqueue(head, width, layer), setWitness(head, kPending);
        } else if (hv == kNegInf && hw != kPending) {
            enqueue(head, width, layer);
            hv = s;
            setWitness(head, key);
        }
        return;
    }
    if (hw == kPending) { // will be recomputed; a strictly larger value is safe to take now
        if (s > hv) hv = s, setWitness(head, key);
        return;
    }
    if (s > hv) {
        if (filterRises_ && hv != kNegInf) { // an irrelevant rise (see probeFlip) is not applied
            const std::uint32_t at = layer == 0 ? head : head - postBase_;
            if (!outside_.has(at / N_)) return;
            const double out = layer == 0 ? outside_.pre(at) : outside_.post(at);
            if (s + out < static_cast<double>(log_.top().rootScore) - margin_) return;
        }
        enqueue(head, width, layer);
        hv = s;
        setWitness(head, key);
    } else if (s == hv) {
        if (s != kNegInf && key < hw)
            touch(head), setWitness(head, key); // same value, the CKY's tie-break
    } else if (hw == key) {
        enqueue(head, width, layer);
        setWitness(head, kPending);
    }
}

// Each post vertex keeps two intrusive lists of the pre vertices whose witness uses it as the
// left / right child, so that a decrease reaches exactly the heads of Alg. 3 line 15.
void ChangePropagator::linkUser(std::uint32_t v, std::uint32_t w, bool insert) {
    if (w >= kPending) return; // pending, lexical or none
    const std::uint32_t c = v / N_;
    const int i = cellI_[c], k = cellK_[c], j = i + witnessSplitOffset(w);
    const BinaryRule& r = g_->binary[witnessRule(w)];
    const std::uint32_t child[2] = {static_cast<std::uint32_t>(chart_.cell(i, j)) * N_ + r.left,
                                    static_cast<std::uint32_t>(chart_.cell(j, k)) * N_ + r.right};
    for (int side = 0; side < 2; ++side) {
        UserLinks& l = links_[2 * static_cast<std::size_t>(v) + side];
        std::uint32_t& head = firstUser_[2 * static_cast<std::size_t>(child[side]) + side];
        if (insert) {
            l.prev = kNil, l.next = head;
            if (head != kNil) links_[2 * static_cast<std::size_t>(head) + side].prev = v;
            head = v;
        } else {
            if (l.prev != kNil)
                links_[2 * static_cast<std::size_t>(l.prev) + side].next = l.next;
            else
                head = l.next;
            if (l.next != kNil) links_[2 * static_cast<std::size_t>(l.next) + side].prev = l.prev;
        }
    }
}

void ChangePropagator::setWitness(std::uint32_t v, std::uint32_t w) {
    std::uint32_t& cur = witness(v);
    if (v < postBase_) {
        linkUser(v, cur, false);
        linkUser(v, w, true);
    }
    cur = w;
}

void ChangePropagator::relaxRoot(float s, std::uint32_t key) {
    ++work_;
    float& hv = chart_.rootScore;
    std::uint32_t& hw = chart_.rootWitness;
    if (boolMode_) {
        if (s == kNegInf) {
            if (hw == key) rootQueued_ = true, hw = kPending;
        } else if (hv == kNegInf && hw != kPending) {
            rootQueued_ = true, hv = s, hw = key;
        }
        return;
    }
    if (hw == kPending) {
        if (s > hv) hv = s, hw = key;
        return;
    }
    if (s > hv) {
        rootQueued_ = true;
        hv = s, hw = key;
    } else if (s == hv) {
        if (s != kNegInf && key < hw) hw = key;
    } else if (hw == key) {
        rootQueued_ = true;
        hw = kPending;
    }
}

// RECOMPUTE (Alg. 3 lines 18-22): max over incoming hyperedges in the CKY's order.
void ChangePropagator::recompute(std::uint32_t v, int i, int k, int layer) {
    const Grammar& g = *g_;
    const std::uint32_t x = (layer == 0 ? v : v - postBase_) % N_;
    float best = kNegInf;
    std::uint32_t w = kNoWitness;
    if (layer == 0) {
        if (mask_.keep(i, k))
            forEachBinaryEdge(i, k, x, [&](int j, const ParentRule& pr, float l, float r) {
                const float cand = binaryEdgeScore(l, r, pr.logProb);
                if (cand > best) best = cand, w = packBinaryWitness(j - i, pr.rule);
                ++work_;
                return false;
            });
    } else {
        const float* pre = chart_.preRow(i, k);
        best = pre[x];
        w = best == kNegInf ? kNoWitness : 0u;
        for (std::uint32_t b = g.unaryByParentBegin[x]; b < g.unaryByParentBegin[x + 1]; ++b) {
            const std::uint32_t r = g.unaryByParent[b];
            const float s = pre[g.unary[r].child];
            if (s == kNegInf) continue;
            ++work_;
            const float cand = s + g.unary[r].logProb;
            if (cand > best) best = cand, w = r + 1;
        }
    }
    value(v) = best;
    setWitness(v, w);
}

// Out(pre(i,k,x)): the identity and the unary rules into the post layer of the same cell.
void ChangePropagator::propagatePre(int i, int k, std::uint32_t x) {
    const Grammar& g = *g_;
    const std::uint32_t base = postBase_ + static_cast<std::uint32_t>(chart_.cell(i, k)) * N_;
    const float s = chart_.preRow(i, k)[x];
    relax(base + x, s, 0, k - i, 1);
    for (std::uint32_t u = g.unaryByChildBegin[x]; u < g.unaryByChildBegin[x + 1]; ++u)
        relax(base + g.unary[u].parent, s + g.unary[u].logProb, u + 1, k - i, 1);
}

// Out(post(i,k,y)): binary hyperedges where it is the left child (parents (i,k2)) or the right
// child (parents (i2,k)) of a kept cell, and ROOT if (i,k) is the whole sentence.
void ChangePropagator::propagatePost(int i, int k, std::uint32_t y, bool decreased) {
    const Grammar& g = *g_;
    const int n = chart_.n;
    const float ly = chart_.postRow(i, k)[y];
    if (i == 0 && k == n)
        for (std::uint32_t r = rootBegin_[y]; r < rootBegin_[y + 1]; ++r)
            relaxRoot(ly + g.rootRules[r].logProb, r);
    // A decrease matters only to the heads whose witness uses this vertex (Alg. 3 line 15).
    const std::uint32_t self = static_cast<std::uint32_t>(chart_.cell(i, k)) * N_ + y;
    if (decreased) {
        for (std::uint32_t v = firstUser_[2 * static_cast<std::size_t>(self)]; v != kNil;) {
            const std::uint32_t next =
                links_[2 * static_cast<std::size_t>(v)].next; // relax may unlink v
            const std::uint32_t w = chart_.preWitness[v];
            const int k2 = cellK_[v / N_];
            const BinaryRule& r = g.binary[witnessRule(w)];
            relax(v, (ly + chart_.postRow(k, k2)[r.right]) + r.logProb, w, k2 - i, 0);
            v = next;
        }
        for (std::uint32_t v = firstUser_[2 * static_cast<std::size_t>(self) + 1]; v != kNil;) {
            const std::uint32_t next = links_[2 * static_cast<std::size_t>(v) + 1].next;
            const std::uint32_t w = chart_.preWitness[v];
            const int i2 = cellI_[v / N_];
            const BinaryRule& r = g.binary[witnessRule(w)];
            relax(v, binaryEdgeScore(chart_.postRow(i2, i)[r.left], ly, r.logProb), w, k - i2, 0);
            v = next;
        }
        return;
    }
    for (int k2 = k + 1; k2 <= n; ++k2) {
        if (!mask_.keep(i, k2)) continue;
        const std::uint32_t base = static_cast<std::uint32_t>(chart_.cell(i, k2)) * N_;
        const float* R = chart_.postRow(k, k2);
        const std::uint32_t split = packBinaryWitness(k - i, 0);
        for (std::uint32_t gi = g.groupsByLeftBegin[y]; gi < g.groupsByLeftBegin[y + 1]; ++gi) {
            const RuleGroup& grp = g.groups[gi];
            const float rz = R[grp.right];
            if (rz == kNegInf) continue;
            const float lr = ly + rz; // the parser's (left + right) + rule
            for (std::uint32_t r = grp.begin; r < grp.end; ++r)
                relax(base + g.binary[r].parent, lr + g.binary[r].logProb, split | r, k2 - i, 0);
        }
    }
    for (int i2 = 0; i2 < i; ++i2) {
        if (!mask_.keep(i2, k)) continue;
        const std::uint32_t base = static_cast<std::uint32_t>(chart_.cell(i2, k)) * N_;
        const float* L = chart_.postRow(i2, i);
        const std::uint32_t split = packBinaryWitness(i - i2, 0);
        for (std::uint32_t b = g.binaryByRightBegin[y]; b < g.binaryByRightBegin[y + 1]; ++b) {
            const std::uint32_t r = g.binaryByRight[b];
            const BinaryRule& rule = g.binary[r];
            const float lz = L[rule.left];
            if (lz == kNegInf) continue;
            relax(base + rule.parent, binaryEdgeScore(lz, ly, rule.logProb), split | r, k - i2, 0);
        }
    }
}

// keep→prune: every pre vertex of the cell loses all incoming hyperedges.
void ChangePropagator::killCell(int i, int k) {
    const std::uint32_t base = static_cast<std::uint32_t>(chart_.cell(i, k)) * N_;
    for (int x = 0; x < N_; ++x) {
        if (chart_.pre[base + x] == kNegInf) continue;
        enqueue(base + x, k - i, 0);
        chart_.pre[base + x] = kNegInf;
        setWitness(base + x, kNoWitness);
    }
}

// The binary pushes of cell (i,k) as the parser's left-child loop counts them (the rules of every
// (left, right) group hit by its splits); with Apply, also the pre layer it fills (values,
// witnesses) into out/outW (all -inf / kNoWitness on entry).
template <bool Apply>
long ChangePropagator::binaryPass(int i, int k, float* out, std::uint32_t* outW) const {
    const Grammar& g = *g_;
    long pushes = 0;
    for (int j = i + 1; j < k; ++j) {
        if (cellBuilt_[chart_.cell(i, j)] == 0 || cellBuilt_[chart_.cell(j, k)] == 0) continue;
        const float* L = chart_.postRow(i, j);
        const float* R = chart_.postRow(j, k);
        const std::uint32_t split = packBinaryWitness(j - i, 0);
        for (int y = 0; y < N_; ++y) {
            const float ly = L[y];
            if (ly == kNegInf) continue;
            for (std::uint32_t gi = g.groupsByLeftBegin[y]; gi < g.groupsByLeftBegin[y + 1]; ++gi) {
                const RuleGroup& grp = g.groups[gi];
                const float rz = R[grp.right];
                if (rz == kNegInf) continue;
                pushes += grp.end - grp.begin;
                if constexpr (Apply) {
                    const float lr = ly + rz;
                    for (std::uint32_t r = grp.begin; r < grp.end; ++r) {
                        const float cand = lr + g.binary[r].logProb;
                        if (cand > out[g.binary[r].parent])
                            out[g.binary[r].parent] = cand, outW[g.binary[r].parent] = split | r;
                    }
                }
            }
        }
    }
    return pushes;
}

long ChangePropagator::fillCell(int i, int k, float* out, std::uint32_t* outW) const {
    return binaryPass<true>(i, k, out, outW);
}

long ChangePropagator::scanBinaryPushes(int i, int k) const {
    return binaryPass<false>(i, k, nullptr, nullptr);
}

// prune→keep: every pre vertex the parser would build in the cell appears.
long ChangePropagator::buildCell(int i, int k) {
    const long pushes = fillCell(i, k, scratch_.data(), scratchW_.data());
    work_ += pushes;
    const std::uint32_t base = static_cast<std::uint32_t>(chart_.cell(i, k)) * N_;
    for (int x = 0; x < N_; ++x) {
        if (scratch_[x] == kNegInf) continue;
        enqueue(base + x, k - i, 0);
        chart_.pre[base + x] = scratch_[x];
        setWitness(base + x, scratchW_[x]);
        scratch_[x] = kNegInf;
        scratchW_[x] = kNoWitness;
    }
    return pushes;
}

void ChangePropagator::flipOnly(int i, int k) {
    const int n = chart_.n;
    if (!PruningMask::prunable(n, i, k))
        throw std::invalid_argument("span (" + std::to_string(i) + "," + std::to_string(k) +
                                    ") is not prunable");
    const double reparse = static_cast<double>(trackPushes_ ? pushes_ : rollInPushes_);
    const double limit = workBudget_ * reparse;
    workLimit_ = workBudget_ <= 0 ? -1
                 : limit >= 9e18  ? std::numeric_limits<long>::max()
                                  : static_cast<long>(limit);
    lastFellBack_ = false;
    work_ = 0;
    log_.open(UndoLog::Frame{i, k, 0, 0, chart_.rootScore, chart_.rootWitness, pushes_,
                             constituents_, spansKept_, !baseValid_});
    events_.clear();
    changedPost_.clear();
    rootQueued_ = false;
    lastPops_ = lastRecomputes_ = lastBatched_ = 0;
    const bool nowKeep = !mask_.keep(i, k);
    mask_.set(i, k, nowKeep);
    spansKept_ += nowKeep ? 1 : -1;
    const long cellPushes = nowKeep ? buildCell(i, k) : 0;
    if (!nowKeep) killCell(i, k);
    if (workLimit_ < 0) abandonAgenda(k - i, 0, 0); // budget 0: recompute every flip
    if (workLimit_ < 0 || !runAgenda(k - i)) {
        recomputeFlip(i, k);
        return;
    }
    finishRoot();
    if (trackPushes_) accountBinaryPushes(i, k, nowKeep, cellPushes);
}

bool ChangePropagator::runAgenda(int from) {
    const Grammar& g = *g_;
    const int n = chart_.n;
    // The agenda, narrower spans first; within a width the pre layer before the post layer.
    for (int w = from; w <= n; ++w)
        for (int layer = 0; layer < 2; ++layer) {
            auto& bucket = buckets_[2 * w + layer];
            if (layer == 0 && !boolMode_ && !bucket.empty() && work_ <= workLimit_)
                lastRecomputes_ += recomputeBatched(bucket);
            for (std::size_t b = 0; b < bucket.size(); ++b) {
                const std::uint32_t v = bucket[b];
                if (work_ > workLimit_) { // past the budget: drop the rest of the agenda
                    abandonAgenda(w, layer, b);
                    return false;
                }
                const std::uint32_t c = (layer == 0 ? v : v - postBase_) / N_;
                const std::uint32_t x = (layer == 0 ? v : v - postBase_) % N_;
                const int ci = cellI_[c], ck = cellK_[c];
                ++lastPops_;
                if (witness(v) == kPending) {
                    if (boolMode_)
                        findSupport(v, ci, ck, layer);
                    else
                        recompute(v, ci, ck, layer);
                    ++lastRecomputes_;
                }
                UndoLog::Entry& e = log_[log_.indexOf(v)];
                const float before = e.value, after = value(v);
                if (before == after) continue;
                const bool wasBuilt = before != kNegInf, isBuilt = after != kNegInf;
                const CellChange kind = !wasBuilt        ? CellChange::Appeared
                                        : !isBuilt       ? CellChange::Vanished
                                        : after > before ? CellChange::Rose
                                                         : CellChange::Fell;
                events_.push_back(
                    ChangeEvent{ci, ck, x, static_cast<std::uint8_t>(layer), kind, before, after});
                if (wasBuilt != isBuilt) {
                    e.finiteChanged = 1;
                    const long sign = isBuilt ? 1 : -1;
                    if (layer == 0) {
                        pushes_ += sign * (g.unaryByChildBegin[x + 1] - g.unaryByChildBegin[x]);
                    } else {
                        constituents_ += sign;
                        cellBuilt_[c] += static_cast<int>(sign);
                        changedPost_.push_back(v);
                        if (ck - ci == n) pushes_ += sign * (rootBegin_[x + 1] - rootBegin_[x]);
                    }
                }
                if (filterRises_ && wasBuilt && after > before) {
                    // A rise matters to the best tree only if it can be on a whole derivation that
                    // reaches the roll-in's best (see probeFlip); appearances always propagate.
                    if (!outside_.has(c)) continue;
                    const double out = layer == 0 ? outside_.pre(v) : outside_.post(v - postBase_);
                    if (after + out < static_cast<double>(log_.top().rootScore) - margin_) continue;
                }
                if (layer == 0)
                    propagatePre(ci, ck, x);
                else
                    propagatePost(ci, ck, x, after < before);
            }
            bucket.clear();
        }
    return true;
}

// Drops the agenda from bucket (w, layer), position b on. A post vertex still queued may have
// changed between built and not built without cellBuilt_ following (that happens at its pop);
// match cellBuilt_ to its value now, so that undo() restores it exactly.
void ChangePropagator::abandonAgenda(int w, int layer, std::size_t b) {
    const int n = chart_.n;
    for (; w <= n; ++w, layer = 0, b = 0)
        for (; layer < 2; ++layer, b = 0) {
            auto& bucket = buckets_[2 * w + layer];
            if (layer == 1)
                for (std::size_t q = b; q < bucket.size(); ++q) {
                    const std::uint32_t v = bucket[q];
                    const bool was = log_[log_.indexOf(v)].value != kNegInf;
                    const bool is = value(v) != kNegInf;
                    if (was != is) cellBuilt_[(v - postBase_) / N_] += is ? 1 : -1;
                }
            bucket.clear();
        }
}

// ROOT after the agenda (Alg. 3 for the root layer) and its event.
void ChangePropagator::finishRoot() {
    const Grammar& g = *g_;
    const int n = chart_.n;
    if (rootQueued_) {
        const UndoLog::Frame& f = log_.top();
        if (chart_.rootWitness == kPending) {
            float best = kNegInf;
            std::uint32_t w = kNoWitness;
            const float* top = chart_.postRow(0, n);
            for (std::uint32_t r = 0; r < g.rootRules.size(); ++r) {
                const float s = top[g.rootRules[r].child];
                if (s == kNegInf) continue;
                const float cand = s + g.rootRules[r].logProb;
                if (cand > best) best = cand, w = r;
                if (boolMode_) {
                    best = f.rootScore;
                    break;
                } // any support keeps it built
            }
            chart_.rootScore = best, chart_.rootWitness = w;
            ++lastRecomputes_;
        }
        const float before = f.rootScore, after = chart_.rootScore;
        if (before != after) {
            const CellChange kind = before == kNegInf  ? CellChange::Appeared
                                    : after == kNegInf ? CellChange::Vanished
                                    : after > before   ? CellChange::Rose
                                                       : CellChange::Fell;
            events_.push_back(ChangeEvent{0, n, g.root, 2, kind, before, after});
        }
    }
    if (chart_.rootScore != log_.top().rootScore || chart_.rootWitness != log_.top().rootWitness)
        log_.top().bestTouched = true;
}

void ChangePropagator::undo() {
    if (!log_.hasFrames()) throw std::logic_error("ChangePropagator::undo: nothing to undo");
    const UndoLog::Frame f = log_.close(
        [&](const UndoLog::Entry& e) {
            if (e.vertex >= postBase_ && (value(e.vertex) == kNegInf) != (e.value == kNegInf))
                cellBuilt_[(e.vertex - postBase_) / N_] += e.value == kNegInf ? -1 : 1;
            value(e.vertex) = e.value;
            setWitness(e.vertex, e.witness);
        },
        [&](int c, long oldPushes) { binaryPushes_[c] = oldPushes; });
    chart_.rootScore = f.rootScore;
    chart_.rootWitness = f.rootWitness;
    pushes_ = f.pushes;
    constituents_ = f.constituents;
    spansKept_ = f.spansKept;
    mask_.flip(f.i, f.k);
}

} // namespace prunescope
