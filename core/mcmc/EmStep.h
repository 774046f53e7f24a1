#pragma once
// One use of expected counts a researcher cares about: an EM step of the PCFG's rule
// probabilities, with the E-step's expectations computed exactly (unpruned inside-outside), by
// randomized pruning (Bouchard-Côté, Petrov & Klein 2009), or under one fixed tic-tac-toe mask
// (sec. 2.2: the biased single-mask approximation). The M-step is stepwise EM (Liang & Klein
// 2009) with a constant step size η: θ ← (1 − η)·θ + η·θ̂, where θ̂ normalizes the expected counts
// per left-hand side. With η < 1 no rule ever gets probability 0, so a rule a pruned E-step never
// counted shrinks instead of vanishing; words outside the EM corpus keep their share of the
// lexicon. Rules are never added. See docs/randomized-pruning.md.
#include "core/grammar/Grammar.h"
#include "core/mcmc/RandomizedPruning.h"
#include "core/policy/Policy.h"
#include "core/util/Progress.h"

#include <string>
#include <vector>

namespace prunescope {

enum class ExpectationMethod { Exact, Randomized, FixedMask };
const char* expectationMethodName(ExpectationMethod m); // "exact", "randomized", "fixed-mask"

struct EStepOptions {
    ExpectationMethod method = ExpectationMethod::Exact;
    RandomizedOptions chain;     // Randomized
    int iterations = 32;         // Randomized: MCMC iterations per sentence
    double fixedThreshold = 0.1; // FixedMask: keep spans whose figure of merit >= this
    int threads = 1;
};

// Expected counts over a corpus, shaped like the grammar.
struct CorpusCounts {
    std::vector<double> binary, unary, root;  // per rule index
    std::vector<std::vector<double>> lexicon; // like Grammar::lexicon (known words and signatures)
    long pushes = 0;                          // inside-pass pushes spent (Parser's unit)
    int sentences = 0, failures = 0;          // failures: no derivation under the method's masks
};

// The E-step. fomPolicy gives the figure of merit of the randomized chain's support and of the
// fixed mask. Sentence s's chain uses stream (s, 0). Deterministic for any thread count;
// cancellable (throws Cancelled).
CorpusCounts expectedCounts(const Grammar& g,
                            const std::vector<std::vector<std::string>>& sentences,
                            const Policy& fomPolicy, const EStepOptions& opt,
                            const Progress& progress = {});

// The stepwise M-step: a new grammar with the same rules. Throws std::invalid_argument for η
// outside (0, 1] or counts of another grammar.
Grammar emUpdate(const Grammar& g, const CorpusCounts& counts, double stepSize);

// How far apart two grammars with the same rules are: the mean over left-hand sides (every symbol
// with binary or unary rules, ROOT, every tag of the lexicon) of Σ_rules |p_a − p_b| (twice the
// total-variation distance of the two rule distributions). Throws std::invalid_argument when the
// rules differ in number.
double grammarDistance(const Grammar& a, const Grammar& b);

// Σ log Z over the sentences by exact inside passes (sentences without a derivation are skipped
// and counted), and the words of the parsed sentences.
struct CorpusLikelihood {
    double logLikelihood = 0;
    long words = 0;
    int failures = 0;
    double perWord() const { return words ? logLikelihood / static_cast<double>(words) : 0.0; }
};
CorpusLikelihood corpusLikelihood(const Grammar& g,
                                  const std::vector<std::vector<std::string>>& sentences,
                                  int threads = 1, const Progress& progress = {});

} // namespace prunescope

namespace prunescope {
// The fixed tic-tac-toe threshold of matched cost: among `thresholds`, the one keeping the most
// spans whose inside passes over the corpus cost at most maxPushes in total (the largest
// threshold if none does).
double matchedFixedThreshold(const Grammar& g,
                             const std::vector<std::vector<std::string>>& sentences,
                             const Policy& fomPolicy, double maxPushes,
                             const std::vector<double>& thresholds, const Progress& progress = {});
} // namespace prunescope
