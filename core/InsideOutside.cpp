// Inside-outside over the pruned chart for expected recall and its mask gradient (sec. 5.3).
#include "core/InsideOutside.h"

#include "core/PcfgEstimator.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace prunescope {

namespace {
constexpr double kNegInfD = -std::numeric_limits<double>::infinity();

// Returns the end of the node's span; records counted nodes (footnote 11).
int collectGold(const Grammar& g, const Tree& t, int begin, bool isRoot, bool isUnaryChild, RecallGold& out) {
    if (t.isLeaf()) return begin + 1;
    int end = begin;
    const bool unaryHere = !isRoot && t.children.size() == 1 && !t.isPreterminal();
    for (const Tree& c : t.children) end = collectGold(g, c, end, false, unaryHere, out);
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
    for (const auto& r : g.binary) binaryProb_.push_back(std::exp(static_cast<double>(r.logProb)));
    for (const auto& r : g.unary) unaryProb_.push_back(std::exp(static_cast<double>(r.logProb)));
    rootProb_.assign(N_, 0.0);
    for (const auto& r : g.rootRules) rootProb_[r.child] += std::exp(static_cast<double>(r.logProb));
    sa_.assign(N_, 0.0);
    sr_.assign(N_, 0.0);
}

void InsideOutside::clearDense() {
    const std::size_t N = N_;
    for (int c = 0; c + 1 < static_cast<int>(postBegin_.size()); ++c)
        for (std::uint32_t li = postBegin_[c]; li < postBegin_[c + 1]; ++li)
            aPost_[c * N + postSym_[li]] = rPost_[c * N + postSym_[li]] = 0.0;
    for (int c = 0; c + 1 < static_cast<int>(outBegin_.size()); ++c)
        for (std::uint32_t li = outBegin_[c]; li < outBegin_[c + 1]; ++li)
            oPre_[c * N + outSym_[li]] = pPre_[c * N + outSym_[li]] = 0.0;
    postBegin_.clear();
    outBegin_.clear();
}

void InsideOutside::prepare(std::span<const std::string> words, const PruningMask& mask, const RecallGold& gold) {
    const int n = static_cast<int>(words.size());
    if (n == 0) throw std::invalid_argument("cannot run inside-outside on an empty sentence");
    if (n > kMaxSentenceLength) throw std::invalid_argument("sentence too long");
    if (mask.n != n) throw std::invalid_argument("mask length differs from the sentence length");
    if (gold.n != n) throw std::invalid_argument("gold tree length differs from the sentence length");
    clearDense();
    n_ = n;
    mask_ = mask;
    gold_ = &gold;
    lexical_.clear();
    for (int i = 0; i < n; ++i) lexical_.push_back(g_->lexicalEntries(words[i], i));
    cellOffset_.assign(n + 2, 0);
    for (int w = 1; w <= n; ++w) cellOffset_[w + 1] = cellOffset_[w] + (n - w + 1);
    const int cells = n * (n + 1) / 2;
    const std::size_t dense = static_cast<std::size_t>(cells) * N_;
    if (aPost_.size() < dense) {
        aPost_.assign(dense, 0.0);
        rPost_.assign(dense, 0.0);
        oPre_.assign(dense, 0.0);
        pPre_.assign(dense, 0.0);
    }
    S_.assign(cells, kNegInfD);
    T_.assign(cells, kNegInfD);
    postBegin_.assign(cells + 1, 0);
    preBegin_.assign(cells + 1, 0);
    outBegin_.assign(cells + 1, 0);
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
    double P = kNegInfD;
    if (k - i == 1) {
        P = 0;
        for (const LexicalEntry& e : lexical_[i]) sa_[e.tag] += std::exp(static_cast<double>(e.logProb));
    } else {
        for (int j = i + 1; j < k; ++j) {
            const int l = cell(i, j), r = cell(j, k);
            if (mask_.keep(i, j) && mask_.keep(j, k) && S_[l] != kNegInfD && S_[r] != kNegInfD)
                P = std::max(P, S_[l] + S_[r]);
        }
        if (P == kNegInfD) { // no pair of kept, built children: the cell stays empty
            postBegin_[c + 1] = static_cast<std::uint32_t>(postSym_.size());
            preBegin_[c + 1] = static_cast<std::uint32_t>(preSym_.size());
            return;
        }
        for (int j = i + 1; j < k; ++j) {
            const int l = cell(i, j), r = cell(j, k);
            if (!mask_.keep(i, j) || !mask_.keep(j, k) || S_[l] == kNegInfD || S_[r] == kNegInfD) continue;
            const double f = std::exp(S_[l] + S_[r] - P);
            const double* aR = aPost_.data() + r * N;
            const double* rR = rPost_.data() + r * N;
            const double* aLrow = aPost_.data() + l * N;
            const double* rLrow = rPost_.data() + l * N;
            for (std::uint32_t li = postBegin_[l]; li < postBegin_[l + 1]; ++li) {
                const std::uint32_t y = postSym_[li];
                const double aL = aLrow[y] * f, rL = rLrow[y] * f;
                for (std::uint32_t gi = g.groupsByLeftBegin[y]; gi < g.groupsByLeftBegin[y + 1]; ++gi) {
                    const RuleGroup& grp = g.groups[gi];
                    const double ar = aR[grp.right];
                    if (ar == 0.0) continue;
                    const double a = aL * ar, rho = rL * ar + aL * rR[grp.right];
                    for (std::uint32_t ri = grp.begin; ri < grp.end; ++ri) {
                        const std::uint32_t x = g.binary[ri].parent;
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
    const std::uint32_t preStart = static_cast<std::uint32_t>(preSym_.size());
    for (std::uint32_t x = 0; x < N; ++x) {
        if (sa_[x] == 0.0) continue;
        preSym_.push_back(x);
        preA_.push_back(sa_[x]);
        preR_.push_back(sr_[x]);
        aP[x] += sa_[x];
        rP[x] += sr_[x];
        sa_[x] = sr_[x] = 0.0;
    }
    const std::uint32_t preEnd = static_cast<std::uint32_t>(preSym_.size());
    for (std::uint32_t li = preStart; li < preEnd; ++li) {
        const std::uint32_t y = preSym_[li];
        for (std::uint32_t u = g.unaryByChildBegin[y]; u < g.unaryByChildBegin[y + 1]; ++u) {
            aP[g.unary[u].parent] += unaryProb_[u] * preA_[li];
            rP[g.unary[u].parent] += unaryProb_[u] * preR_[li];
        }
    }
    double M = 0;
    const std::uint32_t postStart = static_cast<std::uint32_t>(postSym_.size());
    for (std::uint32_t x = 0; x < N; ++x)
        if (aP[x] != 0.0) {
            postSym_.push_back(x);
            M = std::max(M, aP[x]);
        }
    if (k - i >= 2) {
        const std::uint32_t gx = gold_->at(i, k);
        if (gx != RecallGold::kNone) rP[gx] += aP[gx];
    }
    if (M > 0) {
        const double inv = 1.0 / M;
        for (std::uint32_t li = postStart; li < postSym_.size(); ++li) {
            aP[postSym_[li]] *= inv;
            rP[postSym_[li]] *= inv;
        }
        for (std::uint32_t li = preStart; li < preEnd; ++li) {
            preA_[li] *= inv;
            preR_[li] *= inv;
        }
        S_[c] = P + std::log(M);
    }
    postBegin_[c + 1] = static_cast<std::uint32_t>(postSym_.size());
    preBegin_[c + 1] = preEnd;
}

void InsideOutside::insidePass(bool withPruned) {
    for (int w = 1; w <= n_; ++w)
        for (int i = 0; i + w <= n_; ++i) {
            const int c = cell(i, i + w);
            if (withPruned || mask_.keep(i, i + w)) {
                insideCell(i, i + w);
            } else {
                postBegin_[c + 1] = static_cast<std::uint32_t>(postSym_.size());
                preBegin_[c + 1] = static_cast<std::uint32_t>(preSym_.size());
            }
        }
    const int top = cell(0, n_);
    zMant_ = rMant_ = 0;
    for (std::uint32_t li = postBegin_[top]; li < postBegin_[top + 1]; ++li) {
        const std::uint32_t x = postSym_[li];
        zMant_ += rootProb_[x] * aPost_[top * static_cast<std::size_t>(N_) + x];
        rMant_ += rootProb_[x] * rPost_[top * static_cast<std::size_t>(N_) + x];
    }
}

ExpectedRecall InsideOutside::current() const {
    ExpectedRecall e;
    if (zMant_ <= 0) return e;
    e.success = true;
    e.logZ = S_[cell(0, n_)] + std::log(zMant_);
    e.recall = gold_->count == 0 ? 1.0 : rMant_ / (gold_->count * zMant_);
    return e;
}

ExpectedRecall InsideOutside::inside(std::span<const std::string> words, const PruningMask& mask,
                                     const RecallGold& gold) {
    prepare(words, mask, gold);
    insidePass(false);
    return current();
}

} // namespace prunescope
