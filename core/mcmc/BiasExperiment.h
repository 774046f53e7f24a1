#pragma once
// The experiment of Bouchard-Côté, Petrov & Klein (2009), sec. 4.1 / Fig. 4(c,d), on our chart:
// bias of the expected counts (span posteriors and expected rule counts) against exact
// inside-outside as a function of the pushes spent, for randomized pruning (more iterations = more
// masks averaged) and for fixed single masks of every cost: tic-tac-toe-style figure-of-merit
// thresholds (the policy's keep probability), learned policies' masks, and — as an unattainable
// bound — thresholds of the exact posterior (its cost, the exact pass, is not counted).
//
// Pushes are those of the inside passes (PrunedInside, Parser's unit) plus the chain's start pass;
// every method also runs one outside pass over the same hyperedges, which does not change any
// comparison. See docs/randomized-pruning.md.
#include "core/mcmc/RandomizedPruning.h"
#include "core/policy/Policy.h"
#include "core/stats/Holm.h"
#include "core/util/Progress.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace prunescope {

struct BiasExperimentOptions {
    RandomizedOptions chain; // selection, support threshold, seed of repeat 0
    int iterations = 32;
    int repeats = 1;                // chains per sentence; repeat r uses seed chain.seed + r
    std::vector<int> checkpoints;   // iteration counts recorded; empty = 1, 2, 4, ..., iterations
    std::vector<double> thresholds; // figure-of-merit thresholds; empty = defaultFomThresholds()
    std::vector<double>
        oracleThresholds; // exact-posterior thresholds; empty = defaultOracleThresholds()
    bool oracle = true;
    int threads = 1;
    static std::vector<double> defaultFomThresholds();
    static std::vector<double> defaultOracleThresholds();
};

// Cost and distances of one estimate of one sentence.
struct BiasPoint {
    long pushes = 0;
    double spanL1 = 0, spanKL = 0, ruleL1 = 0, ruleKL = 0;
    bool failed = false; // the mask left no derivation (L1 = the exact mass, KL undefined)
};

struct SentenceBias {
    int index = 0; // in the experiment's sentence list
    int length = 0;
    long exactPushes = 0;
    std::vector<std::vector<BiasPoint>> randomized; // [repeat][checkpoint]
    std::vector<BiasPoint> fom, oracle, policies;   // per threshold / per mask policy
};

// One method at one setting, over all sentences: pushes summed, distances averaged over sentences
// (KL over the sentences where it is defined). Randomized: mean over repeats, with the standard
// deviation over repeats of the mean span L1.
struct BiasSummary {
    std::string method; // "randomized", "fom-threshold", "policy-mask", "oracle-threshold", "exact"
    double setting = 0; // iterations, or threshold
    std::string name;   // the mask policy's name
    int column = -1;    // index into the thresholds / mask policies / checkpoints
    double pushes = 0;
    double spanL1 = 0, spanKL = 0, ruleL1 = 0, ruleKL = 0, spanL1Sd = 0;
    int failures = 0;
    nlohmann::json toJson() const;
};

// Randomized pruning at one iteration count against the best fixed mask of no greater cost: the
// log ratio of their mean span L1 and a paired sign-flip permutation test on the per-sentence
// span L1 (randomized: mean over repeats), with Holm's correction over all iteration counts.
struct BiasComparison {
    BiasSummary randomized;
    std::optional<BiasSummary> fixed; // none: no fixed mask is that cheap
    double logRatio = 0;              // ln(randomized L1 / fixed L1)
    double pValue = 1, pHolm = 1;
    nlohmann::json toJson() const;
};

struct BiasExperimentResult {
    BiasExperimentOptions options; // with checkpoints and thresholds filled in
    std::vector<std::string> policyNames;
    std::vector<SentenceBias> sentences; // the sentences with a derivation, in input order
    int skipped = 0;                     // sentences the grammar cannot parse at all
    double exactPushes() const;

    // Randomized at checkpoint c: repeat r, or the mean over repeats (r = -1).
    BiasSummary randomized(std::size_t checkpoint, int repeat = -1) const;
    std::vector<BiasSummary> fixedMasks() const; // fom thresholds, then policy masks
    std::vector<BiasSummary> oracleMasks() const;
    // The fixed mask (fom threshold or policy) with the lowest mean span L1 among those costing at
    // most maxPushes in total; nullopt if none does.
    std::optional<BiasSummary> bestFixedMask(double maxPushes) const;
    // Per-sentence span L1 of a summary's column (randomized: mean over repeats).
    std::vector<double> perSentenceSpanL1(const BiasSummary& s) const;
    std::vector<BiasComparison> comparisons(int permutations = 10000, std::uint64_t seed = 1) const;
    // The dev selection criterion: the mean log ratio over all checkpoints (docs/results.md).
    static double selectionScore(const std::vector<BiasComparison>& c);
    nlohmann::json toJson() const; // options, every summary, per-sentence lengths
};

// Two-sided paired sign-flip permutation test of mean(a - b) = 0 (core/stats/PairedPermutation.h);
// 1 for empty samples or no permutation.
double pairedSignFlipTest(const std::vector<double>& a, const std::vector<double>& b,
                          int permutations, std::uint64_t seed);

// sentences: tokenized sentences. fomPolicy gives the figure of merit (M' and tic-tac-toe);
// maskPolicies are the learned policies whose own masks are the policy-mask baselines.
// Cancellable (throws Cancelled); deterministic for any thread count.
BiasExperimentResult runBiasExperiment(const Grammar& g,
                                       const std::vector<std::vector<std::string>>& sentences,
                                       const Policy& fomPolicy,
                                       const std::vector<const Policy*>& maskPolicies,
                                       BiasExperimentOptions opt, const Progress& progress = {});

} // namespace prunescope
