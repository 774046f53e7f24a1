// prunescope-cli bench-randomized: pushes and thread CPU seconds per randomized-pruning iteration
// (mask, pruned inside, pruned outside, tree sample) next to one exact inside-outside pass and one
// Viterbi parse, for sentences of given lengths (docs/benchmarks.md, "Randomized pruning").
#include "app/cli/Commands.h"
#include "app/cli/ConsoleProgress.h"
#include "app/cli/Options.h"
#include "app/cli/randomized/RandomizedSupport.h"
#include "core/grammar/GrammarFile.h"
#include "core/mcmc/FigureOfMerit.h"
#include "core/mcmc/RandomizedPruning.h"
#include "core/parse/Parser.h"
#include "core/util/Clock.h"
#include "core/util/Spread.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <ctime>
#include <iomanip>
#include <iostream>

namespace prunescope::cli {

namespace {

struct RandomizedBenchOptions {
    std::string grammar, treebank, policy, selection = kDefaultSelection;
    std::vector<int> lengths{20, 40};
    int tolerance = 1, perLength = 8, iterations = 16, passes = 3;
    double support = kDefaultSupportThreshold, fraction = kDefaultSelectionFraction;
    std::uint64_t seed = 1;
    bool json = false, quiet = false;
};

void declareRandomizedBenchOptions(CLI::App* sub, RandomizedBenchOptions& o) {
    sub->add_option("--grammar", o.grammar, "Grammar file")->required();
    sub->add_option("--treebank", o.treebank, "Treebank (only the words are used)")->required();
    sub->add_option("--lengths", o.lengths, "Sentence lengths")
        ->delimiter(',')
        ->capture_default_str();
    addRenamedOption(sub, o.tolerance, "--length-tolerance",
                     "Accept lengths within +- this (words)", {"--tolerance"})
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    sub->add_option("--per-length", o.perLength, "Sentences per length")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    sub->add_option("--iterations", o.iterations, "MCMC iterations per sentence and pass")
        ->check(CLI::Range(1, 100000000))
        ->capture_default_str();
    addRepeatsOption(sub, o.passes, "Timing passes (each sentence's minimum is kept)", {"--passes"})
        ->check(CLI::Range(1, 1000));
    sub->add_option("--seed", o.seed, "Seed")->capture_default_str();
    sub->add_option("--selection", o.selection, "Selection chain")->capture_default_str();
    sub->add_option("--support-threshold", o.support, "M' threshold")->capture_default_str();
    sub->add_option("--selection-fraction", o.fraction, "|s| / |M'|")->capture_default_str();
    sub->add_option("--policy", o.policy, "Figure-of-merit policy (default: the bundled one)");
    sub->add_flag("--json", o.json, "Print JSON");
    sub->add_flag("--quiet", o.quiet, "No progress on stderr");
}

using SentenceWords = std::vector<std::vector<std::string>>;

// Every length's sentences first: a length the treebank lacks is an error before any timing.
std::vector<SentenceWords> loadSentencesByLength(const RandomizedBenchOptions& o) {
    std::vector<SentenceWords> byLength;
    for (int L : o.lengths) {
        byLength.push_back(
            loadSentenceWords(o.treebank, L - o.tolerance, L + o.tolerance, 1, o.perLength));
        if (byLength.back().empty())
            throw std::invalid_argument(
                o.treebank + " has no sentence of " + std::to_string(L - o.tolerance) + " to " +
                std::to_string(L + o.tolerance) + " words (--lengths " + std::to_string(L) +
                ", --length-tolerance " + std::to_string(o.tolerance) + ")");
    }
    return byLength;
}

// The engines every timed sentence reuses.
struct BenchEngines {
    explicit BenchEngines(const Grammar& g) : io(g), chain(g), parser(g) {}
    PrunedInsideOutside io;
    RandomizedPruning chain;
    Parser parser;
    Expectations e;
};

// One length's figures, one entry per sentence.
struct LengthTimes {
    std::vector<double> exactS, exactP, viterbiS, iterS, iterP, startS, startP, ratioS, ratioP;
};

// Times one sentence: the best of --repeats passes, the variants alternating within every pass.
void timeSentence(BenchEngines& en, const std::vector<std::string>& w, std::size_t s,
                  const Policy& fom, const RandomizedOptions& opt, const RandomizedBenchOptions& o,
                  LengthTimes& t) {
    const int n = static_cast<int>(w.size());
    const auto f = policyFigureOfMerit(fom, w);
    double bestExact = 1e300, bestViterbi = 1e300, bestIter = 1e300, bestStart = 1e300;
    long pushesExact = 0, pushesIter = 0, pushesStart = 0;
    for (int p = 0; p < o.passes; ++p) {
        double t0 = threadCpuSeconds();
        const auto st = en.io.inside(w, PruningMask::allKeep(n));
        en.io.outside(en.e);
        bestExact = std::min(bestExact, threadCpuSeconds() - t0);
        pushesExact = st.pushes;
        t0 = threadCpuSeconds();
        en.parser.parse(w);
        bestViterbi = std::min(bestViterbi, threadCpuSeconds() - t0);
        t0 = threadCpuSeconds();
        en.chain.start(w, f, opt, s);
        bestStart = std::min(bestStart, threadCpuSeconds() - t0);
        pushesStart = en.chain.initPushes();
        t0 = threadCpuSeconds();
        for (int it = 0; it < o.iterations; ++it)
            en.chain.step();
        bestIter = std::min(bestIter, (threadCpuSeconds() - t0) / o.iterations);
        pushesIter = (en.chain.pushes() - en.chain.initPushes()) / o.iterations;
    }
    t.exactS.push_back(bestExact);
    t.exactP.push_back(static_cast<double>(pushesExact));
    t.viterbiS.push_back(bestViterbi);
    t.startS.push_back(bestStart);
    t.startP.push_back(static_cast<double>(pushesStart));
    t.iterS.push_back(bestIter);
    t.iterP.push_back(static_cast<double>(pushesIter));
    t.ratioS.push_back(bestIter / bestExact);
    t.ratioP.push_back(static_cast<double>(pushesIter) /
                       static_cast<double>(std::max<long>(pushesExact, 1)));
}

nlohmann::json lengthRow(int L, std::size_t sentences, const LengthTimes& t) {
    return {{"length", L},
            {"sentences", sentences},
            {"exactSeconds", spreadJson(spreadOf(t.exactS))},
            {"exactPushes", spreadJson(spreadOf(t.exactP))},
            {"viterbiSeconds", spreadJson(spreadOf(t.viterbiS))},
            {"startSeconds", spreadJson(spreadOf(t.startS))},
            {"startPushes", spreadJson(spreadOf(t.startP))},
            {"iterationSeconds", spreadJson(spreadOf(t.iterS))},
            {"iterationPushes", spreadJson(spreadOf(t.iterP))},
            {"iterationToExactSeconds", spreadJson(spreadOf(t.ratioS))},
            {"iterationToExactPushes", spreadJson(spreadOf(t.ratioP))}};
}

void printLengthRows(const nlohmann::json& rows, int passes) {
    std::cout << "min / median / max over sentences (each sentence: best of " << passes
              << " passes; thread CPU time)\n";
    for (const auto& r : rows) {
        std::cout << "\nlength " << r["length"] << " (" << r["sentences"] << " sentences)\n";
        for (const char* key : {"exactSeconds", "exactPushes", "viterbiSeconds", "startSeconds",
                                "startPushes", "iterationSeconds", "iterationPushes",
                                "iterationToExactSeconds", "iterationToExactPushes"}) {
            const auto& s = r[key];
            std::cout << "  " << std::left << std::setw(24) << key << std::right
                      << std::setprecision(4) << std::setw(12) << s["min"].get<double>()
                      << std::setw(12) << s["median"].get<double>() << std::setw(12)
                      << s["max"].get<double>() << "\n";
        }
    }
}

int runRandomizedBench(const RandomizedBenchOptions& o) {
    // The deprecated spelling sets the same value without the option's own check.
    if (o.passes < 1 || o.passes > 1000)
        throw UsageError("--repeats (--passes): must be between 1 and 1000");
    const Grammar g = loadGrammar(o.grammar);
    const LoadedPolicy fom = loadFomPolicy(o.policy);
    const RandomizedOptions opt = chainOptions(o.selection, o.support, o.fraction, o.seed);
    BenchEngines engines(g);
    const std::vector<SentenceWords> byLength = loadSentencesByLength(o);
    // Progress per sentence on stderr (the benchmark runs for seconds); Ctrl-C cancels.
    ConsoleProgress console("bench-randomized", "sentence", o.quiet);
    long total = 0;
    for (const auto& sentences : byLength)
        total += static_cast<long>(sentences.size());
    console.progress().begin("timing", total);
    nlohmann::json rows = nlohmann::json::array();
    for (std::size_t li = 0; li < o.lengths.size(); ++li) {
        const auto& sentences = byLength[li];
        LengthTimes t;
        for (std::size_t s = 0; s < sentences.size(); ++s) {
            console.progress().throwIfCancelled();
            timeSentence(engines, sentences[s], s, fom.policy, opt, o, t);
            console.progress().advance();
        }
        rows.push_back(lengthRow(o.lengths[li], sentences.size(), t));
    }
    if (o.json) {
        std::cout << nlohmann::json{{"rows", rows},
                                    {"iterations", o.iterations},
                                    {"passes", o.passes},
                                    {"selection", o.selection},
                                    {"supportThreshold", o.support},
                                    {"selectionFraction", o.fraction},
                                    {"policy", fom.path}}
                         .dump(2)
                  << "\n";
        return 0;
    }
    printLengthRows(rows, o.passes);
    return 0;
}

} // namespace

void addRandomizedBenchCommand(CLI::App& app) {
    addCommand<RandomizedBenchOptions>(
        app, "bench-randomized",
        "Benchmark randomized pruning: pushes and seconds per MCMC iteration at given sentence "
        "lengths, next to exact inside-outside and Viterbi CKY",
        declareRandomizedBenchOptions, runRandomizedBench);
}

} // namespace prunescope::cli
