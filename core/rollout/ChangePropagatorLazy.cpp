// Change propagation for rollouts (sec. 5.2): after a finiteness-only keep→prune flip of span s,
// the exact best derivation by branch and bound from ROOT. Only cells containing s can change, and
// their stored values are upper bounds (pruning only lowers values; float addition is monotone, so
// a hyperedge scored with them is an upper bound too). A vertex is made exact only if one of its
// hyperedges could still reach the best so far. Ties keep the smallest key, exactly as the CKY.
#include "core/rollout/ChangePropagator.h"

#include <algorithm>

namespace prunescope {

namespace {
bool better(float s, std::uint32_t key, float best, std::uint32_t bestKey) {
    return s > best || (s == best && key < bestKey);
}
// Candidates in decreasing bound, then increasing key.
template <class C> bool byBound(const C& a, const C& b) {
    return better(a.ub, a.key, b.ub, b.key);
}
// Branch and bound over cands[base, end): in bound order, stopping once no bound can beat the best;
// exact(c) is the candidate's exact score (−∞ if a child is unbuilt). It may recurse and so grow
// cands (and restore it), hence the copies. Leaves cands at base.
template <class C, class Exact>
void boundedBest(std::vector<C>& cands, std::size_t base, float& best, std::uint32_t& bestKey,
                 Exact exact) {
    std::sort(cands.begin() + static_cast<std::ptrdiff_t>(base), cands.end(), byBound<C>);
    const std::size_t end = cands.size();
    for (std::size_t q = base; q < end; ++q) {
        const C c = cands[q];
        if (c.ub < best) break;
        if (c.ub == best && c.key > bestKey) continue;
        const float s = exact(c);
        if (s != kNegInf && better(s, c.key, best, bestKey)) best = s, bestKey = c.key;
    }
    cands.resize(base);
}
} // namespace

float ChangePropagator::exactPre(int i, int k, std::uint32_t x) {
    const std::uint32_t v = static_cast<std::uint32_t>(chart_.cell(i, k)) * N_ + x;
    if (!stale(i, k) || exactStamp_[v] == probeId_ || chart_.pre[v] == kNegInf)
        return chart_.pre[v];
    if (work_ > workLimit_) { // past the budget: probeFlip recomputes the flip instead
        lazyOverBudget_ = true;
        return chart_.pre[v];
    }
    float best = kNegInf;
    std::uint32_t bestKey = kNoWitness;
    // Splits strictly inside the pruned span have exact children: a lower bound first.
    const std::size_t base = cands_.size();
    forEachBinaryEdge(i, k, x, [&](int j, const ParentRule& pr, float l, float r) {
        ++work_;
        const float s = binaryEdgeScore(l, r, pr.logProb);
        const std::uint32_t key = packBinaryWitness(j - i, pr.rule);
        if (!stale(i, j) && !stale(j, k)) {
            if (better(s, key, best, bestKey)) best = s, bestKey = key;
        } else {
            cands_.push_back(Candidate{s, key, static_cast<std::uint32_t>(j),
                                       static_cast<std::uint32_t>(&pr - parentRules_.data())});
        }
        return false;
    });
    // Bounded candidates: drop those that cannot win, then the rest in bound order.
    std::size_t end = base;
    for (std::size_t q = base; q < cands_.size(); ++q)
        if (better(cands_[q].ub, cands_[q].key, best, bestKey)) cands_[end++] = cands_[q];
    cands_.resize(end);
    boundedBest(cands_, base, best, bestKey, [&](const Candidate& c) {
        const int j = static_cast<int>(c.a);
        const ParentRule& pr = parentRules_[c.b];
        const float l = exactPost(i, j, pr.left);
        const float r = exactPost(j, k, pr.right);
        return l == kNegInf || r == kNegInf ? kNegInf : binaryEdgeScore(l, r, pr.logProb);
    });
    touch(v);
    chart_.pre[v] = best;
    setWitness(v, bestKey);
    exactStamp_[v] = probeId_;
    return best;
}

float ChangePropagator::exactPost(int i, int k, std::uint32_t x) {
    const std::uint32_t c = static_cast<std::uint32_t>(chart_.cell(i, k)) * N_;
    const std::uint32_t v = postBase_ + c + x;
    if (!stale(i, k) || exactStamp_[v] == probeId_ || chart_.post[c + x] == kNegInf)
        return chart_.post[c + x];
    if (work_ > workLimit_) {
        lazyOverBudget_ = true;
        return chart_.post[c + x];
    }
    const Grammar& g = *g_;
    const float* pre = chart_.preRow(i, k);
    const std::size_t base = cands_.size();
    work_ += 1 + g.unaryByParentBegin[x + 1] - g.unaryByParentBegin[x];
    if (pre[x] != kNegInf) cands_.push_back(Candidate{pre[x], 0, x, 0});
    for (std::uint32_t b = g.unaryByParentBegin[x]; b < g.unaryByParentBegin[x + 1]; ++b) {
        const std::uint32_t r = g.unaryByParent[b];
        const std::uint32_t y = g.unary[r].child;
        if (pre[y] != kNegInf)
            cands_.push_back(Candidate{pre[y] + g.unary[r].logProb, r + 1, y, r});
    }
    float best = kNegInf;
    std::uint32_t bestKey = kNoWitness;
    boundedBest(cands_, base, best, bestKey, [&](const Candidate& cd) {
        const float p = exactPre(i, k, cd.a);
        return p == kNegInf || cd.key == 0 ? p : p + g.unary[cd.b].logProb;
    });
    touch(v);
    chart_.post[c + x] = best;
    setWitness(v, bestKey);
    exactStamp_[v] = probeId_;
    return best;
}

void ChangePropagator::exactRoot() {
    const Grammar& g = *g_;
    const int n = chart_.n;
    const float* top = chart_.postRow(0, n);
    const std::size_t base = cands_.size();
    for (std::uint32_t r = 0; r < g.rootRules.size(); ++r) {
        const std::uint32_t x = g.rootRules[r].child;
        if (top[x] != kNegInf)
            cands_.push_back(Candidate{top[x] + g.rootRules[r].logProb, r, x, r});
    }
    float best = kNegInf;
    std::uint32_t bestKey = kNoWitness;
    boundedBest(cands_, base, best, bestKey, [&](const Candidate& cd) {
        const float p = exactPost(0, n, cd.a);
        return p == kNegInf ? p : p + g.rootRules[cd.b].logProb;
    });
    chart_.rootScore = best;
    chart_.rootWitness = bestKey;
}

} // namespace prunescope
