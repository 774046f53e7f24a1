// prunescope-cli cube-train, cube-eval, cube-parse: the cube-pruned dependency parser and its
// violation-fixing perceptron (Zhang, Huang, Zhao & McDonald 2013; docs/cube.md).
#include "app/cli/Commands.h"
#include "app/cli/ConsoleProgress.h"
#include "app/cli/Options.h"
#include "app/cli/dep/DepPipelineOptions.h"
#include "app/cli/dep/DepResultText.h"
#include "app/cli/dep/DepTrainingFlags.h"
#include "app/cli/dep/LongSentenceWarning.h"
#include "core/cube/CubeExplain.h"
#include "core/cube/CubeTraining.h"
#include "core/dep/ArcMaskFile.h"
#include "core/dep/DepReader.h"
#include "core/util/Error.h"

#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>

namespace prunescope::cli {

namespace {

// Masks from the pruning stages given on the command line (vine cascade, arc filters, ... as
// DepPipelineOptions adds them); empty when none was given.
struct CubeMasks {
    DepStageOptions stages;
    DepModel unused; // DepPipeline wants a final model; cube pruning is the final parse here
    std::shared_ptr<DepPipeline> pipeline;
    nlohmann::json describe() {
        pipeline = std::make_shared<DepPipeline>(unused);
        return addDepStages(*pipeline, stages);
    }
    ArcMaskSource source() const {
        if (!pipeline || pipeline->stages().empty()) return {};
        auto p = pipeline;
        return [p](const DepSentence& s) { return p->masks(s).back(); };
    }
};

void addCubeTrain(CLI::App& app) {
    auto* sub =
        app.add_subcommand("cube-train", "Train the cube-pruned parser with the violation-fixing "
                                         "perceptron (update standard, skip, smax or pmax)");
    struct Opts {
        std::string train, dev, out, update = "pmax", features = "arc+sib+gp";
        CubeTrainOptions t;
        int devMaxLen = 0;
        bool quiet = false;
    };
    auto o = std::make_shared<Opts>();
    addDepTrainTreebankOption(sub, o->train);
    sub->add_option("--dev", o->dev,
                    "Dev treebank (scored after every epoch; the best epoch is kept)")
        ->required();
    sub->add_option("--update", o->update,
                    "Update strategy: standard, skip, smax (single-node max-violation), pmax "
                    "(parallel max-violation)")
        ->check(CLI::IsMember({"standard", "skip", "smax", "pmax"}))
        ->capture_default_str();
    sub->add_option("--beam", o->t.beam, "Beam size k: items kept per span")
        ->check(CLI::Range(1, 100000))
        ->capture_default_str();
    sub->add_option("--epochs", o->t.epochs, "Passes over the training data")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    addEpochModelOutOption(sub, o->out);
    sub->add_option("--features", o->features, "Parts scored: arc, arc+sib, arc+gp or arc+sib+gp")
        ->check(CLI::IsMember({"arc", "arc+sib", "arc+gp", "arc+sib+gp"}))
        ->capture_default_str();
    addFeatureHashBitsOption(sub, o->t.hashBits);
    sub->add_option("--seed", o->t.seed, "Seed of the sentence order")->capture_default_str();
    addTrainSkipLengthOption(sub, o->t.maxLength);
    addMaxDevLenOption(sub, o->devMaxLen, "Score dev sentences up to this length only (0 = all)");
    sub->add_flag("--quiet", o->quiet, "No progress on stderr");
    setAction(sub, [o] {
        const auto train = readDepTreebank(o->train);
        const auto dev = readDepTreebank(o->dev, o->devMaxLen);
        if (train.empty()) throw InputError(o->train, 0, 0, "no training sentences");
        requireSentencesToEvaluate(dev.size(), o->dev, o->devMaxLen);
        CubeTrainOptions t = o->t;
        t.update = parseCubeUpdate(o->update);
        t.features = parseCubeFeatureSet(o->features);
        ConsoleProgress console("cube-train", "epoch", o->quiet);
        const Progress& progress = console.progress();
        auto save = [&](const CubeTrainResult& r) {
            const CubeEpochReport& e = r.epochs.back();
            if (!o->quiet)
                std::cerr << o->update << " k=" << t.beam << " epoch " << e.epoch << ": dev UAS "
                          << std::fixed << std::setprecision(2) << e.devUas
                          << "  train UAS (on-line) " << e.trainUas << "  updates " << e.updates
                          << "  non-violations " << e.nonViolations << "  gold fell off "
                          << e.goldFellOff << "/" << e.sentences << "  " << std::setprecision(1)
                          << e.seconds << " s\n";
            CubeModel m = r.model;
            m.training["trainData"] = o->train;
            m.training["devData"] = o->dev;
            m.training["devMaxLength"] = o->devMaxLen;
            m.training["features"] = o->features;
            saveCubeModel(m, o->out);
        };
        const CubeTrainResult r = trainCubeModel(train, dev, t, progress, save);
        if (r.epochs.empty()) throw std::runtime_error("no epoch finished; nothing written");
        const CubeEpochReport& best = r.epochs[static_cast<std::size_t>(r.bestEpoch - 1)];
        std::cout << "wrote " << o->out << ": update " << o->update << ", beam " << t.beam << ", "
                  << r.epochs.size() << " epochs" << (r.cancelled ? " (cancelled)" : "")
                  << ", best epoch " << r.bestEpoch << ", dev UAS " << std::fixed
                  << std::setprecision(2) << best.devUas << ", " << r.model.weights.nonZero()
                  << " non-zero weights\n";
        return r.cancelled ? 130 : 0;
    });
}

void addCubeEval(CLI::App& app) {
    auto* sub = app.add_subcommand(
        "cube-eval",
        "Parse a dependency treebank with a cube-pruning model at beam k and score it");
    struct Opts {
        std::string model, treebank;
        int beam = 0, maxLen = 0;
        bool json = false, quiet = false, perSentence = false;
        CubeMasks masks;
    };
    auto o = std::make_shared<Opts>();
    sub->add_option("--model", o->model, "Cube-pruning model (from cube-train)")->required();
    addDepGoldTreebankOption(sub, o->treebank);
    sub->add_option("--beam", o->beam, "Beam size k (0 = the model's training beam)")
        ->check(CLI::Range(0, 100000))
        ->capture_default_str();
    sub->add_option("--max-len", o->maxLen, "Skip sentences longer than this (0 = none)")
        ->capture_default_str();
    addDepStageOptions(*sub, o->masks.stages);
    sub->add_flag(
        "--json", o->json,
        "Print one JSON object (uas, uasWithPunct, sentences, tokensPerSecond, beam, ...)");
    sub->add_flag("--per-sentence", o->perSentence,
                  "With --json: each sentence's heads and attachment counts (for cube-compare)");
    sub->add_flag("--quiet", o->quiet, "No progress on stderr");
    setAction(sub, [o] {
        const CubeModel model = loadCubeModel(o->model);
        const auto gold = readDepTreebank(o->treebank, o->maxLen);
        requireSentencesToEvaluate(gold.size(), o->treebank, o->maxLen);
        if (!o->quiet) warnLongSentences(gold, kCubePruningCost, "--max-len N skips longer ones");
        const int beam = o->beam > 0 ? o->beam : model.beam;
        const nlohmann::json stages = o->masks.describe();
        ConsoleProgress console("cube-eval", "sentence", o->quiet);
        const DepCorpusResult r = evaluateDepCorpus(
            gold, cubeDecoder(model, beam, o->masks.source()), console.progress());
        nlohmann::json j = r.summaryJson();
        j["beam"] = beam;
        j["model"] = {{"path", o->model},
                      {"parts", cubeFeatureSetName(model.features)},
                      {"trainedBeam", model.beam},
                      {"update", model.training.value("update", "")}};
        j["treebank"] = o->treebank;
        j["maxLength"] = o->maxLen;
        j["stages"] = stages;
        if (o->perSentence) {
            nlohmann::json arr = nlohmann::json::array();
            for (std::size_t i = 0; i < r.sentences.size(); ++i) {
                const auto& s = r.sentences[i];
                arr.push_back({{"file", gold[i].file},
                               {"line", gold[i].line},
                               {"heads", s.heads},
                               {"scoredTokens", s.score.scoredTokens},
                               {"scoredCorrect", s.score.scoredCorrect},
                               {"tokens", s.score.tokens},
                               {"correct", s.score.correct},
                               {"pushes", s.pushes}});
            }
            j["perSentence"] = arr;
        }
        if (o->json) {
            std::cout << j.dump(2) << "\n";
            return 0;
        }
        std::cout << "sentences            " << r.sentences.size() << "\n"
                  << "beam k               " << beam << "\n";
        printAttachmentRows(std::cout, r.total);
        printParseCostRows(std::cout, r);
        return 0;
    });
}

struct CubeParseOptions {
    std::string model, input = "-", mask, explain;
    int beam = 0, kbest = 1;
    bool conll = false, quiet = false;
    CubeMasks masks;
};

void declareCubeParseOptions(CLI::App* sub, CubeParseOptions& o) {
    sub->add_option("--model", o.model, "Cube-pruning model (from cube-train)")->required();
    // The positional form (cube-parse FILE) keeps working as a hidden alias of --input.
    addRenamedOption(sub, o.input, "--input",
                     "Tagged text file (.txt/.tag), treebank file or directory, or '-' for stdin",
                     {"input"})
        ->capture_default_str();
    sub->add_option("--beam", o.beam, "Beam size k (0 = the model's training beam)")
        ->check(CLI::Range(0, 100000))
        ->capture_default_str();
    sub->add_option("--kbest", o.kbest, "List this many trees of the root beam per sentence")
        ->check(CLI::Range(1, 100000))
        ->capture_default_str();
    addMaskFileOption(
        sub, o.mask,
        "Arc mask JSON ({\"n\":..,\"kept\"|\"pruned\":[[h,m],..]}) for a single input sentence",
        {"--mask"});
    sub->add_option("--explain", o.explain,
                    "With gold trees in the input: the gold nodes' beam ranks and violations, the "
                    "s-max node, the p-max frontier "
                    "and what this strategy's update moves toward / away from")
        ->check(CLI::IsMember({"standard", "skip", "smax", "pmax"}));
    addDepStageOptions(*sub, o.masks.stages);
    sub->add_flag("--conll", o.conll, "Print CoNLL-X (ID FORM _ POS POS _ HEAD) instead of JSON");
    addQuietOption(sub, o.quiet);
}

// The sentences of --input: tagged text on standard input ('-'), else a file or directory.
std::vector<DepSentence> readCubeInput(const std::string& input) {
    std::vector<DepSentence> sentences;
    if (input == "-") {
        std::stringstream ss;
        ss << std::cin.rdbuf();
        sentences = readTaggedText(ss.str(), "<stdin>");
    } else {
        sentences = readDepInput(input);
    }
    if (sentences.empty())
        throw InputError(input == "-" ? "<stdin>" : input, 0, 0, "no sentences to parse");
    return sentences;
}

// --mask-file FILE: the arc mask of the one input sentence.
ArcMask readSingleSentenceMask(const std::string& file, const std::vector<DepSentence>& sentences) {
    if (sentences.size() != 1)
        throw std::invalid_argument("--mask-file needs exactly one input sentence, got " +
                                    std::to_string(sentences.size()));
    ArcMask mask = loadArcMaskFile(file).mask;
    if (mask.n != sentences[0].size())
        throw InputError(file, 0, 0,
                         "arc mask for " + std::to_string(mask.n) + " tokens, the sentence has " +
                             std::to_string(sentences[0].size()));
    return mask;
}

void printConllParse(const DepSentence& s, const CubeParse& p) {
    for (int m = 1; m <= s.size(); ++m)
        std::cout << m << '\t' << s.words[static_cast<std::size_t>(m)] << "\t_\t"
                  << s.tags[static_cast<std::size_t>(m)] << '\t'
                  << s.tags[static_cast<std::size_t>(m)] << "\t_\t"
                  << p.heads[static_cast<std::size_t>(m)] << "\n";
    std::cout << "\n";
}

// The best `kbest` trees of the root beam with their scores.
nlohmann::json kbestJson(const CubeChart& ch, int kbest) {
    nlohmann::json kb = nlohmann::json::array();
    const int size = static_cast<int>(ch.beamOf(ch.rootCell()).size());
    for (int r = 0; r < std::min(size, kbest); ++r) {
        const int id = ch.beamItem(ch.rootCell(), r);
        const auto h = ch.heads(id);
        kb.push_back(
            {{"score", ch.item(id).score}, {"heads", std::vector<int>(h.begin() + 1, h.end())}});
    }
    return kb;
}

// One sentence's JSON: heads and counters, UAS with a gold tree, --explain, --kbest.
nlohmann::json cubeParseJson(const CubeParseOptions& o, CubePruner& pruner,
                             const CubeScorer& scorer, const DepSentence& s, const CubeParse& p,
                             int beam) {
    nlohmann::json j = {{"words", std::vector<std::string>(s.words.begin() + 1, s.words.end())},
                        {"heads", std::vector<int>(p.heads.begin() + 1, p.heads.end())},
                        {"success", p.stats.success},
                        {"score", p.stats.score},
                        {"beam", beam},
                        {"pushes", p.stats.pushes},
                        {"arcsKept", p.stats.arcsKept}};
    if (s.hasTree()) j["uas"] = scoreAttachment(s, p.heads).uas();
    if (!o.explain.empty()) {
        if (!s.hasTree())
            throw std::invalid_argument("--explain needs gold trees (a treebank as input)");
        const GoldDerivation g = goldDerivation(pruner, scorer, s.heads);
        j["explain"] = explainCubeUpdate(pruner.chart(), scorer, g, parseCubeUpdate(o.explain));
    }
    if (o.kbest > 1 && p.stats.success) j["kbest"] = kbestJson(pruner.chart(), o.kbest);
    return j;
}

int runCubeParse(CubeParseOptions& o) {
    const CubeModel model = loadCubeModel(o.model);
    const std::vector<DepSentence> sentences = readCubeInput(o.input);
    std::optional<ArcMask> fileMask;
    if (!o.mask.empty()) fileMask = readSingleSentenceMask(o.mask, sentences);
    o.masks.describe();
    const ArcMaskSource stageMasks = o.masks.source();
    if (!o.quiet) warnLongSentences(sentences, kCubePruningCost, "Ctrl-C twice stops it at once");
    CubeOptions co;
    co.beam = o.beam > 0 ? o.beam : model.beam;
    co.singleRoot = model.singleRoot;
    CubePruner pruner(co);
    nlohmann::json out = nlohmann::json::array();
    auto console = std::make_unique<ConsoleProgress>(
        "cube parse", "sentence", o.quiet || (o.conll && ConsoleProgress::stdoutIsTerminal()));
    const Progress& progress = console->progress();
    progress.begin("parsing", static_cast<long>(sentences.size()));
    for (const DepSentence& s : sentences) {
        progress.throwIfCancelled();
        progress.advance(); // counts sentences started (CoNLL is printed as each is parsed)
        std::optional<ArcMask> mask = fileMask;
        if (!mask && stageMasks) mask = stageMasks(s);
        if (std::string why; !pruner.fits(s.size(), &why))
            throw InputError(s.file.empty() ? "<stdin>" : s.file, s.line, 0, why);
        const CubeScorer scorer(model.weights, s, model.features, mask ? &*mask : nullptr);
        const CubeParse p = pruner.parse(scorer);
        if (o.conll)
            printConllParse(s, p);
        else
            out.push_back(cubeParseJson(o, pruner, scorer, s, p, co.beam));
    }
    console.reset(); // clears the progress line before the JSON
    if (!o.conll) std::cout << out.dump(2) << "\n";
    return 0;
}

} // namespace

void addCubeCommands(CLI::App& app) {
    addCubeTrain(app);
    addCubeEval(app);
    addCommand<CubeParseOptions>(app, "cube-parse",
                                 "Parse sentences with a cube-pruning model: tagged text "
                                 "(word/TAG per token, '-' = stdin) or a treebank",
                                 declareCubeParseOptions, runCubeParse);
    addCubeReportCommands(app);
}

} // namespace prunescope::cli
