// The violation-fixing perceptron with cube pruning (CubeTraining.h).
#include "core/cube/CubeTraining.h"

#include "core/dep/DepTree.h"
#include "core/dep/OnlineLearning.h"
#include "core/util/Clock.h"

#include <stdexcept>

namespace prunescope {

nlohmann::json CubeEpochReport::toJson() const {
    return {{"epoch", epoch},
            {"sentences", sentences},
            {"unreachable", unreachable},
            {"lifted", lifted},
            {"rootWrong", rootWrong},
            {"nonViolations", nonViolations},
            {"updates", updates},
            {"invalidForced", invalidForced},
            {"invalidAvoided", invalidAvoided},
            {"wrongWithoutUpdate", wrongWithoutUpdate},
            {"goldFellOff", goldFellOff},
            {"goldNodes", goldNodes},
            {"goldNodesFellOff", goldNodesFellOff},
            {"updateNodes", updateNodes},
            {"updateTokens", updateTokens},
            {"violationSum", violationSum},
            {"trainUas", trainUas},
            {"devUas", devUas},
            {"devTokensPerSecond", devTokensPerSecond},
            {"seconds", seconds}};
}

void applyCubeUpdate(HashedWeights& w, const CubeUpdatePairs& pairs) {
    for (const auto& [i, x] : featureDifference(w, pairs.plus, pairs.minus))
        w.w[i] += static_cast<float>(x);
}

namespace {

// Tokens a gold node spans (positions min..max of its cell, the root excluded).
int spanTokens(const CubeCell& c) {
    const int lo = std::min(c.head, c.end), hi = std::max(c.head, c.end);
    return hi - std::max(lo, 1) + 1;
}

} // namespace

CubeTrainResult trainCubeModel(const std::vector<DepSentence>& train,
                               const std::vector<DepSentence>& dev, const CubeTrainOptions& opt,
                               const Progress& progress,
                               const std::function<void(const CubeTrainResult&)>& onEpoch) {
    if (dev.empty()) throw std::invalid_argument("cube training: no dev sentences");
    if (opt.beam < 1) throw std::invalid_argument("cube training: the beam must be >= 1");
    if (opt.epochs < 1) throw std::invalid_argument("cube training: epochs must be >= 1");
    const TrainingSentences usable = usableTrainingSentences(train, opt.maxLength, "cube training");
    const bool singleRoot = usable.singleRoot;

    CubeTrainResult result;
    result.model.features = opt.features;
    result.model.singleRoot = singleRoot;
    result.model.beam = opt.beam;
    result.model.weights = HashedWeights::zeros(opt.hashBits);
    AveragedWeights w(opt.hashBits);
    CubeOptions co;
    co.beam = opt.beam;
    co.singleRoot = singleRoot;
    CubePruner pruner(co);
    CubeModel scratch = result.model; // averaged weights for dev scoring
    double bestDev = -1;
    nlohmann::json curve = nlohmann::json::array();
    CubeEpochReport rep;
    long tokens = 0, correct = 0;
    OnlineEpochHooks hooks;
    hooks.begin = [&](int epoch) {
        rep = CubeEpochReport{};
        rep.epoch = epoch;
        tokens = correct = 0;
    };
    hooks.visit = [&](int idx) {
        const DepSentence& s = train[static_cast<std::size_t>(idx)];
        std::vector<int> gold = s.heads;
        if (!isProjective(gold)) {
            gold = liftToProjective(gold);
            ++rep.lifted;
        }
        ArcMask mask;
        if (opt.masks) {
            mask = opt.masks(s);
            for (int m = 1; m <= s.size(); ++m)
                mask.set(gold[static_cast<std::size_t>(m)], m, true);
        }
        const CubeScorer scorer(w.current(), s, opt.features, opt.masks ? &mask : nullptr);
        const CubeParse p = pruner.parse(scorer);
        ++rep.sentences;
        tokens += s.size();
        for (int m = 1; m <= s.size(); ++m)
            correct += p.heads[static_cast<std::size_t>(m)] == s.heads[static_cast<std::size_t>(m)];
        const GoldDerivation gd = goldDerivation(pruner, scorer, gold);
        if (!gd.reachable()) {
            ++rep.unreachable;
            return;
        }
        rep.goldNodes += static_cast<long>(gd.nodes.size());
        rep.goldNodesFellOff += gd.fellOffCount();
        rep.goldFellOff += gd.nodes.back().fellOff();
        const CubeUpdateChoice choice = chooseCubeUpdate(gd, opt.update);
        rep.rootWrong += choice.rootWrong;
        const bool nonViolation = choice.rootWrong && !choice.rootViolation;
        rep.nonViolations += nonViolation;
        if (nonViolation) {
            if (opt.update == CubeUpdateStrategy::Standard)
                ++rep.invalidForced;
            else
                ++rep.invalidAvoided;
        }
        if (choice.update) {
            const CubeUpdatePairs pairs = cubeUpdatePairs(pruner.chart(), scorer, gd, choice.nodes);
            const SparseVector d = featureDifference(w.current(), pairs.plus, pairs.minus);
            if (!d.empty()) {
                w.update(d, 1.0);
                ++rep.updates;
                rep.updateNodes += static_cast<long>(choice.nodes.size());
                for (const int n : choice.nodes)
                    rep.updateTokens += spanTokens(gd.nodes[static_cast<std::size_t>(n)].cell);
                rep.violationSum += choice.violation;
            }
        } else if (choice.rootWrong) {
            ++rep.wrongWithoutUpdate;
        }
    };
    hooks.endEpoch = [&](int epoch, double t0) {
        rep.trainUas =
            tokens ? 100.0 * static_cast<double>(correct) / static_cast<double>(tokens) : 0.0;
        scratch.weights = w.averaged();
        const DepCorpusResult d =
            evaluateDepCorpus(dev, cubeDecoder(scratch, opt.beam, opt.masks), progress);
        if (d.cancelled) {
            result.cancelled = true;
            return false;
        }
        rep.devUas = d.total.uas();
        rep.devTokensPerSecond = d.tokensPerSecond();
        rep.seconds = threadCpuSeconds() - t0;
        result.epochs.push_back(rep);
        curve.push_back(rep.toJson());
        if (rep.devUas > bestDev) {
            bestDev = rep.devUas;
            result.bestEpoch = epoch;
            result.model.weights = std::move(scratch.weights);
        }
        result.model.training = {{"trainer", "violation-fixing perceptron (averaged)"},
                                 {"update", cubeUpdateName(opt.update)},
                                 {"beam", opt.beam},
                                 {"epochs", static_cast<int>(result.epochs.size())},
                                 {"bestEpoch", result.bestEpoch},
                                 {"devUas", bestDev},
                                 {"hashBits", opt.hashBits},
                                 {"seed", opt.seed},
                                 {"maxLength", opt.maxLength},
                                 {"trainSentences", usable.indices.size()},
                                 {"devSentences", dev.size()},
                                 {"curve", curve}};
        if (onEpoch) onEpoch(result);
        return true;
    };
    if (!runOnlineEpochs(usable.indices, opt.epochs, opt.seed, w, progress, hooks))
        result.cancelled = true;
    return result;
}

} // namespace prunescope
