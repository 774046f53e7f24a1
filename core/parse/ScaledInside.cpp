// The scaled inside pass over a span-pruned chart, shared by rollouts and PrunedInside.
#include "core/parse/ScaledInside.h"

#include "core/parse/Chart.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace prunescope {

namespace {
// The carries' arithmetic: an exact rescaling, a scaled accumulation, the semiring product of an
// item and a right child accumulated, and the count of one vertex (ρ += α; nothing for the
// scalar carry).
inline InsideValue scaled(InsideValue v, double f) {
    return {v.a * f};
}
inline InsidePair scaled(InsidePair v, double f) {
    return {v.a * f, v.r * f};
}
inline void addScaled(InsideValue& acc, double p, InsideValue v) {
    acc.a += p * v.a;
}
inline void addScaled(InsidePair& acc, double p, InsidePair v) {
    acc.a += p * v.a;
    acc.r += p * v.r;
}
// acc += item ⊗ right, the item being p·(left value).
inline void accumulate(InsideValue& acc, InsideValue item, InsideValue right) {
    acc.a += item.a * right.a;
}
inline void accumulate(InsidePair& acc, InsidePair item, InsidePair right) {
    acc.a += item.a * right.a;
    acc.r += item.r * right.a + item.a * right.r;
}
inline void count(InsideValue&) {}
inline void count(InsidePair& v) {
    v.r += v.a;
}
} // namespace

template <class V> ScaledInside<V>::ScaledInside(const Grammar& g) : g_(&g), N_(g.numSymbols()) {
    for (const auto& r : g.binary)
        binaryProb_.push_back(std::exp(static_cast<double>(r.logProb)));
    for (const auto& r : g.unary)
        unaryProb_.push_back(std::exp(static_cast<double>(r.logProb)));
    rootProb_.assign(N_, 0.0);
    for (const auto& r : g.rootRules)
        rootProb_[r.child] += std::exp(static_cast<double>(r.logProb));
    scratch_.assign(N_, V{});
    mark_.assign(N_, 0);
    rightId_.assign(N_, -1);
    for (const auto& grp : g.groups)
        if (rightId_[grp.right] < 0) rightId_[grp.right] = numRight_++;
    cursor_.assign(numRight_ + 1, 0);
}

template <class V>
void ScaledInside<V>::reset(std::span<const std::string> words, const PruningMask& mask) {
    const int n = static_cast<int>(words.size());
    if (n == 0) throw std::invalid_argument("cannot run inside-outside on an empty sentence");
    if (n > kMaxSentenceLength)
        throw std::invalid_argument("sentence longer than " + std::to_string(kMaxSentenceLength) +
                                    " words");
    if (mask.n != n)
        throw std::invalid_argument("mask is for " + std::to_string(mask.n) +
                                    " words, sentence has " + std::to_string(n));
    const std::size_t N = N_;
    for (std::size_t c = 0; c < postRange_.size(); ++c)
        for (std::uint32_t li = postRange_[c].first; li < postRange_[c].second; ++li)
            post_[c * N + postSym_[li]] = V{};
    n_ = n;
    mask_ = mask;
    words_.assign(words.begin(), words.end());
    lexical_.clear();
    for (int i = 0; i < n; ++i)
        lexical_.push_back(g_->lexicalEntries(words_[i], i));
    cellOffset_.assign(n + 2, 0);
    for (int w = 1; w <= n; ++w)
        cellOffset_[w + 1] = cellOffset_[w] + (n - w + 1);
    const int cells = numCells();
    const std::size_t dense = static_cast<std::size_t>(cells) * N;
    if (post_.size() < dense) post_.assign(dense, V{});
    S_.assign(cells, kEmpty);
    preRange_.assign(cells, {0u, 0u});
    postRange_.assign(cells, {0u, 0u});
    preSym_.clear();
    postSym_.clear();
    pre_.clear();
    pushes_ = 0;
    itemsRow_ = -1;
}

// The cell's binary scale: the largest S_l + S_r over splits with two usable children.
template <class V> int ScaledInside<V>::binaryScale(int i, int k) const {
    int P = kEmpty;
    for (int j = i + 1; j < k; ++j)
        if (usable(i, j) && usable(j, k)) P = std::max(P, S_[cell(i, j)] + S_[cell(j, k)]);
    return P;
}

