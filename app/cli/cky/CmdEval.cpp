// prunescope-cli eval: parse a treebank and score it with EVALB (COLLINS.prm).
#include "app/cli/Commands.h"
#include "app/cli/ConsoleProgress.h"
#include "app/cli/Options.h"
#include "core/eval/CorpusEvaluator.h"
#include "core/grammar/GrammarFile.h"
#include "core/policy/PolicyMask.h"
#include "core/treebank/Normalize.h"

#include <cmath>
#include <iomanip>
#include <iostream>

namespace prunescope::cli {

void addEvalCommand(CLI::App& app) {
    auto* sub = app.add_subcommand(
        "eval", "Parse a treebank and report EVALB F1, failures, pushes, constituents and speed");
    struct Opts {
        std::string grammar, treebank, policy, decoder = "viterbi";
        int maxLen = 0;
        int threads = 0;
        std::size_t memoryBudgetMiB = kDefaultParserMemoryBudget >> 20;
        bool json = false, quiet = false;
    };
    auto o = std::make_shared<Opts>();
    sub->add_option("--grammar", o->grammar, "Grammar file")->required();
    sub->add_option("--treebank", o->treebank, "Gold treebank file or directory")->required();
    sub->add_option("--max-len", o->maxLen, "Skip sentences longer than this (0 = no limit)")
        ->capture_default_str();
    sub->add_option("--policy", o->policy, "Prune with this policy file (default: no pruning)");
    sub->add_option("--threads", o->threads,
                    "Sentences parsed in parallel (0 = all cores; only the timings depend on it)")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    sub->add_option("--decoder", o->decoder,
                    "viterbi: the best derivation (projected to base symbols on a fine grammar); "
                    "max-rule: max-rule-product over base symbols (Petrov & Klein 2007)")
        ->check(CLI::IsMember({"viterbi", "max-rule"}))
        ->capture_default_str();
    sub->add_flag("--json", o->json, "Print the summary as JSON");
    addMemoryBudgetOption(sub, o->memoryBudgetMiB);
    addQuietOption(sub, o->quiet);
    setAction(sub, [o] {
        Grammar g = loadGrammar(o->grammar);
        Policy policy; // every input file is checked before the long work starts
        if (!o->policy.empty()) policy = loadPolicy(o->policy);
        ConsoleProgress console("eval", "step", o->quiet);
        const std::vector<Tree> gold = readNormalizedTreebank(o->treebank, 0, console.progress());
        requireTreesToEvaluate(gold, o->treebank, o->maxLen);
        EvaluationOptions opt;
        opt.maxLength = o->maxLen;
        opt.memoryBudget = o->memoryBudgetMiB << 20;
        opt.threads = o->threads;
        parseDecoderFromName(o->decoder, opt.decoder); // checked by CLI11
        CorpusResult r =
            evaluateCorpus(g, gold, o->policy.empty() ? MaskFunction{} : policyMaskFunction(policy),
                           opt, console.progress());
        auto j = r.summaryJson();
        j["skippedTooLarge"] = r.skippedTooLarge;
        if (r.skippedTooLarge > 0) {
            std::cerr << "warning: " << r.skippedTooLarge << " sentence"
                      << (r.skippedTooLarge > 1 ? "s" : "")
                      << " skipped: too long for the parser or over the memory budget of "
                      << o->memoryBudgetMiB << " MiB (sentence";
            for (std::size_t x = 0; x < r.skippedSentences.size() && x < 10; ++x)
                std::cerr << " " << r.skippedSentences[x];
            std::cerr << (r.skippedSentences.size() > 10 ? " …" : "") << ")\n";
        }
        if (!o->policy.empty())
            j["policy"] = {{"path", o->policy},
                           {"name", policy.meta.name},
                           {"kind", policy.meta.kind},
                           {"threshold", policy.threshold},
                           {"lambda", std::isnan(policy.meta.lambda)
                                          ? nlohmann::json()
                                          : nlohmann::json(policy.meta.lambda)},
                           {"lambdaUnit", policy.meta.lambdaUnit},
                           {"training", policy.meta.training}};
        if (o->json) {
            std::cout << j.dump(2) << "\n";
        } else {
            std::cout << std::fixed << std::setprecision(2);
            if (!o->policy.empty())
                std::cout << "policy           " << o->policy << " (" << policy.meta.name << ")\n";
            std::cout << "decoder          " << parseDecoderName(r.decoder) << "\n"
                      << "sentences        " << r.sentences.size() << "\n"
                      << "F1               " << 100 * r.f1() << "\n"
                      << "precision        " << 100 * r.evalb.total.precision() << "\n"
                      << "recall           " << 100 * r.evalb.total.recall() << "\n"
                      << "avg sentence F1  " << 100 * r.evalb.averageSentenceF1() << "\n"
                      << "parse failures   " << r.failures << "\n"
                      << "skipped (size)   " << r.skippedTooLarge << "\n"
                      << std::setprecision(4) << "mpush/sentence   " << r.meanPushes() / 1e6 << "\n"
                      << std::setprecision(1) << "constituents     " << r.meanConstituents() << "\n"
                      << "spans kept       " << r.meanSpansKept() << "\n"
                      << "words/second     " << r.wordsPerSecond() << " per core (thread CPU), "
                      << (r.wallSeconds > 0 ? r.words / r.wallSeconds : 0.0) << " on " << r.threads
                      << " thread" << (r.threads > 1 ? "s" : "") << "\n";
        }
        return 0;
    });
}

} // namespace prunescope::cli
