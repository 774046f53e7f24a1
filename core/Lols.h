#pragma once
// LOLS training of pruning policies (Vieira & Eisner 2017, sec. 4 Alg. 2; sec. 6-7; footnotes 10,
// 15): roll in with pi_i, intervene at every (or, for rCP, a sample of <= 2n) span(s), roll out,
// aggregate consolidated reward vectors, retrain the logistic-regression policy, early-stop on dev.
// Algorithm choices and the run-directory schema: docs/lols.md.
#include "core/Grammar.h"
#include "core/LogisticRegression.h"
#include "core/Policy.h"
#include "core/Rollout.h"
#include "core/Tree.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace prunescope {

struct LolsSentence {
    std::vector<std::string> words;
    Tree gold;  // normalized n-ary gold tree
};
// Sentences of normalized gold trees with 3 <= n <= maxLength (0 = no limit), in order; shorter
// sentences have no prunable span (T = 0) and give LOLS nothing to learn.
// treeIndex (optional) receives, per kept sentence, its index in normalizedGold.
std::vector<LolsSentence> lolsSentences(std::span<const Tree> normalizedGold, int maxLength,
                                        std::vector<int>* treeIndex = nullptr);

enum class RolloutEngine { Fast, Naive };  // Fast = change propagation (rCP) / DP (rDP)
const char* rolloutEngineName(RolloutEngine e);                 // "fast" | "naive"
RolloutEngine rolloutEngineFromName(const std::string& name);  // throws std::invalid_argument

using RolloutFunction = std::function<std::vector<SpanRollout>(const RolloutRequest&)>;
RolloutFunction rolloutFunction(Surrogate s, RolloutEngine e);

struct LolsConfig {
    Surrogate surrogate = Surrogate::DP;
    RolloutEngine engine = RolloutEngine::Fast;
    double lambda = 0;           // reward = accuracy - lambda * runtime (surrogate units)
    int iterations = 10;
    int minibatch = 100;         // roll-in sentences per iteration (Alg. 2 line 5)
    int cpRolloutsPerWord = 2;   // rCP: sample <= this * n of the T spans (footnote 10); 0 = all
    std::uint64_t seed = 1;
    int threads = 0;             // 0 = hardware concurrency; results never depend on it
    LogRegOptions logreg;        // rescaleWeights stays on (sec. 6)
    bool warmStart = true;       // start L-BFGS from the current policy's weights
    int trainEvalSentences = 0;  // also evaluate each policy on this many fixed train sentences
    nlohmann::json toJson() const;
    static LolsConfig fromJson(const nlohmann::json& j);  // missing keys keep their defaults
};

// A consolidated state (footnote 15): the summed (upweighted) reward vector of span (i,k) of
// training sentence `sentence`.
struct RewardEntry {
    std::uint32_t sentence = 0;
    std::uint16_t i = 0, k = 0;
    double rewardPrune = 0, rewardKeep = 0;
    std::uint64_t key() const {
        return (static_cast<std::uint64_t>(sentence) << 32) | (static_cast<std::uint64_t>(i) << 16) | k;
    }
};

// The aggregated dataset of Alg. 2 line 13, stored sparsely and sorted by (sentence, i, k).
class AggregatedDataset {
public:
    // Adds entries in any order; entries with the same (sentence, i, k) are summed.
    void add(std::vector<RewardEntry> entries);
    const std::vector<RewardEntry>& entries() const { return entries_; }
    std::size_t size() const { return entries_.size(); }
    // Weighted binary examples: label = argmax (keep on ties is irrelevant: weight 0 states are
    // left out), weight = |rewardKeep - rewardPrune|; features of `sentences[sentence]`.
    std::vector<WeightedExample> examples(std::span<const LolsSentence> sentences) const;
    std::string serialize() const;  // little-endian binary, see docs/lols.md
    // Throws InputError(fileName, ...) on a malformed buffer.
    static AggregatedDataset deserialize(const std::string& bytes, const std::string& fileName);
    bool operator==(const AggregatedDataset& o) const;

private:
    std::vector<RewardEntry> entries_;
};

// The baseline's weighted dataset Q0 (sec. 7 step 3) in reward-vector form, so that it is summed
// with LOLS's own reward vectors of the same states: an example of label keep and weight w becomes
// rewardKeep = scale*w, rewardPrune = 0 (and vice versa). origin[e] = (tree index, i, k) of
// example e; sentenceOfTree maps a tree index to a LOLS training-sentence index (-1 = drop).
struct SpanOrigin {
    int sentence = 0, i = 0, k = 0;
};
AggregatedDataset datasetFromExamples(std::span<const WeightedExample> examples, std::span<const SpanOrigin> origin,
                                      std::span<const int> sentenceOfTree, double scale);

// Alg. 2 lines 6-11 on one sentence.
struct SentenceRollouts {
    std::vector<SpanRollout> rollouts;  // as returned by the rollout function
    std::vector<RewardEntry> entries;   // weighted reward vectors (weight T/S for S of T sampled)
    int states = 0;                     // T
    double weight = 1;                  // T/S
    double rollInAccuracy = 0, rollInRuntime = 0;  // surrogate measures of the roll-in
    bool skipped = false;  // rCP: EVALB cannot score some parse against the gold (an EVALB "error
                           // sentence", e.g. a word tagged as punctuation by one tree only): no states
};
// Per-sentence randomness (the rCP span sample) comes from (seed, iteration, sentenceIndex) only.
SentenceRollouts collectSentenceRollouts(const Grammar& g, const LolsSentence& s, std::uint32_t sentenceIndex,
                                         const Policy& policy, const LolsConfig& cfg, int iteration,
                                         const RolloutFunction& rollouts);

