// prunescope-cli randomized-em: stepwise EM of the PCFG's rule probabilities with E-step
// expectations from exact inside-outside, randomized pruning (Bouchard-Côté, Petrov & Klein 2009)
// or one fixed tic-tac-toe mask of matched cost; dev log-likelihood and F1 after each iteration.
#include "app/cli/CommandLineGuard.h"
#include "app/cli/Commands.h"
#include "app/cli/ConsoleProgress.h"
#include "app/cli/Options.h"
#include "app/cli/randomized/RandomizedSupport.h"
#include "core/eval/CorpusEvaluator.h"
#include "core/grammar/GrammarFile.h"
#include "core/mcmc/BiasExperiment.h"
#include "core/mcmc/EmStep.h"
#include "core/treebank/Normalize.h"
#include "core/util/AtomicFile.h"

#include <filesystem>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>

namespace prunescope::cli {

namespace {
struct RandomizedEmOpts {
    std::string grammar, train, dev, policy, json, selection = kDefaultSelection,
                                                   methods = "exact,randomized,fixed-mask", saveDir;
    int trainMaxLen = 25, trainEvery = 1, trainLimit = 0, devMaxLen = 40, emIterations = 3,
        iterations = 32, threads = 1;
    double stepSize = 0.5, support = kDefaultSupportThreshold, fraction = kDefaultSelectionFraction,
           fixed = -1;
    std::uint64_t seed = 1;
    bool quiet = false;
    CLI::Option* jsonGiven = nullptr; // --json without a file prints the JSON
};

ExpectationMethod methodFromName(const std::string& name) {
    for (auto m :
         {ExpectationMethod::Exact, ExpectationMethod::Randomized, ExpectationMethod::FixedMask})
        if (name == expectationMethodName(m)) return m;
    throw std::invalid_argument("unknown method '" + name + "' (exact, randomized, fixed-mask)");
}

void declareRandomizedEmOptions(CLI::App* sub, RandomizedEmOpts& o) {
    sub->add_option("--grammar", o.grammar, "Initial grammar file")->required();
    sub->add_option("--train", o.train, "Treebank whose sentences (words only) are the EM corpus")
        ->required();
    sub->add_option("--dev", o.dev, "Gold treebank for dev log-likelihood and F1")->required();
    addMaxTrainLenOption(sub, o.trainMaxLen, "Longest EM sentence (words)", {"--train-max-len"});
    sub->add_option("--train-every", o.trainEvery, "Use every k-th EM sentence")
        ->capture_default_str();
    addMaxTrainSentencesOption(sub, o.trainLimit, {"--train-limit"});
    addMaxDevLenOption(sub, o.devMaxLen, "Longest dev sentence");
    sub->add_option("--em-iterations", o.emIterations, "EM iterations")->capture_default_str();
    sub->add_option("--step-size", o.stepSize, "Stepwise-EM step size eta in (0,1]")
        ->capture_default_str();
    sub->add_option("--methods", o.methods, "Expectation methods: exact, randomized, fixed-mask")
        ->capture_default_str();
    sub->add_option("--iterations", o.iterations, "MCMC iterations per sentence (randomized)")
        ->capture_default_str();
    sub->add_option("--seed", o.seed, "Seed of the chains")->capture_default_str();
    sub->add_option("--selection", o.selection, "Selection chain: rotate, independent, none")
        ->capture_default_str();
    sub->add_option("--support-threshold", o.support, "M' threshold on the figure of merit")
        ->capture_default_str();
    sub->add_option("--selection-fraction", o.fraction, "|s| = fraction x |M'|")
        ->capture_default_str();
    sub->add_option("--fixed-threshold", o.fixed,
                    "Figure-of-merit threshold of the fixed mask (default: matched to the "
                    "randomized E-step's pushes "
                    "in the first iteration)");
    sub->add_option("--policy", o.policy, "Figure-of-merit policy (default: the bundled one)");
    sub->add_option("--threads", o.threads,
                    "Worker threads (0 = all cores; default 1, one chain at a time as "
                    "earlier scripts expect; results do not depend on it)")
        ->capture_default_str();
    sub->add_option("--save-grammars", o.saveDir,
                    "Write each method's grammar after each iteration to this directory (rules of "
                    "probability 0 left out)");
    o.jsonGiven =
        sub->add_option("--json", o.json, "Print JSON to stdout, or write it to the given file")
            ->expected(0, 1);
    addOutJsonOption(sub, o.json); // the file form of --json FILE, as in every command
    addQuietOption(sub, o.quiet);
}

// The EM corpus, the dev treebank and the figure-of-merit policy.
struct EmInputs {
    Grammar g0;
    std::vector<std::vector<std::string>> train;
    std::vector<Tree> devGold;
    std::vector<std::vector<std::string>> devWords;
    LoadedPolicy fom;
};

EmInputs loadEmInputs(const RandomizedEmOpts& o) {
    EmInputs in{loadGrammar(o.grammar),
                loadSentenceWords(o.train, 1, o.trainMaxLen, o.trainEvery, o.trainLimit),
                {},
                {},
                {}};
    for (const Tree& t : readNormalizedTreebank(o.dev))
        if (t.size() <= o.devMaxLen) in.devGold.push_back(t);
    for (const Tree& t : in.devGold)
        in.devWords.push_back(t.words());
    in.fom = loadFomPolicy(o.policy);
    return in;
}

// --methods in order, randomized first so that the fixed mask can be matched to its cost.
std::vector<ExpectationMethod> orderedMethods(const std::string& names) {
    std::vector<ExpectationMethod> methods;
    for (const auto& m : splitFlagList(names))
        methods.push_back(methodFromName(m));
    std::stable_sort(methods.begin(), methods.end(), [](auto a, auto b) {
        return (a == ExpectationMethod::Randomized) > (b == ExpectationMethod::Randomized);
    });
    return methods;
}

// What the EM runs of one command share: its inputs and, across methods, the randomized E-step's
// first-iteration pushes and the fixed mask's threshold matched to them.
struct EmRun {
    const RandomizedEmOpts& o;
    const EmInputs& in;
    const Progress& progress;
    double fixedThreshold = -1;
    double randomizedPushes = -1;
    std::map<std::string, std::vector<Grammar>> grammars; // per method, after each iteration

