// PrunedInside / PrunedOutside over the span-pruned chart (Bouchard-Côté et al. 2009, Alg. 3).
#include "core/mcmc/PrunedInsideOutside.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <numbers>
#include <stdexcept>

namespace prunescope {

PrunedInsideOutside::PrunedInsideOutside(const Grammar& g) : g_(&g), N_(g.numSymbols()) {
    for (const auto& r : g.binary)
        binaryProb_.push_back(std::exp(static_cast<double>(r.logProb)));
    for (const auto& r : g.unary)
        unaryProb_.push_back(std::exp(static_cast<double>(r.logProb)));
    rootProb_.assign(N_, 0.0);
    for (const auto& r : g.rootRules)
        rootProb_[r.child] += std::exp(static_cast<double>(r.logProb));
    scratch_.assign(N_, 0.0);
    oPre_.assign(N_, 0.0);
    mark_.assign(N_, 0);
}

void PrunedInsideOutside::clearDense() {
    const std::size_t N = N_;
    for (std::size_t c = 0; c < postRange_.size(); ++c) {
        for (std::uint32_t li = postRange_[c].first; li < postRange_[c].second; ++li)
            aPost_[c * N + postSym_[li]] = oPost_[c * N + postSym_[li]] = 0.0;
        for (std::uint32_t li = preRange_[c].first; li < preRange_[c].second; ++li)
            aPre_[c * N + preSym_[li]] = 0.0;
    }
}

PrunedInsideStats PrunedInsideOutside::inside(std::span<const std::string> words,
                                              const PruningMask& mask, const Progress& progress) {
    const int n = static_cast<int>(words.size());
    if (n == 0) throw std::invalid_argument("cannot run inside-outside on an empty sentence");
    if (n > kMaxSentenceLength)
        throw std::invalid_argument("sentence longer than " + std::to_string(kMaxSentenceLength) +
                                    " words");
    if (mask.n != n)
        throw std::invalid_argument("mask is for " + std::to_string(mask.n) +
                                    " words, sentence has " + std::to_string(n));
    const std::size_t need = static_cast<std::size_t>(n) * (n + 1) / 2 *
                             static_cast<std::size_t>(N_) * 3 * sizeof(double);
    if (need > kMemoryBudget)
        throw std::invalid_argument(
            "a sentence of " + std::to_string(n) + " words needs " + std::to_string(need >> 20) +
            " MiB for inside-outside with this grammar (limit " +
            std::to_string(kMemoryBudget >> 20) + " MiB): use a shorter sentence or --max-len");
    clearDense();
    n_ = n;
    mask_ = mask;
    words_.assign(words.begin(), words.end());
    lexical_.clear();
    for (int i = 0; i < n; ++i)
        lexical_.push_back(g_->lexicalEntries(words_[i], i));
    cellOffset_.assign(n + 2, 0);
    for (int w = 1; w <= n; ++w)
        cellOffset_[w + 1] = cellOffset_[w] + (n - w + 1);
    const int cells = n * (n + 1) / 2;
    const std::size_t dense = static_cast<std::size_t>(cells) * N_;
    if (aPost_.size() < dense) { // grows only; cleared through the symbol lists
        aPre_.assign(dense, 0.0);
        aPost_.assign(dense, 0.0);
        oPost_.assign(dense, 0.0);
    }
    S_.assign(cells, kEmpty);
    preRange_.assign(cells, {0u, 0u});
    postRange_.assign(cells, {0u, 0u});
    preSym_.clear();
    postSym_.clear();
    stats_ = PrunedInsideStats{};
    for (int w = 1; w <= n; ++w) {
        progress.throwIfCancelled();
        for (int i = 0; i + w <= n; ++i) {
            if (!mask.keep(i, i + w)) continue;
            if (w > 1 && w < n) ++stats_.spansKept;
            insideCell(i, i + w);
        }
    }
    // ROOT over the whole sentence.
    const int top = cell(0, n);
    zMant_ = 0;
    if (S_[top] != kEmpty) {
        const double* a = aPost_.data() + static_cast<std::size_t>(top) * N_;
        for (std::size_t r = 0; r < g_->rootRules.size(); ++r) {
            const UnaryRule& rr = g_->rootRules[r];
            if (a[rr.child] == 0.0) continue;
            ++stats_.pushes;
            zMant_ += std::exp(static_cast<double>(rr.logProb)) * a[rr.child];
        }
    }
    stats_.success = zMant_ > 0;
    if (stats_.success) stats_.logZ = std::log(zMant_) + S_[top] * std::numbers::ln2;
    return stats_;
}

// One kept cell: the pre layer from the lexicon (width 1) or from binary rules over kept, built
// children; then the unary layer (identity or one unary rule on top); then the cell's rescaling.
// Pushes are counted exactly as Parser counts them.
void PrunedInsideOutside::insideCell(int i, int k) {
    const Grammar& g = *g_;
    const std::size_t N = N_;
    const int c = cell(i, k);
    long pushes = 0;
    int P = kEmpty;
    if (k - i == 1) {
        P = 0;
        for (const LexicalEntry& e : lexical_[i]) {
            ++pushes;
            if (scratch_[e.tag] == 0.0) touched_.push_back(e.tag);
            scratch_[e.tag] += std::exp(static_cast<double>(e.logProb));
        }
    } else {
        for (int j = i + 1; j < k; ++j)
            if (usable(i, j) && usable(j, k)) P = std::max(P, S_[cell(i, j)] + S_[cell(j, k)]);
        if (P == kEmpty) return; // no split with two built children: the cell stays empty
        for (int j = i + 1; j < k; ++j) {
            if (!usable(i, j) || !usable(j, k)) continue;
            const int l = cell(i, j), r = cell(j, k);
            const double f = std::ldexp(1.0, S_[l] + S_[r] - P); // exact (0 if negligible)
            const double* aR = aPost_.data() + r * N;
            const double* aLrow = aPost_.data() + l * N;
            for (std::uint32_t li = postRange_[l].first; li < postRange_[l].second; ++li) {
                const std::uint32_t y = postSym_[li];
                const double aL = aLrow[y] * f;
                for (std::uint32_t gi = g.groupsByLeftBegin[y]; gi < g.groupsByLeftBegin[y + 1];
                     ++gi) {
                    const RuleGroup& grp = g.groups[gi];
                    const double ar = aR[grp.right];
                    if (ar == 0.0) continue;
                    pushes += grp.end - grp.begin;
                    const double a = aL * ar;
                    for (std::uint32_t ri = grp.begin; ri < grp.end; ++ri) {
                        const std::uint32_t x = g.binary[ri].parent;
                        if (scratch_[x] == 0.0) touched_.push_back(x);
                        scratch_[x] += binaryProb_[ri] * a;
                    }
                }
            }
        }
    }
    double* aP = aPre_.data() + c * N;
    double* aQ = aPost_.data() + c * N;
    const auto preStart = static_cast<std::uint32_t>(preSym_.size());
    const auto postStart = static_cast<std::uint32_t>(postSym_.size());
    for (const std::uint32_t x : touched_) {
        if (scratch_[x] != 0.0) {
            preSym_.push_back(x);
            postSym_.push_back(x);
            mark_[x] = 1;
            aP[x] = aQ[x] = scratch_[x];
        }
        scratch_[x] = 0.0;
    }
    touched_.clear();
    const auto preEnd = static_cast<std::uint32_t>(preSym_.size());
    for (std::uint32_t li = preStart; li < preEnd; ++li) {
        const std::uint32_t y = preSym_[li];
        const std::uint32_t b = g.unaryByChildBegin[y], e = g.unaryByChildBegin[y + 1];
        pushes += e - b;
        for (std::uint32_t u = b; u < e; ++u) {
            const std::uint32_t x = g.unary[u].parent;
            if (!mark_[x]) postSym_.push_back(x), mark_[x] = 1;
            aQ[x] += unaryProb_[u] * aP[y];
        }
    }
    double M = 0;
    for (std::uint32_t li = postStart; li < postSym_.size(); ++li) {
        M = std::max(M, aQ[postSym_[li]]);
        mark_[postSym_[li]] = 0;
    }
    stats_.pushes += pushes;
    if (M == 0.0) { // nothing built (all values are 0): drop the lists
        preSym_.resize(preStart);
        postSym_.resize(postStart);
        return;
    }
    const int e = std::ilogb(M);
    const double inv = std::ldexp(1.0, -e); // exact rescaling to [1,2)
    for (std::uint32_t li = preStart; li < preEnd; ++li)
        aP[preSym_[li]] *= inv;
    for (std::uint32_t li = postStart; li < postSym_.size(); ++li)
        aQ[postSym_[li]] *= inv;
    S_[c] = P + e;
    preRange_[c] = {preStart, preEnd};
    postRange_[c] = {postStart, static_cast<std::uint32_t>(postSym_.size())};
}

void PrunedInsideOutside::outside(Expectations& out) {
    out.reset(*g_, words_);
    if (!stats_.success) return;
    out.logZ = stats_.logZ;
    const std::size_t N = N_;
    const int top = cell(0, n_);
    const double* aTop = aPost_.data() + top * N;
    double* oTop = oPost_.data() + top * N;
    for (std::uint32_t li = postRange_[top].first; li < postRange_[top].second; ++li) {
        const std::uint32_t x = postSym_[li];
        oTop[x] = rootProb_[x] / zMant_;
    }
    for (std::size_t r = 0; r < g_->rootRules.size(); ++r) {
        const UnaryRule& rr = g_->rootRules[r];
        out.root[r] = std::exp(static_cast<double>(rr.logProb)) * aTop[rr.child] / zMant_;
    }
    // Top-down: every parent of a cell is wider, so its ω is complete when the cell is processed.
    for (int w = n_; w >= 1; --w)
        for (int i = 0; i + w <= n_; ++i)
            if (usable(i, i + w)) outsideCell(i, i + w, out);
}

// The cell as a parent: its pre-layer ω through the unary layer, the cell's posterior, its rule
// counts, and ω pushed down into the children of every binary hyperedge.
void PrunedInsideOutside::outsideCell(int i, int k, Expectations& out) {
    const Grammar& g = *g_;
    const std::size_t N = N_;
    const int c = cell(i, k);
    const double* aP = aPre_.data() + c * N;
    const double* oQ = oPost_.data() + c * N;
    double mu = 0;
    for (std::uint32_t li = preRange_[c].first; li < preRange_[c].second; ++li) {
        const std::uint32_t y = preSym_[li];
        double o = oQ[y];
        for (std::uint32_t u = g.unaryByChildBegin[y]; u < g.unaryByChildBegin[y + 1]; ++u) {
            const double ox = oQ[g.unary[u].parent];
            if (ox == 0.0) continue;
            o += unaryProb_[u] * ox;
            out.unary[u] += unaryProb_[u] * ox * aP[y];
        }
        oPre_[y] = o;
        mu += o * aP[y];
    }
    out.span[static_cast<std::size_t>(i) * (n_ + 1) + k] = mu;
    if (k - i == 1) {
        const auto& entries = lexical_[i];
        for (std::size_t e = 0; e < entries.size(); ++e)
            out.lexical[out.lexicalBegin[i] + e] =
                oPre_[entries[e].tag] *
                std::ldexp(std::exp(static_cast<double>(entries[e].logProb)), -S_[c]);
    } else {
        for (int j = i + 1; j < k; ++j) {
            if (!usable(i, j) || !usable(j, k)) continue;
            const int l = cell(i, j), r = cell(j, k);
            const double f = std::ldexp(1.0, S_[l] + S_[r] - S_[c]);
            if (f == 0.0) continue;
            const double* aR = aPost_.data() + r * N;
            const double* aLrow = aPost_.data() + l * N;
            double* oR = oPost_.data() + r * N;
            double* oL = oPost_.data() + l * N;
            for (std::uint32_t li = postRange_[l].first; li < postRange_[l].second; ++li) {
                const std::uint32_t y = postSym_[li];
                const double aL = aLrow[y];
                double accL = 0;
                for (std::uint32_t gi = g.groupsByLeftBegin[y]; gi < g.groupsByLeftBegin[y + 1];
                     ++gi) {
                    const RuleGroup& grp = g.groups[gi];
                    const double ar = aR[grp.right];
                    if (ar == 0.0) continue;
                    const double edge = f * aL * ar;
                    double s = 0;
                    for (std::uint32_t ri = grp.begin; ri < grp.end; ++ri) {
                        const double o = oPre_[g.binary[ri].parent];
                        if (o == 0.0) continue;
                        const double t = o * binaryProb_[ri];
                        s += t;
                        out.binary[ri] += t * edge;
                    }
                    if (s == 0.0) continue;
                    accL += s * ar;
                    oR[grp.right] += s * f * aL;
                }
                oL[y] += accL * f;
            }
        }
    }
    for (std::uint32_t li = preRange_[c].first; li < preRange_[c].second; ++li)
        oPre_[preSym_[li]] = 0.0;
}

namespace {
constexpr std::int64_t kNoOption = INT64_MIN;

// Id of the option whose cumulative weight first exceeds u·total (options listed by `each` as
// (id, weight) pairs, the same sequence on both passes); kNoOption if no option has weight.
template <class Each> std::int64_t pick(double u, Each each) {
    double total = 0;
    std::int64_t last = kNoOption;
    each([&](std::int64_t id, double w) {
        total += w;
        if (w > 0) last = id;
    });
    const double target = u * total;
    double acc = 0;
    bool found = false;
    std::int64_t chosen = last; // rounding: the last option with weight
    each([&](std::int64_t id, double w) {
        if (found || w <= 0) return;
        acc += w;
        if (acc > target) chosen = id, found = true;
    });
    return chosen;
}
} // namespace

Tree PrunedInsideOutside::sample(SplitMix64& rng) const {
    if (!stats_.success) throw std::logic_error("sample() needs a chart with a derivation");
    const Grammar& g = *g_;
    const double* aTop = aPost_.data() + static_cast<std::size_t>(cell(0, n_)) * N_;
    const std::int64_t r = pick(rng.uniform(), [&](auto f) {
        for (std::size_t q = 0; q < g.rootRules.size(); ++q)
            f(static_cast<std::int64_t>(q),
              std::exp(static_cast<double>(g.rootRules[q].logProb)) * aTop[g.rootRules[q].child]);
    });
    if (r == kNoOption) throw std::logic_error("sampling found no root rule with weight");
    return Tree{g.symbols[g.root],
                {samplePost(rng, 0, n_, g.rootRules[static_cast<std::size_t>(r)].child)}};
}

Tree PrunedInsideOutside::samplePost(SplitMix64& rng, int i, int k, std::uint32_t x) const {
    const Grammar& g = *g_;
    const double* aP = aPre_.data() + static_cast<std::size_t>(cell(i, k)) * N_;
    // Option -2: no unary (x's own pre value); else the unary rule's index.
    const std::int64_t o = pick(rng.uniform(), [&](auto f) {
        f(-2, aP[x]);
        for (std::uint32_t b = g.unaryByParentBegin[x]; b < g.unaryByParentBegin[x + 1]; ++b) {
            const std::uint32_t u = g.unaryByParent[b];
            f(static_cast<std::int64_t>(u), unaryProb_[u] * aP[g.unary[u].child]);
        }
    });
    if (o == kNoOption) throw std::logic_error("sampling reached a post vertex with no derivation");
    if (o == -2) return samplePre(rng, i, k, x);
    return Tree{g.symbols[x], {samplePre(rng, i, k, g.unary[o].child)}};
}

Tree PrunedInsideOutside::samplePre(SplitMix64& rng, int i, int k, std::uint32_t x) const {
    const Grammar& g = *g_;
    if (k - i == 1) return Tree{g.symbols[x], {Tree{words_[i], {}}}};
    const int c = cell(i, k);
    const std::size_t N = N_;
    // Options: (split j, binary rule) packed as witnesses are.
    const std::int64_t o = pick(rng.uniform(), [&](auto f) {
        for (int j = i + 1; j < k; ++j) {
            if (!usable(i, j) || !usable(j, k)) continue;
            const int l = cell(i, j), r = cell(j, k);
            const double s = std::ldexp(1.0, S_[l] + S_[r] - S_[c]);
            const double* aL = aPost_.data() + l * N;
            const double* aR = aPost_.data() + r * N;
            for (std::uint32_t b = g.binaryByParentBegin[x]; b < g.binaryByParentBegin[x + 1];
                 ++b) {
                const std::uint32_t ri = g.binaryByParent[b];
                const BinaryRule& br = g.binary[ri];
                const double wgt = binaryProb_[ri] * aL[br.left] * aR[br.right] * s;
                if (wgt > 0) f(static_cast<std::int64_t>(packBinaryWitness(j - i, ri)), wgt);
            }
        }
    });
    if (o == kNoOption) throw std::logic_error("sampling reached a pre vertex with no derivation");
    const int j = i + witnessSplitOffset(static_cast<std::uint32_t>(o));
    const BinaryRule& br = g.binary[witnessRule(static_cast<std::uint32_t>(o))];
    return Tree{g.symbols[x], {samplePost(rng, i, j, br.left), samplePost(rng, j, k, br.right)}};
}

} // namespace prunescope
