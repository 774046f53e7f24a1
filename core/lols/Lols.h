#pragma once
// LOLS training of pruning policies (Vieira & Eisner 2017, sec. 4 Alg. 2; sec. 6-7; footnotes 10,
// 15): roll in with pi_i, intervene at every (or, for rCP, a sample of <= 2n) span(s), roll out,
// aggregate consolidated reward vectors, retrain the logistic-regression policy, early-stop on dev.
// Algorithm choices and the run-directory schema: docs/lols.md.
#include "core/grammar/Grammar.h"
#include "core/policy/LogisticRegression.h"
#include "core/policy/Policy.h"
#include "core/rollout/Rollout.h"
#include "core/treebank/Tree.h"
#include "core/util/Progress.h"

#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace prunescope {

struct LolsSentence {
    std::vector<std::string> words;
    Tree gold; // normalized n-ary gold tree
};
// Sentences of normalized gold trees with 3 <= n <= maxLength (0 = no limit), in order; shorter
// sentences have no prunable span (T = 0) and give LOLS nothing to learn.
// treeIndex (optional) receives, per kept sentence, its index in normalizedGold.
std::vector<LolsSentence> lolsSentences(std::span<const Tree> normalizedGold, int maxLength,
                                        std::vector<int>* treeIndex = nullptr);
// The sentences a policy is evaluated on: every tree with n <= maxLength (0 = no limit), 1- and
// 2-word sentences included, in order — the filter the baseline and frontier evaluation use
// (CorpusEvaluator), so LOLS points and baseline points on the same dev set are one evaluation set
// (issue 42).
std::vector<LolsSentence> evaluationSentences(std::span<const Tree> normalizedGold, int maxLength);

enum class RolloutEngine { Fast, Naive };       // Fast = change propagation (rCP) / DP (rDP)
const char* rolloutEngineName(RolloutEngine e); // "fast" | "naive"
RolloutEngine rolloutEngineFromName(const std::string& name); // throws std::invalid_argument

using RolloutFunction = std::function<std::vector<SpanRollout>(const RolloutRequest&)>;
// cpWorkBudget: RolloutRequest::cpWorkBudget of the fast rCP rollouts (unset: the default).
RolloutFunction rolloutFunction(Surrogate s, RolloutEngine e,
                                std::optional<double> cpWorkBudget = std::nullopt);

// The default cap on L-BFGS iterations after LOLS iteration 1 (LolsConfig).
inline constexpr int kDefaultLbfgsMaxIterationsAfterFirst = 5;

struct LolsConfig {
    Surrogate surrogate = Surrogate::DP;
    RolloutEngine engine = RolloutEngine::Fast;
    double lambda = 0; // reward = accuracy - lambda * runtime (surrogate units)
    int iterations = 10;
    int minibatch = 100;       // roll-in sentences per iteration (Alg. 2 line 5)
    int cpRolloutsPerWord = 2; // rCP: sample <= this * n of the T spans (footnote 10); 0 = all
    std::uint64_t seed = 1;
    int threads = 0;       // 0 = hardware concurrency; results never depend on it
    LogRegOptions logreg;  // rescaleWeights stays on (sec. 6)
    bool warmStart = true; // start L-BFGS from the current policy's weights
    // Cap on L-BFGS iterations in the retraining of iterations 2, 3, ... (0 = off:
    // logreg.maxIterations throughout). Iteration 1 starts from the initial policy, trained on
    // another objective, and keeps logreg.maxIterations; later ones start from a policy trained on
    // nearly the same aggregate. Default 5, chosen on dev (issue 45; docs/lols.md "Retraining"):
    // best dev reward 0.55153 vs 0.55157 uncapped over 10 iterations, retraining 20-34 % of an
    // iteration instead of 72-79 %. Always written to the config; a config without the key (a run
    // made before this default) reads as 0, so resuming it keeps its results.
    int lbfgsMaxIterationsAfterFirst = kDefaultLbfgsMaxIterationsAfterFirst;
    // The L-BFGS options of iteration t's retraining.
    LogRegOptions retrainingOptions(int t) const;
    int trainEvalSentences = 0; // also evaluate each policy on this many fixed train sentences
    // rCP by change propagation: ChangePropagator::setWorkBudget's multiple (unset: its default).
    // Speed only, never results; config key written only when set.
    std::optional<double> cpWorkBudget;
    nlohmann::json toJson() const;
    static LolsConfig fromJson(const nlohmann::json& j); // missing keys keep their defaults
};

