#pragma once
// Regret of the gold (baseline) oracle against the LOLS rollout oracle (Vieira & Eisner 2017,
// sec. 7.3, eq. 4): over roll-in states s of a policy, best(s) = argmax_a ROLLOUT(pi, s, a),
// gold(s) = keep iff span s is in the binarized gold tree, regret(s) = r[best(s)] - r[gold(s)] >=
// 0, diff(s) = [regret(s) > 0].
#include "core/lols/Lols.h"
#include "core/util/Progress.h"

#include <span>
#include <vector>

#include <nlohmann/json.hpp>

namespace prunescope {

struct RegretStats {
    // Weighted counts (weight 1 per state unless rollouts were sampled, then T/S) and sums.
    double states = 0, gold = 0;       // all states, gold-span states
    double diff = 0, diffGold = 0;     // states with regret > 0 (all / gold)
    double regret = 0, regretGold = 0; // summed regret (all / gold states)
    long sentences = 0;

    double pDiff() const { return states > 0 ? diff / states : 0; }
    double pGoldGivenDiff() const { return diff > 0 ? diffGold / diff : 0; }
    double pNonGoldGivenDiff() const { return diff > 0 ? (diff - diffGold) / diff : 0; }
    double regretGivenDiffGold() const { return diffGold > 0 ? regretGold / diffGold : 0; }
    double regretGivenDiffNonGold() const {
        return diff - diffGold > 0 ? (regret - regretGold) / (diff - diffGold) : 0;
    }
    double meanRegret() const { return states > 0 ? regret / states : 0; }
    double regretGivenGold() const { return gold > 0 ? regretGold / gold : 0; }
    double regretGivenNonGold() const {
        return states - gold > 0 ? (regret - regretGold) / (states - gold) : 0;
    }
    // Right-hand side of eq. 4 (equals meanRegret() up to rounding).
    double eq4() const {
        return pDiff() * (pGoldGivenDiff() * regretGivenDiffGold() +
                          pNonGoldGivenDiff() * regretGivenDiffNonGold());
    }
    void add(const RegretStats& o);
    nlohmann::json toJson() const; // the counts and all derived quantities
};

// One sentence's states: goldIndicator[i*(n+1)+k] (spanIndicator of the binarized gold tree).
RegretStats regretOfRollouts(std::span<const SpanRollout> rollouts,
                             const std::vector<std::uint8_t>& goldIndicator, int n, double lambda,
                             double weight = 1.0);

struct RegretOptions {
    Surrogate surrogate = Surrogate::CP; // the paper analyses rCP rollouts
    RolloutEngine engine = RolloutEngine::Fast;
    double lambda = 0;
    int threads = 0;
    int cpRolloutsPerWord = 0; // 0 = every state; else sample as LOLS does (footnote 10)
    std::uint64_t seed = 1;
};

// Rolls in with the policy on every sentence and rolls out its states. Deterministic and
// independent of the thread count. Progress: phase "rollouts", one item per sentence; a cancel
// throws Cancelled (the sums of a cut sample are not the analysis).
RegretStats regretAnalysis(const Grammar& g, std::span<const LolsSentence> sentences,
                           const Policy& policy, const RegretOptions& opt,
                           const Progress& progress = {});

} // namespace prunescope
