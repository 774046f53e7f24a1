// Averaged perceptron and MIRA for dependency models.
#include "core/dep/DepTraining.h"

#include "core/dep/DepCorpus.h"
#include "core/dep/OnlineLearning.h"
#include "core/util/Clock.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace prunescope {

const char* depLearnerName(DepLearner l) {
    return l == DepLearner::Mira ? "mira" : "perceptron";
}

DepLearner parseDepLearner(const std::string& name) {
    if (name == "mira") return DepLearner::Mira;
    if (name == "perceptron") return DepLearner::Perceptron;
    throw std::invalid_argument("unknown learner '" + name + "' (perceptron or mira)");
}

namespace {

// Keys of the parts in `a` and not in `b` (arcs by modifier; sibling triples as sets).
void differingKeys(const SentenceAtoms& atoms, const std::vector<int>& a, const std::vector<int>& b,
                   int order, std::vector<std::uint64_t>& out) {
    for (int m = 1; m < static_cast<int>(a.size()); ++m)
        if (a[static_cast<std::size_t>(m)] != b[static_cast<std::size_t>(m)])
            arcFeatureKeys(atoms, a[static_cast<std::size_t>(m)], m, out);
    if (order >= 2) {
        auto pa = siblingParts(a), pb = siblingParts(b);
        std::sort(pa.begin(), pa.end());
        std::sort(pb.begin(), pb.end());
        std::vector<std::array<int, 3>> only;
        std::set_difference(pa.begin(), pa.end(), pb.begin(), pb.end(), std::back_inserter(only));
        for (const auto& p : only)
            siblingFeatureKeys(atoms, p[0], p[1], p[2], out);
    }
    if (order >= 3) {
        // (g, h, q, m) decides both the grandparent part (g, h, m) and the grand-sibling part.
        auto ga = grandSiblingParts(a), gb = grandSiblingParts(b);
        std::sort(ga.begin(), ga.end());
        std::sort(gb.begin(), gb.end());
        std::vector<std::array<int, 4>> only;
        std::set_difference(ga.begin(), ga.end(), gb.begin(), gb.end(), std::back_inserter(only));
        for (const auto& p : only)
            grandSiblingFeatureKeys(atoms, p[0], p[1], p[2], p[3], out);
        std::vector<std::array<int, 3>> gpa, gpb, gpOnly;
        for (const auto& p : ga)
            gpa.push_back({p[0], p[1], p[3]});
        for (const auto& p : gb)
            gpb.push_back({p[0], p[1], p[3]});
        std::sort(gpa.begin(), gpa.end());
        std::sort(gpb.begin(), gpb.end());
        std::set_difference(gpa.begin(), gpa.end(), gpb.begin(), gpb.end(),
                            std::back_inserter(gpOnly));
        for (const auto& p : gpOnly)
            grandparentFeatureKeys(atoms, p[0], p[1], p[2], out);
    }
}

} // namespace

double depModelUas(const DepModel& model, const std::vector<DepSentence>& sentences,
                   const Progress& progress) {
    EisnerParser parser(model.eisnerOptions());
    parser.setCancelFlag(progress.cancelFlag()); // a long sentence stops mid-parse
    const auto r = evaluateDepCorpus(
        sentences,
        [&](const DepSentence& s) {
            DepSentenceResult out;
            out.heads = parseWithModel(model, s, nullptr, parser).heads;
            return out;
        },
        progress);
    return r.total.uas();
}

