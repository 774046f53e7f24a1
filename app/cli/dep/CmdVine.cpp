// prunescope-cli vine-train: the vine-pruning cascade (Rush & Petrov 2012) in front of a dependency
// model, trained stage by stage with alpha chosen on dev (dep-bench times it: CmdDepBench.cpp).
#include "app/cli/Commands.h"
#include "app/cli/ConsoleProgress.h"
#include "app/cli/Options.h"
#include "app/cli/dep/DepPipelineOptions.h"
#include "app/cli/dep/DepTrainingFlags.h"
#include "core/dep/DepPipeline.h"
#include "core/dep/DepReader.h"
#include "core/util/AtomicFile.h"
#include "core/util/Error.h"
#include "core/vine/CascadeTraining.h"
#include "core/vine/VineCascade.h"

#include <algorithm>
#include <iomanip>
#include <iostream>
#include <limits>
#include <sstream>

namespace prunescope::cli {

namespace {

struct DevPoint {
    double alpha = 0, uas = 0, arcsKept = 0, finalArcs = 0, tokensPerSecond = 0;
    nlohmann::json toJson() const {
        return {{"alpha", alpha},
                {"uas", uas},
                {"arcsKeptFraction", arcsKept},
                {"finalArcsFraction", finalArcs},
                {"tokensPerSecond", tokensPerSecond}};
    }
};

DevPoint evalDev(const DepModel& model, const VineCascade& c, std::span<const double> alphas,
                 const std::vector<DepSentence>& dev, const Progress& progress) {
    DepPipeline p(model);
    appendCascadeStages(p, c, alphas);
    const DepCorpusResult r = evaluateDepCorpus(dev, p.decoder(progress.cancelFlag()), progress);
    progress.throwIfCancelled();
    DevPoint d;
    d.alpha = alphas.empty() ? 0 : alphas.back();
    d.uas = r.total.uas();
    d.arcsKept = r.arcsKeptFraction();
    d.finalArcs = r.finalArcsFraction();
    d.tokensPerSecond = r.tokensPerSecond();
    return d;
}

struct VineTrainOptions {
    std::string model, train, dev, out, structure = "token";
    CascadeTrainOptions t;
    std::vector<double> grid{0.0, 0.2, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95};
    double tolVine = 0.2, tolTotal = 0.3, tolFirst = -1;
    int firstOrderEpochs = 0;
    int stages = 0; // pruning stages: 2 (vine, first-order) or 3 (+ second-order); 0 = by the model
    bool quiet = false;
};

void declareVineTrainOptions(CLI::App* sub, VineTrainOptions& o) {
    sub->add_option("--model", o.model,
                    "The final-stage dependency model (from dep-train, usually --order 2)")
        ->required();
    sub->add_option("--train", o.train, "Training treebank (directory or file)")->required();
    sub->add_option("--dev", o.dev, "Dev treebank: chooses each stage's alpha")->required();
    sub->add_option("--out", o.out, "Cascade file to write (JSON, docs/file-formats.md)")
        ->required();
    sub->add_option("--band", o.t.band, "Vine band b: arcs of length <= b are vine arcs")
        ->check(CLI::Range(1, 64))
        ->capture_default_str();
    sub->add_option("--vine-structure", o.structure,
                    "token: every token picks a vine head on its own (linear in n); tree: a "
                    "projective tree of short arcs "
                    "and vine arcs (Eisner & Smith 2005's vine grammar, O(n^2 b))")
        ->check(CLI::IsMember({"token", "tree"}))
        ->capture_default_str();
    sub->add_option("--train-alpha", o.t.alpha,
                    "alpha inside the training loss [1 - w.phi(y) + t_alpha]_+")
        ->check(CLI::Range(0.0, 1.0))
        ->capture_default_str();
    sub->add_option("--epochs", o.t.epochs, "Training passes per stage")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    sub->add_option("--first-order-epochs", o.firstOrderEpochs,
                    "Passes for the first-order stage (0 = --epochs)")
        ->capture_default_str();
    addFeatureHashBitsOption(sub, o.t.hashBits, "Feature table size 2^bits per stage");
    addTrainSkipLengthOption(sub, o.t.maxLength);
    sub->add_option("--seed", o.t.seed, "Seed of the sentence order")->capture_default_str();
    sub->add_option("--alpha-grid", o.grid, "alphas tried on dev, per stage (comma-separated)")
        ->delimiter(',')
        ->check(CLI::Range(-1e6, 1.0))
        ->capture_default_str();
    sub->add_option("--vine-tolerance", o.tolVine,
                    "Largest dev UAS loss (points) the vine stage may cost vs exhaustive")
        ->capture_default_str();
    addRenamedOption(sub, o.tolTotal, "--cascade-tolerance",
                     "Largest dev UAS loss (points) of the whole cascade vs exhaustive",
                     {"--tolerance"})
        ->capture_default_str();
    sub->add_option("--stages", o.stages,
                    "Pruning stages: 2 = vine, first-order; 3 = + second-order (Rush & Petrov's "
                    "stage in front of a third-order model); 0 = 3 for a third-order model, else 2")
        ->check(CLI::IsMember({0, 2, 3}))
        ->capture_default_str();
    sub->add_option("--first-order-tolerance", o.tolFirst,
                    "With 3 stages: the dev UAS loss the vine and first-order stages may cost "
                    "(negative = halfway between the vine's and the cascade's tolerance)")
        ->capture_default_str();
    sub->add_flag("--quiet", o.quiet, "No progress on stderr");
}

// What the steps of one vine-train run share: the options, the final model, the data.
struct VineTrainRun {
    const VineTrainOptions& o;
    const DepModel& model;
    const std::vector<DepSentence>& train;
    const std::vector<DepSentence>& dev;
    const Progress& progress;
    void log(const std::string& s) const { progress.log(s); }
};

// An empty cascade in front of the final model, with the run's settings in its training record.
VineCascade startCascade(const VineTrainRun& run) {
    const VineTrainOptions& o = run.o;
    VineCascade c;
    c.singleRoot = run.model.singleRoot;
    c.finalModel = o.model;
    c.training = {
        {"trainData", o.train},         {"devData", o.dev},           {"alphaGrid", o.grid},
        {"vineTolerance", o.tolVine},   {"tolerance", o.tolTotal},    {"trainAlpha", o.t.alpha},
        {"vineStructure", o.structure}, {"maxLength", o.t.maxLength}, {"seed", o.t.seed}};
    return c;
}

// Trains one stage on the arcs `incoming` keeps (all when empty); the stage and whether the
// training was cancelled.
std::pair<VineCascadeStage, bool>
trainStage(const VineTrainRun& run, CascadeStageKind kind,
           const std::function<ArcMask(const DepSentence&)>& incoming) {
    CascadeTrainOptions t = run.o.t;
    t.kind = kind;
    t.singleRoot = run.model.singleRoot;
    if (kind == CascadeStageKind::FirstOrder && run.o.firstOrderEpochs > 0)
        t.epochs = run.o.firstOrderEpochs;
    const CascadeTrainResult r =
        trainCascadeStage(run.train, t, incoming, run.progress, [&](const CascadeTrainResult& rr) {
            const auto& e = rr.epochs.back();
            std::ostringstream l;
            l << cascadeStageKindName(kind) << " epoch " << e.epoch << ": loss "
              << std::setprecision(4) << e.loss << "  violations " << e.violations << "  "
              << std::setprecision(3) << e.seconds << " s";
            run.log(l.str());
        });
    if (r.epochs.empty()) throw Cancelled();
    VineCascadeStage s;
    s.kind = kind;
    s.name = cascadeStageKindName(kind);
    s.band = kind == CascadeStageKind::Vine ? t.band : 0;
    s.structure = t.structure;
    s.weights = r.weights;
    nlohmann::json ep = nlohmann::json::array();
    for (const auto& e : r.epochs)
        ep.push_back({{"epoch", e.epoch},
                      {"loss", e.loss},
                      {"violations", e.violations},
                      {"seconds", e.seconds}});
    s.training = {
        {"alpha", t.alpha}, {"epochs", ep}, {"hashBits", t.hashBits}, {"cancelled", r.cancelled}};
    return std::make_pair(s, r.cancelled);
}

// The last stage's alpha: the largest of the grid (ascending) whose dev UAS stays at or above
// floorUas, and the dev points of the whole grid.
std::pair<double, nlohmann::json> chooseAlpha(const VineTrainRun& run, const VineCascade& c,
                                              double floorUas, const char* what) {
    nlohmann::json pts = nlohmann::json::array();
    double chosen = run.o.grid.front();
    bool within = false;
    for (double a : run.o.grid) {
        std::vector<double> alphas = c.alphas;
        alphas.back() = a;
        const DevPoint d = evalDev(run.model, c, alphas, run.dev, run.progress);
        pts.push_back(d.toJson());
        std::ostringstream l;
        l << what << " alpha " << a << ": dev UAS " << std::fixed << std::setprecision(2) << d.uas
          << "  arcs kept " << std::setprecision(4) << d.arcsKept << "  final arcs " << d.finalArcs
          << "  tokens/s " << std::setprecision(0) << d.tokensPerSecond;
        run.log(l.str());
        if (d.uas >= floorUas - 1e-9) { // grid ascending: the largest within tolerance
            chosen = a;
            within = true;
        }
    }
    if (!within) {
        std::ostringstream l;
        l << what << ": no alpha of the grid keeps dev UAS at or above " << std::fixed
          << std::setprecision(2) << floorUas << "; the smallest, " << chosen
          << ", is chosen (a lower --alpha-grid value prunes less)";
        std::cerr << "vine-train: warning: " << l.str() << "\n"; // shown even with --quiet
    }
    return std::make_pair(chosen, pts);
}

// The next stage's training arcs: those every stage so far keeps at its chosen alpha.
std::function<ArcMask(const DepSentence&)> keptArcs(const VineCascade& sofar) {
    return [sofar](const DepSentence& s) {
        ArcMask mask = ArcMask::allKeep(s.size());
        for (std::size_t k = 0; k < sofar.stages.size(); ++k) {
            const StageMarginals sm = cascadeStageMarginals(sofar, k, s, mask);
            mask = stageMask(sm, sofar.alphas[k], mask);
        }
        return mask;
    };
}

int runVineTrain(VineTrainOptions o) {
    refuseToOverwriteInput(o.out, {o.model, o.train, o.dev});
    vineStructureFromName(o.structure, o.t.structure); // CLI11 checked the name
    const DepModel model = loadDepModel(o.model);
    const auto train = readDepTreebank(o.train);
    const auto dev = readDepTreebank(o.dev);
    if (train.empty()) throw InputError(o.train, 0, 0, "no training sentences");
    requireSentencesToEvaluate(dev.size(), o.dev, 0);
    if (o.grid.empty()) throw UsageError("--alpha-grid: no alphas");
    std::sort(o.grid.begin(), o.grid.end());
    ConsoleProgress console("vine-train", "epoch", o.quiet);
    const VineTrainRun run{o, model, train, dev, console.progress()};

    VineCascade c = startCascade(run);
    DepPipeline exhaustive(model);
    const DepCorpusResult base =
        evaluateDepCorpus(dev, exhaustive.decoder(run.progress.cancelFlag()), run.progress);
    run.progress.throwIfCancelled();
    c.training["devExhaustive"] = {{"uas", base.total.uas()},
                                   {"tokensPerSecond", base.tokensPerSecond()}};
    run.log("exhaustive order-" + std::to_string(model.order) + " dev UAS " +
            std::to_string(base.total.uas()));

    // Stage 1: the vine, on every arc.
    auto [vine, vineCancelled] = trainStage(run, CascadeStageKind::Vine, {});
    c.stages.push_back(vine);
    c.alphas.push_back(o.grid.front());
    saveVineCascade(c, o.out);
    if (vineCancelled) return 0;
    auto [vineAlpha, vinePts] = chooseAlpha(run, c, base.total.uas() - o.tolVine, "vine");
    c.alphas.back() = vineAlpha;
    c.training["devVine"] = vinePts;
    saveVineCascade(c, o.out);

    // Stage 2: first-order, on the arcs the vine keeps at its chosen alpha.
    const int stages = o.stages > 0 ? o.stages : (model.order >= 3 ? 3 : 2);
    const double tolFirst =
        stages < 3 ? o.tolTotal : (o.tolFirst >= 0 ? o.tolFirst : (o.tolVine + o.tolTotal) / 2);
    auto [first, firstCancelled] = trainStage(run, CascadeStageKind::FirstOrder, keptArcs(c));
    c.stages.push_back(first);
    c.alphas.push_back(-1e6); // keep-all until chosen
    if (firstCancelled) {
        saveVineCascade(c, o.out);
        return 0;
    }
    auto [firstAlpha, firstPts] = chooseAlpha(run, c, base.total.uas() - tolFirst, "first-order");
    c.alphas.back() = firstAlpha;
    c.training["devFirstOrder"] = firstPts;
    saveVineCascade(c, o.out);
    std::ostringstream summary;
    summary << "vine (" << vineStructureName(o.t.structure) << ") band " << o.t.band << " alpha "
            << vineAlpha << ", first-order alpha " << firstAlpha;

    if (stages == 3) {
        // Stage 3: second-order, on the arcs the vine and the first-order stage keep.
        c.training["firstOrderTolerance"] = tolFirst;
        auto [second, secondCancelled] =
            trainStage(run, CascadeStageKind::SecondOrder, keptArcs(c));
        c.stages.push_back(second);
        c.alphas.push_back(-1e6);
        if (secondCancelled) {
            saveVineCascade(c, o.out);
            return 0;
        }
        auto [secondAlpha, secondPts] =
            chooseAlpha(run, c, base.total.uas() - o.tolTotal, "second-order");
        c.alphas.back() = secondAlpha;
        c.training["devSecondOrder"] = secondPts;
        saveVineCascade(c, o.out);
        summary << ", second-order alpha " << secondAlpha;
    }
    std::cout << "wrote " << o.out << ": " << summary.str() << " (exhaustive order-" << model.order
              << " dev UAS " << std::fixed << std::setprecision(2) << base.total.uas() << ")\n";
    return 0;
}

} // namespace

void addVineCommands(CLI::App& app) {
    addCommand<VineTrainOptions>(app, "vine-train",
                                 "Train a vine-pruning cascade (vine -> first-order [-> "
                                 "second-order]) in front of a dependency model; alpha per stage "
                                 "chosen on dev",
                                 declareVineTrainOptions, runVineTrain);
    addDepBenchCommand(app);
    addVineFrontierCommand(app);
    addVineComplexityCommand(app);
}

} // namespace prunescope::cli
