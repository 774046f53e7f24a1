// PrunedInside / PrunedOutside over the span-pruned chart (Bouchard-Côté et al. 2009, Alg. 3).
#include "core/parse/PrunedInsideOutside.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <numbers>
#include <stdexcept>

namespace prunescope {

PrunedInsideOutside::PrunedInsideOutside(const Grammar& g) : g_(&g), N_(g.numSymbols()), in_(g) {
    oPre_.assign(N_, 0.0);
}

// Clears the dense rows of the last sentence through the kernel's symbol lists (before reset).
void PrunedInsideOutside::clearOutside() {
    const std::size_t N = N_;
    for (int c = 0; c < (n_ > 0 ? in_.numCells() : 0); ++c) {
        for (std::uint32_t li = in_.postRange(c).first; li < in_.postRange(c).second; ++li)
            oPost_[c * N + in_.postSym(li)] = 0.0;
        for (std::uint32_t li = in_.preRange(c).first; li < in_.preRange(c).second; ++li)
            aPre_[c * N + in_.preSym(li)] = 0.0;
    }
}

PrunedInsideStats PrunedInsideOutside::inside(std::span<const std::string> words,
                                              const PruningMask& mask, const Progress& progress) {
    const int n = static_cast<int>(words.size());
    const std::size_t need = static_cast<std::size_t>(n) * (n + 1) / 2 *
                             static_cast<std::size_t>(N_) * 3 * sizeof(double);
    if (n > 0 && n <= kMaxSentenceLength && need > kMemoryBudget)
        throw std::invalid_argument(
            "a sentence of " + std::to_string(n) + " words needs " + std::to_string(need >> 20) +
            " MiB for inside-outside with this grammar (limit " +
            std::to_string(kMemoryBudget >> 20) + " MiB): use a shorter sentence or --max-len");
    clearOutside();
    n_ = 0;
    in_.reset(words, mask); // throws for an empty or too long sentence, or a wrong mask
    n_ = n;
    const std::size_t dense = static_cast<std::size_t>(in_.numCells()) * N_;
    if (oPost_.size() < dense) { // grows only; cleared through the symbol lists
        aPre_.assign(dense, 0.0);
        oPost_.assign(dense, 0.0);
    }
    stats_ = PrunedInsideStats{};
    for (int i = n - 1; i >= 0; --i) { // row by row: ScaledInside's layout
        progress.throwIfCancelled();
        for (int k = i + 1; k <= n; ++k) {
            if (!mask.keep(i, k)) continue;
            if (k - i > 1 && k - i < n) ++stats_.spansKept;
            in_.buildCell(i, k);
        }
    }
    stats_.pushes = in_.pushes();
    for (int c = 0; c < in_.numCells(); ++c)
        for (std::uint32_t li = in_.preRange(c).first; li < in_.preRange(c).second; ++li)
            aPre_[static_cast<std::size_t>(c) * N_ + in_.preSym(li)] = in_.preValue(li).a;
    // ROOT over the whole sentence.
    const int top = cell(0, n);
    zMant_ = 0;
    if (S(top) != kEmpty) {
        const InsideValue* a = in_.post(top);
        for (std::size_t r = 0; r < g_->rootRules.size(); ++r) {
            const UnaryRule& rr = g_->rootRules[r];
            if (a[rr.child].a == 0.0) continue;
            ++stats_.pushes;
            zMant_ += std::exp(static_cast<double>(rr.logProb)) * a[rr.child].a;
        }
    }
    stats_.success = zMant_ > 0;
    if (stats_.success) stats_.logZ = std::log(zMant_) + S(top) * std::numbers::ln2;
    return stats_;
}

void PrunedInsideOutside::outside(Expectations& out) {
    out.reset(*g_, in_.words());
    if (!stats_.success) return;
    out.logZ = stats_.logZ;
    const std::size_t N = N_;
    const int top = cell(0, n_);
    const InsideValue* aTop = in_.post(top);
    double* oTop = oPost_.data() + top * N;
    for (std::uint32_t li = in_.postRange(top).first; li < in_.postRange(top).second; ++li) {
        const std::uint32_t x = in_.postSym(li);
        oTop[x] = in_.rootProb(x) / zMant_;
    }
    for (std::size_t r = 0; r < g_->rootRules.size(); ++r) {
        const UnaryRule& rr = g_->rootRules[r];
        out.root[r] = std::exp(static_cast<double>(rr.logProb)) * aTop[rr.child].a / zMant_;
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
    const double mu =
        preLayerOutside(c, oPre_.data(), [&](std::uint32_t u, double p) { out.unary[u] += p; });
    out.span[static_cast<std::size_t>(i) * (n_ + 1) + k] = mu;
    if (k - i == 1) {
        const auto& entries = in_.lexical(i);
        for (std::size_t e = 0; e < entries.size(); ++e)
            out.lexical[out.lexicalBegin[i] + e] =
                oPre_[entries[e].tag] *
                std::ldexp(std::exp(static_cast<double>(entries[e].logProb)), -S(c));
    } else {
        for (int j = i + 1; j < k; ++j) {
            const double f = splitFactor(i, j, k);
            if (f == 0.0) continue;
            const int l = cell(i, j), r = cell(j, k);
            const InsideValue* aR = in_.post(r);
            const InsideValue* aLrow = in_.post(l);
            double* oR = oPost_.data() + r * N;
            double* oL = oPost_.data() + l * N;
            for (std::uint32_t li = in_.postRange(l).first; li < in_.postRange(l).second; ++li) {
                const std::uint32_t y = in_.postSym(li);
                const double aL = aLrow[y].a;
                double accL = 0;
                for (std::uint32_t gi = g.groupsByLeftBegin[y]; gi < g.groupsByLeftBegin[y + 1];
                     ++gi) {
                    const RuleGroup& grp = g.groups[gi];
                    const double ar = aR[grp.right].a;
                    if (ar == 0.0) continue;
                    const double edge = f * aL * ar;
                    double s = 0;
                    for (std::uint32_t ri = grp.begin; ri < grp.end; ++ri) {
                        const double o = oPre_[g.binary[ri].parent];
                        if (o == 0.0) continue;
                        const double t = o * in_.binaryProb(ri);
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
    for (std::uint32_t li = in_.preRange(c).first; li < in_.preRange(c).second; ++li)
        oPre_[in_.preSym(li)] = 0.0;
}

double PrunedInsideOutside::rootPosterior(std::size_t r) const {
    if (!stats_.success) return 0.0;
    const UnaryRule& rr = g_->rootRules[r];
    return std::exp(static_cast<double>(rr.logProb)) * in_.post(cell(0, n_))[rr.child].a / zMant_;
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
    const InsideValue* aTop = in_.post(cell(0, n_));
    const std::int64_t r = pick(rng.uniform(), [&](auto f) {
        for (std::size_t q = 0; q < g.rootRules.size(); ++q)
            f(static_cast<std::int64_t>(q),
              std::exp(static_cast<double>(g.rootRules[q].logProb)) * aTop[g.rootRules[q].child].a);
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
            f(static_cast<std::int64_t>(u), in_.unaryProb(u) * aP[g.unary[u].child]);
        }
    });
    if (o == kNoOption) throw std::logic_error("sampling reached a post vertex with no derivation");
    if (o == -2) return samplePre(rng, i, k, x);
    return Tree{g.symbols[x], {samplePre(rng, i, k, g.unary[o].child)}};
}

Tree PrunedInsideOutside::samplePre(SplitMix64& rng, int i, int k, std::uint32_t x) const {
    const Grammar& g = *g_;
    if (k - i == 1) return Tree{g.symbols[x], {Tree{in_.words()[i], {}}}};
    const int c = cell(i, k);
    // Options: (split j, binary rule) packed as witnesses are.
    const std::int64_t o = pick(rng.uniform(), [&](auto f) {
        for (int j = i + 1; j < k; ++j) {
            if (!usable(i, j) || !usable(j, k)) continue;
            const int l = cell(i, j), r = cell(j, k);
            const double s = std::ldexp(1.0, S(l) + S(r) - S(c));
            const InsideValue* aL = in_.post(l);
            const InsideValue* aR = in_.post(r);
            for (std::uint32_t b = g.binaryByParentBegin[x]; b < g.binaryByParentBegin[x + 1];
                 ++b) {
                const std::uint32_t ri = g.binaryByParent[b];
                const BinaryRule& br = g.binary[ri];
                const double wgt = in_.binaryProb(ri) * aL[br.left].a * aR[br.right].a * s;
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
