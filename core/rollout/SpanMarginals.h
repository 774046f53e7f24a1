#pragma once
// Span marginals under the PCFG (Vieira & Eisner 2017, sec. 5.3: the inside-outside pass of the
// rDP rollouts): mu(i,k) = sum over derivations d allowed by the mask that use span (i,k) of
// p~(d), divided by Z. For a kept prunable span, mu = (dZ/dm_ik) / Z (InsideOutside::gradient);
// width-1 spans and the whole sentence are in every derivation (mu = 1); pruned spans have mu = 0.
// Every derivation of a binarized grammar uses n - 1 distinct spans of width >= 2, so those
// marginals sum to n - 1.
// Contract: equal to naiveSpanMarginals (one inside pass per span: mu = 1 - Z(m with (i,k)
// pruned) / Z) up to rounding.
#include "core/grammar/Grammar.h"
#include "core/parse/PruningMask.h"

#include <span>
#include <string>
#include <vector>

namespace prunescope {

struct SpanMarginals {
    int n = 0;
    bool success = false; // Z > 0; otherwise every marginal is 0
    double logZ = 0;
    std::vector<double> marginal; // [i*(n+1)+k], in [0, 1]
    double at(int i, int k) const { return marginal[static_cast<std::size_t>(i) * (n + 1) + k]; }
};

SpanMarginals spanMarginals(const Grammar& g, std::span<const std::string> words,
                            const PruningMask& mask);
SpanMarginals naiveSpanMarginals(const Grammar& g, std::span<const std::string> words,
                                 const PruningMask& mask);

} // namespace prunescope
