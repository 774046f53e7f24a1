// prunescope-cli randomized: randomized pruning by auxiliary-variable MCMC (Bouchard-Côté, Petrov
// & Klein 2009) on a treebank's sentences — the bias of its expectations against exact
// inside-outside, next to fixed single masks of matched cost (sec. 4.1, Fig. 4(d)).
#include "app/cli/CommandLineGuard.h"
#include "app/cli/Commands.h"
#include "app/cli/ConsoleProgress.h"
#include "app/cli/Options.h"
#include "app/cli/randomized/RandomizedSupport.h"
#include "core/grammar/GrammarFile.h"
#include "core/mcmc/BiasExperiment.h"
#include "core/mcmc/BiasPlotSvg.h"
#include "core/util/AtomicFile.h"
#include "core/util/Error.h"
#include "core/util/JsonDocument.h"

#include <filesystem>
#include <iomanip>
#include <iostream>

namespace prunescope::cli {

namespace {
// The options whose presence run() checks: --json without a file prints JSON; --grammar and
// --treebank are needed unless --replot.
struct RandomizedGiven {
    CLI::Option *json, *grammar, *treebank;
};

struct RandomizedOpts {
    std::string grammar, treebank, policy, json, plot, plotRules, replot,
        selection = kDefaultSelection;
    std::vector<std::string> maskPolicies;
    std::vector<double> thresholds;
    int maxLen = 40, minLen = 1, iterations = 32, repeats = 1, limit = 0, every = 1, threads = 1,
        permutations = 10000;
    double support = kDefaultSupportThreshold, fraction = kDefaultSelectionFraction;
    std::uint64_t seed = 1;
    bool noOracle = false, quiet = false;
    RandomizedGiven given{};
};

nlohmann::json runJson(const BiasExperimentResult& r, int repeat, std::uint64_t seed) {
    const BiasSummary last = r.randomized(r.options.checkpoints.size() - 1, repeat);
    nlohmann::json j = {{"seed", seed},          {"iterations", r.options.iterations},
                        {"pushes", last.pushes}, {"biasL1", last.spanL1},
                        {"biasKL", last.spanKL}, {"ruleL1", last.ruleL1},
                        {"ruleKL", last.ruleKL}};
    const auto best = r.bestFixedMask(last.pushes);
    if (best) {
        j["fixedMaskPushes"] = best->pushes;
        j["fixedMaskBiasL1"] = best->spanL1;
        j["fixedMaskBiasKL"] = best->spanKL;
        j["fixedMaskRuleL1"] = best->ruleL1;
        j["fixedMask"] = best->toJson();
    } else {
        j["fixedMaskPushes"] = nullptr;
        j["fixedMaskBiasL1"] = nullptr;
        j["fixedMask"] = nullptr;
    }
    return j;
}

void writePlots(const BiasPlotData& d, const std::string& spans, const std::string& rules) {
    if (!spans.empty()) writeBiasPlotSvg(d, spans);
    if (!rules.empty()) {
        BiasPlotOptions opt;
        opt.ruleCounts = true;
        writeBiasPlotSvg(d, rules, opt);
    }
}

void printTable(const BiasExperimentResult& r, std::ostream& os) {
    os << std::fixed;
    os << "sentences " << r.sentences.size() << " (skipped, no derivation: " << r.skipped
       << "), exact pushes " << std::setprecision(0) << r.exactPushes() << "\n\n";
    os << std::left << std::setw(18) << "method" << std::setw(12) << "setting" << std::right
       << std::setw(14) << "pushes" << std::setw(10) << "x exact" << std::setw(10) << "span L1"
       << std::setw(10) << "span KL" << std::setw(10) << "rule L1" << std::setw(9) << "failed"
       << "\n";
    auto row = [&](const BiasSummary& s, const std::string& setting) {
        os << std::left << std::setw(18) << s.method << std::setw(12) << setting << std::right
           << std::setw(14) << std::setprecision(0) << s.pushes << std::setw(10)
           << std::setprecision(3) << s.pushes / std::max(1.0, r.exactPushes()) << std::setw(10)
           << std::setprecision(4) << s.spanL1 << std::setw(10) << s.spanKL << std::setw(10)
           << s.ruleL1 << std::setw(9) << s.failures << "\n";
    };
    for (std::size_t c = 0; c < r.options.checkpoints.size(); ++c)
        row(r.randomized(c), std::to_string(r.options.checkpoints[c]) + " it");
    for (const auto& s : r.fixedMasks())
        row(s, s.method == "policy-mask" ? s.name : formatThreshold(s.setting));
    for (const auto& s : r.oracleMasks())
        row(s, formatThreshold(s.setting));
}
void declareRandomizedOptions(CLI::App* sub, RandomizedOpts& o) {
    RandomizedGiven& given = o.given;
    given.grammar = sub->add_option("--grammar", o.grammar, "Grammar file");
    given.treebank = sub->add_option("--treebank", o.treebank,
                                     "Treebank file or directory (only the words are used)");
    sub->add_option("--replot", o.replot,
                    "Only redraw --out-svg / --plot-rules from the JSON a previous run wrote (no "
                    "--grammar, --treebank)");
    sub->add_option("--max-len", o.maxLen,
                    "Skip sentences longer than this (default 40: the paper's sentences of at most "
                    "40 words)")
        ->capture_default_str();
    sub->add_option("--min-len", o.minLen, "Skip sentences shorter than this")
        ->capture_default_str();
    sub->add_option("--iterations", o.iterations, "MCMC iterations (masks) per sentence")
        ->capture_default_str();
    sub->add_option("--seed", o.seed, "Seed of the chains (repeat r uses seed + r)")
        ->capture_default_str();
    sub->add_option("--selection", o.selection,
                    "Selection chain k*: rotate (the paper's, sec. 3.2), independent, none (no "
                    "pruning: exact)")
        ->capture_default_str();
    sub->add_option(
           "--support-threshold", o.support,
           "M' = spans whose figure of merit (the policy's keep probability) is at least this")
        ->capture_default_str();
    sub->add_option("--selection-fraction", o.fraction,
                    "|s| = fraction x |M'| (the paper's 2/3; rotate needs >= 1/2)")
        ->capture_default_str();
    sub->add_option("--policy", o.policy,
                    "Policy giving the figure of merit; its own mask is also a fixed-mask baseline "
                    "(default: the "
                    "bundled " +
                        std::string(kDefaultFomPolicy) + ")");
    sub->add_option("--mask-policy", o.maskPolicies,
                    "More policies whose masks are fixed-mask baselines");
    sub->add_option("--thresholds", o.thresholds,
                    "Figure-of-merit thresholds of the tic-tac-toe masks (default grid)")
        ->delimiter(',');
    sub->add_flag("--no-oracle", o.noOracle, "Skip the exact-posterior threshold masks");
    addQuietOption(sub, o.quiet);
    sub->add_option("--repeats", o.repeats, "Independent chains per sentence")
        ->capture_default_str();
    addMaxSentencesOption(sub, o.limit, "the treebank", {"--limit"});
    sub->add_option("--every", o.every, "Use every k-th sentence (a deterministic sample)")
        ->capture_default_str();
    sub->add_option("--permutations", o.permutations, "Samples of the paired permutation tests")
        ->capture_default_str();
    sub->add_option("--threads", o.threads,
                    "Worker threads (0 = all cores; default 1, one chain at a time as "
                    "earlier scripts expect; results do not depend on it)")
        ->capture_default_str();
    given.json =
        sub->add_option("--json", o.json, "Print JSON to stdout, or write it to the given file")
            ->expected(0, 1);
    addOutJsonOption(sub, o.json); // the file form of --json FILE, as in every command
    addOutSvgOption(sub, o.plot,
                    "Write the bias-vs-pushes plot (span-posterior L1, SVG) to this file",
                    {"--plot"});
    sub->add_option("--plot-rules", o.plotRules,
                    "Write the same plot for the expected rule counts' L1 (SVG)");
}

// --replot FILE: only the plots, from the JSON of an earlier run.
void replot(const RandomizedOpts& o) {
    const nlohmann::json j = parseJsonDocument(readFile(o.replot), o.replot);
    writePlots(BiasPlotData::fromJson(j.contains("experiment") ? j["experiment"] : j), o.plot,
               o.plotRules);
}

// Fixed-mask baselines besides the figure-of-merit policy's own mask: every --mask-policy that is
// not the same file.
std::vector<Policy> loadExtraMaskPolicies(const RandomizedOpts& o, const LoadedPolicy& fom) {
    std::vector<Policy> extra;
    for (const auto& p : o.maskPolicies)
        if (!std::filesystem::exists(fom.path) || !std::filesystem::equivalent(p, fom.path))
            extra.push_back(loadNamedPolicy(p));
    return extra;
}

BiasExperimentOptions biasOptions(const RandomizedOpts& o) {
    BiasExperimentOptions opt;
    opt.chain = chainOptions(o.selection, o.support, o.fraction, o.seed);
    opt.iterations = o.iterations;
    opt.repeats = o.repeats;
    opt.thresholds = o.thresholds;
    opt.oracle = !o.noOracle;
    opt.threads = o.threads;
    return opt;
}

nlohmann::json randomizedJson(const BiasExperimentResult& r, const RandomizedOpts& o,
                              const std::string& policyPath,
                              const std::vector<BiasComparison>& cmp) {
    nlohmann::json out = runJson(r, 0, o.seed);
    out["sentences"] = r.sentences.size();
    out["skippedNoDerivation"] = r.skipped;
    out["maxLength"] = o.maxLen;
    out["selection"] = o.selection;
    out["supportThreshold"] = o.support;
    out["selectionFraction"] = o.fraction;
    out["policy"] = policyPath;
    out["exactPushes"] = r.exactPushes();
    if (o.repeats > 1) {
        nlohmann::json runs = nlohmann::json::array();
        for (int rep = 0; rep < o.repeats; ++rep)
            runs.push_back(runJson(r, rep, o.seed + rep));
        out["runs"] = runs;
    }
    out["experiment"] = r.toJson();
    nlohmann::json cj = nlohmann::json::array();
    for (const auto& c : cmp)
        cj.push_back(c.toJson());
    out["comparisons"] = cj;
    out["selectionScore"] = BiasExperimentResult::selectionScore(cmp);
    return out;
}

// The text report after the table: each comparison with the best fixed mask of no greater cost,
// the selection score, and the first run's summary.
void printComparisons(const nlohmann::json& out, const std::vector<BiasComparison>& cmp,
                      const RandomizedOpts& o) {
    std::cout << "\nrandomized vs the best fixed mask of no greater cost (paired sign-flip "
                 "test, Holm over "
              << cmp.size() << " rows):\n";
    for (const auto& c : cmp) {
        std::cout << "  " << std::setw(5) << static_cast<int>(c.randomized.setting) << " it  L1 "
                  << std::setprecision(4) << c.randomized.spanL1;
        if (c.fixed)
            std::cout << "  vs "
                      << (c.fixed->method == "policy-mask" ? c.fixed->name
                                                           : formatThreshold(c.fixed->setting))
                      << " L1 " << c.fixed->spanL1 << "  ln ratio " << std::setprecision(3)
                      << c.logRatio << "  p " << std::defaultfloat << std::setprecision(3)
                      << c.pValue << "  Holm " << c.pHolm << std::fixed;
        std::cout << "\n";
    }
    std::cout << "selection score (mean ln ratio) " << std::setprecision(4)
              << BiasExperimentResult::selectionScore(cmp) << "\n";
    std::cout << "\nrandomized (seed " << o.seed << ", " << o.iterations << " iterations): pushes "
              << std::setprecision(0) << out["pushes"].get<double>() << ", span L1 "
              << std::setprecision(4) << out["biasL1"].get<double>() << "\n";
    if (!out["fixedMaskPushes"].is_null())
        std::cout << "best fixed mask of no greater cost: pushes " << std::setprecision(0)
                  << out["fixedMaskPushes"].get<double>() << ", span L1 " << std::setprecision(4)
                  << out["fixedMaskBiasL1"].get<double>() << "\n";
}

int runRandomized(const RandomizedOpts& o) {
    const RandomizedGiven& given = o.given;
    if (!o.replot.empty()) {
        replot(o);
        return 0;
    }
    if (given.grammar->count() == 0 || given.treebank->count() == 0)
        throw UsageError("randomized needs --grammar and --treebank (or --replot FILE)");
    const Grammar g = loadGrammar(o.grammar);
    const auto sentences = loadSentenceWords(o.treebank, o.minLen, o.maxLen, o.every, o.limit);
    if (sentences.empty())
        throw InputError(o.treebank, 0, 0,
                         "no sentence of " + std::to_string(o.minLen) + " to " +
                             std::to_string(o.maxLen) + " words (--min-len, --max-len) to run on");
    const LoadedPolicy fom = loadFomPolicy(o.policy);
    const std::vector<Policy> extra = loadExtraMaskPolicies(o, fom);
    std::vector<const Policy*> masks{&fom.policy};
    for (const auto& p : extra)
        masks.push_back(&p);

    ConsoleProgress console("randomized", "sentence", o.quiet);
    const BiasExperimentResult r =
        runBiasExperiment(g, sentences, fom.policy, masks, biasOptions(o), console.progress());
    const auto cmp = r.comparisons(o.permutations, o.seed);
    const nlohmann::json out = randomizedJson(r, o, fom.path, cmp);
    writePlots(BiasPlotData::from(r), o.plot, o.plotRules);
    if (given.json->count() > 0 && (o.json.empty() || printsJsonOnly(o.json))) {
        std::cout << out.dump(2) << "\n";
        return 0;
    }
    writeJsonOutput(o.json, out.dump(2) + "\n");
    printTable(r, std::cout);
    printComparisons(out, cmp, o);
    return 0;
}

} // namespace

void addRandomizedCommand(CLI::App& app) {
    addRandomizedEmCommand(app);
    addRandomizedBenchCommand(app);
    addCommand<RandomizedOpts>(
        app, "randomized",
        "Randomized pruning (auxiliary-variable MCMC over span masks): bias of span "
        "posteriors and expected rule "
        "counts against exact inside-outside, vs fixed masks of matched cost",
        declareRandomizedOptions, runRandomized);
}

} // namespace prunescope::cli
