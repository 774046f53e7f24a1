// Asymmetric-weighting baseline (Vieira & Eisner 2017, sec. 3; sec. 6 "Training"; sec. 7 step ¬).
#include "core/policy/Baseline.h"

#include "core/eval/CorpusEvaluator.h"
#include "core/grammar/PcfgEstimator.h"
#include "core/policy/GoldSpans.h"
#include "core/policy/PolicyMask.h"
#include "core/policy/SpanFeatures.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace prunescope {

namespace {
using Clock = std::chrono::steady_clock;
double since(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

std::string shortNumber(double x) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%g", x);
    return buf;
}
} // namespace

BaselineExamples baselineExamples(const Grammar& g, std::span<const Tree> normalizedGold,
                                  int maxLength, double positiveWeight, const Progress& progress) {
    BaselineExamples out;
    progress.begin("examples", static_cast<long>(normalizedGold.size()));
    for (size_t s = 0; s < normalizedGold.size(); ++s) {
        progress.throwIfCancelled();
        progress.advance();
        const Tree& t = normalizedGold[s];
        const std::vector<std::string> words = t.words();
        const int n = static_cast<int>(words.size());
        if (n < 3 || (maxLength > 0 && n > maxLength)) continue;
        const std::vector<std::uint8_t> gold = spanIndicator(binarizeLike(g, t));
        const SentenceFeatures f(words);
        ++out.sentences;
        for (int w = 2; w < n; ++w) {
            for (int i = 0; i + w <= n; ++i) {
                const int k = i + w;
                WeightedExample e;
                auto feats = f.features(i, k);
                e.features.assign(feats.begin(), feats.end());
                e.label = gold[static_cast<size_t>(i) * (n + 1) + k] ? 1 : 0;
                e.weight = e.label == 1 ? positiveWeight : 1.0;
                out.positives += e.label;
                out.examples.push_back(std::move(e));
                out.origin.push_back({static_cast<int>(s), i, k});
            }
        }
    }
    return out;
}

void setPositiveWeight(std::span<WeightedExample> examples, double positiveWeight) {
    if (!(positiveWeight > 0) || !std::isfinite(positiveWeight))
        throw std::invalid_argument("baseline: positive weight must be positive and finite");
    for (auto& e : examples)
        e.weight = e.label == 1 ? positiveWeight : 1.0;
}

std::vector<WeightedExample> baselineDataset(const Grammar& g, std::span<const Tree> normalizedGold,
                                             double positiveWeight, int maxLength) {
    if (!(positiveWeight > 0) || !std::isfinite(positiveWeight))
        throw std::invalid_argument("baseline: positive weight must be positive and finite");
    return baselineExamples(g, normalizedGold, maxLength, positiveWeight).examples;
}

std::vector<double> defaultPositiveWeights() {
    std::vector<double> w;
    for (int e = -2; e <= 8; ++e)
        w.push_back(std::ldexp(1.0, e)); // factor 2 through the knee
    for (int e = 10; e <= 16; e += 2)
        w.push_back(std::ldexp(1.0, e)); // then factor 4 up to "keep all"
    return w;
}

std::vector<double> defaultL2Grid() {
    std::vector<double> l2;
    for (int e = -11; e >= -15; --e)
        l2.push_back(std::ldexp(1.0, e));
    return l2;
}

LogRegOptions defaultBaselineLogReg() {
    LogRegOptions o;
    o.maxIterations = 500;
    return o;
}

nlohmann::json BaselineTrainInfo::toJson() const {
    return {{"method", "asymmetric weighting (keep gold spans of the binarized gold tree)"},
            {"positiveWeight", positiveWeight},
            {"l2", l2},
            {"lbfgsIterations", iterations},
            {"converged", converged},
            {"objective", objective},
            {"activeFeatures", activeFeatures},
            {"seconds", seconds}};
}

std::string baselinePolicyName(double positiveWeight) {
    return "baseline-w" + shortNumber(positiveWeight);
}

