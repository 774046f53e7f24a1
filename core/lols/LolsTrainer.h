#pragma once
// The LOLS trainer (Vieira & Eisner 2017, sec. 4 Alg. 2): iteration 0 evaluates the initial
// policy; each step() is one iteration (lines 4-13: roll in on a minibatch, roll out every
// intervention, aggregate, retrain) followed by the dev evaluation that early stopping reads.
// The per-sentence pieces it is built from (datasets, rollout collection) are in Lols.h; the
// run directory and the one driver used by the CLI and the GUI are in RunDirectory.h / LolsRun.h.
// Progress (core/util/Progress.h): step = iteration, phases "rollouts" (one item per minibatch
// sentence), "training" (one item per L-BFGS objective evaluation) and "evaluation" (one item per
// dev sentence); every phase polls the cancel flag at least once per sentence or per block of
// examples, so a cancel acts well within 1 s, retraining included.
#include "core/grammar/Grammar.h"
#include "core/lols/Lols.h"
#include "core/lols/RetrainingData.h"
#include "core/lols/RolloutDistributor.h"
#include "core/policy/Policy.h"
#include "core/util/Progress.h"

#include <cstdint>
#include <functional>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace prunescope {

struct PolicyEvaluation {
    int sentences = 0;
    double reward = 0, accuracy = 0, runtime = 0;      // surrogate means (accuracy in [0,1])
    double f1 = 0;                                     // corpus EVALB F1, percent
    double mpush = 0, constituents = 0, spansKept = 0; // means per sentence
    int failures = 0;
    double seconds = 0; // parsing + surrogate evaluation (wall clock, all threads)
    nlohmann::json toJson() const;
    static PolicyEvaluation fromJson(const nlohmann::json& j);
};
// Parses every sentence with the policy's mask and measures surrogate reward and true metrics.
// Progress: phase "evaluation", one item per sentence; a cancel throws Cancelled.
PolicyEvaluation evaluatePolicy(const Grammar& g, std::span<const LolsSentence> sentences,
                                const Policy& p, Surrogate s, double lambda,
                                const RolloutFunction& rollouts, int threads,
                                const Progress& progress = {});

struct LolsIterationRecord {
    int iteration = 0; // 0 = the initial policy
    double trainRollInReward =
        std::numeric_limits<double>::quiet_NaN(); // pi_{t-1} on the minibatch
    double trainRollInAccuracy = std::numeric_limits<double>::quiet_NaN();
    double trainRollInRuntime = std::numeric_limits<double>::quiet_NaN();
    int minibatchSentences = 0;
    int skippedSentences = 0; // EVALB error sentences left out of this iteration (rCP)
    long newStates = 0;       // roll-in states rolled out this iteration
    long datasetStates = 0;   // consolidated states after aggregation
    long examples = 0;        // nonzero-weight examples trained on
    int lbfgsIterations = 0;
    double objective = 0;
    PolicyEvaluation dev;
    bool hasTrainEval = false;
    PolicyEvaluation train; // fixed train sample (if trainEvalSentences > 0)
    double secondsRollouts = 0, secondsTraining = 0, secondsEvaluation = 0, seconds = 0;
    bool best = false; // best dev reward so far (ties keep the earlier)
    nlohmann::json toJson() const;
    static LolsIterationRecord fromJson(const nlohmann::json& j);
};

// Everything needed to continue training after `iteration`.
struct LolsState {
    int iteration = 0;
    Policy policy; // pi_{iteration+1} in the paper's numbering (the latest trained policy)
    AggregatedDataset data;
    std::vector<LolsIterationRecord> log;
    int bestIteration = 0;
    double bestDevReward = -std::numeric_limits<double>::infinity();
};

class LolsTrainer {
  public:
    LolsTrainer(const Grammar& g, std::vector<LolsSentence> train, std::vector<LolsSentence> dev,
                LolsConfig cfg);
    // Iteration 0: evaluates the initial policy on dev; q0 = the baseline's dataset (may be empty).
    // Throws Cancelled if cancelled (there is no iteration to keep yet).
    LolsState start(const Policy& init, AggregatedDataset q0, const Progress& progress = {});
    // One iteration of Alg. 2 (lines 4-13) plus dev evaluation. Returns false, leaving st
    // untouched, if cancelled in any phase (a half-trained policy is never an iteration).
    bool step(LolsState& st, const Progress& progress = {});
    // Train sentence indices of iteration t's minibatch (deterministic in (seed, t)).
    std::vector<std::uint32_t> minibatch(int iteration) const;
    // Alg. 2 lines 6-11 for the given positions of iteration t's minibatch with roll-in policy
    // rollIn, on this process's threads (results in the order of positions): what step() runs
    // through the distributor, and what a remote worker runs on its share. Progress: one item per
    // sentence; on a cancel it returns early (the caller checks the flag).
    std::vector<SentenceRollouts> rollOut(int iteration, const Policy& rollIn,
                                          std::span<const int> positions,
                                          const Progress& progress = {}) const;
    // How step() spreads its rollouts (RolloutDistributor.h); default: this process's threads.
    void setDistributor(RolloutDistributor d) { distributor_ = std::move(d); }

    const LolsConfig& config() const { return cfg_; }
    const std::vector<LolsSentence>& train() const { return train_; }
    const std::vector<LolsSentence>& dev() const { return dev_; }
    int threads() const;

  private:
    PolicyEvaluation evaluate(std::span<const LolsSentence> s, const Policy& p,
                              const Progress& progress) const;
    std::span<const LolsSentence> trainSample() const;
    // The three phases of step(t), each on copies (st changes only once all finished):
    // roll in with π_t on the minibatch and roll out every state (the new reward entries, and the
    // roll-in's mean accuracy and runtime in rec); retrain on the aggregate, warm-started from
    // π_t; evaluate π_{t+1} on dev (and the train sample) for early stopping.
    std::vector<RewardEntry> collectRollouts(int t, const Policy& policy, LolsIterationRecord& rec,
                                             const Progress& progress);
    Policy retrain(int t, const AggregatedDataset& data, const Policy& policy,
                   LolsIterationRecord& rec, const Progress& progress);
    void evaluateNext(Policy& next, LolsIterationRecord& rec, const Progress& progress) const;
    const Grammar* g_;
    std::vector<LolsSentence> train_, dev_;
    LolsConfig cfg_;
    RolloutFunction rollouts_;
    RolloutDistributor distributor_;
    RetrainingData
        retraining_; // the aggregate's compact features, kept across iterations (issue 16)
};

} // namespace prunescope
