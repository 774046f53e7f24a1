// prunescope-cli bench-features: span feature extraction and policy mask speed (spans/s), and
// optionally baseline example construction and training time.
#include "app/cli/Commands.h"
#include "app/cli/ConsoleProgress.h"
#include "app/cli/Options.h"
#include "app/cli/cky/NumberArgument.h"
#include "core/grammar/GrammarFile.h"
#include "core/policy/Baseline.h"
#include "core/policy/PolicyMask.h"
#include "core/treebank/Normalize.h"

#include <algorithm>
#include <chrono>
#include <iostream>

namespace prunescope::cli {
namespace {

using Clock = std::chrono::steady_clock;
double secondsSince(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

struct BenchFeaturesOptions {
    std::string treebank, policy, grammar, l2 = "2^-13";
    int maxLen = 40, repeat = 3, maxIterations = BaselineOptions{}.logreg.maxIterations;
    double trainWeight = 0;
    bool quiet = false;
};

void declareBenchFeaturesOptions(CLI::App* sub, BenchFeaturesOptions& o) {
    sub->add_option("--treebank", o.treebank, "Treebank file or directory")->required();
    addQuietOption(sub, o.quiet);
    sub->add_option("--max-len", o.maxLen,
                    "Longest sentence to include (0 = all; default 40 as in the paper)")
        ->capture_default_str();
    addRepeatsOption(sub, o.repeat, "Passes (the best is reported)", {"--repeat"});
    sub->add_option("--policy", o.policy, "Also time policyMask with this policy");
    sub->add_option("--grammar", o.grammar, "With --train-weight: grammar for the gold spans");
    sub->add_option(
        "--train-weight", o.trainWeight,
        "Also build the baseline examples and train one policy with this positive weight");
    sub->add_option("--l2", o.l2, "Regularization for --train-weight")->capture_default_str();
    addLbfgsMaxIterationsOption(sub, o.maxIterations, "L-BFGS iteration limit for --train-weight",
                                {"--max-iterations"});
}

// Span features of every sentence, the best of --repeats passes. `sink` gets one pass's sum of a
// feature per sentence: the work is used, and the same every pass.
nlohmann::json timeFeatures(const std::vector<Tree>& trees,
                            const std::vector<std::vector<std::string>>& words, long spans,
                            long prunable, int repeat, unsigned long& sink) {
    double best = 1e300;
    for (int r = 0; r < std::max(repeat, 1); ++r) {
        const auto t0 = Clock::now();
        unsigned long pass = 0;
        for (const auto& w : words) {
            const SentenceFeatures f(w);
            pass += f.features(0, 1)[0];
        }
        best = std::min(best, secondsSince(t0));
        sink = pass;
    }
    return {{"sentences", trees.size()},
            {"spans", spans},
            {"prunableSpans", prunable},
            {"featureSeconds", best},
            {"featureSpansPerSecond", spans / best},
            {"featurePrunableSpansPerSecond", prunable / best},
            {"checksum", sink % 1000}};
}

// --policy: its masks from precomputed features, and features and mask together.
void timePolicyMask(const std::string& policy, const std::vector<std::vector<std::string>>& words,
                    long prunable, int repeat, unsigned long& sink, nlohmann::json& j) {
    const Policy p = loadPolicy(policy);
    std::vector<SentenceFeatures> feats;
    for (const auto& w : words)
        feats.emplace_back(w);
    PruningMask m;
    double bestMask = 1e300, bestBoth = 1e300;
    long kept = 0;
    for (int r = 0; r < std::max(repeat, 1); ++r) {
        auto t0 = Clock::now();
        kept = 0;
        for (const auto& f : feats) {
            policyMaskInto(p, f, m);
            kept += m.keptCount();
        }
        bestMask = std::min(bestMask, secondsSince(t0));
        t0 = Clock::now();
        const MaskFunction mf = policyMaskFunction(p);
        for (const auto& w : words)
            sink += mf(w).n;
        bestBoth = std::min(bestBoth, secondsSince(t0));
    }
    j["policyMaskSeconds"] = bestMask;
    j["policyMaskPrunableSpansPerSecond"] = prunable / bestMask;
    j["featuresAndMaskSeconds"] = bestBoth;
    j["featuresAndMaskPrunableSpansPerSecond"] = prunable / bestBoth;
    j["spansKept"] = kept;
}

// --train-weight: the baseline's examples and one policy trained on them.
void timeBaselineTraining(const BenchFeaturesOptions& o, const std::vector<Tree>& trees,
                          nlohmann::json& j) {
    if (o.grammar.empty()) throw UsageError("--train-weight needs --grammar");
    const Grammar g = loadGrammar(o.grammar);
    // Progress for the part that runs for seconds (examples, L-BFGS), cleared before the JSON.
    ConsoleProgress console("bench-features", "step", o.quiet);
    auto t0 = Clock::now();
    BaselineExamples ex = baselineExamples(g, trees, o.maxLen, o.trainWeight, console.progress());
    j["examples"] = ex.examples.size();
    j["goldExamples"] = ex.positives;
    j["examplesSeconds"] = secondsSince(t0);
    LogRegOptions lo;
    lo.l2 = parseNumber(o.l2, "--l2");
    lo.maxIterations = o.maxIterations;
    BaselineTrainInfo info;
    trainBaselinePolicy(ex.examples, o.trainWeight, lo, &info, nullptr, console.progress());
    j["training"] = info.toJson();
}

int runBenchFeatures(const BenchFeaturesOptions& o) {
    std::vector<Tree> trees = readNormalizedTreebank(o.treebank);
    std::erase_if(trees, [&](const Tree& t) { return o.maxLen > 0 && t.size() > o.maxLen; });
    std::vector<std::vector<std::string>> words;
    long spans = 0, prunable = 0;
    for (const auto& t : trees) {
        words.push_back(t.words());
        const long n = static_cast<long>(words.back().size());
        spans += n * (n + 1) / 2;
        prunable += std::max(0, PruningMask::prunableCount(static_cast<int>(n)));
    }
    unsigned long sink = 0;
    nlohmann::json j = timeFeatures(trees, words, spans, prunable, o.repeat, sink);
    if (!o.policy.empty()) timePolicyMask(o.policy, words, prunable, o.repeat, sink, j);
    if (o.trainWeight > 0) timeBaselineTraining(o, trees, j);
    std::cout << j.dump(2) << "\n";
    return 0;
}

} // namespace

void addBenchFeaturesCommand(CLI::App& app) {
    addCommand<BenchFeaturesOptions>(
        app, "bench-features",
        "Benchmark span feature extraction and policy masks (spans/s); "
        "optionally baseline example construction and training time",
        declareBenchFeaturesOptions, runBenchFeatures);
}

} // namespace prunescope::cli
