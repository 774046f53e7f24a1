// Bias of randomized vs fixed-mask expectations as a function of pushes (see BiasExperiment.h).
#include "core/mcmc/BiasExperiment.h"

#include "core/mcmc/FigureOfMerit.h"
#include "core/policy/PolicyMask.h"
#include "core/policy/SpanFeatures.h"
#include "core/stats/PairedPermutation.h"
#include "core/util/Parallel.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>

namespace prunescope {

std::vector<double> BiasExperimentOptions::defaultFomThresholds() {
    return {0.0, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1,  0.2,
            0.3, 0.4,    0.5,   0.6,   0.7,   0.8,  0.9,  0.95, 0.99, 2.0};
}
std::vector<double> BiasExperimentOptions::defaultOracleThresholds() {
    return {1e-8, 1e-6, 1e-5, 1e-4, 1e-3, 0.01, 0.03, 0.1, 0.3, 0.5, 0.9, 2.0};
}

namespace {
BiasPoint measure(long pushes, const Expectations& est, const Expectations& exact) {
    BiasPoint p;
    p.pushes = pushes;
    p.failed = !std::isfinite(est.logZ);
    p.spanL1 = spanL1(est, exact);
    p.ruleL1 = ruleL1(est, exact);
    p.spanKL = p.failed ? 0.0 : spanKL(est, exact);
    p.ruleKL = p.failed ? 0.0 : ruleKL(est, exact);
    return p;
}

struct Worker {
    explicit Worker(const Grammar& g) : io(g), chain(g) {}
    PrunedInsideOutside io;
    RandomizedPruning chain;
    Expectations exact, est;
};

// Sums over sentences of one column of points, as a summary.
template <class Get> BiasSummary summarize(const std::vector<SentenceBias>& sentences, Get get) {
    BiasSummary s;
    int klCount = 0;
    for (const auto& sb : sentences) {
        const BiasPoint& p = get(sb);
        s.pushes += static_cast<double>(p.pushes);
        s.spanL1 += p.spanL1;
        s.ruleL1 += p.ruleL1;
        if (p.failed) {
            ++s.failures;
        } else {
            s.spanKL += p.spanKL;
            s.ruleKL += p.ruleKL;
            ++klCount;
        }
    }
    const double m = std::max<std::size_t>(sentences.size(), 1);
    s.spanL1 /= m;
    s.ruleL1 /= m;
    s.spanKL = klCount ? s.spanKL / klCount : 0.0;
    s.ruleKL = klCount ? s.ruleKL / klCount : 0.0;
    return s;
}
} // namespace

nlohmann::json BiasSummary::toJson() const {
    nlohmann::json j = {{"method", method},    {"pushes", pushes}, {"biasL1", spanL1},
                        {"biasKL", spanKL},    {"ruleL1", ruleL1}, {"ruleKL", ruleKL},
                        {"failures", failures}};
    if (method == "randomized")
        j["iterations"] = static_cast<int>(setting), j["biasL1Sd"] = spanL1Sd;
    else if (method != "exact" && method != "policy-mask")
        j["threshold"] = setting;
    if (!name.empty()) j["name"] = name;
    return j;
}

double BiasExperimentResult::exactPushes() const {
    double s = 0;
    for (const auto& sb : sentences)
        s += static_cast<double>(sb.exactPushes);
    return s;
}

BiasSummary BiasExperimentResult::randomized(std::size_t c, int repeat) const {
    BiasSummary out;
    if (repeat >= 0) {
        out = summarize(sentences, [&](const SentenceBias& sb) -> const BiasPoint& {
            return sb.randomized[repeat][c];
        });
    } else {
        std::vector<double> l1;
        for (int r = 0; r < options.repeats; ++r) {
            const BiasSummary s = randomized(c, r);
            l1.push_back(s.spanL1);
            out.pushes += s.pushes / options.repeats;
            out.spanL1 += s.spanL1 / options.repeats;
            out.spanKL += s.spanKL / options.repeats;
            out.ruleL1 += s.ruleL1 / options.repeats;
            out.ruleKL += s.ruleKL / options.repeats;
            out.failures += s.failures;
        }
        double var = 0;
        for (double v : l1)
            var += (v - out.spanL1) * (v - out.spanL1);
        out.spanL1Sd = l1.size() > 1 ? std::sqrt(var / static_cast<double>(l1.size() - 1)) : 0.0;
    }
    out.method = "randomized";
    out.setting = options.checkpoints[c];
    out.column = static_cast<int>(c);
    return out;
}

std::vector<BiasSummary> BiasExperimentResult::fixedMasks() const {
    std::vector<BiasSummary> out;
    for (std::size_t t = 0; t < options.thresholds.size(); ++t) {
        BiasSummary s = summarize(
            sentences, [&](const SentenceBias& sb) -> const BiasPoint& { return sb.fom[t]; });
        s.method = "fom-threshold";
        s.setting = options.thresholds[t];
        s.column = static_cast<int>(t);
        out.push_back(s);
    }
    for (std::size_t p = 0; p < policyNames.size(); ++p) {
        BiasSummary s = summarize(
            sentences, [&](const SentenceBias& sb) -> const BiasPoint& { return sb.policies[p]; });
        s.method = "policy-mask";
        s.name = policyNames[p];
        s.column = static_cast<int>(p);
        out.push_back(s);
    }
    return out;
}

std::vector<BiasSummary> BiasExperimentResult::oracleMasks() const {
    std::vector<BiasSummary> out;
    if (!options.oracle) return out;
    for (std::size_t t = 0; t < options.oracleThresholds.size(); ++t) {
        BiasSummary s = summarize(
            sentences, [&](const SentenceBias& sb) -> const BiasPoint& { return sb.oracle[t]; });
        s.method = "oracle-threshold";
        s.setting = options.oracleThresholds[t];
        s.column = static_cast<int>(t);
        out.push_back(s);
    }
    return out;
}

std::optional<BiasSummary> BiasExperimentResult::bestFixedMask(double maxPushes) const {
    std::optional<BiasSummary> best;
    for (const BiasSummary& s : fixedMasks())
        if (s.pushes <= maxPushes && (!best || s.spanL1 < best->spanL1)) best = s;
    return best;
}

std::vector<double> BiasExperimentResult::perSentenceSpanL1(const BiasSummary& s) const {
    std::vector<double> out;
    for (const auto& sb : sentences) {
        if (s.method == "randomized") {
            double m = 0;
            for (const auto& rep : sb.randomized)
                m += rep[static_cast<std::size_t>(s.column)].spanL1;
            out.push_back(m / static_cast<double>(sb.randomized.size()));
        } else if (s.method == "fom-threshold") {
            out.push_back(sb.fom[static_cast<std::size_t>(s.column)].spanL1);
        } else if (s.method == "policy-mask") {
            out.push_back(sb.policies[static_cast<std::size_t>(s.column)].spanL1);
        } else if (s.method == "oracle-threshold") {
            out.push_back(sb.oracle[static_cast<std::size_t>(s.column)].spanL1);
        } else {
            out.push_back(0.0);
        }
    }
    return out;
}

double pairedSignFlipTest(const std::vector<double>& a, const std::vector<double>& b,
                          int permutations, std::uint64_t seed) {
    if (a.size() != b.size())
        throw std::invalid_argument("paired test needs samples of equal size");
    if (a.empty() || permutations < 1) return 1.0;
    std::vector<double> d(a.size());
    for (std::size_t i = 0; i < a.size(); ++i)
        d[i] = a[i] - b[i];
    return prunescope::pairedSignFlipTest(d, permutations, seed).pValue;
}

nlohmann::json BiasComparison::toJson() const {
    nlohmann::json j = {{"iterations", static_cast<int>(randomized.setting)},
                        {"pushes", randomized.pushes},
                        {"biasL1", randomized.spanL1},
                        {"biasL1Sd", randomized.spanL1Sd}};
    if (fixed) {
        j["fixedMask"] = fixed->toJson();
        j["fixedMaskPushes"] = fixed->pushes;
        j["fixedMaskBiasL1"] = fixed->spanL1;
        j["logRatio"] = logRatio;
        j["p"] = pValue;
        j["pHolm"] = pHolm;
    } else {
        j["fixedMask"] = nullptr;
    }
    return j;
}

std::vector<BiasComparison> BiasExperimentResult::comparisons(int permutations,
                                                              std::uint64_t seed) const {
    std::vector<BiasComparison> out;
    std::vector<double> ps;
    std::vector<std::size_t> tested;
    for (std::size_t c = 0; c < options.checkpoints.size(); ++c) {
        BiasComparison cmp;
        cmp.randomized = randomized(c);
        cmp.fixed = bestFixedMask(cmp.randomized.pushes);
        if (cmp.fixed) {
            const double a = std::max(cmp.randomized.spanL1, 1e-300),
                         b = std::max(cmp.fixed->spanL1, 1e-300);
            cmp.logRatio = std::log(a / b);
            cmp.pValue = pairedSignFlipTest(perSentenceSpanL1(cmp.randomized),
                                            perSentenceSpanL1(*cmp.fixed), permutations, seed + c);
            ps.push_back(cmp.pValue);
            tested.push_back(c);
        }
        out.push_back(cmp);
    }
    const auto adj = holmAdjust(ps);
    for (std::size_t t = 0; t < tested.size(); ++t)
        out[tested[t]].pHolm = adj[t];
    return out;
}

double BiasExperimentResult::selectionScore(const std::vector<BiasComparison>& c) {
    double s = 0;
    int k = 0;
    for (const auto& x : c)
        if (x.fixed) s += x.logRatio, ++k;
    return k ? s / k : 0.0;
}

nlohmann::json BiasExperimentResult::toJson() const {
    nlohmann::json curve = nlohmann::json::array(), fixed = nlohmann::json::array(),
                   oracle = nlohmann::json::array();
    for (std::size_t c = 0; c < options.checkpoints.size(); ++c)
        curve.push_back(randomized(c).toJson());
    for (const auto& s : fixedMasks())
        fixed.push_back(s.toJson());
    for (const auto& s : oracleMasks())
        oracle.push_back(s.toJson());
    nlohmann::json lengths = nlohmann::json::array();
    for (const auto& sb : sentences)
        lengths.push_back(sb.length);
    return {{"selection", selectionName(options.chain.selection)},
            {"supportThreshold", options.chain.supportThreshold},
            {"selectionFraction", options.chain.selectionFraction},
            {"seed", options.chain.seed},
            {"repeats", options.repeats},
            {"sentences", sentences.size()},
            {"skippedNoDerivation", skipped},
            {"exactPushes", exactPushes()},
            {"randomizedCurve", curve},
            {"fixedMasks", fixed},
            {"oracleMasks", oracle},
            {"lengths", lengths}};
}

BiasExperimentResult runBiasExperiment(const Grammar& g,
                                       const std::vector<std::vector<std::string>>& sentences,
                                       const Policy& fomPolicy,
                                       const std::vector<const Policy*>& maskPolicies,
                                       BiasExperimentOptions opt, const Progress& progress) {
    if (opt.iterations < 1)
        throw std::invalid_argument("randomized pruning needs at least one iteration");
    if (opt.repeats < 1) throw std::invalid_argument("at least one repeat");
    validateRandomizedOptions(opt.chain);
    if (opt.checkpoints.empty()) {
        for (int c = 1; c < opt.iterations; c *= 2)
            opt.checkpoints.push_back(c);
        opt.checkpoints.push_back(opt.iterations);
    }
    std::sort(opt.checkpoints.begin(), opt.checkpoints.end());
    opt.checkpoints.erase(std::unique(opt.checkpoints.begin(), opt.checkpoints.end()),
                          opt.checkpoints.end());
    if (opt.checkpoints.front() < 1 || opt.checkpoints.back() != opt.iterations)
        throw std::invalid_argument(
            "checkpoints must lie in [1, iterations] and include the last iteration");
    if (opt.thresholds.empty()) opt.thresholds = BiasExperimentOptions::defaultFomThresholds();
    if (opt.oracleThresholds.empty())
        opt.oracleThresholds = BiasExperimentOptions::defaultOracleThresholds();

    const int count = static_cast<int>(sentences.size());
    std::vector<std::optional<SentenceBias>> out(count);
    const int threads = std::max(1, std::min(defaultThreads(opt.threads), std::max(count, 1)));
    std::vector<std::unique_ptr<Worker>> workers;
    for (int t = 0; t < threads; ++t)
        workers.push_back(std::make_unique<Worker>(g));
    progress.begin("sentences", count);
    parallelFor(
        count, threads,
        [&](int s, int wi) {
            Worker& w = *workers[wi];
            const auto& words = sentences[s];
            const int n = static_cast<int>(words.size());
            SentenceBias sb;
            sb.index = s;
            sb.length = n;
            const auto st = w.io.inside(words, PruningMask::allKeep(n), progress);
            if (!st.success) {
                progress.advance();
                return; // no derivation at all: nothing to estimate
            }
            w.io.outside(w.exact);
            sb.exactPushes = st.pushes;
            auto fixedPoint = [&](const PruningMask& m) {
                const auto ps = w.io.inside(words, m, progress);
                w.io.outside(w.est);
                return measure(ps.pushes, w.est, w.exact);
            };
            const auto fom = policyFigureOfMerit(fomPolicy, words);
            for (double t : opt.thresholds)
                sb.fom.push_back(fixedPoint(thresholdMask(n, fom, t)));
            if (opt.oracle) {
                const auto post = posteriorFigureOfMerit(w.exact);
                for (double t : opt.oracleThresholds)
                    sb.oracle.push_back(fixedPoint(thresholdMask(n, post, t)));
            }
            if (!maskPolicies.empty()) {
                const SentenceFeatures feats(words);
                for (const Policy* p : maskPolicies)
                    sb.policies.push_back(fixedPoint(policyMask(*p, feats)));
            }
            for (int r = 0; r < opt.repeats; ++r) {
                RandomizedOptions ro = opt.chain;
                ro.seed = opt.chain.seed + static_cast<std::uint64_t>(r);
                w.chain.start(words, fom, ro, static_cast<std::uint64_t>(s));
                std::vector<BiasPoint> points;
                std::size_t c = 0;
                for (int it = 1; it <= opt.iterations; ++it) {
                    w.chain.step(progress);
                    if (it == opt.checkpoints[c]) {
                        w.chain.estimateInto(w.est);
                        points.push_back(measure(w.chain.pushes(), w.est, w.exact));
                        ++c;
                    }
                }
                sb.randomized.push_back(std::move(points));
            }
            out[s] = std::move(sb);
            progress.advance();
        },
        progress.cancelFlag());
    progress.throwIfCancelled();

    BiasExperimentResult res;
    res.options = opt;
    for (const Policy* p : maskPolicies)
        res.policyNames.push_back(p->meta.name);
    for (auto& sb : out) {
        if (sb)
            res.sentences.push_back(std::move(*sb));
        else
            ++res.skipped;
    }
    return res;
}

} // namespace prunescope
