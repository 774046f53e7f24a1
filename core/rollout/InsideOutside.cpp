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

InsideOutside::InsideOutside(const Grammar& g) : g_(&g), N_(g.numSymbols()), in_(g) {
    needWords_ = (static_cast<std::size_t>(N_) + 63) / 64;
    sa_.assign(N_, 0.0);
    sr_.assign(N_, 0.0);
    mark_.assign(N_, 0);
}

void InsideOutside::clearOutside() {
    const std::size_t N = N_;
    for (int c = 0; c < static_cast<int>(outBegin_.size()); ++c)
        for (std::uint32_t li = outBegin_[c]; li < outEnd_[c]; ++li)
            oPre_[c * N + outSym_[li]] = pPre_[c * N + outSym_[li]] = 0.0;
    outBegin_.clear();
    outEnd_.clear();
}

void InsideOutside::prepare(std::span<const std::string> words, const PruningMask& mask,
                            const RecallGold& gold) {
    const int n = static_cast<int>(words.size());
    if (gold.n != n)
        throw std::invalid_argument("gold tree length differs from the sentence length");
    in_.reset(words, mask); // throws for an empty or too long sentence, or a wrong mask
    clearOutside();
    n_ = n;
    gold_ = &gold;
    const int cells = in_.numCells();
    const std::size_t dense = static_cast<std::size_t>(cells) * N_;
    if (oPre_.size() < dense) {
        oPre_.assign(dense, 0.0);
        pPre_.assign(dense, 0.0);
    }
    T_.assign(cells, kEmpty);
    outBegin_.assign(cells, 0);
    outEnd_.assign(cells, 0);
    outSym_.clear();
    zMant_ = rMant_ = 0;
    outsideDone_ = false;
}

// One cell of the inside pass: α̂ and ρ̂ of the pre layer from kept children (binary rules, or
// the lexicon at width 1), then the unary layer and the gold count (ScaledInside).
void InsideOutside::insideCell(int i, int k) {
    in_.buildCell(i, k, k - i >= 2 ? gold_->at(i, k) : RecallGold::kNone);
}

// Kept cells row by row (ScaledInside's layout), then ROOT: Z and r̃ of the mask. With asIfKept,
// the pruned cells too (as if kept: their derivatives' α̂); they read kept children only, so no
// kept cell changes.
void InsideOutside::insidePass(bool asIfKept) {
    for (int i = n_ - 1; i >= 0; --i)
        for (int k = i + 1; k <= n_; ++k)
            if (in_.mask().keep(i, k) || (asIfKept && hasKeptChildren(i, k))) insideCell(i, k);
    const int top = cell(0, n_);
    const InsidePair* row = in_.post(top);
    zMant_ = rMant_ = 0;
    for (std::uint32_t li = in_.postRange(top).first; li < in_.postRange(top).second; ++li) {
        const std::uint32_t x = in_.postSym(li);
        zMant_ += in_.rootProb(x) * row[x].a;
        rMant_ += in_.rootProb(x) * row[x].r;
    }
}

ExpectedRecall InsideOutside::inside(std::span<const std::string> words, const PruningMask& mask,
                                     const RecallGold& gold) {
    prepare(words, mask, gold);
    insidePass(false);
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
            o += in_.unaryProb(u) * sa_[g.unary[u].parent];
            p += in_.unaryProb(u) * sr_[g.unary[u].parent];
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
    const int c = cell(i, j);
    auto valid = [&](int a, int b, int sa, int sb) { // parent (a,b), sibling (sa,sb)
        return in_.mask().keep(a, b) && T_[cell(a, b)] != kEmpty && in_.mask().keep(sa, sb) &&
               S(cell(sa, sb)) != kEmpty;
    };
    int Tc = kEmpty;
    for (int k = j + 1; k <= n_; ++k)
        if (valid(i, k, j, k)) Tc = std::max(Tc, T_[cell(i, k)] + S(cell(j, k)));
    for (int h = 0; h < i; ++h)
        if (valid(h, j, h, i)) Tc = std::max(Tc, T_[cell(h, j)] + S(cell(h, i)));
    if (Tc == kEmpty) return;
    for (int k = j + 1; k <= n_; ++k) // (i,j) as the left child of (i,k), sibling (j,k)
        if (valid(i, k, j, k)) pullAsLeft(c, cell(i, k), cell(j, k), Tc);
    for (int h = 0; h < i; ++h) // (i,j) as the right child of (h,j), sibling (h,i)
        if (valid(h, j, h, i)) pullAsRight(c, cell(h, j), cell(h, i), Tc);
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
        if (in_.rootProb(r) > 0) sa_[r] = in_.rootProb(r), mark_[r] = 1, touched_.push_back(r);
    T_[top] = 0;
    finishOutside(0, n_);
    for (int w = n_ - 1; w >= 2; --w)
        for (int i = 0; i + w <= n_; ++i) {
            // Only the outside values a derivative can use (neededSymbols): none for a pruned
            // cell without an as-if-kept inside (it passes nothing down, and both its derivatives
            // are 0), none for a kept cell that builds nothing under the mask or one flip below.
            const int c = cell(i, i + w);
            const std::uint64_t* need = need_.data() + static_cast<std::size_t>(c) * needWords_;
            if (std::all_of(need, need + needWords_, [](std::uint64_t b) { return b == 0; }))
                continue;
            outsideCell(i, i + w);
        }
}

bool InsideOutside::hasKeptChildren(int i, int k) const {
    for (int j = i + 1; j < k; ++j)
        if (in_.usable(i, j) && in_.usable(j, k)) return true;
    return false;
}

// Sec. 5.3. The inside pass over kept cells, the as-if-kept insides of the pruned cells (their
// derivatives' α̂; the outside values depend only on kept cells), the symbols whose outside a
// derivative can use, the outside pass over those, then every span's derivatives.
void InsideOutside::run(std::span<const std::string> words, const PruningMask& mask,
                        const RecallGold& gold) {
    prepare(words, mask, gold);
    insidePass(true);
    neededSymbols();
    outsidePass();
    const std::size_t N = N_;
    for (int w = 2; w < n_; ++w)
        for (int i = 0; i + w <= n_; ++i) {
            const int k = i + w, c = cell(i, k);
            if (T_[c] == kEmpty || S(c) == kEmpty) continue;
            const double* oP = oPre_.data() + c * N;
            const double* pP = pPre_.data() + c * N;
            double dz = 0, dr = 0; // Σ_x Ω_pre·α̂_pre and Σ_x (Ψ_pre·α̂_pre + Ω_pre·ρ̂_pre)
            for (std::uint32_t li = in_.preRange(c).first; li < in_.preRange(c).second; ++li) {
                const std::uint32_t x = in_.preSym(li);
                const InsidePair& v = in_.preValue(li);
                dz += oP[x] * v.a;
                dr += pP[x] * v.a + oP[x] * v.r;
            }
            dZ_[c] = dz;
            dR_[c] = dr;
        }
    outsideDone_ = true;
}

} // namespace prunescope
