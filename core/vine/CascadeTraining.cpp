// Structured cascade training, perceptron-style (Weiss & Taskar 2010; Rush & Petrov 2012 sec. 4).
#include "core/vine/CascadeTraining.h"

#include "core/dep/DepCorpus.h"
#include "core/dep/OnlineLearning.h"
#include "core/util/Clock.h"
#include "core/util/Random.h"

#include <algorithm>
#include <stdexcept>

namespace prunescope {

namespace {

double labelScore(const StageMarginals& sm, const HashedWeights& w, const SentenceAtoms& a,
                  int label, std::vector<std::uint64_t>& keys) {
    keys.clear();
    stageLabelKeys(sm, a, label, keys);
    return w.score(keys);
}

struct Step {
    CascadeSentenceLoss loss;
    SparseVector direction; // the negative subgradient (empty when the loss is 0)
};

Step sentenceStep(const CascadeTrainOptions& o, const HashedWeights& w, const DepSentence& s,
                  const ArcMask& incoming, bool wantDirection) {
    Step st;
    const SentenceAtoms a(s);
    StageMarginals sm = stageMarginals(o.kind, o.band, o.structure, o.singleRoot, w, a, incoming);
    const CascadeThreshold t = cascadeThreshold(sm.mm.label, o.alpha);
    std::vector<std::uint64_t> keys;
    const std::vector<int> gold = stageGoldLabels(sm, s.heads);
    double g = 0;
    for (int l : gold)
        g += labelScore(sm, w, a, l, keys);
    st.loss.gold = g;
    st.loss.threshold = t.parts > 0 ? t.value : g - 1.0; // no derivation: nothing to clear
    st.loss.loss = std::max(0.0, 1.0 - g + st.loss.threshold);
    if (!wantDirection || st.loss.loss <= 0 || t.parts == 0) return st;
    // coefficients per label: +1 gold, -alpha best, -(1 - alpha) / |L| witness counts
    std::vector<std::pair<int, double>> coef;
    for (int l : gold)
        coef.emplace_back(l, 1.0);
    for (int l : viterbiLabels(sm.graph, sm.mm))
        coef.emplace_back(l, -o.alpha);
    const std::vector<double> counts = witnessLabelCounts(sm.graph, sm.mm);
    const double meanScale = (1.0 - o.alpha) / static_cast<double>(t.parts);
    for (int l = 0; l < static_cast<int>(counts.size()); ++l)
        if (counts[static_cast<std::size_t>(l)] != 0.0)
            coef.emplace_back(l, -meanScale * counts[static_cast<std::size_t>(l)]);
    std::vector<std::pair<std::uint32_t, double>> entries;
    for (const auto& [l, c] : coef) {
        keys.clear();
        stageLabelKeys(sm, a, l, keys);
        for (auto k : keys)
            entries.emplace_back(w.featureIndex(k), c);
    }
    std::sort(entries.begin(), entries.end(),
              [](const auto& x, const auto& y) { return x.first < y.first; });
    for (const auto& e : entries) {
        if (!st.direction.empty() && st.direction.back().first == e.first)
            st.direction.back().second += e.second;
        else
            st.direction.push_back(e);
    }
    std::erase_if(st.direction, [](const auto& e) { return e.second == 0.0; });
    return st;
}

} // namespace

CascadeSentenceLoss cascadeSentenceLoss(const CascadeTrainOptions& o, const HashedWeights& w,
                                        const DepSentence& s, const ArcMask& incoming) {
    return sentenceStep(o, w, s, incoming, false).loss;
}

CascadeTrainResult
trainCascadeStage(const std::vector<DepSentence>& train, const CascadeTrainOptions& o,
                  const std::function<ArcMask(const DepSentence&)>& incoming,
                  const Progress& progress,
                  const std::function<void(const CascadeTrainResult&)>& onEpoch) {
    if (o.epochs < 1) throw std::invalid_argument("cascade training: epochs must be >= 1");
    if (o.band < 1) throw std::invalid_argument("cascade training: band must be >= 1");
    if (train.empty())
        throw std::invalid_argument("cascade training: no usable training sentences");
    const TrainingSentences usable =
        usableTrainingSentences(train, o.maxLength, "cascade training");
    CascadeTrainResult result;
    result.weights = HashedWeights::zeros(o.hashBits);
    AveragedWeights w(o.hashBits);
    CascadeEpochReport rep;
    double lossSum = 0;
    OnlineEpochHooks hooks;
    hooks.begin = [&](int epoch) {
        rep = CascadeEpochReport{};
        rep.epoch = epoch;
        lossSum = 0;
    };
    hooks.visit = [&](int idx) {
        const DepSentence& s = train[static_cast<std::size_t>(idx)];
        const ArcMask mask = incoming ? incoming(s) : ArcMask::allKeep(s.size());
        const Step st = sentenceStep(o, w.current(), s, mask, true);
        lossSum += st.loss.loss;
        if (st.loss.loss > 0) {
            ++rep.violations;
            if (!st.direction.empty()) w.update(st.direction, 1.0);
        }
    };
    hooks.endEpoch = [&](int, double t0) {
        rep.loss = lossSum / static_cast<double>(usable.indices.size());
        rep.seconds = threadCpuSeconds() - t0;
        result.epochs.push_back(rep);
        result.weights = w.averaged();
        if (onEpoch) onEpoch(result);
        return true;
    };
    if (!runOnlineEpochs(usable.indices, o.epochs, o.seed, w, progress, hooks))
        result.cancelled = true;
    return result;
}

} // namespace prunescope
