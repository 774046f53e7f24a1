// prunescope-cli dep-train, dep-eval: dependency models (first/second order) and their scores,
// with optional pruning stages in front of the final parse (docs/dependency.md).
#include "app/cli/Commands.h"
#include "app/cli/ConsoleProgress.h"
#include "app/cli/dep/DepPipelineOptions.h"
#include "app/cli/dep/DepResultText.h"
#include "app/cli/dep/DepTrainingFlags.h"
#include "app/cli/dep/LongSentenceWarning.h"
#include "core/dep/DepPipeline.h"
#include "core/dep/DepReader.h"
#include "core/dep/DepTraining.h"
#include "core/util/Error.h"

#include <iomanip>
#include <iostream>
#include <sstream>

namespace prunescope::cli {

namespace {

struct DepTrainCommandOptions {
    std::string train, dev, out, learner = "auto";
    DepTrainOptions t;
    bool quiet = false;
};

void declareDepTrainOptions(CLI::App* sub, DepTrainCommandOptions& o) {
    addDepTrainTreebankOption(sub, o.train);
    sub->add_option("--dev", o.dev,
                    "Dev treebank (chooses the epoch and, with --learner auto, the learner)")
        ->required();
    sub->add_option("--order", o.t.order,
                    "1 = arc-factored, 2 = arcs + siblings, 3 = + grand-siblings (Koo & Collins "
                    "2010; O(n^4): cap with --max-len)")
        ->check(CLI::IsMember({1, 2, 3}))
        ->capture_default_str();
    addEpochModelOutOption(sub, o.out);
    sub->add_option("--learner", o.learner,
                    "perceptron, mira, or auto (train both, keep the better on dev)")
        ->check(CLI::IsMember({"perceptron", "mira", "auto"}))
        ->capture_default_str();
    sub->add_option("--epochs", o.t.epochs, "Most passes over the training data")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    sub->add_option("--patience", o.t.patience,
                    "Stop after this many epochs without a better dev UAS (0 = never)")
        ->capture_default_str();
    addFeatureHashBitsOption(sub, o.t.hashBits);
    sub->add_option("--mira-c", o.t.miraC, "MIRA's largest step")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    sub->add_option("--seed", o.t.seed, "Seed of the sentence order")->capture_default_str();
    addTrainSkipLengthOption(sub, o.t.maxLength);
    sub->add_flag("--quiet", o.quiet, "No progress on stderr");
}

// The best model over the learners trained so far, and its dev UAS (-1 = none yet).
struct BestDepModel {
    DepModel model;
    double devUas = -1;
};

// Trains one learner; every epoch that beats the best so far is saved to --out at once. Returns
// the learner's run (its epochs) and whether it was cancelled.
std::pair<nlohmann::json, bool> trainLearner(const DepTrainCommandOptions& o, DepLearner l,
                                             const std::vector<DepSentence>& train,
                                             const std::vector<DepSentence>& dev,
                                             const Progress& progress, BestDepModel& best) {
    DepTrainOptions t = o.t;
    t.learner = l;
    auto save = [&](const DepTrainResult& r) {
        const auto& e = r.epochs.back();
        std::ostringstream line; // a log line: the status line is cleared first
        line << depLearnerName(l) << " epoch " << e.epoch << ": dev UAS " << std::fixed
             << std::setprecision(2) << e.devUas << "  train UAS (on-line) " << e.trainUas
             << "  updates " << e.updates << "  " << std::setprecision(1) << e.seconds << " s";
        progress.log(line.str());
        if (r.bestEpoch == e.epoch && e.devUas > best.devUas) {
            best.devUas = e.devUas;
            best.model = r.model;
            best.model.training["trainData"] = o.train;
            best.model.training["devData"] = o.dev;
            saveDepModel(best.model, o.out);
        }
    };
    const DepTrainResult r = trainDepModel(train, dev, t, progress, save);
    nlohmann::json ep = nlohmann::json::array();
    for (const auto& e : r.epochs)
        ep.push_back({{"epoch", e.epoch},
                      {"devUas", e.devUas},
                      {"trainUas", e.trainUas},
                      {"updates", e.updates},
                      {"seconds", e.seconds}});
    return {{{"learner", depLearnerName(l)}, {"bestEpoch", r.bestEpoch}, {"epochs", ep}},
            r.cancelled};
}

int runDepTrain(const DepTrainCommandOptions& o) {
    const auto train = readDepTreebank(o.train);
    const auto dev = readDepTreebank(o.dev);
    if (train.empty()) throw InputError(o.train, 0, 0, "no training sentences");
    requireSentencesToEvaluate(dev.size(), o.dev, 0);
    ConsoleProgress console("dep-train", "epoch", o.quiet);
    const std::vector<DepLearner> learners =
        o.learner == "auto" ? std::vector<DepLearner>{DepLearner::Perceptron, DepLearner::Mira}
                            : std::vector<DepLearner>{parseDepLearner(o.learner)};
    BestDepModel best;
    nlohmann::json runs = nlohmann::json::array();
    for (DepLearner l : learners) {
        auto [run, cancelled] = trainLearner(o, l, train, dev, console.progress(), best);
        runs.push_back(run);
        if (cancelled) break;
    }
    if (best.devUas < 0) throw std::runtime_error("no epoch finished; nothing written");
    best.model.training["runs"] = runs;
    saveDepModel(best.model, o.out);
    std::cout << "wrote " << o.out << ": order " << best.model.order << ", learner "
              << best.model.training.value("learner", "?") << ", best epoch "
              << best.model.training.value("bestEpoch", 0) << ", dev UAS " << std::fixed
              << std::setprecision(2) << best.devUas << ", " << best.model.weights.nonZero()
              << " non-zero weights; "
              << best.model.training.value("nonProjectiveTrainSentences", 0L) << " of "
              << best.model.training.value("trainSentences", 0L)
              << " training trees non-projective (trained on as they are)\n";
    return 0;
}

struct DepEvalOptions {
    std::string model, treebank;
    DepStageOptions stages;
    int maxLen = 0;
    bool json = false, quiet = false, perSentence = false;
};

void declareDepEvalOptions(CLI::App* sub, DepEvalOptions& o) {
    sub->add_option("--model", o.model, "Dependency model (from dep-train): the final exact stage")
        ->required();
    addDepGoldTreebankOption(sub, o.treebank);
    addDepStageOptions(*sub, o.stages);
    sub->add_option("--max-len", o.maxLen, "Skip sentences longer than this (0 = none)")
        ->capture_default_str();
    sub->add_flag("--json", o.json,
                  "Print one JSON object (uas, uasWithPunct, sentences, arcsKeptFraction, "
                  "tokensPerSecond, ...)");
    sub->add_flag("--per-sentence", o.perSentence,
                  "With --json: add each sentence's heads and counters");
    sub->add_flag("--quiet", o.quiet, "No progress on stderr");
}

// The same per-sentence fields as cube-eval's (file, line, scored and all tokens), so
// cube-compare's paired tests read dep-eval and cube-eval files alike, plus the pruning counters.
nlohmann::json perSentenceJson(const DepCorpusResult& r, const std::vector<DepSentence>& gold) {
    nlohmann::json arr = nlohmann::json::array();
    for (std::size_t i = 0; i < r.sentences.size(); ++i) {
        const DepSentenceResult& s = r.sentences[i];
        arr.push_back({{"file", gold[i].file},
                       {"line", gold[i].line},
                       {"heads", s.heads},
                       {"uas", s.score.uas()},
                       {"scoredTokens", s.score.scoredTokens},
                       {"scoredCorrect", s.score.scoredCorrect},
                       {"tokens", s.score.tokens},
                       {"correct", s.score.correct},
                       {"pushes", s.pushes},
                       {"arcsAtFirstExact", s.arcsAtFirstExact},
                       {"arcsFinal", s.arcsFinal},
                       {"fallbacks", s.fallbacks}});
    }
    return arr;
}

void printDepEvalText(const DepCorpusResult& r) {
    std::cout << "sentences            " << r.sentences.size() << "\n";
    printAttachmentRows(std::cout, r.total);
    std::cout << std::setprecision(4) << "arcs kept (1st exact) " << r.arcsKeptFraction() << "\n"
              << "arcs kept (final)    " << r.finalArcsFraction() << "\n";
    printParseCostRows(std::cout, r);
    std::cout << "fallbacks            " << r.fallbacks << "\n";
}

int runDepEval(DepEvalOptions& o) {
    const DepModel model = loadDepModel(o.model);
    std::vector<DepSentence> gold = readDepTreebank(o.treebank, o.maxLen);
    requireSentencesToEvaluate(gold.size(), o.treebank, o.maxLen);
    if (!o.quiet) warnLongSentences(gold, kEisnerCost, "--max-len N skips longer ones");
    DepPipeline pipeline(model);
    nlohmann::json stageInfo = addDepStages(pipeline, o.stages);
    ConsoleProgress console("dep-eval", "step", o.quiet);
    const DepCorpusResult r = evaluateDepCorpus(
        gold, pipeline.decoder(console.progress().cancelFlag()), console.progress());
    if (!o.json) {
        printDepEvalText(r);
        return 0;
    }
    nlohmann::json j = r.summaryJson();
    j["model"] = {{"path", o.model}, {"order", model.order}};
    j["stages"] = stageInfo;
    if (o.perSentence) j["perSentence"] = perSentenceJson(r, gold);
    std::cout << j.dump(2) << "\n";
    return 0;
}

} // namespace

void addDepCommands(CLI::App& app) {
    addCommand<DepTrainCommandOptions>(
        app, "dep-train",
        "Train a first- or second-order dependency model (averaged perceptron or MIRA; epoch and "
        "learner chosen on dev)",
        declareDepTrainOptions, runDepTrain);
    addCommand<DepEvalOptions>(
        app, "dep-eval",
        "Parse a dependency treebank with a model (optionally behind pruning stages) and score it",
        declareDepEvalOptions, runDepEval);
}

} // namespace prunescope::cli
