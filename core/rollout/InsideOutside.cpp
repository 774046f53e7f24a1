// Inside-outside over the pruned chart for expected recall and its mask gradient (sec. 5.3).
#include "core/rollout/InsideOutside.h"

#include "core/grammar/PcfgEstimator.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

namespace prunescope {

namespace {

// Returns the end of the node's span; records counted nodes (footnote 11).
int collectGold(const Grammar& g, const Tree& t, int begin, bool isRoot, bool isUnaryChild,
                RecallGold& out) {
    if (t.isLeaf()) return begin + 1;
    int end = begin;
    const bool unaryHere = !isRoot && t.children.size() == 1 && !t.isPreterminal();
    for (const Tree& c : t.children)
        end = collectGold(g, c, end, false, unaryHere, out);
    if (!isRoot && !isUnaryChild && end - begin >= 2) {
        ++out.count;
        out.symbol[static_cast<std::size_t>(begin) * (out.n + 1) + end] =
            g.hasSymbol(t.label) ? g.symbolId(t.label) : RecallGold::kNone;
    }
    return end;
}
} // namespace

RecallGold recallGold(const Grammar& g, const Tree& normalizedGold) {
    const Tree b = binarizeLike(g, normalizedGold);
    RecallGold r;
    r.n = b.size();
    r.symbol.assign(static_cast<std::size_t>(r.n + 1) * (r.n + 1), RecallGold::kNone);
    collectGold(g, b, 0, true, false, r);
    return r;
}

InsideOutside::InsideOutside(const Grammar& g) : g_(&g), N_(g.numSymbols()) {
    for (const auto& r : g.binary)
        binaryProb_.push_back(std::exp(static_cast<double>(r.logProb)));
    for (const auto& r : g.unary)
        unaryProb_.push_back(std::exp(static_cast<double>(r.logProb)));
    rootProb_.assign(N_, 0.0);
    for (const auto& r : g.rootRules)
        rootProb_[r.child] += std::exp(static_cast<double>(r.logProb));
    sa_.assign(N_, 0.0);
    sr_.assign(N_, 0.0);
    mark_.assign(N_, 0);
}

void InsideOutside::clearDense() {
    const std::size_t N = N_;
    for (int c = 0; c < static_cast<int>(postRange_.size()); ++c)
        for (std::uint32_t li = postRange_[c].first; li < postRange_[c].second; ++li)
            aPost_[c * N + postSym_[li]] = rPost_[c * N + postSym_[li]] = 0.0;
    for (int c = 0; c < static_cast<int>(outBegin_.size()); ++c)
        for (std::uint32_t li = outBegin_[c]; li < outEnd_[c]; ++li)
            oPre_[c * N + outSym_[li]] = pPre_[c * N + outSym_[li]] = 0.0;
    postRange_.clear();
    outBegin_.clear();
    outEnd_.clear();
}

void InsideOutside::prepare(std::span<const std::string> words, const PruningMask& mask,
                            const RecallGold& gold) {
    const int n = static_cast<int>(words.size());
    if (n == 0) throw std::invalid_argument("cannot run inside-outside on an empty sentence");
    if (n > kMaxSentenceLength) throw std::invalid_argument("sentence too long");
    if (mask.n != n) throw std::invalid_argument("mask length differs from the sentence length");
    if (gold.n != n)
        throw std::invalid_argument("gold tree length differs from the sentence length");
    clearDense();
    n_ = n;
    mask_ = mask;
    gold_ = &gold;
    lexical_.clear();
    for (int i = 0; i < n; ++i)
        lexical_.push_back(g_->lexicalEntries(words[i], i));
    cellOffset_.assign(n + 2, 0);
    for (int w = 1; w <= n; ++w)
        cellOffset_[w + 1] = cellOffset_[w] + (n - w + 1);
    const int cells = n * (n + 1) / 2;
    const std::size_t dense = static_cast<std::size_t>(cells) * N_;
    if (aPost_.size() < dense) {
        aPost_.assign(dense, 0.0);
        rPost_.assign(dense, 0.0);
        oPre_.assign(dense, 0.0);
        pPre_.assign(dense, 0.0);
    }
    S_.assign(cells, kEmpty);
    T_.assign(cells, kEmpty);
    postRange_.assign(cells, {0u, 0u});
    preRange_.assign(cells, {0u, 0u});
    outBegin_.assign(cells, 0);
    outEnd_.assign(cells, 0);
    postSym_.clear();
    preSym_.clear();
    preA_.clear();
    preR_.clear();
    outSym_.clear();
    zMant_ = rMant_ = 0;
    outsideDone_ = false;
}

// One cell of the inside pass: α̂ and ρ̂ of the pre layer from kept children (binary rules, or
// the lexicon at width 1), then the unary layer and the gold count, normalized to max α = 1.
void InsideOutside::insideCell(int i, int k) {
    const Grammar& g = *g_;
    const std::size_t N = N_;
    const int c = cell(i, k);
    int P = kEmpty;
    if (k - i == 1) {
        P = 0;
        for (const LexicalEntry& e : lexical_[i]) {
            if (sa_[e.tag] == 0.0) touched_.push_back(e.tag);
            sa_[e.tag] += std::exp(static_cast<double>(e.logProb));
        }
    } else {
        for (int j = i + 1; j < k; ++j) {
            const int l = cell(i, j), r = cell(j, k);
            if (mask_.keep(i, j) && mask_.keep(j, k) && S_[l] != kEmpty && S_[r] != kEmpty)
                P = std::max(P, S_[l] + S_[r]);
        }
        if (P == kEmpty) return; // no pair of kept, built children: the cell stays empty
        for (int j = i + 1; j < k; ++j) {
            const int l = cell(i, j), r = cell(j, k);
            if (!mask_.keep(i, j) || !mask_.keep(j, k) || S_[l] == kEmpty || S_[r] == kEmpty)
                continue;
            const double f = std::ldexp(1.0, S_[l] + S_[r] - P); // exact (0 if negligible)
            const double* aR = aPost_.data() + r * N;
            const double* rR = rPost_.data() + r * N;
            const double* aLrow = aPost_.data() + l * N;
            const double* rLrow = rPost_.data() + l * N;
            for (std::uint32_t li = postRange_[l].first; li < postRange_[l].second; ++li) {
                const std::uint32_t y = postSym_[li];
                const double aL = aLrow[y] * f, rL = rLrow[y] * f;
                for (std::uint32_t gi = g.groupsByLeftBegin[y]; gi < g.groupsByLeftBegin[y + 1];
                     ++gi) {
                    const RuleGroup& grp = g.groups[gi];
                    const double ar = aR[grp.right];
                    if (ar == 0.0) continue;
                    const double a = aL * ar, rho = rL * ar + aL * rR[grp.right];
                    for (std::uint32_t ri = grp.begin; ri < grp.end; ++ri) {
                        const std::uint32_t x = g.binary[ri].parent;
                        if (sa_[x] == 0.0) touched_.push_back(x);
                        sa_[x] += binaryProb_[ri] * a;
                        sr_[x] += binaryProb_[ri] * rho;
                    }
                }
            }
        }
    }
    // Pre list, then the unary layer (identity or one unary rule on top).
    double* aP = aPost_.data() + c * N;
    double* rP = rPost_.data() + c * N;
    // (Symbols are listed in the order they were first reached, not sorted: only sums depend on
    // them, and naive and DP passes share this code.)
    const std::uint32_t preStart = static_cast<std::uint32_t>(preSym_.size());
    const std::uint32_t postStart = static_cast<std::uint32_t>(postSym_.size());
    for (const std::uint32_t x : touched_) {
        if (sa_[x] != 0.0) {
            preSym_.push_back(x);
            preA_.push_back(sa_[x]);
            preR_.push_back(sr_[x]);
            postSym_.push_back(x);
            mark_[x] = 1;
            aP[x] = sa_[x];
            rP[x] = sr_[x];
        }
        sa_[x] = sr_[x] = 0.0;
    }
    touched_.clear();
    const std::uint32_t preEnd = static_cast<std::uint32_t>(preSym_.size());
    for (std::uint32_t li = preStart; li < preEnd; ++li) {
        const std::uint32_t y = preSym_[li];
        for (std::uint32_t u = g.unaryByChildBegin[y]; u < g.unaryByChildBegin[y + 1]; ++u) {
            const std::uint32_t x = g.unary[u].parent;
            if (!mark_[x]) postSym_.push_back(x), mark_[x] = 1;
            aP[x] += unaryProb_[u] * preA_[li];
            rP[x] += unaryProb_[u] * preR_[li];
        }
    }
    double M = 0;
    for (std::uint32_t li = postStart; li < postSym_.size(); ++li) {
        M = std::max(M, aP[postSym_[li]]);
        mark_[postSym_[li]] = 0;
    }
    if (k - i >= 2) {
        const std::uint32_t gx = gold_->at(i, k);
        if (gx != RecallGold::kNone) rP[gx] += aP[gx];
    }
    if (M > 0) {
        const int e = std::ilogb(M);
        const double inv = std::ldexp(1.0, -e); // exact rescaling to [1,2)
        for (std::uint32_t li = postStart; li < postSym_.size(); ++li) {
            aP[postSym_[li]] *= inv;
            rP[postSym_[li]] *= inv;
        }
        for (std::uint32_t li = preStart; li < preEnd; ++li) {
            preA_[li] *= inv;
            preR_[li] *= inv;
        }
        S_[c] = P + e;
    }
    postRange_[c] = {postStart, static_cast<std::uint32_t>(postSym_.size())};
    preRange_[c] = {preStart, preEnd};
}

// Kept cells bottom-up, then ROOT: Z and r̃ of the mask.
void InsideOutside::insidePass() {
    for (int w = 1; w <= n_; ++w)
        for (int i = 0; i + w <= n_; ++i)
            if (mask_.keep(i, i + w)) insideCell(i, i + w);
    const int top = cell(0, n_);
    zMant_ = rMant_ = 0;
    for (std::uint32_t li = postRange_[top].first; li < postRange_[top].second; ++li) {
        const std::uint32_t x = postSym_[li];
        zMant_ += rootProb_[x] * aPost_[top * static_cast<std::size_t>(N_) + x];
        rMant_ += rootProb_[x] * rPost_[top * static_cast<std::size_t>(N_) + x];
    }
}

ExpectedRecall InsideOutside::inside(std::span<const std::string> words, const PruningMask& mask,
                                     const RecallGold& gold) {
    prepare(words, mask, gold);
    insidePass();
    return current();
}

void InsideOutside::clearScratch() {
    for (const std::uint32_t y : touched_)
        sa_[y] = sr_[y] = 0.0, mark_[y] = 0;
    touched_.clear();
}

// Turns the post-layer outside values in the scratch (Ω in sa_, Ψ in sr_, scale T_c) into the
// pre layer through the unary layer, stores them densely and computes the span's derivatives.
void InsideOutside::finishOutside(int i, int k) {
    const Grammar& g = *g_;
    const std::size_t N = N_;
    const int c = cell(i, k);
    if (k - i >= 2) { // Ψ_post += Ω_post at the gold symbol: d(count)/dα_post
        const std::uint32_t gx = gold_->at(i, k);
        if (gx != RecallGold::kNone) sr_[gx] += sa_[gx];
    }
    double* oP = oPre_.data() + c * N;
    double* pP = pPre_.data() + c * N;
    outBegin_[c] = static_cast<std::uint32_t>(outSym_.size());
    // Pre symbols with an outside: the touched post symbols and the children of their unary rules.
    const std::size_t touchedEnd = touched_.size();
    for (std::size_t t = 0; t < touchedEnd; ++t) {
        const std::uint32_t x = touched_[t];
        for (std::uint32_t b = g.unaryByParentBegin[x]; b < g.unaryByParentBegin[x + 1]; ++b) {
            const std::uint32_t y = g.unary[g.unaryByParent[b]].child;
            if (!mark_[y]) mark_[y] = 1, touched_.push_back(y);
        }
    }
    for (const std::uint32_t y : touched_) {
        double o = sa_[y], p = sr_[y];
        for (std::uint32_t u = g.unaryByChildBegin[y]; u < g.unaryByChildBegin[y + 1]; ++u) {
            o += unaryProb_[u] * sa_[g.unary[u].parent];
            p += unaryProb_[u] * sr_[g.unary[u].parent];
        }
        if (o == 0.0) continue;
        outSym_.push_back(y);
        oP[y] = o;
        pP[y] = p;
    }
    outEnd_[c] = static_cast<std::uint32_t>(outSym_.size());
    clearScratch();
}

// The outside values of cell (i,j) (width 2..n-1), pulled from its kept parents whose sibling is
// kept and built: through x -> y z as the left child and x -> z y as the right child. Pruned cells
// get theirs too (for prune→keep), but pass nothing down.
void InsideOutside::outsideCell(int i, int j) {
    const Grammar& g = *g_;
    const std::size_t N = N_;
    const int c = cell(i, j);
    auto valid = [&](int a, int b, int sa, int sb) { // parent (a,b), sibling (sa,sb)
        return mask_.keep(a, b) && T_[cell(a, b)] != kEmpty && mask_.keep(sa, sb) &&
               S_[cell(sa, sb)] != kEmpty;
    };
    int Tc = kEmpty;
    for (int k = j + 1; k <= n_; ++k)
        if (valid(i, k, j, k)) Tc = std::max(Tc, T_[cell(i, k)] + S_[cell(j, k)]);
    for (int h = 0; h < i; ++h)
        if (valid(h, j, h, i)) Tc = std::max(Tc, T_[cell(h, j)] + S_[cell(h, i)]);
    if (Tc == kEmpty) return;
    for (int k = j + 1; k <= n_; ++k) { // (i,j) as the left child of (i,k), sibling (j,k)
        if (!valid(i, k, j, k)) continue;
        const int par = cell(i, k), sib = cell(j, k);
        const double f = std::ldexp(1.0, T_[par] + S_[sib] - Tc);
        if (f == 0.0) continue;
        const double* oP = oPre_.data() + par * N;
        const double* pP = pPre_.data() + par * N;
        for (std::uint32_t li = postRange_[sib].first; li < postRange_[sib].second; ++li) {
            const std::uint32_t z = postSym_[li];
            const double as = aPost_[sib * N + z] * f, rs = rPost_[sib * N + z] * f;
            for (std::uint32_t b = g.binaryByRightBegin[z]; b < g.binaryByRightBegin[z + 1]; ++b) {
                const std::uint32_t ri = g.binaryByRight[b];
                const std::uint32_t x = g.binary[ri].parent;
                const double o = oP[x];
                if (o == 0.0) continue;
                const double p = binaryProb_[ri];
                const std::uint32_t y = g.binary[ri].left;
                if (!mark_[y]) mark_[y] = 1, touched_.push_back(y);
                sa_[y] += p * o * as;
                sr_[y] += p * (pP[x] * as + o * rs);
            }
        }
    }
    for (int h = 0; h < i; ++h) { // (i,j) as the right child of (h,j), sibling (h,i)
        if (!valid(h, j, h, i)) continue;
        const int par = cell(h, j), sib = cell(h, i);
        const double f = std::ldexp(1.0, T_[par] + S_[sib] - Tc);
        if (f == 0.0) continue;
        const double* oP = oPre_.data() + par * N;
        const double* pP = pPre_.data() + par * N;
        for (std::uint32_t li = postRange_[sib].first; li < postRange_[sib].second; ++li) {
            const std::uint32_t z = postSym_[li];
            const double as = aPost_[sib * N + z] * f, rs = rPost_[sib * N + z] * f;
            for (std::uint32_t gi = g.groupsByLeftBegin[z]; gi < g.groupsByLeftBegin[z + 1]; ++gi) {
                const RuleGroup& grp = g.groups[gi];
                double o = 0, p = 0;
                for (std::uint32_t ri = grp.begin; ri < grp.end; ++ri) {
                    const std::uint32_t x = g.binary[ri].parent;
                    o += binaryProb_[ri] * oP[x];
                    p += binaryProb_[ri] * pP[x];
                }
                if (o == 0.0) continue;
                if (!mark_[grp.right]) mark_[grp.right] = 1, touched_.push_back(grp.right);
                sa_[grp.right] += o * as;
                sr_[grp.right] += p * as + o * rs;
            }
        }
    }
    double M = 0;
    for (const std::uint32_t y : touched_)
        M = std::max(M, sa_[y]);
    if (M == 0.0) return clearScratch();
    const int e = std::ilogb(M);
    const double inv = std::ldexp(1.0, -e);
    for (const std::uint32_t y : touched_) {
        sa_[y] *= inv;
        sr_[y] *= inv;
    }
    T_[c] = Tc + e;
    finishOutside(i, j);
}

// Top-down: the whole-sentence cell (Ω_post = P(ROOT -> x)), then widths n-1 .. 2. Cells are
// visited in (width desc, i) order so every parent is final before its children pull from it.
void InsideOutside::outsidePass() {
    const int cells = n_ * (n_ + 1) / 2;
    dZ_.assign(cells, 0.0);
    dR_.assign(cells, 0.0);
    const int top = cell(0, n_);
    for (std::uint32_t r = 0; r < static_cast<std::uint32_t>(N_); ++r)
        if (rootProb_[r] > 0) sa_[r] = rootProb_[r], mark_[r] = 1, touched_.push_back(r);
    T_[top] = 0;
    finishOutside(0, n_);
    for (int w = n_ - 1; w >= 2; --w)
        for (int i = 0; i + w <= n_; ++i) {
            // A pruned cell's outside serves only its own derivatives (it passes nothing down),
            // which are 0 unless its as-if-kept inside is nonempty: skip it when no split has two
            // kept, built children (run() then leaves dZ = dR = 0, as it would after computing
            // both).
            if (!mask_.keep(i, i + w) && !hasKeptChildren(i, i + w)) continue;
            outsideCell(i, i + w);
        }
}

bool InsideOutside::hasKeptChildren(int i, int k) const {
    for (int j = i + 1; j < k; ++j)
        if (mask_.keep(i, j) && mask_.keep(j, k) && S_[cell(i, j)] != kEmpty &&
            S_[cell(j, k)] != kEmpty)
            return true;
    return false;
}

// Sec. 5.3. The outside values depend only on kept cells, so the as-if-kept inside values of a
// pruned cell are computed only when its outside is nonzero (else both derivatives are 0).
void InsideOutside::run(std::span<const std::string> words, const PruningMask& mask,
                        const RecallGold& gold) {
    prepare(words, mask, gold);
    insidePass();
    outsidePass();
    const std::size_t N = N_;
    for (int w = 2; w < n_; ++w)
        for (int i = 0; i + w <= n_; ++i) {
            const int k = i + w, c = cell(i, k);
            if (T_[c] == kEmpty) continue;
            if (!mask_.keep(i, k)) insideCell(i, k);
            if (S_[c] == kEmpty) continue;
            const double* oP = oPre_.data() + c * N;
            const double* pP = pPre_.data() + c * N;
            double dz = 0, dr = 0; // Σ_x Ω_pre·α̂_pre and Σ_x (Ψ_pre·α̂_pre + Ω_pre·ρ̂_pre)
            for (std::uint32_t li = preRange_[c].first; li < preRange_[c].second; ++li) {
                const std::uint32_t x = preSym_[li];
                dz += oP[x] * preA_[li];
                dr += pP[x] * preA_[li] + oP[x] * preR_[li];
            }
            dZ_[c] = dz;
            dR_[c] = dr;
        }
    outsideDone_ = true;
}

} // namespace prunescope