// A consolidated state (footnote 15): the summed (upweighted) reward vector of span (i,k) of
// training sentence `sentence`.
struct RewardEntry {
    std::uint32_t sentence = 0;
    std::uint16_t i = 0, k = 0;
    double rewardPrune = 0, rewardKeep = 0;
    std::uint64_t key() const {
        return (static_cast<std::uint64_t>(sentence) << 32) |
               (static_cast<std::uint64_t>(i) << 16) | k;
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
    // Polls the cancel flag once per sentence (throws Cancelled).
    std::vector<WeightedExample> examples(std::span<const LolsSentence> sentences,
                                          const Progress& progress = {}) const;
    // The same examples straight in compact form with weights rescaled to sum to 1 (equal to
    // compactify(examples(sentences), true), without a heap vector per example; issue 16).
    CompactData trainingData(std::span<const LolsSentence> sentences,
                             const Progress& progress = {}) const;
    std::string serialize() const; // little-endian binary, see docs/lols.md
    // Throws InputError(fileName, ...) on a malformed buffer.
    static AggregatedDataset deserialize(const std::string& bytes, const std::string& fileName);
    bool operator==(const AggregatedDataset& o) const;

  private:
    template <class Visit> // visit(features, label, weight) per nonzero-weight state, in order
    void forEachExample(std::span<const LolsSentence> sentences, const Progress& progress,
                        Visit&& visit) const;
    std::vector<RewardEntry> entries_;
};

// The baseline's weighted dataset Q0 (sec. 7 step 3) in reward-vector form, so that it is summed
// with LOLS's own reward vectors of the same states: an example of label keep and weight w becomes
// rewardKeep = scale*w, rewardPrune = 0 (and vice versa). origin[e] = (tree index, i, k) of
// example e; sentenceOfTree maps a tree index to a LOLS training-sentence index (-1 = drop).
struct SpanOrigin {
    int sentence = 0, i = 0, k = 0;
};
AggregatedDataset datasetFromExamples(std::span<const WeightedExample> examples,
                                      std::span<const SpanOrigin> origin,
                                      std::span<const int> sentenceOfTree, double scale);

// Alg. 2 lines 6-11 on one sentence.
struct SentenceRollouts {
    std::vector<SpanRollout> rollouts; // as returned by the rollout function
    std::vector<RewardEntry> entries;  // weighted reward vectors (weight T/S for S of T sampled)
    int states = 0;                    // T
    double weight = 1;                 // T/S
    double rollInAccuracy = 0, rollInRuntime = 0; // surrogate measures of the roll-in
    bool skipped =
        false; // rCP: EVALB cannot score some parse against the gold (an EVALB "error
               // sentence", e.g. a word tagged as punctuation by one tree only): no states
};
// Per-sentence randomness (the rCP span sample) comes from (seed, iteration, sentenceIndex) only.
// `cancel` (a Progress's cancelFlag(), or null) reaches the rollout function
// (RolloutRequest::cancel).
SentenceRollouts collectSentenceRollouts(const Grammar& g, const LolsSentence& s,
                                         std::uint32_t sentenceIndex, const Policy& policy,
                                         const LolsConfig& cfg, int iteration,
                                         const RolloutFunction& rollouts,
                                         const std::atomic<bool>* cancel = nullptr);

// The mask the policy gives a sentence (keep iff p(keep) >= threshold on every prunable span).
PruningMask lolsPolicyMask(const Policy& policy, const std::vector<std::string>& words);

} // namespace prunescope
