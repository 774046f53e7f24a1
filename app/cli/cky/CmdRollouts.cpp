// prunescope-cli check-rollouts: change propagation (sec. 5.2) and inside-outside (sec. 5.3)
// rollouts against naive reparsing on every flip of a whole treebank (bench-rollouts times them:
// CmdBenchRollouts.cpp).
#include "app/cli/Commands.h"
#include "app/cli/ConsoleProgress.h"
#include "app/cli/Options.h"
#include "app/cli/cky/RolloutInputs.h"
#include "core/eval/Evalb.h"
#include "core/grammar/GrammarFile.h"
#include "core/parse/Parser.h"
#include "core/rollout/ChangePropagator.h"
#include "core/rollout/Rollout.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <iomanip>
#include <iostream>
#include <random>

namespace prunescope::cli {
namespace {

struct CheckRolloutsOptions {
    std::string grammar, treebank, masks = "keep,random";
    int maxLen = 40, limit = 0;
    double pruneP = 0.4, tolerance = 1e-9;
    std::optional<double> cpWorkBudget; // unset: ChangePropagator's defaults
    unsigned seed = 1;
    bool skipCp = false, skipDp = false, quiet = false;
};

void declareCheckRolloutsOptions(CLI::App* sub, CheckRolloutsOptions& o) {
    sub->add_option("--grammar", o.grammar, "Grammar file")->required();
    sub->add_option("--treebank", o.treebank,
                    "Gold treebank file or directory (e.g. the dev split)")
        ->required();
    sub->add_option(
           "--max-len", o.maxLen,
           "Longest sentence to check (default 40: the paper's sentences of at most 40 words)")
        ->capture_default_str();
    sub->add_option("--masks", o.masks, "Roll-in masks, comma-separated: keep, random, gold")
        ->capture_default_str();
    sub->add_option("--prune-fraction", o.pruneP, "Pruning probability of the random mask")
        ->capture_default_str();
    addRenamedOption(sub, o.tolerance, "--max-relative-error",
                     "Largest relative error allowed for DP", {"--tolerance"})
        ->capture_default_str();
    sub->add_option("--seed", o.seed, "Seed of the random masks")->capture_default_str();
    addMaxSentencesOption(sub, o.limit, "the treebank", {"--limit"});
    sub->add_flag("--no-cp", o.skipCp, "Skip the change-propagation check");
    addCpWorkBudgetOption(sub, o.cpWorkBudget);
    sub->add_flag("--no-dp", o.skipDp, "Skip the inside-outside check");
    addQuietOption(sub, o.quiet);
}

// What the whole check counted.
struct CheckTally {
    long flips = 0, cpBad = 0, dpBad = 0, recomputed = 0, noBracketing = 0, failed = 0;
    long cpRecomputed = 0; // CP flips (flip()) recomputed past --cp-work-budget
    double worst = 0;
};
// Prints one mismatch on stderr: what, and the flip (i, k) of the sentence and mask at hand.
using MismatchReport = std::function<void(const char* what, int i, int k)>;

// Both CP paths on every flip of m: ChangePropagator::flip (the full chart, as the GUI uses it) and
// changePropagationRollouts (probeFlip, as LOLS uses it), against the parser; and each undo.
void checkCpFlips(const Grammar& g, Parser& parser, const Tree& t, const PruningMask& m,
                  std::optional<double> budget, CheckTally& tally, const MismatchReport& report) {
    const auto words = t.words();
    const int n = static_cast<int>(words.size());
    RolloutRequest req{&g, words, t, m, {}};
    req.cpWorkBudget = budget;
    const auto rollouts = changePropagationRollouts(req);
    ChangePropagator cp(g, words, m);
    cp.setWorkBudget(budget.value_or(ChangePropagator::kDefaultWorkBudget));
    cp.setGold(t);
    const DenseChart original = cp.chart();
    std::size_t q = 0;
    for (int w = 2; w < n; ++w)
        for (int i = 0; i + w <= n; ++i, ++q) {
            const FlipResult r = cp.flip(i, i + w);
            PruningMask f = m;
            f.flip(i, i + w);
            const ParseStats st = parser.parse(words, &f);
            const Tree tree = bestTree(g, parser.chart(), words);
            const double f1 = sentenceF1(t, tree);
            const SpanRollout& ro = rollouts[q];
            const bool flippedKeep = !ro.rollInKeep;
            const bool rolloutOk = (flippedKeep ? ro.accuracyKeep : ro.accuracyPrune) == f1 &&
                                   (flippedKeep ? ro.runtimeKeep : ro.runtimePrune) ==
                                       static_cast<double>(st.constituents);
            const bool ok = rolloutOk && bitIdentical(cp.chart(), parser.chart()) &&
                            r.success == st.success && r.logProb == st.logProb && r.tree == tree &&
                            r.f1 == f1 && r.constituents == st.constituents &&
                            r.pushes == st.pushes && r.spansKept == st.spansKept;
            tally.failed += !st.success;
            cp.undo();
            const bool undone = bitIdentical(cp.chart(), original) && cp.mask() == m;
            if (!ok) ++tally.cpBad, report("CP after flip", i, i + w);
            if (!undone) ++tally.cpBad, report("CP after undo", i, i + w);
            ++tally.flips;
        }
    tally.cpRecomputed += cp.recomputedFlips();
}

// Inside-outside rollouts against naive reparsing with the DP surrogate, within the tolerance.
void checkDpRollouts(const Grammar& g, const Tree& t, const PruningMask& m, double tolerance,
                     bool countFlips, CheckTally& tally, const MismatchReport& report) {
    RolloutRequest req{&g, t.words(), t, m, {}};
    const auto a = naiveRollouts(req, Surrogate::DP);
    DpRolloutStats stats;
    const auto b = dpRollouts(req, &stats);
    tally.recomputed += stats.recomputed;
    tally.noBracketing += stats.noBracketing;
    for (std::size_t q = 0; q < a.size(); ++q)
        for (const auto& [x, y] : {std::pair{a[q].accuracyKeep, b[q].accuracyKeep},
                                   std::pair{a[q].accuracyPrune, b[q].accuracyPrune}}) {
            const double err = x == y ? 0.0 : std::abs(x - y) / std::max(std::abs(x), std::abs(y));
            tally.worst = std::max(tally.worst, err);
            if (err > tolerance || a[q].runtimeKeep != b[q].runtimeKeep ||
                a[q].runtimePrune != b[q].runtimePrune)
                ++tally.dpBad, report("DP", a[q].i, a[q].k);
        }
    if (countFlips) tally.flips += static_cast<long>(a.size());
}

void printCheckSummary(const CheckRolloutsOptions& o, std::size_t sentences,
                       const CheckTally& tally, double secs) {
    std::cout << "sentences            " << sentences << " (3.." << o.maxLen << " words)\n"
              << "masks                " << o.masks << "\n"
              << "flips checked        " << tally.flips
              << (o.skipCp ? "" : " (" + std::to_string(tally.failed) + " failed parses)") << "\n";
    if (!o.skipCp)
        std::cout << "CP mismatches        " << tally.cpBad << " (" << tally.cpRecomputed
                  << " flips recomputed past the work budget "
                  << o.cpWorkBudget.value_or(ChangePropagator::kDefaultWorkBudget) << ")\n";
    if (!o.skipDp)
        std::cout << "DP mismatches        " << tally.dpBad << " (worst relative error "
                  << tally.worst << ", " << tally.recomputed
                  << " ill-conditioned flips recomputed, " << tally.noBracketing
                  << " answered without a pass: no bracketing left)\n";
    std::cout << "seconds              " << std::fixed << std::setprecision(1) << secs << "\n";
    std::cout << ((tally.cpBad + tally.dpBad) == 0 ? "OK" : "FAILED") << "\n";
}

int runCheckRollouts(const CheckRolloutsOptions& o) {
    const Grammar g = loadGrammar(o.grammar);
    std::vector<Tree> trees = loadSentences(o.treebank, 3, o.maxLen);
    if (o.limit > 0 && static_cast<int>(trees.size()) > o.limit) trees.resize(o.limit);
    requireSentencesToEvaluate(trees.size(), o.treebank, o.maxLen); // "OK" on none is no check
    const auto kinds = maskKinds(o.masks);
    std::mt19937 rng(o.seed);
    Parser parser(g);
    CheckTally tally;
    const auto start = std::chrono::steady_clock::now();
    ConsoleProgress console("check-rollouts", "step", o.quiet);
    const Progress& progress = console.progress();
    progress.begin("checking", static_cast<long>(trees.size()));
    for (std::size_t s = 0; s < trees.size(); ++s) {
        progress.throwIfCancelled();
        const Tree& t = trees[s];
        for (const auto& kind : kinds) {
            const PruningMask m = makeMask(kind, g, t, o.pruneP, rng);
            const MismatchReport report = [&](const char* what, int i, int k) {
                std::cerr << "MISMATCH (" << what << ") sentence " << s << " n=" << t.size()
                          << " mask " << kind << " flip (" << i << "," << k << ")\n";
            };
            if (!o.skipCp) checkCpFlips(g, parser, t, m, o.cpWorkBudget, tally, report);
            if (!o.skipDp) checkDpRollouts(g, t, m, o.tolerance, o.skipCp, tally, report);
        }
        progress.advance();
        if ((s + 1) % 25 == 0)
            progress.log("  " + std::to_string(s + 1) + "/" + std::to_string(trees.size()) +
                         " sentences, " + std::to_string(tally.flips) + " flips");
    }
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    printCheckSummary(o, trees.size(), tally, secs);
    return (tally.cpBad + tally.dpBad) == 0 ? 0 : 1;
}

} // namespace

void addRolloutCommands(CLI::App& app) {
    addCommand<CheckRolloutsOptions>(
        app, "check-rollouts",
        "Check CP and DP rollouts against naive reparsing on every flip of every sentence",
        declareCheckRolloutsOptions, runCheckRollouts);
    addBenchRolloutsCommand(app);
}

} // namespace prunescope::cli