// The mask the policy gives a sentence (keep iff p(keep) >= threshold on every prunable span).
PruningMask lolsPolicyMask(const Policy& policy, const std::vector<std::string>& words);

struct PolicyEvaluation {
    int sentences = 0;
    double reward = 0, accuracy = 0, runtime = 0;  // surrogate means (accuracy in [0,1])
    double f1 = 0;                                 // corpus EVALB F1, percent
    double mpush = 0, constituents = 0, spansKept = 0;  // means per sentence
    int failures = 0;
    double seconds = 0;  // parsing + surrogate evaluation (wall clock, all threads)
    nlohmann::json toJson() const;
    static PolicyEvaluation fromJson(const nlohmann::json& j);
};
// Parses every sentence with the policy's mask and measures surrogate reward and true metrics.
PolicyEvaluation evaluatePolicy(const Grammar& g, std::span<const LolsSentence> sentences, const Policy& p,
                                Surrogate s, double lambda, const RolloutFunction& rollouts, int threads,
                                const std::atomic<bool>* cancel = nullptr);

struct LolsIterationRecord {
    int iteration = 0;  // 0 = the initial policy
    double trainRollInReward = std::numeric_limits<double>::quiet_NaN();  // pi_{t-1} on the minibatch
    double trainRollInAccuracy = std::numeric_limits<double>::quiet_NaN();
    double trainRollInRuntime = std::numeric_limits<double>::quiet_NaN();
    int minibatchSentences = 0;
    int skippedSentences = 0;  // EVALB error sentences left out of this iteration (rCP)
    long newStates = 0;       // roll-in states rolled out this iteration
    long datasetStates = 0;   // consolidated states after aggregation
    long examples = 0;        // nonzero-weight examples trained on
    int lbfgsIterations = 0;
    double objective = 0;
    PolicyEvaluation dev;
    bool hasTrainEval = false;
    PolicyEvaluation train;   // fixed train sample (if trainEvalSentences > 0)
    double secondsRollouts = 0, secondsTraining = 0, secondsEvaluation = 0, seconds = 0;
    bool best = false;        // best dev reward so far (ties keep the earlier)
    nlohmann::json toJson() const;
    static LolsIterationRecord fromJson(const nlohmann::json& j);
};

// Everything needed to continue training after `iteration`.
struct LolsState {
    int iteration = 0;
    Policy policy;  // pi_{iteration+1} in the paper's numbering (the latest trained policy)
    AggregatedDataset data;
    std::vector<LolsIterationRecord> log;
    int bestIteration = 0;
    double bestDevReward = -std::numeric_limits<double>::infinity();
};

struct LolsProgress {
    int iteration = 0;
    std::string phase;  // "rollouts" | "training" | "evaluation"
    int done = 0, total = 0;
};
using LolsProgressCallback = std::function<void(const LolsProgress&)>;

class LolsTrainer {
public:
    LolsTrainer(const Grammar& g, std::vector<LolsSentence> train, std::vector<LolsSentence> dev, LolsConfig cfg);
    // Iteration 0: evaluates the initial policy on dev; q0 = the baseline's dataset (may be empty).
    LolsState start(const Policy& init, AggregatedDataset q0, const std::atomic<bool>* cancel = nullptr,
                    const LolsProgressCallback& progress = {});
    // One iteration of Alg. 2 (lines 4-13) plus dev evaluation. Returns false, leaving st
    // untouched, if cancelled.
    bool step(LolsState& st, const std::atomic<bool>* cancel = nullptr, const LolsProgressCallback& progress = {});
    // Train sentence indices of iteration t's minibatch (deterministic in (seed, t)).
    std::vector<std::uint32_t> minibatch(int iteration) const;

    const LolsConfig& config() const { return cfg_; }
    const std::vector<LolsSentence>& train() const { return train_; }
    const std::vector<LolsSentence>& dev() const { return dev_; }
    int threads() const;

private:
    PolicyEvaluation evaluate(std::span<const LolsSentence> s, const Policy& p, const std::atomic<bool>* cancel) const;
    std::span<const LolsSentence> trainSample() const;
    const Grammar* g_;
    std::vector<LolsSentence> train_, dev_;
    LolsConfig cfg_;
    RolloutFunction rollouts_;
};

// Runs fn(index, worker) for index in [0, count) on `threads` std::threads (work items taken in
// order from a shared counter); stops handing out work once *cancel is set. Rethrows the first
// exception.
void parallelFor(int count, int threads, const std::function<void(int, int)>& fn,
                 const std::atomic<bool>* cancel = nullptr);
int defaultThreads(int requested);
// `count` distinct indices of [0, population) drawn uniformly (partial Fisher-Yates on a splitmix64
// stream seeded by (seed, a, b)), returned ascending. Platform independent.
std::vector<std::uint32_t> sampleIndices(std::size_t population, std::size_t count, std::uint64_t seed,
                                         std::uint64_t a, std::uint64_t b);

} // namespace prunescope