    nlohmann::json evaluate(const Grammar& g) const {
        const CorpusLikelihood trainLL = corpusLikelihood(g, in.train, o.threads, progress);
        const CorpusLikelihood devLL = corpusLikelihood(g, in.devWords, o.threads, progress);
        const CorpusResult r = evaluateCorpus(g, in.devGold, MaskFunction{});
        return nlohmann::json{{"trainLogLikelihoodPerWord", trainLL.perWord()},
                              {"devLogLikelihoodPerWord", devLL.perWord()},
                              {"devLikelihoodFailures", devLL.failures},
                              {"devF1", r.f1()},
                              {"devFailures", r.failures}};
    }
};

// --save-grammars: the grammar after iteration `it` of method m.
void saveEmGrammar(const Grammar& g, const std::string& dir, ExpectationMethod m, int it) {
    const std::string path =
        dir + "/" + expectationMethodName(m) + "-" + std::to_string(it) + ".gram";
    saveGrammar(g, path);
    if (const std::size_t zero = zeroProbabilityEntries(g))
        std::cerr << "note: " << path << ": " << zero
                  << " rules and lexical entries of probability 0 left out (words "
                     "left with no tag are unknown words "
                     "to the parser; docs/file-formats.md)\n";
}

// One method's EM iterations from the initial grammar: {"steps": [...]} and, for the fixed mask,
// its threshold.
nlohmann::json runEmMethod(EmRun& run, ExpectationMethod m) {
    const RandomizedEmOpts& o = run.o;
    EStepOptions opt;
    opt.method = m;
    opt.chain = chainOptions(o.selection, o.support, o.fraction, o.seed);
    opt.iterations = o.iterations;
    opt.threads = o.threads;
    Grammar g = run.in.g0;
    nlohmann::json steps = nlohmann::json::array();
    for (int it = 1; it <= o.emIterations; ++it) {
        run.progress.setStep(it - 1, o.emIterations);
        if (m == ExpectationMethod::FixedMask && run.fixedThreshold < 0) {
            if (run.randomizedPushes < 0)
                throw std::invalid_argument(
                    "--fixed-threshold is needed when the randomized method is not run");
            run.fixedThreshold =
                matchedFixedThreshold(g, run.in.train, run.in.fom.policy, run.randomizedPushes,
                                      BiasExperimentOptions::defaultFomThresholds(), run.progress);
        }
        opt.fixedThreshold = run.fixedThreshold;
        const CorpusCounts c =
            expectedCounts(g, run.in.train, run.in.fom.policy, opt, run.progress);
        if (m == ExpectationMethod::Randomized && it == 1)
            run.randomizedPushes = static_cast<double>(c.pushes);
        g = emUpdate(g, c, o.stepSize);
        run.grammars[expectationMethodName(m)].push_back(g);
        nlohmann::json step = run.evaluate(g);
        step["iteration"] = it;
        step["pushes"] = c.pushes;
        step["eStepFailures"] = c.failures;
        steps.push_back(step);
        if (!o.saveDir.empty()) saveEmGrammar(g, o.saveDir, m, it);
    }
    nlohmann::json result = {{"steps", steps}};
    if (m == ExpectationMethod::FixedMask) result["fixedThreshold"] = run.fixedThreshold;
    return result;
}

// How far each method's EM step moved the grammar from the exact E-step's grammar.
void addDistancesToExact(nlohmann::json& runs,
                         std::map<std::string, std::vector<Grammar>>& grammars) {
    if (!grammars.count("exact")) return;
    for (auto& [name, run] : runs.items()) {
        if (name == "exact") continue;
        for (std::size_t it = 0; it < grammars[name].size(); ++it)
            run["steps"][it]["distanceToExactEm"] =
                grammarDistance(grammars[name][it], grammars["exact"][it]);
    }
}

void printEmTable(const nlohmann::json& out, const RandomizedEmOpts& o, const EmInputs& in) {
    std::cout << "EM corpus " << in.train.size() << " sentences, dev " << in.devGold.size()
              << " sentences, step size " << o.stepSize << "\n\n"
              << std::fixed << std::left << std::setw(12) << "method" << std::right << std::setw(5)
              << "it" << std::setw(14) << "E pushes" << std::setw(12) << "train LL/w"
              << std::setw(12) << "dev LL/w" << std::setw(9) << "dev F1" << std::setw(14)
              << "L1 to exact"
              << "\n";
    auto row = [&](const std::string& name, int it, double pushes, const nlohmann::json& s) {
        std::cout << std::left << std::setw(12) << name << std::right << std::setw(5) << it
                  << std::setw(14) << std::setprecision(0) << pushes << std::setw(12)
                  << std::setprecision(4) << s["trainLogLikelihoodPerWord"].get<double>()
                  << std::setw(12) << s["devLogLikelihoodPerWord"].get<double>() << std::setw(9)
                  << std::setprecision(2) << 100 * s["devF1"].get<double>() << std::setw(14)
                  << std::setprecision(5)
                  << (s.contains("distanceToExactEm") ? s["distanceToExactEm"].get<double>() : 0.0)
                  << "\n";
    };
    row("initial", 0, 0, out["initial"]);
    for (const auto& [name, run] : out["methods"].items())
        for (const auto& s : run["steps"])
            row(name, s["iteration"].get<int>(), s["pushes"].get<double>(), s);
}

int runRandomizedEm(const RandomizedEmOpts& o) {
    const EmInputs in = loadEmInputs(o);
    ConsoleProgress console("randomized-em", "iteration", o.quiet);
    const std::vector<ExpectationMethod> methods = orderedMethods(o.methods);
    if (!o.saveDir.empty()) std::filesystem::create_directories(o.saveDir);

    EmRun run{o, in, console.progress(), o.fixed, -1, {}};
    nlohmann::json out = {{"trainSentences", in.train.size()},
                          {"devSentences", in.devGold.size()},
                          {"stepSize", o.stepSize},
                          {"emIterations", o.emIterations},
                          {"mcmcIterations", o.iterations},
                          {"seed", o.seed},
                          {"selection", o.selection},
                          {"supportThreshold", o.support},
                          {"selectionFraction", o.fraction},
                          {"policy", in.fom.path}};
    out["initial"] = run.evaluate(in.g0);
    nlohmann::json runs = nlohmann::json::object();
    for (ExpectationMethod m : methods)
        runs[expectationMethodName(m)] = runEmMethod(run, m);
    addDistancesToExact(runs, run.grammars);
    out["methods"] = runs;
    if (o.jsonGiven->count() > 0 && (o.json.empty() || printsJsonOnly(o.json))) {
        std::cout << out.dump(2) << "\n";
        return 0;
    }
    writeJsonOutput(o.json, out.dump(2) + "\n");
    printEmTable(out, o, in);
    return 0;
}

} // namespace

void addRandomizedEmCommand(CLI::App& app) {
    addCommand<RandomizedEmOpts>(
        app, "randomized-em",
        "Stepwise EM of the grammar's rule probabilities with exact, randomized-pruning or "
        "fixed-mask expectations; dev log-likelihood and F1 per iteration",
        declareRandomizedEmOptions, runRandomizedEm);
}

} // namespace prunescope::cli
