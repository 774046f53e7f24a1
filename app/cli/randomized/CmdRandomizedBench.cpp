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

namespace {} // namespace

void addRandomizedBenchCommand(CLI::App& app) {
    auto* sub = app.add_subcommand(
        "bench-randomized",
        "Benchmark randomized pruning: pushes and seconds per MCMC iteration at given sentence "
        "lengths, next to exact inside-outside and Viterbi CKY");
    struct Opts {
        std::string grammar, treebank, policy, selection = kDefaultSelection;
        std::vector<int> lengths{20, 40};
        int tolerance = 1, perLength = 8, iterations = 16, passes = 3;
        double support = kDefaultSupportThreshold, fraction = kDefaultSelectionFraction;
        std::uint64_t seed = 1;
        bool json = false, quiet = false;
    };
    auto o = std::make_shared<Opts>();
    sub->add_option("--grammar", o->grammar, "Grammar file")->required();
    sub->add_option("--treebank", o->treebank, "Treebank (only the words are used)")->required();
    sub->add_option("--lengths", o->lengths, "Sentence lengths")
        ->delimiter(',')
        ->capture_default_str();
    sub->add_option("--tolerance", o->tolerance, "Accept lengths within +- this")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    sub->add_option("--per-length", o->perLength, "Sentences per length")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    sub->add_option("--iterations", o->iterations, "MCMC iterations per sentence and pass")
        ->check(CLI::Range(1, 100000000))
        ->capture_default_str();
    addRepeatsOption(sub, o->passes, "Timing passes (each sentence's minimum is kept)",
                     {"--passes"})
        ->check(CLI::Range(1, 1000));
    sub->add_option("--seed", o->seed, "Seed")->capture_default_str();
    sub->add_option("--selection", o->selection, "Selection chain")->capture_default_str();
    sub->add_option("--support-threshold", o->support, "M' threshold")->capture_default_str();
    sub->add_option("--selection-fraction", o->fraction, "|s| / |M'|")->capture_default_str();
    sub->add_option("--policy", o->policy, "Figure-of-merit policy (default: the bundled one)");
    sub->add_flag("--json", o->json, "Print JSON");
    sub->add_flag("--quiet", o->quiet, "No progress on stderr");
    setAction(sub, [o] {
        // The deprecated spelling sets the same value without the option's own check.
        if (o->passes < 1 || o->passes > 1000)
            throw UsageError("--repeats (--passes): must be between 1 and 1000");
        const Grammar g = loadGrammar(o->grammar);
        const LoadedPolicy fom = loadFomPolicy(o->policy);
        RandomizedOptions opt;
        opt.selection = selectionFromName(o->selection);
        opt.supportThreshold = o->support;
        opt.selectionFraction = o->fraction;
        opt.seed = o->seed;
        PrunedInsideOutside io(g);
        RandomizedPruning chain(g);
        Parser parser(g);
        Expectations e;
        nlohmann::json rows = nlohmann::json::array();
        // Every length's sentences first: a length the treebank lacks is an error before any
        // timing.
        std::vector<std::vector<std::vector<std::string>>> byLength;
        for (int L : o->lengths) {
            byLength.push_back(loadSentenceWords(o->treebank, L - o->tolerance, L + o->tolerance, 1,
                                                 o->perLength));
            if (byLength.back().empty())
                throw std::invalid_argument(
                    o->treebank + " has no sentence of " + std::to_string(L - o->tolerance) +
                    " to " + std::to_string(L + o->tolerance) + " words (--lengths " +
                    std::to_string(L) + ", --tolerance " + std::to_string(o->tolerance) + ")");
        }
        // Progress per sentence on stderr (the benchmark runs for seconds); Ctrl-C cancels.
        ConsoleProgress console("bench-randomized", "sentence", o->quiet);
        long total = 0;
        for (const auto& sentences : byLength)
            total += static_cast<long>(sentences.size());
        console.progress().begin("timing", total);
        for (std::size_t li = 0; li < o->lengths.size(); ++li) {
            const int L = o->lengths[li];
            const auto& sentences = byLength[li];
            std::vector<double> exactS, exactP, viterbiS, iterS, iterP, startS, startP, ratioS,
                ratioP;
            for (std::size_t s = 0; s < sentences.size(); ++s) {
                console.progress().throwIfCancelled();
                const auto& w = sentences[s];
                const int n = static_cast<int>(w.size());
                const auto f = policyFigureOfMerit(fom.policy, w);
                double bestExact = 1e300, bestViterbi = 1e300, bestIter = 1e300, bestStart = 1e300;
                long pushesExact = 0, pushesIter = 0, pushesStart = 0;
                for (int p = 0; p < o->passes; ++p) { // variants alternate within every pass
                    double t0 = threadCpuSeconds();
                    const auto st = io.inside(w, PruningMask::allKeep(n));
                    io.outside(e);
                    bestExact = std::min(bestExact, threadCpuSeconds() - t0);
                    pushesExact = st.pushes;
                    t0 = threadCpuSeconds();
                    parser.parse(w);
                    bestViterbi = std::min(bestViterbi, threadCpuSeconds() - t0);
                    t0 = threadCpuSeconds();
                    chain.start(w, f, opt, s);
                    bestStart = std::min(bestStart, threadCpuSeconds() - t0);
                    pushesStart = chain.initPushes();
                    t0 = threadCpuSeconds();
                    for (int it = 0; it < o->iterations; ++it)
                        chain.step();
                    bestIter = std::min(bestIter, (threadCpuSeconds() - t0) / o->iterations);
                    pushesIter = (chain.pushes() - chain.initPushes()) / o->iterations;
                }
                exactS.push_back(bestExact);
                exactP.push_back(static_cast<double>(pushesExact));
                viterbiS.push_back(bestViterbi);
                startS.push_back(bestStart);
                startP.push_back(static_cast<double>(pushesStart));
                iterS.push_back(bestIter);
                iterP.push_back(static_cast<double>(pushesIter));
                ratioS.push_back(bestIter / bestExact);
                ratioP.push_back(static_cast<double>(pushesIter) /
                                 static_cast<double>(std::max<long>(pushesExact, 1)));
                console.progress().advance();
            }
            rows.push_back({{"length", L},
                            {"sentences", sentences.size()},
                            {"exactSeconds", spreadJson(spreadOf(exactS))},
                            {"exactPushes", spreadJson(spreadOf(exactP))},
                            {"viterbiSeconds", spreadJson(spreadOf(viterbiS))},
                            {"startSeconds", spreadJson(spreadOf(startS))},
                            {"startPushes", spreadJson(spreadOf(startP))},
                            {"iterationSeconds", spreadJson(spreadOf(iterS))},
                            {"iterationPushes", spreadJson(spreadOf(iterP))},
                            {"iterationToExactSeconds", spreadJson(spreadOf(ratioS))},
                            {"iterationToExactPushes", spreadJson(spreadOf(ratioP))}});
        }
        if (o->json) {
            std::cout << nlohmann::json{{"rows", rows},
                                        {"iterations", o->iterations},
                                        {"passes", o->passes},
                                        {"selection", o->selection},
                                        {"supportThreshold", o->support},
                                        {"selectionFraction", o->fraction},
                                        {"policy", fom.path}}
                             .dump(2)
                      << "\n";
            return 0;
        }
        std::cout << "min / median / max over sentences (each sentence: best of " << o->passes
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
        return 0;
    });
}

} // namespace prunescope::cli
