#pragma once
// Expected counts E_m[f] of one sentence under a (pruned) chart — span posteriors and expected rule
// counts (Bouchard-Côté, Petrov & Klein 2009, sec. 2.1-2.3) — their average over a sequence of
// masks (Alg. 1's E / N), and the distances the bias experiment reports against exact counts.
#include "core/grammar/Grammar.h"

#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <vector>

namespace prunescope {

struct Expectations {
    int n = 0;
    // log Σ_d p(d) over the chart's derivations; -inf when the mask leaves none (all counts are 0).
    double logZ = -std::numeric_limits<double>::infinity();
    // [i*(n+1)+k], 0 <= i < k <= n: P(span (i,k) is a node of the derivation). Width-1 spans and
    // (0,n) are 1 whenever logZ is finite; other entries (k <= i) stay 0.
    std::vector<double> span;
    std::vector<double> binary, unary, root; // per index of Grammar::binary / unary / rootRules
    // Per (position i, lexical entry e of word i as Grammar::lexicalEntries lists them): at
    // lexicalBegin[i] + e. The entry's tag is the word's preterminal with that probability.
    std::vector<double> lexical;
    std::vector<std::uint32_t> lexicalBegin; // n + 1 offsets

    // Sizes everything for the sentence (all zero, logZ = -inf).
    void reset(const Grammar& g, std::span<const std::string> words);
    void setZero(); // zero values, same sizes
    // this += w * o (same sentence); logZ is left as is.
    void addScaled(const Expectations& o, double w);
    double spanAt(int i, int k) const { return span[static_cast<std::size_t>(i) * (n + 1) + k]; }
    bool sameShape(const Expectations& o) const;
};

// Distances of an estimate to the exact expectations (same sentence). Spans: the prunable spans
// (1 < k-i < n), the only ones whose posterior is not 1. Rules: binary, unary, root and lexical.
//   L1  = Σ |est - exact|
//   KL  = KL(est/|est| ‖ exact/|exact|) of the counts normalised to distributions (in nats). This
//         direction is finite for every estimate a pruned chart gives (its support is a subset of
//         the exact one); an estimate with no mass at all (no derivation) has KL = +inf.
double spanL1(const Expectations& est, const Expectations& exact);
double spanKL(const Expectations& est, const Expectations& exact);
double ruleL1(const Expectations& est, const Expectations& exact);
double ruleKL(const Expectations& est, const Expectations& exact);

} // namespace prunescope
