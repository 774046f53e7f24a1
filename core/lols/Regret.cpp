// Regret of the baseline (gold) oracle vs the rollout oracle (sec. 7.3, eq. 4).
#include "core/lols/Regret.h"

#include "core/grammar/PcfgEstimator.h"
#include "core/policy/GoldSpans.h"
#include "core/util/Parallel.h"

namespace prunescope {

void RegretStats::add(const RegretStats& o) {
    states += o.states;
    gold += o.gold;
    diff += o.diff;
    diffGold += o.diffGold;
    regret += o.regret;
    regretGold += o.regretGold;
    sentences += o.sentences;
}

nlohmann::json RegretStats::toJson() const {
    return {{"sentences", sentences},
            {"states", states},
            {"goldStates", gold},
            {"diffStates", diff},
            {"diffGoldStates", diffGold},
            {"p(diff)", pDiff()},
            {"p(gold|diff)", pGoldGivenDiff()},
            {"p(not gold|diff)", pNonGoldGivenDiff()},
            {"E[regret|diff,gold]", regretGivenDiffGold()},
            {"E[regret|diff,not gold]", regretGivenDiffNonGold()},
            {"E[regret]", meanRegret()},
            {"E[regret|gold]", regretGivenGold()},
            {"E[regret|not gold]", regretGivenNonGold()},
            {"p(gold)", states > 0 ? gold / states : 0.0}};
}

RegretStats regretOfRollouts(std::span<const SpanRollout> rollouts,
                             const std::vector<std::uint8_t>& goldIndicator, int n, double lambda,
                             double weight) {
    RegretStats s;
    s.sentences = 1;
    for (const SpanRollout& r : rollouts) {
        const bool isGold = goldIndicator.at(static_cast<std::size_t>(r.i) * (n + 1) + r.k) != 0;
        const double keep = r.rewardKeep(lambda), prune = r.rewardPrune(lambda);
        const double best = std::max(keep, prune);
        const double regret = best - (isGold ? keep : prune);
        s.states += weight;
        if (isGold) s.gold += weight;
        if (regret > 0) {
            s.diff += weight;
            s.regret += weight * regret;
            if (isGold) {
                s.diffGold += weight;
                s.regretGold += weight * regret;
            }
        }
    }
    return s;
}

RegretStats regretAnalysis(const Grammar& g, std::span<const LolsSentence> sentences,
                           const Policy& policy, const RegretOptions& opt,
                           const Progress& progress) {
    LolsConfig cfg;
    cfg.surrogate = opt.surrogate;
    cfg.engine = opt.engine;
    cfg.lambda = opt.lambda;
    cfg.cpRolloutsPerWord = opt.cpRolloutsPerWord;
    cfg.seed = opt.seed;
    const RolloutFunction fn = rolloutFunction(opt.surrogate, opt.engine);
    std::vector<RegretStats> per(sentences.size());
    progress.begin("rollouts", static_cast<long>(sentences.size()));
    parallelFor(
        static_cast<int>(sentences.size()), opt.threads,
        [&](int idx, int) {
            const LolsSentence& s = sentences[idx];
            const SentenceRollouts r = collectSentenceRollouts(
                g, s, static_cast<std::uint32_t>(idx), policy, cfg, 0, fn, progress.cancelFlag());
            const int n = static_cast<int>(s.words.size());
            per[idx] = regretOfRollouts(r.rollouts, spanIndicator(binarizeLike(g, s.gold)), n,
                                        opt.lambda, r.weight);
            progress.advance();
        },
        progress.cancelFlag());
    progress.throwIfCancelled();
    RegretStats total;
    for (const auto& p : per)
        total.add(p); // in sentence order
    return total;
}

} // namespace prunescope