DepTrainResult trainDepModel(const std::vector<DepSentence>& train,
                             const std::vector<DepSentence>& dev, const DepTrainOptions& opt,
                             const Progress& progress,
                             const std::function<void(const DepTrainResult&)>& onEpoch) {
    if (dev.empty()) throw std::invalid_argument("dependency training: no dev sentences");
    if (opt.order < 1 || opt.order > 3)
        throw std::invalid_argument("dependency training: order must be 1, 2 or 3");
    if (opt.epochs < 1) throw std::invalid_argument("dependency training: epochs must be >= 1");
    if (!(opt.miraC > 0)) throw std::invalid_argument("dependency training: MIRA's C must be > 0");
    const TrainingSentences usable =
        usableTrainingSentences(train, opt.maxLength, "dependency training");
    const bool singleRoot = usable.singleRoot;

    DepTrainResult result;
    result.model.order = opt.order;
    result.model.singleRoot = singleRoot;
    result.model.weights = HashedWeights::zeros(opt.hashBits);
    AveragedWeights w(opt.hashBits);
    EisnerOptions eo;
    eo.singleRoot = singleRoot;
    EisnerParser parser(eo);
    parser.setCancelFlag(progress.cancelFlag()); // Cancelled from within one sentence's parse
    DepModel scratch; // the current weights wrapped as a model, for decoding
    scratch.order = opt.order;
    scratch.singleRoot = singleRoot;
    double bestDev = -1;
    int sinceBest = 0;
    std::vector<std::uint64_t> plus, minus;
    DepEpochReport rep;
    long tokens = 0, correct = 0;
    OnlineEpochHooks hooks;
    hooks.begin = [&](int epoch) {
        rep = DepEpochReport{};
        rep.epoch = epoch;
        tokens = correct = 0;
    };
    hooks.visit = [&](int idx) {
        const DepSentence& s = train[static_cast<std::size_t>(idx)];
        const DepScorer scorer(w.current(), s);
        const ArcScores arcs = scorer.arcScores();
        const DepParse p = opt.order >= 3   ? parser.parseGrandSiblings(arcs, scorer)
                           : opt.order == 2 ? parser.parse(arcs, scorer)
                                            : parser.parse(arcs);
        int wrong = 0;
        for (int m = 1; m <= s.size(); ++m)
            wrong += p.heads[static_cast<std::size_t>(m)] != s.heads[static_cast<std::size_t>(m)];
        tokens += s.size();
        correct += s.size() - wrong;
        if (wrong == 0) return;
        plus.clear();
        minus.clear();
        differingKeys(scorer.atoms(), s.heads, p.heads, opt.order, plus);
        differingKeys(scorer.atoms(), p.heads, s.heads, opt.order, minus);
        const SparseVector d = featureDifference(w.current(), plus, minus);
        const double norm = squaredNorm(d);
        if (norm > 0) {
            double step = 1.0;
            if (opt.learner == DepLearner::Mira)
                step = std::min(opt.miraC,
                                std::max(0.0, (static_cast<double>(wrong) - w.dot(d)) / norm));
            if (step > 0) w.update(d, step);
        }
        ++rep.updates;
    };
    hooks.endEpoch = [&](int epoch, double t0) {
        rep.trainUas =
            tokens ? 100.0 * static_cast<double>(correct) / static_cast<double>(tokens) : 0.0;
        scratch.weights = w.averaged();
        rep.devUas = depModelUas(scratch, dev, progress);
        if (progress.cancelled()) {
            result.cancelled = true;
            return false;
        }
        rep.seconds = threadCpuSeconds() - t0;
        result.epochs.push_back(rep);
        if (rep.devUas > bestDev) {
            bestDev = rep.devUas;
            result.bestEpoch = epoch;
            result.model.weights = std::move(scratch.weights);
            sinceBest = 0;
        } else {
            ++sinceBest;
        }
        result.model.training = {{"learner", depLearnerName(opt.learner)},
                                 {"epochs", static_cast<int>(result.epochs.size())},
                                 {"bestEpoch", result.bestEpoch},
                                 {"devUas", bestDev},
                                 {"miraC", opt.miraC},
                                 {"seed", opt.seed},
                                 {"maxLength", opt.maxLength},
                                 {"trainSentences", usable.indices.size()},
                                 {"nonProjectiveTrainSentences", usable.nonProjective},
                                 {"devSentences", dev.size()}};
        if (onEpoch) onEpoch(result);
        return !(opt.patience > 0 && sinceBest >= opt.patience);
    };
    try {
        if (!runOnlineEpochs(usable.indices, opt.epochs, opt.seed, w, progress, hooks))
            result.cancelled = true;
    } catch (const Cancelled&) { // mid-sentence: the epoch is not ended, finished ones are kept
        result.cancelled = true;
    }
    return result;
}

} // namespace prunescope