template <class V> void ScaledInside<V>::openRow(int i) {
    if (itemsRow_ == i) return;
    itemsRow_ = i;
    itemsOfEnd_.assign(n_ + 1, kNoItems);
    usedOfEnd_.assign(n_ + 1, 0);
    itemsUsed_ = boundsUsed_ = 0;
}

template <class V> std::uint32_t ScaledInside<V>::items(int i, int j) {
    const Grammar& g = *g_;
    openRow(i);
    if (itemsOfEnd_[j] != kNoItems) return itemsOfEnd_[j];
    const int l = cell(i, j);
    const V* left = post_.data() + static_cast<std::size_t>(l) * N_;
    // Counting sort of the cell's rules by right child: sizes, bounds, then the items.
    std::fill(cursor_.begin(), cursor_.end(), 0u);
    for (std::uint32_t li = postRange_[l].first; li < postRange_[l].second; ++li) {
        const std::uint32_t y = postSym_[li];
        for (std::uint32_t gi = g.groupsByLeftBegin[y]; gi < g.groupsByLeftBegin[y + 1]; ++gi)
            cursor_[rightId_[g.groups[gi].right] + 1] += g.groups[gi].end - g.groups[gi].begin;
    }
    const std::uint32_t first = boundsUsed_;
    boundsUsed_ += numRight_ + 1;
    if (bucketBound_.size() < boundsUsed_) bucketBound_.resize(2 * boundsUsed_);
    std::uint32_t pos = itemsUsed_;
    for (int z = 0; z <= numRight_; ++z) {
        pos += cursor_[z];
        cursor_[z] = bucketBound_[first + z] = pos;
    }
    itemsUsed_ = pos;
    if (itemValue_.size() < itemsUsed_) {
        itemValue_.resize(2 * static_cast<std::size_t>(itemsUsed_));
        itemParent_.resize(2 * static_cast<std::size_t>(itemsUsed_));
    }
    for (std::uint32_t li = postRange_[l].first; li < postRange_[l].second; ++li) {
        const std::uint32_t y = postSym_[li];
        for (std::uint32_t gi = g.groupsByLeftBegin[y]; gi < g.groupsByLeftBegin[y + 1]; ++gi) {
            const RuleGroup& grp = g.groups[gi];
            std::uint32_t& at = cursor_[rightId_[grp.right]];
            for (std::uint32_t ri = grp.begin; ri < grp.end; ++ri, ++at) {
                itemValue_[at] = scaled(left[y], binaryProb_[ri]);
                itemParent_[at] = g.binary[ri].parent;
            }
        }
    }
    return itemsOfEnd_[j] = first;
}

// A left cell's first split reads its rules directly, rule groups tested against the right row
// (most cells of a tight mask are the left child of one split only); later splits build items.
template <class V> bool ScaledInside<V>::firstUse(int i, int j) {
    openRow(i);
    return usedOfEnd_[j]++ == 0;
}

template <class V> void ScaledInside<V>::addSplitDirect(int l, const V* right, double f) {
    const Grammar& g = *g_;
    const V* left = post_.data() + static_cast<std::size_t>(l) * N_;
    for (std::uint32_t li = postRange_[l].first; li < postRange_[l].second; ++li) {
        const std::uint32_t y = postSym_[li];
        for (std::uint32_t gi = g.groupsByLeftBegin[y]; gi < g.groupsByLeftBegin[y + 1]; ++gi) {
            const RuleGroup& grp = g.groups[gi];
            if (right[grp.right].a == 0.0) continue;
            pushes_ += grp.end - grp.begin;
            const V vr = scaled(right[grp.right], f);
            for (std::uint32_t ri = grp.begin; ri < grp.end; ++ri) {
                const std::uint32_t x = g.binary[ri].parent;
                if (scratch_[x].a == 0.0) touched_.push_back(x);
                accumulate(scratch_[x], scaled(left[y], binaryProb_[ri]), vr);
            }
        }
    }
}

