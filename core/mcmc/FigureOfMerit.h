#pragma once
// Figures of merit of spans: the "simpler model" of randomized pruning (Bouchard-Côté, Petrov &
// Klein 2009, sec. 3.2: the support M' of the selection chain) and of the fixed single-mask
// baselines ("tic-tac-toe" pruning, sec. 4.1: prune a span whose figure of merit falls under a
// threshold). Values are at [i*(n+1)+k] for the prunable spans (1 < k-i < n), 1 elsewhere.
//
// On our grammar no grammar-derived figure of merit is cheap: a coarse (h = 0) grammar's exact pass
// costs 74 % of the fine one's pushes (docs/randomized-pruning.md), because every coarse symbol is
// built in almost every cell. The figure of merit is therefore a learned PruneScope policy's keep
// probability (boundary-word features, no grammar pushes), and the exact posterior serves as an
// *oracle* figure of merit (its cost is the exact pass, so it only bounds what a fixed mask can
// do).
#include "core/mcmc/AuxiliaryVariables.h"
#include "core/parse/Expectations.h"
#include "core/parse/PruningMask.h"
#include "core/policy/Policy.h"

#include <string>
#include <vector>

namespace prunescope {

// The policy's keep probability σ(θ·x) of every prunable span.
std::vector<double> policyFigureOfMerit(const Policy& p, const std::vector<std::string>& words);
// The span posteriors of (exact) expectations.
std::vector<double> posteriorFigureOfMerit(const Expectations& e);
// Tic-tac-toe: keep a prunable span iff its figure of merit >= threshold (threshold > 1 prunes
// all).
PruningMask thresholdMask(int n, const std::vector<double>& fom, double threshold);
// M': the prunable spans whose figure of merit >= threshold, in (width, start) order.
SpanList supportOf(int n, const std::vector<double>& fom, double threshold);

} // namespace prunescope
