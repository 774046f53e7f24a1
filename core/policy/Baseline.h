#pragma once
// The asymmetric-weighting baseline (Vieira & Eisner 2017, sec. 3 and sec. 7 step ¬, after
// Bodenstab et al. 2011): a span classifier trained to keep the spans of the gold tree and prune
// the others, with a weight on the keep class; sweeping that weight gives a family of policies
// from "prune almost everything" to "keep almost everything". Details: docs/results.md "Baseline".
#include "core/frontier/Frontier.h"
#include "core/grammar/Grammar.h"
#include "core/policy/LogisticRegression.h"
#include "core/policy/Policy.h"
#include "core/treebank/Tree.h"
#include "core/util/Progress.h"

#include <functional>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace prunescope {

// Where an example comes from: span (i,k) of sentence `sentence` (index into the trees given).
struct BaselineSpanRef {
    int sentence = 0;
    int i = 0, k = 0;
};

struct BaselineExamples {
    std::vector<WeightedExample> examples; // label 1 (keep) iff the span is gold
    std::vector<BaselineSpanRef> origin;   // parallel to examples
    int sentences = 0;                     // sentences that contributed (3 <= n <= maxLength)
    long positives = 0;                    // gold (label 1) examples
};

// One example per prunable span (1 < k-i < n) of every normalized gold tree with
// n <= maxLength (0 = no limit); sentences in order, spans in (width, i) order. Gold spans are the
// prunable spans of the BINARIZED gold tree, binarizeLike(g, tree) (binarization's '@' nodes
// included). Weight: positiveWeight for gold (keep) examples, 1 for the others.
// Progress: phase "examples", one item per tree; a cancel throws Cancelled.
BaselineExamples baselineExamples(const Grammar& g, std::span<const Tree> normalizedGold,
                                  int maxLength, double positiveWeight = 1.0,
                                  const Progress& progress = {});
// Sets the asymmetric weights in place: positiveWeight on label 1, 1 on label 0.
void setPositiveWeight(std::span<WeightedExample> examples, double positiveWeight);

// The weighted dataset Q̂0 of the baseline policy with this positive weight (what that policy is
// trained on; LOLS aggregates it with its own data, sec. 7 ®). Same order as baselineExamples.
std::vector<WeightedExample> baselineDataset(const Grammar& g, std::span<const Tree> normalizedGold,
                                             double positiveWeight, int maxLength = 40);

// The default sweep of positive-class weights, 2^-2, 2^-1, ..., 2^8, 2^10, ..., 2^16 (15; checked
// on the PTB sample to span "prune almost everything" to "keep almost everything",
// docs/results.md).
std::vector<double> defaultPositiveWeights();
// The paper's regularization grid {2^-11, ..., 2^-15}.
std::vector<double> defaultL2Grid();

struct BaselineTrainInfo {
    double positiveWeight = 0, l2 = 0;
    int iterations = 0, activeFeatures = 0;
    bool converged = false;
    double objective = 0, seconds = 0;
    nlohmann::json toJson() const;
};

// Trains one baseline policy on `examples` (whose weights setPositiveWeight has set; the trainer
// rescales them to sum to 1). meta.kind = "baseline", meta.name = baselinePolicyName(w),
// meta.training records the weighting and optimizer. init: warm start (size 2^22) or nullptr.
// Progress and cancel: as trainLogisticRegression.
Policy trainBaselinePolicy(std::span<const WeightedExample> examples, double positiveWeight,
                           const LogRegOptions& opt, BaselineTrainInfo* info = nullptr,
                           const Eigen::VectorXf* init = nullptr, const Progress& progress = {});
// "baseline-w16", "baseline-w0.25": the policy's name and file stem.
std::string baselinePolicyName(double positiveWeight);

// Area under the staircase "best accuracy with runtime <= x" over log x in [xlo, xhi], divided by
// log(xhi/xlo): the mean accuracy the point set offers across the log-runtime range (0 where it has
// no point fast enough). The dev criterion for the regularization coefficient. Needs 0 < xlo < xhi.
double frontierHypervolume(std::span<const FrontierPoint> pts, double xlo, double xhi);

struct BaselinePoint {
    double positiveWeight = 0;
    Policy policy;             // empty weights (size 0) for sweeps that were not chosen
    nlohmann::json devMetrics; // CorpusResult::summaryJson() on dev
    BaselineTrainInfo train;
};

struct BaselineSweep {
    double l2 = 0;
    std::vector<BaselinePoint> points; // one per positive weight, in the order given
    double hypervolume = 0;            // frontierHypervolume on (mpush, F1 %) of dev
    double trainSeconds = 0, evalSeconds = 0;
};

// LogRegOptions{} with a 500-iteration limit: at l2 = 2^-15 the default 200 stops L-BFGS early.
LogRegOptions defaultBaselineLogReg();

struct BaselineOptions {
    std::vector<double> positiveWeights = defaultPositiveWeights();
    std::vector<double> l2Grid = defaultL2Grid(); // one value: no selection
    int maxTrainLength = 40;                      // train on sentences with n <= this (0 = all)
    int maxDevLength = 40; // evaluate on dev sentences with n <= this (0 = all)
    LogRegOptions logreg = defaultBaselineLogReg(); // l2 is taken from l2Grid
    bool warmStart = true;   // start each weight's L-BFGS from the previous weight's solution
    std::string grammarName; // recorded in the policies' meta.grammar
};

struct BaselineRun {
    std::vector<BaselineSweep> sweeps; // one per l2 value; only the chosen one keeps policies
    int chosen = -1;                   // index of the sweep with the largest hypervolume
    nlohmann::json unprunedDev;        // summaryJson of the unpruned parser on dev
    nlohmann::json allPrunedDev;       // ... of the "prune every prunable span" mask on dev
    int trainSentences = 0;
    long trainExamples = 0, trainPositives = 0;
    double featureSeconds = 0; // building the training examples (features + gold spans)
    const BaselineSweep& best() const { return sweeps.at(static_cast<size_t>(chosen)); }
};

// The whole design of sec. 7 ¬ with the regularizer chosen on dev (sec. 6 "Training"): for each
// l2 in the grid, train one policy per positive weight on `train` (normalized trees), evaluate each
// on `dev` with evaluateCorpus + policyMaskFunction, score the sweep by frontierHypervolume of
// (mean mpush, corpus F1 %) between the all-pruned and the unpruned runtimes; keep the best.
// Progress: step = sweep point (l2 value x positive weight), phases "examples", "parsing" (dev)
// and "training"; one log line per finished point and sweep. A cancel throws Cancelled (policies
// of a cut sweep are not a chosen run).
BaselineRun runBaseline(const Grammar& g, std::span<const Tree> train, std::span<const Tree> dev,
                        const BaselineOptions& opt, const Progress& progress = {});

} // namespace prunescope
