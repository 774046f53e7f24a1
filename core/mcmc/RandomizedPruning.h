#pragma once
// Randomized pruning by auxiliary-variable MCMC (Bouchard-Côté, Petrov & Klein 2009, Alg. 1 and
// Fig. 3 for monolingual parsing): a chain of pruning masks m(s, a) on the CKY chart whose averaged
// pruned expectations converge to the exact ones.
//
// One iteration (step()):
//   s ← k*(s, ·)                      the selection chain (AuxiliaryVariables.h)
//   m ← CreateMask(s, a)              Alg. 2
//   PrunedInside(w, m), PrunedOutside  E ← E + E_m[f]   (sec. 3.3: the Rao-Blackwellised soft
//   count) T ~ P(T | m);  a_ι ← [ι ∈ T]      the block Gibbs kernel k_s of sec. 3.1
// The estimate after N iterations is E / N. The chain (s, T) leaves P(T | w) invariant for every
// s, because P(T | A_s = a_s) is exactly the pruned chart's distribution and the excluded
// variables are a deterministic function of T (tests/mcmc/test_randomized_pruning.cpp checks it
// by enumeration). With an empty selection (SelectionKind::None) every iteration is exact
// inside-outside.
//
// Start state ("a, s <- random initialization"): a is the bracketing of a tree drawn from the chart
// pruned to the support M' (a cheap pass; the unpruned chart if that mask leaves no derivation);
// its pushes are part of pushes().
// Deterministic given (seed, stream): all randomness is one SplitMix64 stream.
#include "core/mcmc/AuxiliaryVariables.h"
#include "core/parse/Expectations.h"
#include "core/parse/PrunedInsideOutside.h"
#include "core/util/Progress.h"
#include "core/util/Random.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace prunescope {

// Defaults: the configuration chosen on dev (docs/results.md, "Randomized pruning").
struct RandomizedOptions {
    SelectionKind selection = SelectionKind::Independent;
    double supportThreshold = 0.7;        // M' = prunable spans whose figure of merit >= this
    double selectionFraction = 2.0 / 3.0; // |s| = ⌊f·|M'|⌋ (sec. 3.2: 2/3)
    std::uint64_t seed = 1;
};

// Throws std::invalid_argument for options no chain can run with (fraction, threshold).
void validateRandomizedOptions(const RandomizedOptions& opt);

// What one iteration did.
struct ChainIteration {
    int iteration = 0;        // 1-based
    long pushes = 0;          // this iteration's PrunedInside
    int spansKept = 0;        // ||m||_0
    int selected = 0;         // |s|
    int selectedPositive = 0; // selected spans that are constituents of the current tree
    double logZ = 0;          // log Z_m of this iteration's mask
};

// Thrown by start() when the grammar has no derivation of the sentence at all.
struct NoDerivation : std::runtime_error {
    NoDerivation() : std::runtime_error("the grammar has no derivation of the sentence") {}
};

class RandomizedPruning {
  public:
    explicit RandomizedPruning(const Grammar& g);

    // Starts a chain on one sentence. fom: a figure of merit per span ([i*(n+1)+k],
    // FigureOfMerit.h) that picks M'. The stream (a, b) separates chains of one seed (e.g. sentence
    // index, repeat). Throws NoDerivation if the grammar cannot parse the sentence.
    void start(std::span<const std::string> words, const std::vector<double>& fom,
               const RandomizedOptions& opt, std::uint64_t streamA = 0, std::uint64_t streamB = 0);
    // One iteration of Alg. 1. Polls `progress` for cancellation inside the pruned passes.
    ChainIteration step(const Progress& progress = {});
    // `iterations` steps, reporting each ("MCMC iterations"); throws Cancelled when cancelled
    // (the iterations already done stay in the estimate).
    void run(int iterations, const Progress& progress = {});

    int iterations() const { return iterations_; }
    long initPushes() const { return initPushes_; }
    long pushes() const { return initPushes_ + iterationPushes_; } // total so far
    // The running estimate E / N (all zero before the first iteration).
    Expectations estimate() const;
    void estimateInto(Expectations& out) const;
    const Expectations& lastExpectations() const { return last_; } // E_m of the last iteration
    const PruningMask& mask() const { return mask_; }              // the last iteration's mask
    const SelectionChain& selection() const { return chain_; }
    const std::vector<std::uint8_t>& assignment() const { return a_; }
    const Tree& currentTree() const { return tree_; } // T of the current state
    const std::vector<std::string>& words() const { return words_; }
    int length() const { return static_cast<int>(words_.size()); }

  private:
    const Grammar* g_;
    PrunedInsideOutside io_;
    std::vector<std::string> words_;
    SelectionChain chain_;
    SplitMix64 rng_{0};
    std::vector<std::uint8_t> a_;
    Tree tree_;
    PruningMask mask_;
    Expectations sum_, last_;
    int iterations_ = 0;
    long initPushes_ = 0, iterationPushes_ = 0;
};

} // namespace prunescope