Policy trainBaselinePolicy(std::span<const WeightedExample> examples, double positiveWeight,
                           const LogRegOptions& opt, BaselineTrainInfo* info,
                           const Eigen::VectorXf* init, const Progress& progress) {
    const auto t0 = Clock::now();
    LogRegOptions o = opt;
    o.rescaleWeights = true; // sec. 6: example weights always rescaled to sum to 1
    LogRegResult r = trainLogisticRegression(examples, o, init, progress);
    BaselineTrainInfo ti;
    ti.positiveWeight = positiveWeight;
    ti.l2 = o.l2;
    ti.iterations = r.iterations;
    ti.activeFeatures = r.activeFeatures;
    ti.converged = r.converged;
    ti.objective = r.objective;
    ti.seconds = since(t0);
    Policy p;
    p.weights = std::move(r.weights);
    p.meta.kind = "baseline";
    p.meta.name = baselinePolicyName(positiveWeight);
    p.meta.training = ti.toJson();
    if (info) *info = ti;
    return p;
}

double frontierHypervolume(std::span<const FrontierPoint> pts, double xlo, double xhi) {
    if (!(xlo > 0 && xhi > xlo))
        throw std::invalid_argument("frontierHypervolume: need 0 < xlo < xhi");
    // Staircase: sort by runtime; between consecutive breakpoints the best accuracy so far holds.
    std::vector<FrontierPoint> s(pts.begin(), pts.end());
    std::sort(s.begin(), s.end(),
              [](const auto& a, const auto& b) { return a.runtime < b.runtime; });
    const double L = std::log(xhi / xlo);
    double area = 0, best = 0, x = xlo;
    for (const auto& p : s) {
        const double r = std::clamp(p.runtime, xlo, xhi);
        if (r > x) {
            area += best * std::log(r / x);
            x = r;
        }
        best = std::max(best, p.accuracy);
    }
    area += best * std::log(xhi / x);
    return area / L;
}

namespace {

FrontierPoint devPoint(const nlohmann::json& m) {
    return {m.at("meanMpush").get<double>(), 100.0 * m.at("f1").get<double>(), ""};
}

// The mask that prunes every prunable span: the fastest possible parser (lower runtime bound).
PruningMask allPruned(std::span<const std::string> words) {
    const int n = static_cast<int>(words.size());
    PruningMask m = PruningMask::allKeep(n);
    for (int w = 2; w < n; ++w)
        for (int i = 0; i + w <= n; ++i)
            m.set(i, i + w, false);
    return m;
}

} // namespace