// Σ over splits and binary rules x -> y z of p · α_l(y) ⊗ α_r(z), in units of 2^P, into the
// scratch: per split, the buckets of the left cell's items of the right children (j,k) built.
template <class V> void ScaledInside<V>::addBinary(int i, int k, int P) {
    const std::size_t N = N_;
    for (int j = i + 1; j < k; ++j) {
        if (!usable(i, j) || !usable(j, k)) continue;
        const int r = cell(j, k);
        const double f = std::ldexp(1.0, S_[cell(i, j)] + S_[r] - P); // exact (0 if negligible)
        const V* right = post_.data() + r * N;
        if (firstUse(i, j)) { // items pay off from a left cell's second split on
            addSplitDirect(cell(i, j), right, f);
            continue;
        }
        const std::uint32_t first = items(i, j); // may grow bucketBound_
        const std::uint32_t* bound = bucketBound_.data() + first;
        for (std::uint32_t li = postRange_[r].first; li < postRange_[r].second; ++li) {
            const std::uint32_t z = postSym_[li];
            const std::int32_t rid = rightId_[z];
            if (rid < 0 || right[z].a == 0.0) continue;
            const std::uint32_t b = bound[rid], e = bound[rid + 1];
            pushes_ += e - b;
            const V vr = scaled(right[z], f);
            for (std::uint32_t it = b; it < e; ++it) {
                const std::uint32_t x = itemParent_[it];
                if (scratch_[x].a == 0.0) touched_.push_back(x);
                accumulate(scratch_[x], itemValue_[it], vr);
            }
        }
    }
}

// The scratch into the cell's pre list and post row, the unary layer (identity or one unary rule
// on top), the count, then the exact rescaling to a largest α mantissa in [1,2). Returns the
// exponent taken out, kEmpty if nothing was built. (Symbols are listed in the order they were
// first reached, not sorted: only sums depend on them.)
template <class V> int ScaledInside<V>::collect(int c, std::uint32_t countSym) {
    const Grammar& g = *g_;
    V* row = post_.data() + static_cast<std::size_t>(c) * N_;
    const auto preStart = static_cast<std::uint32_t>(preSym_.size());
    const auto postStart = static_cast<std::uint32_t>(postSym_.size());
    for (const std::uint32_t x : touched_) {
        if (scratch_[x].a != 0.0) {
            preSym_.push_back(x);
            pre_.push_back(scratch_[x]);
            postSym_.push_back(x);
            mark_[x] = 1;
            row[x] = scratch_[x];
        }
        scratch_[x] = V{};
    }
    touched_.clear();
    const auto preEnd = static_cast<std::uint32_t>(preSym_.size());
    for (std::uint32_t li = preStart; li < preEnd; ++li) {
        const std::uint32_t y = preSym_[li];
        const std::uint32_t b = g.unaryByChildBegin[y], e = g.unaryByChildBegin[y + 1];
        pushes_ += e - b;
        for (std::uint32_t u = b; u < e; ++u) {
            const std::uint32_t x = g.unary[u].parent;
            if (!mark_[x]) postSym_.push_back(x), mark_[x] = 1;
            addScaled(row[x], unaryProb_[u], pre_[li]);
        }
    }
    const auto postEnd = static_cast<std::uint32_t>(postSym_.size());
    double M = 0;
    for (std::uint32_t li = postStart; li < postEnd; ++li) {
        M = std::max(M, row[postSym_[li]].a);
        mark_[postSym_[li]] = 0;
    }
    if (countSym != kNoCount) count(row[countSym]);
    preRange_[c] = {preStart, preEnd};
    postRange_[c] = {postStart, postEnd};
    if (M == 0.0) return kEmpty; // nothing built: both lists are empty
    const int e = std::ilogb(M);
    const double inv = std::ldexp(1.0, -e); // exact
    for (std::uint32_t li = postStart; li < postEnd; ++li)
        row[postSym_[li]] = scaled(row[postSym_[li]], inv);
    for (std::uint32_t li = preStart; li < preEnd; ++li)
        pre_[li] = scaled(pre_[li], inv);
    return e;
}

template <class V> void ScaledInside<V>::buildCell(int i, int k, std::uint32_t countSym) {
    int P = 0;
    if (k - i == 1) {
        for (const LexicalEntry& e : lexical_[i]) {
            ++pushes_;
            if (scratch_[e.tag].a == 0.0) touched_.push_back(e.tag);
            scratch_[e.tag].a += std::exp(static_cast<double>(e.logProb));
        }
    } else {
        P = binaryScale(i, k);
        if (P == kEmpty) return; // no split with two usable children: the cell stays empty
        addBinary(i, k, P);
    }
    const int c = cell(i, k);
    const int e = collect(c, countSym);
    if (e != kEmpty) S_[c] = P + e;
}

template class ScaledInside<InsideValue>;
template class ScaledInside<InsidePair>;

} // namespace prunescope
