// prunescope-cli grammar: estimate a PCFG from a treebank (relative frequency).
#include "app/cli/Commands.h"
#include "app/cli/Options.h"
#include "core/grammar/GrammarFile.h"
#include "core/grammar/PcfgEstimator.h"
#include "core/treebank/Normalize.h"
#include "core/util/AtomicFile.h"
#include "core/util/Error.h"

#include <algorithm>
#include <chrono>
#include <iostream>

namespace prunescope::cli {

void addGrammarCommand(CLI::App& app) {
    auto* sub = app.add_subcommand(
        "grammar", "Estimate a left-binarized PCFG from a treebank and write the grammar file");
    struct Opts {
        std::string train, out;
        int markov = 2;
        bool parent = false;
        int rare = 1;
        int maxTrees = 0;
    };
    auto o = std::make_shared<Opts>();
    sub->add_option("--train", o->train, "Treebank file or directory of .mrg files")->required();
    sub->add_option("--out", o->out, "Grammar file to write")->required();
    sub->add_option("--markov", o->markov, "Horizontal Markov order (-1 = infinite)")
        ->capture_default_str();
    sub->add_flag("--parent", o->parent, "Parent annotation (vertical order 2)");
    sub->add_option("--rare", o->rare,
                    "Words seen at most this often become unknown-word signatures")
        ->capture_default_str();
    addMaxSentencesOption(sub, o->maxTrees, "the treebank", {"--max-trees"});
    setAction(sub, [o] {
        auto t0 = std::chrono::steady_clock::now();
        refuseToOverwriteInput(o->out, {o->train});
        const auto trees =
            readNormalizedTreebank(o->train, static_cast<std::size_t>(std::max(0, o->maxTrees)));
        if (trees.empty())
            throw InputError(o->train, 1, 0,
                             "contains no trees: nothing to estimate a grammar from");
        GrammarOptions opt;
        opt.binarize.horizontalMarkov = o->markov;
        opt.binarize.parentAnnotation = o->parent;
        opt.rareWordThreshold = o->rare;
        Grammar g = estimatePcfgFromNormalized(trees, opt);
        saveGrammar(g, o->out);
        auto s = grammarStats(g);
        double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::cout << "trees " << trees.size() << "\nsymbols " << s.symbols << "\nbinary-rules "
                  << s.binaryRules << "\nunary-rules " << s.unaryRules << "\nroot-rules "
                  << s.rootRules << "\nwords " << s.words << "\nlexical-entries "
                  << s.lexicalEntries << "\nseconds " << secs << "\nwrote " << o->out << "\n";
        return 0;
    });
}

} // namespace prunescope::cli
