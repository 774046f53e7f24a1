// prunescope-cli grammar: estimate a PCFG from a treebank (relative frequency).
#include "app/cli/Commands.h"
#include "app/cli/ConsoleProgress.h"
#include "app/cli/Options.h"
#include "core/grammar/GrammarFile.h"
#include "core/grammar/PcfgEstimator.h"
#include "core/grammar/SplitMerge.h"
#include "core/treebank/Normalize.h"
#include "core/util/AtomicFile.h"
#include "core/util/Error.h"

#include <algorithm>
#include <chrono>
#include <iostream>

namespace prunescope::cli {

namespace {

struct GrammarCommandOptions {
    std::string train, out;
    int markov = 2;
    bool parent = false;
    int rare = 1;
    int maxTrees = 0;
    // Split-merge (Petrov et al. 2006): the fine grammar.
    int splitMerge = 0;
    std::uint64_t seed = 1;
    std::string dev;
    int threads = 0;
    bool quiet = false;
    CLI::Option *markovGiven = nullptr, *splitMergeGiven = nullptr;
};

void declareGrammarOptions(CLI::App* sub, GrammarCommandOptions& o) {
    sub->add_option("--train", o.train, "Treebank file or directory of .mrg files")->required();
    sub->add_option("--out", o.out, "Grammar file to write")->required();
    o.markovGiven = sub->add_option("--markov", o.markov,
                                    "Horizontal Markov order (-1 = infinite; 0 with --split-merge)")
                        ->capture_default_str();
    sub->add_flag("--parent", o.parent, "Parent annotation (vertical order 2)");
    addQuietOption(sub, o.quiet);
    sub->add_option("--rare", o.rare,
                    "Words seen at most this often become unknown-word signatures")
        ->capture_default_str();
    addMaxSentencesOption(sub, o.maxTrees, "the treebank", {"--max-trees"});
    o.splitMergeGiven = sub->add_option(
        "--split-merge", o.splitMerge,
        "Train a fine grammar: N split-merge cycles (0..8) from the Markov-0 X-bar grammar; "
        "after each cycle OUT.sm<k> is written, and rerunning resumes after the last one");
    sub->add_option("--seed", o.seed, "Seed of the split perturbation (--split-merge)")
        ->capture_default_str();
    sub->add_option("--dev", o.dev,
                    "Held-out trees that stop EM (--split-merge; default: every 20th training "
                    "tree is held out)");
    sub->add_option("--threads", o.threads,
                    "E-step threads for --split-merge (0 = all cores; results do not depend on it)")
        ->capture_default_str();
}

// The fine grammar (--split-merge) and its per-cycle report on stdout.
Grammar trainFineGrammar(const GrammarCommandOptions& o, const std::vector<Tree>& trees,
                         const GrammarOptions& opt) {
    std::vector<Tree> dev;
    if (!o.dev.empty()) dev = readNormalizedTreebank(o.dev);
    SplitMergeOptions sm;
    sm.cycles = o.splitMerge;
    sm.grammar = opt;
    sm.seed = o.seed;
    sm.threads = o.threads;
    sm.checkpointPrefix = o.out;
    SplitMergeReport rep;
    ConsoleProgress console("grammar", "cycle", o.quiet);
    Grammar g = trainSplitMerge(trees, dev, sm, console.progress(), &rep);
    std::cout << "split-merge " << sm.cycles << "\nem-trees " << rep.trainTrees
              << "\nheld-out-trees " << rep.devTrees << (rep.heldOut ? " (every 20th)" : "")
              << "\nheld-out-skipped " << rep.devSkipped << "\n";
    for (const auto& c : rep.cycles) {
        std::cout << "cycle " << c.cycle;
        if (c.resumed)
            std::cout << " resumed from checkpoint\n";
        else
            std::cout << " seconds " << c.seconds << " em-iterations " << c.splitIterations << "+"
                      << c.mergeIterations << " merged " << c.merged << " train-loglik "
                      << c.trainLogLikelihood << " dev-loglik " << c.devLogLikelihood
                      << " refined-symbols " << c.refinedSymbols << " refined-binary "
                      << c.binaryRules << " refined-unary " << c.unaryRules << " refined-lexical "
                      << c.lexicalEntries << "\n";
    }
    return g;
}

int runGrammar(GrammarCommandOptions& o) {
    auto t0 = std::chrono::steady_clock::now();
    const bool fine = o.splitMergeGiven->count() > 0;
    if (fine && (o.splitMerge < 0 || o.splitMerge > 8))
        throw InputError("--split-merge", 0, 0,
                         "must be 0..8 (cycles of split-merge), not " +
                             std::to_string(o.splitMerge));
    if (fine && o.markovGiven->count() == 0) o.markov = 0;
    if (!fine && !o.dev.empty()) throw InputError("--dev", 0, 0, "only used with --split-merge");
    refuseToOverwriteInput(o.out, {o.train, o.dev});
    const auto trees =
        readNormalizedTreebank(o.train, static_cast<std::size_t>(std::max(0, o.maxTrees)));
    if (trees.empty())
        throw InputError(o.train, 1, 0, "contains no trees: nothing to estimate a grammar from");
    GrammarOptions opt;
    opt.binarize.horizontalMarkov = o.markov;
    opt.binarize.parentAnnotation = o.parent;
    opt.rareWordThreshold = o.rare;
    const Grammar g =
        fine ? trainFineGrammar(o, trees, opt) : estimatePcfgFromNormalized(trees, opt);
    saveGrammar(g, o.out);
    auto s = grammarStats(g);
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::cout << "trees " << trees.size() << "\nsymbols " << s.symbols << "\nbinary-rules "
              << s.binaryRules << "\nunary-rules " << s.unaryRules << "\nroot-rules " << s.rootRules
              << "\nwords " << s.words << "\nlexical-entries " << s.lexicalEntries << "\nseconds "
              << secs << "\nwrote " << o.out << "\n";
    return 0;
}

} // namespace

void addGrammarCommand(CLI::App& app) {
    addCommand<GrammarCommandOptions>(
        app, "grammar", "Estimate a left-binarized PCFG from a treebank and write the grammar file",
        declareGrammarOptions, runGrammar);
}

} // namespace prunescope::cli