BaselineRun runBaseline(const Grammar& g, std::span<const Tree> train, std::span<const Tree> dev,
                        const BaselineOptions& opt, const Progress& progress) {
    auto say = [&](const std::string& msg) { progress.log(msg); };
    if (opt.positiveWeights.empty())
        throw std::invalid_argument("baseline: no positive weights to sweep");
    if (opt.l2Grid.empty()) throw std::invalid_argument("baseline: empty regularization grid");
    for (double w : opt.positiveWeights)
        if (!(w > 0) || !std::isfinite(w))
            throw std::invalid_argument("baseline: positive weights must be > 0");
    for (double l2 : opt.l2Grid)
        if (!(l2 >= 0) || !std::isfinite(l2))
            throw std::invalid_argument("baseline: l2 values must be >= 0");

    BaselineRun run;
    auto t0 = Clock::now();
    BaselineExamples data = baselineExamples(g, train, opt.maxTrainLength, 1.0, progress);
    run.featureSeconds = since(t0);
    run.trainSentences = data.sentences;
    run.trainExamples = static_cast<long>(data.examples.size());
    run.trainPositives = data.positives;
    say("training examples: " + std::to_string(run.trainExamples) + " spans of " +
        std::to_string(run.trainSentences) + " sentences, " + std::to_string(run.trainPositives) +
        " gold (" + shortNumber(run.featureSeconds) + " s)");
    if (data.examples.empty())
        throw std::invalid_argument("baseline: no training spans (sentences too short?)");

    EvaluationOptions eo;
    eo.maxLength = opt.maxDevLength;
    run.unprunedDev = evaluateCorpus(g, dev, MaskFunction{}, eo, progress).summaryJson();
    run.allPrunedDev = evaluateCorpus(g, dev, MaskFunction(allPruned), eo, progress).summaryJson();
    const double xlo = devPoint(run.allPrunedDev).runtime, xhi = devPoint(run.unprunedDev).runtime;
    say("dev unpruned: F1 " + shortNumber(devPoint(run.unprunedDev).accuracy) + ", mpush " +
        shortNumber(xhi) + "; all pruned: F1 " + shortNumber(devPoint(run.allPrunedDev).accuracy) +
        ", mpush " + shortNumber(xlo));

    double bestHv = -1;
    const int points = static_cast<int>(opt.l2Grid.size() * opt.positiveWeights.size());
    for (double l2 : opt.l2Grid) {
        BaselineSweep sw;
        sw.l2 = l2;
        LogRegOptions lo = opt.logreg;
        lo.l2 = l2;
        sw.points.reserve(opt.positiveWeights.size()); // keeps `prev` valid
        const Policy* prev = nullptr;
        for (double w : opt.positiveWeights) {
            progress.setStep(static_cast<int>(run.sweeps.size() * opt.positiveWeights.size() +
                                              sw.points.size()) +
                                 1,
                             points);
            BaselinePoint pt;
            pt.positiveWeight = w;
            setPositiveWeight(data.examples, w);
            const Eigen::VectorXf* init = opt.warmStart && prev ? &prev->weights : nullptr;
            pt.policy = trainBaselinePolicy(data.examples, w, lo, &pt.train, init, progress);
            pt.policy.meta.grammar = opt.grammarName;
            pt.policy.meta.training["trainSentences"] = run.trainSentences;
            pt.policy.meta.training["trainExamples"] = run.trainExamples;
            pt.policy.meta.training["trainPositives"] = run.trainPositives;
            pt.policy.meta.training["maxTrainLength"] = opt.maxTrainLength;
            sw.trainSeconds += pt.train.seconds;
            auto te = Clock::now();
            pt.devMetrics =
                evaluateCorpus(g, dev, policyMaskFunction(pt.policy), eo, progress).summaryJson();
            sw.evalSeconds += since(te);
            const FrontierPoint fp = devPoint(pt.devMetrics);
            say("l2 2^" + shortNumber(std::log2(l2)) + " w " + shortNumber(w) + ": " +
                std::to_string(pt.train.iterations) + " it, " + shortNumber(pt.train.seconds) +
                " s; dev F1 " + shortNumber(fp.accuracy) + ", mpush " + shortNumber(fp.runtime) +
                ", spans kept " + shortNumber(pt.devMetrics.at("meanSpansKept").get<double>()));
            sw.points.push_back(std::move(pt));
            prev = &sw.points.back().policy;
        }
        std::vector<FrontierPoint> pts;
        for (const auto& p : sw.points)
            pts.push_back(devPoint(p.devMetrics));
        sw.hypervolume = frontierHypervolume(pts, xlo, xhi);
        say("l2 2^" + shortNumber(std::log2(l2)) +
            ": dev frontier mean F1 over log mpush = " + shortNumber(sw.hypervolume));
        const bool better = sw.hypervolume > bestHv;
        if (better) {
            if (run.chosen >= 0)
                for (auto& p : run.sweeps[static_cast<size_t>(run.chosen)].points)
                    p.policy.weights.resize(0);
            run.chosen = static_cast<int>(run.sweeps.size());
            bestHv = sw.hypervolume;
        } else {
            for (auto& p : sw.points)
                p.policy.weights.resize(0);
        }
        run.sweeps.push_back(std::move(sw));
    }
    return run;
}

} // namespace prunescope
